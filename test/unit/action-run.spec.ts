// background/run/action-run.ts: the one object every phase of an action takes builds the result the
// bridge relays (its head keys first, in order: bridge/src/raw-relay.ts splices them), fills its
// timings, and reads the tab's state only when there is a tab. No chrome: the state reader is handed in.
import { expect } from 'chai';

import { Budget } from '../../extension/src/background/page-watch/budget';
import { SETTLE_DEFAULTS } from '../../extension/src/background/page-watch/settle-rule';
import { ActionRun, type StateReader } from '../../extension/src/background/run/action-run';
import { mergeDrained, NOTHING_DRAINED } from '../../extension/src/background/run/activity';
import { rememberState } from '../../extension/src/background/state/state-cache';
import type { ActionMessage, ErrorInfo, SimplifiedState } from '../../schemas/generated/protocol';

const action = { type: 'action', action_id: 'a-1', action: 'click', tab_id: 7, params: { element_id: 'e3' } } as ActionMessage;
const state = { url: 'https://example.test/' } as SimplifiedState;
const error: ErrorInfo = { error_code: 'TIMEOUT', message: 'Too slow. Retry.', component_origin: 'background_script' } as ErrorInfo;

function makeRun(readState: StateReader = async () => state, started?: number) {
  return new ActionRun(action, {
    budget: new Budget(5000),
    settle: SETTLE_DEFAULTS,
    trusted: false,
    readState,
    ...(started === undefined ? {} : { started }),
  });
}

describe('ActionRun', () => {
  it('fail: the head keys first, tab_id only when given, no outcome', () => {
    const run = makeRun();
    const failed = run.fail(error);
    expect(Object.keys(failed).slice(0, 3)).to.deep.equal(['type', 'original_action_id', 'action']);
    expect(failed).to.deep.equal({
      type: 'action_result',
      original_action_id: 'a-1',
      action: 'click',
      status: 'error',
      outcome_details: null,
      new_simplified_state: null,
      error_info: error,
    });
    expect(run.fail(error, state, 7)).to.include({ tab_id: 7, new_simplified_state: state });
  });

  it('success: a state, or a delta in its place', () => {
    const run = makeRun();
    const details = { message: 'Clicked.', navigation_occurred: false };
    const full = run.success(details, state, 7);
    expect(Object.keys(full).slice(0, 3)).to.deep.equal(['type', 'original_action_id', 'action']);
    expect(full).to.include({ status: 'success', tab_id: 7, new_simplified_state: state, error_info: null });
    const delta = run.success(details, { delta: { since: 's1' } as never }, 7);
    expect(delta).to.have.property('state_delta').that.deep.equals({ since: 's1' });
    expect(delta).not.to.have.property('new_simplified_state');
  });

  it('stamp: total and wall-clock stamps from the arrival, beside the phases already timed', () => {
    const started = performance.now() - 40;
    const run = makeRun(undefined, started);
    run.timings.action = 12.5;
    const t = run.stamp();
    expect(t.action).to.equal(12.5);
    expect(t.total).to.be.at.least(40);
    expect(t.received_at).to.be.closeTo(performance.timeOrigin + started, 0.01);
    expect(t.sent_at! - t.received_at!).to.be.closeTo(t.total!, 0.02);
    expect(run.timings).to.equal(t);
  });

  it('stateOrNull and failOnTab read the state only when there is a tab', async () => {
    const asked: unknown[][] = [];
    const run = makeRun(async (...args) => {
      asked.push(args);
      return state;
    });
    expect(await run.stateOrNull(undefined)).to.equal(null);
    expect(await run.stateOrNull(null)).to.equal(null);
    expect(asked).to.have.length(0);
    expect((await run.failOnTab(error)).new_simplified_state).to.equal(null);
    run.tab = { id: 7 } as chrome.tabs.Tab & { id: number };
    const failed = await run.failOnTab(error);
    expect(failed).to.include({ tab_id: 7, new_simplified_state: state });
    expect(asked).to.deep.equal([[7, undefined, undefined]]);
    expect(await run.failOnTab(error, false)).to.include({ tab_id: 7, new_simplified_state: null });
    expect(asked).to.have.length(1);
  });

  it('again: a new attempt times itself and looks its tab up anew, on the same budget', () => {
    const run = makeRun(undefined, performance.now() - 40);
    const { budget } = run;
    run.timings.action = 12.5;
    run.tab = { id: 7 } as chrome.tabs.Tab & { id: number };
    expect(run.again()).to.equal(run);
    expect(run.timings).to.deep.equal({});
    expect(run.tab).to.equal(undefined);
    expect(run.stamp().total).to.be.below(40);
    expect(run.budget).to.equal(budget);
  });

  it('answer: a result as it is without state_since, and for get_state (which answers since itself)', () => {
    const result = makeRun().success({ message: 'Clicked.', navigation_occurred: false }, state, 7);
    expect(makeRun().answer(result)).to.equal(result);
    const since = (name: string) =>
      new ActionRun({ ...action, action: name, state_since: 's1' } as ActionMessage, {
        budget: new Budget(5000),
        settle: SETTLE_DEFAULTS,
        trusted: false,
        readState: async () => state,
      });
    // Another action's state goes through the state cache: a base it does not hold leaves the state full, saying why.
    const held = { ...state, title: 'X', tab_id: 7, actionable_elements: [] } as SimplifiedState;
    rememberState(7, held);
    const heldResult = { ...result, new_simplified_state: held };
    expect(since('get_state').answer(heldResult)).to.equal(heldResult);
    const full = since('click').answer(heldResult);
    expect(full.new_simplified_state?.delta_unavailable?.reason).to.equal('unknown_state');
  });
});

describe('mergeDrained', () => {
  it('keeps the newest 50 API calls, every dialog, and the later drain pending', () => {
    const call = (i: number) => ({ api: 'fetch', url: `https://example.test/${i}` }) as never;
    const a = { ...NOTHING_DRAINED, api_activity: Array.from({ length: 40 }, (_, i) => call(i)), dialog_count: 1, dialogs: [{} as never] };
    const b = { ...NOTHING_DRAINED, api_activity: Array.from({ length: 20 }, (_, i) => call(40 + i)), pending: ['x' as never] };
    const m = mergeDrained(a, b);
    expect(m.api_activity).to.have.length(50);
    expect(m.api_activity[0]).to.deep.equal(call(10));
    expect(m).to.include({ dialog_count: 1, pending: b.pending });
    expect(mergeDrained(undefined, b)).to.equal(b);
  });
});
