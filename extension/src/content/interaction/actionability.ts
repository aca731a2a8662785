// Playwright's actionability contract (https://playwright.dev/docs/actionability), checked in the
// page before acting: attached, visible, stable (same box on two consecutive frames while an
// animation runs on it or an ancestor), enabled,
// editable, and receives events (the hit-test at the action point lands on the element). The element
// is scrolled into view first; checks are retried until they pass or timeout_ms runs out, and the
// failure names the check that did not pass (details.check) and, for a covered element, the cover.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { isAgentUi } from '../../shared/agent-ui-marker';
import type { PageContext } from '../actions/types';
import {
  composedContains,
  composedParent,
  contentBoxIfEmpty,
  describe,
  isVisible,
  nextFrame,
  retarget,
  scrollIntoViewIfNeeded,
} from './dom';
import { agentUiStepsAsideAt, agentUiTakesPointerAt, deepElementAt, eventTargetFor, hitBelongsTo } from './hit-test';

export type Check = 'visible' | 'stable' | 'enabled' | 'editable' | 'receives_events';

export const POINTER_CHECKS: Check[] = ['visible', 'stable', 'enabled', 'receives_events'];
export const HOVER_CHECKS: Check[] = ['visible', 'stable', 'receives_events'];
export const EDIT_CHECKS: Check[] = ['visible', 'enabled', 'editable'];

export const DEFAULT_TIMEOUT_MS = 5000;

export interface Point {
  x: number;
  y: number;
}

export type Actionable = { ok: true; point: Point; hit: Element } | { ok: false; error: ErrorInfo };

const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'week',
  'time',
  'color',
  'range',
  '',
]);

/**
 * Disabled like Playwright: the disabled property (incl. a disabled fieldset), or aria-disabled on it
 * or an ancestor, read on the element Playwright retargets to (a span inside a disabled button is
 * disabled; a label stands for its control).
 */
export function isDisabled(raw: Element): boolean {
  const el = retarget(raw, 'follow-label');
  if (el.matches(':disabled')) return true;
  for (let n: Element | null = el; n; n = composedParent(n)) if (n.getAttribute('aria-disabled') === 'true') return true;
  return false;
}

/** Can this kind of element take text at all (before looking at readonly/disabled)? */
export function isTextEditableKind(el: Element): boolean {
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(el.type);
  return (el as HTMLElement).isContentEditable === true;
}

export function isReadOnly(el: Element): boolean {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.readOnly;
  return el.getAttribute('aria-readonly') === 'true';
}

export function isEditable(el: Element): boolean {
  return isTextEditableKind(el) && !isDisabled(el) && !isReadOnly(el);
}

/**
 * The element's box: its border box, or for an element without one (`display: contents`, or a
 * zero-size element whose content overflows visibly, e.g. a link around an absolutely positioned
 * label) the box of its contents, as Playwright's content quads give.
 */
export function boxOf(el: Element): DOMRect {
  return contentBoxIfEmpty(el, el.getBoundingClientRect());
}

/** Where a pointer action lands: the centre of the element's box, clipped to the viewport. */
export function actionPoint(el: Element): Point {
  const r = boxOf(el);
  const clip = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);
  const left = clip(r.left, 0, window.innerWidth);
  const right = clip(r.right, 0, window.innerWidth);
  const top = clip(r.top, 0, window.innerHeight);
  const bottom = clip(r.bottom, 0, window.innerHeight);
  return { x: Math.round(((left + right) / 2) * 100) / 100, y: Math.round(((top + bottom) / 2) * 100) / 100 };
}

/**
 * The centre of a transformed (rotated, skewed) element's bounding box can lie outside its shape,
 * on its own wrapper; Playwright clicks the centre of the element's content quad instead. Without
 * quads in the page, sample points inside the box (centre outwards) and take the first whose hit
 * test lands on the element. Only used when the centre hit an ancestor of the element (its own
 * wrapper, <body>, <html>), never to click around something that covers it.
 */
function pointOnShape(el: Element, belongs: (hit: Element | null, point: Point) => boolean): { point: Point; hit: Element } | null {
  const r = boxOf(el);
  const left = Math.max(r.left, 0);
  const right = Math.min(r.right, window.innerWidth);
  const top = Math.max(r.top, 0);
  const bottom = Math.min(r.bottom, window.innerHeight);
  if (right - left < 1 || bottom - top < 1) return null;
  const steps = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];
  for (const fy of steps) {
    for (const fx of steps) {
      const point = { x: Math.round((left + (right - left) * fx) * 100) / 100, y: Math.round((top + (bottom - top) * fy) * 100) / 100 };
      const hit = deepElementAt(point.x, point.y);
      if (belongs(hit, point)) return { point, hit: hit as Element };
    }
  }
  return null;
}

/** The overlay to name: the outermost fixed/sticky ancestor of the hit element (a banner, a modal), else the hit element. */
function coveringElement(hit: Element): Element {
  let cover: Element = hit;
  for (let n: Element | null = hit; n && n !== document.body && n !== document.documentElement; n = composedParent(n)) {
    const pos = getComputedStyle(n).position;
    if (pos === 'fixed' || pos === 'sticky') cover = n;
  }
  return cover;
}

interface State {
  check: Check | 'attached';
  detail?: Record<string, unknown>;
  point?: Point;
  hit?: Element;
}

/**
 * Is a Web Animation (CSS animation or transition, element.animate) running on the element or an
 * ancestor? Only then is the two-frame box comparison needed: waiting a frame costs ~16 ms per
 * action, and an element that nothing animates keeps its box. Movement driven by script timers
 * (style changed from rAF/setTimeout) is not seen by this shortcut. 'pending': an animation has not
 * started ticking yet; a just-started animation holds its first keyframe for a frame or two until its
 * start time resolves (`Animation.pending`), so two equal boxes then say nothing about whether it moves.
 */
function animated(el: Element): 'no' | 'running' | 'pending' {
  let running = false;
  for (let n: Element | null = el; n; n = composedParent(n)) {
    for (const a of n.getAnimations()) {
      if (a.playState !== 'running') continue;
      if (a.pending) return 'pending';
      running = true;
    }
  }
  return running ? 'running' : 'no';
}

/**
 * The least advance of the document timeline that counts as a new rendered frame. Chromium can
 * report timeline times a few hundredths of a millisecond apart with no frame between (measured:
 * 91.366 then 91.4 ms with the same animated box), and boxes sampled so close together say nothing
 * about whether the element moves. 4 ms is a frame at 240 Hz.
 */
const MIN_FRAME_MS = 4;

/** Has the timeline moved at least a frame from `since` to `now`? */
function frameApart(since: CSSNumberish | null, now: CSSNumberish | null): boolean {
  return typeof since === 'number' && typeof now === 'number' && now - since >= MIN_FRAME_MS;
}

/** Waits (a few frames at most) until the document timeline has moved a frame past `since`. */
async function renderedFrame(since: CSSNumberish | null): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await nextFrame();
    if (frameApart(since, document.timeline.currentTime)) return;
  }
}

function sameBox(a: DOMRect, b: DOMRect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

const MESSAGES: Record<Check, (id: string, tag: string) => string> = {
  visible: (id, tag) =>
    `Element ${id} <${tag}> is not visible (hidden, collapsed or zero-sized). Open or scroll to the part of the page that shows it, take a new state, and retry.`,
  stable: (id, tag) =>
    `Element ${id} <${tag}> kept moving (animating) and never held still for two frames. Wait for the animation to end and retry.`,
  enabled: (id, tag) =>
    `Element ${id} <${tag}> is disabled. Do what enables it first (for example fill the required fields), then take a new state and retry.`,
  editable: (id, tag) =>
    `Element ${id} <${tag}> is not editable (read-only, or not a text field). Pick the text input itself from a new state.`,
  receives_events: (id, tag) => `Element ${id} <${tag}> is covered by another element, so a click would land there instead.`,
};

/**
 * Playwright's retries when the hit test misses: scroll only if needed first, then with the element
 * at the end, centre and start of its scroll containers (a sticky header or footer that covers it in
 * one alignment usually does not in another).
 */
const ALIGNMENTS: (ScrollLogicalPosition | null)[] = [null, 'end', 'center', 'start'];

/**
 * Waits until `el` passes `checks` (attached is always checked), scrolling it into view first.
 * Returns the action point and the element the hit test found there.
 */
export async function waitForActionable(
  ctx: PageContext,
  el: Element,
  elementId: string,
  checks: Check[],
  timeoutMs = DEFAULT_TIMEOUT_MS,
  force = false,
): Promise<Actionable> {
  const active = force ? [] : checks;
  const deadline = performance.now() + timeoutMs;
  let lastBox: DOMRect | null = null;
  let lastBoxTime: CSSNumberish | null = null;
  let state: State = { check: 'attached' };
  let alignment = 0;
  for (let attempt = 0; ; attempt++) {
    state = await evaluate();
    if (state.check === 'receives_events') alignment = (alignment + 1) % ALIGNMENTS.length;
    if (state.check === 'attached' && state.point && state.hit) return { ok: true, point: state.point, hit: state.hit };
    if (!el.isConnected) break;
    // An element of the wrong kind never becomes editable: fail at once.
    if (state.check === 'editable' && state.detail?.['reason'] === 'not_a_text_field') break;
    if (performance.now() >= deadline) break;
    await nextFrame();
    if (attempt > 10) await new Promise((r) => setTimeout(r, Math.min(100, attempt * 5)));
  }
  if (!el.isConnected) {
    return {
      ok: false,
      error: errorInfo(
        'TARGET_ELEMENT_NOT_FOUND',
        `Element ${elementId} is stale: it left the page before the action could run. Take a new state (get_state) and use an id from it.`,
        'content_script',
        { element_id: elementId, reason: 'stale', current_url: location.href },
      ),
    };
  }
  const check = state.check as Check;
  const tag = el.localName;
  let message = MESSAGES[check](elementId, tag);
  const details: Record<string, unknown> = { element_id: elementId, check, timeout_ms: timeoutMs, ...state.detail };
  if (check === 'receives_events' && state.hit && isAgentUi(state.hit)) {
    // Never a ref to our own UI: agents do not act on it.
    details['covering_element'] = { agent_ui: 'overlay', text: 'Agent is controlling this tab (Stop)' };
    message = `Element ${elementId} <${tag}> lies under the browser agent's own "Agent is controlling this tab" bar, whose Stop button would take the click and stop the agent. Scroll the page so the element moves away from the bottom-left corner (or scroll the element into view), then take a new state and retry.`;
  } else if (check === 'receives_events' && state.hit) {
    const cover = coveringElement(state.hit);
    const d = describe(cover);
    const coverId = ctx.refs.refFor(cover);
    details['covering_element'] = { element_id: coverId, tag: d.tag, id: d.id, class: d.class, text: d.text };
    message = `Element ${elementId} <${tag}> is covered by ${d.summary} (element ${coverId}), so a click would land there instead. Close or accept that overlay first (for example the cookie banner's button), then take a new state and retry.`;
  }
  if (check === 'editable' && state.detail?.['reason'] === 'not_a_text_field') {
    return {
      ok: false,
      error: errorInfo(
        'NOT_FILLABLE',
        `Element ${elementId} <${tag}>${el instanceof HTMLInputElement ? ` (type=${el.type})` : ''} takes no typed text, so it cannot be filled or typed into. Use check/uncheck for a checkbox or radio, select_option for a select, click for a button; for a text field pick the input itself from a new state.`,
        'content_script',
        { element_id: elementId, check, element_type: el instanceof HTMLInputElement ? `input[type=${el.type}]` : tag },
      ),
    };
  }
  return { ok: false, error: errorInfo('TARGET_ELEMENT_NOT_INTERACTABLE', message, 'content_script', details) };

  async function evaluate(): Promise<State> {
    if (!el.isConnected) return { check: 'attached', detail: { reason: 'stale' } };
    if (active.includes('editable') && !isTextEditableKind(el)) return { check: 'editable', detail: { reason: 'not_a_text_field' } };
    const rendered = scrollIntoViewIfNeeded(el, ALIGNMENTS[alignment] ?? null);
    if (active.includes('visible') && (!rendered || !isVisible(el))) return { check: 'visible' };
    // force skips the checks, not the need for a point: an element with nothing rendered has none
    // (Playwright: "Element is not visible" even with force), so nothing is clicked.
    if (force && checks.includes('visible') && !rendered) return { check: 'visible' };
    const motion = active.includes('stable') ? animated(el) : 'no';
    // A hidden tab renders no frames, so there a pending animation never starts: judge it by its box.
    if (motion === 'pending' && document.visibilityState === 'visible') {
      lastBox = null;
      return { check: 'stable' };
    }
    if (motion !== 'no') {
      // Stable = the same box in two consecutive *rendered* frames: on a loaded machine a timer can
      // fire before the next frame, so the animation timeline must have advanced between the reads.
      const box = el.getBoundingClientRect();
      const now = document.timeline.currentTime;
      const prev = lastBox;
      const prevTime = lastBoxTime;
      lastBox = box;
      lastBoxTime = now;
      // A hidden (background) tab renders no frames: there timers stand in for frames, as before.
      const rendering = document.visibilityState === 'visible';
      if (!prev || (rendering && !frameApart(prevTime, now)) || !sameBox(prev, box)) {
        await renderedFrame(now);
        const again = el.getBoundingClientRect();
        lastBox = again;
        lastBoxTime = document.timeline.currentTime;
        if (!sameBox(box, again) || (rendering && !frameApart(now, lastBoxTime))) return { check: 'stable' };
      }
    }
    if (active.includes('enabled') && isDisabled(el)) return { check: 'enabled' };
    if (active.includes('editable')) {
      if (!isTextEditableKind(el)) return { check: 'editable', detail: { reason: 'not_a_text_field' } };
      if (isDisabled(el)) return { check: 'enabled' };
      if (isReadOnly(el)) return { check: 'editable', detail: { reason: 'readonly' } };
    }
    let point = actionPoint(el);
    // The hit test looks through our own UI (an element under the bar is on top for the prompt),
    // but a real click where the bar's Stop button is would press Stop: there another point on
    // the element, else the retry's next scroll alignment moves it out from under the bar.
    const ours = active.includes('receives_events') ? agentUiTakesPointerAt(point.x, point.y) : null;
    let hit = ours ?? deepElementAt(point.x, point.y);
    if (active.includes('receives_events') && !hitBelongsTo(el, hit)) {
      // The centre fell on the element's own ancestor (a rotated link's wrapper) or under our bar's
      // Stop button: find another point on its shape.
      const onShape =
        hit && (ours || composedContains(hit, el))
          ? pointOnShape(el, (h, at) => hitBelongsTo(el, h) && !agentUiTakesPointerAt(at.x, at.y))
          : null;
      if (onShape) {
        point = onShape.point;
        hit = onShape.hit;
      } else {
        // No point of the element is clear of Stop (a small button wholly under it): the bar
        // steps aside for this action, and the element is hit tested again without it.
        const cleared = ours && agentUiStepsAsideAt(point.x, point.y) ? deepElementAt(point.x, point.y) : null;
        if (!cleared || !hitBelongsTo(el, cleared))
          return hit ? { check: 'receives_events', hit } : { check: 'visible', detail: { reason: 'outside_viewport' } };
        hit = cleared;
      }
    }
    // force clicks the point like Playwright (and like trusted input): whatever is on top there
    // takes it; otherwise the events go to the hit inside the target, or the target itself.
    return { check: 'attached', point, hit: force ? (hit ?? el) : eventTargetFor(el, hit) };
  }
}
