// What is our own UI in the page: the "Agent is controlling this tab" bar (content/agent-ui.ts) and
// browser_use's numbered boxes drawn for a screenshot (content/browser-use-tree/highlight.ts). Real
// browser_use on Playwright has neither in the page, so our UI is never listed (snapshot,
// dom_tree), never a target, never covers an element in a hit test, never counts as a sibling in an
// xpath, and its coming and going is not the page settling.
//
// Ours means: a host element our content scripts created and claimed (claimAgentUiHost), or a node
// inside that host's shadow tree. The claim lives in a WeakSet on the global object of the
// extension's isolated world, which every content script of the frame (content.js, agent-ui.js,
// chrome.scripting functions) shares and the page's own scripts cannot reach. An attribute is no
// proof: the page shares the DOM and can put any attribute on its own elements (a transparent cover
// over "Cancel order" marked as ours would take a trusted click while the click reported success;
// marked content would be hidden from the agent). AGENT_UI_ATTR stays on our hosts for CSS, tests
// and debugging only, and grants nothing.

/** The attribute on our hosts: a label for people and tests, never a proof that an element is ours. */
export const AGENT_UI_ATTR = 'data-browser-agent-ui';
/** Selects elements that carry the label (ours, or a page's imitation: filter with isAgentUiRoot). */
export const AGENT_UI_SELECTOR = `[${AGENT_UI_ATTR}]`;
/** The attribute's value on the "Agent is controlling this tab" bar. */
export const AGENT_UI_OVERLAY = 'overlay';
/** The attribute's value on the container of browser_use's numbered boxes. */
export const AGENT_UI_HIGHLIGHTS = 'highlights';
/** The isolated-world global that holds the hosts we created (shared by content.js, agent-ui.js and
 * the screenshot's chrome.scripting function, which passes this name in). */
export const AGENT_UI_HOSTS_GLOBAL = '__buxAgentUiHosts';

function hosts(): WeakSet<Element> {
  const g = globalThis as unknown as Record<string, WeakSet<Element> | undefined>;
  let set = g[AGENT_UI_HOSTS_GLOBAL];
  if (!set) {
    set = new WeakSet<Element>();
    // Not writable or configurable: a later script of ours cannot swap it by mistake.
    Object.defineProperty(globalThis, AGENT_UI_HOSTS_GLOBAL, { value: set, writable: false, configurable: false, enumerable: false });
  }
  return set;
}

/** Records host (an element this content script just created) as our own UI. */
export function claimAgentUiHost(host: Element): void {
  hosts().add(host);
}

/** Is el the root of our own UI (a host we created)? Walks that skip our subtree at its root need no more. */
export function isAgentUiRoot(el: Element): boolean {
  return hosts().has(el);
}

/** Is el part of our own UI: one of our hosts, or inside one's shadow tree (across nested shadow
 * roots)? One getRootNode per tree, no ancestor walk: the settle watch asks this for every
 * mutation record. A page element moved into our host's light DOM is not ours (and not rendered:
 * our shadow roots have no slot). */
export function isAgentUi(el: Element): boolean {
  const set = hosts();
  for (let n: Element | null = el; n;) {
    if (set.has(n)) return true;
    const root = n.getRootNode();
    n = root instanceof ShadowRoot ? root.host : null;
  }
  return false;
}
