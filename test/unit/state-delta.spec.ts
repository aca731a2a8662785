// State deltas: applyStateDelta(prev, diffStates(prev, next)) must give exactly
// `next`, for random states and random edits of them (elements inserted, removed, moved, changed,
// reordered; text edited; dom_tree edited), and every delta must be a valid wire message.
import { expect } from 'chai';

import type { ActionableElement, ActionResultMessage, SimplifiedState } from '../../schemas/generated/protocol';
import { validate_action_result } from '../../schemas/generated/validators.cjs';
import { applyStateDelta, diffSequences, diffStates, jsonBytes, StateDeltaError } from '../../schemas/lib/state-delta';
import { element, finish, mutate, randomState, resetIds, rng } from '../harness/random-states';

const resultWith = (delta: unknown): ActionResultMessage =>
  ({
    type: 'action_result',
    original_action_id: 'a1',
    action: 'get_state',
    status: 'success',
    outcome_details: { message: 'x', navigation_occurred: false, result: {} },
    error_info: null,
    state_delta: delta,
  }) as ActionResultMessage;

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

  it('the same element and text lists (an unchanged tab stitched again) are no change, and the client keeps them as they are', () => {
    const base = randomState(rng(11), true);
    const s = base.s;
    expect(s.actionable_elements.some((e) => e.parent_index !== undefined)).to.equal(true);
    const next: SimplifiedState = { ...s, scroll_position: { x: 0, y: (s.scroll_position?.y ?? 0) + 40 }, state_id: 'n' };
    const d = diffStates(s, next, s.state_id as string, 'n');
    if (!d.ok) throw new Error(d.message);
    expect(Object.keys(d.delta).sort()).to.deep.equal(['base_state_id', 'facts', 'state_id']);
    const applied = applyStateDelta(s, d.delta);
    expect(applied).to.deep.equal(next);
    // Shared, not copied element by element (a 4000-element page pays nothing for them).
    expect(applied.actionable_elements).to.equal(s.actionable_elements);
    expect(applied.text_context).to.equal(s.text_context);
    // Equal but other arrays: the same delta, found by comparing.
    const copied: SimplifiedState = {
      ...next,
      actionable_elements: s.actionable_elements.map((e) => ({ ...e })),
      ...(s.text_context ? { text_context: s.text_context.map((t) => ({ ...t })) } : {}),
    };
    const d2 = diffStates(s, copied, s.state_id as string, 'n');
    expect(d2.ok && d2.delta).to.deep.equal(d.delta);
  });

  it('one typed value on a 300-element state moves a small fraction of the full state', () => {
    const r = rng(9);
    resetIds();
    let base = randomState(r, true);
    while (base.s.actionable_elements.length < 30) base = randomState(r, true);
    const many = Array.from({ length: 300 }, () => element(r));
    const s = finish(
      { ...base.s, actionable_elements: many },
      new Map(),
      base.afters.map(() => null),
      r,
      true,
    );
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

  it('the same patch of many elements goes once (is_new markers going away)', () => {
    const base = randomState(rng(23), false);
    const marked: SimplifiedState = { ...base.s, actionable_elements: base.s.actionable_elements.map((e) => ({ ...e, is_new: true })) };
    const next = structuredClone(base.s);
    const d = diffStates(marked, next, marked.state_id as string, 'b');
    if (!d.ok) throw new Error(d.message);
    expect(d.delta.elements_patched).to.have.length(1);
    expect(d.delta.elements_patched?.[0]?.unset).to.deep.equal(['is_new']);
    expect(1 + (d.delta.elements_patched?.[0]?.also?.length ?? 0)).to.equal(next.actionable_elements.length);
    expect(applyStateDelta(marked, d.delta)).to.deep.equal({ ...next, state_id: 'b' });
  });

  it('states a delta cannot describe exactly are refused (the caller sends a full state)', () => {
    const base = randomState(rng(13), false);
    const e = base.s.actionable_elements[0];
    if (!e) throw new Error('seed gives elements');
    const dup: SimplifiedState = {
      ...base.s,
      actionable_elements: [...base.s.actionable_elements, { ...e, index: base.s.actionable_elements.length + 1 }],
    };
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
