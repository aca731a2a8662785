// The one hit test of the page side: what is on top at a viewport point. Used by actionability (is
// the click point on the target?), the snapshot (elements[].is_top_element) and the dom_tree
// (browser_use's is_top_element). The shared rule: elementFromPoint, looking through our own UI
// (shared/agent-ui-marker.ts). Real browser_use on Playwright has no such UI in the page, so an
// element under it is still on top, for the prompt as for a click.
import { AGENT_UI_SELECTOR } from '../../shared/agent-ui-marker';
import { shadowRootOf } from '../shadow-root';

/**
 * The topmost element at a viewport point as root sees it (retargeted into root's tree), looking
 * through our own UI. elementFromPoint first, elementsFromPoint only when our UI is on top:
 * elementsFromPoint lists elements with boxes only, so the text of a display:contents button would
 * hit <body> there, where elementFromPoint answers the button itself.
 * root: the snapshot and the dom_tree pass the tested element's own root (its document or shadow
 * root), so a hit in another shadow tree comes back as its host, as buildDomTree.js tests it;
 * actionability passes the document and goes down with deepElementAt.
 */
export function topElementAt(root: Document | ShadowRoot, x: number, y: number): Element | null {
  const hit = root.elementFromPoint(x, y);
  // closest() is enough: a retargeted hit on our UI is its marked host (our UI is never inside a
  // page's shadow tree), and it is one native call on the snapshot's hot path.
  if (!hit || !hit.closest(AGENT_UI_SELECTOR)) return hit;
  return root.elementsFromPoint(x, y).find((e) => !e.closest(AGENT_UI_SELECTOR)) ?? null;
}

/** The deepest element at a viewport point: topElementAt(document), then down through open and
 * closed shadow roots (a closed root's host would otherwise count as covering its own content). */
export function deepElementAt(x: number, y: number): Element | null {
  let hit = topElementAt(document, x, y);
  for (let root = hit ? shadowRootOf(hit) : null; hit && root; root = shadowRootOf(hit)) {
    const inner = root.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}
