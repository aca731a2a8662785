// Which <link rel=stylesheet> elements fired `error` (their sheet, or one it imports, did not
// load). Recorded from document_start by early.ts, in the isolated world both content scripts
// share, so content.js (document_idle) can tell a sheet that failed for the page from one that
// loaded: a failed cross-origin sheet has no rules, though the CSSOM refuses to say so.

declare global {
  interface Window {
    __browserUseExtSheetErrors?: WeakSet<Element>;
  }
}

export function watchSheetErrors(): void {
  if (window.__browserUseExtSheetErrors) return;
  const failed = new WeakSet<Element>();
  window.__browserUseExtSheetErrors = failed;
  // error and load do not bubble: capture on the document sees them for every element in it (a load
  // event's path stops at the document, never the window: DOM "get the parent").
  const onError = (e: Event) => {
    if (e.target instanceof HTMLLinkElement) failed.add(e.target);
  };
  const onLoad = (e: Event) => {
    if (e.target instanceof HTMLLinkElement) failed.delete(e.target); // its href changed and the new one loaded
  };
  document.addEventListener('error', onError, true);
  document.addEventListener('load', onLoad, true);
}

/** The link fired error after this document's content scripts started (false when not known). */
export function sheetLoadFailed(owner: Node | null): boolean {
  return owner instanceof HTMLLinkElement && (window.__browserUseExtSheetErrors?.has(owner) ?? false);
}
