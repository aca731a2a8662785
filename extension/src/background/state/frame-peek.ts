// Snapshots asked ahead of need (fetch.ts prefetchFrames: every child frame of a whole-page state
// with its ping, and for a viewport state the frames its last state had in scope) may turn out not
// to be part of the state: a frame hidden, or whose iframe left the scope. is_new compares with
// "the previous state of the same document" (actionable_element.json): a state the agent got. So
// such a request is a peek: the content script answers it without making it its document's
// previous state (content/snapshot/index.ts), and learns at its next request whether the state used
// it (then it is the previous state after all) or not. Which frames' peeks are pending, used or
// left out is kept here, per tab and frame, until that next request carries it.
type Outcome = 'pending' | 'used' | 'left_out';

const peeks = new Map<string, Outcome>();
const keyOf = (tabId: number, frameId: number) => `${tabId}|${frameId}`;

/** A peek was sent to this frame. */
export function peekSent(tabId: number, frameId: number): void {
  peeks.set(keyOf(tabId, frameId), 'pending');
}

/** The state uses this frame's peeked answer. */
export function peekUsed(tabId: number, frameId: number): void {
  const k = keyOf(tabId, frameId);
  if (peeks.has(k)) peeks.set(k, 'used');
}

/** The state is assembled: the peeks it did not use are left out. */
export function peeksSettled(tabId: number): void {
  const prefix = `${tabId}|`;
  for (const [k, v] of peeks) if (v === 'pending' && k.startsWith(prefix)) peeks.set(k, 'left_out');
}

/** What the next request to this frame tells it of its last peek (once), or undefined (nothing settled). */
export function takePeekOutcome(tabId: number, frameId: number): 'used' | 'left_out' | undefined {
  const k = keyOf(tabId, frameId);
  const v = peeks.get(k);
  if (v === undefined || v === 'pending') return undefined;
  peeks.delete(k);
  return v;
}

/** A tab closed. */
export function forgetPeeks(tabId: number): void {
  const prefix = `${tabId}|`;
  for (const k of [...peeks.keys()]) if (k.startsWith(prefix)) peeks.delete(k);
}
