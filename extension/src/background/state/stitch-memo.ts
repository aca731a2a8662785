// The last stitch of a tab, given again when every input it read is the same: an unchanged frame
// comes back from frame-hold.ts with the very element and text arrays it held, so a tab whose
// frames all crossed "same as last" stitches to what it stitched last time. Giving the same
// arrays (not equal copies) lets the delta for get_state `since` see "no change" by identity
// (schemas/lib/state-delta.ts) instead of comparing every element, and skips the stitch itself
// (a few ms for Wikipedia's ~4000 elements).
//
// Why it is exact: stitch() reads only what the signature below lists (per frame: its id and
// parent, url, order, the element and text arrays by identity, the iframe placeholders, the left-out
// children; and the scope, max and viewport), and the held arrays are never written to (stitch
// copies each element it gives).
import type { FrameNode } from './frames';
import type { Stitch } from './stitch';

type Done = Pick<Stitch, 'elements' | 'texts' | 'frames' | 'refIndex' | 'omitted'>;

interface Memo {
  signature: unknown[];
  done: Done;
}

/** Stitches kept at once: a tab's whole-page and viewport states over a few tabs. */
const MAX_MEMOS = 8;
const memos = new Map<string, Memo>();

/** What stitch() reads of the tree and the settings, flattened: arrays by identity, the rest by value. */
function signatureOf(tree: FrameNode, st: Stitch): unknown[] {
  const out: unknown[] = [JSON.stringify([st.max, st.scope, st.viewport])];
  const one = (n: FrameNode): void => {
    const s = n.snap;
    out.push(n.frameId, n.parentFrameId, s.url, s.order, s.elements, s.texts, s.frames.length, n.children.length);
    for (const ph of s.frames) out.push(ph.frame_id, ph.status, ph.offset.x, ph.offset.y, ph.parent_pos);
    for (const c of n.children) {
      if ('failed' in c) out.push(JSON.stringify(c));
      else one(c);
    }
  };
  one(tree);
  return out;
}

const sameSignature = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Stitches `tree` into `st` (empty), or fills it with the tab's last stitch when nothing it read
 * changed. The frames list is copied (collect.ts fills in urls), the element and text arrays are
 * shared with the earlier state.
 */
export function stitchOrReuse(tabId: number, tree: FrameNode, st: Stitch, run: () => void): void {
  const signature = signatureOf(tree, st);
  const key = `${tabId}|${String(signature[0])}`;
  const memo = memos.get(key);
  if (memo && sameSignature(memo.signature, signature)) {
    const d = memo.done;
    st.elements = d.elements;
    st.texts = d.texts;
    st.frames = d.frames.map((f) => ({ ...f }));
    st.refIndex = d.refIndex;
    st.omitted = d.omitted;
    memos.delete(key);
    memos.set(key, memo);
    return;
  }
  run();
  memos.delete(key);
  memos.set(key, {
    signature,
    done: { elements: st.elements, texts: st.texts, frames: st.frames.map((f) => ({ ...f })), refIndex: st.refIndex, omitted: st.omitted },
  });
  while (memos.size > MAX_MEMOS) memos.delete(memos.keys().next().value as string);
}

/** A tab closed: its stitches go. */
export function forgetStitches(tabId: number): void {
  for (const k of [...memos.keys()]) if (k.startsWith(`${tabId}|`)) memos.delete(k);
}
