// The one hit test of the page side: what is on top at a viewport point. Used by actionability (is
// the click point on the target?), the snapshot (elements[].is_top_element) and the dom_tree
// (browser_use's is_top_element). The shared rule: elementFromPoint, looking through our own UI
// (shared/agent-ui-marker.ts: hosts we created, never an element that merely carries our attribute).
// Real browser_use on Playwright has no such UI in the page, so an element under it is still on top
// for the prompt. The bar is out of the page's hit testing (pointer-events: none) except while a
// person's pointer is over it; a real click there would land on Stop, and agentUiTakesPointerAt
// asks the bar itself so actionability knows. Whether a hit counts as the action's target
// (hitBelongsTo) is decided here too, so every caller uses one rule.
import { isAgentUi, isAgentUiRoot } from '../../shared/agent-ui-marker';
import { AGENT_BAR_STEP_ASIDE_GLOBAL, AGENT_BAR_STOP_AT_GLOBAL } from '../agent-bar';
import { shadowRootOf } from '../shadow-root';
import { composedParent, retarget } from './dom';

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
  // A retargeted hit on our UI is our host itself (its shadow root is closed), or a node of our tree
  // when root is one of our own shadow roots: isAgentUi covers both with one getRootNode.
  if (!hit || !isAgentUi(hit)) return hit;
  return root.elementsFromPoint(x, y).find((e) => !isAgentUi(e)) ?? null;
}

/** Is our own UI what a real pointer would hit at this viewport point (the bar's Stop button)?
 * The page's elementFromPoint never sees the bar, so the bar answers: it tests Stop as a pointer
 * would find it (content/agent-bar.ts). Without a bar in this frame, a hit on our host counts. */
export function agentUiTakesPointerAt(x: number, y: number): Element | null {
  const stopAt = (globalThis as unknown as Record<string, ((x: number, y: number) => Element | null) | undefined>)[
    AGENT_BAR_STOP_AT_GLOBAL
  ];
  if (stopAt) return stopAt(x, y);
  const hit = document.elementFromPoint(x, y);
  return hit && isAgentUiRoot(hit) ? hit : null;
}

/** Our UI takes the pointer at this point (agentUiTakesPointerAt) and the action has no other
 * point on its target: asks the bar to step aside for the action (content/agent-bar.ts hides it
 * until the action's input has gone in). True when the point is then free of our UI; false leaves
 * the typed error to the caller, never a click that would land on Stop. */
export function agentUiStepsAsideAt(x: number, y: number): boolean {
  if (!agentUiTakesPointerAt(x, y)) return true;
  const stepAside = (globalThis as unknown as Record<string, (() => boolean) | undefined>)[AGENT_BAR_STEP_ASIDE_GLOBAL];
  if (!stepAside?.()) return false;
  return agentUiTakesPointerAt(x, y) === null;
}

/** How far above or below the bar a trusted pointer action's point still makes the bar step
 * aside. Chrome shows its "is debugging this browser" info bar once chrome.debugger attaches, which
 * makes the viewport shorter (measured in Chromium 156, headless, window viewport: 493 -> 437 px,
 * kept after the detach): our bar, anchored to the viewport's bottom, then moves up 56 px between
 * the page side choosing the point and the worker's real click, and could take a click aimed just
 * above it. */
const TRUSTED_NEAR_BAR_PX = 80;

/** Before a trusted pointer action's input (dispatched by the worker after this frame chose the
 * point): the bar steps aside if the point is on it or near enough that it could move under it. */
export function agentBarClearForTrustedPoint(x: number, y: number): void {
  const stepAside = (globalThis as unknown as Record<string, ((near?: object) => boolean) | undefined>)[AGENT_BAR_STEP_ASIDE_GLOBAL];
  stepAside?.({ x, y, margin: TRUSTED_NEAR_BAR_PX });
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

/**
 * Is `ancestor` the hit element or above it in the flat tree (the tree hit testing runs on)? A
 * slotted light-DOM node goes up through its slot into the shadow tree first, so text slotted into
 * a shadow <button> counts as inside that button; it still reaches its light-DOM parent (the host)
 * after the shadow tree, as Playwright's expectHitTarget walks it.
 */
function inFlatTree(ancestor: Element, hit: Element): boolean {
  for (let n: Element | null = hit; n; n = n.assignedSlot ?? composedParent(n)) if (n === ancestor) return true;
  return false;
}

/**
 * Does the element hit at the action point count as hitting el? Playwright's rule (the hit is el
 * retargeted to its button or link, or inside it in the flat tree; so a label or icon inside a
 * button, pointer-events:none or not, is hit through the button), plus el's own <label>s: a click there
 * activates el too, so a label drawn over its checkbox does not block it.
 */
export function hitBelongsTo(el: Element, hit: Element | null): boolean {
  if (!hit) return false;
  if (inFlatTree(retarget(el, 'button-link'), hit)) return true;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of labels) if (inFlatTree(l, hit)) return true;
  return false;
}

/** Where synthetic pointer events go: the hit element when it is the (retargeted) target or inside
 * it, as a real pointer's would go; else el. */
export function eventTargetFor(el: Element, hit: Element | null): Element {
  return hit && inFlatTree(retarget(el, 'button-link'), hit) ? hit : el;
}
