// `browser-use-ext agent`: the built-in seed 002 agent (any OpenAI-compatible endpoint).
// `browser-use-ext seed002`: the text driver as a pipe: JSON lines {"reply": "..."} in, {"text", "done",
// "error"} out (the first output line is the initial observation), for clients in any language.
import readline from 'node:readline';
import { parseArgs } from 'node:util';

import { Seed002Driver } from '../agents/text-driver/driver';
import { openAiChat } from '../agents/text-driver/llm';
import { runGoal, serveTasks } from '../agents/text-driver/task-runner';
import { AgentClient } from '../client/agent-client';
import { defaultAgentUrl } from '../common/ports';

export const LLM_KEY_ENVS = ['BROWSER_USE_EXT_LLM_API_KEY', 'OPENAI_API_KEY'] as const;

export const AGENT_HELP = `Usage: browser-use-ext agent [--goal TEXT] [options]

The built-in seed 002 agent: sends seed 002's system prompt (commands, your saved tools, the tab
limit, the goal, a session keyword) to an OpenAI-compatible chat endpoint and runs its commands in
your browser until it answers without a command, --max-steps, or Stop.
Without --goal it waits for tasks typed in the extension's panel (accepts_tasks).

  --base-url <url>   chat endpoint base (default $OPENAI_BASE_URL, else https://api.openai.com/v1)
  --model <name>     model (default $OPENAI_MODEL, else gpt-4o-mini)
  --goal <text>      run this one goal and exit (0 when done)
  --max-steps <n>    default 30
  --max-tabs <n>     tab limit (default 3, as seed 002's example)
  --bridge <url>     agent endpoint (default ${defaultAgentUrl()})
The API key comes from $${LLM_KEY_ENVS.join(' or $')}; the agent secret from $BROWSER_USE_EXT_AGENT_SECRET or the bridge's secrets file.
`;

function intOpt(v: string | undefined, dflt: number, name: string, max: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be an integer 1-${max}, got "${v}".`);
  return n;
}

export async function agentCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string' },
      model: { type: 'string' },
      goal: { type: 'string' },
      'max-steps': { type: 'string' },
      'max-tabs': { type: 'string' },
      bridge: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(AGENT_HELP);
    return 0;
  }
  let maxSteps: number;
  let maxTabs: number;
  try {
    maxSteps = intOpt(values['max-steps'], 30, 'max-steps', 1000);
    maxTabs = intOpt(values['max-tabs'], 3, 'max-tabs', 100);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const apiKey = LLM_KEY_ENVS.map((k) => process.env[k]).find((v) => v);
  const model = values.model ?? process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';
  const llm = openAiChat({
    baseUrl: values['base-url'] ?? process.env['OPENAI_BASE_URL'] ?? 'https://api.openai.com/v1',
    model,
    ...(apiKey ? { apiKey } : {}),
  });
  const goal = values.goal;
  let client: AgentClient;
  try {
    client = await AgentClient.connect({
      url: values.bridge ?? defaultAgentUrl(),
      clientName: 'seed002-agent',
      model,
      capabilities: goal ? [] : ['accepts_tasks'],
      maxTabs,
      callTimeoutMs: 15_000,
    });
  } catch (e) {
    process.stderr.write(`Cannot join the bridge: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const log = (l: string) => process.stdout.write(l + '\n');
  if (goal) {
    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort());
    try {
      const out = await runGoal({ client, llm, maxTabs, maxSteps }, goal, {
        signal: abort.signal,
        onStep: (s) =>
          log(
            `step ${s.step}: ${s.turn.command ? JSON.stringify(s.turn.command) : 'no command'}${s.turn.error ? ` -> ${s.turn.text.split('\n')[0] ?? ''}` : ''}`,
          ),
      });
      log(`${out.status}: ${out.final}`);
      return out.status === 'done' ? 0 : 1;
    } catch (e) {
      process.stderr.write(`agent failed: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    } finally {
      await client.close();
    }
  }
  serveTasks({ client, llm, maxTabs, maxSteps }, log);
  log('seed002-agent connected (accepts_tasks): type a task in the extension panel. Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    client.once('close', (code: number) => {
      if (code === 1000 || code === 1008 || code >= 4000) resolve();
    });
  });
  await client.close();
  return 0;
}

export async function driverCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { bridge: { type: 'string' }, 'max-tabs': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(
      `Usage: browser-use-ext seed002 [--bridge URL] [--max-tabs N]\nReads JSON lines {"reply": "<LLM reply>"} on stdin; writes {"text", "done", "error"} per line (the first line is the initial observation).\nA line {"wait_for_change": <ms>} answers {"text", "update": true} with the <browsing_context> of a target tab that changed by itself within ms, else {"text": "", "update": false}.\n`,
    );
    return 0;
  }
  const client = await AgentClient.connect({
    url: values.bridge ?? defaultAgentUrl(),
    clientName: 'seed002-driver',
    maxTabs: intOpt(values['max-tabs'], 3, 'max-tabs', 100),
    callTimeoutMs: 15_000,
  });
  const driver = new Seed002Driver(client, client);
  const write = (v: unknown) => process.stdout.write(JSON.stringify(v) + '\n');
  write({ text: await driver.observe(), done: false, error: false });
  const rl = readline.createInterface({ input: process.stdin });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let reply: unknown;
    let waitMs: unknown;
    try {
      ({ reply, wait_for_change: waitMs } = JSON.parse(line) as { reply?: unknown; wait_for_change?: unknown });
    } catch {
      reply = undefined;
    }
    // {"wait_for_change": ms}: the next meaningful change on a target tab, if any within ms (seed 002's
    // snapshot after a change the agent did not cause).
    if (typeof waitMs === 'number' && Number.isInteger(waitMs) && waitMs >= 0 && waitMs <= 600_000) {
      const update = await driver.waitForChange(AbortSignal.timeout(waitMs));
      write({ text: update ?? '', done: false, error: false, update: update !== null });
      continue;
    }
    if (typeof reply !== 'string') {
      write({ text: 'System Error: each input line must be JSON {"reply": "<the LLM reply>"}.', done: false, error: true });
      continue;
    }
    const turn = await driver.execute(reply);
    write({ text: turn.text, done: turn.done, error: turn.error, command: turn.command });
  }
  await client.close();
  return 0;
}
