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

/** Visible like Playwright: non-empty box and not hidden by display/visibility (opacity 0 counts as visible). */
export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const rect = contentBoxIfEmpty(el, el.getBoundingClientRect());
  if (rect.width === 0 || rect.height === 0) return false;
  // display:contents has no box of its own (checkVisibility says false): its contents showed above.
  const style = getComputedStyle(el);
  if (style.display === 'contents') return style.visibility === 'visible';
  return el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
}

/** The focused element, looking inside shadow roots. */
export function deepActiveElement(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
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
