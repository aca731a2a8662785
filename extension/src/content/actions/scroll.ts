// Scrolling: by pixels or pages (browser_use scroll_down/scroll_up), to coordinates (seed 000
// scroll_to), an element into view, and to a text (browser_use scroll_to_text). Scrolls are
// instant so the result reports where the page ended up.
import type { ScrollIntoViewParams, ScrollParams, ScrollToParams, ScrollToTextParams } from '../../../../schemas/generated/protocol';
import { waitForActionable } from '../interaction/actionability';
import { composedParent, inViewport, isVisible, nextFrame } from '../interaction/dom';
import { deepElementAt } from '../interaction/hit-test';
import { hasTarget, resolveTarget } from '../target';
import { label, ok } from './common';
import type { PageHandler } from './types';

const pos = (el: Element | null) =>
  el
    ? { scroll_x: Math.round(el.scrollLeft), scroll_y: Math.round(el.scrollTop) }
    : { scroll_x: Math.round(window.scrollX), scroll_y: Math.round(window.scrollY) };

export const scroll: PageHandler = async (ctx, raw) => {
  const p = raw as ScrollParams;
  let el: Element | null = null;
  let id = '';
  if (hasTarget(p)) {
    const t = resolveTarget(ctx, p);
    if (!t.ok) return t;
    el = t.element;
    id = t.elementId;
  }
  const dir = p.direction ?? 'down';
  const vertical = dir === 'up' || dir === 'down';
  const page = el ? (vertical ? el.clientHeight : el.clientWidth) : vertical ? window.innerHeight : window.innerWidth;
  const amount = p.amount ?? Math.round((p.pages ?? 1) * page);
  const sign = dir === 'up' || dir === 'left' ? -1 : 1;
  let before = pos(el);
  const delta = { left: vertical ? 0 : sign * amount, top: vertical ? sign * amount : 0, behavior: 'instant' as ScrollBehavior };
  if (el) el.scrollBy(delta);
  else window.scrollBy(delta);
  await nextFrame();
  let after = pos(el);
  let moved = after.scroll_x !== before.scroll_x || after.scroll_y !== before.scroll_y;
  if (!moved && !el) {
    // App-like pages keep the window fixed and scroll an inner container: scroll the one under the
    // middle of the viewport instead (what a person's mouse wheel there would do).
    const container = scrollContainerAtCentre(vertical);
    if (container) {
      el = container;
      id = ctx.refs.refFor(container);
      before = pos(el);
      const own = vertical ? el.clientHeight : el.clientWidth;
      const inner = p.amount ?? Math.round((p.pages ?? 1) * own);
      el.scrollBy({ left: vertical ? 0 : sign * inner, top: vertical ? sign * inner : 0, behavior: 'instant' });
      await nextFrame();
      after = pos(el);
      moved = after.scroll_x !== before.scroll_x || after.scroll_y !== before.scroll_y;
    }
  }
  const what = p.amount !== undefined ? `${amount} pixels` : (p.pages ?? 1) === 1 ? 'one page' : `${p.pages} pages`;
  const where = el ? ` inside ${label(id, el)}` : '';
  const message = moved
    ? `🔍  Scrolled ${dir} the page by ${what}${where}`
    : `Did not scroll ${dir}${where}: already at the ${sign < 0 ? 'start' : 'end'}.`;
  return ok(message, { ...after, moved, ...(el ? { element_id: id } : {}) });
};

function scrollContainerAtCentre(vertical: boolean): Element | null {
  let n: Element | null = deepElementAt(window.innerWidth / 2, window.innerHeight / 2);
  for (; n && n !== document.documentElement && n !== document.body; n = composedParent(n)) {
    const style = getComputedStyle(n);
    const overflow = vertical ? style.overflowY : style.overflowX;
    const room = vertical ? n.scrollHeight > n.clientHeight : n.scrollWidth > n.clientWidth;
    if (room && (overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay')) return n;
  }
  return null;
}

export const scrollTo: PageHandler = async (ctx, raw) => {
  const p = raw as ScrollToParams;
  let el: Element | null = null;
  if (hasTarget(p)) {
    const t = resolveTarget(ctx, p);
    if (!t.ok) return t;
    el = t.element;
  }
  const to = { left: p.x ?? 0, top: p.y, behavior: 'instant' as ScrollBehavior };
  if (el) el.scrollTo(to);
  else window.scrollTo(to);
  await nextFrame();
  const after = pos(el);
  return ok(`Scrolled to (${after.scroll_x}, ${after.scroll_y}).`, after);
};

export const scrollIntoView: PageHandler = async (ctx, raw) => {
  const p = raw as ScrollIntoViewParams;
  const t = resolveTarget(ctx, p);
  if (!t.ok) return t;
  t.element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const a = await waitForActionable(ctx, t.element, t.elementId, ['stable'], p.timeout_ms);
  if (!a.ok) return a;
  const visible = inViewport(t.element) && isVisible(t.element);
  return ok(
    visible
      ? `Scrolled ${label(t.elementId, t.element)} into view.`
      : `Scrolled towards ${label(t.elementId, t.element)}, but it is not visible (hidden or zero-sized).`,
    { element_id: t.elementId, in_viewport: visible, ...pos(null) },
  );
};

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The deepest visible element whose text contains `text` (first in document order), or null. */
export function findText(text: string): Element | null {
  const wanted = norm(text);
  if (!document.body || !norm(document.body.textContent ?? '').includes(wanted)) return null;
  const contains = (el: Element) =>
    el.localName !== 'script' && el.localName !== 'style' && el.localName !== 'noscript' && norm(el.textContent ?? '').includes(wanted);
  const descend = (el: Element): Element | null => {
    for (const child of el.children) {
      if (!contains(child) || !isVisible(child)) continue;
      return descend(child) ?? child;
    }
    return null;
  };
  // Text split over siblings ("Hello <b>World</b>") has no deeper element holding all of it.
  const deepest = descend(document.body);
  if (deepest) return deepest;
  return isVisible(document.body) && contains(document.body) ? document.body : null;
}

export const scrollToText: PageHandler = (_ctx, raw) => {
  const p = raw as ScrollToTextParams;
  const el = findText(p.text);
  if (!el) return ok(`Text '${p.text}' not found or not visible on page`, { found: false, ...pos(null) }, false);
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  return ok(`🔍  Scrolled to text: ${p.text}`, { found: true, ...pos(null) });
};
