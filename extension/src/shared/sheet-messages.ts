// A content script asking the service worker for the text of a style sheet from another origin
// (chrome.runtime messaging, never the wire). The page's CSSOM hides such a sheet's rules (its
// origin-clean flag is unset); the worker may fetch it under the extension's host permissions.
// Used only for accessible names: which elements can have ::before/::after generated content
// (content/snapshot/external-sheets.ts, background/state/sheet-text.ts).

export interface SheetTextRequest {
  bux: 'sheet_text';
  /** An http(s) URL of a style sheet the page itself requested. */
  url: string;
}

export type SheetTextResponse =
  | {
      ok: true;
      text: string;
      /** The response said text/css (a browser applies a cross-origin sheet in standards mode only then). */
      css: boolean;
    }
  | {
      ok: false;
      /**
       * network: no response at all (refused, unreachable, timed out); status: an HTTP error;
       * refused: not a URL the worker fetches; too_large: over the size cap.
       */
      reason: 'network' | 'status' | 'refused' | 'too_large';
      status?: number;
    };

export function isSheetTextRequest(m: unknown): m is SheetTextRequest {
  return (
    typeof m === 'object' && m !== null && (m as { bux?: unknown }).bux === 'sheet_text' && typeof (m as { url?: unknown }).url === 'string'
  );
}
