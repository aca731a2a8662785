// check / uncheck with Playwright's semantics (elementHandle.check, injected elementState 'checked'):
// a checkbox or radio input, or an element whose ARIA role carries a checked state (checkbox,
// menuitemcheckbox, option, radio, switch, menuitemradio, treeitem), where a missing aria-checked
// means unchecked. The target is retargeted as Playwright does: from inside a button, checkbox or
// radio to that element, and from inside a <label> to its control. Already in the requested state:
// success without a click. Otherwise a real click (so the page's handlers run), then the state is
// verified (a click that changed nothing is an error, never a success). Anything else is
// NOT_CHECKABLE at once (the kind of an element does not change while waiting).
import type { CheckParams } from '../../../../schemas/generated/protocol';
import { POINTER_CHECKS } from '../interaction/actionability';
import { retarget } from '../interaction/dom';
import { clickAt } from '../interaction/pointer';
import { roleOf } from '../snapshot/roles';
import { fail, label, ok, prepare } from './common';
import type { HandlerOutcome, PageContext, PageHandler } from './types';

/** Roles whose state is aria-checked (Playwright's kAriaCheckedRoles; WAI-ARIA 1.2 aria-checked). */
const ARIA_CHECKED_ROLES = new Set(['checkbox', 'menuitemcheckbox', 'option', 'radio', 'switch', 'menuitemradio', 'treeitem']);

/** The element whose checked state counts (Playwright's retarget 'follow-label'). */
export const checkTarget = (el: Element): Element => retarget(el, 'follow-label');

/** true/false for a checkable element, null for anything else. */
export function checkedState(raw: Element): boolean | null {
  const el = checkTarget(raw);
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  if (ARIA_CHECKED_ROLES.has(roleOf(el))) return el.getAttribute('aria-checked') === 'true';
  return null;
}

async function setChecked(ctx: PageContext, p: CheckParams, want: boolean): Promise<HandlerOutcome> {
  const r = await prepare(ctx, p, []);
  if (!r.ok) return r;
  const before = checkedState(r.el);
  if (before === null) {
    const what = r.el instanceof HTMLInputElement ? `an input of type ${r.el.type}` : `a <${r.el.localName}> with role ${roleOf(r.el)}`;
    return fail(
      'NOT_CHECKABLE',
      `${label(r.id, r.el)} is ${what}, not a checkbox, radio or switch, so it cannot be ${want ? 'checked' : 'unchecked'}. Pick the checkbox itself (or its label, or an element with a checkable role such as checkbox, switch, radio, option or treeitem) from a new state; use click for other elements.`,
      {
        element_id: r.id,
        check: 'checkable',
        element_type: r.el instanceof HTMLInputElement ? `input[type=${r.el.type}]` : r.el.localName,
        role: roleOf(r.el),
      },
    );
  }
  if (before === want)
    return ok(
      `${label(r.id, r.el)} is already ${want ? 'checked' : 'unchecked'}; nothing to do.`,
      { element_id: r.id, checked: before, changed: false },
      false,
    );
  // Only a radio input cannot be unchecked by a click (Playwright refuses it too); an ARIA radio's
  // page may well toggle it.
  const input = checkTarget(r.el);
  if (!want && input instanceof HTMLInputElement && input.type === 'radio')
    return fail(
      'OPERATION_FAILED_IN_TARGET',
      `${label(r.id, r.el)} is a radio button; it cannot be unchecked by itself. Check another option of its group instead.`,
      { element_id: r.id },
    );
  const a = await prepare(ctx, p, POINTER_CHECKS);
  if (!a.ok) return a;
  ctx.progress?.(1, 1); // the input goes in now: a page that leaves after this was clicked
  await clickAt(a.hit, a.point);
  const after = checkedState(r.el);
  if (after !== want)
    return fail(
      'OPERATION_FAILED_IN_TARGET',
      `Clicked ${label(r.id, r.el)} but it is still ${after ? 'checked' : 'unchecked'} (the page reverted or ignored the click). Take a new state to see why.`,
      { element_id: r.id, checked: after },
    );
  return ok(`${want ? 'Checked' : 'Unchecked'} ${label(r.id, r.el)}.`, { element_id: r.id, checked: want, changed: true });
}

export const check: PageHandler = (ctx, raw) => setChecked(ctx, raw as CheckParams, true);
export const uncheck: PageHandler = (ctx, raw) => setChecked(ctx, raw as CheckParams, false);
