// The shadow root of an element, open or closed, for every page-side walk and hit test (the
// snapshot, the dom_tree, actionability): one place that knows how to reach closed roots.

import { isAgentUiRoot } from '../shared/agent-ui-marker';
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

/**
 * Every shadow root of the page in and under `from` (a document, a shadow root, or an element: its
 * own root too), open and closed, nested ones too, in tree order; not our own UI's (agent-ui-marker.ts:
 * never the page's content). For the passes that must see all the page draws, not only its light
 * DOM (card numbers in screenshots: snapshot/card-boxes.ts, card-push.ts, privacy.ts). One element
 * walk; a root's own subtree is walked as it is met, so a root inside a root is found.
 */
export function shadowRootsIn(from: Node): ShadowRoot[] {
  const out: ShadowRoot[] = [];
  const visit = (scope: Node): void => {
    if (scope instanceof Element) {
      const own = isAgentUiRoot(scope) ? null : shadowRootOf(scope);
      if (own) {
        out.push(own);
        visit(own);
      }
    }
    const doc = scope.ownerDocument ?? (scope as Document);
    const walker = doc.createTreeWalker(scope, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.nextNode() as Element | null; el; el = walker.nextNode() as Element | null) {
      const root = shadowRootOf(el);
      if (root && !isAgentUiRoot(el)) {
        out.push(root);
        visit(root);
      }
    }
  };
  visit(from);
  return out;
}

// The flat tree: the tree as it is rendered, a host's shadow root in place of its children, a slot's
// assigned nodes in place of the slot (https://drafts.csswg.org/css-scoping/#flat-tree). Text split
// across a shadow boundary reads on screen in this order, not in the DOM's (snapshot/privacy.ts
// joins card numbers by it, so a screenshot is covered where the number is drawn).

/** A slot of the shadow tree in which it is assigned (assignedSlot is null for a closed root's slot, so those are asked). */
function slotOf(n: Element | Text, root: ShadowRoot): HTMLSlotElement | null {
  if (root.mode === 'open') return n.assignedSlot;
  for (const slot of root.querySelectorAll('slot')) if (slot.assignedNodes().includes(n)) return slot;
  return null;
}

/**
 * The parent of n in the flat tree: the slot it is assigned to when its parent hosts a shadow root
 * (null when no slot takes it: it is not drawn), the host for a shadow root's own child, else its
 * parent node.
 */
export function flatParent(n: Node): Node | null {
  const p = n.parentNode;
  if (!p) return null;
  if (p instanceof ShadowRoot) return p.host;
  if (p instanceof Element && (n instanceof Element || n instanceof Text)) {
    const root = isAgentUiRoot(p) ? null : shadowRootOf(p);
    if (root) return slotOf(n, root);
  }
  return p;
}

/**
 * The children of n in the flat tree: a host's shadow root's children, a slot's assigned nodes (its
 * own children when none is assigned: the fallback), else its child nodes. The same object as
 * n.childNodes when the flat tree does not differ there.
 */
export function flatChildren(n: Node): ArrayLike<Node> {
  if (n instanceof Element) {
    if (n instanceof HTMLSlotElement && n.getRootNode() instanceof ShadowRoot) {
      const assigned = n.assignedNodes();
      if (assigned.length > 0) return assigned;
    }
    const root = isAgentUiRoot(n) ? null : shadowRootOf(n);
    if (root) return root.childNodes;
  }
  return n.childNodes;
}

/** snapshot/card-push.ts: the roots it keeps observing (every root it was told of or found). */
let observed: (() => ShadowRoot[]) | null = null;

/** snapshot/card-push.ts registers the roots it observes, so a screenshot need not walk the page for them. */
export function setObservedShadowRoots(roots: () => ShadowRoot[]): void {
  observed = roots;
}

/**
 * The page's shadow roots for a CDP client's screenshot (snapshot/card-boxes.ts): those
 * card-push.ts observes (it walks the page when a change waits for its read), or a walk of the page
 * when it does not run. A walk costs a page of web components tens of milliseconds in an isolated
 * world, too much for every screenshot (bench/results/cdp-card-shadow.md).
 */
export function pageShadowRoots(): ShadowRoot[] {
  return observed ? observed() : shadowRootsIn(document);
}
