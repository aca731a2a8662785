// The panel's two new wire paths at the bridge, over real `ws` (no browser): connector_control /
// backend_connectors and user_task_submission.agent_session_id ("Run with").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { BridgeServer } from '../../bridge/src/server';
import type { BackendConnectorsMessage, ErrorMessage, ProtocolMessage, UserTaskSubmissionMessage } from '../../schemas/generated/protocol';
import { RawPeer } from '../bridge/raw-peer';
import { Seed001Backend } from './backends';

const isError = (m: ProtocolMessage): m is ErrorMessage => m.type === 'error';
const isList =
  (id: string | null) =>
  (m: ProtocolMessage): m is BackendConnectorsMessage =>
    m.type === 'backend_connectors' && (m.request_id ?? null) === id;

describe("seeds: the panel's wire paths at the bridge (real ws)", () => {
  let bridge: BridgeServer;
  let cfg: string;
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async () => track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
  const agent = async (capabilities: string[] = []) =>
    track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, capabilities }));

  beforeEach(async () => {
    cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-wire-'));
    bridge = createBridge({ port: 0, logger: createLogger('silent'), configDir: cfg });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    fs.rmSync(cfg, { recursive: true, force: true });
  });

  it('connector_control: errors by request_id with specific codes; add answers the list; the connector is an agent session; remove forgets it', async () => {
    const e = await ext();
    expect(((await e.next(isList(null), 2000)) as BackendConnectorsMessage).connectors, 'the list after the handshake').to.deep.equal([]);
    e.send({ type: 'connector_control', command: 'add', request_id: 'r1', dialect: '001', url: 'ws://192.0.2.1:8080' });
    let err = (await e.next(isError, 2000)) as ErrorMessage;
    expect([err.in_reply_to, err.error_info.error_code]).to.deep.equal(['r1', 'BACKEND_NOT_LOOPBACK']);
    expect(err.error_info.message).to.contain('--allow-remote');
    e.send({ type: 'connector_control', command: 'add', request_id: 'r2', dialect: '000', url: 'localhost:8080' });
    err = (await e.next(isError, 2000)) as ErrorMessage;
    expect([err.in_reply_to, err.error_info.error_code]).to.deep.equal(['r2', 'BACKEND_URL_INVALID']);
    e.send({ type: 'connector_control', command: 'remove', request_id: 'r3', connector_id: 'nope' });
    err = (await e.next(isError, 2000)) as ErrorMessage;
    expect([err.in_reply_to, err.error_info.error_code]).to.deep.equal(['r3', 'CONNECTOR_NOT_FOUND']);
    // Schema: add without a url is refused before anything runs.
    e.send({ type: 'connector_control', command: 'add', request_id: 'r4', dialect: '001' });
    expect(((await e.next(isError, 2000)) as ErrorMessage).error_info.error_code).to.equal('INVALID_MESSAGE');

    const backend = await new Seed001Backend().start();
    try {
      e.send({ type: 'connector_control', command: 'add', request_id: 'r5', dialect: '001', url: backend.url });
      const added = (await e.next(isList('r5'), 5000)) as BackendConnectorsMessage;
      expect(added.connectors).to.have.length(1);
      const c = added.connectors[0]!;
      expect(c).to.include({ dialect: '001', url: backend.url, client_name: `seed001-connector ${backend.url}` });
      expect(c.session_id).to.be.a('string');
      await backend.waitConnected();
      const sessions = bridge.status()['sessions'] as { session_id: string }[];
      expect(sessions.map((s) => s.session_id)).to.include(c.session_id);
      expect(JSON.parse(fs.readFileSync(path.join(cfg, 'connectors.json'), 'utf8'))).to.deep.equal({
        version: 1,
        connectors: [{ dialect: '001', url: backend.url, browser: 'Chrome' }], // the panel's browser: the connector works there
      });
      // The same dialect + URL again: the running one, not a second.
      e.send({ type: 'connector_control', command: 'add', request_id: 'r6', dialect: '001', url: backend.url });
      expect(((await e.next(isList('r6'), 5000)) as BackendConnectorsMessage).connectors.map((x) => x.connector_id)).to.deep.equal([
        c.connector_id,
      ]);
      e.send({ type: 'connector_control', command: 'remove', request_id: 'r7', connector_id: c.connector_id });
      expect(((await e.next(isList('r7'), 5000)) as BackendConnectorsMessage).connectors).to.deep.equal([]);
      expect(JSON.parse(fs.readFileSync(path.join(cfg, 'connectors.json'), 'utf8')).connectors).to.deep.equal([]);
    } finally {
      await backend.close();
    }
  });

  it('an agent may not send connector_control (x-senders: extension)', async () => {
    const a = await agent();
    a.send({ type: 'connector_control', command: 'add', request_id: 'r1', dialect: '001', url: 'ws://localhost:8080' });
    expect(((await a.next(isError, 2000)) as ErrorMessage).error_info.error_code).to.equal('UNAUTHORIZED');
  });

  it('user_task_submission.agent_session_id: the task goes to the picked agent, not the oldest; a picked agent that is gone answers NO_TASK_AGENT naming it', async () => {
    const e = await ext();
    const oldest = await agent(['accepts_tasks']);
    const picked = await agent(['accepts_tasks']);
    const sub = (task_id: string, agent_session_id: string | null) => ({
      type: 'user_task_submission',
      task_id,
      agent_session_id,
      user_prompt: 'Find a pen.',
      timestamp: '2026-11-23T18:00:00Z',
      context: { url: 'https://shop.test/', page_title: 'Shop', active_tab_id: 3 },
    });
    e.send(sub('task-1', picked.ack!.session_id));
    const got = (await picked.next((m) => m.type === 'user_task_submission', 2000)) as UserTaskSubmissionMessage;
    expect(got.task_id).to.equal('task-1');
    e.send(sub('task-2', null));
    expect(
      ((await oldest.next((m) => m.type === 'user_task_submission', 2000)) as UserTaskSubmissionMessage).task_id,
      'no pick: the oldest',
    ).to.equal('task-2');
    e.send(sub('task-3', 'no-such-session'));
    const err = (await e.next(isError, 2000)) as ErrorMessage;
    expect([err.in_reply_to, err.error_info.error_code, err.error_info.details?.['agent_session_id']]).to.deep.equal([
      'task-3',
      'NO_TASK_AGENT',
      'no-such-session',
    ]);
    expect(err.error_info.message).to.contain('Run with');
  });
});
