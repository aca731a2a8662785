// Why: the kept page state (content/snapshot/walk-cache.ts) wraps page functions and watches the
// page, which a page could notice; it runs only in tabs an agent holds. The worker knows the holds
// (background/state/keep-state-arm.ts) and tells every frame of a tab when one begins or ends; a
// frame starting up asks. Each answer carries a generation, so a late answer to a frame's ask never
// undoes a newer message.

/** Worker -> every frame of a tab (chrome.tabs.sendMessage), and the answer to a frame's ask. */
export interface KeepStateMessage {
  type: 'bux_keep_state';
  on: boolean;
  /** Rises with every change the worker makes; a frame ignores anything not newer than what it has. */
  gen: number;
}

/** A frame -> the worker, at document_start: is my tab held now? */
export interface KeepStateAsk {
  type: 'bux_keep_state_ask';
}

export const isKeepStateMessage = (m: unknown): m is KeepStateMessage =>
  typeof m === 'object' &&
  m !== null &&
  (m as { type?: unknown }).type === 'bux_keep_state' &&
  typeof (m as { on?: unknown }).on === 'boolean' &&
  typeof (m as { gen?: unknown }).gen === 'number';

export const isKeepStateAsk = (m: unknown): m is KeepStateAsk =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'bux_keep_state_ask';
