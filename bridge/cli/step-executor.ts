// `browser-use-ext seed003`: one seed 003 execution step from JSON on stdin
// ({"input": {main_goal, plan_step, dom_snapshot, url, allowed_tools}, "tool": {"tool", "args"}}),
// the seed's output JSON on stdout. `--snapshot` prints {dom_snapshot, url} of the current tab instead.
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
    `{action, args, status, error_type, message}. step.json: {"input": {"main_goal", "plan_step",\n` +
    `"dom_snapshot", "url", "allowed_tools"}, "tool": {"tool": "click", "args": {"role": "button", "name": "Submit"}}}`,
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
    let step: { input?: Seed003Input; tool?: Seed003ToolCall };
    try {
      step = JSON.parse(await readStdin()) as typeof step;
    } catch (e) {
      process.stderr.write(`stdin is not JSON: ${(e as Error).message}\n`);
      return 2;
    }
    if (!step.input || !step.tool) {
      process.stderr.write('stdin must be {"input": {...}, "tool": {"tool": "...", "args": {...}}}.\n');
      return 2;
    }
    const out = await executeStep(client, step.input, step.tool);
    process.stdout.write(JSON.stringify(out) + '\n');
    return out.status === 'success' ? 0 : 1;
  } finally {
    await client.close();
  }
}
