// Task relay over real `ws`: a person's task goes to the agent that accepts tasks,
// its progress comes back to the extension, stop/redirect go to that agent.
import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { BridgeServer } from '../../bridge/src/server';
import type {
  ErrorMessage,
  ProtocolMessage,
  TaskControlMessage,
  TaskProgressMessage,
  UserTaskSubmissionMessage,
} from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

const isError = (m: ProtocolMessage): m is ErrorMessage => m.type === 'error';
const submission = (taskId?: string): Record<string, unknown> => ({
  type: 'user_task_submission',
  ...(taskId ? { task_id: taskId } : {}),
  user_prompt: 'Find the cheapest stapler.',
  timestamp: '2026-11-22T03:00:00Z',
  context: { url: 'https://shop.test/', page_title: 'Shop', selected_text: null, active_tab_id: 3 },
});

describe('bridge task relay (real ws)', () => {
  let bridge: BridgeServer;
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async () => track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
  const agent = async (capabilities: string[] = []) =>
    track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, capabilities }));

  beforeEach(async () => {
    bridge = createBridge({ port: 0, logger: createLogger('silent') });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  it('answers NO_TASK_AGENT at once when no agent accepts tasks', async () => {
    const e = await ext();
    await agent(); // connected, but not accepting tasks
    e.send(submission('t-1'));
    const err = (await e.next(isError, 1000)) as ErrorMessage;
    expect(err.error_info.error_code).to.equal('NO_TASK_AGENT');
    expect(err.in_reply_to).to.equal('t-1');
    expect(err.error_info.message).to.match(/serve/);
  });

  it('relays a task to the accepting agent, its progress back, and stop to the agent', async () => {
    const e = await ext();
    const bystander = await agent();
    const runner = await agent(['accepts_tasks']);
    e.send(submission());
    const task = (await runner.next((m) => m.type === 'user_task_submission')) as UserTaskSubmissionMessage;
    expect(task.task_id, 'the bridge fills task_id').to.be.a('string').and.not.empty;
    expect(task.user_prompt).to.equal('Find the cheapest stapler.');
    const taskId = task.task_id as string;
    runner.send({ type: 'task_progress', task_id: taskId, status: 'accepted', message: 'On it.' });
    runner.send({ type: 'task_progress', task_id: taskId, status: 'step', message: 'Searching.', step: 1 });
    const progress = [
      (await e.next((m) => m.type === 'task_progress')) as TaskProgressMessage,
      (await e.next((m) => m.type === 'task_progress')) as TaskProgressMessage,
    ];
    expect(progress.map((p) => p.status)).to.deep.equal(['accepted', 'step']);
    e.send({ type: 'task_control', task_id: taskId, command: 'redirect', text: 'Only under $5.' });
    e.send({ type: 'task_control', task_id: taskId, command: 'stop' });
    const controls = [
      (await runner.next((m) => m.type === 'task_control')) as TaskControlMessage,
      (await runner.next((m) => m.type === 'task_control')) as TaskControlMessage,
    ];
    expect(controls.map((c) => [c.command, c.text])).to.deep.equal([
      ['redirect', 'Only under $5.'],
      ['stop', undefined],
    ]);
    runner.send({ type: 'task_progress', task_id: taskId, status: 'stopped', message: 'Stopped by you.', final_result: null });
    expect(((await e.next((m) => m.type === 'task_progress')) as TaskProgressMessage).status).to.equal('stopped');
    // The task is over: further commands are TASK_NOT_FOUND, and the bystander saw nothing.
    e.send({ type: 'task_control', task_id: taskId, command: 'stop' });
    expect(((await e.next(isError)) as ErrorMessage).error_info.error_code).to.equal('TASK_NOT_FOUND');
    expect(bystander.received.filter((m) => m.type !== 'pong')).to.deep.equal([]);
  });

  it('refuses progress for a task the session does not hold', async () => {
    const e = await ext();
    const runner = await agent(['accepts_tasks']);
    const other = await agent(['accepts_tasks']);
    e.send(submission('t-9'));
    await runner.next((m) => m.type === 'user_task_submission');
    other.send({ type: 'task_progress', task_id: 't-9', status: 'done', message: 'Fake.', final_result: 'lies' });
    expect(((await other.next(isError)) as ErrorMessage).error_info.error_code).to.equal('TASK_NOT_FOUND');
    await new Promise((r) => setTimeout(r, 50));
    expect(e.received.filter((m) => m.type === 'task_progress')).to.deep.equal([]);
  });

  it('refuses task_control from an agent and redirect without text (schema)', async () => {
    const e = await ext();
    const a = await agent(['accepts_tasks']);
    a.send({ type: 'task_control', task_id: 'x', command: 'stop' });
    expect(((await a.next(isError)) as ErrorMessage).error_info.error_code).to.equal('UNAUTHORIZED');
    e.send({ type: 'task_control', task_id: 'x', command: 'redirect' });
    const err = (await e.next(isError)) as ErrorMessage;
    expect(err.error_info.error_code).to.equal('INVALID_MESSAGE');
    expect(err.error_info.message).to.contain('"text"');
  });

  it('tells the extension a task failed when its agent leaves for good', async () => {
    const e = await ext();
    const runner = await agent(['accepts_tasks']);
    e.send(submission('t-gone'));
    await runner.next((m) => m.type === 'user_task_submission');
    runner.ws.close(1000, 'bye');
    const p = (await e.next((m) => m.type === 'task_progress')) as TaskProgressMessage;
    expect([p.task_id, p.status]).to.deep.equal(['t-gone', 'failed']);
    expect(p.message).to.match(/Submit the task again/);
  });
});
