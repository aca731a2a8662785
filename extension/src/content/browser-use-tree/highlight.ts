// browser_use's numbered boxes, drawn for a screenshot only: its system prompt tells a vision model
// that "bounding boxes with labels correspond to element indexes". Drawn like buildDomTree.js 0.1.48
// highlightElement (one 2px box per client rect in the index's colour with a 10% fill, one label
// at the top right of the first rect, inside a fixed full-viewport container with pointer-events
// none), but claimed as our own UI (shared/agent-ui-marker.ts: no snapshot or dom_tree ever lists
// it) and removed right after the capture instead of staying in the person's page until the next state.
import { AGENT_UI_ATTR, AGENT_UI_HIGHLIGHTS, claimAgentUiHost, isAgentUiRoot } from '../../shared/agent-ui-marker';

const COLORS = [
  '#FF0000',
  '#00FF00',
  '#0000FF',
  '#FFA500',
  '#800080',
  '#008080',
  '#FF69B4',
  '#4B0082',
  '#FF4500',
  '#2E8B57',
  '#DC143C',
  '#4682B4',
];

/** This frame's indexed elements of its latest dom_tree, in local highlight order (weakly held). */
let latest: WeakRef<Element>[] = [];
let container: HTMLElement | null = null;

export function rememberHighlights(els: Element[]): void {
  latest = els.map((e) => new WeakRef(e));
}

/** Draws the boxes; indexes[i] is the tab-wide index of the i-th local highlighted element. Returns how many were drawn. */
export function drawHighlights(indexes: number[]): number {
  removeHighlights();
  const root = document.createElement('div');
  claimAgentUiHost(root);
  root.setAttribute(AGENT_UI_ATTR, AGENT_UI_HIGHLIGHTS);
  root.setAttribute('aria-hidden', 'true');
  // The boxes live in a closed shadow root and the container's inline style is !important: page CSS
  // could otherwise hide the boxes or move a label onto another element in the picture the model
  // reads indexes from.
  root.style.cssText =
    'all: initial !important; display: block !important; position: fixed !important; pointer-events: none !important; top: 0 !important; left: 0 !important; width: 100% !important; height: 100% !important; z-index: 2147483640 !important; background-color: transparent !important;';
  const shadow = root.attachShadow({ mode: 'closed' });
  const frag = document.createDocumentFragment();
  let drawn = 0;
  latest.forEach((ref, i) => {
    const el = ref.deref();
    const index = indexes[i];
    if (!el || !el.isConnected || index === undefined) return;
    const rects = el.getClientRects();
    const first = rects[0];
    if (!first) return;
    const color = COLORS[index % COLORS.length] as string;
    for (const r of rects) {
      if (r.width === 0 || r.height === 0) continue;
      const box = document.createElement('div');
      Object.assign(box.style, {
        position: 'fixed',
        border: `2px solid ${color}`,
        backgroundColor: `${color}1A`,
        pointerEvents: 'none',
        boxSizing: 'border-box',
        top: `${r.top}px`,
        left: `${r.left}px`,
        width: `${r.width}px`,
        height: `${r.height}px`,
      });
      frag.appendChild(box);
    }
    const label = document.createElement('div');
    Object.assign(label.style, {
      position: 'fixed',
      background: color,
      color: 'white',
      padding: '1px 4px',
      borderRadius: '4px',
      fontSize: `${Math.min(12, Math.max(8, first.height / 2))}px`,
      fontFamily: 'sans-serif',
      lineHeight: 'normal',
    });
    label.textContent = String(index);
    frag.appendChild(label);
    const lw = 20;
    const lh = 16;
    let top = first.top + 2;
    let left = first.left + first.width - lw - 2;
    if (first.width < lw + 4 || first.height < lh + 4) {
      top = first.top - lh - 2;
      left = first.left + first.width - lw;
      if (left < 0) left = first.left;
    }
    label.style.top = `${Math.max(0, Math.min(top, window.innerHeight - lh))}px`;
    label.style.left = `${Math.max(0, Math.min(left, window.innerWidth - lw))}px`;
    drawn++;
  });
  shadow.appendChild(frag);
  (document.body ?? document.documentElement).appendChild(root);
  container = root;
  return drawn;
}

export function removeHighlights(): void {
  container?.remove();
  container = null;
  // Only containers we drew: a page element carrying the same attribute is the page's own.
  for (const stale of document.querySelectorAll(`[${AGENT_UI_ATTR}="${AGENT_UI_HIGHLIGHTS}"]`)) if (isAgentUiRoot(stale)) stale.remove();
}
