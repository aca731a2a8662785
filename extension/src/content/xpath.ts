// The one xpath rule of the page side, in browser_use's form (buildDomTree.js getXPathTree(el, true)),
// for the snapshot's elements[].xpath (snapshot/walk.ts) and the dom_tree (browser-use-tree/build.ts),
// so both name a node the same way. Segments are joined by "/" and restart at every shadow root and
// iframe document (no leading slash). A segment is the lower-cased tag, with its 1-based position
// among the same-tag element children of its parent: in 0.1.48 whenever another child has the tag,
// in 0.1.40 only from the second of its tag on.
// Our own UI (shared/agent-ui-marker.ts) is no sibling: real browser_use on Playwright has no
// "Agent is controlling this tab" label in the page, and counting it (appended last to <body>)
// turned html/body/div into html/body/div[1] while an agent held the tab. Only hosts we created are
// left out: a page element that carries our attribute counts like any other.
import { isAgentUiRoot } from '../shared/agent-ui-marker';

/** Does el count among its parent's element children for xpath positions? */
export function countsAsSibling(el: Element): boolean {
  return !isAgentUiRoot(el);
}

/** A 0.1.48 segment: tag alone when it is the only child of its tag, else tag[position]. */
export function segment(tag: string, position: number, alone: boolean): string {
  const name = tag.toLowerCase();
  return alone ? name : `${name}[${position}]`;
}

/** el's segment under its parent, counted from the DOM (0.1.40's form when v40). */
export function segmentFromDom(el: Element, v40 = false): string {
  const tag = el.localName;
  if (v40) {
    let i = 0;
    for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === tag && countsAsSibling(s)) i++;
    return i > 0 ? `${tag.toLowerCase()}[${i + 1}]` : tag.toLowerCase();
  }
  const parent = el.parentElement;
  if (!parent) return tag.toLowerCase();
  let position = 0;
  let count = 0;
  for (let c = parent.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.localName !== tag || (c !== el && !countsAsSibling(c))) continue;
    count++;
    if (c === el) position = count;
  }
  return segment(tag, position, count === 1);
}
