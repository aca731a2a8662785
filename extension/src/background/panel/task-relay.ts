// Tasks a person gives from the side panel (user_task_submission / task_progress; seed 004 phase 2, seed 002 SEND COMMAND):
// user_task_submission with the context bundle goes to the bridge; each task_progress that comes back
// is appended to the task's log in chrome.storage.local (the panel renders it live, and past tasks
// survive restarts); Stop and redirect go out as task_control. With no task-accepting agent the bridge
// answers NO_TASK_AGENT, which the task shows with how to start one.
import type { ContextElement, ErrorMessage, ProtocolMessage, TaskProgressMessage } from '../../../../schemas/generated/protocol';
import { MAX_TASKS, PANEL_KEYS, type TaskRecord, type TaskState } from '../../shared/panel-messages';
import { buildContext } from './context-bundle';

type Send = (m: ProtocolMessage) => boolean;

/** Serialized read-modify-write of the task list (progress arrives faster than storage round trips). */
let chain: Promise<unknown> = Promise.resolve();
function updateTasks(fn: (tasks: TaskRecord[]) => TaskRecord[] | void): Promise<TaskRecord[]> {
  const next = chain.then(async () => {
    const got = await chrome.storage.local.get(PANEL_KEYS.tasks);
    const tasks = Array.isArray(got[PANEL_KEYS.tasks]) ? (got[PANEL_KEYS.tasks] as TaskRecord[]) : [];
    const out = fn(tasks) ?? tasks;
    await chrome.storage.local.set({ [PANEL_KEYS.tasks]: out.slice(0, MAX_TASKS) });
    return out;
  });
  chain = next.catch(() => undefined);
  return next;
}

const FINAL: ReadonlySet<string> = new Set(['done', 'incomplete', 'failed', 'stopped']);

function newTaskId(): string {
  const rnd = crypto.getRandomValues(new Uint8Array(6));
  return `task-${Date.now().toString(36)}-${Array.from(rnd, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export async function submitTask(
  send: Send,
  connected: boolean,
  prompt: string,
  element: ContextElement | null,
  agentSessionId: string | null = null,
): Promise<{ ok: true; task_id: string } | { ok: false; error: string }> {
  const text = prompt.trim();
  if (!text) return { ok: false, error: 'Type what the agent should do first.' };
  if (!connected) return { ok: false, error: 'Not connected to the bridge; see the connection status above.' };
  const context = await buildContext(element);
  const task_id = newTaskId();
  const record: TaskRecord = {
    task_id,
    prompt: text,
    url: context.url,
    page_title: context.page_title,
    element,
    submitted_at: Date.now(),
    state: 'submitted',
    log: [{ at: Date.now(), status: 'submitted', message: 'Sent to the bridge.' }],
  };
  await updateTasks((tasks) => [record, ...tasks]);
  const sent = send({
    type: 'user_task_submission',
    task_id,
    user_prompt: text.slice(0, 20_000),
    timestamp: new Date().toISOString(),
    context,
    ...(agentSessionId ? { agent_session_id: agentSessionId } : {}),
  });
  if (!sent) {
    await fail(task_id, 'The task could not be sent: the bridge connection closed. Submit it again once connected.');
    return { ok: false, error: 'The bridge connection closed; try again once connected.' };
  }
  return { ok: true, task_id };
}

export function taskControl(
  send: Send,
  taskId: string,
  command: 'stop' | 'redirect',
  text?: string,
): { ok: true } | { ok: false; error: string } {
  if (command === 'redirect' && !text?.trim()) return { ok: false, error: 'Type the new instruction first.' };
  const ok = send(
    command === 'redirect'
      ? { type: 'task_control', task_id: taskId, command, text: (text ?? '').trim().slice(0, 20_000) }
      : { type: 'task_control', task_id: taskId, command },
  );
  if (!ok) return { ok: false, error: 'Not connected to the bridge; the command was not sent.' };
  void updateTasks((tasks) => {
    const t = tasks.find((x) => x.task_id === taskId);
    t?.log.push({
      at: Date.now(),
      status: command === 'stop' ? 'stop_requested' : 'redirect_sent',
      message: command === 'stop' ? 'Stop requested…' : `You: ${(text ?? '').trim()}`,
    });
  });
  return { ok: true };
}

export function onTaskProgress(p: TaskProgressMessage): Promise<unknown> {
  return updateTasks((tasks) => {
    let t = tasks.find((x) => x.task_id === p.task_id);
    if (!t) {
      // A task submitted by another client of the bridge, or before the storage was cleared.
      t = {
        task_id: p.task_id,
        prompt: '(task from elsewhere)',
        url: '',
        page_title: '',
        submitted_at: Date.now(),
        state: 'accepted',
        log: [],
      };
      tasks.unshift(t);
    }
    t.log.push({
      at: Date.now(),
      status: p.status,
      message: p.message,
      ...(p.step !== undefined ? { step: p.step } : {}),
      ...(p.step_details ? { details: p.step_details } : {}),
    });
    if (t.log.length > 300) t.log.splice(0, t.log.length - 300);
    if (!FINAL.has(t.state)) t.state = p.status === 'step' ? 'running' : (p.status as TaskState);
    if (p.final_result !== undefined) t.final_result = p.final_result;
  });
}

function fail(taskId: string, message: string): Promise<unknown> {
  return updateTasks((tasks) => {
    const t = tasks.find((x) => x.task_id === taskId);
    if (!t || FINAL.has(t.state)) return;
    t.state = 'failed';
    t.log.push({ at: Date.now(), status: 'failed', message });
  });
}

// Commands between backticks: the panel shows each as a <code> box (shared/command-text.ts).
const NO_AGENT_HELP =
  'No agent that accepts tasks is connected, so the task did not start. Start one in a terminal: `python -m browser_use_ext serve --llm openai --model gpt-4o` (the README covers Anthropic, Google, Ollama and any OpenAI-compatible server), or with no Python the built-in agent: `browser-use-ext agent --base-url https://api.openai.com/v1 --model gpt-4o-mini`. Then run the task again.';
// The bridge's words name the session id; the person knows the agent by its place under "Run with".
const CHOSEN_AGENT_GONE =
  'The agent picked under "Run with" is no longer connected, so the task did not start. Pick another agent there, or start one, then run the task again.';

/** An `error` from the bridge that answers one of our task messages. Returns true when handled. */
export function onTaskError(e: ErrorMessage): boolean {
  const code = e.error_info.error_code;
  const id = e.in_reply_to ?? (typeof e.error_info.details?.['task_id'] === 'string' ? (e.error_info.details['task_id'] as string) : null);
  if (!id || !id.startsWith('task-')) return false;
  // A chosen runner that is gone: say so; otherwise how to start an agent.
  if (code === 'NO_TASK_AGENT') void fail(id, e.error_info.details?.['agent_session_id'] ? CHOSEN_AGENT_GONE : NO_AGENT_HELP);
  else if (code === 'TASK_NOT_FOUND') void fail(id, e.error_info.message);
  else void fail(id, `${code}: ${e.error_info.message}`);
  return true;
}

export function clearFinishedTasks(): Promise<unknown> {
  return updateTasks((tasks) => tasks.filter((t) => !FINAL.has(t.state)));
}

/** Tasks from the panel that have not ended. */
export async function runningTaskIds(): Promise<string[]> {
  const got = await chrome.storage.local.get(PANEL_KEYS.tasks);
  const tasks = Array.isArray(got[PANEL_KEYS.tasks]) ? (got[PANEL_KEYS.tasks] as TaskRecord[]) : [];
  return tasks.filter((t) => !FINAL.has(t.state)).map((t) => t.task_id);
}
