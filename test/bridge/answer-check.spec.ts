// An answer from the extension is relayed only when it fits the request it answers: a raw peer
// holding the extension secret sends bad answers, and the agent gets a typed EXTENSION_INTERNAL_ERROR,
// never a success; another session's tab is never leased or shown through such an answer.
import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import type { ActionMessage, ActionResultMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';
const isResult = (m: ProtocolMessage): m is ActionResultMessage => m.type === 'action_result';

describe('answers from the extension are checked against their request (real ws, raw peer)', () => {
  let bridge: BridgeServer;
  let logs: string[];
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async () => track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
  const agent = async () => track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret }));
  const success = (m: ActionMessage, extra: Record<string, unknown> = {}) => ({
    type: 'action_result',
    original_action_id: m.action_id,
    action: m.action,
    ...(m.tab_id === undefined ? {} : { tab_id: m.tab_id }),
    status: 'success',
    outcome_details: { message: 'Clicked.' },
    new_simplified_state: null,
    error_info: null,
    ...extra,
  });
  /** Agent `who` acts on tabId and the extension answers properly: `who` now holds the tab. */
  const lease = async (e: RawPeer, who: RawPeer, tabId: number) => {
    who.send({ type: 'action', action_id: `lease-${tabId}`, action: 'get_state', params: {}, tab_id: tabId });
    e.send(success((await e.next(isAction)) as ActionMessage));
    expect(((await who.next(isResult)) as ActionResultMessage).status).to.equal('success');
  };
  const refused = async (a: RawPeer, id: string) => {
    const r = (await a.next((m) => isResult(m) && m.original_action_id === id)) as ActionResultMessage;
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('EXTENSION_INTERNAL_ERROR');
    expect(r.error_info?.message).to.match(/does not match the request/);
    expect(r.error_info?.message).to.match(/Take a new state and retry; if it repeats, update or reload the extension/);
    return r;
  };

  beforeEach(async () => {
    logs = [];
    bridge = createBridge({ port: 0, logger: createLogger('info', (l) => logs.push(l)), defaultTimeoutMs: 2000 });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  it('a click answered without an "action" field is a typed failure, logged once at WARN', async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: 'c1', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    const relayed = (await e.next(isAction)) as ActionMessage;
    const bare: Record<string, unknown> = success(relayed);
    delete bare['action'];
    e.send(bare);
    const r = await refused(a, 'c1');
    expect(r.action).to.equal('click');
    expect(r.error_info?.details).to.deep.include({ reason: 'answer_does_not_match_request' });
    const warned = logs.filter((l) => /does not match the request/.test(l));
    expect(warned).to.have.length(1);
    expect(warned[0]).to.match(/WARN/);
  });

  it("a click answered with another session's tab is refused and leases nothing", async () => {
    const e = await ext();
    const owner = await agent();
    await lease(e, owner, 7);
    const a = await agent();
    a.send({ type: 'action', action_id: 'c2', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    e.send(success((await e.next(isAction)) as ActionMessage, { tab_id: 7 }));
    expect((await refused(a, 'c2')).error_info?.message).to.match(/tab_id is 7, but the action was sent to tab 4/);
    // Same through the page state it carries.
    a.send({ type: 'action', action_id: 'c3', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    e.send(
      success((await e.next(isAction)) as ActionMessage, {
        new_simplified_state: { url: 'https://mail.test/', title: 'Mail', tab_id: 7, actionable_elements: [] },
      }),
    );
    const r = await refused(a, 'c3');
    expect(JSON.stringify(r)).not.to.contain('mail.test');
    // open_tab "returning" another session's tab does not hand it over.
    a.send({ type: 'action', action_id: 'o1', action: 'open_tab', params: { url: 'https://x.test/' }, tab_id: 4 });
    const open = (await e.next(isAction)) as ActionMessage;
    e.send(success(open, { tab_id: 7, outcome_details: { message: 'Opened.', result: { tab_id: 7 } } }));
    expect((await refused(a, 'o1')).error_info?.message).to.match(/a tab of another agent session/);
    const status = (await (await fetch(`http://127.0.0.1:${bridge.port}/status`)).json()) as {
      sessions: { session_id: string; tabs: { tab_id: number }[] }[];
    };
    expect(status.sessions.find((s) => s.session_id === owner.ack?.session_id)?.tabs.map((t) => t.tab_id)).to.deep.equal([7]);
    expect(status.sessions.find((s) => s.session_id === a.ack?.session_id)?.tabs).to.deep.equal([]);
  });

  it("closing a tab whose window then shows another session's tab is a success without that tab or its page", async () => {
    const e = await ext();
    const owner = await agent();
    await lease(e, owner, 7);
    const a = await agent();
    await lease(e, a, 4);
    a.send({ type: 'action', action_id: 'x1', action: 'close_tab', params: {}, tab_id: 4 });
    // The real extension answers with the tab now active in that window, and its state.
    e.send(
      success((await e.next(isAction)) as ActionMessage, {
        tab_id: 7,
        outcome_details: { message: 'Closed tab 4. Tab 7 is now active in that window.', result: { closed_tab_id: 4, active_tab_id: 7 } },
        new_simplified_state: { url: 'https://mail.test/', title: 'Mail', tab_id: 7, actionable_elements: [] },
      }),
    );
    const r = (await a.next((m) => isResult(m) && m.original_action_id === 'x1')) as ActionResultMessage;
    expect(r.status).to.equal('success');
    expect(r.outcome_details?.result).to.deep.equal({ closed_tab_id: 4, active_tab_id: null });
    expect(JSON.stringify(r)).not.to.match(/mail\.test|Tab 7/);
    expect(r.tab_id).to.equal(undefined);
    const status = (await (await fetch(`http://127.0.0.1:${bridge.port}/status`)).json()) as {
      sessions: { session_id: string; tabs: { tab_id: number }[] }[];
    };
    expect(status.sessions.find((s) => s.session_id === owner.ack?.session_id)?.tabs.map((t) => t.tab_id)).to.deep.equal([7]);
    expect(status.sessions.find((s) => s.session_id === a.ack?.session_id)?.tabs).to.deep.equal([]);
  });

  it("list_tabs without a tab, answered from another session's active tab, passes and hands nothing over", async () => {
    const e = await ext();
    const owner = await agent();
    await lease(e, owner, 7);
    const a = await agent();
    a.send({ type: 'action', action_id: 'l1', action: 'list_tabs', params: {} });
    const sent = (await e.next(isAction)) as ActionMessage;
    expect(sent.tab_id).to.equal(undefined);
    // The worker resolves the browser's active tab (the owner's) and names it in tab_id.
    e.send(success(sent, { tab_id: 7, outcome_details: { message: '1 open tab.', result: { tabs: [] } } }));
    const r = (await a.next((m) => isResult(m) && m.original_action_id === 'l1')) as ActionResultMessage;
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    const status = (await (await fetch(`http://127.0.0.1:${bridge.port}/status`)).json()) as {
      sessions: { session_id: string; tabs: { tab_id: number }[] }[];
    };
    expect(status.sessions.find((s) => s.session_id === a.ack?.session_id)?.tabs).to.deep.equal([]);
  });

  it('a success carrying an error, or a result for another action, is refused; a proper open_tab still passes', async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: 'c4', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    e.send(
      success((await e.next(isAction)) as ActionMessage, {
        error_info: { error_code: 'ELEMENT_NOT_FOUND', message: 'gone', component_origin: 'content_script' },
      }),
    );
    // The schema refuses this one already (invalid message): still a typed failure, never a success.
    const c4 = (await a.next((m) => isResult(m) && m.original_action_id === 'c4')) as ActionResultMessage;
    expect([c4.status, c4.error_info?.error_code]).to.deep.equal(['error', 'EXTENSION_INTERNAL_ERROR']);
    a.send({ type: 'action', action_id: 'c5', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    e.send(success((await e.next(isAction)) as ActionMessage, { action: 'get_state' }));
    await refused(a, 'c5');
    // A browser-level action legitimately answers with the tab it opened.
    a.send({ type: 'action', action_id: 'o2', action: 'open_tab', params: { url: 'https://x.test/' }, tab_id: 4 });
    const open = (await e.next(isAction)) as ActionMessage;
    e.send(success(open, { tab_id: 12, outcome_details: { message: 'Opened.', result: { tab_id: 12 } } }));
    const ok = (await a.next((m) => isResult(m) && m.original_action_id === 'o2')) as ActionResultMessage;
    expect(ok.status).to.equal('success');
    expect(ok.tab_id).to.equal(12);
  });
});
