// The text of a cross-origin style sheet, for a content script naming elements (the page's CSSOM
// hides its rules; see content/snapshot/external-sheets.ts). Fetched without credentials: the
// person's cookies never go with a request the extension makes, and a sheet that needs them comes
// back as an error or as HTML, which the content script treats as unknown (it then checks every
// element, as it did before). The content script asks only for sheets the page already requested,
// and only while an agent reads a state.
import { isSheetTextRequest, type SheetTextResponse } from '../../shared/sheet-messages';

/** Bigger sheets are rare (a whole design system is ~1 MB); past this the check stays per element. */
const MAX_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

export async function fetchSheetText(url: string): Promise<SheetTextResponse> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'refused' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'refused' };
  let res: Response;
  try {
    res = await fetch(parsed.href, {
      credentials: 'omit',
      cache: 'force-cache',
      redirect: 'follow',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { ok: false, reason: 'network' };
  }
  if (!res.ok) {
    void res.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'status', status: res.status };
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > MAX_BYTES) {
    void res.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'too_large' };
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    return { ok: false, reason: 'network' };
  }
  if (text.length > MAX_BYTES) return { ok: false, reason: 'too_large' };
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return { ok: true, text, css: type === 'text/css' };
}

export function installSheetText(): void {
  chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse: (r: SheetTextResponse) => void) => {
    if (!isSheetTextRequest(message)) return false;
    // Our own content scripts only (a page cannot message the worker; other extensions would need externally_connectable).
    if (sender.id !== chrome.runtime.id || sender.tab === undefined) return false;
    void fetchSheetText(message.url).then(sendResponse, () => sendResponse({ ok: false, reason: 'network' }));
    return true;
  });
}
