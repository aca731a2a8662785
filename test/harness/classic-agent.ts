// browser_use 0.1.48's real Agent through the Python shim, started as a process beside a test
// (python-shim-spec/tests/cdp/run_bu048.py on the fixture shop, answered by its in-process scripted
// model), for the e2e cases where it works at the same time as other agents: the test decides when it
// connects and when its model goes on past the results page, so the agents' work overlaps for sure.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

import type { Harness } from './harness';
import { BROWSER_USE_PYTHON, SHIM_DIR, shimPythonEnv } from './python';

export interface ClassicReport {
  final_result: string | null;
  choice: { name: string } | null;
  /** The page URL of every step's state. */
  urls: string[];
  errors: string[];
}

/**
 * browser_use 0.1.48's real Agent through the Python shim (python-shim-spec/tests/cdp/run_bu048.py: "find
 * the cheapest stapler and add it to the cart" on <fixturesUrl>/shop/, the in-process scripted model).
 * Started early, it imports browser_use and waits: go() lets it connect; its model then pauses on the
 * results page (held) until release(). `browserName`: the browser it works in (ExtensionBrowser's
 * browser_name keyword); omitted, the bridge's default.
 */
export function startClassicAgent(
  h: Harness,
  fixturesUrl: string,
  o: { browserName?: string } = {},
): {
  ready: Promise<void>;
  held: Promise<void>;
  go(): void;
  release(): void;
  kill(): void;
  done: Promise<ClassicReport>;
  output: string[];
} {
  const output: string[] = [];
  const proc = spawn(
    BROWSER_USE_PYTHON,
    [
      path.join(SHIM_DIR, 'tests', 'cdp', 'run_bu048.py'),
      h.bridge.agentUrl,
      h.secrets.agent_secret,
      fixturesUrl,
      '--wait-for-go',
      '--hold-on',
      'results.html',
      ...(o.browserName === undefined ? [] : ['--browser-name', o.browserName]),
    ],
    { cwd: SHIM_DIR, env: shimPythonEnv(BROWSER_USE_PYTHON, {}), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const signals = new Map<string, () => void>();
  const signal = (line: string) => new Promise<void>((r) => signals.set(line, r));
  const ready = signal('ready');
  const held = signal('held');
  for (const s of [proc.stdout, proc.stderr])
    readline.createInterface({ input: s }).on('line', (l) => {
      output.push(l);
      signals.get(l)?.();
    });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
  const done = new Promise<ClassicReport>((resolve, reject) =>
    proc.once('close', (code) => {
      clearTimeout(timer);
      const last = output.filter((l) => l.startsWith('{')).at(-1);
      if (code === 0 && last) resolve(JSON.parse(last) as ClassicReport);
      else reject(new Error(`the classic agent (run_bu048.py) exited with ${code}:\n${output.slice(-60).join('\n')}`));
    }),
  );
  return {
    ready,
    held,
    go: () => proc.stdin.write('go\n'),
    release: () => proc.stdin.end('release\n'),
    kill: () => proc.kill('SIGKILL'),
    done,
    output,
  };
}
