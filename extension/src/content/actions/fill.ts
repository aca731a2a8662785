// fill / clear: focus the field and replace its value (native setter, input, change); contenteditable
// via select-all + insertText. Checks: visible, enabled, editable (not readonly, a text field).
import type { ClearParams, FillParams } from '../../../../schemas/generated/protocol';
import { EDIT_CHECKS } from '../interaction/actionability';
import { replaceValue, STRICT_TYPES } from '../interaction/editing';
import { DEFAULT_PRIVACY, sensitiveReason } from '../snapshot/privacy';
import { fail, label, ok, prepare, safeValue } from './common';
import type { HandlerOutcome, PageContext, PageHandler } from './registry';

async function replace(ctx: PageContext, p: FillParams | ClearParams, value: string, verb: string | ((el: Element) => string)): Promise<HandlerOutcome> {
  const r = await prepare(ctx, p, EDIT_CHECKS);
  if (!r.ok) return r;
  (r.el as HTMLElement).focus({ preventScroll: true });
  if (!replaceValue(r.el, value)) {
    const kind = r.el instanceof HTMLInputElement && STRICT_TYPES.has(r.el.type) ? r.el.type : null;
    const formats: Record<string, string> = { number: 'digits, e.g. 42 or 3.5', date: 'YYYY-MM-DD', time: 'HH:MM', 'datetime-local': 'YYYY-MM-DDTHH:MM', month: 'YYYY-MM', week: 'YYYY-Www' };
    return fail('OPERATION_FAILED_IN_TARGET', kind ? `${label(r.id, r.el)} is a ${kind} field and rejected ${JSON.stringify(value)}. Fill it in the format ${formats[kind]}.` : `The page cancelled the edit of ${label(r.id, r.el)} (beforeinput was prevented). Try type (key by key) instead.`, { element_id: r.id, ...(kind ? { input_type: kind } : {}) });
  }
  const result: Record<string, unknown> = { element_id: r.id };
  const v = safeValue(r.el);
  if (v !== undefined) result['value'] = v;
  return ok(`${typeof verb === 'string' ? verb : verb(r.el)} ${label(r.id, r.el)}.`, result);
}

export const fill: PageHandler = (ctx, raw) => {
  const p = raw as FillParams;
  // The message goes to LLM transcripts and logs: a sensitive field's value is never echoed (issue 11).
  return replace(ctx, p, p.value, (el) => {
    if (p.value === '') return 'Emptied';
    const reason = sensitiveReason(el, DEFAULT_PRIVACY);
    if (reason) return `Filled ${p.value.length} characters (${reason.replace(/_/g, ' ')}, not shown) into`;
    return `Filled ${JSON.stringify(p.value.length > 60 ? `${p.value.slice(0, 60)}…` : p.value)} into`;
  });
};

export const clear: PageHandler = (ctx, raw) => replace(ctx, raw as ClearParams, '', 'Cleared');
