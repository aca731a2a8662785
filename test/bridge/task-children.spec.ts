// A session opened to carry out a task (hello.task_id) is shown under the session holding that task,
// and ends when the task or that session ends: the person sees one agent, and Stop is final.
import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import type { AgentSessionsMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { CLOSE_CODES } from '../../schemas/lib/close-codes';
import { RawPeer } from './raw-peer';

const submission = (taskId: string): Record<string, unknown> => ({
  type: 'user_task_submission',
  task_id: taskId,
  user_prompt: 'Find the cheapest stapler.',
  timestamp: '2026-11-22T03:00:00Z',
  context: { url: 'https://shop.test/', page_title: 'Shop', selected_text: null, active_tab_id: 3 },
});

describe('task sessions under the agent that took the task (hello.task_id)', () => {
  let bridge: BridgeServer;
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async () => track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
  const agent = async (capabilities: string[] = [], hello: Record<string, unknown> = {}) =>
    track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, capabilities, hello }));
  const sessionsWhere = (e: RawPeer, pred: (m: AgentSessionsMessage) => boolean) =>
    e.next((m: ProtocolMessage) => m.type === 'agent_sessions' && pred(m)) as Promise<AgentSessionsMessage>;
  /** The extension, serve's session holding task t-1, and the session carrying it out. */
  const taskWithChild = async (taskId = 't-1') => {
    const e = await ext();
    const runner = await agent(['accepts_tasks']);
    e.send(submission(taskId));
    await runner.next((m) => m.type === 'user_task_submission');
    const child = await agent([], { task_id: taskId });
    const ids = { runner: runner.ack?.session_id as string, child: child.ack?.session_id as string };
    return { e, runner, child, ids };
  };

  beforeEach(async () => {
    bridge = createBridge({ port: 0, logger: createLogger('silent') });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  it('links the task session to the session holding the task', async () => {
    const { e, ids } = await taskWithChild();
    const list = await sessionsWhere(e, (m) => m.sessions.some((s) => s.session_id === ids.child));
    const child = list.sessions.find((s) => s.session_id === ids.child);
    const runner = list.sessions.find((s) => s.session_id === ids.runner);
    expect(child?.parent_session_id).to.equal(ids.runner);
    expect(runner?.parent_session_id, 'the holder stands alone').to.equal(undefined);
  });

  it('ignores a task id that no session holds (the session stands alone)', async () => {
    const e = await ext();
    const lone = await agent([], { task_id: 'nobody-holds-this' });
    const list = await sessionsWhere(e, (m) => m.sessions.some((s) => s.session_id === lone.ack?.session_id));
    expect(list.sessions.find((s) => s.session_id === lone.ack?.session_id)?.parent_session_id).to.equal(undefined);
  });

  it('ends the task session when the task ends, so its agent cannot go on', async () => {
    const { runner, child } = await taskWithChild();
    runner.send({ type: 'task_progress', task_id: 't-1', status: 'stopped', message: 'Stopped.', final_result: null });
    const closed = await child.waitClose();
    expect(closed.code).to.equal(CLOSE_CODES.disconnectedByPerson);
    expect(runner.closed, 'the agent that took the task stays connected for the next one').to.equal(null);
  });

  it('ends the task session when the session holding the task is disconnected by the person', async () => {
    const { e, child, ids } = await taskWithChild();
    e.send({ type: 'session_control', command: 'disconnect', session_id: ids.runner });
    expect((await child.waitClose()).code).to.equal(CLOSE_CODES.disconnectedByPerson);
  });

  it('stops the task when the person disconnects the session carrying it out', async () => {
    const { e, runner, child, ids } = await taskWithChild();
    e.send({ type: 'session_control', command: 'disconnect', session_id: ids.child });
    const control = await runner.next((m) => m.type === 'task_control');
    expect(control).to.deep.include({ task_id: 't-1', command: 'stop' });
    expect((await child.waitClose()).code).to.equal(CLOSE_CODES.disconnectedByPerson);
  });
});
