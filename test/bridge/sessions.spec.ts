// Sessions that lease tabs, per-tab ordering, idempotent action ids across a
// reconnect, the tab limit, and extension restarts, over real `ws` with a hand-driven extension.
import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { type BridgeOptions, BridgeServer } from '../../bridge/src/server';
import type {
  ActionMessage,
  ActionResultMessage,
  ExtensionStatusMessage,
  ProtocolMessage,
  StateUpdateMessage,
  TabReleasedMessage,
} from '../../schemas/generated/protocol';
import { type HelloOptions, RawPeer } from './raw-peer';

const isResult = (m: ProtocolMessage): m is ActionResultMessage => m.type === 'action_result';
const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';
const ok = (id: string, tabId: number | undefined, extra: Partial<ActionResultMessage> = {}): ActionResultMessage => ({
  type: 'action_result',
  original_action_id: id,
  ...(tabId === undefined ? {} : { tab_id: tabId }),
  status: 'success',
  outcome_details: { message: `done ${id}` },
  new_simplified_state: null,
  error_info: null,
  ...extra,
});
const minimalState = (tabId: number, url: string) =>
  ({ url, title: 'T', tab_id: tabId, actionable_elements: [] }) as unknown as StateUpdateMessage['state'];

describe('bridge sessions and tabs (real ws)', () => {
  let bridge: BridgeServer;
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async () => track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
  const agent = async (o: Partial<HelloOptions> = {}) =>
    track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, ...o }));
  /** Answers the next relayed action on the fake extension with `make(action)`. */
  const answer = async (e: RawPeer, make: (a: ActionMessage) => ActionResultMessage) => {
    const a = (await e.next(isAction)) as ActionMessage;
    e.send({ action: a.action, ...make(a) }); // names its action, as the extension does
    return a;
  };

  async function start(extra: Partial<BridgeOptions> = {}) {
    bridge = createBridge({ port: 0, logger: createLogger('silent'), defaultTimeoutMs: 2000, ...extra });
    await bridge.start();
  }
  beforeEach(() => start());
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  it('runs two agents on separate tabs at once with no cross-talk (results and state_update)', async () => {
    const e = await ext();
    const a = await agent();
    const b = await agent();
    a.send({ type: 'action', action_id: 'x', action: 'get_state', params: {}, tab_id: 11 });
    b.send({ type: 'action', action_id: 'x', action: 'get_state', params: {}, tab_id: 22 });
    // Both are relayed before either is answered: different tabs run in parallel.
    const first = (await e.next(isAction)) as ActionMessage;
    const second = (await e.next(isAction)) as ActionMessage;
    for (const m of [second, first])
      e.send(ok(m.action_id, m.tab_id, { action: m.action, outcome_details: { message: `tab ${m.tab_id}` } }));
    expect(((await a.next(isResult)) as ActionResultMessage).outcome_details?.message).to.equal('tab 11');
    expect(((await b.next(isResult)) as ActionResultMessage).outcome_details?.message).to.equal('tab 22');
    e.send({ type: 'state_update', tab_id: 22, reason: 'mutation', state: minimalState(22, 'http://b.test/') });
    const update = (await b.next((m) => m.type === 'state_update')) as StateUpdateMessage;
    expect(update.tab_id).to.equal(22);
    await new Promise((r) => setTimeout(r, 50));
    expect(a.received.filter((m) => m.type === 'state_update')).to.deep.equal([]);
    const status = (await (await fetch(`http://127.0.0.1:${bridge.port}/status`)).json()) as {
      sessions: { tabs: { tab_id: number; url: string | null }[] }[];
    };
    expect(status.sessions.map((s) => s.tabs)).to.deep.equal([[{ tab_id: 11, url: null }], [{ tab_id: 22, url: 'http://b.test/' }]]);
  });

  it("refuses a session's action on another session's tab with TAB_NOT_LEASED; the extension never sees it", async () => {
    const e = await ext();
    const a = await agent();
    const b = await agent();
    a.send({ type: 'action', action_id: 'mine', action: 'get_state', params: {}, tab_id: 5 });
    await answer(e, (m) => ok(m.action_id, 5));
    await a.next(isResult);
    b.send({ type: 'action', action_id: 'theirs', action: 'click', params: { element_id: 'e1' }, tab_id: 5 });
    const r = (await b.next(isResult)) as ActionResultMessage;
    expect(r.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    expect(r.error_info?.details?.['tab_id']).to.equal(5);
    // Also through params (switch_tab / close_tab name their tab there).
    b.send({ type: 'action', action_id: 'sw', action: 'switch_tab', params: { tab_id: 5 } });
    expect(((await b.next(isResult)) as ActionResultMessage).error_info?.error_code).to.equal('TAB_NOT_LEASED');
    await new Promise((r2) => setTimeout(r2, 50));
    expect(e.received.filter(isAction)).to.deep.equal([]);
  });

  it('two sessions naming the same free tab at once: the first leases it, the second is refused, never relayed', async () => {
    const e = await ext();
    const a = await agent();
    const b = await agent();
    a.send({ type: 'action', action_id: 'first', action: 'navigate', params: { url: 'http://a.test/' }, tab_id: 7 });
    b.send({ type: 'action', action_id: 'second', action: 'navigate', params: { url: 'http://b.test/' }, tab_id: 7 });
    await answer(e, (m) => ok(m.action_id, 7));
    expect(((await a.next(isResult)) as ActionResultMessage).status).to.equal('success');
    const r = (await b.next(isResult)) as ActionResultMessage;
    expect(r.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    await new Promise((r2) => setTimeout(r2, 50));
    expect(e.received.filter(isAction)).to.deep.equal([]); // the second navigate never reached the extension
  });

  it('runs commands for one tab one at a time, in order', async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: '1', action: 'click', params: { element_id: 'e1' }, tab_id: 3 });
    a.send({ type: 'action', action_id: '2', action: 'click', params: { element_id: 'e2' }, tab_id: 3 });
    const first = (await e.next(isAction)) as ActionMessage;
    expect(first.params).to.deep.equal({ element_id: 'e1' });
    await new Promise((r) => setTimeout(r, 100));
    expect(e.received.filter(isAction), 'second waits for the first').to.deep.equal([]);
    e.send(ok(first.action_id, 3, { action: 'click' }));
    const second = (await e.next(isAction)) as ActionMessage;
    expect(second.params).to.deep.equal({ element_id: 'e2' });
    e.send(ok(second.action_id, 3, { action: 'click' }));
    expect(((await a.next(isResult)) as ActionResultMessage).original_action_id).to.equal('1');
    expect(((await a.next(isResult)) as ActionResultMessage).original_action_id).to.equal('2');
  });

  it("sends an action without tab_id to the session's current tab", async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: 'first', action: 'get_state', params: {} });
    const relayed = await answer(e, (m) => ok(m.action_id, 42));
    expect(relayed.tab_id, 'first action: implicit hand-over of the active tab').to.equal(undefined);
    await a.next(isResult);
    a.send({ type: 'action', action_id: 'second', action: 'get_state', params: {} });
    const next = await answer(e, (m) => ok(m.action_id, 42));
    expect(next.tab_id).to.equal(42);
  });

  it("does not hand over the active tab when it is another session's (asks the extension with list_tabs)", async () => {
    const e = await ext();
    const a = await agent();
    const b = await agent();
    a.send({ type: 'action', action_id: 'a1', action: 'get_state', params: {}, tab_id: 7 });
    await answer(e, (m) => ok(m.action_id, 7));
    await a.next(isResult);
    b.send({ type: 'action', action_id: 'b1', action: 'get_state', params: {} });
    const list = await answer(e, (m) =>
      ok(m.action_id, undefined, {
        outcome_details: { message: 'tabs', result: { tabs: [{ tab_id: 7, url: 'http://a.test/', title: 'A', active: true, index: 0 }] } },
      }),
    );
    expect(list.action).to.equal('list_tabs');
    const r = (await b.next(isResult)) as ActionResultMessage;
    expect(r.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    expect(r.error_info?.message).to.match(/open_tab/);
  });

  it('releases the oldest tab past max_tabs and tells the agent which (seed 002 wording)', async () => {
    const e = await ext();
    const a = await agent({ maxTabs: 2 });
    expect(a.ack?.max_tabs).to.equal(2);
    const results: number[] = [];
    for (const [i, tab] of [
      [1, 101],
      [2, 102],
      [3, 103],
    ] as const) {
      a.send({ type: 'action', action_id: `open${i}`, action: 'open_tab', params: { url: `http://t${i}.test/` } });
      await answer(e, (m) =>
        ok(m.action_id, tab, {
          outcome_details: { message: 'opened', result: { tab_id: tab } },
          new_simplified_state: minimalState(tab, `http://t${i}.test/`),
        }),
      );
      const r = (await a.next(isResult)) as ActionResultMessage;
      results.push((r.outcome_details?.result as { tab_id: number }).tab_id);
    }
    expect(results).to.deep.equal([101, 102, 103]);
    const released = a.received.filter((m): m is TabReleasedMessage => m.type === 'tab_released');
    expect(released).to.deep.equal([
      {
        type: 'tab_released',
        tab_id: 101,
        url: 'http://t1.test/',
        reason: 'tab_limit',
        max_tabs: 2,
        message: 'Tab limit (2) reached. Released tab: http://t1.test/',
      },
    ]);
    // The released tab is free: another session may now use it.
    const b = await agent();
    b.send({ type: 'action', action_id: 'b', action: 'get_state', params: {}, tab_id: 101 });
    await answer(e, (m) => ok(m.action_id, 101));
    expect(((await b.next(isResult)) as ActionResultMessage).status).to.equal('success');
  });

  it('answers a re-sent action id after a reconnect from the record instead of running it twice', async () => {
    const e = await ext();
    const a = await agent();
    const token = a.ack?.session_token as string;
    a.send({ type: 'action', action_id: 'once', action: 'click', params: { element_id: 'e1' }, tab_id: 9 });
    await answer(e, (m) => ok(m.action_id, 9, { outcome_details: { message: 'clicked once' } }));
    await a.next(isResult);
    a.ws.terminate();
    const again = await agent({ sessionToken: token });
    expect(again.ack?.resumed).to.equal(true);
    expect(again.ack?.session_id).to.equal(a.ack?.session_id);
    expect(again.ack?.leased_tab_ids).to.deep.equal([9]);
    again.send({ type: 'action', action_id: 'once', action: 'click', params: { element_id: 'e1' }, tab_id: 9 });
    const r = (await again.next(isResult)) as ActionResultMessage;
    expect(r.outcome_details?.message).to.equal('clicked once');
    await new Promise((r2) => setTimeout(r2, 50));
    expect(e.received.filter(isAction)).to.deep.equal([]);
  });

  it('delivers an action that was still running when the agent dropped to the resumed connection, once', async () => {
    const e = await ext();
    const a = await agent();
    const token = a.ack?.session_token as string;
    a.send({ type: 'action', action_id: 'long', action: 'click', params: { element_id: 'e1' }, tab_id: 9, timeout_ms: 5000 });
    const relayed = (await e.next(isAction)) as ActionMessage;
    a.ws.terminate();
    const again = await agent({ sessionToken: token });
    again.send({ type: 'action', action_id: 'long', action: 'click', params: { element_id: 'e1' }, tab_id: 9, timeout_ms: 5000 });
    e.send(ok(relayed.action_id, 9, { action: 'click' }));
    expect(((await again.next(isResult)) as ActionResultMessage).original_action_id).to.equal('long');
    await new Promise((r) => setTimeout(r, 50));
    expect(e.received.filter(isAction), 'not run twice').to.deep.equal([]);
  });

  it('starts a fresh session for an unknown or expired token', async () => {
    await bridge.close();
    await start({ sessionGraceMs: 50 });
    await ext();
    const a = await agent();
    const token = a.ack?.session_token as string;
    a.ws.terminate();
    await new Promise((r) => setTimeout(r, 200));
    const again = await agent({ sessionToken: token });
    expect(again.ack?.resumed).to.equal(false);
    expect(again.ack?.session_id).not.to.equal(a.ack?.session_id);
  });

  it('tells agents the extension was away and keeps their tab ids when it reconnects', async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: 'p', action: 'get_state', params: {}, tab_id: 77 });
    await answer(e, (m) => ok(m.action_id, 77));
    await a.next(isResult);
    e.ws.terminate();
    const down = (await a.next((m) => m.type === 'extension_status')) as ExtensionStatusMessage;
    expect(down.connected).to.equal(false);
    const e2 = await ext();
    const up = (await a.next((m) => m.type === 'extension_status')) as ExtensionStatusMessage;
    expect(up.connected).to.equal(true);
    expect(up.away_ms).to.be.a('number');
    a.send({ type: 'action', action_id: 'q', action: 'get_state', params: {} });
    const relayed = await answer(e2, (m) => ok(m.action_id, 77));
    expect(relayed.tab_id).to.equal(77);
  });

  it('times out an action queued behind a slow one on the same tab within its own timeout_ms', async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: 'slow', action: 'click', params: { element_id: 'e1' }, tab_id: 4, timeout_ms: 400 });
    a.send({ type: 'action', action_id: 'queued', action: 'click', params: { element_id: 'e2' }, tab_id: 4, timeout_ms: 200 });
    await e.next(isAction);
    const results = [(await a.next(isResult)) as ActionResultMessage, (await a.next(isResult)) as ActionResultMessage];
    expect(results.map((r) => [r.original_action_id, r.error_info?.error_code])).to.deep.equal([
      ['slow', 'TIMEOUT'],
      ['queued', 'TIMEOUT'],
    ]);
    expect(e.received.filter(isAction), 'the queued action was never sent').to.deep.equal([]);
  });

  it('frees the tabs of a session whose agent says goodbye (close 1000) at once', async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: 'a', action: 'get_state', params: {}, tab_id: 31 });
    await answer(e, (m) => ok(m.action_id, 31));
    await a.next(isResult);
    a.ws.close(1000, 'done');
    await a.waitClose();
    const b = await agent();
    b.send({ type: 'action', action_id: 'b', action: 'get_state', params: {}, tab_id: 31 });
    await answer(e, (m) => ok(m.action_id, 31));
    expect(((await b.next(isResult)) as ActionResultMessage).status).to.equal('success');
    const resumed = await agent({ sessionToken: a.ack?.session_token as string });
    expect(resumed.ack?.resumed, 'a goodbye ends the session').to.equal(false);
  });
});
