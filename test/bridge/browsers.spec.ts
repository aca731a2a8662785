// Several browsers on one bridge, over real `ws` with hand-driven extensions: two browser profiles
// with overlapping tab ids each keep their own agents, commands, events, panel list and Stop; agents
// choose a browser by name or get the one used last; an unknown name fails fast listing the
// connected ones; one browser restarting disturbs only its own agents; names stay unique.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import { WebSocketServer } from 'ws';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import type {
  ActionMessage,
  ActionResultMessage,
  AgentSessionsMessage,
  BrowserInfo,
  ErrorMessage,
  ExtensionStatusMessage,
  ProtocolMessage,
  UserTaskSubmissionMessage,
} from '../../schemas/generated/protocol';
import { type HelloOptions, RawPeer } from './raw-peer';

const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';
const isResult = (m: ProtocolMessage): m is ActionResultMessage => m.type === 'action_result';
const ok = (id: string, tabId: number): ActionResultMessage => ({
  type: 'action_result',
  original_action_id: id,
  action: 'get_state',
  tab_id: tabId,
  status: 'success',
  outcome_details: { message: 'ok' },
  new_simplified_state: null,
  error_info: null,
});
const ID_A = 'profileAAAA01';
const ID_B = 'profileBBBB02';

describe('bridge: several browsers at once (real ws)', () => {
  let bridge: BridgeServer;
  let dir: string;
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async (id: string | null, name?: string, brand = 'Google Chrome') =>
    track(
      await RawPeer.hello(bridge.extensionUrl, 'extension', {
        secret: bridge.secrets.extension_secret,
        hello:
          id === null
            ? {}
            : {
                browser_id: id,
                ...(name ? { browser_name: name } : {}),
                browser: { product: 'Chrome/144.0.1.2', user_agent: 'Mozilla/5.0 Chrome/144.0.1.2', brand },
              },
      }),
    );
  const agent = async (browser?: string, o: Partial<HelloOptions> = {}) =>
    track(
      await RawPeer.hello(bridge.agentUrl, 'agent', {
        secret: bridge.secrets.agent_secret,
        ...o,
        hello: browser === undefined ? {} : { browser_name: browser },
      }),
    );
  /** The agent acts on tabId; the extension that gets it answers. Resolves with who got it and the result. */
  const act = async (a: RawPeer, e: RawPeer, tabId: number, id: string) => {
    a.send({ type: 'action', action_id: id, action: 'get_state', params: {}, tab_id: tabId });
    const relayed = (await e.next((m) => isAction(m) && m.tab_id === tabId)) as ActionMessage;
    e.send(ok(relayed.action_id, tabId));
    return (await a.next((m) => isResult(m) && m.original_action_id === id)) as ActionResultMessage;
  };
  const sessionsOf = (e: RawPeer, pred: (m: AgentSessionsMessage) => boolean) =>
    e.next((m) => m.type === 'agent_sessions' && pred(m)) as Promise<AgentSessionsMessage>;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-browsers-'));
    bridge = createBridge({ port: 0, logger: createLogger('silent'), defaultTimeoutMs: 3000, configDir: dir });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('two browsers with the same tab id: each agent reaches only its own browser, and hears only its events', async () => {
    const eA = await ext(ID_A, 'Work');
    const eB = await ext(ID_B, 'Personal');
    expect(eA.ack?.browser).to.deep.include({ browser_id: ID_A, name: 'Work', brand: 'Google Chrome', connected: true });
    const a = await agent('work'); // case-insensitive
    const b = await agent('Personal');
    expect(a.ack?.browser?.name).to.equal('Work');
    expect(b.ack?.browser?.name).to.equal('Personal');
    expect(a.ack?.browsers?.map((x) => x.name)).to.have.members(['Work', 'Personal']);
    // Both hold "tab 5": one in each browser.
    expect((await act(a, eA, 5, 'a1')).status).to.equal('success');
    expect((await act(b, eB, 5, 'b1')).status).to.equal('success');
    expect(eB.received.filter(isAction), "A's command never reaches B").to.deep.equal([]);
    // B's events of its tab 5 go to B's agent only.
    eB.send({ type: 'cdp_event', tab_id: 5, method: 'Page.loadEventFired', params: { timestamp: 1 } });
    await b.next((m) => m.type === 'cdp_event');
    const state = { url: 'https://a.test/', title: 'A', tab_id: 5, actionable_elements: [] };
    eA.send({ type: 'state_update', tab_id: 5, reason: 'mutation', state });
    await a.next((m) => m.type === 'state_update');
    expect(a.received.filter((m) => m.type === 'cdp_event')).to.deep.equal([]);
    expect(b.received.filter((m) => m.type === 'state_update')).to.deep.equal([]);
    // /status lists both browsers with their counts, and each session's browser.
    const status = bridge.status() as { browsers: BrowserInfo[]; sessions: { browser: string | null; tabs: unknown[] }[] };
    expect(status.browsers.map((x) => [x.name, x.connected, x.agents, x.held_tabs])).to.deep.equal([
      ['Work', true, 1, 1],
      ['Personal', true, 1, 1],
    ]);
    expect(status.sessions.map((s) => s.browser)).to.deep.equal(['Work', 'Personal']);
  });

  it('an agent naming no browser gets the one focused last and is told which; an unknown name fails fast listing the connected', async () => {
    const eA = await ext(ID_A, 'Work');
    const eB = await ext(ID_B, 'Personal');
    expect((await agent()).ack?.browser?.name, 'none focused yet: the one connected first').to.equal('Work');
    eB.send({ type: 'browser_update', focused_at: Date.now() });
    await sessionsOf(eA, (m) => m.other_browsers?.some((x) => x.name === 'Personal' && x.agents === 0) === true);
    const c = await agent();
    expect(c.ack?.browser?.name).to.equal('Personal');
    const lost = await agent('Travel');
    expect(lost.ack?.browser, 'no browser bound').to.equal(undefined);
    lost.send({ type: 'action', action_id: 'x1', action: 'get_state', params: {}, tab_id: 5 });
    const r = (await lost.next(isResult, 1000)) as ActionResultMessage;
    expect(r.error_info?.error_code).to.equal('BROWSER_NOT_CONNECTED');
    expect(r.error_info?.message).to.contain('"Travel"').and.to.contain('"Work", "Personal"');
    expect(r.error_info?.details).to.deep.equal({ connected: ['Work', 'Personal'] });
    expect([...eA.received, ...eB.received].filter(isAction)).to.deep.equal([]);
  });

  it('one browser restarting replaces only its own connection: its agents wait and go on, the other browser is undisturbed', async () => {
    const eA = await ext(ID_A, 'Work');
    const eB = await ext(ID_B, 'Personal');
    const a = await agent('Work');
    const b = await agent('Personal');
    await act(a, eA, 5, 'a1');
    // A's worker reconnects before its old socket is gone: only A's old connection is replaced.
    const eA2 = await ext(ID_A, 'Work');
    expect((await eA.waitClose()).reason).to.contain('replaced');
    expect(eB.closed).to.equal(null);
    expect(eA2.ack?.browser?.name, 'its own name, not "Work 2"').to.equal('Work');
    // A goes away: A's agent is told (naming A), B's agent hears nothing and keeps working.
    eA2.close();
    const away = (await a.next((m) => m.type === 'extension_status')) as ExtensionStatusMessage;
    expect(away.connected).to.equal(false);
    expect(away.browser?.name).to.equal('Work');
    a.send({ type: 'action', action_id: 'a2', action: 'get_state', params: {}, tab_id: 5 });
    // An agent starting while A restarts names it: it waits for A too, as one already working there.
    const late = await agent('Work');
    expect(late.ack?.browser).to.deep.include({ name: 'Work', connected: false });
    late.send({ type: 'action', action_id: 'l1', action: 'get_state', params: {}, tab_id: 9 });
    expect((await act(b, eB, 5, 'b1')).status).to.equal('success');
    expect(b.received.filter((m) => m.type === 'extension_status')).to.deep.equal([]);
    // A is back: the waiting actions go to it, with the same tab ids.
    const eA3 = await ext(ID_A, 'Work');
    const back = (await a.next((m) => m.type === 'extension_status')) as ExtensionStatusMessage;
    expect(back.connected).to.equal(true);
    for (const tabId of [5, 9]) {
      const relayed = (await eA3.next((m) => isAction(m) && m.tab_id === tabId)) as ActionMessage;
      eA3.send(ok(relayed.action_id, tabId));
    }
    expect(((await a.next(isResult)) as ActionResultMessage).status).to.equal('success');
    expect(((await late.next(isResult)) as ActionResultMessage).status).to.equal('success');
    expect(eB.received.filter(isAction)).to.deep.equal([]);
  });

  it('names stay unique: a second browser with a taken name is numbered, a rename to a taken name is refused, names survive a restart', async () => {
    const eA = await ext(ID_A, undefined, 'Google Chrome');
    expect(eA.ack?.browser?.name, 'suggested from the brand').to.equal('Chrome');
    const eB = await ext(ID_B, 'chrome');
    expect(eB.ack?.browser?.name).to.equal('chrome 2');
    eB.send({ type: 'browser_update', name: 'CHROME' });
    const err = (await eB.next((m) => m.type === 'error')) as ErrorMessage;
    expect(err.error_info.error_code).to.equal('NOT_PERMITTED');
    expect(err.error_info.message).to.contain('"Chrome"').and.to.contain('keeps the name "chrome 2"');
    eB.send({ type: 'browser_update', name: 'Personal' });
    await sessionsOf(eA, (m) => m.other_browsers?.[0]?.name === 'Personal');
    const edge = await ext('profileEDGE03', undefined, 'Microsoft Edge');
    expect(edge.ack?.browser?.name).to.equal('Edge');
    const saved = JSON.parse(fs.readFileSync(path.join(dir, 'browsers.json'), 'utf8')) as { browsers: { name: string }[] };
    expect(saved.browsers.map((x) => x.name)).to.deep.equal(['Chrome', 'Personal', 'Edge']);
    // After a restart, a new profile asking for "Personal" (known, though not connected) gets "Personal 2".
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    bridge = createBridge({ port: 0, logger: createLogger('silent'), configDir: dir });
    await bridge.start();
    expect((await ext('profileNEW004', 'Personal')).ack?.browser?.name).to.equal('Personal 2');
  });

  it("each panel lists and controls only its own browser's agents and tasks", async () => {
    const eA = await ext(ID_A, 'Work');
    const eB = await ext(ID_B, 'Personal');
    const a = await agent('Work', { clientName: 'work-agent', capabilities: ['accepts_tasks'] });
    const b = await agent('Personal', { clientName: 'home-agent' });
    const listA = await sessionsOf(eA, (m) => m.sessions.length === 1);
    expect(listA.sessions[0]?.client.name).to.equal('work-agent');
    expect(listA.browser?.name).to.equal('Work');
    await sessionsOf(eB, (m) => m.sessions[0]?.client.name === 'home-agent' && m.other_browsers?.[0]?.agents === 1);
    // B's panel cannot Stop A's agent.
    eB.send({ type: 'session_control', command: 'disconnect', session_id: a.ack?.session_id });
    const refused = (await eB.next((m) => m.type === 'error')) as ErrorMessage;
    expect(refused.error_info.error_code).to.equal('NOT_PERMITTED');
    expect(a.closed).to.equal(null);
    // A task typed in B's panel does not go to A's agent (it works in A): no agent takes tasks in B.
    const task = {
      type: 'user_task_submission',
      task_id: 't-1',
      user_prompt: 'Find a stapler.',
      timestamp: '2026-12-06T00:00:00Z',
      context: { url: 'https://shop.test/', page_title: 'Shop', selected_text: null, active_tab_id: 5 },
    };
    eB.send(task);
    expect(((await eB.next((m) => m.type === 'error')) as ErrorMessage).error_info.error_code).to.equal('NO_TASK_AGENT');
    eA.send({ ...task, task_id: 't-2' });
    expect(((await a.next((m) => m.type === 'user_task_submission')) as UserTaskSubmissionMessage).task_id).to.equal('t-2');
    // B's panel cannot stop A's task; A's panel Stops A's agent, and B's agent goes on.
    eB.send({ type: 'task_control', task_id: 't-2', command: 'stop' });
    expect(((await eB.next((m) => m.type === 'error')) as ErrorMessage).error_info.error_code).to.equal('NOT_PERMITTED');
    eA.send({ type: 'session_control', command: 'disconnect', session_id: a.ack?.session_id });
    await a.waitClose();
    expect(b.closed).to.equal(null);
    expect((await act(b, eB, 7, 'b1')).status).to.equal('success');
  });

  it('after a bridge restart a resumed session waits for its own browser, even when another connects first', async () => {
    const stateFile = path.join(dir, 'sessions.json');
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    const secrets = bridge.secrets;
    bridge = createBridge({ port: 0, logger: createLogger('silent'), configDir: dir, stateFile, secrets });
    await bridge.start();
    const eA = await ext(ID_A, 'Work');
    await ext(ID_B, 'Personal');
    const a = await agent('Work');
    await act(a, eA, 5, 'a1');
    const token = a.ack?.session_token ?? '';
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    bridge = createBridge({ port: 0, logger: createLogger('silent'), configDir: dir, stateFile, secrets });
    await bridge.start();
    const eB = await ext(ID_B, 'Personal');
    const resumed = await agent(undefined, { sessionToken: token });
    expect(resumed.ack?.resumed).to.equal(true);
    expect(resumed.ack?.leased_tab_ids).to.deep.equal([5]);
    resumed.send({ type: 'action', action_id: 'a2', action: 'get_state', params: {}, tab_id: 5 });
    const eA2 = await ext(ID_A, 'Work');
    const relayed = (await eA2.next(isAction)) as ActionMessage;
    eA2.send(ok(relayed.action_id, 5));
    expect(((await resumed.next(isResult)) as ActionResultMessage).status).to.equal('success');
    expect(eB.received.filter(isAction), 'never sent to the browser that came first').to.deep.equal([]);
  });

  it('an agent that connected before any browser works in the first that connects; an old extension without an id is one browser', async () => {
    const early = await agent();
    expect(early.ack?.browser).to.equal(undefined);
    const old = await ext(null);
    expect(old.ack?.browser).to.deep.include({ browser_id: 'default', name: 'Chrome', connected: true });
    const told = (await early.next((m) => m.type === 'extension_status')) as ExtensionStatusMessage;
    expect(told.browser?.name).to.equal('Chrome');
    expect((await act(early, old, 3, 'e1')).status).to.equal('success');
  });

  it("a backend connector started from B's panel works in B, also after the bridge restarts, while A is the one used last", async () => {
    const eA = await ext(ID_A, 'Work');
    const eB = await ext(ID_B, 'Personal');
    eA.send({ type: 'browser_update', focused_at: Date.now() }); // A is the default for agents that name none
    // A backend that accepts the connector's link and says nothing: the connector's agent session is what is under test.
    const backend = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => backend.once('listening', () => r()));
    const url = `ws://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    try {
      eB.send({ type: 'connector_control', command: 'add', request_id: 'c1', dialect: '001', url });
      await eB.next((m) => m.type === 'backend_connectors' && m.request_id === 'c1');
      const connectorIn = () => {
        const status = bridge.status() as { sessions: { client: { name: string } | null; browser: string | null }[] };
        return status.sessions.filter((s) => s.client?.name.includes('connector')).map((s) => s.browser);
      };
      expect(connectorIn()).to.deep.equal(['Personal']);
      // The saved connector keeps its browser: the bridge dials it again in B after a restart.
      for (const p of peers.splice(0)) p.close();
      await bridge.close();
      bridge = createBridge({ port: 0, logger: createLogger('silent'), configDir: dir });
      await bridge.start();
      await ext(ID_A, 'Work');
      await ext(ID_B, 'Personal');
      const end = Date.now() + 5000;
      while (connectorIn().length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(connectorIn()).to.deep.equal(['Personal']);
    } finally {
      for (const c of backend.clients) c.terminate(); // close() waits for open connections
      await new Promise<void>((r) => backend.close(() => r()));
    }
  });
});
