// hover: the pointer moves onto the element (over/enter/move), after visible, stable, receives events.
// These synthetic events run the page's JavaScript hover handlers (mouseover/mouseenter menus open)
// but cannot set CSS :hover, which only the browser's own pointer tracking sets, and no script can.
// So the result says css_hover: false, and the message names the page's :hover rules that the
// element would have switched on. Trusted input (a real pointer move through chrome.debugger,
// background/page-watch/trusted-input.ts) sets :hover, so the worker hovers with it by default when
// the page has :hover rules for the element (Playwright's hover moves a real pointer) and with these
// events otherwise (background/run/trusted-run.ts cssHoverPlan).
import type { HoverParams } from '../../../../schemas/generated/protocol';
import type { Modifier } from '../../shared/keys';
import { HOVER_CHECKS, type Point } from '../interaction/actionability';
import { hoverRulesFor } from '../interaction/hover-rules';
import { pointerMove } from '../interaction/pointer';
import { label, ok, prepare } from './common';
import type { PageContext, PageHandler } from './types';

export const hover: PageHandler = async (ctx, raw) => {
  const p = raw as HoverParams;
  const r = await prepare(ctx, p, HOVER_CHECKS);
  if (!r.ok) return r;
  const done = hoverSynthetically(ctx, r, p.modifiers ?? []);
  return ok(done.message, done.result);
};

/** The synthetic hover of a prepared target, its message and result (also used by the worker's
 * hover when the page has no :hover rule for the element: content/actions/trusted-prepare.ts). */
export function hoverSynthetically(
  ctx: PageContext,
  r: { el: Element; id: string; point: Point; hit: Element },
  modifiers: readonly Modifier[],
): { message: string; result: Record<string, unknown> } {
  ctx.progress?.(1, 1); // the input goes in now: a page that leaves after this was hovered
  pointerMove(r.hit, r.point, modifiers);
  const rules = hoverRulesFor(r.hit);
  const what = label(r.id, r.el);
  const message =
    rules.count > 0
      ? `Hovered over ${what} with synthetic events: its mouseover/mouseenter handlers ran, but CSS :hover does not apply to synthetic events, and ${rules.count} :hover style rule${rules.count === 1 ? '' : 's'} of this page would have matched (e.g. \`${(rules.example ?? '').slice(0, 120)}\`), so anything shown only on :hover is still hidden. Turn trusted_input on (real mouse input) to hover for real.`
      : `Hovered over ${what} with synthetic events (its mouseover/mouseenter handlers ran; CSS :hover does not apply to synthetic events, and no :hover style rule of this page matches it).`;
  return { message, result: { element_id: r.id, x: r.point.x, y: r.point.y, css_hover: false, hover_style_rules: rules.count } };
}
