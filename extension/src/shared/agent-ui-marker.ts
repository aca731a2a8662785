// The one mark on our own UI in the page: the "Agent is controlling this tab" label
// (content/agent-ui.ts) and browser_use's numbered boxes drawn for a screenshot
// (content/browser-use-tree/highlight.ts). Real browser_use on Playwright has neither in the page,
// so whatever is marked is never listed (snapshot, dom_tree), never a target, never covers an
// element in a hit test, never counts as a sibling in an xpath, and its coming and going is not the
// page settling.

/** The attribute that marks the root of our own UI. */
export const AGENT_UI_ATTR = 'data-browser-agent-ui';
/** Selects the roots of our own UI. */
export const AGENT_UI_SELECTOR = `[${AGENT_UI_ATTR}]`;
/** The attribute's value on the "Agent is controlling this tab" label. */
export const AGENT_UI_OVERLAY = 'overlay';
/** The attribute's value on the container of browser_use's numbered boxes. */
export const AGENT_UI_HIGHLIGHTS = 'highlights';

/** Is el the root of our own UI (the element carrying the mark)? Walks that skip a marked subtree
 * at its root need no more. */
export function isAgentUiRoot(el: Element): boolean {
  return el.hasAttribute(AGENT_UI_ATTR);
}

/** Is el part of our own UI: marked itself or inside a marked element, also across shadow roots?
 * closest() per tree (one native call each) rather than a step per ancestor: the settle watch asks
 * this for every mutation record. */
export function isAgentUi(el: Element): boolean {
  for (let n: Element | null = el; n;) {
    if (n.closest(AGENT_UI_SELECTOR)) return true;
    const root = n.getRootNode();
    n = root instanceof ShadowRoot ? root.host : null;
  }
  return false;
}
