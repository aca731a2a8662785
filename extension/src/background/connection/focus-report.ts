// Tells the bridge when the person last used this browser, so an agent that names no browser lands in
// the one the person is in (of a work and a personal profile, the one in front). A window getting
// focus (chrome.windows.onFocusChanged, https://developer.chrome.com/docs/extensions/reference/api/windows#event-onFocusChanged)
// is reported as browser_update {focused_at}, at most once per 2 s: switching windows back and forth
// sends one message, and the last switch is never lost (it goes when the 2 s are over). Each new
// connection gets one at once too, as the bridge forgets nothing it was not told.
import type { BrowserUpdateMessage } from '../../../../schemas/generated/protocol';

export const FOCUS_REPORT_GAP_MS = 2000;
/** chrome.windows.WINDOW_ID_NONE: every window of the browser lost focus (the person went to another program). */
const WINDOW_ID_NONE = -1;

export interface FocusClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: FocusClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class FocusReport {
  /** When a window of this browser last got focus, as far as this worker saw (null: not since it started). */
  private focusedAt: number | null = null;
  /** When the last report went out (its own clock, so the gap holds whatever focused_at said). */
  private sentAt = -Infinity;
  private timer: unknown = null;

  /** send: true when the message went to a connected bridge. */
  constructor(
    private readonly send: (m: BrowserUpdateMessage) => boolean,
    private readonly clock: FocusClock = realClock,
    private readonly gapMs = FOCUS_REPORT_GAP_MS,
  ) {}

  /** chrome.windows.onFocusChanged: a real window got focus now. */
  windowFocused(windowId: number): void {
    if (windowId === WINDOW_ID_NONE) return;
    this.focusedAt = this.clock.now();
    if (this.timer !== null) return; // the report due at the end of the gap carries this time
    const wait = this.sentAt + this.gapMs - this.clock.now();
    if (wait <= 0) this.report();
    else this.timer = this.clock.setTimeout(() => this.report(), wait);
  }

  /** After each hello_ack: the browser's focus as of now (focusedNow: one of its windows has focus). */
  connected(focusedNow: boolean): void {
    if (focusedNow) this.focusedAt = this.clock.now();
    this.report();
  }

  private report(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    // Nothing seen yet (a worker started while the person is in another program): nothing to tell.
    if (this.focusedAt === null) return;
    // Not connected: the next connection's report carries the time.
    if (this.send({ type: 'browser_update', focused_at: this.focusedAt })) this.sentAt = this.clock.now();
  }
}

/** Whether one of this browser's windows has focus now (headless and minimised windows: none). */
export async function browserFocused(): Promise<boolean> {
  try {
    return (await chrome.windows.getLastFocused()).focused;
  } catch {
    return false; // no window at all
  }
}
