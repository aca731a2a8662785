// hover: the pointer moves onto the element (over/enter/move), after visible, stable, receives events.
import type { HoverParams } from '../../../../schemas/generated/protocol';
import { HOVER_CHECKS } from '../interaction/actionability';
import { pointerMove } from '../interaction/pointer';
import { label, ok, prepare } from './common';
import type { PageHandler } from './types';

export const hover: PageHandler = async (ctx, raw) => {
  const p = raw as HoverParams;
  const r = await prepare(ctx, p, HOVER_CHECKS);
  if (!r.ok) return r;
  ctx.progress?.(1, 1); // the input goes in now: a page that leaves after this was hovered
  pointerMove(r.hit, r.point, p.modifiers ?? []);
  return ok(`Hovered over ${label(r.id, r.el)}.`, { element_id: r.id, x: r.point.x, y: r.point.y });
};
