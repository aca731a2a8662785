// A bridge killed with SIGKILL mid-action never runs that action a second time after it restarts:
// the real CLI bridge in a child process, a fake extension and agents over real ws. The agent client
// re-sends its unanswered action with the same action_id when the bridge is back; the new bridge
// knows the id from its action journal and answers "outcome unknown" (or the recorded result)
// instead of sending it to the extension again.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { AgentClient } from '../../bridge/client/agent-client';
import { SESSIONS_FILE } from '../../bridge/src/session-store';
import type { ActionMessage, ActionResultMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from '../bridge/raw-peer';
import { REPO_ROOT } from '../harness/browser';

const CLI = path.join(REPO_ROOT, 'bridge', 'cli', 'main.ts');
const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';
const isResult = (m: ProtocolMessage): m is ActionResultMessage => m.type === 'action_result';

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Running {
  child: ChildProcess;
  port: number;
  exited: Promise<void>;
}

describe('bridge crash (SIGKILL) mid-action: a re-sent action id never runs twice', function () {
  this.timeout(60_000);
  let dir: string;
  let running: Running | null = null;
  const peers: RawPeer[] = [];
  const clients: AgentClient[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);

  /** Starts the real CLI bridge on `port` (0: any) with the test's config dir. */
  const start = async (port = 0): Promise<Running> => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'bridge', '--port', String(port), '--config-dir', dir, '--log-level', 'warn'],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', () => undefined);
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await waitFor(() => /ws:\/\/127\.0\.0\.1:(\d+)\/agent/.test(out));
    running = { child, port: Number(/ws:\/\/127\.0\.0\.1:(\d+)\/agent/.exec(out)?.[1]), exited };
    return running;
  };
  const crash = async (r: Running) => {
    r.child.kill('SIGKILL'); // no shutdown path at all: nothing is flushed or failed on the way out
    await r.exited;
    running = null;
  };
  const secrets = () =>
    JSON.parse(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')) as { extension_secret: string; agent_secret: string };
  const url = (r: Running, role: 'agent' | 'extension') => `ws://127.0.0.1:${r.port}/${role}`;
  const extension = async (r: Running) =>
    track(await RawPeer.hello(url(r, 'extension'), 'extension', { secret: secrets().extension_secret }));
  /** sessions.json names the session (it is written 50 ms after a change): a crash from here on keeps it. */
  const sessionSaved = (sessionId: string) =>
    waitFor(
      () =>
        fs.existsSync(path.join(dir, SESSIONS_FILE)) && fs.readFileSync(path.join(dir, SESSIONS_FILE), 'utf8').includes(`"${sessionId}"`),
    );

  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-crash-'))));
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const p of peers.splice(0)) p.close();
    if (running) await crash(running);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a click in flight when the bridge is killed is answered "outcome unknown" after the restart, and never sent again', async () => {
    const b1 = await start();
    const ext1 = await extension(b1);
    const client = await AgentClient.connect({ url: url(b1, 'agent'), secret: secrets().agent_secret, reconnectMaxDelayMs: 200 });
    clients.push(client);
    await sessionSaved(client.sessionId as string);
    // The click reaches the extension, which is still waiting for the page to settle when the bridge dies.
    const pending = client.call('click', { element_id: 'e1' }, { tabId: 4, actionId: 'click-1', timeoutMs: 10_000 });
    expect(((await ext1.next(isAction)) as ActionMessage).action).to.equal('click');
    await crash(b1);

    const b2 = await start(b1.port);
    const ext2 = await extension(b2);
    // The client reconnects by itself, resumes its session and re-sends click-1 with the same id.
    const r = await pending;
    expect(client.hello?.resumed).to.equal(true);
    expect(r.status).to.equal('error');
    expect(r.original_action_id).to.equal('click-1');
    expect(r.error_info?.error_code).to.equal('EXTENSION_DISCONNECTED');
    expect(r.error_info?.details).to.deep.equal({ reason: 'outcome_unknown_after_bridge_restart' });
    expect(r.error_info?.message).to.match(/take a new state and check whether it happened before repeating it/i);
    await new Promise((res) => setTimeout(res, 300));
    expect(ext2.received.filter(isAction), 'the restarted bridge never sent the click again').to.deep.equal([]);
    // The session goes on: a new action runs normally.
    const next = client.call('get_state', {}, { tabId: 4, timeoutMs: 5000 });
    const relayed = (await ext2.next(isAction)) as ActionMessage;
    expect(relayed.tab_id).to.equal(4);
    ext2.send({
      type: 'action_result',
      original_action_id: relayed.action_id,
      action: 'get_state',
      tab_id: 4,
      status: 'success',
      outcome_details: { message: 'ok' },
      new_simplified_state: null,
      error_info: null,
    });
    expect((await next).status).to.equal('success');
  });

  it('an answered click re-sent after the bridge was killed gets its recorded result; a read is simply asked again', async () => {
    const b1 = await start();
    const ext1 = await extension(b1);
    const agent = track(await RawPeer.hello(url(b1, 'agent'), 'agent', { secret: secrets().agent_secret }));
    await sessionSaved(agent.ack?.session_id as string);
    agent.send({ type: 'action', action_id: 'click-2', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    const relayed = (await ext1.next(isAction)) as ActionMessage;
    ext1.send({
      type: 'action_result',
      original_action_id: relayed.action_id,
      action: 'click',
      tab_id: 4,
      status: 'success',
      outcome_details: { message: 'Clicked e1.', navigation_occurred: false },
      new_simplified_state: {
        url: 'https://shop.test/',
        title: 'Shop',
        tab_id: 4,
        actionable_elements: [],
      } as unknown as ActionResultMessage['new_simplified_state'],
      error_info: null,
    });
    const first = (await agent.next(isResult)) as ActionResultMessage;
    expect(first.status).to.equal('success');
    await crash(b1);

    const b2 = await start(b1.port);
    const ext2 = await extension(b2);
    const again = track(
      await RawPeer.hello(url(b2, 'agent'), 'agent', { secret: secrets().agent_secret, sessionToken: agent.ack?.session_token as string }),
    );
    expect(again.ack?.resumed).to.equal(true);
    again.send({ type: 'action', action_id: 'click-2', action: 'click', params: { element_id: 'e1' }, tab_id: 4 });
    const replayed = (await again.next(isResult)) as ActionResultMessage;
    expect(replayed).to.deep.include({ original_action_id: 'click-2', action: 'click', tab_id: 4, status: 'success', error_info: null });
    expect(replayed.outcome_details?.message).to.equal('Clicked e1.');
    expect(replayed.new_simplified_state, 'no page state is kept on disk').to.equal(null);
    // A read is not journaled: asking it again is harmless, so it runs.
    again.send({ type: 'action', action_id: 'read-1', action: 'get_state', params: {}, tab_id: 4 });
    const read = (await ext2.next(isAction)) as ActionMessage;
    expect(read.action).to.equal('get_state');
    expect(ext2.received.filter(isAction), 'the click was not sent again').to.deep.equal([]);
    const journal = fs.readFileSync(path.join(dir, 'actions.journal'), 'utf8');
    expect(journal).not.to.contain('shop.test');
    expect(fs.statSync(path.join(dir, 'actions.journal')).mode & 0o777).to.equal(0o600);
  });

  it('the TS client does not re-send a click to a bridge that lost its session; a read it re-sends', async () => {
    const b1 = await start();
    const ext1 = await extension(b1);
    const client = await AgentClient.connect({ url: url(b1, 'agent'), secret: secrets().agent_secret, reconnectMaxDelayMs: 200 });
    clients.push(client);
    const click = client.call('click', { element_id: 'e1' }, { tabId: 4, actionId: 'click-3', timeoutMs: 10_000 });
    const read = client.call('get_state', {}, { tabId: 5, actionId: 'read-3', timeoutMs: 10_000 }); // another tab: not queued behind the click
    await ext1.next(isAction);
    await ext1.next(isAction);
    await crash(b1);
    // This client's session is gone with the old bridge; another agent's was kept. The new bridge
    // restores that one and so waits for the extension as after any restart: the read re-sent before
    // the extension is back waits for it instead of racing it (NO_EXTENSION_CONNECTED).
    const other = {
      session_id: 'session-other',
      token_sha256: '0'.repeat(64),
      max_tabs: 10,
      current_tab: null,
      capabilities: [],
      tabs: [],
    };
    fs.writeFileSync(path.join(dir, SESSIONS_FILE), JSON.stringify({ version: 1, saved_at: new Date().toISOString(), sessions: [other] }));

    const b2 = await start(b1.port);
    const ext2 = await extension(b2);
    const r = await click;
    expect(client.hello?.resumed).to.equal(false);
    expect(r.error_info?.error_code).to.equal('EXTENSION_DISCONNECTED');
    expect(r.error_info?.details).to.deep.equal({ reason: 'outcome_unknown_session_lost' });
    expect(r.error_info?.message).to.match(/not sent again. Take a new state and check whether it happened/);
    // Within the read's own 10 s timeout: on a loaded machine the client's reconnect and re-send can
    // take longer than the default 3 s wait.
    const again = (await ext2.next(isAction, 10_000)) as ActionMessage;
    expect(again.action, 'only the read is asked again').to.equal('get_state');
    ext2.send({
      type: 'action_result',
      original_action_id: again.action_id,
      action: 'get_state',
      tab_id: 5,
      status: 'success',
      outcome_details: { message: 'ok' },
      new_simplified_state: null,
      error_info: null,
    });
    expect((await read).status).to.equal('success');
    await new Promise((res) => setTimeout(res, 200));
    expect(ext2.received.filter(isAction)).to.deep.equal([]);
  });
});
