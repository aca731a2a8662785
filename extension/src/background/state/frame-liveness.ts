// Which child frames still owe the worker an answer ("frames that do not answer never
// hold a state for more than a small, documented budget").
//
// A frame whose renderer is blocked (a cross-origin ad stuck in a synchronous request or a busy
// loop) answers nothing: the first state waits PROBE_BUDGET_MS for it and lists it as left out. The
// message that went unanswered stays pending in Chrome until the frame answers it, navigates or
// goes away (then sendMessage settles). While such a message is still pending past the budget the
// frame is known to be unresponsive, so the next states list it as left out at once instead of
// paying the budget again on every agent step; as soon as the pending message settles the frame is
// asked again like any other.
//
// A document with no content script to answer (still loading: content.js comes at document_idle,
// after DOMContentLoaded; or one Chrome does not let the extension script) is not asked again until
// something says it may answer now: its DOMContentLoaded or load, or a new document in its frame.
// A frame whose response never finishes would otherwise cost every state a port that fails, a
// one-off message that fails, and (without this) the same again for its snapshot and its token.
import { PROBE_BUDGET_MS } from './frame-budget';

interface Outstanding {
  frameId: number;
  documentId: string | undefined;
  since: number;
}

/** tab id -> requests in flight to its child frames (ping and snapshot messages). */
const inFlight = new Map<number, Set<Outstanding>>();

/**
 * Tracks a request to a child frame until it settles; documentId (webNavigation) scopes it to the
 * document it was sent to, so a frame that navigated to a new document is asked afresh.
 */
export function trackRequest<T>(tabId: number, frameId: number, documentId: string | undefined, request: Promise<T>): Promise<T> {
  let set = inFlight.get(tabId);
  if (!set) inFlight.set(tabId, (set = new Set()));
  const entry: Outstanding = { frameId, documentId, since: performance.now() };
  set.add(entry);
  const done = () => {
    set.delete(entry);
    if (set.size === 0 && inFlight.get(tabId) === set) inFlight.delete(tabId);
  };
  request.then(done, done);
  return request;
}

/**
 * How long the frame's document has owed an answer (ms), when an earlier request to it has been
 * pending longer than the probe budget; null when it has nothing overdue (ask it normally).
 */
export function overdueFor(tabId: number, frameId: number, documentId: string | undefined, now = performance.now()): number | null {
  const set = inFlight.get(tabId);
  if (!set) return null;
  let oldest: number | null = null;
  for (const o of set) {
    if (o.frameId !== frameId) continue;
    if (documentId !== undefined && o.documentId !== undefined && o.documentId !== documentId) continue;
    const age = now - o.since;
    if (age > PROBE_BUDGET_MS && (oldest === null || age > oldest)) oldest = age;
  }
  return oldest;
}

/** tab id -> `${frameId}:${documentId}` of documents that had no content script to answer. */
const noScript = new Map<number, Set<string>>();

/** The frame's document had no content script to answer (a failed ping). */
export function markNoScript(tabId: number, frameId: number, documentId: string | undefined): void {
  if (documentId === undefined) return; // no way to tell its next document from it
  let set = noScript.get(tabId);
  if (!set) noScript.set(tabId, (set = new Set()));
  set.add(`${frameId}:${documentId}`);
}

/** Has this document been found without a content script, with nothing since that says it may have one now? */
export function knownNoScript(tabId: number, frameId: number, documentId: string | undefined): boolean {
  return documentId !== undefined && (noScript.get(tabId)?.has(`${frameId}:${documentId}`) ?? false);
}

function mayAnswerNow(d: { tabId: number; frameId: number }): void {
  const set = noScript.get(d.tabId);
  if (!set) return;
  const prefix = `${d.frameId}:`;
  for (const key of set) if (key.startsWith(prefix)) set.delete(key);
  if (set.size === 0) noScript.delete(d.tabId);
}

/** A frame that commits or loads may have a content script now: it is asked again. Called by index.ts. */
export function installFrameLiveness(): void {
  chrome.webNavigation.onCommitted.addListener(mayAnswerNow);
  chrome.webNavigation.onDOMContentLoaded.addListener(mayAnswerNow);
  chrome.webNavigation.onCompleted.addListener(mayAnswerNow);
}

/** Forget a closed tab. */
export function forgetTabRequests(tabId: number): void {
  inFlight.delete(tabId);
  noScript.delete(tabId);
}

/** Requests in flight to this tab's child frames (closed-tabs.ts, tests). */
export function requestsHeldFor(tabId: number): number {
  return inFlight.get(tabId)?.size ?? 0;
}
