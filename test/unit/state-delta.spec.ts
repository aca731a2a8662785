// State deltas (issue 13 item 3): applyStateDelta(prev, diffStates(prev, next)) must give exactly
// `next`, for random states and random edits of them (elements inserted, removed, moved, changed,
// reordered; text edited; dom_tree edited), and every delta must be a valid wire message.
import { expect } from 'chai';
import type { ActionResultMessage, ActionableElement, DomElementNode, DomNode, SimplifiedState, TextItem } from '../../schemas/generated/protocol';
import { validate_action_result } from '../../schemas/generated/validators.cjs';
import { applyStateDelta, diffSequences, diffStates, jsonBytes, StateDeltaError } from '../../schemas/lib/state-delta';

/** mulberry32: a small seeded PRNG so a failing case can be replayed by its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T, chance: (p: number) => next() < p };
}
type R = ReturnType<typeof rng>;

let idCounter = 0;
function element(r: R): ActionableElement {
  const id = `e${++idCounter}`;
  const e: ActionableElement = {
    id,
    index: 0,
    type: r.pick(['BUTTON', 'LINK', 'INPUT_FIELD', 'CHECKBOX'] as const),
    tag: r.pick(['button', 'a', 'input']),
    role: r.pick(['button', 'link', 'textbox', 'checkbox']),
    name: r.pick(['Save', 'Cancel', 'Home', 'Search', `Item ${r.int(50)}`]),
    attributes: r.chance(0.5) ? { href: `/p/${r.int(9)}` } : {},
    is_visible: true,
    is_in_viewport: r.chance(0.8),
    is_top_element: true,
    bounds: { x: r.int(800), y: r.int(3000), width: 10 + r.int(200), height: 20 },
    xpath: `html/body/div[${r.int(9)}]`,
    available_operations: ['click'],
  };
  if (r.chance(0.3)) e.current_value = `v${r.int(5)}`;
  if (r.chance(0.2)) e.states = { checked: r.chance(0.5) };
  return e;
}

function text(r: R, afterIndex: number): TextItem {
  const t: TextItem = { text: r.pick(['Hello', 'Price: 10', 'Footer', 'Lorem ipsum', `Row ${r.int(100)}`]), after_index: afterIndex };
  if (r.chance(0.3)) t.role = 'heading';
  return t;
}

function domTree(r: R, els: ActionableElement[]): DomElementNode {
  let hi = 0;
  const body: DomElementNode = { kind: 'element', tag: 'body', xpath: '/body', attributes: {}, children: [] };
  let container = body;
  for (const e of els) {
    if (r.chance(0.2)) {
      const div: DomElementNode = { kind: 'element', tag: 'div', xpath: `html/body/div[${r.int(5)}]`, attributes: {}, is_visible: true, children: [] };
      body.children.push(div);
      container = div;
    }
    if (r.chance(0.3)) container.children.push({ kind: 'text', text: r.pick(['a', 'b', 'c']), is_visible: true });
    container.children.push({ kind: 'element', tag: e.tag, xpath: e.xpath ?? '', attributes: {}, is_visible: true, highlight_index: hi++, element_id: e.id, children: [{ kind: 'text', text: e.name ?? '', is_visible: true }] });
  }
  return body;
}

/** Numbers elements, keeps parent_index / after_index pointing at the same elements, rebuilds the tree. */
function finish(s: SimplifiedState, parents: Map<string, string>, afters: (string | null)[], r: R, withTree: boolean): SimplifiedState {
  const els = s.actionable_elements.map((e, i) => ({ ...e, index: i + 1 }));
  const at = new Map(els.map((e) => [e.id, e.index as number]));
  for (const e of els) {
    const p = parents.get(e.id);
    const pi = p === undefined ? undefined : at.get(p);
    if (pi !== undefined && pi < (e.index as number)) e.parent_index = pi;
    else delete e.parent_index;
  }
  const texts = (s.text_context ?? []).map((t, i) => {
    const a = afters[i];
    return { ...t, after_index: a === null || a === undefined ? 0 : (at.get(a) ?? 0) };
  });
  const out: SimplifiedState = { ...s, actionable_elements: els, text_context: texts };
  if (withTree) out.dom_tree = domTree(r, els);
  return out;
}

function randomState(r: R, withTree: boolean): { s: SimplifiedState; parents: Map<string, string>; afters: (string | null)[] } {
  const els = Array.from({ length: r.int(40) }, () => element(r));
  const parents = new Map<string, string>();
  for (let i = 1; i < els.length; i++) if (r.chance(0.2)) parents.set((els[i] as ActionableElement).id, (els[r.int(i)] as ActionableElement).id);
  const afters = Array.from({ length: r.int(30) }, () => (els.length && r.chance(0.8) ? (r.pick(els) as ActionableElement).id : null));
  const s: SimplifiedState = {
    url: 'https://shop.test/',
    title: 'Shop',
    tab_id: 7,
    active_element_id: null,
    actionable_elements: els,
    scroll_position: { x: 0, y: r.int(500) },
    viewport_dimensions: { width: 1280, height: 800 },
    page_size: { width: 1280, height: 3000 },
    pixels_above: 0,
    pixels_below: 2200,
    viewport_expansion: 0,
    focused_element: null,
    text_context: afters.map(() => text(r, 0)),
    frames: [{ frame_id: 0, parent_frame_id: null, url: 'https://shop.test/', status: 'ok', element_count: els.length }],
    timings_ms: { total: r.int(50) },
    state_id: `s${r.int(1e6)}`,
  };
  // Order texts so their after elements ascend (as a real walk emits them).
  const pos = new Map(els.map((e, i) => [e.id, i]));
  afters.sort((a, b) => (a === null ? -1 : (pos.get(a) ?? 0)) - (b === null ? -1 : (pos.get(b) ?? 0)));
  return { s: finish(s, parents, afters, r, withTree), parents, afters };
}

function mutate(r: R, base: ReturnType<typeof randomState>, withTree: boolean): SimplifiedState {
  let els = base.s.actionable_elements.map((e) => ({ ...e }));
  const texts = (base.s.text_context ?? []).map((t) => ({ ...t }));
  const afters = base.afters.slice();
  const s: SimplifiedState = { ...base.s, timings_ms: { total: r.int(50) } };
  const edits = 1 + r.int(4);
  for (let k = 0; k < edits; k++) {
    const what = r.int(10);
    if (what === 0) els.splice(r.int(els.length + 1), 0, element(r));
    else if (what === 1 && els.length) els.splice(r.int(els.length), 1);
    else if (what === 2 && els.length) {
      const e = r.pick(els);
      e.current_value = `typed ${r.int(99)}`;
    } else if (what === 3 && els.length) {
      for (const e of els.slice(r.int(els.length))) if (e.bounds) e.bounds = { ...e.bounds, y: e.bounds.y + 40 };
    } else if (what === 4 && els.length > 1) {
      const [m] = els.splice(r.int(els.length), 1);
      els.splice(r.int(els.length + 1), 0, m as ActionableElement);
    } else if (what === 5) {
      const i = r.int(texts.length + 1);
      texts.splice(i, 0, text(r, 0));
      afters.splice(i, 0, i > 0 ? (afters[i - 1] ?? null) : null);
    } else if (what === 6 && texts.length) {
      const i = r.int(texts.length);
      texts.splice(i, 1);
      afters.splice(i, 1);
    } else if (what === 7) {
      s.title = `Shop (${r.int(9)})`;
      s.scroll_position = { x: 0, y: r.int(900) };
      if (r.chance(0.5)) s.truncation = { elements_cut: true, text_cut: false, message: 'cut' };
      else delete s.truncation;
    } else if (what === 8 && els.length) {
      const e = r.pick(els);
      e.states = { checked: !(e.states?.checked ?? false) };
      if (r.chance(0.3)) e.is_in_viewport = !e.is_in_viewport;
    } else if (what === 9) {
      // is_new moves on with every snapshot: marks come and go on many elements at once.
      for (const e of els) {
        if (r.chance(0.5)) e.is_new = true;
        else delete e.is_new;
      }
    }
  }
  if (r.chance(0.1)) els = els.slice().reverse();
  return finish({ ...s, actionable_elements: els, text_context: texts }, base.parents, afters, r, withTree);
}

const resultWith = (delta: unknown): ActionResultMessage => ({ type: 'action_result', original_action_id: 'a1', action: 'get_state', status: 'success', outcome_details: { message: 'x', navigation_occurred: false, result: {} }, error_info: null, state_delta: delta } as ActionResultMessage);

describe('state deltas (schemas/lib/state-delta.ts)', () => {
  it('diffSequences finds the fewest edits (Myers) and covers every unmatched item', () => {
    expect(diffSequences(['a', 'b', 'c'], ['a', 'b', 'c'])).to.deep.equal([]);
    expect(diffSequences(['a', 'b', 'c'], ['a', 'x', 'c'])).to.deep.equal([{ a0: 1, a1: 2, b0: 1, b1: 2 }]);
    expect(diffSequences(['a', 'b', 'c', 'd', 'e'], ['x', 'b', 'c', 'y', 'e'])).to.deep.equal([
      { a0: 0, a1: 1, b0: 0, b1: 1 },
      { a0: 3, a1: 4, b0: 3, b1: 4 },
    ]);
    expect(diffSequences([], ['a'])).to.deep.equal([{ a0: 0, a1: 0, b0: 0, b1: 1 }]);
    const r = rng(1);
    for (let n = 0; n < 200; n++) {
      const a = Array.from({ length: r.int(30) }, () => r.pick(['a', 'b', 'c', 'd']));
      const b = Array.from({ length: r.int(30) }, () => r.pick(['a', 'b', 'c', 'd']));
      // Rebuild b from a and the regions.
      const out: string[] = [];
      let x = 0;
      for (const g of diffSequences(a, b)) {
        for (; x < g.a0; x++) out.push(a[x] as string);
        out.push(...b.slice(g.b0, g.b1));
        x = g.a1;
      }
      for (; x < a.length; x++) out.push(a[x] as string);
      expect(out, `case ${n}`).to.deep.equal(b);
    }
  });

  for (const withTree of [false, true]) {
    it(`apply(prev, diff(prev, next)) equals next for 400 random edits${withTree ? ', dom_tree included' : ''}, and every delta is a valid action_result.state_delta`, () => {
      for (let seed = 1; seed <= 400; seed++) {
        const r = rng(seed + (withTree ? 10_000 : 0));
        const base = randomState(r, withTree);
        const next = mutate(r, base, withTree);
        const d = diffStates(base.s, next, base.s.state_id as string, 'next-id');
        expect(d.ok, `seed ${seed}`).to.equal(true);
        if (!d.ok) continue;
        const got = applyStateDelta(base.s, JSON.parse(JSON.stringify(d.delta)));
        expect(got, `seed ${seed}`).to.deep.equal({ ...next, state_id: 'next-id' });
        const msg = resultWith(d.delta);
        expect(validate_action_result(msg), `seed ${seed}: ${JSON.stringify(validate_action_result.errors)}`).to.equal(true);
      }
    });
  }

  it('unchanged state -> a delta with nothing but ids; the base is not modified', () => {
    const base = randomState(rng(5), true);
    const copy = JSON.parse(JSON.stringify(base.s));
    const d = diffStates(base.s, { ...base.s }, 'a', 'b');
    expect(d.ok && d.delta).to.deep.equal({ base_state_id: 'a', state_id: 'b' });
    const next = mutate(rng(6), base, true);
    const d2 = diffStates(base.s, next, base.s.state_id as string, 'b');
    if (d2.ok) applyStateDelta(base.s, d2.delta);
    expect(base.s).to.deep.equal(copy);
  });

  it('one typed value on a 300-element state moves a small fraction of the full state', () => {
    const r = rng(9);
    idCounter = 0;
    let base = randomState(r, true);
    while (base.s.actionable_elements.length < 30) base = randomState(r, true);
    const many = Array.from({ length: 300 }, () => element(r));
    const s = finish({ ...base.s, actionable_elements: many }, new Map(), base.afters.map(() => null), r, true);
    const next = structuredClone(s);
    (next.actionable_elements[150] as ActionableElement).current_value = 'hello';
    const d = diffStates(s, next, 'a', 'b');
    expect(d.ok).to.equal(true);
    if (!d.ok) return;
    expect(d.delta.elements_patched).to.deep.equal([{ id: next.actionable_elements[150]?.id, current_value: 'hello' }]);
    expect(jsonBytes(d.delta) / jsonBytes(next)).to.be.below(0.02);
  });

  it('an element inserted at the top renumbers the rest without resending them', () => {
    const r = rng(11);
    const base = randomState(r, true);
    const els = [element(r), ...base.s.actionable_elements];
    const next = finish({ ...base.s, actionable_elements: els }, base.parents, base.afters, rng(12), true);
    const d = diffStates(base.s, next, base.s.state_id as string, 'b');
    expect(d.ok).to.equal(true);
    if (!d.ok) return;
    expect(d.delta.elements_added).to.have.length(1);
    expect(d.delta.elements_patched ?? []).to.have.length(0);
    expect(d.delta.text_splices ?? []).to.have.length(0);
    expect(applyStateDelta(base.s, d.delta)).to.deep.equal({ ...next, state_id: 'b' });
  });

  it('boxes moved by one offset go as one group of ids; a lost field goes as unset', () => {
    const base = randomState(rng(21), false);
    const next = structuredClone(base.s);
    for (const e of next.actionable_elements) if (e.bounds) e.bounds.y += 24.5;
    const first = next.actionable_elements[0];
    if (!first) throw new Error('seed gives elements');
    delete first.role;
    const d = diffStates(base.s, next, base.s.state_id as string, 'b');
    if (!d.ok) throw new Error(d.message);
    expect(d.delta.elements_shifted).to.have.length(1);
    expect(d.delta.elements_shifted?.[0]).to.include({ dx: 0, dy: 24.5 });
    expect(d.delta.elements_patched?.[0]).to.deep.equal({ id: first.id, bounds: first.bounds, unset: ['role'] });
    expect(applyStateDelta(base.s, d.delta)).to.deep.equal({ ...next, state_id: 'b' });
  });

  it('states a delta cannot describe exactly are refused (the caller sends a full state)', () => {
    const base = randomState(rng(13), false);
    const e = base.s.actionable_elements[0];
    if (!e) throw new Error('seed gives elements');
    const dup: SimplifiedState = { ...base.s, actionable_elements: [...base.s.actionable_elements, { ...e, index: base.s.actionable_elements.length + 1 }] };
    const d = diffStates(base.s, dup, 'a', 'b');
    expect(d.ok).to.equal(false);
    if (!d.ok) expect(d.message).to.match(/appears twice/);
    const unordered: SimplifiedState = { ...base.s, actionable_elements: base.s.actionable_elements.map((x) => ({ ...x, index: 1 })) };
    expect(diffStates(base.s, unordered, 'a', 'b').ok).to.equal(base.s.actionable_elements.length <= 1);
  });

  it('a delta applied to another state than its base is refused with what to do', () => {
    const base = randomState(rng(15), false);
    const next = mutate(rng(16), base, false);
    const d = diffStates(base.s, next, base.s.state_id as string, 'b');
    if (!d.ok) throw new Error(d.message);
    expect(() => applyStateDelta({ ...base.s, state_id: 'other' }, d.delta)).to.throw(StateDeltaError, /take a full state/);
    expect(() => applyStateDelta(base.s, { ...d.delta, elements_removed: ['nope'] })).to.throw(StateDeltaError);
  });
});

// Keep DomNode imported for the tree helpers' types.
export type { DomNode };
