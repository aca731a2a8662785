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
// An out-of-process frame is a DevTools target of its own, reached only once a client auto-attaches
// to it: the script is added on its child session as Chrome announces it, before the client hears of
// it, so before the client's Runtime.runIfWaitingForDebugger lets the frame start (Playwright and
// puppeteer attach with waitForDebuggerOnStart).
// Cost, measured in the worker: the script and the message go out together, about 2 ms p50 once per
// hold (addScript 1.2 ms, the first frame's answer 2.0 ms); a child frame's script delays no event.
import { NATIVE_DIALOGS_MARK, type NativeDialogsMessage } from '../../shared/page-link';
import { attachedNow } from './debugger-attachments';

/**
 * The script's identifier per held tab and per child session of its out-of-process frames (to remove
 * them when trusted input keeps the tab attached after the hold).
 */
const scripts = new Map<number, string>();
const childScripts = new Map<number, Map<string, string>>();

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

/** The identifier of the script added on the tab's session (or a child session's), or undefined (the attachment is gone). */
async function addScript(target: chrome.debugger.DebuggerSession): Promise<string | undefined> {
  try {
    const r = (await chrome.debugger.sendCommand(target, 'Page.addScriptToEvaluateOnNewDocument', { source: SOURCE })) as
      { identifier?: unknown } | undefined;
    return typeof r?.identifier === 'string' ? r.identifier : undefined;
  } catch {
    return undefined; // the hold ends too, and nativeDialogsOff follows
  }
}

/**
 * A CDP client now holds the tab (attached): dialogs are native in the open document once this
 * settles (so before the client's first command) and in every later one from its first script. Never throws.
 */
export async function nativeDialogsOn(tabId: number): Promise<void> {
  if (scripts.has(tabId)) return;
  const [, identifier] = await Promise.all([tellFrames(tabId, true), addScript({ tabId })]);
  if (identifier !== undefined) scripts.set(tabId, identifier);
}

/**
 * A DevTools event of a held tab, before it is relayed: an out-of-process frame's child session gets
 * the script now, sent ahead of anything the client can send that session.
 */
export function nativeDialogsOnEvent(tabId: number, method: string, params: Record<string, unknown>): void {
  if (method !== 'Target.attachedToTarget' || !scripts.has(tabId)) return;
  const info = params['targetInfo'] as { type?: unknown } | undefined;
  const sessionId = params['sessionId'];
  if (info?.type !== 'iframe' || typeof sessionId !== 'string') return;
  void addScript({ tabId, sessionId }).then((identifier) => {
    if (identifier === undefined || !scripts.has(tabId)) return;
    const mine = childScripts.get(tabId) ?? new Map<string, string>();
    childScripts.set(tabId, mine.set(sessionId, identifier));
  });
}

/** The hold ended: the person's policy answers dialogs again, in open documents and the next ones. Never throws. */
export async function nativeDialogsOff(tabId: number): Promise<void> {
  const identifier = scripts.get(tabId);
  const children = childScripts.get(tabId) ?? new Map<string, string>();
  scripts.delete(tabId);
  childScripts.delete(tabId);
  void tellFrames(tabId, false);
  // Detached: Chrome dropped the scripts with the session. Still attached (trusted input runs): remove them.
  if (!attachedNow(tabId)) return;
  const remove = (target: chrome.debugger.DebuggerSession, id: string) =>
    chrome.debugger.sendCommand(target, 'Page.removeScriptToEvaluateOnNewDocument', { identifier: id }).catch(() => undefined);
  await Promise.all([
    identifier === undefined ? undefined : remove({ tabId }, identifier),
    ...[...children].map(([sessionId, id]) => remove({ tabId, sessionId }, id)),
  ]);
}
