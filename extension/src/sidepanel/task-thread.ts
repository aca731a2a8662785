// A task read like a conversation: the person's task, the agent's steps in plain words, the
// person's redirects where they were sent, and the answer once with how the task ended. Built from
// the task's log (task-relay.ts appends each task_progress and each Stop or redirect the person sent,
// in the order they arrived) with three repairs an agent's timing needs:
//   - a step reports when it ends, so a Stop pressed while a step ran arrives before that step's
//     report: the Stop is shown after the step that was running (the next one reported);
//   - the agent's plumbing (accepted, running, "Redirected: ..." echoes) is no line of its own;
//   - the final answer comes once, at the end: a done action's words and the final message that
//     repeat it are not shown again.
import type { TaskLogEntry, TaskRecord } from '../shared/panel-messages';
import { actionWords, isFinishing } from './action-words';

export type Ending = 'done' | 'incomplete' | 'failed' | 'stopped';

export interface ThreadAction {
  words: string;
  /** The action's error in the agent's words, or null when it did not fail. */
  error: string | null;
}

export type ThreadItem =
  | { kind: 'step'; step: number | null; goal: string; actions: ThreadAction[] }
  | { kind: 'redirect'; text: string }
  | { kind: 'stop' }
  /** The agent's words outside a step (it could not take a redirect, say). */
  | { kind: 'note'; text: string }
  | { kind: 'waiting'; text: string }
  /** The answer once; reason: the agent's final message when it says more than the answer (why it ended). */
  | { kind: 'answer'; ending: Ending; text: string; said: boolean; reason: string | null };

const ENDINGS: ReadonlySet<string> = new Set<Ending>(['done', 'incomplete', 'failed', 'stopped']);
export const isEnding = (s: string): s is Ending => ENDINGS.has(s);

/** Progress lines that only say the agent is busy: the task's badge says that already. */
const PLUMBING = /^(running|started|working|accepted\b.*|redirected: .*)$/is;
/** The bare words of an ending that say nothing beyond the badge. */
// An ending's message that says no more than the outcome's badge (serve's and the built-in agent's
// "Not completed: the agent says it did not reach the goal." beside the agent's own words) is not shown.
const BARE_END = /^(done|stopped|stop requested…?|incomplete|failed|not completed: the agent says it did not reach the goal)\.?$/i;

function step(e: TaskLogEntry): ThreadItem {
  const d = e.details;
  const actions = (d?.actions ?? []).filter((a) => !isFinishing(a)).map((a) => ({ words: actionWords(a), error: a.error ?? null }));
  const goal = (d?.next_goal ?? '').trim() || e.message.trim();
  return { kind: 'step', step: e.step ?? null, goal: /^step \d+$/i.test(goal) ? '' : goal, actions };
}

function answer(t: TaskRecord, end: TaskLogEntry | undefined, steps: number): ThreadItem | null {
  const ending = isEnding(t.state) ? t.state : end && isEnding(end.status) ? end.status : null;
  if (!ending) return null;
  const final = t.final_result?.trim() ?? '';
  const message = end && !BARE_END.test(end.message.trim()) ? end.message.trim() : '';
  // The final message often repeats the answer ("Not completed. The agent says ...: <answer>"): once only.
  const reason = final && message && !message.includes(final) ? message : null;
  const said = final !== '';
  const text =
    ending === 'failed'
      ? message || final || 'The task failed.'
      : final ||
        message ||
        (ending === 'stopped'
          ? steps
            ? `Stopped after ${steps} step${steps === 1 ? '' : 's'}.`
            : 'Stopped before the first step.'
          : ending === 'done'
            ? 'The agent said it reached the goal.'
            : 'The agent ended without reaching the goal.');
  return { kind: 'answer', ending, text, said: said && ending !== 'failed' && text === final, reason: ending === 'failed' ? null : reason };
}

/** The thread of a task, in the order things happened, the answer last and once. */
export function taskThread(t: TaskRecord): ThreadItem[] {
  const items: ThreadItem[] = [];
  let steps = 0;
  let end: TaskLogEntry | undefined;
  /** A Stop waiting for the report of the step that ran when it was pressed. */
  let stopPending = false;
  for (const e of t.log) {
    if (end) break; // the answer is final: a line after it would repeat it
    if (isEnding(e.status)) {
      end = e;
      break;
    }
    switch (e.status) {
      case 'step': {
        const item = step(e);
        const last = items[items.length - 1];
        // A step reported twice (an agent re-sending its last report) stays one line, the later words.
        if (last?.kind === 'step' && item.kind === 'step' && last.step !== null && last.step === item.step) items.pop();
        else steps++;
        items.push(item);
        if (stopPending) {
          items.push({ kind: 'stop' });
          stopPending = false;
        }
        break;
      }
      case 'redirect_sent':
        items.push({ kind: 'redirect', text: e.message.replace(/^You: /, '') });
        break;
      case 'stop_requested':
        // Only the first Stop counts; a second press changes nothing.
        if (!stopPending && !items.some((i) => i.kind === 'stop')) stopPending = true;
        break;
      case 'running':
        if (steps > 0 && !PLUMBING.test(e.message.trim())) items.push({ kind: 'note', text: e.message });
        break;
      default:
        // submitted, accepted: plumbing before the first step.
        break;
    }
  }
  if (stopPending) items.push({ kind: 'stop' });
  const a = answer(t, end, steps);
  if (a) items.push(a);
  else if (steps === 0)
    items.splice(0, 0, {
      kind: 'waiting',
      text: t.state === 'submitted' ? 'Waiting for an agent to take the task…' : 'The agent took the task; waiting for its first step…',
    });
  return items;
}
