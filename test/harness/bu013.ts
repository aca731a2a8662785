// Runs browser_use 0.13's own Agent (python-shim-spec/tests/cdp/run_bu013.py, in the bu013 venv that
// scripts/python-envs.mjs builds) on the fixture-shop task against any CDP endpoint: Chromium's own
// --remote-debugging-port, or the bridge's /cdp/<token> endpoint. Only the URL differs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from './browser';
import { SHIM_DIR } from './python';

/** The bu013 venv's Python: $BUX_BU013_PYTHON, else .venvs/bu013 (`node scripts/python-envs.mjs bu013`). */
export const BU013_PYTHON =
  process.env['BUX_BU013_PYTHON'] ?? path.join(process.env['BUX_VENVS_DIR'] ?? path.join(REPO_ROOT, '.venvs'), 'bu013', 'bin', 'python');

const RUNNER = path.join(SHIM_DIR, 'tests', 'cdp', 'run_bu013.py');

export interface Bu013Options {
  /** http://127.0.0.1:<port> (Chromium) or http://127.0.0.1:<port>/cdp/<token> (the bridge). */
  cdpUrl: string;
  /** The scripted server (ScriptedLlm('shop013')): http://127.0.0.1:<port>/v1 */
  llmBaseUrl: string;
  /** The fixture shop, ending in /shop/. */
  shopUrl: string;
  maxSteps?: number;
  /** Give the Agent the stop check the CDP guide documents for the person's Disconnect. */
  stopWhenDisconnected?: boolean;
  /** Kill the agent after this long (ms); default 240 s. */
  timeoutMs?: number;
}

export interface Bu013Result {
  done: boolean;
  success: boolean | null;
  final_result: string | null;
  urls_visited: string[];
  steps: number;
  actions: string[];
  errors: string[];
  judgement: Record<string, unknown> | null;
  /** An exception the run ended with (the connection failed, ...), else null. */
  error: string | null;
  seconds: number;
  /** The agent's own log (stdout + stderr), for a failure message. */
  output: string;
}

export async function runBu013ShopTask(opts: Bu013Options): Promise<Bu013Result> {
  if (!fs.existsSync(BU013_PYTHON)) {
    throw new Error(`No browser-use 0.13 venv at ${BU013_PYTHON}: run \`node scripts/python-envs.mjs bu013\` first.`);
  }
  // browser_use 0.13 writes its config, profiles and downloads under BROWSER_USE_CONFIG_DIR: a temp dir
  // per run, so nothing of the person's ~/.config is read or written.
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-bu013-'));
  const args = [RUNNER, '--cdp-url', opts.cdpUrl, '--llm-base-url', opts.llmBaseUrl, '--shop-url', opts.shopUrl];
  if (opts.maxSteps) args.push('--max-steps', String(opts.maxSteps));
  if (opts.stopWhenDisconnected) args.push('--stop-when-disconnected');
  const timeoutMs = opts.timeoutMs ?? 240_000;
  const { code, output, timedOut } = await runBu013Python(args, { configDir, timeoutMs, cwd: SHIM_DIR });
  fs.rmSync(configDir, { recursive: true, force: true });
  const line = /^BU013_RESULT (\{.*\})$/m.exec(output)?.[1];
  if (!line) {
    const why = timedOut ? `did not finish within ${timeoutMs / 1000} s` : `exited with ${code} without a result line`;
    throw new Error(`browser_use 0.13 runner ${why}; its output:\n${output.slice(-6000)}`);
  }
  return { ...(JSON.parse(line) as Omit<Bu013Result, 'output'>), output };
}

/**
 * Runs a script in the bu013 venv the way every browser_use 0.13 run here needs it: its config,
 * profiles and downloads under configDir (never the person's ~/.config), no telemetry or cloud sync,
 * and never through a proxy (the endpoints are on loopback). Output is stdout and stderr together.
 */
export async function runBu013Python(
  args: string[],
  o: { configDir: string; timeoutMs: number; cwd: string; logLevel?: string },
): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  const proc = spawn(BU013_PYTHON, args, {
    cwd: o.cwd,
    env: {
      ...process.env,
      ANONYMIZED_TELEMETRY: 'false',
      BROWSER_USE_CLOUD_SYNC: 'false',
      BROWSER_USE_CONFIG_DIR: o.configDir,
      BROWSER_USE_LOGGING_LEVEL: o.logLevel ?? 'info',
      PYTHONUNBUFFERED: '1',
      NO_PROXY: '127.0.0.1,localhost',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill('SIGKILL');
  }, o.timeoutMs);
  const code = await new Promise<number | null>((resolve) => proc.once('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output, timedOut };
}
