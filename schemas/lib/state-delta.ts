// State deltas (seed 004 section 5 "partial updates"): what changed between two
// simplified_states of one tab, and how to get the new state back from the old one. Pure functions
// shared by the extension (computes) and the clients (apply); the Python twin is
// python-shim-spec/browser_use_ext/state_delta.py and must follow the same rules.
//
// Exactness is the contract: applyStateDelta(prev, diffStates(prev, next, id).delta) deep-equals
// `next` (with next.state_id = id). What makes deltas small:
//   - elements are keyed by their stable ref id; index / parent_index are renumbered on apply from
//     document order (an inserted element does not resend everything after it);
//   - a changed element sends only its changed fields; one whose only change is its box moving
//     (a list above it grew) goes by id in a group with its offset;
//   - text_context is a list of splices; kept items follow the same element (by id) as before;
//   - dom_tree (the Python shim's browser_use tree) is patched by child splices at node paths, and
//     highlight_index renumbered in document order.
// When the states break an invariant those rules rely on (duplicate ids, index not 1..n in order),
// diffStates says so and the caller sends a full state instead: never a wrong delta.
import type { ActionableElement, DomNode, SimplifiedState, StateDelta, TextItem } from '../generated/protocol';

type Facts = NonNullable<StateDelta['facts']>;
type FactName = keyof Facts;
type RemovableFact = NonNullable<StateDelta['facts_removed']>[number];
type DomOp = NonNullable<StateDelta['dom_tree_ops']>[number];
type Patched = NonNullable<StateDelta['elements_patched']>[number];
type Shifted = NonNullable<StateDelta['elements_shifted']>[number];
type Splice = NonNullable<StateDelta['text_splices']>[number];

/** Facts compared as whole values (text_context and dom_tree have their own edits). */
const PLAIN_FACTS = [
  'url',
  'title',
  'tab_id',
  'active_element_id',
  'scroll_position',
  'viewport_dimensions',
  'page_size',
  'pixels_above',
  'pixels_below',
  'viewport_expansion',
  'focused_element',
  'frames',
  'truncation',
  'timings_ms',
] as const satisfies readonly FactName[];

export type DiffOutcome = { ok: true; delta: StateDelta } | { ok: false; reason: 'not_representable'; message: string };

/** A delta that does not fit the state it is applied to (wrong base, corrupted): take a full state. */
export class StateDeltaError extends Error {
  override name = 'StateDeltaError';
}

const json = (v: unknown) => JSON.stringify(v);

/** Deep equality of JSON values (key order ignored), without building strings: most elements are unchanged. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const A = a as Record<string, unknown>;
  const B = b as Record<string, unknown>;
  let n = 0;
  for (const k in A) {
    if (!(k in B) || !same(A[k], B[k])) return false;
    n++;
  }
  for (const _k in B) n--;
  return n === 0;
}

/** Also the content script's and the worker's, for a frame's answer sent as edits (extension/src/shared/frame-patch.ts). */
export { same as sameJson };

/** Same element apart from index, and parent_index naming the same parent by id. */
function sameElement(
  a: ActionableElement,
  b: ActionableElement,
  pe: readonly ActionableElement[],
  ne: readonly ActionableElement[],
): boolean {
  // The very object (the extension gives unchanged elements again: background/state/stitch.ts): only
  // what its parent_index names can differ, as the lists around it may have moved.
  if (a === b) return a.parent_index === undefined || idAt(pe, a.parent_index) === idAt(ne, b.parent_index);
  const A = a as unknown as Record<string, unknown>;
  const B = b as unknown as Record<string, unknown>;
  let n = 0;
  for (const k in A) {
    if (k === 'index') continue;
    if (!(k in B)) return false;
    if (k === 'parent_index' ? idAt(pe, a.parent_index) !== idAt(ne, b.parent_index) : !same(A[k], B[k])) return false;
    n++;
  }
  for (const k in B) if (k !== 'index') n--;
  return n === 0;
}

// ---------------------------------------------------------------------------------------------
// Sequence diff (Myers' O((N+M)D) algorithm, E. Myers 1986) over string keys: returns the
// unmatched regions [a0,a1) x [b0,b1) in order. Past MAX_D edits the middle goes as one region
// (still exact, only larger).
const MAX_D = 1000;

export interface Region {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

export function diffSequences(a: readonly string[], b: readonly string[]): Region[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0) return [{ a0: pre, a1: pre + n, b0: pre, b1: pre + m }];
  const matches = myersMatches(a, b, pre, n, m);
  if (!matches) return [{ a0: pre, a1: pre + n, b0: pre, b1: pre + m }];
  const regions: Region[] = [];
  let x = 0;
  let y = 0;
  for (const [mx, my] of matches) {
    if (mx > x || my > y) regions.push({ a0: pre + x, a1: pre + mx, b0: pre + y, b1: pre + my });
    x = mx + 1;
    y = my + 1;
  }
  if (x < n || y < m) regions.push({ a0: pre + x, a1: pre + n, b0: pre + y, b1: pre + m });
  return regions;
}

/** Matched pairs (relative to off) in increasing order, or null past MAX_D. */
function myersMatches(a: readonly string[], b: readonly string[], off: number, n: number, m: number): [number, number][] | null {
  const max = Math.min(n + m, MAX_D);
  const size = 2 * max + 3;
  const mid = max + 1;
  const v = new Int32Array(size);
  v[mid + 1] = 0;
  const trace: Int32Array[] = [];
  let found = -1;
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice(mid - d - 1, mid + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[mid + k - 1] ?? 0) < (v[mid + k + 1] ?? 0)) ? (v[mid + k + 1] ?? 0) : (v[mid + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[off + x] === b[off + y]) {
        x++;
        y++;
      }
      v[mid + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break outer;
      }
    }
  }
  if (found < 0) return null;
  const out: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const t = trace[d] as Int32Array;
    const at = (k: number) => t[k + d + 1] ?? 0;
    const k = x - y;
    let px: number;
    let py: number;
    if (d === 0) {
      px = 0;
      py = 0;
    } else {
      const pk = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
      px = at(pk);
      py = px - pk;
    }
    while (x > px && y > py) {
      x--;
      y--;
      out.push([x, y]);
    }
    x = px;
    y = py;
  }
  return out.reverse();
}

// ---------------------------------------------------------------------------------------------
// Invariants the renumbering relies on.

function checkElements(s: SimplifiedState, which: string): string | null {
  const els = s.actionable_elements;
  const seen = new Set<string>();
  for (let i = 0; i < els.length; i++) {
    const e = els[i] as ActionableElement;
    if (e.index !== i + 1) return `${which}: element ${e.id} has index ${String(e.index)} at position ${i + 1}`;
    if (seen.has(e.id)) return `${which}: element id ${e.id} appears twice`;
    seen.add(e.id);
    if (e.parent_index !== undefined && (e.parent_index < 1 || e.parent_index > els.length))
      return `${which}: element ${e.id} has parent_index ${e.parent_index} outside 1..${els.length}`;
  }
  for (const t of s.text_context ?? [])
    if (t.after_index > els.length) return `${which}: a text item follows index ${t.after_index} of ${els.length}`;
  return null;
}

const idAt = (els: readonly ActionableElement[], index: number | undefined): string | null =>
  index === undefined || index === 0 ? null : (els[index - 1]?.id ?? null);

function textKey(t: TextItem, els: readonly ActionableElement[]): string {
  const { after_index, ...rest } = t;
  return json([idAt(els, after_index), rest]);
}

// ---------------------------------------------------------------------------------------------
// dom_tree: node keys interned bottom-up (no hashing: equal keys mean equal subtrees, with
// highlight_index reduced to its presence).

class Interner {
  private readonly ids = new Map<string, number>();
  readonly keyOf = new Map<DomNode, number>();
  key(node: DomNode): number {
    const known = this.keyOf.get(node);
    if (known !== undefined) return known;
    let s = ownKey(node);
    if (node.kind === 'element') s += `|${node.children.map((c) => this.key(c)).join(',')}`;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(s, id);
    }
    this.keyOf.set(node, id);
    return id;
  }
}

function ownKey(node: DomNode): string {
  if (node.kind !== 'element') return json(node);
  const { children: _c, highlight_index, ...rest } = node;
  return json([highlight_index !== undefined, rest]);
}

/** highlight_index is 0, 1, 2, ... in document (pre-)order, as buildDomTree.js and background/state/stitch.ts number it. */
function highlightsInOrder(root: DomNode): boolean {
  let next = 0;
  let ok = true;
  const walk = (n: DomNode): void => {
    if (!ok || n.kind !== 'element') return;
    if (n.highlight_index !== undefined) {
      if (n.highlight_index !== next) ok = false;
      next++;
    }
    for (const c of n.children) walk(c);
  };
  walk(root);
  return ok;
}

function diffTree(a: DomNode, b: DomNode, path: number[], ops: DomOp[], interner: Interner): void {
  if (a.kind !== 'element' || b.kind !== 'element') throw new Error('diffTree pairs elements only');
  if (ownKey(a) !== ownKey(b)) ops.push({ path, node: { ...b, children: [] } });
  const ka = a.children.map((c) => String(interner.key(c)));
  const kb = b.children.map((c) => String(interner.key(c)));
  const splices: DomOp[] = [];
  for (const r of diffSequences(ka, kb)) {
    if (r.a1 - r.a0 === r.b1 - r.b0) {
      for (let i = 0; i < r.a1 - r.a0; i++) {
        const ca = a.children[r.a0 + i] as DomNode;
        const cb = b.children[r.b0 + i] as DomNode;
        if (ca.kind === 'element' && cb.kind === 'element' && ca.tag === cb.tag) diffTree(ca, cb, [...path, r.a0 + i], ops, interner);
        else splices.push({ path, at: r.a0 + i, remove: 1, insert: [cb] });
      }
    } else splices.push({ path, at: r.a0, remove: r.a1 - r.a0, insert: b.children.slice(r.b0, r.b1) });
  }
  // This array's splices after every edit below it, last position first: earlier paths stay valid.
  for (let i = splices.length - 1; i >= 0; i--) ops.push(splices[i] as DomOp);
}

/** Equal patches of several elements go once, with `also` listing the other ids (is_new markers going away, flags flipping). */
function groupPatches(patches: Patched[]): Patched[] {
  const groups = new Map<string, Patched>();
  const out: Patched[] = [];
  for (const p of patches) {
    const { id, ...rest } = p;
    const key = json(rest);
    const g = groups.get(key);
    if (g) (g.also ??= [] as unknown as NonNullable<Patched['also']>).push(id);
    else {
      const first: Patched = { ...p };
      groups.set(key, first);
      out.push(first);
    }
  }
  return out;
}

/** The fields of `b` that differ from `a` (parent by id: a renumbered parent is no change), and those it lost. */
function patchOf(a: ActionableElement, b: ActionableElement, pe: readonly ActionableElement[], ne: readonly ActionableElement[]): Patched {
  const A = a as unknown as Record<string, unknown>;
  const B = b as unknown as Record<string, unknown>;
  const p: Record<string, unknown> = { id: b.id };
  const unset: string[] = [];
  for (const k of Object.keys(B)) {
    if (k === 'id' || k === 'index') continue;
    if (k === 'parent_index') {
      if (a.parent_index === undefined || idAt(pe, a.parent_index) !== idAt(ne, b.parent_index)) p[k] = B[k];
    } else if (!(k in A) || !same(A[k], B[k])) p[k] = B[k];
  }
  for (const k of Object.keys(A)) if (k !== 'index' && !(k in B)) unset.push(k);
  if (unset.length) p['unset'] = unset;
  return p as unknown as Patched;
}

// ---------------------------------------------------------------------------------------------

/**
 * What turns `prev` into `next`. `nextId` becomes the delta's state_id (state_id and
 * delta_unavailable of the states themselves are bookkeeping, not compared).
 */
export function diffStates(prev: SimplifiedState, next: SimplifiedState, baseId: string, nextId: string): DiffOutcome {
  // The same array (background/state/stitch-memo.ts: every frame came "same as last") is checked once.
  const bad =
    checkElements(prev, 'base state') ?? (next.actionable_elements === prev.actionable_elements ? null : checkElements(next, 'new state'));
  if (bad) return { ok: false, reason: 'not_representable', message: bad };
  const delta: StateDelta = { base_state_id: baseId, state_id: nextId };
  const facts: Facts = {};
  const removed: RemovableFact[] = [];
  const P = prev as unknown as Record<string, unknown>;
  const N = next as unknown as Record<string, unknown>;
  for (const f of PLAIN_FACTS) {
    if (!(f in N)) {
      if (f in P) {
        if (f === 'url' || f === 'title') throw new Error('unreachable: required facts');
        removed.push(f);
      }
    } else if (!(f in P) || !same(P[f], N[f])) (facts as Record<string, unknown>)[f] = N[f];
  }

  // Elements. The same array is no change (stitch-memo.ts gives it again for unchanged frames).
  const pe = prev.actionable_elements;
  const ne = next.actionable_elements;
  const regions =
    pe === ne
      ? []
      : diffSequences(
          pe.map((e) => e.id),
          ne.map((e) => e.id),
        );
  const removedIds: string[] = [];
  const added: NonNullable<StateDelta['elements_added']> = [];
  const unmatchedA = new Set<number>();
  for (const r of regions) {
    for (let i = r.a0; i < r.a1; i++) {
      removedIds.push((pe[i] as ActionableElement).id);
      unmatchedA.add(i);
    }
    for (let j = r.b0; j < r.b1; j++)
      added.push({ after: j === 0 ? null : (ne[j - 1] as ActionableElement).id, element: ne[j] as ActionableElement });
  }
  const patched: Patched[] = [];
  const shifts = new Map<string, Shifted>();
  const nextPos = pe === ne ? new Map<string, number>() : new Map(ne.map((e, i) => [e.id, i]));
  for (let i = 0; pe !== ne && i < pe.length; i++) {
    if (unmatchedA.has(i)) continue;
    const a = pe[i] as ActionableElement;
    const b = ne[nextPos.get(a.id) as number] as ActionableElement;
    if (sameElement(a, b, pe, ne)) continue;
    const p = patchOf(a, b, pe, ne);
    const keys = Object.keys(p);
    const ab = a.bounds;
    const bb = b.bounds;
    if (keys.length === 2 && p.bounds && ab && bb) {
      const dx = bb.x - ab.x;
      const dy = bb.y - ab.y;
      // A translation only when adding the offset gives the new numbers exactly (floats).
      if (ab.width === bb.width && ab.height === bb.height && ab.x + dx === bb.x && ab.y + dy === bb.y) {
        const k = `${dx},${dy}`;
        const g = shifts.get(k) ?? { dx, dy, ids: [] };
        g.ids.push(b.id);
        shifts.set(k, g);
        continue;
      }
    }
    patched.push(p);
  }
  if (removedIds.length) delta.elements_removed = removedIds;
  if (added.length) delta.elements_added = added;
  if (patched.length) delta.elements_patched = groupPatches(patched);
  if (shifts.size) delta.elements_shifted = [...shifts.values()];

  // Text.
  if (next.text_context) {
    if (!prev.text_context) facts.text_context = next.text_context;
    else if (prev.text_context !== next.text_context || pe !== ne) {
      const ta = prev.text_context;
      const tb = next.text_context;
      const splices: Splice[] = diffSequences(
        ta.map((t) => textKey(t, pe)),
        tb.map((t) => textKey(t, ne)),
      ).map((r) => ({ at: r.a0, remove: r.a1 - r.a0, insert: tb.slice(r.b0, r.b1) }));
      if (splices.length) delta.text_splices = splices;
    }
  } else if (prev.text_context) removed.push('text_context');

  // dom_tree.
  if (next.dom_tree) {
    if (
      !prev.dom_tree ||
      prev.dom_tree.kind !== 'element' ||
      next.dom_tree.kind !== 'element' ||
      prev.dom_tree.tag !== next.dom_tree.tag ||
      !highlightsInOrder(next.dom_tree)
    ) {
      if (!prev.dom_tree || !same(prev.dom_tree, next.dom_tree)) facts.dom_tree = next.dom_tree;
    } else {
      const ops: DomOp[] = [];
      diffTree(prev.dom_tree, next.dom_tree, [], ops, new Interner());
      if (ops.length) delta.dom_tree_ops = ops;
      else if (!highlightsInOrder(prev.dom_tree)) facts.dom_tree = next.dom_tree; // same shape, other numbers
    }
  } else if (prev.dom_tree) removed.push('dom_tree');

  if (Object.keys(facts).length) delta.facts = facts;
  if (removed.length) delta.facts_removed = removed;
  return { ok: true, delta };
}

// ---------------------------------------------------------------------------------------------

/** The state `delta` describes, from `prev` (not modified). Throws StateDeltaError when they do not fit. */
export function applyStateDelta(prev: SimplifiedState, delta: StateDelta): SimplifiedState {
  if (prev.state_id !== undefined && prev.state_id !== delta.base_state_id)
    throw new StateDeltaError(
      `The delta applies to state ${delta.base_state_id}, not to ${prev.state_id}: take a full state (get_state without since).`,
    );
  const { state_id: _s, delta_unavailable: _d, ...rest } = prev;
  const out: SimplifiedState = { ...rest, state_id: delta.state_id };
  const O = out as unknown as Record<string, unknown>;
  for (const f of delta.facts_removed ?? []) delete O[f];
  for (const [k, v] of Object.entries(delta.facts ?? {})) O[k] = v;

  // No element and no text edit on a well-formed list (the usual answer on an unchanged page):
  // what the renumbering below would give is the same elements and texts, so they are shared as
  // they are instead of copied one by one.
  if (keepsElements(prev, delta)) return out;

  // Elements: drop removed, weave added after their anchors, replace changed, renumber.
  const pe = prev.actionable_elements;
  const removed = new Set(delta.elements_removed ?? []);
  const follower = new Map<string | null, ActionableElement>();
  for (const a of delta.elements_added ?? []) {
    if (follower.has(a.after))
      throw new StateDeltaError(`Two elements added after ${String(a.after)}: the delta is corrupt; take a full state.`);
    follower.set(a.after, a.element);
  }
  const patches = new Map<string, Patched>();
  for (const m of delta.elements_patched ?? []) {
    const { also, ...one } = m;
    for (const id of [m.id, ...(also ?? [])]) patches.set(id, { ...one, id });
  }
  const shiftOf = new Map<string, Shifted>();
  for (const g of delta.elements_shifted ?? []) for (const id of g.ids) shiftOf.set(id, g);
  const fresh = new Set<ActionableElement>();
  const order: ActionableElement[] = [];
  const emit = (e: ActionableElement, isFresh: boolean) => {
    order.push(e);
    if (isFresh) fresh.add(e);
    let f = follower.get(e.id);
    while (f) {
      order.push(f);
      fresh.add(f);
      f = follower.get(f.id);
    }
  };
  let head = follower.get(null);
  while (head) {
    order.push(head);
    fresh.add(head);
    head = follower.get(head.id);
  }
  const prevIds = new Set<string>();
  for (const e of pe) {
    prevIds.add(e.id);
    if (removed.has(e.id)) continue;
    emit(e, false);
  }
  for (const id of removed)
    if (!prevIds.has(id)) throw new StateDeltaError(`The delta removes element ${id}, which the state does not list: take a full state.`);
  if (order.length !== pe.length - removed.size + follower.size)
    throw new StateDeltaError('Added elements follow elements the state does not list: the delta is corrupt; take a full state.');
  const newIndex = new Map(order.map((e, i) => [e.id, i + 1]));
  const els: ActionableElement[] = order.map((e, i) => {
    if (fresh.has(e)) return e;
    const p = patches.get(e.id);
    const g = shiftOf.get(e.id);
    if (!p && !g && e.index === i + 1 && e.parent_index === undefined) return e; // unchanged and in place: shared, not copied
    const c: ActionableElement = { ...e, index: i + 1 };
    if (e.parent_index !== undefined && p?.parent_index === undefined && !p?.unset?.includes('parent_index')) {
      const pid = idAt(pe, e.parent_index);
      const ni = pid === null ? undefined : newIndex.get(pid);
      if (ni === undefined)
        throw new StateDeltaError(`Element ${e.id}'s parent is gone but the delta does not change it: take a full state.`);
      c.parent_index = ni;
    }
    if (p) {
      const C = c as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(p)) if (k !== 'id' && k !== 'unset') C[k] = v;
      for (const k of p.unset ?? []) delete C[k];
    }
    if (g) {
      if (!c.bounds) throw new StateDeltaError(`The delta shifts element ${e.id}, which has no bounds: take a full state.`);
      c.bounds = { ...c.bounds, x: c.bounds.x + g.dx, y: c.bounds.y + g.dy };
    }
    return c;
  });
  for (const id of [...patches.keys(), ...shiftOf.keys()])
    if (!newIndex.has(id) || removed.has(id))
      throw new StateDeltaError(`The delta changes element ${id}, which the state does not list: take a full state.`);
  out.actionable_elements = els;

  // Text.
  if (delta.text_splices && !delta.facts?.text_context) {
    const ta = prev.text_context;
    if (!ta) throw new StateDeltaError('The delta edits text_context, which the state does not have: take a full state.');
    const renumber = (t: TextItem): TextItem => {
      const id = idAt(pe, t.after_index);
      const ni = id === null ? 0 : newIndex.get(id);
      if (ni === undefined)
        throw new StateDeltaError('A kept text follows an element that is gone: the delta is corrupt; take a full state.');
      return ni === t.after_index ? t : { ...t, after_index: ni };
    };
    const texts: TextItem[] = [];
    let pos = 0;
    for (const s of delta.text_splices) {
      if (s.at < pos || s.at + s.remove > ta.length) throw new StateDeltaError('text_splices do not fit the state: take a full state.');
      for (; pos < s.at; pos++) texts.push(renumber(ta[pos] as TextItem));
      texts.push(...s.insert);
      pos = s.at + s.remove;
    }
    for (; pos < ta.length; pos++) texts.push(renumber(ta[pos] as TextItem));
    out.text_context = texts;
  } else if (out.text_context && !delta.facts?.text_context) {
    out.text_context = out.text_context.map((t) => {
      const id = idAt(pe, t.after_index);
      const ni = id === null ? 0 : newIndex.get(id);
      if (ni === undefined)
        throw new StateDeltaError('A kept text follows an element that is gone: the delta is corrupt; take a full state.');
      return ni === t.after_index ? t : { ...t, after_index: ni };
    });
  }

  // dom_tree.
  if (delta.dom_tree_ops?.length) {
    if (!prev.dom_tree)
      throw new StateDeltaError('The delta edits dom_tree, which the state does not have: take a full state (include_dom_tree).');
    let root = prev.dom_tree;
    for (const op of delta.dom_tree_ops) root = applyDomOp(root, op);
    out.dom_tree = renumberHighlights(root);
  }
  return out;
}

/**
 * The delta leaves the elements and texts as they are: no element or text edit, no dom_tree edit,
 * and `prev` numbered 1..n with unique ids, parents and texts inside the list (so the renumbering
 * of applyStateDelta would give every element and text its own numbers back).
 */
function keepsElements(prev: SimplifiedState, delta: StateDelta): boolean {
  if (
    delta.elements_removed?.length ||
    delta.elements_added?.length ||
    delta.elements_patched?.length ||
    delta.elements_shifted?.length ||
    delta.text_splices?.length ||
    delta.dom_tree_ops?.length
  )
    return false;
  const els = prev.actionable_elements;
  const ids = new Set<string>();
  for (let i = 0; i < els.length; i++) {
    const e = els[i] as ActionableElement;
    if (e.index !== i + 1 || ids.has(e.id)) return false;
    ids.add(e.id);
    if (e.parent_index !== undefined && (e.parent_index < 1 || e.parent_index > els.length)) return false;
  }
  if (!delta.facts?.text_context)
    for (const t of prev.text_context ?? []) if (t.after_index < 0 || t.after_index > els.length) return false;
  return true;
}

/** Copy-on-write along op.path. */
function applyDomOp(root: DomNode, op: DomOp): DomNode {
  const go = (node: DomNode, depth: number): DomNode => {
    if (node.kind !== 'element') throw new StateDeltaError('A dom_tree edit goes through a text node: take a full state.');
    if (depth < op.path.length) {
      const i = op.path[depth] as number;
      const child = node.children[i];
      if (!child) throw new StateDeltaError('A dom_tree edit names a node the tree does not have: take a full state.');
      const children = node.children.slice();
      children[i] = go(child, depth + 1);
      return { ...node, children };
    }
    let out: DomNode = node;
    if (op.node) {
      if (op.node.kind !== 'element') throw new StateDeltaError('A dom_tree edit sets an element to a text node: take a full state.');
      out = { ...op.node, children: node.children };
    }
    if (op.at !== undefined) {
      if (out.kind !== 'element' || op.at + (op.remove ?? 0) > out.children.length)
        throw new StateDeltaError('A dom_tree splice does not fit the tree: take a full state.');
      const children = out.children.slice();
      children.splice(op.at, op.remove ?? 0, ...(op.insert ?? []));
      out = { ...out, children };
    }
    return out;
  };
  return go(root, 0);
}

/** highlight_index 0, 1, ... in document order; nodes copied only where a number changes. */
function renumberHighlights(root: DomNode): DomNode {
  let next = 0;
  const walk = (n: DomNode): DomNode => {
    if (n.kind !== 'element') return n;
    let own = n;
    if (n.highlight_index !== undefined) {
      const want = next++;
      if (n.highlight_index !== want) own = { ...n, highlight_index: want };
    }
    let children: DomNode[] | null = null;
    for (let i = 0; i < n.children.length; i++) {
      const c = n.children[i] as DomNode;
      const w = walk(c);
      if (w !== c) {
        children ??= n.children.slice();
        children[i] = w;
      }
    }
    return children ? { ...own, children } : own;
  };
  return walk(root);
}

/** UTF-8 bytes of a value as JSON (what crosses the wire). */
export function jsonBytes(v: unknown): number {
  return new TextEncoder().encode(JSON.stringify(v)).length;
}
