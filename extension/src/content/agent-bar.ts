// The "Agent is controlling this tab" bar with its Stop button, in the top frame of a tab an agent
// holds. The page shares the DOM with us and may be hostile, so the bar is built to stay:
//   - its host is claimed as our UI (shared/agent-ui-marker.ts), which the page cannot forge;
//   - its content lives in a closed shadow root: the page can neither read nor restyle it;
//   - the host is a manual popover shown in the top layer, above any z-index the page uses and
//     unaffected by transforms or filters on <html> (measured in Chromium 156: a z-index 2147483647
//     cover added after a plain fixed host hid it; the same cover did not hide the top-layer host);
//     a page dialog or popover opened later is raised above ours, so we raise ours again;
//   - its inline style is `all: initial !important` plus the few properties it needs, !important:
//     the style attribute beats every author rule, !important ones included;
//   - a MutationObserver puts it back when the page removes or moves it or edits its attributes,
//     and a heartbeat catches what the observer cannot see (hidePopover, a later top-layer cover).
//     Repairs are rate-limited: a page that removes the bar every time it comes back gets it back
//     at a bounded rate instead of pinning both scripts in a loop.
//   - Stop is also handled by a window capture listener registered at document_start, before any
//     page script: a page's own capture listener cannot swallow the click on its way to the button.
//   - the bar is invisible to hit testing: the page's elementFromPoint / elementsFromPoint /
//     caretRangeFromPoint, its :hover and its mouse events see the page under it, and an agent's
//     click (trusted or not) aimed there lands on the page. Stop takes the pointer only while a
//     person's pointer is over the bar (armed, see AgentBar.listenForArming); it is always reachable with Tab.
// The bar is for every person, screen reader users included: it is a labelled region whose status
// line is a polite live region ("Agent is controlling this tab", "Stopping the agent…"), and Stop is
// a button named "Stop the agent", reached with Tab (the host sits last in <body>). Nothing hides it
// from the accessibility tree (an aria-hidden the page adds to the host is removed like any other
// attribute). The agent's own snapshot still never lists it: that exclusion is the agent-UI claim
// (shared/agent-ui-marker.ts), not aria-hidden.
import { AGENT_UI_ATTR, AGENT_UI_OVERLAY, claimAgentUiHost } from '../shared/agent-ui-marker';

/** The host's whole inline style: everything reset, then what the bar needs, all !important. */
function hostStyle(hidden: boolean): string {
  const decl = [
    'all: initial',
    'display: block',
    'position: fixed',
    'left: 12px',
    'bottom: 12px',
    'top: auto',
    'right: auto',
    'margin: 0',
    'z-index: 2147483647',
    // Hit testing: the host, the bar and (unless armed, see AgentBar.listenForArming) the Stop button take no
    // pointer, so a page's elementFromPoint, elementsFromPoint and caretRangeFromPoint, its :hover
    // and its mouse events all go through the bar to the page under it.
    'pointer-events: none',
    `visibility: ${hidden ? 'hidden' : 'visible'}`,
  ];
  return decl.map((d) => `${d} !important`).join('; ') + ';';
}

/** Attributes our host keeps; any other the page adds (hidden, inert, aria-hidden, class...) is removed. */
const KEPT = new Set([AGENT_UI_ATTR, 'style', 'popover', 'data-bux-capture-hidden']);

/** The bar's shadow content. Exported for the accessibility test, which renders the same markup in
 * an open page: axe-core cannot enter the closed shadow root the real bar lives in. */
export const AGENT_BAR_MARKUP = `<style>
      .bar { display: flex; align-items: center; gap: 8px; font: 13px/1.3 system-ui, sans-serif; color: #fff;
             background: rgba(40, 44, 120, 0.92); border-radius: 8px; padding: 6px 8px 6px 10px;
             box-shadow: 0 2px 8px rgba(0,0,0,.3); pointer-events: none; max-width: min(calc(100vw - 24px), 640px);
             box-sizing: border-box; white-space: nowrap; }
      .label { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .dot { width: 8px; height: 8px; border-radius: 50%; background: #7CFC9A; flex: none; }
      button { pointer-events: none; font: inherit; font-weight: 600; color: #282c78; background: #fff;
               border: 0; border-radius: 5px; padding: 3px 10px; cursor: pointer; flex: none; white-space: nowrap; }
      .bar.armed button { pointer-events: auto; }
      button:hover { background: #ffe3e3; color: #a00; }
      button:focus-visible { outline: 3px solid #7CFC9A; outline-offset: 2px; }
      .status { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    </style>
    <div class="bar" role="region" aria-label="browser-use-ext agent"><span class="dot" aria-hidden="true"></span><span
      class="label" aria-hidden="true"></span><span class="status" role="status" aria-live="polite" aria-atomic="true"></span><button
      type="button" aria-label="Stop the agent">Stop</button></div>`;

/** A live region announces changes, not the words it is inserted with: the status line for screen
 * readers (a visually hidden copy of the visible label, which is aria-hidden so it is read once) is
 * written this long after the bar enters the page. The visible label is written at once. */
const ANNOUNCE_DELAY_MS = 150;

/** Repairs allowed back to back within a window, then at most one per SPACED_MS: a page that
 * removes the bar on every insertion sees at most ~BURST + 10 re-insertions a second. */
const BURST = 20;
const BURST_WINDOW_MS = 1000;
const SPACED_MS = 100;
/** The heartbeat that catches what no mutation shows (a page hidePopover, a later top-layer cover). */
const HEARTBEAT_MS = 400;

const capturing = () => (globalThis as { __buxCapturing?: boolean }).__buxCapturing === true;

/** The isolated-world global through which the hit test (content/interaction/hit-test.ts, in
 * content.js) asks the bar (in agent-ui.js, the same isolated world, unreachable from the page) to
 * step aside for an action aimed under it. */
export const AGENT_BAR_STEP_ASIDE_GLOBAL = '__buxAgentBarStepAside';
/** The isolated-world global through which the hit test asks where a person's pointer would press
 * Stop: (x, y) => our host when a pointer at that viewport point would land on Stop (the bar shown
 * and not covered there), else null. The page's own hit test does not see Stop while no person's
 * pointer is on the bar (it is armed only then), so a page-side check that the agent's click point
 * is clear of Stop asks this instead of elementFromPoint. */
export const AGENT_BAR_STOP_AT_GLOBAL = '__buxAgentBarStopAt';
/** How long the bar stays out of the way at most: a trusted click is dispatched by the worker after
 * the page side found its point (attach, focus emulation: measured well under a second), and an
 * action that fails before its input must not leave the person without Stop for long. */
const ASIDE_MAX_MS = 3000;
/** Once the action's mouse button is released (or its click delivered), the bar comes back this
 * much later: a double click's second press follows the first release within a few ms. */
const ASIDE_TAIL_MS = 300;

/** The bar of one top frame: show() while an agent holds the tab, hide() when it lets go. */
export class AgentBar {
  private readonly host: HTMLDivElement;
  private readonly root: ShadowRoot;
  private readonly label: HTMLElement;
  private readonly status: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly bar: HTMLElement;
  private readonly observer: MutationObserver;

  private wanted = false;
  /** The page element last found above our Stop button and raised over: raised over once, so a
   * cover we cannot beat (an inert-making modal dialog) does not make us toggle forever. */
  private raisedOver: Element | null = null;
  private recent: number[] = [];
  private spaced: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private readonly stopped = new WeakSet<Event>();
  private announce: ReturnType<typeof setTimeout> | null = null;
  /** performance.now() until which the bar is out of the way of an agent action (0: in place). */
  private asideUntil = 0;
  private asideTimer: ReturnType<typeof setTimeout> | null = null;
  private armed = false;

  constructor(private readonly onStop: () => void) {
    this.host = document.createElement('div');
    claimAgentUiHost(this.host);
    this.root = this.host.attachShadow({ mode: 'closed' });
    this.root.innerHTML = AGENT_BAR_MARKUP;
    this.label = this.root.querySelector('.label') as HTMLElement;
    this.status = this.root.querySelector('.status') as HTMLElement;
    this.button = this.root.querySelector('button') as HTMLButtonElement;
    this.bar = this.root.querySelector('.bar') as HTMLElement;
    this.observer = new MutationObserver((records) => this.onMutations(records));
    // Registration order matters: the window click listener that presses Stop comes before the one
    // that brings a stepped-aside bar back (listenForActionInput).
    this.listenForStop();
    this.listenForArming();
    this.listenForRepairs();
    this.exposeToHitTest();
    this.listenForActionInput();
  }

  /** text: what a screen reader hears; shown: the visible one-line label (the whole text when absent). */
  show(text: string, shown = text): void {
    const first = !this.wanted;
    this.wanted = true;
    this.setStatus(text, first ? ANNOUNCE_DELAY_MS : 0, shown);
    this.place(false);
    if (first) {
      this.recent = [];
      this.heartbeat ??= setInterval(() => this.beat(), HEARTBEAT_MS);
    }
  }

  hide(): void {
    this.wanted = false;
    this.arm(false);
    this.asideUntil = 0;
    if (this.asideTimer !== null) clearTimeout(this.asideTimer);
    this.asideTimer = null;
    this.setStatus('');
    this.observer.disconnect();
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.spaced !== null) clearTimeout(this.spaced);
    this.spaced = null;
    try {
      if (this.host.matches(':popover-open')) this.host.hidePopover();
    } catch {
      // not in a document any more
    }
    this.host.remove();
  }

  private aside(): boolean {
    return this.asideUntil > performance.now();
  }

  /** The bar's words, seen and announced; with delayMs, announced that much later. */
  private setStatus(text: string, delayMs = 0, shown = text): void {
    if (this.announce !== null) clearTimeout(this.announce);
    this.announce = null;
    this.label.textContent = shown;
    if (delayMs === 0) {
      this.status.textContent = text;
      return;
    }
    this.status.textContent = '';
    this.announce = setTimeout(() => {
      this.announce = null;
      if (this.wanted) this.status.textContent = text;
    }, delayMs);
  }

  private stop(ev: Event): void {
    if (!this.wanted || this.stopped.has(ev) || !ev.isTrusted) return;
    this.stopped.add(ev);
    this.setStatus('Stopping the agent…');
    this.onStop();
  }

  private listenForStop(): void {
    this.button.addEventListener('click', (ev) => {
      ev.stopPropagation();
      this.stop(ev);
    });
    // First listener on the window (document_start): sees the click even if a page listener later
    // stops it before it reaches the button. A click on our host at the button's box (or the button
    // activated from the keyboard) is a click on Stop.
    window.addEventListener(
      'click',
      (ev) => {
        if (ev.target !== this.host) return;
        const r = this.button.getBoundingClientRect();
        const onButton =
          ev.detail === 0
            ? this.root.activeElement === this.button
            : ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
        if (onButton) this.stop(ev);
      },
      true,
    );
  }

  // Armed: Stop takes the pointer. Why armed only while a person's pointer is over the bar, and
  // not always: a hit-testable Stop is also what the PAGE's hit test sees. A page script calling
  // elementFromPoint / elementsFromPoint at a point under Stop got our host, an element it never
  // made, and :hover and mouse events there went to Stop instead of the page element under it. Hiding Stop from hit testing for good
  // would take it from the person's mouse. So the button is pointer-events: none, and a capture
  // listener on the window (registered at document_start, before any page listener, so the page
  // cannot stop it) arms it when a real pointer moves over the bar's box and disarms it when the
  // pointer moves off it, leaves the window, or the viewport changes. The pointermove that arms it
  // was hit tested before (it reaches the page); every later event (hover, press, click) lands on
  // Stop, so a person's mouse click on Stop works as before. The keyboard needs no arming: focus
  // and Enter/Space ignore pointer-events.
  // An agent's input never arms it: a trusted mouse move comes from the worker through
  // chrome.debugger, which the page side cannot tell from a person's, but every trusted pointer
  // action first asks the bar to step aside (stepAside: hidden until the input has gone in, and
  // disarmed) when its point is on the bar or near it, and no move arms the bar while it is aside.
  // A page's synthetic event (isTrusted false) never arms it, nor does a move with a button held (a
  // drag passing over the bar drops on the page under it). Touch has no hover to arm with before
  // the tap: on a touch screen Stop is reached by keyboard or the side panel.
  private listenForArming(): void {
    window.addEventListener(
      'pointermove',
      (ev) => {
        // A pressed button keeps the state the press found: a press on armed Stop that wobbles off it
        // still releases on Stop; a drag from the page that crosses the bar is never armed under.
        if (!ev.isTrusted || ev.buttons !== 0) return;
        this.arm(this.wanted && !this.aside() && !capturing() && ev.pointerType !== 'touch' && this.onBar(ev.clientX, ev.clientY));
      },
      true,
    );
    window.addEventListener(
      'pointerout',
      (ev) => {
        // Left the window (relatedTarget null: outside the document or into a frame).
        if (ev.relatedTarget === null) this.arm(false);
      },
      true,
    );
    // The bar moves with the viewport's bottom (Chrome's debugging info bar takes 56 px of it): a
    // still pointer is not over it any more.
    window.addEventListener('resize', () => this.arm(false), true);
  }

  private arm(on: boolean): void {
    if (on === this.armed) return;
    this.armed = on;
    this.bar.classList.toggle('armed', on);
  }

  /** Is the viewport point on the bar (its host's box, where the person sees it)? */
  private onBar(x: number, y: number): boolean {
    const r = this.host.getBoundingClientRect();
    return r.width > 0 && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  }

  // Only records that can concern the bar: on the host itself, our host taken out of its parent,
  // or a change right under <html> or the document (a body replaced or removed, a style added). A
  // page busy adding children to <body> costs one cheap scan per batch, no style read.
  private onMutations(records: MutationRecord[]): void {
    const host = this.host;
    const html = document.documentElement;
    const relevant = records.some(
      (r) => r.target === host || r.target === document || r.target === html || Array.prototype.includes.call(r.removedNodes, host),
    );
    if (relevant) this.repair();
  }

  private listenForRepairs(): void {
    this.host.addEventListener('toggle', () => this.repair());
    // A page popover or dialog opened after ours sits above it in the top layer: raise ours again. A
    // modal dialog opening or closing also moves where the bar belongs (parentFor). The heartbeat
    // would see both; this is sooner.
    for (const type of ['toggle', 'close'] as const)
      window.addEventListener(
        type,
        (ev) => {
          if (!this.wanted || ev.target === this.host) return;
          this.repair((ev as Event & { newState?: string }).newState === 'open');
        },
        true,
      );
  }

  private exposeToHitTest(): void {
    Object.defineProperty(globalThis, AGENT_BAR_STOP_AT_GLOBAL, {
      value: (x: number, y: number) => this.stopAt(x, y),
      writable: false,
      configurable: true,
      enumerable: false,
    });
    Object.defineProperty(globalThis, AGENT_BAR_STEP_ASIDE_GLOBAL, {
      value: (near?: { x: number; y: number; margin: number }) => this.stepAside(near),
      writable: false,
      configurable: true,
      enumerable: false,
    });
  }

  // The action's input went in (a trusted click from the worker, or the content script's own
  // events): the bar comes back shortly after, not at the full deadline.
  private listenForActionInput(): void {
    for (const type of ['mouseup', 'click', 'auxclick', 'contextmenu'] as const)
      window.addEventListener(
        type,
        () => {
          if (!this.aside()) return;
          this.asideUntil = Math.min(this.asideUntil, performance.now() + ASIDE_TAIL_MS);
          this.scheduleBack();
        },
        true,
      );
  }

  /** Where the host belongs: the page's topmost modal dialog while one is open (a modal dialog
   * makes everything outside it inert, our top-layer bar included: measured, a popover shown after
   * showModal() is painted on top but takes no click), else <body>, else <html> (no body, or one
   * that is inert or not rendered: the top layer escapes an ancestor's z-index, transform, filter
   * and opacity, not its display: none or content-visibility: hidden). */
  private parentFor(): Element | null {
    const modal = [...document.querySelectorAll('dialog:modal')].at(-1);
    if (modal) return modal;
    const body = document.body;
    if (!body || !body.isConnected || body.closest('[inert]')) return document.documentElement;
    const cs = getComputedStyle(body);
    return cs.display === 'none' || cs.contentVisibility === 'hidden' ? document.documentElement : body;
  }

  private style(): string {
    return hostStyle(capturing() || this.aside());
  }

  /** Puts the bar back (shown) at asideUntil, or now if that has passed. */
  private scheduleBack(): void {
    if (this.asideTimer !== null) clearTimeout(this.asideTimer);
    this.asideTimer = null;
    const left = this.asideUntil - performance.now();
    if (left > 0) {
      this.asideTimer = setTimeout(() => this.scheduleBack(), left + 1);
      return;
    }
    this.asideUntil = 0;
    if (this.wanted && this.host.isConnected && this.host.getAttribute('style') !== this.style())
      this.host.setAttribute('style', this.style());
  }

  /**
   * An agent action aimed at a page element under the bar (its point under Stop, no other point of
   * the element free; or, with near, a trusted pointer action whose point is close to it): the bar
   * is hidden (visibility: hidden, so no hit test, the page's or a real click's, lands on it) until
   * the action's input has gone in, then comes back where it was. A click the page did not get must
   * never be reported as done, and the alternative, refusing the action, leaves an agent no way to
   * press a small fixed button in that corner.
   */
  private stepAside(near?: { x: number; y: number; margin: number }): boolean {
    if (!this.wanted || !this.host.isConnected) {
      // Not shown yet: an agent's first action on a tab it just opened can choose its point before
      // the bar is shown (the worker shows it once the bridge names the new lease) and send its real
      // input after. The bar then comes up hidden until that input has gone in; a person never saw
      // it, so nothing blinks.
      this.asideUntil = performance.now() + ASIDE_MAX_MS;
      this.arm(false);
      this.scheduleBack();
      return true;
    }
    if (near) {
      // Only when the point is on the bar or within margin of it (above or below): elsewhere the
      // bar stays, so the person does not see it blink on every click.
      const r = this.host.getBoundingClientRect();
      const m = near.margin;
      if (near.x < r.left - 8 || near.x > r.right + 8 || near.y < r.top - m || near.y > r.bottom + m) return true;
    }
    this.asideUntil = performance.now() + ASIDE_MAX_MS;
    this.arm(false);
    this.host.setAttribute('style', this.style());
    this.scheduleBack();
    return getComputedStyle(this.host).visibility === 'hidden';
  }

  /** Would a pointer at (x, y) press Stop (the bar shown and not covered there)? */
  private stopAt(x: number, y: number): Element | null {
    if (!this.wanted || !this.host.isConnected || capturing() || this.aside()) return null;
    return this.probe(x, y) === this.host ? this.host : null;
  }

  /** What a person's pointer at (x, y) would hit: Stop is armed for this one synchronous probe (no
   * page script runs before it is put back), so the bar itself and anything above it are found. */
  private probe(x: number, y: number): Element | null {
    const was = this.armed;
    this.arm(true);
    const hit = document.elementFromPoint(x, y);
    this.arm(was);
    return hit;
  }

  /** What is wrong with the bar right now, or null. */
  private broken(): string | null {
    const host = this.host;
    if (!host.isConnected || host.parentElement !== this.parentFor()) return 'misplaced';
    for (const a of host.getAttributeNames()) if (!KEPT.has(a)) return 'attributes';
    if (host.getAttribute(AGENT_UI_ATTR) !== AGENT_UI_OVERLAY || host.getAttribute('popover') !== 'manual') return 'attributes';
    if (host.getAttribute('style') !== this.style()) return 'attributes';
    if (host.firstChild) return 'children';
    if (!host.matches(':popover-open')) return 'closed';
    return null;
  }

  /** Puts everything back as we made it, and raises the bar to the top of the top layer when asked. */
  private place(raise: boolean): void {
    const host = this.host;
    for (const a of host.getAttributeNames()) if (!KEPT.has(a)) host.removeAttribute(a);
    if (host.getAttribute(AGENT_UI_ATTR) !== AGENT_UI_OVERLAY) host.setAttribute(AGENT_UI_ATTR, AGENT_UI_OVERLAY);
    if (host.getAttribute('popover') !== 'manual') host.setAttribute('popover', 'manual');
    if (host.getAttribute('style') !== this.style()) host.setAttribute('style', this.style());
    // Page nodes moved into our host are not rendered (no slot) but are not ours to keep either.
    while (host.firstChild) host.firstChild.remove();
    const parent = this.parentFor();
    if (parent && (host.parentElement !== parent || !host.isConnected)) parent.appendChild(host);
    if (!host.isConnected) return;
    try {
      if (raise && host.matches(':popover-open')) host.hidePopover();
      if (!host.matches(':popover-open')) host.showPopover();
    } catch {
      // A document without a browsing context (being torn down) has no top layer: the plain
      // fixed, max z-index host is still shown.
    }
    this.watch();
  }

  private watch(): void {
    const observer = this.observer;
    observer.disconnect();
    observer.observe(document, { childList: true });
    if (document.documentElement) observer.observe(document.documentElement, { childList: true });
    if (document.body) observer.observe(document.body, { childList: true });
    if (this.host.parentElement) observer.observe(this.host.parentElement, { childList: true });
    observer.observe(this.host, { attributes: true, childList: true });
  }

  /** The page element above our Stop button (a dialog or popover opened after ours), or null. */
  private cover(): Element | null {
    if (capturing() || this.aside()) return null;
    const r = this.button.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    // Stop is seen by hit testing only when armed (probe): a page element above it is found, not the one below.
    const hit = this.probe(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && hit !== this.host ? hit : null;
  }

  /** The heartbeat's check: what no mutation shows (a page hidePopover, a later top-layer cover). */
  private beat(): void {
    if (!this.wanted) return;
    if (this.broken()) return this.repair();
    const c = this.cover();
    if (c && c !== this.raisedOver) this.repair(true);
    this.raisedOver = c;
  }

  /** Repairs now, or (past the burst) once after a short delay: a bounded rate whatever the page does. */
  private repair(raise = false): void {
    this.observer.takeRecords();
    if (!this.wanted) return;
    const why = this.broken();
    if (!why && !raise) return;
    const now = performance.now();
    this.recent = this.recent.filter((t) => now - t < BURST_WINDOW_MS);
    const wait = this.recent.length >= BURST ? SPACED_MS - (now - (this.recent[this.recent.length - 1] ?? 0)) : 0;
    if (wait > 0) {
      this.spaced ??= setTimeout(() => {
        this.spaced = null;
        this.repair(raise);
      }, wait);
      return;
    }
    this.recent.push(now);
    this.place(raise);
  }
}
