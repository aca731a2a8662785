// The change push, page side: a page that changes by itself (a timer, a socket, a late render) must
// reach the agent that watches it within about 300 ms (seed 002: a snapshot is "sent after every
// meaningful DOM change on any target tab"), where polling with get_state cost a second or more and
// a state collection per poll. A MutationObserver notes the change; once the document has held still
// for QUIET_MS (or CAP_MS after the first mutation, so a page that never stops still reports), the
// frame tells the worker, which takes the state and pushes it (background/page-watch/change-push.ts).
// Changes an action causes are not pushed: the action's own result carries that state, and a push
// taken mid-action could reach the agent after the newer result. Our own UI coming and going is not
// a change of the page (isAgentUiRecord). Timers only: rAF does not run in background tabs.
import { CHANGE_CHANNEL, type PageChangedNote } from '../shared/change-messages';
import { isAgentUiRecord } from './settle';

const QUIET_MS = 50;
const CAP_MS = 200;
/** An action's hold ends with its settle wait (or the next state read); this bounds one whose end never came. */
const HOLD_MAX_MS = 15_000;

export class ChangeWatch {
  private observer: MutationObserver | null = null;
  private firstAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private heldUntil = 0;

  /** Starts (on) or stops watching this document. */
  observe(on: boolean): void {
    if (!on) {
      this.observer?.disconnect();
      this.observer = null;
      this.cancel();
      return;
    }
    if (this.observer) return;
    this.observer = new MutationObserver((records) => {
      if (performance.now() < this.heldUntil || records.every(isAgentUiRecord)) return;
      const now = performance.now();
      if (this.timer === undefined) this.firstAt = now;
      clearTimeout(this.timer);
      // Quiet for QUIET_MS, but never later than CAP_MS after the first mutation of this burst.
      this.timer = setTimeout(() => this.report(), Math.max(0, Math.min(QUIET_MS, this.firstAt + CAP_MS - now)));
    });
    this.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  /** An action began in this document: what changes now is its effect, reported in its own result. */
  hold(): void {
    this.heldUntil = performance.now() + HOLD_MAX_MS;
    this.cancel();
  }

  /** The action's settle wait ended: changes from here on are the page's own again. */
  release(): void {
    this.heldUntil = 0;
    this.cancel();
  }

  private cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private report(): void {
    this.timer = undefined;
    const note: PageChangedNote = { channel: CHANGE_CHANNEL, kind: 'changed' };
    // The worker may be stopped: sending wakes it. A refusal (extension reloaded) needs no answer.
    chrome.runtime.sendMessage(note).catch(() => undefined);
  }
}
