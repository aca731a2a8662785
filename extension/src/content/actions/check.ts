// check / uncheck: checkbox, radio, or role=checkbox/radio/switch/menuitemcheckbox. Already in the
// requested state: success without a click. Otherwise a real click (so the page's handlers run),
// then the state is verified, like Playwright's check().
import type { CheckParams } from '../../../../schemas/generated/protocol';
import { POINTER_CHECKS } from '../interaction/actionability';
import { clickAt } from '../interaction/pointer';
import { fail, label, ok, prepare } from './common';
import type { HandlerOutcome, PageContext, PageHandler } from './registry';

const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** true/false for a checkable element, null for anything else. */
export function checkedState(el: Element): boolean | null {
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  const role = el.getAttribute('role');
  if (role && CHECKABLE_ROLES.has(role)) return el.getAttribute('aria-checked') === 'true';
  return null;
}

async function setChecked(ctx: PageContext, p: CheckParams, want: boolean): Promise<HandlerOutcome> {
  const r = await prepare(ctx, p, []);
  if (!r.ok) return r;
  const before = checkedState(r.el);
  if (before === null) return fail('TARGET_ELEMENT_NOT_INTERACTABLE', `${label(r.id, r.el)} is not a checkbox, radio or switch. Pick the input itself (or its role=checkbox element) from a new state.`, { element_id: r.id, check: 'checkable' });
  if (before === want) return ok(`${label(r.id, r.el)} is already ${want ? 'checked' : 'unchecked'}; nothing to do.`, { element_id: r.id, checked: before, changed: false }, false);
  if (!want && r.el instanceof HTMLInputElement && r.el.type === 'radio') return fail('OPERATION_FAILED_IN_TARGET', `${label(r.id, r.el)} is a radio button; it cannot be unchecked by itself. Check another option of its group instead.`, { element_id: r.id });
  const a = await prepare(ctx, p, POINTER_CHECKS);
  if (!a.ok) return a;
  clickAt(a.hit, a.point);
  const after = checkedState(r.el);
  if (after !== want) return fail('OPERATION_FAILED_IN_TARGET', `Clicked ${label(r.id, r.el)} but it is still ${after ? 'checked' : 'unchecked'} (the page reverted or ignored the click). Take a new state to see why.`, { element_id: r.id, checked: after });
  return ok(`${want ? 'Checked' : 'Unchecked'} ${label(r.id, r.el)}.`, { element_id: r.id, checked: want, changed: true });
}

export const check: PageHandler = (ctx, raw) => setChecked(ctx, raw as CheckParams, true);
export const uncheck: PageHandler = (ctx, raw) => setChecked(ctx, raw as CheckParams, false);
