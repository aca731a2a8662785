// focus: element.focus() (fires focus/focusin), no pointer events; no visibility requirement.
import type { FocusParams } from '../../../../schemas/generated/protocol';
import { composedContains, deepActiveElement } from '../interaction/dom';
import { label, ok, prepare } from './common';
import type { PageHandler } from './types';

export const focus: PageHandler = async (ctx, raw) => {
  const p = raw as FocusParams;
  const r = await prepare(ctx, p, []);
  if (!r.ok) return r;
  (r.el as HTMLElement).focus?.();
  const focused = composedContains(r.el, deepActiveElement());
  return ok(
    focused ? `Focused ${label(r.id, r.el)}.` : `Called focus() on ${label(r.id, r.el)}, but it is not focusable, so focus did not move.`,
    { element_id: r.id, focused },
    false,
  );
};
