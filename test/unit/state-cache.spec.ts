// The extension's state cache (extension/src/background/state/state-cache.ts) without Chrome: which
// states it keeps for get_state since, and that every miss answers a full state saying why.
// Navigation and tab-close drops use chrome events and are covered by test/e2e/state-delta.spec.ts.
import { expect } from 'chai';

import { answerState, heldStates, rememberState, withStateDelta } from '../../extension/src/background/state/state-cache';
import type { ActionableElement, ActionResultMessage, SimplifiedState } from '../../schemas/generated/protocol';

const el = (i: number, value = ''): ActionableElement => ({
  id: `e${i}`,
  index: i,
  type: 'INPUT_FIELD',
  tag: 'input',
  role: 'textbox',
  name: `Field ${i}`,
  attributes: { name: `f${i}` },
  is_visible: true,
  available_operations: ['input_text'],
  current_value: value,
  xpath: `html/body/input[${i}]`,
});
const page = (tab: number, typed = ''): SimplifiedState => ({
  url: 'https://x.test/',
  title: 'X',
  tab_id: tab,
  actionable_elements: Array.from({ length: 60 }, (_, i) => el(i + 1, i === 30 ? typed : '')),
});

describe('extension state cache (state-cache.ts)', () => {
  it('answers since with a delta that names both states, and gives every state an id unique per run', () => {
    const a = answerState(101, page(101), undefined);
    expect('state' in a && a.state.state_id).to.match(/^101\./);
    const base = 'state' in a ? (a.state.state_id as string) : '';
    const b = answerState(101, page(101, 'hi'), base);
    expect('delta' in b, JSON.stringify(b).slice(0, 300)).to.equal(true);
    if ('delta' in b) {
      expect(b.delta.base_state_id).to.equal(base);
      expect(b.delta.elements_patched).to.deep.equal([{ id: 'e31', current_value: 'hi' }]);
    }
  });

  it("an unknown id, another tab's id, or a delta that would not pay: the full state with the reason", () => {
    const s1 = answerState(102, page(102), undefined);
    const id102 = 'state' in s1 ? (s1.state.state_id as string) : '';
    const unknown = answerState(103, page(103), 'nope');
    expect('state' in unknown && unknown.state.delta_unavailable?.reason).to.equal('unknown_state');
    const other = answerState(103, page(103), id102);
    expect('state' in other && other.state.delta_unavailable?.reason).to.equal('other_tab');
    const tiny: SimplifiedState = { url: 'https://y.test/', title: 'Y', tab_id: 104, actionable_elements: [] };
    const t1 = answerState(104, tiny, undefined);
    const t2 = answerState(104, { ...tiny, title: 'Y2', url: 'https://y.test/2' }, 'state' in t1 ? (t1.state.state_id as string) : '');
    expect('state' in t2 && t2.state.delta_unavailable?.reason).to.equal('not_smaller');
  });

  it('the actions of one step do not push out the last get_state answer (kept apart from the last 3 states)', () => {
    const asked = answerState(105, page(105), undefined);
    const base = 'state' in asked ? (asked.state.state_id as string) : '';
    for (let i = 0; i < 8; i++) rememberState(105, page(105, `step ${i}`));
    expect(heldStates()[105]).to.equal(4); // 3 latest + the get_state answer
    const later = answerState(105, page(105, 'done'), base);
    expect('delta' in later).to.equal(true);
  });

  it("withStateDelta turns an action result's remembered state into a delta, or leaves it full with the reason", () => {
    const first = page(106);
    const baseId = rememberState(106, first);
    const after = page(106, 'clicked');
    rememberState(106, after);
    const result: ActionResultMessage = {
      type: 'action_result',
      original_action_id: 'a',
      action: 'click',
      tab_id: 106,
      status: 'success',
      outcome_details: { message: 'ok', navigation_occurred: false, result: {} },
      new_simplified_state: after,
      error_info: null,
    };
    const r = withStateDelta(result, baseId);
    expect(r.new_simplified_state).to.equal(undefined);
    expect(r.state_delta?.base_state_id).to.equal(baseId);
    const miss = withStateDelta(result, 'gone');
    expect(miss.new_simplified_state?.delta_unavailable?.reason).to.equal('unknown_state');
  });
});
