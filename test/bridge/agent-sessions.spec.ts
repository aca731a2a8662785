// What the person sees and controls through the bridge, over real `ws` with a hand-driven
// extension: agent_sessions (name, tabs), session_control (release a tab, disconnect an agent, tab
// limit), the crashed-predecessor rule, one-time pairing codes on POST /pair, and the close codes
// that tell a peer its secret or version was refused.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { bridgeProof } from '../../bridge/common/auth';
import { createLogger } from '../../bridge/common/log';
import { writePairingCode } from '../../bridge/src/pairing';
import { type BridgeOptions, BridgeServer } from '../../bridge/src/server';
import type {
  ActionMessage,
  ActionResultMessage,
  AgentSessionsMessage,
  ProtocolMessage,
  TabReleasedMessage,
} from '../../schemas/generated/protocol';
import { EXTENSION_ORIGIN, type HelloOptions, RawPeer } from './raw-peer';

const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';
const isResult = (m: ProtocolMessage): m is ActionResultMessage => m.type === 'action_result';
const ok = (id: string, tabId: number, action: ActionMessage['action'] = 'get_state'): ActionResultMessage => ({
  type: 'action_result',
  original_action_id: id,
  action,
  tab_id: tabId,
  status: 'success',
  outcome_details: { message: 'ok' },
  new_simplified_state: null,
  error_info: null,
});

describe('bridge: agent sessions for the person, pairing codes, refusal close codes (real ws)', () => {
  let bridge: BridgeServer;
  const logs: string[] = [];
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async () => track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
  const agent = async (o: Partial<HelloOptions> = {}) =>
    track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, ...o }));
  const sessionsMsg = (e: RawPeer, pred: (m: AgentSessionsMessage) => boolean) =>
    e.next((m) => m.type === 'agent_sessions' && pred(m)) as Promise<AgentSessionsMessage>;
  /** An agent acts on tabId and the fake extension answers: the agent then holds the tab. */
  const lease = async (e: RawPeer, a: RawPeer, tabId: number, id = `g${tabId}`) => {
    a.send({ type: 'action', action_id: id, action: 'get_state', params: {}, tab_id: tabId });
    const relayed = (await e.next((m) => isAction(m) && m.tab_id === tabId)) as ActionMessage;
    e.send(ok(relayed.action_id, tabId));
    return (await a.next((m) => isResult(m) && m.original_action_id === id)) as ActionResultMessage;
  };

  async function start(extra: Partial<BridgeOptions> = {}) {
    logs.length = 0;
    bridge = createBridge({ port: 0, logger: createLogger('info', (l) => logs.push(l)), defaultTimeoutMs: 2000, ...extra });
    await bridge.start();
  }
  beforeEach(() => start());
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  it('lists agent sessions to the extension with name, version, tabs and tasks as they change', async () => {
    const e = await ext();
    expect((await sessionsMsg(e, () => true)).sessions).to.deep.equal([]);
    const a = await agent({ clientName: 'my-shopper', capabilities: ['accepts_tasks'] });
    const listed = await sessionsMsg(e, (m) => m.sessions.length === 1);
    expect(listed.sessions[0]).to.deep.include({
      client: { name: 'my-shopper', version: '0' },
      capabilities: ['accepts_tasks'],
      connected: true,
      tabs: [],
      task_ids: [],
      max_tabs: 10,
    });
    await lease(e, a, 42);
    const withTab = await sessionsMsg(e, (m) => m.sessions[0]?.tabs.length === 1);
    expect(withTab.sessions[0]?.tabs).to.deep.equal([{ tab_id: 42, url: null }]);
    a.ws.terminate();
    const away = await sessionsMsg(e, (m) => m.sessions[0]?.connected === false);
    expect(away.sessions[0]?.release_in_ms).to.be.a('number').within(1, 60_000);
  });

  it('release_tab takes a tab from its agent (tab_released released_by_user); disconnect ends a session with 4003', async () => {
    const e = await ext();
    const a = await agent();
    await lease(e, a, 7);
    const sid = a.ack?.session_id as string;
    e.send({ type: 'session_control', command: 'release_tab', session_id: sid, tab_id: 7 });
    const released = (await a.next((m) => m.type === 'tab_released')) as TabReleasedMessage;
    expect(released).to.deep.include({ tab_id: 7, reason: 'released_by_user' });
    await sessionsMsg(e, (m) => m.sessions[0]?.tabs.length === 0);
    // Releasing a tab nobody holds says so.
    e.send({ type: 'session_control', command: 'release_tab', tab_id: 7 });
    expect(((await e.next((m) => m.type === 'error')) as { error_info: { error_code: string } }).error_info.error_code).to.equal(
      'TAB_NOT_FOUND',
    );
    await lease(e, a, 8);
    e.send({ type: 'session_control', command: 'disconnect', session_id: sid });
    expect((await a.waitClose()).code).to.equal(4003);
    await sessionsMsg(e, (m) => m.sessions.length === 0);
    // Its tab is free at once for another agent.
    const b = await agent();
    expect((await lease(e, b, 8)).status).to.equal('success');
  });

  it("set_tab_limit caps every agent's tab limit (the person's setting)", async () => {
    const e = await ext();
    e.send({ type: 'session_control', command: 'set_tab_limit', max_tabs: 2 });
    await new Promise((r) => setTimeout(r, 50));
    const a = await agent({ maxTabs: 5 });
    expect(a.ack?.max_tabs).to.equal(2);
    await lease(e, a, 1);
    await lease(e, a, 2);
    await lease(e, a, 3);
    expect(((await a.next((m) => m.type === 'tab_released')) as TabReleasedMessage).tab_id).to.equal(1);
    e.send({ type: 'session_control', command: 'set_tab_limit', max_tabs: null });
    await sessionsMsg(e, (m) => m.sessions[0]?.max_tabs === 5);
  });

  it("a re-run of the same agent takes back its crashed predecessor's tabs; another agent is told who holds them and why", async () => {
    const e = await ext();
    const first = await agent({ clientName: 'shop-bot' });
    await lease(e, first, 5);
    first.ws.terminate(); // killed: no goodbye, the session waits 60 s for a resume
    await sessionsMsg(e, (m) => m.sessions[0]?.connected === false);
    const other = await agent({ clientName: 'someone-else' });
    other.send({ type: 'action', action_id: 'x', action: 'click', params: { element_id: 'e1' }, tab_id: 5 });
    const refused = (await other.next(isResult)) as ActionResultMessage;
    expect(refused.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    expect(refused.error_info?.message)
      .to.contain('"shop-bot"')
      .and.to.contain('disconnected without saying goodbye')
      .and.to.contain('side panel');
    const rerun = await agent({ clientName: 'shop-bot' });
    expect((await lease(e, rerun, 5)).status).to.equal('success');
    const after = await sessionsMsg(e, (m) => m.sessions.some((s) => s.session_id === rerun.ack?.session_id && s.tabs.length === 1));
    expect(after.sessions.map((s) => s.session_id)).not.to.include(first.ack?.session_id);
  });

  it('pairs the extension with a one-time code on POST /pair (extension Origin only)', async () => {
    const url = `http://127.0.0.1:${bridge.port}/pair`;
    const post = (code: string, origin: string | null) =>
      fetch(url, { method: 'POST', body: JSON.stringify({ code }), headers: origin ? { origin } : {} });
    const code = bridge.pairing.create();
    expect((await post(code, 'http://evil.test')).status).to.equal(403);
    expect((await post('AAAA-BBBB', EXTENSION_ORIGIN)).status).to.equal(401);
    const good = await post(code.toLowerCase().replace('-', ' '), EXTENSION_ORIGIN);
    expect(good.status).to.equal(200);
    expect(await good.json()).to.deep.equal({ extension_secret: bridge.secrets.extension_secret, bridge_url: bridge.extensionUrl });
    expect((await post(code, EXTENSION_ORIGIN)).status, 'codes work once').to.equal(401);
    for (const l of logs) expect(l).not.to.contain(bridge.secrets.extension_secret).and.not.to.contain(code);
  });

  it('a current tab closed by the page never blocks open_tab: the stale lease goes (tab_closed) and open_tab runs', async () => {
    const e = await ext();
    const a = await agent();
    await lease(e, a, 7);
    a.send({ type: 'action', action_id: 'o1', action: 'open_tab', params: { url: 'https://example.org/' } });
    // The bridge first sends it for the current tab (its window); the page had closed that tab.
    const first = (await e.next((m) => isAction(m) && m.action === 'open_tab')) as ActionMessage;
    expect(first.tab_id).to.equal(7);
    e.send({
      type: 'action_result',
      original_action_id: first.action_id,
      action: 'open_tab',
      tab_id: 7,
      status: 'error',
      outcome_details: null,
      new_simplified_state: null,
      error_info: { error_code: 'TAB_NOT_FOUND', message: 'No tab with id 7.', component_origin: 'background_script' },
    });
    const released = (await a.next((m) => m.type === 'tab_released')) as TabReleasedMessage;
    expect(released).to.deep.include({ tab_id: 7, reason: 'tab_closed' });
    const again = (await e.next((m) => isAction(m) && m.action === 'open_tab')) as ActionMessage;
    expect(again.tab_id, 'sent again for the browser, not the closed tab').to.equal(undefined);
    e.send({ ...ok(again.action_id, 5), action: 'open_tab', outcome_details: { message: 'Opened.', result: { tab_id: 9 } } });
    const r = (await a.next((m) => isResult(m) && m.original_action_id === 'o1')) as ActionResultMessage;
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    const listed = await sessionsMsg(e, (m) => m.sessions[0]?.tabs.some((t) => t.tab_id === 9) ?? false);
    expect(
      listed.sessions[0]?.tabs.map((t) => t.tab_id),
      'the opened tab, not the active one (5)',
    ).to.deep.equal([9]);
    // A page action without tab_id still means the closed tab's successor: the new current tab.
    a.send({ type: 'action', action_id: 'g2', action: 'get_state', params: {} });
    expect(((await e.next((m) => isAction(m) && m.action_id !== again.action_id)) as ActionMessage).tab_id).to.equal(9);
  });

  it('accepts a code `browser-use-ext pair` wrote to the config dir, once', async () => {
    await bridge.close();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-pair-'));
    try {
      await start({ configDir: dir });
      const { code, file } = writePairingCode(dir);
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
      expect(fs.readFileSync(file, 'utf8')).not.to.contain(code.replace('-', ''));
      const r = await fetch(`http://127.0.0.1:${bridge.port}/pair`, {
        method: 'POST',
        body: JSON.stringify({ code }),
        headers: { origin: EXTENSION_ORIGIN },
      });
      expect(r.status).to.equal(200);
      expect(fs.existsSync(file)).to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs at WARN when a client closes the handshake with 4001 (its secret differs), revealing nothing', async () => {
    const p = track(await RawPeer.open(bridge.extensionUrl, { Origin: EXTENSION_ORIGIN }));
    const cn = crypto.randomBytes(16).toString('base64');
    p.send({
      type: 'hello',
      role: 'extension',
      protocol_version: 1,
      client: { name: 'x', version: '0' },
      capabilities: [],
      client_nonce: cn,
    });
    const challenge = await p.next((m) => m.type === 'auth_challenge');
    if (challenge.type !== 'auth_challenge') throw new Error('unexpected');
    // The client's outdated secret gives a different bridge proof; it says so and leaves.
    expect(challenge.bridge_proof).not.to.equal(bridgeProof('an-outdated-secret-000000', cn));
    p.ws.close(4001, 'pairing secret mismatch');
    await p.waitClose();
    await new Promise((r) => setTimeout(r, 50));
    const warn = logs.find((l) => l.includes('WARN') && l.includes('pairing secret does not match'));
    expect(warn).to.be.a('string');
    expect(warn).not.to.contain(bridge.secrets.extension_secret);
  });

  it('refuses another protocol version with VERSION_MISMATCH, close 4002 and which side to upgrade', async () => {
    await bridge.close();
    await start({ protocolVersion: 2 });
    const p = track(await RawPeer.open(bridge.extensionUrl, { Origin: EXTENSION_ORIGIN }));
    p.send({
      type: 'hello',
      role: 'extension',
      protocol_version: 1,
      client: { name: 'x', version: '0' },
      capabilities: [],
      client_nonce: crypto.randomBytes(16).toString('base64'),
    });
    const err = await p.next((m) => m.type === 'error');
    if (err.type !== 'error') throw new Error('unexpected');
    expect(err.error_info.error_code).to.equal('VERSION_MISMATCH');
    expect(err.error_info.details).to.deep.include({ bridge_protocol_version: 2, peer_protocol_version: 1, upgrade: 'extension' });
    const closed = await p.waitClose();
    expect(closed.code).to.equal(4002);
    expect(closed.reason).to.contain('upgrade the extension');
  });
});
