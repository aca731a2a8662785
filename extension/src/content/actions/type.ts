// type (seed 001): focus, then one key press per character (keydown, keypress, beforeinput, input,
// keyup) with an optional delay. Types at the caret like Playwright: a field that already has focus
// keeps its caret and selection (typing replaces a selection, as a keyboard does); a field that
// gets focus now has its caret put at the end, so type appends. fill replaces.
import type { TypeParams } from '../../../../schemas/generated/protocol';
import { EDIT_CHECKS } from '../interaction/actionability';
import { composedContains, deepActiveElement } from '../interaction/dom';
import { caretToEnd } from '../interaction/editing';
import { typeText } from '../interaction/keyboard';
import { fail, label, ok, prepare, safeValue } from './common';
import type { PageHandler } from './types';

export const type: PageHandler = async (ctx, raw) => {
  const p = raw as TypeParams;
  const r = await prepare(ctx, p, EDIT_CHECKS);
  if (!r.ok) return r;
  const wasFocused = composedContains(r.el, deepActiveElement());
  if (!wasFocused) (r.el as HTMLElement).focus({ preventScroll: true });
  if (!composedContains(r.el, deepActiveElement()))
    return fail(
      'TARGET_ELEMENT_NOT_INTERACTABLE',
      `${label(r.id, r.el)} did not take focus, so keystrokes would go elsewhere. Click it first, then type.`,
      { element_id: r.id, check: 'focus' },
    );
  if (!wasFocused) caretToEnd(r.el);
  await typeText(p.text, p.delay_ms ?? 0);
  const result: Record<string, unknown> = { element_id: r.id };
  const v = safeValue(r.el);
  if (v !== undefined) result['value'] = v;
  return ok(`Typed ${p.text.length} characters into ${label(r.id, r.el)}.`, result);
};
