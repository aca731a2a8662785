// The bridge over real `ws` on port 0, with hand-driven extension and agent peers.
import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { BridgeServer } from '../../bridge/src/server';
import type { ActionMessage, ActionResultMessage, ErrorMessage } from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

const isResult = (m: { type: string }): m is ActionResultMessage => m.type === 'action_result';
const isError = (m: { type: string }): m is ErrorMessage => m.type === 'error';

describe('bridge relay (real ws)', () => {
  let bridge: BridgeServer;
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const extHello = () => RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
  const agentHello = () => RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret });
  const nonce = 'q83vEjRWeJq83vEjRWeJqw==';

  beforeEach(async () => {
    bridge = createBridge({ port: 0, logger: createLogger('silent'), defaultTimeoutMs: 2000 });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  it("relays an action to the extension and its result back under the agent's id", async () => {
    const ext = track(await extHello());
    const agent = track(await agentHello());
    agent.send({ type: 'action', action_id: 'mine-1', action: 'click', params: { element_id: 'e3' }, tab_id: 4 });
    const relayed = (await ext.next((m) => m.type === 'action')) as ActionMessage;
    expect(relayed.action).to.equal('click');
    expect(relayed.params).to.deep.equal({ element_id: 'e3' });
    expect(relayed.tab_id).to.equal(4);
    ext.send({
      type: 'action_result',
      original_action_id: relayed.action_id,
      action: 'click',
      status: 'success',
      outcome_details: { message: 'Clicked.' },
      new_simplified_state: null,
      error_info: null,
    });
    const result = (await agent.next(isResult)) as ActionResultMessage;
    expect(result).to.deep.equal({
      type: 'action_result',
      original_action_id: 'mine-1',
      action: 'click',
      status: 'success',
      outcome_details: { message: 'Clicked.' },
      new_simplified_state: null,
      error_info: null,
    });
  });

  it('rejects a result that names another action as EXTENSION_INTERNAL_ERROR, never success', async () => {
    const ext = track(await extHello());
    const agent = track(await agentHello());
    agent.send({ type: 'action', action_id: 'w-1', action: 'wait_for', params: { text: 'Done' }, tab_id: 4 });
    const relayed = (await ext.next((m) => m.type === 'action')) as ActionMessage;
    ext.send({
      type: 'action_result',
      original_action_id: relayed.action_id,
      action: 'click',
      status: 'success',
      outcome_details: { message: 'Clicked.' },
      new_simplified_state: null,
      error_info: null,
    });
    const result = (await agent.next(isResult)) as ActionResultMessage;
    expect(result.status).to.equal('error');
    expect(result.action).to.equal('wait_for');
    expect(result.error_info?.error_code).to.equal('EXTENSION_INTERNAL_ERROR');
    expect(result.error_info?.message).to.match(/"wait_for" with .*a result for "click"/);
  });

  it('keeps two agents that reuse the same action id apart', async () => {
    const ext = track(await extHello());
    const a = track(await agentHello());
    const b = track(await agentHello());
    a.send({ type: 'action', action_id: 'same', action: 'click', params: { element_id: 'eA' }, tab_id: 1 });
    b.send({ type: 'action', action_id: 'same', action: 'click', params: { element_id: 'eB' }, tab_id: 2 });
    const first = (await ext.next((m) => m.type === 'action')) as ActionMessage;
    const second = (await ext.next((m) => m.type === 'action')) as ActionMessage;
    expect(first.action_id).not.to.equal(second.action_id);
    for (const m of [second, first]) {
      const id = (m.params as { element_id: string }).element_id;
      ext.send({
        type: 'action_result',
        original_action_id: m.action_id,
        action: 'click',
        status: 'success',
        outcome_details: { message: id },
      });
    }
    expect(((await a.next(isResult)) as ActionResultMessage).outcome_details?.message).to.equal('eA');
    expect(((await b.next(isResult)) as ActionResultMessage).outcome_details?.message).to.equal('eB');
  });

  it('answers NO_EXTENSION_CONNECTED at once when no extension is there', async () => {
    const agent = track(await agentHello());
    agent.send({ type: 'action', action_id: 'x', action: 'get_state', params: {} });
    const r = (await agent.next(isResult)) as ActionResultMessage;
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('NO_EXTENSION_CONNECTED');
    expect(r.error_info?.message).to.match(/extension/);
  });

  it('ends an unanswered action with a typed TIMEOUT result after timeout_ms', async () => {
    track(await extHello());
    const agent = track(await agentHello());
    const t0 = Date.now();
    agent.send({ type: 'action', action_id: 'slow', action: 'get_state', params: {}, timeout_ms: 150 });
    const r = (await agent.next(isResult)) as ActionResultMessage;
    expect(Date.now() - t0).to.be.within(140, 1500);
    expect(r.original_action_id).to.equal('slow');
    expect(r.error_info?.error_code).to.equal('TIMEOUT');
    expect(r.error_info?.message).to.match(/timeout_ms/);
  });

  it('fails every in-flight action at once with EXTENSION_DISCONNECTED when the extension drops (writes: they may have run; reads are asked again)', async () => {
    const ext = track(await extHello());
    const agent = track(await agentHello());
    agent.send({ type: 'action', action_id: 'p1', action: 'click', params: { element_id: 'e1' }, timeout_ms: 60_000, tab_id: 1 });
    agent.send({ type: 'action', action_id: 'p2', action: 'click', params: { element_id: 'e2' }, timeout_ms: 60_000, tab_id: 2 });
    await ext.next((m) => m.type === 'action');
    await ext.next((m) => m.type === 'action');
    const t0 = Date.now();
    ext.ws.terminate();
    const r1 = (await agent.next(isResult)) as ActionResultMessage;
    const r2 = (await agent.next(isResult)) as ActionResultMessage;
    expect(Date.now() - t0).to.be.below(1000);
    expect([r1.original_action_id, r2.original_action_id].sort()).to.deep.equal(['p1', 'p2']);
    expect(r1.error_info?.error_code).to.equal('EXTENSION_DISCONNECTED');
    expect(r2.error_info?.error_code).to.equal('EXTENSION_DISCONNECTED');
  });

  it('answers an invalid message with INVALID_MESSAGE and the JSON path, and stays open', async () => {
    track(await extHello());
    const agent = track(await agentHello());
    agent.send({ type: 'action', action_id: 'bad', action: 'click', params: { element_id: 'e1', bogus_field: true } });
    const e = (await agent.next(isError)) as ErrorMessage;
    expect(e.in_reply_to).to.equal('bad');
    expect(e.error_info.error_code).to.equal('INVALID_MESSAGE');
    expect(e.error_info.details?.['instance_path']).to.equal('/params');
    expect(e.error_info.message).to.contain('"bogus_field"');
    agent.send({ type: 'ping', sent_at: 5 });
    expect(await agent.next((m) => m.type === 'pong')).to.deep.equal({ type: 'pong', sent_at: 5 });
  });

  it('rejects unknown action names with the list of valid ones', async () => {
    const agent = track(await agentHello());
    agent.send({ type: 'action', action_id: 'u', action: 'teleport', params: {} });
    const e = (await agent.next(isError)) as ErrorMessage;
    expect(e.error_info.error_code).to.equal('INVALID_MESSAGE');
    expect(e.error_info.details?.['instance_path']).to.equal('/action');
    expect(e.error_info.message).to.contain('get_state');
  });

  it('closes with 1003 after answering a frame that is not JSON', async () => {
    const agent = track(await agentHello());
    agent.sendText('{not json');
    const e = (await agent.next(isError)) as ErrorMessage;
    expect(e.error_info.error_code).to.equal('INVALID_MESSAGE');
    expect((await agent.waitClose()).code).to.equal(1003);
  });

  it('requires hello first and closes with 1008 otherwise', async () => {
    const p = track(await RawPeer.open(bridge.agentUrl));
    p.send({ type: 'ping', sent_at: 1 });
    const e = (await p.next(isError)) as ErrorMessage;
    expect(e.error_info.error_code).to.equal('UNAUTHORIZED');
    expect((await p.waitClose()).code).to.equal(1008);
  });

  it('refuses another protocol version with VERSION_MISMATCH naming the side to upgrade', async () => {
    const p = track(await RawPeer.open(bridge.agentUrl));
    p.send({
      type: 'hello',
      role: 'agent',
      protocol_version: 99,
      client: { name: 'future', version: '9' },
      capabilities: [],
      client_nonce: nonce,
    });
    const e = (await p.next(isError)) as ErrorMessage;
    expect(e.error_info.error_code).to.equal('VERSION_MISMATCH');
    expect(e.error_info.message).to.match(/upgrade the bridge/);
    expect((await p.waitClose()).code, '4002: version mismatch (schemas/lib/close-codes.ts)').to.equal(4002);
  });

  it('refuses a hello whose role does not match the endpoint', async () => {
    const p = track(await RawPeer.open(bridge.agentUrl));
    p.send({
      type: 'hello',
      role: 'extension',
      protocol_version: 1,
      client: { name: 'x', version: '0' },
      capabilities: [],
      client_nonce: nonce,
    });
    const e = (await p.next(isError)) as ErrorMessage;
    expect(e.error_info.error_code).to.equal('UNAUTHORIZED');
    expect((await p.waitClose()).code).to.equal(1008);
  });

  it('refuses messages a role may not send', async () => {
    const agent = track(await agentHello());
    agent.send({ type: 'action_result', original_action_id: 'x', status: 'success' });
    const e = (await agent.next(isError)) as ErrorMessage;
    expect(e.error_info.error_code).to.equal('UNAUTHORIZED');
    expect(agent.closed).to.equal(null);
  });

  it('fails the action at once when the extension answers with an invalid result', async () => {
    const ext = track(await extHello());
    const agent = track(await agentHello());
    agent.send({ type: 'action', action_id: 'v', action: 'get_state', params: {}, timeout_ms: 60_000 });
    const relayed = (await ext.next((m) => m.type === 'action')) as ActionMessage;
    ext.send({ type: 'action_result', original_action_id: relayed.action_id, status: 'done' });
    const r = (await agent.next(isResult)) as ActionResultMessage;
    expect(r.error_info?.error_code).to.equal('EXTENSION_INTERNAL_ERROR');
    expect(((await ext.next(isError)) as ErrorMessage).error_info.error_code).to.equal('INVALID_MESSAGE');
  });

  it('serves /healthz and /status without secrets', async () => {
    track(await extHello());
    const health = await fetch(`http://127.0.0.1:${bridge.port}/healthz`);
    // What a CLI and the extension may read without a secret: how the CLI is typed there, and a
    // hash naming the config dir whose pairing codes it reads (when it has one), never the path.
    const body = (await health.json()) as Record<string, unknown>;
    expect(body).to.include({ ok: true });
    if (body['cli'] !== undefined) expect(['browser-use-ext', 'npx browser-use-ext']).to.include(body['cli']);
    expect(Object.keys(body).filter((k) => !['ok', 'cli', 'config_dir'].includes(k))).to.deep.equal([]);
    if (body['config_dir'] !== undefined) expect(body['config_dir']).to.match(/^[0-9a-f]{16}$/);
    const status = (await (await fetch(`http://127.0.0.1:${bridge.port}/status`)).json()) as { extension: { connected: boolean } };
    expect(status.extension.connected).to.equal(true);
  });
});
