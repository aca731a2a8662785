// DOM helpers shared by the page-side actions: shadow-DOM aware traversal, visibility, focus and
// short descriptions of elements for error messages.

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One animation frame, or 50 ms when frames do not run (background tabs pause rAF). */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        resolve();
      }
    };
    requestAnimationFrame(finish);
    setTimeout(finish, 50);
  });
}

/** Parent across shadow boundaries (a shadow root's host). */
export function composedParent(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const root = node.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

export function composedContains(ancestor: Element, node: Element | null): boolean {
  for (let n: Element | null = node; n; n = composedParent(n)) if (n === ancestor) return true;
  return false;
}

/**
 * The element an action really concerns, as Playwright retargets it (injected retarget): anything
 * that is not itself a form field or editable acts through its nearest button or link
 * ('button-link', pointer actions: a label or icon inside a button is clicked as the button), or
 * through its nearest button, checkbox or radio and then the control of its enclosing <label>
 * ('follow-label', element states: checked, enabled).
 */
export function retarget(el: Element, behavior: 'button-link' | 'follow-label'): Element {
  const editable = (e: Element) => (e as HTMLElement).isContentEditable === true;
  if (el.matches('input, textarea, select') || editable(el)) return el;
  if (behavior === 'button-link') return el.closest('button, [role=button], a, [role=link]') ?? el;
  const t = el.closest('button, [role=button], [role=checkbox], [role=radio]') ?? el;
  if (t.matches('a, input, textarea, button, select, [role=link], [role=button], [role=checkbox], [role=radio]') || editable(t)) return t;
  return t.closest('label')?.control ?? t;
}

/** Every element of the document and of its open shadow roots, in tree order. */
export function* allElements(root: Document | ShadowRoot | Element = document): Generator<Element> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n as Element;
    yield el;
    if (el.shadowRoot) yield* allElements(el.shadowRoot);
  }
}

/** Elements matching a CSS selector in the document and its open shadow roots, in tree order. */
export function queryAllDeep(selector: string): Element[] {
  const out: Element[] = [];
  const visit = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll(selector)) out.push(el);
    for (const host of root.querySelectorAll('*')) if (host.shadowRoot) visit(host.shadowRoot);
  };
  visit(document);
  if (out.length < 2) return out;
  // querySelectorAll per root gives each root's matches together; restore document order.
  return out.sort((a, b) => (a === b ? 0 : treeOrder(a, b)));
}

function treeOrder(a: Element, b: Element): number {
  const pos = a.compareDocumentPosition(b);
  if (pos & Node.DOCUMENT_POSITION_FOLLOWING) return -1;
  if (pos & Node.DOCUMENT_POSITION_PRECEDING) return 1;
  // Different trees (shadow roots): compare the hosts' chains.
  const chain = (e: Element) => {
    const c: Element[] = [];
    for (let n: Element | null = e; n; n = composedParent(n)) c.unshift(n);
    return c;
  };
  const ca = chain(a);
  const cb = chain(b);
  let i = 0;
  while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
  const x = ca[i];
  const y = cb[i];
  if (!x) return -1;
  if (!y) return 1;
  return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

/**
 * For an element with an empty box: the box of its contents when they show anyway (a
 * `display: contents` element, or a zero-size one with overflow visible); else the empty box.
 */
export function contentBoxIfEmpty(el: Element, rect: DOMRect): DOMRect {
  if ((rect.width > 0 && rect.height > 0) || !el.firstChild) return rect;
  const style = getComputedStyle(el);
  if (style.display !== 'contents' && (style.display === 'none' || style.overflowX !== 'visible' || style.overflowY !== 'visible'))
    return rect;
  const range = document.createRange();
  range.selectNodeContents(el);
  const inner = range.getBoundingClientRect();
  return inner.width > 0 && inner.height > 0 ? inner : rect;
}

/**
 * Visible like Playwright (injected domUtils computeBox): a `display: contents` element has no box of
 * its own and is visible when one of its child elements is visible or one of its text nodes has a
 * box; anything else needs a non-empty box (or, see contentBoxIfEmpty, contents that show anyway) and
 * must not be hidden by display/visibility (opacity 0 counts as visible).
 */
export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const style = getComputedStyle(el);
  if (style.display === 'contents') {
    for (let child = el.firstChild; child; child = child.nextSibling) {
      if (child instanceof Element && isVisible(child)) return true;
      if (child instanceof Text && textRect(child)) return true;
    }
    return false;
  }
  const rect = contentBoxIfEmpty(el, el.getBoundingClientRect());
  if (rect.width === 0 || rect.height === 0) return false;
  return el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
}

/** A text node's box, or null when it renders nothing (collapsed whitespace, a hidden parent). */
export function textRect(t: Text): DOMRect | null {
  const range = document.createRange();
  range.selectNode(t);
  const r = range.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? r : null;
}

/** A node's children as rendered (the flat tree): a host's shadow children, a slot's assigned nodes. */
function flatChildren(el: Element): Node[] {
  if (el.shadowRoot) return [...el.shadowRoot.childNodes];
  if (el instanceof HTMLSlotElement) {
    const assigned = el.assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return [...el.childNodes];
}

/**
 * What scrolling el into view moves: el itself when it has a layout box, or for `display: contents`
 * its first rendered descendant (an element, or a text node), as Chromium's DOM.scrollIntoViewIfNeeded
 * does for Playwright. null when nothing of it is rendered (display:none, in a hidden subtree): there
 * is nothing to scroll to (Playwright: "element is not visible").
 */
export function firstBox(el: Element): Element | Text | null {
  if (getComputedStyle(el).display !== 'contents') return el.getClientRects().length > 0 ? el : null;
  for (const child of flatChildren(el)) {
    if (child instanceof Element) {
      const box = firstBox(child);
      if (box) return box;
    } else if (child instanceof Text && textRect(child)) return child;
  }
  return null;
}

/** How far to scroll so [lo, hi] shows in [viewLo, viewHi] with this alignment (null: centre, only if not fully in view). */
function scrollDelta(lo: number, hi: number, viewLo: number, viewHi: number, align: ScrollLogicalPosition | null): number {
  if (align === 'start') return lo - viewLo;
  if (align === 'end') return hi - viewHi;
  if (align === null && lo >= viewLo && hi <= viewHi) return 0;
  if (align === 'nearest') return lo < viewLo ? lo - viewLo : hi > viewHi ? hi - viewHi : 0;
  return (lo + hi) / 2 - (viewLo + viewHi) / 2;
}

/** Scrolls every scroll container from `from` up, then the window, so the measured rect shows. */
function revealRect(from: Element, measure: () => DOMRect, align: ScrollLogicalPosition | null): void {
  const scrolls = (overflow: string) => overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay' || overflow === 'hidden';
  for (let n: Element | null = from; n; n = composedParent(n)) {
    if (n === document.documentElement || n === document.body) continue;
    const style = getComputedStyle(n);
    const y = scrolls(style.overflowY) && n.scrollHeight > n.clientHeight;
    const x = scrolls(style.overflowX) && n.scrollWidth > n.clientWidth;
    if (!x && !y) continue;
    const c = n.getBoundingClientRect();
    const top = c.top + n.clientTop;
    const left = c.left + n.clientLeft;
    const r = measure();
    const dy = y ? scrollDelta(r.top, r.bottom, top, top + n.clientHeight, align) : 0;
    const dx = x ? scrollDelta(r.left, r.right, left, left + n.clientWidth, align) : 0;
    if (dx || dy) n.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  }
  const r = measure();
  const dy = scrollDelta(r.top, r.bottom, 0, window.innerHeight, align);
  const dx = scrollDelta(r.left, r.right, 0, window.innerWidth, align);
  if (dx || dy) window.scrollBy({ left: dx, top: dy, behavior: 'instant' });
}

/**
 * Scrolls el into view in every scroll container up to the viewport (nested scrollers included):
 * only if needed (centred then) when align is null, else with that alignment. A `display: contents`
 * element is scrolled by its first box (firstBox). false: el has nothing rendered to scroll to.
 */
export function scrollIntoViewIfNeeded(el: Element, align: ScrollLogicalPosition | null): boolean {
  const box = firstBox(el);
  if (!box) return false;
  if (box instanceof Text) {
    revealRect(box.parentElement ?? el, () => textRect(box) ?? new DOMRect(), align);
    return true;
  }
  if (align) {
    box.scrollIntoView({ block: align, inline: align, behavior: 'instant' });
    return true;
  }
  // Not Element.scrollIntoViewIfNeeded: it follows the page's `scroll-behavior: smooth`, so the
  // point taken right after would be stale while the page still glides (a trusted click then lands
  // where the element was). An instant scroll, only when some scroller hides part of the element.
  if (!fullyShown(box)) box.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return true;
}

/** Is el's whole box inside the viewport and inside every scroll container around it? */
function fullyShown(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) return false;
  for (let n = composedParent(el); n && n !== document.documentElement && n !== document.body; n = composedParent(n)) {
    const style = getComputedStyle(n);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const c = n.getBoundingClientRect();
    const top = c.top + n.clientTop;
    const left = c.left + n.clientLeft;
    if (r.top < top || r.left < left || r.bottom > top + n.clientHeight || r.right > left + n.clientWidth) return false;
  }
  return true;
}

/** The focused element, looking inside shadow roots. */
export function deepActiveElement(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/**
 * Does el hold the keyboard focus (itself or something inside it)? document.activeElement falls back
 * to <body> when nothing is focused, and a frame that is not the focused one still names its last
 * active element: a contenteditable <body> (an editor iframe, a designMode document) counts only
 * when its document really has focus, else keys sent now would land in another frame.
 */
export function hasFocusWithin(el: Element): boolean {
  const active = deepActiveElement();
  if (!composedContains(el, active)) return false;
  if (active === document.body || active === document.documentElement) return document.hasFocus();
  return true;
}

const FOCUSABLE =
  'a[href], area[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]';

export function isFocusable(el: Element): boolean {
  if (!(el instanceof HTMLElement || el instanceof SVGElement)) return false;
  if (!el.matches(FOCUSABLE)) return false;
  if ((el as HTMLButtonElement).disabled === true) return false;
  if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
  return true;
}

/** The nearest focusable element at or above el (what a mousedown focuses). */
export function focusableAncestor(el: Element): HTMLElement | null {
  for (let n: Element | null = el; n; n = composedParent(n)) if (isFocusable(n)) return n as HTMLElement;
  return null;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `<button id="x" class="a b"> "Accept all"`: enough for an agent to recognise an element. */
export function describe(el: Element): { tag: string; id?: string; class?: string; text?: string; summary: string } {
  const out: { tag: string; id?: string; class?: string; text?: string; summary: string } = { tag: el.localName, summary: '' };
  if (el.id) out.id = el.id;
  const cls = typeof el.className === 'string' ? collapse(el.className) : '';
  if (cls) out.class = cls.slice(0, 120);
  const text = collapse((el as HTMLElement).innerText ?? el.textContent ?? '').slice(0, 80);
  if (text) out.text = text;
  out.summary = `<${el.localName}${out.id ? ` id="${out.id}"` : ''}${out.class ? ` class="${out.class}"` : ''}>${text ? ` "${text}"` : ''}`;
  return out;
}

export function inViewport(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth && r.width > 0 && r.height > 0;
}
