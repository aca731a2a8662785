// A page action in trusted mode: the content script of the target's frame prepares the target (scrolls
// it into view, focuses it, gives a point), then the worker sends real input through chrome.debugger
// Input.* (trusted-input.ts), and the answer has the shape a content script's answer has, so the page
// action goes on as for synthetic input. CDP input outlives the document, so keys stop when the page
// starts navigating and the answer says how many went in (interrupted-input.ts).
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { CONTENT_CHANNEL, type PrepareRequest } from '../../shared/internal-messages';
import type { TrustedInputRequest } from '../../shared/trusted-input';
import { type ChannelOutcome, sendToContent } from '../connection/content-channel';
import type { TabWatch } from '../page-watch/tab-watch';
import { performTrustedInput, TrustedInputRefused } from '../page-watch/trusted-input';
import { frameOffset } from '../state/frames';

const WS = 'background_script' as const;

/**
 * How a pointer/keyboard action runs in trusted mode (chrome.storage.local trusted_input = true):
 * the page side of the target's frame resolves it and runs the Playwright actionability checks
 * without firing any event (content `prepare`: the action point, optionally focusing it), then the
 * worker dispatches the real input (a subframe's point shifted by the frame's offset, see
 * runTrusted below), and for fill/type reads the value back.
 */
export interface TrustedPlan {
  /** Page-side preparation of the target: every plan asks the page first (a keyless press: that focus is not on our own UI). */
  prepare: Omit<PrepareRequest, 'channel' | 'kind' | 'params'> & { params: Record<string, unknown> };
  input(prepared: Record<string, unknown>): TrustedInputRequest | null;
  /** Read the target's value after the input (fill/type results carry it). */
  readValue: boolean;
  result(prepared: Record<string, unknown>, value: Record<string, unknown>): Record<string, unknown>;
  /** Message prefix, e.g. "Trusted click". */
  verb: string;
}

const TARGET_KEYS = ['element_id', 'index', 'role', 'name', 'exact', 'selector', 'timeout_ms', 'force'];
const pick = (p: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(p).filter(([k]) => keys.includes(k)));
const pointOf = (r: Record<string, unknown>) =>
  typeof r['x'] === 'number' && typeof r['y'] === 'number' ? { x: r['x'] as number, y: r['y'] as number } : null;

export function trustedPlan(action: string, params: unknown): TrustedPlan | null {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  if (action === 'click' || action === 'double_click' || action === 'hover') return pointerPlan(action, p);
  if ((action === 'fill' && typeof p['value'] === 'string') || (action === 'type' && typeof p['text'] === 'string'))
    return editPlan(action, p);
  if (action === 'press' && typeof p['key'] === 'string') return pressPlan(p['key'], p);
  return null;
}

/**
 * hover with trusted_input off: Playwright's hover moves a real pointer, and only a real one sets
 * CSS :hover, so a hover whose element the page's :hover rules would style is trusted by default;
 * the page side does the rest with synthetic events and no debugger (PrepareRequest.css_hover).
 */
export function cssHoverPlan(action: string, params: unknown): TrustedPlan | null {
  if (action !== 'hover') return null;
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const plan = pointerPlan('hover', p);
  plan.prepare.css_hover = { modifiers: Array.isArray(p['modifiers']) ? (p['modifiers'] as string[]) : [] };
  return plan;
}

function pointerPlan(action: 'click' | 'double_click' | 'hover', p: Record<string, unknown>): TrustedPlan {
  const modifiers = Array.isArray(p['modifiers']) ? (p['modifiers'] as string[]) : [];
  const clickCount =
    action === 'hover' ? 0 : action === 'double_click' ? 2 : typeof p['click_count'] === 'number' ? (p['click_count'] as number) : 1;
  const button = p['button'] === 'right' || p['button'] === 'middle' ? (p['button'] as 'right' | 'middle') : 'left';
  return {
    prepare: { checks: action === 'hover' ? 'hover' : 'pointer', focus: false, params: pick(p, TARGET_KEYS) },
    input: (r) => {
      const pt = pointOf(r);
      return pt ? { kind: 'mouse', ...pt, button, click_count: clickCount, modifiers } : null;
    },
    readValue: false,
    // A real pointer move: Chromium sets :hover on the element under it (and its ancestors).
    result: (r) => ({ ...pick(r, ['element_id', 'x', 'y']), ...(action === 'hover' ? { css_hover: true } : {}) }),
    verb: action === 'hover' ? 'Trusted hover' : `Trusted ${clickCount === 2 ? 'double ' : ''}click`,
  };
}

function editPlan(action: 'fill' | 'type', p: Record<string, unknown>): TrustedPlan {
  const text = (action === 'fill' ? p['value'] : p['text']) as string;
  const delay = typeof p['delay_ms'] === 'number' ? (p['delay_ms'] as number) : 0;
  return {
    prepare: {
      checks: 'edit',
      focus: true,
      params: pick(p, TARGET_KEYS),
      ...(action === 'fill' ? { fill: text } : { caret: 'end' as const }),
    },
    input: (r) =>
      r['focused'] !== true
        ? null
        : action === 'fill'
          ? { kind: 'insert_text', text: typeof r['fill_value'] === 'string' ? (r['fill_value'] as string) : text }
          : { kind: 'type', text, ...(delay ? { delay_ms: delay } : {}) },
    readValue: true,
    result: (r, v) => ({ element_id: r['element_id'], ...v, ...(action === 'type' ? { chars_typed: [...text].length } : {}) }),
    verb: action === 'fill' ? 'Trusted fill' : 'Trusted typing',
  };
}

function pressPlan(key: string, p: Record<string, unknown>): TrustedPlan {
  const hasTarget = TARGET_KEYS.slice(0, 6).some((k) => p[k] !== undefined);
  return {
    // Without a target the keys go to whatever has focus; the page side still checks that the
    // focus is not on our own bar's Stop button (content/actions/focus-guard.ts).
    prepare: hasTarget
      ? {
          checks: 'none',
          focus: true,
          params: pick(
            p,
            TARGET_KEYS.filter((k) => k !== 'force'),
          ),
        }
      : { checks: 'none', focus: false, params: {} },
    input: () => ({ kind: 'keys', keys: [key] }),
    readValue: false,
    result: () => ({ keys: [key] }),
    verb: 'Trusted key press',
  };
}

/** Was this answer the worker's refusal of a point outside the visible viewport (TrustedInputRefused)? */
function refusedOutsideViewport(asked: unknown): boolean {
  const a = asked as {
    ok?: boolean;
    response?: { ok?: boolean; error?: { component_origin?: string; details?: Record<string, unknown> } };
  };
  const e = a.ok === true && a.response?.ok === false ? a.response.error : undefined;
  return e?.component_origin === 'background_script' && e.details?.['reason'] === 'outside_viewport';
}

/**
 * Runs a trusted pointer action (run: the page side's preparation, then the real input), once more
 * when the worker refused its point as outside the viewport. Attaching chrome.debugger makes Chrome
 * show its "is debugging this browser" info bar, which makes the viewport shorter (measured in
 * Chromium 156 without viewport emulation: 493 -> 437 px, and it stays for the rest of the session):
 * a point the page side measured a moment before can fall below the new bottom edge. The second
 * preparation sees the current viewport, scrolls the element into view and gives a point inside it;
 * a point still outside (a fixed element below the screen) is refused as before. Preparation sends
 * no event, so running it twice is invisible to the page.
 */
export async function withCurrentViewport<T>(plan: TrustedPlan, run: () => Promise<T>): Promise<T> {
  const first = await run();
  if (plan.prepare.checks !== 'pointer' && plan.prepare.checks !== 'hover') return first;
  return refusedOutsideViewport(first) ? run() : first;
}

type Prepared = Record<string, unknown>;

/** An answer in the content channel's shape: the page answered, with a failure. */
const refused = (error: ErrorInfo): ChannelOutcome => ({ ok: true, response: { ok: false, error } });

const elementOf = (prepared: Prepared) => (typeof prepared['element_id'] === 'string' ? { element_id: prepared['element_id'] } : {});

export async function runTrusted(tabId: number, frameId: number, plan: TrustedPlan, watch: TabWatch): Promise<ChannelOutcome> {
  const asked = await sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'prepare', ...plan.prepare }, { frameId });
  if (!asked.ok || !asked.response.ok) return asked;
  const prepared: Prepared = asked.response.result;
  // The page did it through the DOM (fill of a date/range/color...: CDP typing cannot set those).
  if (prepared['done'] === true) return doneInPage(plan, prepared);
  const input = plan.input(prepared);
  if (!input) return refused(noPointError(plan, prepared));
  if (input.kind === 'mouse' && frameId !== 0) {
    const placed = await toTopViewport(tabId, frameId, input);
    if (placed) return refused(placed);
  }
  const sent = await sendInput(tabId, input, prepared, watch);
  if (sent && plan.prepare.css_hover && debuggerUnavailable(sent)) {
    // A hover made real only for the page's :hover rules (cssHoverPlan), with trusted input off:
    // when chrome.debugger cannot attach (DevTools open on the tab), the synthetic hover still runs
    // the page's handlers and says what it could not do, as it did before.
    const params = { ...plan.prepare.params, modifiers: plan.prepare.css_hover.modifiers };
    return sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'run_action', action: 'hover', params }, { frameId });
  }
  if (sent) return sent;
  return {
    ok: true,
    response: {
      ok: true,
      message: describe(plan, input, prepared),
      result: plan.result(prepared, await readBack(tabId, frameId, plan, prepared)),
    },
  };
}

function doneInPage(plan: TrustedPlan, prepared: Prepared): ChannelOutcome {
  // A synthetic hover (cssHoverPlan) answers in full, with its own message.
  if (typeof prepared['message'] === 'string') {
    const { done: _done, message, ...result } = prepared;
    return { ok: true, response: { ok: true, message: message as string, result } };
  }
  const { done: _done, x: _x, y: _y, focused: _f, ...rest } = prepared;
  return {
    ok: true,
    response: {
      ok: true,
      message: `${plan.verb} (value set through the DOM: real key events cannot set this input type) into ${String(prepared['element_id'])}.`,
      result: plan.result(rest, typeof rest['value'] === 'string' ? { value: rest['value'] } : {}),
    },
  };
}

function noPointError(plan: TrustedPlan, prepared: Prepared): ErrorInfo {
  const focusable = plan.prepare.focus && prepared['focused'] !== true;
  return errorInfo(
    'OPERATION_FAILED_IN_TARGET',
    focusable
      ? 'The target did not take focus, so trusted keys would go elsewhere. Click it first, or turn trusted_input off, and retry.'
      : 'The page did not give a point for trusted input. Turn trusted_input off and retry.',
    WS,
    { ...elementOf(prepared) },
  );
}

/** The page gave a point in its frame's viewport; Input.* takes top-level viewport coordinates. */
async function toTopViewport(tabId: number, frameId: number, input: TrustedInputRequest & { kind: 'mouse' }): Promise<ErrorInfo | null> {
  const offset = await frameOffset(tabId, frameId);
  if (!offset)
    return errorInfo(
      'COMMUNICATION_ERROR_WITH_TARGET',
      `Could not find where frame ${frameId} sits on the page, so a trusted click there would miss. Take a new state and retry, or turn trusted_input off.`,
      WS,
      { tab_id: tabId, frame_id: frameId },
    );
  input.x += offset.x;
  input.y += offset.y;
  return null;
}

/**
 * Right before the pointer input, whatever frame chose the point: the controlled-tab bar is in the
 * top frame, above every subframe, and may have been shown since the point was chosen (a click
 * right after open_tab prepares before the worker shows the bar for the new lease); while a
 * person's pointer rests on it, Stop takes the pointer. The top frame moves it aside for this
 * input, or keeps it hidden when it comes (content/agent-bar.ts). Best effort: a top frame without
 * our content script has no bar.
 */
function barAside(tabId: number): (x: number, y: number) => Promise<unknown> {
  return (x, y) => sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'bar_aside', x, y }, { frameId: 0 }).catch(() => undefined);
}

/** Sends the input; null when all of it went in, else the answer that says why not. */
async function sendInput(tabId: number, input: TrustedInputRequest, prepared: Prepared, watch: TabWatch): Promise<ChannelOutcome | null> {
  // Keys are counted as they go, and stop when the page starts navigating (CDP input outlives the
  // document: keys sent on would land in whatever the next page focuses).
  const total = input.kind === 'mouse' ? 0 : input.kind === 'keys' ? input.keys.length : [...input.text].length;
  let done = 0;
  const cut = (why: string): ChannelOutcome => ({
    ok: false,
    portClosed: true,
    error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', `The page went away while the action ran (${why}).`, WS),
    progress: { done, total },
    tracked: true,
  });
  try {
    await performTrustedInput(tabId, input, {
      progress: (n) => (done = n),
      stop: () => watch.navigationStarted,
      beforePointer: barAside(tabId),
    });
  } catch (e) {
    if (total > 0 && !(e instanceof TrustedInputRefused) && !(await chrome.tabs.get(tabId).catch(() => null))) return cut('the tab closed');
    if (e instanceof TrustedInputRefused) return refused(errorInfo(e.code, e.message, WS, { ...e.details, ...elementOf(prepared) }));
    const why = e instanceof Error ? e.message : String(e);
    return refused(
      errorInfo(
        'OPERATION_FAILED_IN_TARGET',
        `Trusted input failed (${why}); another debugger (DevTools?) may be attached to this tab. Close it, or turn trusted_input off (or send this action with trusted: false), and retry.`,
        WS,
        { tab_id: tabId, reason: 'debugger_unavailable' },
      ),
    );
  }
  return done < total ? cut('the page navigated') : null;
}

/** Did the input fail because chrome.debugger could not be used on the tab (sendInput's answer)? */
function debuggerUnavailable(sent: ChannelOutcome): boolean {
  return sent.ok && !sent.response.ok && sent.response.error.details?.['reason'] === 'debugger_unavailable';
}

/** fill/type: the field's value as the page reads it after the keys. */
async function readBack(tabId: number, frameId: number, plan: TrustedPlan, prepared: Prepared): Promise<Record<string, unknown>> {
  if (!plan.readValue || typeof prepared['element_id'] !== 'string') return {};
  const read = await sendToContent(
    tabId,
    { channel: CONTENT_CHANNEL, kind: 'read_value', element_id: prepared['element_id'] },
    { frameId },
  );
  return read.ok && read.response.ok ? read.response.result : {};
}

function describe(plan: TrustedPlan, input: TrustedInputRequest, prepared: Prepared): string {
  const id = typeof prepared['element_id'] === 'string' ? ` ${prepared['element_id']}` : '';
  const where =
    input.kind === 'mouse'
      ? ` at (${Math.round(input.x)}, ${Math.round(input.y)})${id ? ` on${id}` : ''}`
      : input.kind === 'keys' && plan.verb === 'Trusted key press'
        ? ` ${input.keys.join(' ')}${id ? ` in${id}` : ''}`
        : id
          ? ` into${id}`
          : '';
  return `${plan.verb}${where}.`;
}
