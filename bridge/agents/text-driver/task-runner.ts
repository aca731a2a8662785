// Runs seed 002 agent tasks a person types into the extension (user_task_submission), one at a
// time, reporting task_progress (accepted, running, a step per command, done | failed | stopped)
// and obeying task_control stop / redirect.
import type { TaskControlMessage, TaskStepDetails, UserTaskSubmissionMessage } from '../../../schemas/generated/protocol';
import type { AgentClient } from '../../client/agent-client';
import { type AgentOutcome, runSeed002Agent } from './agent-loop';
import { Seed002Driver, type TurnResult } from './driver';
import type { ChatFn } from './llm';
import { type PromptTool, sessionKeyword } from './prompt';

export interface TaskRunnerOptions {
  client: AgentClient;
  llm: ChatFn;
  maxTabs: number;
  maxSteps: number;
  /** Tools for the prompt; omitted: the person's saved tools (list_tools). */
  tools?: readonly PromptTool[];
  driverOptions?: ConstructorParameters<typeof Seed002Driver>[2];
}

export async function loadTools(client: Pick<AgentClient, 'call'>): Promise<PromptTool[]> {
  const r = await client.call('list_tools', {});
  const tools = (r.outcome_details?.result as { tools?: PromptTool[] } | undefined)?.tools;
  return r.status === 'success' && Array.isArray(tools) ? tools : [];
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** One goal, start to finish, on this client's session. */
export async function runGoal(
  o: TaskRunnerOptions,
  goal: string,
  extra: {
    signal?: AbortSignal;
    takeRedirects?: () => string[];
    onStep?: Parameters<typeof runSeed002Agent>[0]['onStep'];
    host?: string;
    startTabId?: number;
  } = {},
): Promise<AgentOutcome> {
  const driver = new Seed002Driver(o.client, o.client, o.driverOptions);
  const tools = o.tools ?? (await loadTools(o.client));
  return runSeed002Agent({
    driver,
    llm: o.llm,
    goal,
    tools,
    maxTabs: o.maxTabs,
    keyword: sessionKeyword(extra.host ?? 'browser'),
    maxSteps: o.maxSteps,
    ...(extra.signal ? { signal: extra.signal } : {}),
    ...(extra.takeRedirects ? { takeRedirects: extra.takeRedirects } : {}),
    ...(extra.onStep ? { onStep: extra.onStep } : {}),
    ...(extra.startTabId === undefined ? {} : { startTabId: extra.startTabId }),
  });
}

/** The panel's step log: what the agent said (its reply without the command and keyword), the command and its outcome. */
export function stepDetails(reply: string, turn: TurnResult): TaskStepDetails {
  const said = reply
    .replace(/<tool_code>[\s\S]*?<\/tool_code>/g, '')
    .replace(/```json[\s\S]*?```/g, '')
    .replace(/\[END:[^\]]*\]/g, '')
    .trim();
  const lines = turn.text.split('\n');
  const error = lines.find((l) => l.startsWith('System Error:')) ?? null;
  const notice = lines.find((l) => l.startsWith('System:')) ?? null;
  const url = /^URL: (.*)$/m.exec(turn.text)?.[1] ?? null;
  const actions: NonNullable<TaskStepDetails['actions']> = [];
  if (turn.command) {
    const { action, ...params } = turn.command;
    actions.push({ name: action, params, result: error ? null : notice, error, ...(turn.done ? { is_done: true } : {}) });
  }
  return { url, next_goal: said.slice(0, 5000), actions };
}

/** Listens for tasks on the client until it closes. */
export function serveTasks(o: TaskRunnerOptions, log: (line: string) => void = () => undefined): void {
  let running: { id: string; abort: AbortController; redirects: string[] } | null = null;
  o.client.on('task_control', (m: TaskControlMessage) => {
    if (!running || running.id !== m.task_id) return;
    if (m.command === 'stop') running.abort.abort();
    else if (m.command === 'redirect' && m.text) running.redirects.push(m.text);
  });
  o.client.on('task', (m: UserTaskSubmissionMessage) => {
    const id = m.task_id ?? `t${Date.now()}`;
    if (running) {
      o.client.sendTaskProgress({
        task_id: id,
        status: 'failed',
        message: `This agent is busy with task ${running.id}. Stop it first or wait for it to finish.`,
      });
      return;
    }
    const state = { id, abort: new AbortController(), redirects: [] as string[] };
    running = state;
    o.client.sendTaskProgress({ task_id: id, status: 'accepted', message: `seed 002 agent took the task: ${m.user_prompt.slice(0, 200)}` });
    o.client.sendTaskProgress({ task_id: id, status: 'running', message: 'started' });
    log(`task ${id}: ${m.user_prompt}`);
    const goal = m.context.selected_text
      ? `${m.user_prompt}\n\n(The person had selected: "${m.context.selected_text}" on ${m.context.url})`
      : m.user_prompt;
    runGoal(o, goal, {
      signal: state.abort.signal,
      takeRedirects: () => state.redirects.splice(0),
      host: hostOf(m.context.url),
      // The tab the person was looking at when they typed the task (the panel itself is no tab).
      startTabId: m.context.active_tab_id,
      onStep: (s) => {
        const cmd = s.turn.command ? JSON.stringify(s.turn.command) : 'no command';
        const firstError = s.turn.text.split('\n').find((l) => l.startsWith('System Error:'));
        o.client.sendTaskProgress({
          task_id: id,
          status: 'step',
          step: s.step,
          message: `${cmd}${firstError ? ` -> ${firstError}` : ''}`.slice(0, 2000),
          step_details: stepDetails(s.reply, s.turn),
        });
        log(`  step ${s.step}: ${cmd}`);
      },
    })
      .then((out) => {
        const status = out.status === 'done' ? 'done' : out.status === 'stopped' ? 'stopped' : 'failed';
        o.client.sendTaskProgress({
          task_id: id,
          status,
          message: out.final.slice(0, 2000) || status,
          final_result: out.status === 'done' ? out.final : null,
        });
        log(`task ${id} ${status}: ${out.final}`);
      })
      .catch((e: unknown) => {
        const msg = e instanceof Error ? e.message : String(e);
        o.client.sendTaskProgress({ task_id: id, status: 'failed', message: msg.slice(0, 2000), final_result: null });
        log(`task ${id} failed: ${msg}`);
      })
      .finally(() => {
        running = null;
      });
  });
}
