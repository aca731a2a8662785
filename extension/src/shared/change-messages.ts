// Worker <-> isolated-world messages of the change push (content/change-watch.ts,
// background/page-watch/change-push.ts): the worker asks a frame to watch its document, and the
// frame says when the page changed by itself and held still. On their own channel, never part of the
// wire protocol (what reaches an agent is state_update, schemas/v1/messages/state_update.json).

export const CHANGE_CHANNEL = 'bux-change';

/** Worker -> every frame of a watched tab: start (on) or stop watching the document. */
export interface ChangeObserveRequest {
  channel: typeof CHANGE_CHANNEL;
  kind: 'observe';
  on: boolean;
}

/** Frame -> worker: the page mutated by itself and has been quiet since (or the cap passed). */
export interface PageChangedNote {
  channel: typeof CHANGE_CHANNEL;
  kind: 'changed';
}

export type ChangeMessage = ChangeObserveRequest | PageChangedNote;

export function isChangeMessage(m: unknown): m is ChangeMessage {
  return typeof m === 'object' && m !== null && (m as { channel?: unknown }).channel === CHANGE_CHANNEL;
}
