// Why: the kept page state (content/snapshot/walk-cache.ts) wraps page functions in the page's own
// world and watches the page; a page or an anti-bot script could notice the wrappers, so they exist
// only in tabs an agent holds. This module knows which tabs those are (the bridge's leases, as
// controlled-tabs.ts receives them) and tells every frame of a tab when its hold begins or ends.
//
// A frame that loads later (a navigation, an iframe added) asks at document_start (content/early.ts)
// rather than waiting to be told: a message the worker sends before the frame's listener exists is
// lost, while the frame's own ask always gets an answer. Both carry a rising generation, so an ask
// answered before a change but delivered after its message cannot undo it.
import { isKeepStateAsk, type KeepStateMessage } from '../../shared/keep-state-messages';

let held = new Set<number>();
let gen = 0;
/** Until the first lease list since this worker started: frames armed by an earlier worker are unknown. */
let first = true;

function next(): number {
  // Above any generation an earlier worker handed out (this one may have restarted).
  gen = Math.max(gen + 1, Date.now());
  return gen;
}

function tell(tabId: number, on: boolean): void {
  const m: KeepStateMessage = { type: 'bux_keep_state', on, gen: next() };
  // Every frame of the tab; a tab that has gone or has no content script has nothing to arm.
  chrome.tabs.sendMessage(tabId, m).catch(() => undefined);
}

/** The tabs agents hold now (CDP clients' excepted: nothing is kept in their tabs). */
export function setKeptStateTabs(tabIds: Iterable<number>): void {
  const now = new Set(tabIds);
  for (const t of now) if (!held.has(t)) tell(t, true);
  if (first) {
    first = false;
    // A restarted worker does not know which tabs an earlier one armed: every other tab disarms.
    void chrome.tabs.query({}).then(
      (tabs) => {
        for (const t of tabs) if (t.id !== undefined && !held.has(t.id)) tell(t.id, false);
      },
      () => undefined,
    );
  } else for (const t of held) if (!now.has(t)) tell(t, false);
  held = now;
}

export function installKeepStateAnswers(): void {
  chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse: (r: KeepStateMessage) => void) => {
    if (!isKeepStateAsk(message)) return false;
    // Our own content scripts only (a page cannot message the worker).
    const tabId = sender.tab?.id;
    if (sender.id !== chrome.runtime.id || tabId === undefined) return false;
    sendResponse({ type: 'bux_keep_state', on: held.has(tabId), gen: next() });
    return false;
  });
}
