// hover: the pointer moves onto the element (over/enter/move), after visible, stable, receives events.
// These synthetic events run the page's JavaScript hover handlers (mouseover/mouseenter menus open)
// but cannot set CSS :hover, which only the browser's own pointer tracking sets, and no script can.
// So the result says css_hover: false, and the message names the page's :hover rules that the
// element would have switched on: content shown only by CSS :hover stays hidden. Trusted input (a
// real pointer move through chrome.debugger, background/page-watch/trusted-input.ts) sets :hover; it is not
// used behind the person's back here, because turning it on is their choice (the debugger bar).
import type { HoverParams } from '../../../../schemas/generated/protocol';
import { HOVER_CHECKS } from '../interaction/actionability';
import { hoverRulesFor } from '../interaction/hover-rules';
import { pointerMove } from '../interaction/pointer';
import { label, ok, prepare } from './common';
import type { PageHandler } from './types';

export const hover: PageHandler = async (ctx, raw) => {
  const p = raw as HoverParams;
  const r = await prepare(ctx, p, HOVER_CHECKS);
  if (!r.ok) return r;
  ctx.progress?.(1, 1); // the input goes in now: a page that leaves after this was hovered
  pointerMove(r.hit, r.point, p.modifiers ?? []);
  const rules = hoverRulesFor(r.hit);
  const what = label(r.id, r.el);
  const message =
    rules.count > 0
      ? `Hovered over ${what} with synthetic events: its mouseover/mouseenter handlers ran, but CSS :hover does not apply to synthetic events, and ${rules.count} :hover style rule${rules.count === 1 ? '' : 's'} of this page would have matched (e.g. \`${(rules.example ?? '').slice(0, 120)}\`), so anything shown only on :hover is still hidden. Turn trusted_input on (real mouse input) to hover for real.`
      : `Hovered over ${what} with synthetic events (its mouseover/mouseenter handlers ran; CSS :hover does not apply to synthetic events, and no :hover style rule of this page matches it).`;
  return ok(message, { element_id: r.id, x: r.point.x, y: r.point.y, css_hover: false, hover_style_rules: rules.count });
};
