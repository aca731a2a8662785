// type (seed 001): focus, then one key press per character (keydown, keypress, beforeinput, input,
// keyup) with an optional delay; no modifier is held ("!" is the "!" key without Shift, as in
// Playwright's keyboard.type). Types at the caret like Playwright: a field that already has focus
// keeps its caret and selection (typing replaces a selection, as a keyboard does); a field that
// gets focus now has its caret put at the end, so type appends. fill replaces.
import type { TypeParams } from '../../../../schemas/generated/protocol';
import { EDIT_CHECKS } from '../interaction/actionability';
import { composedContains, deepActiveElement, sleep } from '../interaction/dom';
import { caretToEnd } from '../interaction/editing';
import { typeText } from '../interaction/keyboard';
import { nextTask } from '../interaction/tasks';
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
  const chars = [...p.text];
  const delay = p.delay_ms ?? 0;
  // Key by key, so the worker hears how many went in before each pause: the page may navigate or
  // close its tab during one, and this document (and this loop) dies with it.
  for (let i = 0; i < chars.length; i++) {
    if (i > 0 && delay > 0) {
      ctx.progress?.(i, chars.length);
      await sleep(delay);
    } else if (i > 0) await nextTask(); // each key press is a new input event, in a later task
    await typeText(chars[i] as string);
  }
  ctx.progress?.(chars.length, chars.length);
  const result: Record<string, unknown> = { element_id: r.id, chars_typed: chars.length };
  const v = safeValue(r.el);
  if (v !== undefined) result['value'] = v;
  return ok(`Typed ${chars.length} characters into ${label(r.id, r.el)}.`, result);
};
