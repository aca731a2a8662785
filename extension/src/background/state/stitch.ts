// Stitches a tab's frame tree into one state: each frame's items are spliced in at its iframe's
// place, `index` is numbered across frames (1-based, one sequence for the tab), element ids get
// their frame's prefix, bounds are shifted by the iframe offsets, and the dom_tree's highlight_index
// is numbered as browser_use's buildDomTree.js does.
import type { ActionableElement, DomElementNode, DomNode, FrameInfo, TextItem } from '../../../../schemas/generated/protocol';
import { formatElementId } from '../../shared/element-ref';
import type { FrameElement } from '../../shared/frame-snapshot';
import { leftOutMessage, type LeftOutReason } from './frame-budget';
import type { FrameNode } from './frames';

export interface Stitch {
  elements: ActionableElement[];
  texts: TextItem[];
  frames: FrameInfo[];
  /** frameId -> local ref -> element index (1-based), for the focused element. */
  refIndex: Map<number, Map<string, number>>;
  omitted: number;
  max: number;
  scope: { all: boolean; left: number; top: number; right: number; bottom: number };
  viewport: { width: number; height: number; exp: number };
}

function intersects(b: { x: number; y: number; width: number; height: number }, s: Stitch['scope']): boolean {
  if (s.all) return true;
  return b.x + b.width >= s.left && b.x <= s.right && b.y + b.height >= s.top && b.y <= s.bottom;
}

/**
 * The top frame's elements as last stitched, by the frame element they came from. A frame that
 * crossed as edits (shared/frame-patch.ts) keeps each unchanged element as the very object the
 * worker held, so its stitched element is given again when it gets the same index and parent: the
 * state delta then sees it unchanged by identity (schemas/lib/state-delta.ts) instead of comparing
 * every field of ~4000 elements. Exact: a stitched top-frame element is a function of its frame
 * element, index, parent and offset alone (the scope and viewport checks apply to child frames
 * only), and stitched elements are never written to after (stitch-memo.ts shares them too).
 */
const stitchedTop = new WeakMap<
  FrameElement,
  { el: ActionableElement; index: number; parent: number | undefined; ox: number; oy: number }
>();

/** Appends one frame's items (and its children's, at their iframe's place) to the stitched state. */
export function stitch(node: FrameNode, offset: { x: number; y: number }, parentIndex: number | undefined, st: Stitch): void {
  const { snap, frameId } = node;
  const local = new Map<string, number>();
  st.refIndex.set(frameId, local);
  const posToIndex: (number | undefined)[] = [];
  let ei = 0;
  let ti = 0;
  let fi = 0;
  let count = 0;
  const info: FrameInfo = { frame_id: frameId, parent_frame_id: node.parentFrameId, url: snap.url, status: 'ok', element_count: 0 };
  st.frames.push(info);
  for (const kind of snap.order) {
    if (kind === 'e') {
      const pos = ei++;
      const fe = snap.elements[pos];
      if (!fe) continue;
      const { parent_pos, ...rest } = fe;
      const bounds = fe.bounds ? { ...fe.bounds, x: Math.round(fe.bounds.x + offset.x), y: Math.round(fe.bounds.y + offset.y) } : undefined;
      if (frameId !== 0 && bounds && !intersects(bounds, st.scope)) continue; // inside its frame's viewport, outside the tab's scope
      if (st.elements.length >= st.max) {
        st.omitted++;
        continue;
      }
      const index = st.elements.length + 1;
      const parent = parent_pos !== undefined ? posToIndex[parent_pos] : parentIndex;
      const was = frameId === 0 ? stitchedTop.get(fe) : undefined;
      if (was && was.index === index && was.parent === parent && was.ox === offset.x && was.oy === offset.y) {
        posToIndex[pos] = index;
        local.set(fe.id, index);
        st.elements.push(was.el);
        count++;
        continue;
      }
      const el: ActionableElement = {
        ...rest,
        id: formatElementId(frameId, fe.id),
        index,
        ...(frameId !== 0 ? { frame_id: frameId } : {}),
      };
      if (bounds) {
        el.bounds = bounds;
        if (frameId !== 0) {
          const v = st.viewport;
          const e0 = Math.max(v.exp, 0);
          el.is_in_viewport =
            bounds.x + bounds.width >= -e0 && bounds.x <= v.width + e0 && bounds.y + bounds.height >= -e0 && bounds.y <= v.height + e0;
        }
      }
      if (parent !== undefined) el.parent_index = parent;
      if (frameId === 0) stitchedTop.set(fe, { el, index, parent, ox: offset.x, oy: offset.y });
      posToIndex[pos] = index;
      local.set(fe.id, index);
      st.elements.push(el);
      count++;
    } else if (kind === 't') {
      const t = snap.texts[ti++];
      if (!t) continue;
      st.texts.push({ ...t, after_index: st.elements.length, ...(frameId !== 0 ? { frame_id: frameId } : {}) });
    } else if (kind === 'f') {
      const ph = snap.frames[fi];
      const child = node.children[fi];
      fi++;
      if (!ph) continue;
      if (ph.status !== 'ok' || !child || 'failed' in child) {
        const left = child && 'failed' in child ? child : undefined;
        const failed = left ? left.failed : ph.status;
        const status: FrameInfo['status'] = failed === 'hidden' ? 'hidden' : failed === 'outside_scope' ? 'outside_scope' : 'unreachable';
        const reason: LeftOutReason = left?.reason ?? 'not_identified';
        st.frames.push({
          frame_id: left?.frameId ?? ph.frame_id,
          parent_frame_id: frameId,
          url: left?.url ?? '',
          status,
          element_count: 0,
          ...(status === 'unreachable' ? { reason, waited_ms: left?.waited ?? 0 } : {}),
          message:
            status === 'unreachable'
              ? leftOutMessage(reason, left?.detail)
              : status === 'hidden'
                ? 'The iframe is not rendered.'
                : 'The iframe lies outside the requested scope; scroll to it or pass a larger viewport_expansion.',
        });
        continue;
      }
      const parentIdx = ph.parent_pos !== undefined ? posToIndex[ph.parent_pos] : parentIndex;
      stitch(child, { x: offset.x + ph.offset.x, y: offset.y + ph.offset.y }, parentIdx, st);
    }
  }
  info.element_count = count;
}

/**
 * Splices child frame trees under their iframe (dom_tree, browser_use's tree) and numbers highlight_index
 * as browser_use's buildDomTree.js does: one 0-based counter in document order, an iframe's
 * elements right after the elements before that iframe. Element ids get their frame prefix.
 * `highlights` collects, per frame, the tab-wide index of each local highlight (local order), for
 * the numbered boxes of a screenshot.
 */
export function stitchTree(root: FrameNode, highlights: Map<number, number[]>): DomNode | undefined {
  let counter = 0;
  const one = (node: FrameNode): DomNode | undefined => {
    const tree = node.snap.tree;
    if (!tree) return undefined;
    const local: number[] = [];
    highlights.set(node.frameId, local);
    const walk = (n: DomNode): void => {
      if (n.kind !== 'element') return;
      const e = n as DomElementNode;
      if (e.highlight_index !== undefined && e.element_id !== undefined) {
        local[e.highlight_index] = counter;
        e.highlight_index = counter++;
        e.element_id = formatElementId(node.frameId, e.element_id);
      }
      if (e.frame_id !== undefined) {
        // Iframe nodes carry frame_id = -(k+1) for snap.frames[k] until here.
        const child = node.children[-e.frame_id - 1];
        const sub = child && !('failed' in child) ? one(child) : undefined;
        if (child && sub) {
          e.children = [sub];
          e.frame_id = child.frameId;
        } else delete e.frame_id;
        return;
      }
      for (const c of e.children) walk(c);
    };
    walk(tree);
    for (let i = 0; i < local.length; i++) if (local[i] === undefined) local[i] = -1;
    return tree;
  };
  return one(root);
}

export function countOmitted(n: FrameNode): number {
  return n.snap.elements_omitted + n.children.reduce((a, c) => a + ('failed' in c ? 0 : countOmitted(c)), 0);
}
export function anyTextCut(n: FrameNode): boolean {
  return n.snap.text_cut || n.children.some((c) => !('failed' in c) && anyTextCut(c));
}
