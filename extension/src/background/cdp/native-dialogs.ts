// In a tab a CDP client holds, alert/confirm/prompt and beforeunload are the browser's own, so the
// client gets Page.javascriptDialogOpening and answers with Page.handleJavaScriptDialog, as on Chrome's
// own endpoint (Playwright's page.on('dialog'), and its auto-dismiss when nobody listens). Elsewhere
// the MAIN-world hooks answer them by the person's dialog policy (main-world/hooks.ts).
//
// Why a new-document script over the tab's own DevTools session: the hooks must know from the very
// first page script of every document (a dialog in an inline script or an onload handler right after
// Page.navigate), and nothing per tab reaches a content script synchronously at document_start (a
// message at webNavigation.onCommitted races the page's first script; registerContentScripts is not
// per tab; a header or cookie the page could read or send itself). Chrome runs the script of
// Page.addScriptToEvaluateOnNewDocument when a frame's window object is created, before content
// scripts and the page's own; it sets a mark the hooks read and delete first thing. Chrome drops the
// script with the attachment, so a detached tab's next documents follow the person's policy again.
// Documents open when the hold begins or ends are told through their isolated world (a message).
// Out-of-process frames are separate DevTools targets: they learn it from that message only.
import { NATIVE_DIALOGS_MARK, type NativeDialogsMessage } from '../../shared/page-link';
import { attachedNow } from './debugger-attachments';

/** The script's identifier per held tab (to remove it when trusted input keeps the tab attached after the hold). */
const scripts = new Map<number, string>();

// Runs in the page's main world before anything else; configurable, so the hooks can delete it.
const SOURCE = `Object.defineProperty(window,Symbol.for(${JSON.stringify(NATIVE_DIALOGS_MARK)}),{value:true,configurable:true})`;

/** How long an attach waits for the open document to confirm (a page busy in a long script answers late). */
const TOLD_MS = 300;

/** Tells every frame's isolated world; settles when the first frame (usually the top one) confirmed, or after TOLD_MS. */
function tellFrames(tabId: number, on: boolean): Promise<void> {
  const message: NativeDialogsMessage = { type: 'bux_native_dialogs', on };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A tab with no content script (a page extensions cannot script) has no hooks to tell: rejected at once.
  const told = chrome.tabs.sendMessage(tabId, message).then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([told, new Promise<void>((r) => (timer = setTimeout(r, TOLD_MS)))]).finally(() => clearTimeout(timer));
}

async function addScript(tabId: number): Promise<void> {
  try {
    const r = (await chrome.debugger.sendCommand({ tabId }, 'Page.addScriptToEvaluateOnNewDocument', { source: SOURCE })) as
      { identifier?: unknown } | undefined;
    if (typeof r?.identifier === 'string') scripts.set(tabId, r.identifier);
  } catch {
    // The attachment is already gone: the hold ends too, and nativeDialogsOff follows.
  }
}

/**
 * A CDP client now holds the tab (attached): dialogs are native in the open document once this
 * settles (so before the client's first command) and in every later one from its first script. Never throws.
 */
export async function nativeDialogsOn(tabId: number): Promise<void> {
  if (scripts.has(tabId)) return;
  await Promise.all([tellFrames(tabId, true), addScript(tabId)]);
}

/** The hold ended: the person's policy answers dialogs again, in open documents and the next ones. Never throws. */
export async function nativeDialogsOff(tabId: number): Promise<void> {
  const identifier = scripts.get(tabId);
  scripts.delete(tabId);
  void tellFrames(tabId, false);
  // Detached: Chrome dropped the script with the session. Still attached (trusted input runs): remove it.
  if (identifier !== undefined && attachedNow(tabId))
    await chrome.debugger.sendCommand({ tabId }, 'Page.removeScriptToEvaluateOnNewDocument', { identifier }).catch(() => undefined);
}
