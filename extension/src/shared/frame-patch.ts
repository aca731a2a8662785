// A frame's answer as edits to the answer the worker already holds. Why: after an action the page
// has changed somewhere, so the content script walks again, but most of a large page is as it was;
// Chrome's messaging copies the whole frame each time (~95 ms for Wikipedia's 1.75 MB state,
// bench/results/hops.md), while the elements the walk left unchanged can cross as "positions j..k
// of what you hold". The content script builds the patch (content/snapshot/walk-cache.ts) against
// the kept answer the request names; the worker applies it to its copy of that answer
// (background/state/frame-hold.ts).
//
// Why it gives exactly the new answer: an element crosses as a reference only when it is the same
// DOM element as the held one at that position and every field but is_new, parent_pos, bounds and
// xpath is equal (deep JSON equality); its box is the held box moved by the run's dx/dy (same size),
// its xpath the held one with the run's prefix put in place of the held prefix; is_new
// crosses as positions (as "same as last" does), and parent_pos is the held element's parent
// position carried to where that parent now sits, checked on the content script's side to give the
// new answer's own parent_pos (else the element crosses whole).
// Texts have no identity: the unchanged head and tail of the list cross as references.
import { sameJson } from '../../../schemas/lib/state-delta';
import type { FrameElement, FrameSnapshot, FrameText } from './frame-snapshot';

/**
 * In order: a run of the held answer's items (positions from .. from+n-1), their boxes moved by
 * dx/dy when given (what a change above them does to the rest of the page), or items sent whole.
 */
export type PatchPiece<T> = { from: number; n: number; dx?: number; dy?: number; xpath?: XpathRewrite } | { items: T[] };

/**
 * A run's xpaths with one prefix put in place of another: an element inserted before a parent's
 * child renumbers that child (`li[5]` to `li[6]`) and so every xpath under it.
 */
export type XpathRewrite = [held: string, now: string];

export interface FramePatch {
  /** The kept_id of the held answer these edits apply to. */
  base: string;
  /** The new answer with `elements` and `texts` empty: they come as pieces. */
  frame: FrameSnapshot;
  elements: PatchPiece<FrameElement>[];
  texts: PatchPiece<FrameText>[];
  /** Positions in the new answer's elements marked is_new (the referenced ones take theirs from here). */
  is_new: number[];
}

/** Past this share of elements sent whole, the patch saves too little to be worth the two passes: the whole frame goes. */
const MOST_CHANGED = 0.75;

/**
 * The edits from `base` (the held answer, its listed elements in `baseKeys`, same order) to `next`
 * (the new answer, `nextKeys`), or null when most of it changed anyway. Keys are the DOM elements:
 * identity says "the same element".
 */
export function makePatch(
  baseId: string,
  base: FrameSnapshot,
  baseKeys: readonly unknown[],
  next: FrameSnapshot,
  nextKeys: readonly unknown[],
): FramePatch | null {
  const be = base.elements;
  const ne = next.elements;
  if (baseKeys.length !== be.length || nextKeys.length !== ne.length) return null;
  const basePos = new Map<unknown, number>();
  baseKeys.forEach((k, j) => basePos.set(k, j));
  // src[i]: the held position new element i is taken from, or -1 (sent whole); dx/dy: its box's move.
  const src = new Int32Array(ne.length).fill(-1);
  const dxs = new Float64Array(ne.length);
  const dys = new Float64Array(ne.length);
  const rewrites: (XpathRewrite | null)[] = new Array<XpathRewrite | null>(ne.length).fill(null);
  // nowAt[j]: where held element j now sits when it is referenced, else -1.
  const nowAt = new Int32Array(be.length).fill(-1);
  let whole = 0;
  for (let i = 0; i < ne.length; i++) {
    const j = basePos.get(nextKeys[i]);
    const a = ne[i] as FrameElement;
    const b = j === undefined ? undefined : be[j];
    const move = b && sameBut(a, b) ? moveOf(b.bounds, a.bounds) : null;
    const rewrite = b && move ? rewriteOf(b.xpath, a.xpath) : undefined;
    if (j !== undefined && b && move && rewrite !== undefined && parentCarries(b.parent_pos, a.parent_pos, nowAt)) {
      src[i] = j;
      dxs[i] = move[0];
      dys[i] = move[1];
      rewrites[i] = rewrite;
      nowAt[j] = i;
    } else whole++;
  }
  if (whole > ne.length * MOST_CHANGED) return null;
  const elements: PatchPiece<FrameElement>[] = [];
  for (let i = 0; i < ne.length;) {
    const j = src[i] as number;
    if (j < 0) {
      const items: FrameElement[] = [];
      while (i < ne.length && (src[i] as number) < 0) items.push(ne[i++] as FrameElement);
      elements.push({ items });
    } else {
      const dx = dxs[i] as number;
      const dy = dys[i] as number;
      const xpath = rewrites[i] ?? null;
      let n = 0;
      while (i < ne.length && src[i] === j + n && dxs[i] === dx && dys[i] === dy && sameRewrite(rewrites[i] ?? null, xpath)) {
        i++;
        n++;
      }
      elements.push({ from: j, n, ...(dx !== 0 ? { dx } : {}), ...(dy !== 0 ? { dy } : {}), ...(xpath ? { xpath } : {}) });
    }
  }
  const isNew: number[] = [];
  for (let i = 0; i < ne.length; i++) if (ne[i]?.is_new === true) isNew.push(i);
  return { base: baseId, frame: { ...next, elements: [], texts: [] }, elements, texts: textPieces(base.texts, next.texts), is_new: isNew };
}

/**
 * Every field of a listed element, each compared below by name: the content script's elements
 * come in many shapes (optional fields), and a generic key-by-key walk over ~4000 of them cost
 * 10-30 ms per state in the page. A field the protocol adds later fails to compile here until it
 * is compared too (the check below the list).
 */
type Compared =
  | 'id'
  | 'type'
  | 'tag'
  | 'role'
  | 'name'
  | 'text_content'
  | 'current_value'
  | 'attributes'
  | 'is_visible'
  | 'available_operations'
  | 'states'
  | 'is_in_viewport'
  | 'is_top_element'
  | 'bounds'
  | 'xpath'
  | 'in_shadow_root'
  | 'is_new'
  | 'redacted'
  | 'parent_pos';
type Unlisted = Exclude<keyof FrameElement, Compared>;
const everyFieldListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyFieldListed;

/** Equal in every field but is_new and parent_pos (crossing on their own), bounds and xpath (moved and renumbered by a run). */
function sameBut(a: FrameElement, b: FrameElement): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.type === b.type &&
    a.tag === b.tag &&
    a.role === b.role &&
    a.text_content === b.text_content &&
    a.current_value === b.current_value &&
    a.is_visible === b.is_visible &&
    a.is_in_viewport === b.is_in_viewport &&
    a.is_top_element === b.is_top_element &&
    a.in_shadow_root === b.in_shadow_root &&
    sameStrings(a.available_operations, b.available_operations) &&
    flatSame(a.attributes, b.attributes) &&
    sameJson(a.states, b.states) &&
    sameJson(a.redacted, b.redacted)
  );
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Two objects of string values (an element's attributes). */
function flatSame(a: Record<string, string | undefined>, b: Record<string, string | undefined>): boolean {
  if (a === b) return true;
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}

type Box = FrameElement['bounds'];

/** How the held box moved to the new one (same size, moved or not), or null (resized, or one has no box). */
function moveOf(held: Box, now: Box): [number, number] | null {
  if (held === undefined || now === undefined) return held === now ? [0, 0] : null;
  if (held.width !== now.width || held.height !== now.height) return null;
  const A = held as unknown as Record<string, unknown>;
  const B = now as unknown as Record<string, unknown>;
  // Nothing but the four numbers (a field added to bounds one day must not be dropped by a move).
  for (const k in A) if (k !== 'x' && k !== 'y' && k !== 'width' && k !== 'height') return null;
  for (const k in B) if (k !== 'x' && k !== 'y' && k !== 'width' && k !== 'height') return null;
  return [now.x - held.x, now.y - held.y];
}

/**
 * How the held xpath became the new one: null when equal, else the two prefixes left once their
 * common end is cut (`…/li[5` and `…/li[6` for `…/li[5]/a` and `…/li[6]/a`), so the elements under
 * one renumbered child share it; undefined when one has an xpath and the other none.
 */
function rewriteOf(held: string | undefined, now: string | undefined): XpathRewrite | null | undefined {
  if (held === now) return null;
  if (held === undefined || now === undefined) return undefined;
  let end = 0;
  while (end < held.length && end < now.length && held[held.length - 1 - end] === now[now.length - 1 - end]) end++;
  return [held.slice(0, held.length - end), now.slice(0, now.length - end)];
}

const sameRewrite = (a: XpathRewrite | null, b: XpathRewrite | null) =>
  a === b || (a !== null && b !== null && a[0] === b[0] && a[1] === b[1]);

/** The held element's parent, carried to where it now sits, is the new element's parent (both absent counts). */
function parentCarries(held: number | undefined, now: number | undefined, nowAt: Int32Array): boolean {
  if (held === undefined || now === undefined) return held === now;
  return nowAt[held] === now;
}

type UnlistedText = Exclude<keyof FrameText, 'text' | 'role' | 'level' | 'redacted'>;
const everyTextFieldListed: [UnlistedText] extends [never] ? true : UnlistedText = true;
void everyTextFieldListed;

const sameText = (a: FrameText, b: FrameText) => a.text === b.text && a.role === b.role && a.level === b.level && a.redacted === b.redacted;

/** The unchanged head and tail of the text list as references, the middle whole. */
function textPieces(a: readonly FrameText[], b: readonly FrameText[]): PatchPiece<FrameText>[] {
  let head = 0;
  while (head < a.length && head < b.length && sameText(a[head] as FrameText, b[head] as FrameText)) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    sameText(a[a.length - 1 - tail] as FrameText, b[b.length - 1 - tail] as FrameText)
  )
    tail++;
  const out: PatchPiece<FrameText>[] = [];
  if (head > 0) out.push({ from: 0, n: head });
  if (b.length - head - tail > 0) out.push({ items: b.slice(head, b.length - tail) });
  if (tail > 0) out.push({ from: a.length - tail, n: tail });
  return out;
}

/**
 * The whole new answer from the held one and the patch, or null when the patch does not fit what is
 * held (then the worker asks for the whole frame). A referenced element whose is_new and parent_pos
 * are as held is the held object itself: an unchanged element stays the same object, so later steps
 * that compare by identity (the stitch memo, the state delta) see it unchanged at no cost.
 */
export function applyPatch(base: FrameSnapshot, patch: FramePatch): FrameSnapshot | null {
  const be = base.elements;
  const elements: FrameElement[] = [];
  const src: number[] = [];
  const nowAt = new Int32Array(be.length).fill(-1);
  for (const p of patch.elements) {
    if ('items' in p) {
      for (const e of p.items) {
        elements.push(e);
        src.push(-1);
      }
      continue;
    }
    if (p.from < 0 || p.n < 1 || p.from + p.n > be.length) return null;
    const dx = p.dx ?? 0;
    const dy = p.dy ?? 0;
    for (let j = p.from; j < p.from + p.n; j++) {
      nowAt[j] = elements.length;
      src.push(j);
      let e = be[j] as FrameElement;
      if (dx !== 0 || dy !== 0) {
        if (!e.bounds) return null;
        e = { ...e, bounds: { ...e.bounds, x: e.bounds.x + dx, y: e.bounds.y + dy } };
      }
      if (p.xpath) {
        const [held, now] = p.xpath;
        if (e.xpath === undefined || !e.xpath.startsWith(held)) return null;
        e = { ...e, xpath: now + e.xpath.slice(held.length) };
      }
      elements.push(e);
    }
  }
  const marked = new Set(patch.is_new);
  for (let i = 0; i < elements.length; i++) {
    const j = src[i] as number;
    if (j < 0) continue;
    const e = elements[i] as FrameElement;
    let parent: number | undefined;
    if (e.parent_pos !== undefined) {
      parent = nowAt[e.parent_pos];
      if (parent === undefined || parent < 0) return null;
    }
    // Copied only where something differs, keeping the fields' order (as frame-hold.ts does for is_new).
    let out = e;
    if (parent !== e.parent_pos) out = { ...out, parent_pos: parent };
    const isNew = marked.has(i);
    if ((out.is_new === true) !== isNew) {
      if (isNew) out = { ...out, is_new: true };
      else {
        const { is_new: _, ...rest } = out;
        out = rest;
      }
    }
    elements[i] = out;
  }
  const texts: FrameText[] = [];
  for (const p of patch.texts) {
    if ('items' in p) texts.push(...p.items);
    else {
      if (p.from < 0 || p.n < 1 || p.from + p.n > base.texts.length) return null;
      for (let j = p.from; j < p.from + p.n; j++) texts.push(base.texts[j] as FrameText);
    }
  }
  return { ...patch.frame, elements, texts };
}
