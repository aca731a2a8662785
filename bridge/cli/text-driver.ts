// `browser-use-ext agent`: the built-in agent (seed 002's prompt) (any OpenAI-compatible endpoint).
// `browser-use-ext seed002`: the text driver as a pipe: JSON lines {"reply": "..."} in, {"text", "done",
// "error"} out (the first output line is the initial observation), for clients in any language.
import readline from 'node:readline';

import { Seed002Driver } from '../agents/text-driver/driver';
import { openAiChat } from '../agents/text-driver/llm';
import { runGoal, serveTasks } from '../agents/text-driver/task-runner';
import { AgentClient, BridgeClientError } from '../client/agent-client';
import { AGENT_SECRET_ENV } from '../common/secrets';
import { browserLine } from './browser-line';
import { agentBridge, agentBrowser, ALIAS_BRIDGE, BROWSER_OPTION, type CommandSpec, parseCommand, str } from './shared-options';

export const LLM_KEY_ENVS = ['BROWSER_USE_EXT_LLM_API_KEY', 'OPENAI_API_KEY'] as const;

export const AGENT_COMMAND: CommandSpec = {
  name: 'agent',
  usage: [`browser-use-ext agent [--goal TEXT] [options]`],
  about:
    `The built-in agent: sends its system prompt (commands, your saved tools, the tab limit, the goal)\n` +
    `to an OpenAI-compatible chat endpoint and runs its commands in your browser until it answers\n` +
    `without a command, --max-steps, or Stop. Without --goal it waits for tasks typed in the side panel.`,
  options: [
    {
      name: 'base-url',
      spec: { type: 'string' },
      row: { flags: '--base-url <url>', text: 'chat endpoint base (default $OPENAI_BASE_URL, else https://api.openai.com/v1)' },
    },
    { name: 'model', spec: { type: 'string' }, row: { flags: '--model <name>', text: 'model (default $OPENAI_MODEL, else gpt-4o-mini)' } },
    { name: 'goal', spec: { type: 'string' }, row: { flags: '--goal <text>', text: 'run this one goal and exit (0 when done)' } },
    { name: 'max-steps', spec: { type: 'string' }, row: { flags: '--max-steps <n>', text: 'default 30' } },
    { name: 'max-tabs', spec: { type: 'string' }, row: { flags: '--max-tabs <n>', text: 'tab limit (default 3)' } },
    BROWSER_OPTION,
  ],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_BRIDGE],
  footer:
    `The API key comes from $${LLM_KEY_ENVS.join(' or $')}; the agent secret from $${AGENT_SECRET_ENV}, else the\n` +
    `bridge's secrets.json in the config dir.`,
};

export const SEED002_COMMAND: CommandSpec = {
  name: 'seed002',
  usage: [`browser-use-ext seed002 [--max-tabs N] [options]`],
  about:
    `The text driver as a pipe, for clients in any language. Reads JSON lines {"reply": "<LLM reply>"} on\n` +
    `stdin; writes {"text", "done", "error"} per line (the first line is the initial observation).\n` +
    `A line {"wait_for_change": <ms>} answers {"text", "update": true} with the <browsing_context> of a\n` +
    `target tab that changed by itself within ms, else {"text": "", "update": false}.`,
  options: [
    { name: 'max-tabs', spec: { type: 'string' }, row: { flags: '--max-tabs <n>', text: 'tab limit (default 3)' } },
    BROWSER_OPTION,
  ],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_BRIDGE],
};

/** The one line an agent command ends with when it cannot join the bridge (or the bridge refused its secret). */
export function joinFailed(e: unknown): string {
  return e instanceof BridgeClientError && e.code === 'UNAUTHORIZED'
    ? `${e.message}\n`
    : `Cannot join the bridge: ${e instanceof Error ? e.message : String(e)}\n`;
}

function intOpt(v: string | undefined, dflt: number, name: string, max: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be an integer 1-${max}, got "${v}".`);
  return n;
}

export async function agentCommand(argv: string[]): Promise<number> {
  const p = parseCommand(AGENT_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const values = p.values;
  let maxSteps: number;
  let maxTabs: number;
  try {
    maxSteps = intOpt(str(values, 'max-steps'), 30, 'max-steps', 1000);
    maxTabs = intOpt(str(values, 'max-tabs'), 3, 'max-tabs', 100);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const bridge = agentBridge(values);
  if (!bridge) return 2;
  const browser = agentBrowser(values);
  if (!browser) return 2;
  const apiKey = LLM_KEY_ENVS.map((k) => process.env[k]).find((v) => v);
  const model = str(values, 'model') ?? process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';
  const llm = openAiChat({
    baseUrl: str(values, 'base-url') ?? process.env['OPENAI_BASE_URL'] ?? 'https://api.openai.com/v1',
    model,
    ...(apiKey ? { apiKey } : {}),
  });
  const goal = str(values, 'goal');
  let client: AgentClient;
  try {
    client = await AgentClient.connect({
      url: bridge.agentUrl,
      clientName: 'seed002-agent',
      model,
      capabilities: goal ? [] : ['accepts_tasks'],
      maxTabs,
      callTimeoutMs: 15_000,
      ...(browser.name === undefined ? {} : { browser: browser.name }),
    });
  } catch (e) {
    process.stderr.write(joinFailed(e));
    return 1;
  }
  const log = (l: string) => process.stdout.write(l + '\n');
  const where = browserLine(browser.name, client.browser, client.hello?.browsers);
  if (where) log(where);
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
  log(`The built-in agent is connected: type a task in the extension's side panel. Ctrl+C to stop.`);
  const ended = await new Promise<string | null>((resolve) => {
    process.once('SIGINT', () => resolve(null));
    process.once('SIGTERM', () => resolve(null));
    client.once('ended', (e: BridgeClientError) => resolve(e.message));
    client.on('close', (code: number, reason: string) => {
      if (code === 1000 || code === 1008) resolve(null);
      else if (code >= 4000) resolve(client.ended?.message ?? `the bridge closed the session (${code} ${reason})`);
    });
  });
  await client.close();
  if (ended !== null) {
    process.stderr.write(`${ended}\n`);
    return 1;
  }
  return 0;
}

export async function driverCommand(argv: string[]): Promise<number> {
  const p = parseCommand(SEED002_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  let maxTabs: number;
  try {
    maxTabs = intOpt(str(p.values, 'max-tabs'), 3, 'max-tabs', 100);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const bridge = agentBridge(p.values);
  if (!bridge) return 2;
  const browser = agentBrowser(p.values);
  if (!browser) return 2;
  let client: AgentClient;
  try {
    client = await AgentClient.connect({
      url: bridge.agentUrl,
      clientName: 'seed002-driver',
      maxTabs,
      callTimeoutMs: 15_000,
      ...(browser.name === undefined ? {} : { browser: browser.name }),
    });
  } catch (e) {
    process.stderr.write(joinFailed(e));
    return 1;
  }
  // stdout is the JSON-lines pipe: the browser line goes to stderr.
  const where = browserLine(browser.name, client.browser, client.hello?.browsers);
  if (where) process.stderr.write(`${where}\n`);
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
