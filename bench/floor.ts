// The snapshot floor (what the targets in bench/snapshot.ts compare with): the least any DOM
// snapshot must do — visit every element (open shadow roots included) and ask its box
// (getBoundingClientRect, which also forces the layout a real snapshot needs). Evaluated in the page
// over CDP (Runtime.evaluate, result by value), timed at the caller like every other column; it
// returns only counts, so its transfer cost is nil. Top document only
// (a cross-site iframe is another renderer: no in-page walk reaches it).

/** Whole page: every element's box. Returns the number of elements visited. */
export const FLOOR_WHOLE = `(() => {
  let n = 0, sum = 0;
  const walk = (root) => {
    const w = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let e = w.nextNode(); e; e = w.nextNode()) {
      const r = e.getBoundingClientRect();
      sum += r.width; n++;
      if (e.shadowRoot) walk(e.shadowRoot);
    }
  };
  walk(document);
  return n + (sum < 0 ? 1 : 0);
})()`;

/**
 * Viewport: the same walk, but a subtree whose box lies wholly outside the viewport is not entered
 * (a lower bound: overflowing descendants of such a box are skipped too). Returns elements visited.
 */
export const FLOOR_VIEWPORT = `(() => {
  const vw = innerWidth, vh = innerHeight;
  let n = 0;
  const visit = (el) => {
    const r = el.getBoundingClientRect();
    n++;
    if (r.width + r.height > 0 && (r.bottom < 0 || r.top > vh || r.right < 0 || r.left > vw)) return;
    if (el.shadowRoot) for (const c of el.shadowRoot.children) visit(c);
    for (const c of el.children) visit(c);
  };
  visit(document.documentElement);
  return n;
})()`;
