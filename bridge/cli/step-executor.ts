// `browser-use-ext seed003`: one seed 003 execution step from JSON on stdin
// ({"input": {main_goal, plan_step, dom_snapshot, url, allowed_tools}, "tool": {"tool", "args"}}),
// the seed's output JSON on stdout. `--snapshot` prints {dom_snapshot, url} of the current tab instead.
import { parseArgs } from 'node:util';

import { domSnapshot, executeStep, type Seed003Input, type Seed003ToolCall } from '../agents/step-executor/executor';
import { AgentClient } from '../client/agent-client';
import { defaultAgentUrl } from '../common/ports';

async function readStdin(): Promise<string> {
  let s = '';
  for await (const chunk of process.stdin) s += (chunk as Buffer).toString();
  return s;
}

export async function seed003Command(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { bridge: { type: 'string' }, snapshot: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(
      `Usage: browser-use-ext seed003 [--snapshot] [--bridge URL] < step.json\nstep.json: {"input": {"main_goal", "plan_step", "dom_snapshot", "url", "allowed_tools"}, "tool": {"tool": "click", "args": {"role": "button", "name": "Submit"}}}\nPrints seed 003's output {action, args, status, error_type, message}. --snapshot prints {dom_snapshot, url} of the current tab.\n`,
    );
    return 0;
  }
  const client = await AgentClient.connect({
    url: values.bridge ?? defaultAgentUrl(),
    clientName: 'seed003-executor',
  });
  try {
    if (values.snapshot) {
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
