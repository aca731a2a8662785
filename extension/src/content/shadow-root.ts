// The shadow root of an element, open or closed, for every page-side walk and hit test (the
// snapshot, the dom_tree, actionability): one place that knows how to reach closed roots.

import { closedShadowEpoch } from './shadow-watch';

const chromeDom = (globalThis as { chrome?: { dom?: { openOrClosedShadowRoot?: (el: HTMLElement) => ShadowRoot | null } } }).chrome?.dom;

/** Elements that may host a shadow root (DOM "attachShadow" valid names), besides custom elements. */
const SHADOW_HOSTS = new Set([
  'article',
  'aside',
  'blockquote',
  'body',
  'div',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'main',
  'nav',
  'p',
  'section',
  'span',
]);

/** Closed roots found (a shadow root is never taken off its host). */
const closedRoots = new WeakMap<Element, ShadowRoot>();
/** Elements found without a closed root, while closedShadowEpoch() stays `epoch`. */
let noClosedRoot = new WeakSet<Element>();
let epoch: number | null = null;

/** The shadow root of el, open or closed (chrome.dom.openOrClosedShadowRoot; content scripts only). */
export function shadowRootOf(el: Element, tag: string = el.localName): ShadowRoot | null {
  const open = el.shadowRoot;
  if (open) return open;
  // The chrome.dom binding costs microseconds per call: ask only for elements that can be hosts,
  // and once per element while no closed root is attached anywhere in the document (shadow-watch.ts).
  if (!SHADOW_HOSTS.has(tag) && !tag.includes('-')) return null;
  const known = closedRoots.get(el);
  if (known) return known;
  const now = closedShadowEpoch();
  if (now !== epoch) {
    noClosedRoot = new WeakSet();
    epoch = now;
  }
  if (now !== null && noClosedRoot.has(el)) return null;
  if (!chromeDom?.openOrClosedShadowRoot || !(el instanceof HTMLElement)) return null;
  let root: ShadowRoot | null;
  try {
    root = chromeDom.openOrClosedShadowRoot(el) ?? null;
  } catch {
    return null;
  }
  if (root) closedRoots.set(el, root);
  else if (now !== null) noClosedRoot.add(el);
  return root;
}
