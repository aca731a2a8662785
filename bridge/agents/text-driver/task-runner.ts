// Runs seed 002 agent tasks a person types into the extension (user_task_submission), one at a
// time, reporting task_progress (accepted, running, a step per command, done | failed | stopped)
// and obeying task_control stop / redirect.
import type {
  TaskControlMessage,
  TaskProgressMessage,
  TaskStepDetails,
  UserTaskSubmissionMessage,
} from '../../../schemas/generated/protocol';
import type { AgentClient } from '../../client/agent-client';
import { type AgentOutcome, runSeed002Agent } from './agent-loop';
import { Seed002Driver, type TurnResult } from './driver';
import type { ChatFn } from './llm';
import { type PromptTool, sessionKeyword } from './prompt';
import { DESCRIPTION_MAX } from './titles';

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

/** The panel's step log: what the step did in words, then what the agent said (its reply without the
 * command and keyword); the command and its outcome. */
export function stepDetails(reply: string, turn: TurnResult): TaskStepDetails {
  const said = reply
    .replace(/<tool_code>[\s\S]*?<\/tool_code>/g, '')
    .replace(/```json[\s\S]*?```/g, '')
    .replace(/\[END:[^\]]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const lines = turn.text.split('\n');
  const error = lines.find((l) => l.startsWith('System Error:')) ?? null;
  const notice = lines.find((l) => l.startsWith('System:')) ?? null;
  const url = /^URL: (.*)$/m.exec(turn.text)?.[1] ?? null;
  const actions: NonNullable<TaskStepDetails['actions']> = [];
  if (turn.command) {
    const { action, ...params } = turn.command;
    actions.push({
      name: action,
      params,
      description: turn.title.slice(0, DESCRIPTION_MAX),
      result: error ? null : notice,
      error,
      ...(turn.done ? { is_done: true } : {}),
    });
  }
  return { url, next_goal: (said && turn.command ? `${turn.title} · ${said}` : said || turn.title).slice(0, 5000), actions };
}

/**
 * hello.client.name of the session a task runs on. The built-in agent takes the person's tasks on one
 * session and runs each on a session of its own (as `serve` does), so the side panel, the tab group
 * and the overlay name that session: it says in words which task it runs.
 */
export function taskSessionName(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim();
  const short = words.length <= 40 ? words : `${words.slice(0, 39).trimEnd()}…`;
  // A name, not a command: kept out of a code span's form so the printed-commands check does not run it.
  const name = 'browser-use-ext built-in agent';
  return `${name}, running "${short}"`.slice(0, 100);
}

/** A client that can open another session on the same bridge (AgentClient.connectAnother). */
type CanConnectAnother = Pick<AgentClient, 'connectAnother'>;
const canConnectAnother = (c: unknown): c is CanConnectAnother =>
  typeof (c as Partial<CanConnectAnother> | null)?.connectAnother === 'function';

/** task_progress of a finished run: done only when the agent said it reached the goal. */
export function outcomeProgress(out: AgentOutcome, maxSteps: number): Omit<TaskProgressMessage, 'type' | 'task_id'> {
  switch (out.status) {
    // The agent's answer is final_result, shown once beside the outcome: the message does not repeat it.
    case 'done':
      return { status: 'done', message: 'Done', final_result: out.final };
    case 'gave_up':
      return { status: 'incomplete', message: 'Not completed: the agent says it did not reach the goal.', final_result: out.final || null };
    case 'max_steps':
      return {
        status: 'incomplete',
        message: `Not completed: the agent used all its ${maxSteps} steps without finishing. Give it a smaller task, or more steps (--max-steps).`,
        final_result: out.said || null,
      };
    case 'stopped':
      return { status: 'stopped', message: out.final.slice(0, 2000) || 'stopped', final_result: null };
  }
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
    // The person's log reads as a conversation: their task is already there, so these say only that it began.
    o.client.sendTaskProgress({ task_id: id, status: 'accepted', message: 'Started' });
    o.client.sendTaskProgress({ task_id: id, status: 'running', message: 'Working' });
    log(`task ${id}: ${m.user_prompt}`);
    const goal = m.context.selected_text
      ? `${m.user_prompt}\n\n(The person had selected: "${m.context.selected_text}" on ${m.context.url})`
      : m.user_prompt;
    // The task's tabs are held by a session of its own: closing it when the task ends (done, not
    // completed, failed or stopped) frees them at once, so the overlay and the tab group go away and
    // the person has their tabs back. A client that cannot open another session (a test double) runs
    // the task on its own session.
    let session: AgentClient | null = null;
    const run = async (): Promise<AgentOutcome> => {
      if (canConnectAnother(o.client))
        session = await o.client.connectAnother({
          clientName: taskSessionName(m.user_prompt),
          capabilities: [],
          maxTabs: o.maxTabs,
          taskId: id,
        });
      return runGoal({ ...o, client: session ?? o.client }, goal, {
        signal: state.abort.signal,
        takeRedirects: () => state.redirects.splice(0),
        host: hostOf(m.context.url),
        // The tab the person was looking at when they typed the task (the panel itself is no tab).
        startTabId: m.context.active_tab_id,
        onStep: (s) => {
          const firstError = s.turn.text.split('\n').find((l) => l.startsWith('System Error:'));
          o.client.sendTaskProgress({
            task_id: id,
            status: 'step',
            step: s.step,
            message: `${s.turn.title}${firstError ? ` (${firstError.replace(/^System Error: /, 'error: ')})` : ''}`.slice(0, 2000),
            step_details: stepDetails(s.reply, s.turn),
          });
          log(`  step ${s.step}: ${s.turn.command ? JSON.stringify(s.turn.command) : 'no command'}`);
        },
      });
    };
    run()
      .then(async (out) => {
        await closeSession(session);
        const p = outcomeProgress(out, o.maxSteps);
        o.client.sendTaskProgress({ task_id: id, ...p });
        log(`task ${id} ${p.status}: ${out.final}`);
      })
      .catch(async (e: unknown) => {
        await closeSession(session);
        const msg = e instanceof Error ? e.message : String(e);
        o.client.sendTaskProgress({ task_id: id, status: 'failed', message: msg.slice(0, 2000), final_result: null });
        log(`task ${id} failed: ${msg}`);
      })
      .finally(() => {
        running = null;
      });
  });
}

/** Ends a task's own session (its tabs are freed at once); never throws. */
async function closeSession(session: AgentClient | null): Promise<void> {
  await session?.close().catch(() => undefined);
}
