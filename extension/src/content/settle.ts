// Settle detection inside one document (isolated world). The worker brackets an action with
// `begin` (start observing) and `wait` (the settle rule), see background/page-watch/settle-rule.ts:
//   1. DOM quiet: no mutation for quiet_ms (capped at dom_cap_ms);
//   2. network idle: no fetch/XHR in flight (reported by main-world/hooks.ts; capped at network_cap_ms);
//   3. if requests had to be awaited, DOM quiet again (their responses usually render something).
// Timers only, never requestAnimationFrame: rAF does not run in background tabs, and the agent's
// tab is often not the one the person looks at.
import type { ApiCall, DialogRecord } from '../../../schemas/generated/protocol';
import { isAgentUi, isAgentUiRoot } from '../shared/agent-ui-marker';
import type { MainToIsolated } from '../shared/page-link';
import type { DownloadRequest, Drained, SettleReport, SettleWaitParams } from '../shared/settle-messages';

const LOG_MAX = 50;

/** fetch/XHR and dialog records from the main world, kept until drained (by the next state). */
export class PageActivity {
  readonly pending = new Map<number, ApiCall>();
  private log: ApiCall[] = [];
  private dialogs: DialogRecord[] = [];
  private dialogCount = 0;
  /** blob:/data: downloads the page asked for since the tracker's begin (an earlier one is no action's). */
  downloadRequests: DownloadRequest[] = [];
  private listeners = new Set<() => void>();
  /** Counts since the tracker's begin. */
  requestsStarted = 0;
  dialogsSeen = 0;

  onMessage(m: MainToIsolated): void {
    if (m.t === 'req_start') {
      this.pending.set(m.id, m.call);
      this.log.push(m.call);
      if (this.log.length > LOG_MAX) this.log.shift();
      this.requestsStarted++;
    } else if (m.t === 'req_end') {
      const call = this.pending.get(m.id);
      if (call) call.status = m.status;
      this.pending.delete(m.id);
    } else if (m.t === 'dialog') {
      this.dialogs.push(m.record);
      if (this.dialogs.length > 10) this.dialogs.shift();
      this.dialogCount++;
      this.dialogsSeen++;
    } else if (m.t === 'download_request') {
      this.downloadRequests.push({ name: m.name, at: m.at });
      if (this.downloadRequests.length > 10) this.downloadRequests.shift();
    }
    for (const l of this.listeners) l();
  }

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** The download requests alone, taken out (an action without settling asks for them). */
  takeDownloadRequests(): DownloadRequest[] {
    const out = this.downloadRequests;
    this.downloadRequests = [];
    return out;
  }

  drain(): Drained {
    const out: Drained = {
      api_activity: this.log,
      dialogs: this.dialogs,
      dialog_count: this.dialogCount,
      pending: [...this.pending.values()],
      ...(this.downloadRequests.length ? { download_requests: this.downloadRequests } : {}),
    };
    this.downloadRequests = [];
    this.log = [];
    this.dialogs = [];
    this.dialogCount = 0;
    return out;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Form controls compared between begin and now, at most this many (huge forms stay cheap). */
const MAX_CONTROLS = 500;

/**
 * What the DOM does not show: properties (a checkbox's `checked` set by a handler, a value set by
 * script), the selection and the scroll position. Compared against the state at `begin` (these used to
 * count as "no change" and hold the result for 15 s).
 */
function propertyFingerprint(): string {
  const parts: string[] = [];
  const controls = document.querySelectorAll('input, select, textarea');
  const n = Math.min(controls.length, MAX_CONTROLS);
  for (let i = 0; i < n; i++) {
    const c = controls[i];
    if (c instanceof HTMLInputElement)
      parts.push(
        c.type === 'checkbox' || c.type === 'radio'
          ? (c.checked ? '1' : '0') + (c.indeterminate ? 'i' : '')
          : `${c.value.length}:${c.value.slice(0, 32)}`,
      );
    else if (c instanceof HTMLSelectElement) parts.push(String(c.selectedIndex));
    else if (c instanceof HTMLTextAreaElement) parts.push(`${c.value.length}:${c.value.slice(0, 32)}`);
  }
  const sel = document.getSelection();
  parts.push(sel ? `${sel.rangeCount}:${sel.anchorOffset}:${sel.focusOffset}:${sel.toString().length}` : '-');
  parts.push(`${Math.round(window.scrollX)},${Math.round(window.scrollY)}`);
  return parts.join('|');
}

/** Watches one document between the worker's `begin` and the end of `wait`. */
export class SettleTracker {
  private observer: MutationObserver | null = null;
  private lastChangeAt = 0;
  private mutated = false;
  private otherEffect = false;
  private focusAtBegin: Element | null = null;
  private fingerprintAtBegin = '';
  private changeWaiters = new Set<() => void>();
  /** Bumped by every begin: a watch still running for an earlier action ends when a new one starts. */
  private generation = 0;

  constructor(private readonly activity: PageActivity) {
    // Events that are effects although they need not mutate the DOM: a typed value, a toggled
    // checkbox, a moved focus or selection, a scrolled container. Events on our own UI are not the
    // page reacting: the agent bar is a popover, and showing or raising it fires `toggle` on its host
    // (events from inside its closed shadow root reach the window retargeted to the host).
    const mark = (ev: Event) => {
      if (!this.observer) return;
      if (ev.target instanceof Element && isAgentUi(ev.target)) return;
      this.otherEffect = true;
      this.lastChangeAt = performance.now();
      for (const w of this.changeWaiters) w();
    };
    for (const type of ['input', 'change', 'select', 'toggle']) window.addEventListener(type, mark, { capture: true, passive: true });
    document.addEventListener('selectionchange', mark, { passive: true });
  }

  begin(): void {
    this.generation++;
    for (const w of this.changeWaiters) w();
    this.observer?.disconnect();
    this.mutated = false;
    this.otherEffect = false;
    this.activity.requestsStarted = 0;
    this.activity.dialogsSeen = 0;
    this.activity.downloadRequests = [];
    this.focusAtBegin = document.activeElement;
    this.fingerprintAtBegin = propertyFingerprint();
    this.lastChangeAt = performance.now();
    this.observer = new MutationObserver((records) => {
      // Our own overlay (content/agent-ui.ts) coming or going is not the page reacting to the action.
      if (records.every(isAgentUiRecord)) return;
      this.mutated = true;
      this.lastChangeAt = performance.now();
      for (const w of this.changeWaiters) w();
    });
    this.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  private effects(): boolean {
    if (this.mutated || this.otherEffect || this.activity.requestsStarted > 0 || this.activity.dialogsSeen > 0 || this.focusMoved())
      return true;
    if (this.observer && propertyFingerprint() !== this.fingerprintAtBegin) {
      this.otherEffect = true;
      return true;
    }
    return false;
  }

  /** Focus that moved is an effect, except onto the element being clicked (focus on the way to a click). */
  private focusMoved(): boolean {
    const el = document.activeElement;
    if (el === this.focusAtBegin) return false;
    if (!el || el === document.body) return this.focusAtBegin !== null && this.focusAtBegin !== document.body;
    if (el instanceof HTMLElement && el.isContentEditable) return true;
    if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
    if (
      el instanceof HTMLInputElement &&
      !['button', 'submit', 'reset', 'checkbox', 'radio', 'image', 'file', 'color', 'range'].includes(el.type)
    )
      return true;
    // A button taking focus because it was clicked is not a reaction of the page.
    return false;
  }

  /** Resolves true once no mutation happened for quietMs, false at capMs. */
  private async quiet(quietMs: number, capMs: number): Promise<{ quiet: boolean; ms: number }> {
    const start = performance.now();
    for (;;) {
      const now = performance.now();
      if (now - this.lastChangeAt >= quietMs) return { quiet: true, ms: Math.round(now - start) };
      if (now - start >= capMs) return { quiet: false, ms: Math.round(now - start) };
      await sleep(Math.max(1, Math.min(quietMs - (now - this.lastChangeAt), capMs - (now - start))));
    }
  }

  private idle(capMs: number): Promise<{ idle: boolean; ms: number }> {
    const start = performance.now();
    if (this.activity.pending.size === 0) return Promise.resolve({ idle: true, ms: 0 });
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        resolve({ idle, ms: Math.round(performance.now() - start) });
      };
      const unsubscribe = this.activity.subscribe(() => {
        if (this.activity.pending.size === 0) done(true);
      });
      const timer = setTimeout(() => done(false), capMs);
    });
  }

  /** The settle rule (see the file comment). */
  async wait(p: SettleWaitParams): Promise<SettleReport> {
    if (!this.observer) this.begin();
    const dom1 = await this.quiet(p.quiet_ms, p.dom_cap_ms);
    const net = await this.idle(p.network_cap_ms);
    let domMs = dom1.ms;
    let quiet = dom1.quiet;
    if (net.ms > 0) {
      // Responses render after they arrive: give them a full quiet window from now.
      this.lastChangeAt = Math.max(this.lastChangeAt, performance.now());
      const dom2 = await this.quiet(p.quiet_ms, Math.max(0, p.dom_cap_ms - dom1.ms));
      domMs += dom2.ms;
      quiet = dom2.quiet;
    }
    return {
      dom_changed: this.mutated,
      effects: this.effects(),
      settled: quiet && net.idle,
      dom_quiet_ms: domMs,
      network_idle_ms: net.ms,
      pending: this.activity.pending.size,
    };
  }

  /**
   * After an action that changed nothing: wait up to watchMs for a first change, then settle again.
   * superseded: another action began meanwhile (the agent moved on; no notice, and the newer
   * action's tracking and activity log are left alone).
   */
  async watch(
    watchMs: number,
    p: SettleWaitParams,
  ): Promise<{ changed: boolean; watched_ms: number; report: SettleReport; superseded: boolean }> {
    if (!this.observer) this.begin();
    const gen = this.generation;
    const start = performance.now();
    const changed = this.effects()
      ? true
      : await new Promise<boolean>((resolve) => {
          const check = () => {
            if (this.generation !== gen || this.effects()) finish(true);
          };
          const finish = (v: boolean) => {
            clearTimeout(timer);
            clearInterval(poll);
            this.changeWaiters.delete(check);
            unsubscribe();
            resolve(v);
          };
          this.changeWaiters.add(check);
          const unsubscribe = this.activity.subscribe(check);
          // focus moves and input events do not call back: poll them cheaply.
          const poll = setInterval(check, 100);
          const timer = setTimeout(() => finish(false), watchMs);
        });
    const watched = Math.round(performance.now() - start);
    const superseded = this.generation !== gen;
    const report =
      changed && !superseded
        ? await this.wait(p)
        : {
            dom_changed: this.mutated,
            effects: changed,
            settled: true,
            dom_quiet_ms: 0,
            network_idle_ms: 0,
            pending: this.activity.pending.size,
          };
    return { changed, watched_ms: watched, report, superseded };
  }

  end(): void {
    this.observer?.disconnect();
    this.observer = null;
  }
}

/** Kept for the content script's call site (content/index.ts): the worker now runs the settle rule
 * around every action (begin/wait on the settle channel), so waiting here again would only add
 * latency, and would wait even when the caller switched settling off. */
export async function waitForSettle(): Promise<{ settled: boolean; elapsedMs: number; mutated: boolean }> {
  return { settled: true, elapsedMs: 0, mutated: false };
}

const isAgentUiNode = (n: Node) => n instanceof Element && isAgentUiRoot(n);
export function isAgentUiRecord(r: MutationRecord): boolean {
  if (r.target instanceof Element && isAgentUi(r.target)) return true;
  if (r.type !== 'childList') return false;
  const nodes = [...r.addedNodes, ...r.removedNodes];
  return nodes.length > 0 && nodes.every(isAgentUiNode);
}
