// Scrolling: by pixels or pages (browser_use scroll_down/scroll_up), to coordinates (seed 000
// scroll_to), an element into view, and to a text (browser_use scroll_to_text). Scrolls are
// instant so the result reports where the page ended up.
import type { ScrollIntoViewParams, ScrollParams, ScrollToParams, ScrollToTextParams } from '../../../../schemas/generated/protocol';
import { DEFAULT_TIMEOUT_MS, waitForActionable } from '../interaction/actionability';
import { composedParent, contentBoxIfEmpty, isVisible, nextFrame, scrollIntoViewIfNeeded } from '../interaction/dom';
import { deepElementAt } from '../interaction/hit-test';
import { hasTarget, resolveTarget } from '../target';
import { fail, label, ok } from './common';
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
  if (el && !scrollsOn(el, vertical)) {
    // A target that cannot scroll itself (a display:contents wrapper, an element whose content fits)
    // scrolls what a mouse wheel over it would: its nearest scroll container, else the page. Never
    // "already at the end" for an element that has no scroll position at all.
    const container = scrollContainerFrom(composedParent(el), vertical);
    el = container;
    id = container ? ctx.refs.refFor(container) : '';
  }
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

/** Does el scroll on this axis (a scroll container with content beyond its box)? */
function scrollsOn(el: Element, vertical: boolean): boolean {
  const style = getComputedStyle(el);
  const overflow = vertical ? style.overflowY : style.overflowX;
  const room = vertical ? el.scrollHeight > el.clientHeight : el.scrollWidth > el.clientWidth;
  return room && (overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay');
}

/** The nearest element from `start` up that scrolls on this axis (the page's own scroller excluded). */
function scrollContainerFrom(start: Element | null, vertical: boolean): Element | null {
  for (let n = start; n && n !== document.documentElement && n !== document.body; n = composedParent(n))
    if (scrollsOn(n, vertical)) return n;
  return null;
}

function scrollContainerAtCentre(vertical: boolean): Element | null {
  return scrollContainerFrom(deepElementAt(window.innerWidth / 2, window.innerHeight / 2), vertical);
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

/** Is any part of el's box (or, display:contents, of its contents) inside the viewport? */
function boxInViewport(el: Element): boolean {
  const r = contentBoxIfEmpty(el, el.getBoundingClientRect());
  return r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth && r.width > 0 && r.height > 0;
}

/**
 * Playwright's scrollIntoViewIfNeeded: wait until the element has something rendered to scroll to
 * (its box, or a display:contents element's first box; a visibility:hidden or zero-sized element
 * has one), scroll it to the middle of every scroll container, then wait until it holds still. An
 * element with nothing rendered (display:none, a hidden parent) is waited for and then refused on
 * the visible check: never a success that scrolled nothing.
 */
export const scrollIntoView: PageHandler = async (ctx, raw) => {
  const p = raw as ScrollIntoViewParams;
  const t = resolveTarget(ctx, p);
  if (!t.ok) return t;
  const el = t.element;
  const timeoutMs = p.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  while (el.isConnected && !scrollIntoViewIfNeeded(el, 'center')) {
    if (performance.now() >= deadline)
      return fail(
        'TARGET_ELEMENT_NOT_INTERACTABLE',
        `Element ${label(t.elementId, el)} is not rendered (display:none, or inside a hidden or collapsed part of the page), so there is nothing to scroll to. Open the part of the page that shows it (a tab, an accordion, a menu), take a new state and retry.`,
        { element_id: t.elementId, check: 'visible', timeout_ms: timeoutMs },
      );
    await nextFrame();
  }
  const a = await waitForActionable(ctx, el, t.elementId, ['stable'], Math.max(0, deadline - performance.now()));
  if (!a.ok) return a;
  const visible = boxInViewport(el) && isVisible(el);
  return ok(
    visible
      ? `Scrolled ${label(t.elementId, el)} into view.`
      : `Scrolled ${label(t.elementId, el)} into view, but it does not show (invisible or zero-sized).`,
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
