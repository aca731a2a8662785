// The built-in seed 002 agent: system prompt -> LLM reply -> driver runs its one command -> the
// agent receives the System lines and snapshots -> ... until the reply has no command (done), the
// step limit, or Stop. A person's redirect ("SEND COMMAND") is injected as the next prompt.
// While the LLM thinks, the driver watches the target tabs (Seed002Driver.waitForChange): when a
// page changes meaningfully by itself, the reply being written is for a view that no longer exists
// (seed 002: "wait for the next DOM snapshot before issuing another command"), so the call is
// aborted and asked again with the new <browsing_context> appended (at most maxInterruptions times
// per step, so a page that never holds still cannot starve the agent).
import { type Seed002Driver, type TurnResult } from './driver';
import type { ChatFn, ChatMessage } from './llm';
import { type PromptTool, systemPrompt } from './prompt';

export interface AgentStep {
  step: number;
  reply: string;
  turn: TurnResult;
}

export interface AgentLoopOptions {
  driver: Seed002Driver;
  llm: ChatFn;
  goal: string;
  tools: readonly PromptTool[];
  maxTabs: number;
  keyword: string;
  maxSteps?: number;
  signal?: AbortSignal;
  /** Redirects typed by the person since the last step (drained each step). */
  takeRedirects?: () => string[];
  onStep?: (s: AgentStep) => void;
  /** How many recent observations stay in full in the conversation (older ones are elided). */
  keepObservations?: number;
  /** The first target tab (a panel task's context.active_tab_id); omitted: the active tab. */
  startTabId?: number;
  /** Watch the target tabs while the LLM thinks (default true). */
  watchChanges?: boolean;
  /** Re-asks per step because of a page change (default 2). */
  maxInterruptions?: number;
  /** A page change delivered to the agent (its <browsing_context> text). */
  onUpdate?: (text: string) => void;
}

export interface AgentOutcome {
  /** done: the agent said it reached the goal. gave_up: its done command said success false. */
  status: 'done' | 'gave_up' | 'max_steps' | 'stopped';
  /** The final reply without its session keyword (done), its reason (gave_up), else why it ended. */
  final: string;
  steps: number;
  /** The agent's own words in its last reply (without commands and keyword), when it said any. */
  said?: string;
}

/** A reply's prose: without its command blocks and its session keyword. */
export function proseOf(reply: string, keyword: string): string {
  return stripKeyword(reply.replace(/<tool_code>[\s\S]*?<\/tool_code>/g, '').replace(/```json[\s\S]*?```/g, ''), keyword);
}

export function stripKeyword(reply: string, keyword: string): string {
  return reply.split(keyword).join('').trim();
}

export async function runSeed002Agent(o: AgentLoopOptions): Promise<AgentOutcome> {
  const maxSteps = o.maxSteps ?? 30;
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt({ goal: o.goal, tools: o.tools, maxTabs: o.maxTabs, keyword: o.keyword }) },
  ];
  messages.push({ role: 'user', content: await o.driver.observe(o.startTabId) });
  let said = '';
  for (let step = 1; step <= maxSteps; step++) {
    if (o.signal?.aborted) return { status: 'stopped', final: 'Stopped by the person.', steps: step - 1 };
    let reply: string;
    try {
      reply = await ask(o, messages);
    } catch (e) {
      if (o.signal?.aborted) return { status: 'stopped', final: 'Stopped by the person.', steps: step - 1 };
      throw e;
    }
    messages.push({ role: 'assistant', content: reply });
    const turn = await o.driver.execute(reply);
    said = proseOf(reply, o.keyword) || said;
    o.onStep?.({ step, reply, turn });
    if (turn.done) {
      const c = turn.command;
      if (c?.action === 'done')
        return { status: c.success ? 'done' : 'gave_up', final: c.text || proseOf(reply, o.keyword), steps: step, said };
      return { status: 'done', final: stripKeyword(reply, o.keyword), steps: step, said };
    }
    const redirects = o.takeRedirects?.() ?? [];
    const text = redirects.length ? `${turn.text}\n\nThe person sent a command: ${redirects.join('\n')}` : turn.text;
    messages.push({ role: 'user', content: text });
  }
  return { status: 'max_steps', final: `Stopped after ${maxSteps} steps without finishing.`, steps: maxSteps, said };
}

/** One reply, re-asked when a target tab changed meaningfully while the LLM was thinking. */
async function ask(o: AgentLoopOptions, messages: ChatMessage[]): Promise<string> {
  for (let interruptions = 0; ; interruptions++) {
    const watch = (o.watchChanges ?? true) && interruptions < (o.maxInterruptions ?? 2);
    if (!watch) return o.llm(elide(messages, o.keepObservations ?? 3), o.signal);
    const call = new AbortController();
    const onStop = () => call.abort();
    o.signal?.addEventListener('abort', onStop, { once: true });
    const watching = new AbortController();
    const replyP = o.llm(elide(messages, o.keepObservations ?? 3), call.signal);
    const changeP = o.driver.waitForChange(watching.signal);
    try {
      const first = await Promise.race([replyP.then((reply) => ({ reply })), changeP.then((update) => ({ update }))]);
      if ('reply' in first) return first.reply;
      if (first.update === null) return await replyP;
      // The page changed under the LLM: drop this answer, show it the new state, ask again.
      call.abort();
      replyP.catch(() => undefined);
      const last = messages[messages.length - 1];
      if (last?.role === 'user') last.content = `${last.content}\n\n${first.update}`;
      else messages.push({ role: 'user', content: first.update });
      o.onUpdate?.(first.update);
    } finally {
      watching.abort();
      // No poll may run concurrently with the command that follows.
      await changeP.catch(() => null);
      o.signal?.removeEventListener('abort', onStop);
    }
  }
}

/** Keeps the system prompt, every reply and the last `keep` observations in full. */
function elide(messages: readonly ChatMessage[], keep: number): ChatMessage[] {
  const userIdx = messages.map((m, i) => (m.role === 'user' ? i : -1)).filter((i) => i >= 0);
  const old = new Set(userIdx.slice(0, Math.max(0, userIdx.length - keep)));
  return messages.map((m, i) => (old.has(i) ? { role: m.role, content: '[earlier browser state omitted]' } : m));
}
