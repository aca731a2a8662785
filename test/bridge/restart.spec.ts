// Sessions and leases survive a bridge restart: the persisted file, resuming
// with the same token and tabs, no race for the active tab, and the TS client riding it out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import { newSecret, type Secrets } from '../../bridge/common/secrets';
import { BridgeServer } from '../../bridge/src/server';
import { SESSIONS_FILE, tokenHash } from '../../bridge/src/session-store';
import type { ActionMessage, ActionResultMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

const isResult = (m: ProtocolMessage): m is ActionResultMessage => m.type === 'action_result';
const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';

describe('bridge restart keeps sessions and leases (real ws)', () => {
  let dir: string;
  let secrets: Secrets;
  let bridge: BridgeServer | null = null;
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const start = async (port = 0) => {
    bridge = createBridge({
      port,
      secrets,
      stateFile: path.join(dir, SESSIONS_FILE),
      logger: createLogger(process.env['BUX_LOG'] === 'debug' ? 'debug' : 'silent'),
      defaultTimeoutMs: 3000,
    });
    await bridge.start();
    return bridge;
  };
  /** A fake extension answering every action with success on the action's tab. */
  const fakeExtension = async (b: BridgeServer) => {
    const e = track(await RawPeer.hello(b.extensionUrl, 'extension', { secret: secrets.extension_secret }));
    const onMessage = (m: ProtocolMessage) => {
      if (!isAction(m)) return;
      const tab = m.action === 'list_tabs' ? undefined : (m.tab_id ?? 99);
      const result = m.action === 'list_tabs' ? { tabs: [{ tab_id: 99, active: true, url: 'http://a/', title: 'A' }] } : {};
      e.send({
        type: 'action_result',
        original_action_id: m.action_id,
        action: m.action,
        ...(tab === undefined ? {} : { tab_id: tab }),
        status: 'success',
        outcome_details: { message: `ran ${m.action}`, navigation_occurred: false, result },
        new_simplified_state: null,
        error_info: null,
      });
    };
    // Actions that arrived right behind hello_ack, before this handler existed.
    for (const m of e.received) onMessage(m);
    e.ws.on('message', (d) => onMessage(JSON.parse(d.toString()) as ProtocolMessage));
    return e;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-restart-'));
    secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge?.close();
    bridge = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resumes the same session with its tabs after a restart; the file holds a token hash, mode 0600', async () => {
    const b1 = await start();
    const port = b1.port;
    await fakeExtension(b1);
    const a = track(await RawPeer.hello(b1.agentUrl, 'agent', { secret: secrets.agent_secret }));
    const other = track(await RawPeer.hello(b1.agentUrl, 'agent', { secret: secrets.agent_secret }));
    a.send({ type: 'action', action_id: 'x1', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    expect(((await a.next(isResult)) as ActionResultMessage).status).to.equal('success');
    other.send({ type: 'action', action_id: 'y1', action: 'click', params: { element_id: 'e1' }, tab_id: 7 });
    expect(((await other.next(isResult)) as ActionResultMessage).status).to.equal('success');
    const token = a.ack?.session_token as string;
    const otherToken = other.ack?.session_token as string;
    await b1.close();
    const file = path.join(dir, SESSIONS_FILE);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.to.contain(token);
    expect(text).to.contain(tokenHash(token));
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);

    const b2 = await start(port);
    await fakeExtension(b2);
    const a2 = track(await RawPeer.hello(b2.agentUrl, 'agent', { secret: secrets.agent_secret, sessionToken: token }));
    expect(a2.ack?.resumed).to.equal(true);
    expect(a2.ack?.session_id).to.equal(a.ack?.session_id);
    expect(a2.ack?.session_token).to.equal(token);
    expect(a2.ack?.leased_tab_ids).to.deep.equal([4]);
    // No race for the active tab: an action without tab_id goes to the session's own current tab.
    a2.send({ type: 'action', action_id: 'x2', action: 'get_state', params: {} });
    const r = (await a2.next(isResult)) as ActionResultMessage;
    expect(r.status).to.equal('success');
    expect(r.tab_id).to.equal(4);
    // The other session's lease (still detached) holds too.
    a2.send({ type: 'action', action_id: 'x3', action: 'click', params: { element_id: 'e1' }, tab_id: 7 });
    expect(((await a2.next(isResult)) as ActionResultMessage).error_info?.error_code).to.equal('TAB_NOT_LEASED');
    const o2 = track(await RawPeer.hello(b2.agentUrl, 'agent', { secret: secrets.agent_secret, sessionToken: otherToken }));
    expect(o2.ack?.resumed).to.equal(true);
    expect(o2.ack?.leased_tab_ids).to.deep.equal([7]);
  });

  it('holds an action while the extension is away (worker restart) and runs it when it is back, within its timeout', async () => {
    const b = await start();
    const e1 = await fakeExtension(b);
    const a = track(await RawPeer.hello(b.agentUrl, 'agent', { secret: secrets.agent_secret }));
    e1.close();
    await a.next((m) => m.type === 'extension_status');
    a.send({ type: 'action', action_id: 'held', action: 'click', params: { element_id: 'e1' }, tab_id: 3, timeout_ms: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    const e2 = await fakeExtension(b);
    const r = (await a.next(isResult)) as ActionResultMessage;
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    // Bounded: with no extension coming back it is NO_EXTENSION_CONNECTED after the action's timeout.
    e2.close();
    await e2.waitClose();
    await new Promise((r) => setTimeout(r, 100));
    expect(b.extensionConnected).to.equal(false);
    const t = Date.now();
    a.send({ type: 'action', action_id: 'alone', action: 'click', params: { element_id: 'e1' }, tab_id: 3, timeout_ms: 400 });
    const r2 = (await a.next(isResult)) as ActionResultMessage;
    expect(r2.error_info?.error_code).to.equal('NO_EXTENSION_CONNECTED');
    expect(Date.now() - t).to.be.within(350, 1500);
  });

  it('asks a read again when the extension dropped while it ran, and holds actions briefly after a restart', async () => {
    const b1 = await start();
    const port = b1.port;
    // An extension that never answers: the read is in flight when it drops.
    const mute = track(await RawPeer.hello(b1.extensionUrl, 'extension', { secret: secrets.extension_secret }));
    const a = track(await RawPeer.hello(b1.agentUrl, 'agent', { secret: secrets.agent_secret }));
    a.send({ type: 'action', action_id: 'read-1', action: 'get_state', params: {}, tab_id: 2, timeout_ms: 5000 });
    await mute.next(isAction);
    mute.close();
    await new Promise((r) => setTimeout(r, 200));
    await fakeExtension(b1);
    const r = (await a.next(isResult)) as ActionResultMessage;
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    // After a restart with restored sessions, an action waits for the extension instead of NO_EXTENSION_CONNECTED.
    const token = a.ack?.session_token as string;
    await b1.close();
    const b2 = await start(port);
    const a2 = track(await RawPeer.hello(b2.agentUrl, 'agent', { secret: secrets.agent_secret, sessionToken: token }));
    a2.send({ type: 'action', action_id: 'after-restart', action: 'click', params: { element_id: 'e1' }, timeout_ms: 5000 });
    await new Promise((res) => setTimeout(res, 300));
    await fakeExtension(b2);
    const r2 = (await a2.next(isResult)) as ActionResultMessage;
    expect(r2.status, JSON.stringify(r2.error_info)).to.equal('success');
    expect(r2.tab_id).to.equal(2);
  });

  it('starts clean from a missing or corrupt file, and a wrong token does not resume', async () => {
    fs.writeFileSync(path.join(dir, SESSIONS_FILE), '{"version":1,"sessions":[{"session_id":1}]');
    const b = await start();
    await fakeExtension(b);
    const a = track(await RawPeer.hello(b.agentUrl, 'agent', { secret: secrets.agent_secret, sessionToken: 'not-a-token-of-this-bridge' }));
    expect(a.ack?.resumed).to.equal(false);
  });

  it('the TS client rides out a restart: a call made during the outage is answered once the bridge is back', async () => {
    const b1 = await start();
    const port = b1.port;
    await fakeExtension(b1);
    // Backoff capped at 300 ms so the client retries often: 1.5 s down is then six attempts or more.
    const client = await AgentClient.connect({ url: b1.agentUrl, secret: secrets.agent_secret, reconnectMaxDelayMs: 300 });
    try {
      expect((await client.call('click', { element_id: 'e1' }, { tabId: 5 })).status).to.equal('success');
      const sessionId = client.sessionId;
      await b1.close();
      // Down for 1.5 s: longer than the client's first backoff steps, so several reconnects fail first; the call
      // waits, bounded by its timeout.
      const pending = client.call('click', { element_id: 'e2' }, { timeoutMs: 8000 });
      await new Promise((r) => setTimeout(r, 1500));
      const b2 = await start(port);
      await fakeExtension(b2);
      const r = await pending;
      expect(r.status).to.equal('success');
      expect(r.tab_id).to.equal(5);
      expect(client.sessionId).to.equal(sessionId);
      expect(client.hello?.resumed).to.equal(true);
    } finally {
      await client.close();
    }
  });

  it('the TS client keeps reconnecting past the old 30 s window and a call fails only by its own timeout', async () => {
    const b1 = await start();
    await fakeExtension(b1);
    const client = await AgentClient.connect({ url: b1.agentUrl, secret: secrets.agent_secret, callTimeoutMs: 0 });
    try {
      await b1.close();
      await new Promise((r) => setTimeout(r, 600));
      const t = Date.now();
      const err = await client.call('click', { element_id: 'e2' }, { timeoutMs: 700 }).then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
      expect(err?.code).to.equal('TIMEOUT');
      expect(Date.now() - t).to.be.within(600, 1500);
    } finally {
      await client.close();
    }
  });
});
