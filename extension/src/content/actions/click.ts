// click: actionability (visible, stable, enabled, receives events), then the mouse sequence at the
// element's centre. Activation (links, submit buttons, checkboxes) comes from the click event itself.
import type { ClickParams } from '../../../../schemas/generated/protocol';
import { POINTER_CHECKS } from '../interaction/actionability';
import { selectParagraphAt } from '../interaction/editing';
import { clickAt } from '../interaction/pointer';
import { label, ok, prepare } from './common';
import type { PageHandler } from './types';

export const click: PageHandler = async (ctx, raw) => {
  const p = raw as ClickParams;
  const r = await prepare(ctx, p, POINTER_CHECKS);
  if (!r.ok) return r;
  ctx.progress?.(1, 1); // the input goes in now: a page that leaves after this was clicked
  await clickAt(r.hit, r.point, { button: p.button ?? 'left', clickCount: p.click_count ?? 1, modifiers: p.modifiers ?? [] });
  if (p.click_count === 3 && (p.button ?? 'left') === 'left') selectParagraphAt(r.hit, r.point.x, r.point.y);
  const how = `${p.button && p.button !== 'left' ? `${p.button}-` : ''}${(p.click_count ?? 1) > 1 ? `${p.click_count}x ` : ''}`;
  return ok(`Clicked ${how}${label(r.id, r.el)}.`, { element_id: r.id, x: r.point.x, y: r.point.y });
};

export const doubleClick: PageHandler = async (ctx, raw) => {
  const p = raw as ClickParams;
  const r = await prepare(ctx, p, POINTER_CHECKS);
  if (!r.ok) return r;
  ctx.progress?.(1, 1);
  await clickAt(r.hit, r.point, { clickCount: 2, modifiers: p.modifiers ?? [] });
  return ok(`Double-clicked ${label(r.id, r.el)}.`, { element_id: r.id, x: r.point.x, y: r.point.y });
};
