// One CLI: every `browser-use-ext` subcommand, run through the real entry (bridge/cli/main.ts) as a
// person types it. --help prints that subcommand's help and exits 0; the shared options are listed
// with the same words, in the same order and column everywhere (the Python `serve` included); an
// unknown option is one line and exit 2; the bridge URL comes from --bridge-url, else
// $BROWSER_USE_EXT_BRIDGE_URL (connect and agent ignored the variable before).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import { WebSocketServer } from 'ws';

import { BROWSER_OPTION, helpRow } from '../../bridge/cli/shared-options';
import { SUBCOMMAND_NAMES } from '../../bridge/cli/subcommand-names';
import { REPO_ROOT } from '../harness/browser';

const CLI = path.join(REPO_ROOT, 'bridge', 'cli', 'main.ts');
const NOBU_PYTHON = path.join(REPO_ROOT, '.venvs', 'nobu', 'bin', 'python');

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function run(args: string[], env: Record<string, string | undefined> = {}, killAfterMs?: number): Promise<Run> {
  const merged: NodeJS.ProcessEnv = { ...process.env, BROWSER_USE_EXT_BRIDGE_URL: undefined, ...env };
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: REPO_ROOT,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGTERM'), killAfterMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code, out, err });
    }),
  );
}

/** The shared option lines of a help text, by flag. */
function sharedLines(help: string): Map<string, string> {
  const lines = new Map<string, string>();
  for (const line of help.split('\n')) {
    const m = /^ {2}(--bridge-url|--config-dir|--log-level|-h, --help)\b/.exec(line);
    if (m?.[1]) lines.set(m[1], line);
  }
  return lines;
}

/** A stand-in bridge that records which path each connection asked for and its first message. */
async function recordingBridge(): Promise<{ url: string; seen: { path: string; hello: string }[]; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const seen: { path: string; hello: string }[] = [];
  wss.on('connection', (ws, req) => {
    ws.once('message', (d) => {
      seen.push({ path: req.url ?? '', hello: d.toString() });
      ws.close(1008, 'test bridge');
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => wss.close(() => r())),
  };
}

describe('browser-use-ext: one CLI', function () {
  this.timeout(120_000);

  it('every subcommand prints its own help (exit 0) with the shared options in the same words, order and column', async () => {
    const helps = await Promise.all(SUBCOMMAND_NAMES.map(async (sub) => ({ sub, r: await run([sub, '--help']) })));
    const reference = sharedLines(helps.find((h) => h.sub === 'bridge')?.r.out ?? '');
    expect([...reference.keys()]).to.deep.equal(['--bridge-url', '--config-dir', '--log-level', '-h, --help']);
    const column = (line: string) => /^( {2}\S.*?\s{2,})(?=\S)/.exec(line)?.[1]?.length ?? -1;
    for (const { sub, r } of helps) {
      expect(r.code, `${sub} --help exit code; stderr: ${r.err}`).to.equal(0);
      expect(r.out, `${sub} --help names the subcommand`).to.contain(`browser-use-ext ${sub}`);
      const lines = sharedLines(r.out);
      for (const f of ['--bridge-url', '--config-dir', '-h, --help']) expect(lines.has(f), `${sub} lists ${f}`).to.equal(true);
      const order = [...lines.keys()];
      expect(order, `${sub}: shared options in order`).to.deep.equal([...reference.keys()].filter((k) => lines.has(k)));
      for (const [f, line] of lines) expect(line, `${sub}: ${f}`).to.equal(reference.get(f));
      for (const line of lines.values())
        expect(column(line), `${sub}: column of ${line}`).to.equal(column(reference.get('--bridge-url') ?? ''));
    }
    // Older flags stay accepted and are listed as such.
    const connect = helps.find((h) => h.sub === 'connect')?.r.out ?? '';
    expect(connect).to.match(/Older flags, still accepted:\n {2}--bridge <url> +same as --bridge-url/);
  });

  it('serve --help is the Python serve help with the same shared lines; without the package it says how to install it', async function () {
    if (!fs.existsSync(NOBU_PYTHON)) this.skip();
    const py = await run(['serve', '--help'], {
      BROWSER_USE_EXT_PYTHON: NOBU_PYTHON,
      PYTHONPATH: path.join(REPO_ROOT, 'python-shim-spec'),
    });
    expect(py.code, py.err).to.equal(0);
    expect(py.out).to.contain('--llm'); // Python's own options: it is Python's help
    const node = await run(['bridge', '--help']);
    const ref = sharedLines(node.out);
    const lines = sharedLines(py.out);
    for (const f of ['--bridge-url', '--config-dir', '--log-level', '-h, --help']) expect(lines.get(f), f).to.equal(ref.get(f));
    // --browser, as every agent command of the npm CLI words it.
    expect(py.out.split('\n')).to.include(helpRow(BROWSER_OPTION.row ?? { flags: '', text: '' }));

    const missing = await run(['serve', '--help'], { BROWSER_USE_EXT_PYTHON: '/bin/false' });
    expect(missing.code).to.equal(0);
    expect(missing.out).to.match(/is not importable by \/bin\/false\. Install it: pip install browser_use_ext-[\d.]+-py3-none-any\.whl/);
    const refused = await run(['serve'], { BROWSER_USE_EXT_PYTHON: '/bin/false' });
    expect(refused.code).to.equal(1);
    expect(refused.err.trim().split('\n')).to.have.length(1);
  });

  it('an unknown option is one line naming it and --help, exit 2', async () => {
    for (const sub of ['connect', 'agent', 'cdp-url', 'bridge']) {
      const r = await run([sub, '--no-such-flag']);
      expect(r.code, sub).to.equal(2);
      expect(r.err).to.equal(`browser-use-ext ${sub}: unknown option --no-such-flag; see browser-use-ext ${sub} --help\n`);
    }
    const missing = await run(['pair', '--bridge-url']);
    expect(missing.code).to.equal(2);
    expect(missing.err).to.equal('browser-use-ext pair: option --bridge-url: argument missing; see browser-use-ext pair --help\n');
  });

  it('connect and agent reach the bridge of $BROWSER_USE_EXT_BRIDGE_URL; --bridge-url wins over it', async () => {
    const fromEnv = await recordingBridge();
    const fromFlag = await recordingBridge();
    try {
      const env = { BROWSER_USE_EXT_BRIDGE_URL: `${fromEnv.url}/agent`, BROWSER_USE_EXT_AGENT_SECRET: 'x'.repeat(43) };
      const connect = await run(['connect', '--dialect', '001', 'ws://localhost:1'], env, 20_000);
      const agent = await run(['agent', '--base-url', 'http://127.0.0.1:1/v1'], { ...env, OPENAI_API_KEY: 'sk-test' }, 20_000);
      expect(
        fromEnv.seen.map((s) => s.path),
        `connect: ${connect.err} agent: ${agent.err}`,
      ).to.deep.equal(['/agent', '/agent']);
      expect(fromEnv.seen.map((s) => (JSON.parse(s.hello) as { role: string }).role)).to.deep.equal(['agent', 'agent']);
      // Both exit on the refusal instead of running against another bridge.
      expect(connect.code).to.equal(1);
      expect(agent.code).to.equal(1);

      const flagged = await run(['agent', '--bridge-url', fromFlag.url], env, 20_000);
      expect(flagged.code).to.equal(1);
      expect(fromFlag.seen).to.have.length(1);
      expect(fromEnv.seen).to.have.length(2);
    } finally {
      await fromEnv.close();
      await fromFlag.close();
    }
  });

  it('bridge and pair take the bridge address from $BROWSER_USE_EXT_BRIDGE_URL too (--port still wins for bridge)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cli-env-'));
    try {
      const env = { BROWSER_USE_EXT_BRIDGE_URL: 'http://127.0.0.1:9911', BROWSER_USE_EXT_CONFIG_DIR: dir };
      const printed = await run(['bridge', '--print-pairing'], env);
      expect(printed.code, printed.err).to.equal(0);
      expect(printed.out).to.contain('ws://127.0.0.1:9911/extension');
      const overridden = await run(['bridge', '--print-pairing', '--port', '9912'], env);
      expect(overridden.out).to.contain('ws://127.0.0.1:9912/extension');
      const pair = await run(['pair', '--config-dir', dir], env);
      expect(pair.code, pair.err).to.equal(0);
      expect(pair.out).to.contain(`bridge=${encodeURIComponent('ws://127.0.0.1:9911/extension')}`);
      // Run from the checkout (not a `browser-use-ext` on PATH): the command is printed as it runs here.
      expect(pair.out).to.contain('start it with `npx browser-use-ext bridge --bridge-url ws://127.0.0.1:9911`');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
