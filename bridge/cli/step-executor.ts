// `browser-use-ext seed003`: one seed 003 execution step from JSON on stdin, as the seed's Input
// Schema writes it ({main_goal, plan_step, dom_snapshot, url, allowed_tools}: the tool is chosen from
// plan_step by the seed's Tool Selection), or wrapped with the caller's own choice of tool
// ({"input": {...}, "tool": {"tool", "args"}}); the seed's output JSON on stdout. `--snapshot` prints
// {dom_snapshot, url} of the current tab instead.
import { domSnapshot, executeStep, type Seed003Input, type Seed003ToolCall } from '../agents/step-executor/executor';
import { AgentClient } from '../client/agent-client';
import { browserLine } from './browser-line';
import { agentBridge, agentBrowser, ALIAS_BRIDGE, BROWSER_OPTION, type CommandSpec, flag, parseCommand } from './shared-options';
import { joinFailed } from './text-driver';

export const SEED003_COMMAND: CommandSpec = {
  name: 'seed003',
  usage: [`browser-use-ext seed003 [--snapshot] [options] < step.json`],
  about:
    `Runs one seed 003 execution step read as JSON on stdin and prints seed 003's output\n` +
    `{action, args, status, error_type, message}. step.json is seed 003's input {"main_goal", "plan_step",\n` +
    `"dom_snapshot", "url", "allowed_tools"} (the tool is chosen from plan_step), or {"input": {...},\n` +
    `"tool": {"tool": "click", "args": {"role": "button", "name": "Submit"}}} to choose the tool yourself`,
  options: [
    {
      name: 'snapshot',
      spec: { type: 'boolean' },
      row: { flags: '--snapshot', text: 'print {dom_snapshot, url} of the current tab instead (no stdin)' },
    },
    BROWSER_OPTION,
  ],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_BRIDGE],
};

async function readStdin(): Promise<string> {
  let s = '';
  for await (const chunk of process.stdin) s += (chunk as Buffer).toString();
  return s;
}

export async function seed003Command(argv: string[]): Promise<number> {
  const p = parseCommand(SEED003_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const bridge = agentBridge(p.values);
  if (!bridge) return 2;
  const browser = agentBrowser(p.values);
  if (!browser) return 2;
  let client: AgentClient;
  try {
    client = await AgentClient.connect({
      url: bridge.agentUrl,
      clientName: 'seed003-executor',
      ...(browser.name === undefined ? {} : { browser: browser.name }),
    });
  } catch (e) {
    process.stderr.write(joinFailed(e));
    return 1;
  }
  // stdout is the step's JSON: the browser line goes to stderr.
  const where = browserLine(browser.name, client.browser, client.hello?.browsers);
  if (where) process.stderr.write(`${where}\n`);
  try {
    if (flag(p.values, 'snapshot')) {
      process.stdout.write(JSON.stringify(await domSnapshot(client)) + '\n');
      return 0;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await readStdin());
    } catch (e) {
      process.stderr.write(`stdin is not JSON: ${(e as Error).message}\n`);
      return 2;
    }
    const step = readStep(raw);
    if (typeof step === 'string') {
      process.stderr.write(`${step}\n`);
      return 2;
    }
    const out = await executeStep(client, step.input, step.tool);
    process.stdout.write(JSON.stringify(out) + '\n');
    return out.status === 'success' ? 0 : 1;
  } finally {
    await client.close();
  }
}

/**
 * The step on stdin: seed 003's input itself, or {input, tool} (the wrapper, tool chosen by the
 * caller). A string says what is wrong, in words for the person writing the JSON.
 */
export function readStep(raw: unknown): { input: Seed003Input; tool?: Seed003ToolCall } | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return 'stdin must be a JSON object: seed 003\'s input {"main_goal", "plan_step", "dom_snapshot", "url", "allowed_tools"}.';
  const o = raw as Record<string, unknown>;
  const wrapped = 'input' in o;
  const input = (wrapped ? o['input'] : o) as Record<string, unknown> | null;
  const tool = wrapped ? o['tool'] : undefined;
  if (!input || typeof input !== 'object')
    return 'stdin\'s "input" must be seed 003\'s input object {"main_goal", "plan_step", "dom_snapshot", "url", "allowed_tools"}.';
  if (typeof input['plan_step'] !== 'string' || input['plan_step'].trim() === '')
    return 'seed 003\'s input needs "plan_step": the one step to execute, e.g. "Click the Search button".';
  if (!Array.isArray(input['allowed_tools']) || !input['allowed_tools'].every((t) => typeof t === 'string'))
    return 'seed 003\'s input needs "allowed_tools": a list of tool names, e.g. ["navigate", "click", "type"].';
  if (input['dom_snapshot'] !== undefined && (typeof input['dom_snapshot'] !== 'object' || input['dom_snapshot'] === null))
    return '"dom_snapshot" must be the accessibility tree object (as `browser-use-ext seed003 --snapshot` prints it), or {}.';
  if (tool !== undefined && (!tool || typeof tool !== 'object' || typeof (tool as { tool?: unknown }).tool !== 'string'))
    return '"tool" must be {"tool": "<name>", "args": {...}}, or leave "tool" out to let plan_step choose it.';
  const step: Seed003Input = {
    main_goal: typeof input['main_goal'] === 'string' ? input['main_goal'] : '',
    plan_step: input['plan_step'],
    dom_snapshot: (input['dom_snapshot'] ?? {}) as Record<string, unknown>,
    url: typeof input['url'] === 'string' ? input['url'] : '',
    allowed_tools: input['allowed_tools'] as string[],
  };
  return tool === undefined ? { input: step } : { input: step, tool: tool as Seed003ToolCall };
}
