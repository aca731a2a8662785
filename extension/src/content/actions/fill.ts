// fill / clear, with Playwright's fill semantics (injectedScript.fill): text inputs, textareas and
// contenteditable get their whole value replaced (native setter, input, change; contenteditable via
// select-all + insertText); the value types Playwright sets directly (color, date, time,
// datetime-local, month, range, week) get the trimmed value set and must keep it exactly, else the
// value is malformed (INVALID_VALUE, nothing changed); a number input refuses text that is not a
// number. Checkboxes, radios, buttons, selects, file inputs take no typed value: NOT_FILLABLE
// (raised by the editable check, before any waiting). Checks: visible, enabled, editable.
import type { ClearParams, FillParams } from '../../../../schemas/generated/protocol';
import { EDIT_CHECKS } from '../interaction/actionability';
import { replaceValue, setNativeValue } from '../interaction/editing';
import { DEFAULT_PRIVACY, sensitiveReason } from '../snapshot/privacy';
import { fail, label, ok, prepare, safeValue } from './common';
import type { HandlerOutcome, PageContext, PageHandler } from './types';

/** Input types whose value is set directly rather than typed (Playwright's kInputTypesToSetValue). */
export const SET_VALUE_TYPES = new Set(['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week']);

const FORMATS: Record<string, string> = {
  number: 'a number, e.g. 42, -3.5 or 1e3',
  date: 'YYYY-MM-DD, e.g. 2024-03-31',
  time: 'HH:MM or HH:MM:SS (24 h), e.g. 13:45',
  'datetime-local': 'YYYY-MM-DDTHH:MM, e.g. 2024-03-31T13:45',
  month: 'YYYY-MM, e.g. 2024-03',
  week: 'YYYY-Www, e.g. 2024-W13',
  color: 'a lowercase hex colour #rrggbb, e.g. #ff0000',
  range: "a number within the slider's min/max (and step)",
};

/** Does the input keep this value exactly? Tried with the native setter and put back (no events). */
function keepsValue(el: HTMLInputElement, value: string): boolean {
  const previous = el.value;
  setNativeValue(el, value);
  const kept = el.type === 'color' ? el.value === value.toLowerCase() : el.value === value;
  setNativeValue(el, previous);
  return kept;
}

export type FillPlan = { ok: true; value: string; route: 'set' | 'text' } | { ok: false; outcome: HandlerOutcome };

/**
 * How a value goes into el (shared by synthetic and trusted fill): 'set' = the DOM route (value
 * types, where CDP typing cannot set a value), 'text' = typed/inserted text; or the typed error.
 */
export function planFill(el: Element, id: string, value: string): FillPlan {
  if (el instanceof HTMLInputElement) {
    const type = el.type;
    if (SET_VALUE_TYPES.has(type)) {
      const v = value.trim();
      if (v !== '' && !keepsValue(el, v)) return { ok: false, outcome: invalid(el, id, value, type) };
      return { ok: true, value: v, route: 'set' };
    }
    if (type === 'number') {
      const v = value.trim();
      if (v !== '' && (Number.isNaN(Number(v)) || !keepsValue(el, v))) return { ok: false, outcome: invalid(el, id, value, type) };
      return { ok: true, value: v, route: 'text' };
    }
  }
  return { ok: true, value, route: 'text' };
}

function invalid(el: Element, id: string, value: string, type: string): HandlerOutcome {
  return fail(
    'INVALID_VALUE',
    `${label(id, el)} is a ${type} field and cannot hold ${JSON.stringify(value)}; nothing was changed. Fill it with ${FORMATS[type] ?? 'a valid value'}.`,
    { element_id: id, input_type: type, expected_format: FORMATS[type] ?? 'valid value' },
  );
}

async function replace(
  ctx: PageContext,
  p: FillParams | ClearParams,
  value: string,
  verb: string | ((el: Element) => string),
): Promise<HandlerOutcome> {
  const r = await prepare(ctx, p, EDIT_CHECKS);
  if (!r.ok) return r;
  const plan = planFill(r.el, r.id, value);
  if (!plan.ok) return plan.outcome;
  (r.el as HTMLElement).focus({ preventScroll: true });
  if (!replaceValue(r.el, plan.value)) {
    return fail(
      'OPERATION_FAILED_IN_TARGET',
      `The page cancelled the edit of ${label(r.id, r.el)} (beforeinput was prevented). Try type (key by key) instead.`,
      { element_id: r.id },
    );
  }
  // The value went in at once: tell the worker before settling (the page may navigate on input).
  const n = [...plan.value].length;
  ctx.progress?.(n, n);
  return ok(`${typeof verb === 'string' ? verb : verb(r.el)} ${label(r.id, r.el)}.`, filledResult(r.el, r.id));
}

export function filledResult(el: Element, id: string): Record<string, unknown> {
  const result: Record<string, unknown> = { element_id: id };
  const v = safeValue(el);
  if (v !== undefined) result['value'] = v;
  return result;
}

export const fill: PageHandler = (ctx, raw) => {
  const p = raw as FillParams;
  // The message goes to LLM transcripts and logs: a sensitive field's value is never echoed.
  return replace(ctx, p, p.value, (el) => {
    if (p.value === '') return 'Emptied';
    const reason = sensitiveReason(el, DEFAULT_PRIVACY);
    if (reason) return `Filled ${p.value.length} characters (${reason.replace(/_/g, ' ')}, not shown) into`;
    return `Filled ${JSON.stringify(p.value.length > 60 ? `${p.value.slice(0, 60)}…` : p.value)} into`;
  });
};

export const clear: PageHandler = (ctx, raw) => replace(ctx, raw as ClearParams, '', 'Cleared');
