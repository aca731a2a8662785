// click: actionability (visible, stable, enabled, receives events), then the mouse sequence at the
// element's centre. Activation (links, submit buttons, checkboxes) comes from the click event itself.
import type { ClickParams } from '../../../../schemas/generated/protocol';
import { POINTER_CHECKS } from '../interaction/actionability';
import { selectParagraphAt } from '../interaction/editing';
import { clickAt } from '../interaction/pointer';
import { label, ok, prepare } from './common';
import type { HandlerOutcome, PageHandler } from './types';

export const click: PageHandler = async (ctx, raw) => {
  const p = raw as ClickParams;
  const r = await prepare(ctx, p, POINTER_CHECKS);
  if (!r.ok) return r;
  ctx.progress?.(1, 1); // the input goes in now: a page that leaves after this was clicked
  await clickAt(r.hit, r.point, { button: p.button ?? 'left', clickCount: p.click_count ?? 1, modifiers: p.modifiers ?? [] });
  if (p.click_count === 3 && (p.button ?? 'left') === 'left') selectParagraphAt(r.hit, r.point.x, r.point.y);
  const how = `${p.button && p.button !== 'left' ? `${p.button}-` : ''}${(p.click_count ?? 1) > 1 ? `${p.click_count}x ` : ''}`;
  return inLink(r.hit, ok(`Clicked ${how}${label(r.id, r.el)}.`, { element_id: r.id, x: r.point.x, y: r.point.y }));
};

export const doubleClick: PageHandler = async (ctx, raw) => {
  const p = raw as ClickParams;
  const r = await prepare(ctx, p, POINTER_CHECKS);
  if (!r.ok) return r;
  ctx.progress?.(1, 1);
  await clickAt(r.hit, r.point, { clickCount: 2, modifiers: p.modifiers ?? [] });
  return inLink(r.hit, ok(`Double-clicked ${label(r.id, r.el)}.`, { element_id: r.id, x: r.point.x, y: r.point.y }));
};

/**
 * Marks a click that landed in a link to another document: Chrome creates a download item only once
 * the link's response arrives, after this answer, so the worker waits a moment for one however the
 * target was named (index, element id, selector or role).
 */
function inLink(hit: Element, outcome: HandlerOutcome): HandlerOutcome {
  const a = hit.closest('a[href], area[href]');
  const href = a?.getAttribute('href') ?? '';
  const away = href !== '' && !href.startsWith('#') && !/^javascript:/i.test(href);
  return away && outcome.ok ? { ...outcome, link: true } : outcome;
}
