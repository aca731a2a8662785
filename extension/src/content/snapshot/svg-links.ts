// Links drawn inside an inline <svg> (`<a href>`, or the older `xlink:href`): the walk does not enter
// an <svg> (its shapes are a drawing, not page content), but Chromium's accessibility tree and
// Playwright's aria snapshot list the links in it, named from their <title> child, their text or
// aria-label, and a click on one follows it (SVG 2, https://www.w3.org/TR/SVG2/linking.html#Links).
// This finds the ones an agent can see without walking the drawing: an icon without links costs one
// selector lookup.
import { hasHref } from './roles';

/** Drawn text only: a <title> or <desc> names or describes, it is not drawn. */
const NOT_DRAWN = new Set(['title', 'desc', 'style', 'script']);

/** The links in svg that are rendered (not display:none, not visibility:hidden, not inert), in document order. */
export function svgLinks(svg: Element): Element[] {
  // querySelector first: the common icon has no link, and this answers it without building the
  // live collection getElementsByTagName caches on every svg (measured 10x slower on a first walk).
  if (svg.querySelector('a') === null) return [];
  const out: Element[] = [];
  for (const a of svg.querySelectorAll('a')) {
    if (!hasHref(a) || a.closest('[inert]') !== null) continue;
    if (!a.checkVisibility({ checkVisibilityCSS: true })) continue;
    out.push(a);
  }
  return out;
}

/** The text an SVG link draws (its <text> and <tspan> content), whitespace-collapsed. */
export function svgLinkText(a: Element): string {
  const parts: string[] = [];
  const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    let drawn = true;
    for (let e = n.parentElement; e !== null && e !== a; e = e.parentElement) {
      if (NOT_DRAWN.has(e.localName)) {
        drawn = false;
        break;
      }
    }
    if (drawn && n.nodeValue) parts.push(n.nodeValue);
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
