// The typed TypeScript client against a real bridge: handshake and credential lookup, refusing an
// impostor bridge, per-call timeouts, and reconnection with idempotent re-sends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { AgentClient, BridgeClientError } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import { AGENT_SECRET_ENV, CONFIG_DIR_ENV } from '../../bridge/common/secrets';
import { BridgeServer } from '../../bridge/src/server';
import type { ActionMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';

describe('AgentClient (real bridge)', () => {
  let bridge: BridgeServer;
  const clients: AgentClient[] = [];
  const peers: RawPeer[] = [];
  const saved = { secret: process.env[AGENT_SECRET_ENV], dir: process.env[CONFIG_DIR_ENV] };

  beforeEach(async () => {
    bridge = createBridge({ port: 0, logger: createLogger('silent'), defaultTimeoutMs: 2000 });
    await bridge.start();
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    for (const [k, v] of [
      [AGENT_SECRET_ENV, saved.secret],
      [CONFIG_DIR_ENV, saved.dir],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const connect = async (o: Partial<Parameters<typeof AgentClient.connect>[0]> = {}) => {
    const c = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret, ...o });
    clients.push(c);
    return c;
  };
  const extension = async () => {
    const p = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    peers.push(p);
    return p;
  };

  it('reads the agent secret from the environment, then from the config dir', async () => {
    process.env[AGENT_SECRET_ENV] = bridge.secrets.agent_secret;
    const fromEnv = new AgentClient({ url: bridge.agentUrl });
    clients.push(fromEnv);
    expect((await fromEnv.open()).session_id).to.match(/^session-/);
    delete process.env[AGENT_SECRET_ENV];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cfg-'));
    fs.writeFileSync(path.join(dir, 'secrets.json'), JSON.stringify(bridge.secrets), { mode: 0o600 });
    process.env[CONFIG_DIR_ENV] = dir;
    const fromFile = new AgentClient({ url: bridge.agentUrl });
    clients.push(fromFile);
    expect((await fromFile.open()).extension_connected).to.equal(false);
    fs.rmSync(dir, { recursive: true, force: true });
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-empty-'));
    process.env[CONFIG_DIR_ENV] = empty;
    try {
      expect(() => new AgentClient({ url: bridge.agentUrl })).to.throw(BridgeClientError, /BROWSER_USE_EXT_AGENT_SECRET/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('rejects with UNAUTHORIZED when the bridge cannot prove the same secret (wrong secret or impostor bridge)', async () => {
    let err: unknown;
    await connect({ secret: 'wrong-wrong-wrong-wrong-wrong' }).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(BridgeClientError);
    expect((err as BridgeClientError).code).to.equal('UNAUTHORIZED');
    expect((err as BridgeClientError).message).to.match(/could not prove/);
    // The check is the bridge's proof: the client stops before sending its own.
  });

  it('returns the bridge TIMEOUT result for a slow action (per-call timeout)', async () => {
    await extension();
    const c = await connect();
    const r = await c.call('get_state', {}, { tabId: 1, timeoutMs: 100 });
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('TIMEOUT');
  });

  it("stays disconnected after the person's Disconnect (close 4003): no new session, every later call NOT_PERMITTED", async () => {
    await extension();
    const c = await connect({ clientName: 'disconnect-me', reconnectMaxDelayMs: 100 });
    const sid = c.hello?.session_id;
    expect(sid).to.be.a('string');
    const closed = new Promise<number>((resolve) => c.once('close', (code: number) => resolve(code)));
    const e = peers[0]!;
    e.send({ type: 'session_control', command: 'disconnect', session_id: sid as string });
    expect(await closed).to.equal(4003);
    // Long enough for several reconnect attempts at the 100 ms cap, had the client made any.
    await new Promise((r) => setTimeout(r, 800));
    expect(bridge['sessions'].all(), 'the client came back as a new session').to.have.length(0);
    const err = await c.call('list_tabs', {}).catch((x: unknown) => x);
    expect(err).to.be.instanceOf(BridgeClientError);
    expect((err as BridgeClientError).code).to.equal('NOT_PERMITTED');
    expect((err as BridgeClientError).message).to.match(/side panel/);
  });

  it('reconnects after a drop, resumes its session and gets the answer to an in-flight call once', async () => {
    const ext = await extension();
    const c = await connect();
    const sessionId = c.sessionId;
    const pending = c.call('click', { element_id: 'e1' }, { tabId: 8, timeoutMs: 5000 });
    const relayed = (await ext.next(isAction)) as ActionMessage;
    const reconnected = new Promise((resolve) => c.once('reconnected', resolve));
    c.dropConnection();
    await reconnected;
    expect(c.sessionId).to.equal(sessionId);
    expect(c.hello?.resumed).to.equal(true);
    ext.send({
      type: 'action_result',
      original_action_id: relayed.action_id,
      action: 'click',
      tab_id: 8,
      status: 'success',
      outcome_details: { message: 'Clicked.' },
      new_simplified_state: null,
      error_info: null,
    });
    const r = await pending;
    expect(r.outcome_details?.message).to.equal('Clicked.');
    await new Promise((res) => setTimeout(res, 50));
    expect(ext.received.filter(isAction), 'the re-send joined the running action').to.deep.equal([]);
  });
});
