// check / uncheck with Playwright's semantics (elementHandle.check): a checkbox or radio input, or
// an element whose ARIA role carries a checked state (checkbox, radio, switch, menuitemcheckbox,
// menuitemradio; treeitem and option when they have aria-checked). A <label> stands for its control
// (Playwright retargets labels). Already in the requested state: success without a click. Otherwise
// a real click (so the page's handlers run), then the state is verified. Anything else is
// NOT_CHECKABLE at once (the kind of an element does not change while waiting).
import type { CheckParams } from '../../../../schemas/generated/protocol';
import { POINTER_CHECKS } from '../interaction/actionability';
import { clickAt } from '../interaction/pointer';
import { roleOf } from '../snapshot/roles';
import { fail, label, ok, prepare } from './common';
import type { HandlerOutcome, PageContext, PageHandler } from './types';

const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
/** Roles that are checkable only when the page gives them a checked state. */
const CHECKABLE_WITH_ARIA = new Set(['treeitem', 'option']);

/** The element whose checked state counts: a label's control, else the element. */
export function checkTarget(el: Element): Element {
  if (el instanceof HTMLLabelElement && el.control) return el.control;
  return el;
}

/** true/false for a checkable element, null for anything else. */
export function checkedState(raw: Element): boolean | null {
  const el = checkTarget(raw);
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  if (el instanceof HTMLInputElement) return null;
  const role = roleOf(el);
  const aria = el.getAttribute('aria-checked');
  if (CHECKABLE_ROLES.has(role) || (CHECKABLE_WITH_ARIA.has(role) && aria !== null)) return aria === 'true';
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
      `${label(r.id, r.el)} is ${what}, not a checkbox, radio or switch, so it cannot be ${want ? 'checked' : 'unchecked'}. Pick the checkbox itself (or its label, or an element with role=checkbox and aria-checked) from a new state; use click for other elements.`,
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
  const input = checkTarget(r.el);
  if (!want && ((input instanceof HTMLInputElement && input.type === 'radio') || ['radio', 'menuitemradio'].includes(roleOf(input))))
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
