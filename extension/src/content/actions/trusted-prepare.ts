// Page side of trusted input (background/page-watch/trusted-input.ts): target resolution and the Playwright
// actionability checks without any synthetic event, so the first event the page sees is the real
// (isTrusted) one the worker dispatches through chrome.debugger.
import { errorInfo } from '../../../../schemas/lib/errors';
import type { PrepareRequest, ReadValueRequest, RunActionResponse } from '../../shared/internal-messages';
import type { Modifier } from '../../shared/keys';
import { type Check, EDIT_CHECKS, HOVER_CHECKS, POINTER_CHECKS } from '../interaction/actionability';
import { hasFocusWithin } from '../interaction/dom';
import { caretToEnd, replaceValue } from '../interaction/editing';
import { agentBarClearForTrustedPoint } from '../interaction/hit-test';
import { hoverRulesFor } from '../interaction/hover-rules';
import { hasTarget } from '../target';
import { type ActionCommon, label, prepare, safeValue } from './common';
import { filledResult, planFill } from './fill';
import { keysWouldReachAgentUi } from './focus-guard';
import { hoverSynthetically } from './hover';
import type { PageContext } from './types';

const CHECKS: Record<PrepareRequest['checks'], Check[]> = { pointer: POINTER_CHECKS, hover: HOVER_CHECKS, edit: EDIT_CHECKS, none: [] };

export async function prepareTrusted(ctx: PageContext, req: PrepareRequest): Promise<RunActionResponse> {
  // Keys for whatever has focus (press without a target): only the focus is checked.
  if (req.checks === 'none' && !hasTarget(req.params as ActionCommon))
    return keysWouldReachAgentUi() ?? { ok: true, message: '', result: {} };
  const r = await prepare(ctx, req.params as ActionCommon, CHECKS[req.checks]);
  if (!r.ok) return r;
  // A hover the person did not ask to be trusted: no :hover rule of the page would style the
  // element, so synthetic events do all a real pointer would (no debugger attached for it).
  if (req.css_hover && hoverRulesFor(r.hit).count === 0) {
    const done = hoverSynthetically(ctx, r, req.css_hover.modifiers as Modifier[]);
    return { ok: true, message: '', result: { ...done.result, done: true, message: done.message } };
  }
  let focused = false;
  let fillValue: string | undefined;
  if (req.fill !== undefined) {
    // Trusted fill validates like synthetic fill; value types (date, range, color...) cannot be set
    // by CDP typing, so they take the DOM route here and the worker sends no input.
    const plan = planFill(r.el, r.id, req.fill);
    if (!plan.ok) return plan.outcome;
    if (plan.route === 'set') {
      (r.el as HTMLElement).focus?.({ preventScroll: true });
      if (!replaceValue(r.el, plan.value))
        return {
          ok: false,
          error: errorInfo(
            'OPERATION_FAILED_IN_TARGET',
            `The page cancelled the edit of ${label(r.id, r.el)} (beforeinput was prevented).`,
            'content_script',
            { element_id: r.id },
          ),
        };
      return { ok: true, message: '', result: { ...filledResult(r.el, r.id), done: true } };
    }
    fillValue = plan.value;
  }
  if (req.focus) {
    const wasFocused = hasFocusWithin(r.el);
    if (!wasFocused) (r.el as HTMLElement).focus?.({ preventScroll: true });
    focused = hasFocusWithin(r.el);
    // type: a field that gets focus now types at its end; one already focused keeps its caret.
    if (focused && !wasFocused && req.caret === 'end') caretToEnd(r.el);
  }
  // A subframe's point must be on screen in the top-level viewport too: scroll the frame's
  // ancestors so the element shows (scrollIntoView propagates to ancestor documents); the worker
  // still checks the final point and refuses one that is off screen.
  let point = r.point;
  if (window !== window.top && req.checks !== 'none') {
    const before = r.el.getBoundingClientRect();
    r.el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    const after = r.el.getBoundingClientRect();
    if (before.left !== after.left || before.top !== after.top)
      point = { x: point.x + after.left - before.left, y: point.y + after.top - before.top };
  }
  // The worker clicks at this point later: the bar must not be (or move) there by then.
  if (req.checks === 'pointer' || req.checks === 'hover') agentBarClearForTrustedPoint(point.x, point.y);
  return {
    ok: true,
    message: '',
    result: { element_id: r.id, x: point.x, y: point.y, focused, ...(fillValue !== undefined ? { fill_value: fillValue } : {}) },
  };
}

export function readValue(ctx: PageContext, req: ReadValueRequest): RunActionResponse {
  const found = ctx.refs.resolve(req.element_id);
  if (!found.ok)
    return {
      ok: false,
      error: errorInfo(
        'TARGET_ELEMENT_NOT_FOUND',
        `Element ${req.element_id} left the page. Take a new state (get_state).`,
        'content_script',
        { element_id: req.element_id, reason: 'stale' },
      ),
    };
  const value = safeValue(found.element);
  return { ok: true, message: '', result: value === undefined ? {} : { value } };
}
