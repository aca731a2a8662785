// The npm package as a person installs it: `npm pack` in the checkout, then `npm i -g` of the tarball
// into a temporary --prefix outside the checkout, and every check runs the installed
// `browser-use-ext` (PATH pointing at that prefix's bin) from a temporary folder: the bridge, pair,
// mcp (an MCP SDK client over stdio), cdp-url, connect, agent, each --help, the agent client as a
// library with its types, and every `browser-use-ext ...` command the README, the extension, the
// bridge and the Python package print (test/install/printed-commands.ts).
// Needs a build (npm test builds before mocha; by hand: npm run build). The pack skips the prepack
// build (--ignore-scripts) so the suite does not build twice; one pack and one install serve every case.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';

import { OUTPUTS } from '../../scripts/build-if-stale.mjs';
import { REPO_ROOT } from '../harness/browser';
import { freePort } from '../harness/free-port';
import { collectPrintedCommands, commandsIn, type PrintedCommand, type TestValues, toArgv } from './printed-commands';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};
// What a printed command must never answer: the CLI does not know the subcommand or an option, or
// npm/npx cannot find the package.
const NOT_AS_PRINTED =
  /unknown option|unknown command|unexpected argument|takes no value|argument missing|\b404\b|command not found|ENOENT/i;
// A Node stack trace in the output: the CLI crashed instead of saying what to do.
const CRASHED = /^\s+at .+:\d+:\d+\)?$/m;

// Run by name, as a person types it: found on PATH, whose first entry is the install's bin folder.
const BIN = 'browser-use-ext';

interface Ran {
  code: number | null;
  out: string;
  /** Still running when the time was up (a server such as `bridge` or `mcp`), then stopped. */
  stillRunning: boolean;
}

/** Runs f on each item, `width` at a time (the machine may have two busy cores), results in order. */
async function inPool<T, R>(items: T[], f: (item: T) => Promise<R>, width = 3): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await f(items[i] as T);
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

describe('the npm package installed from its tarball, run from any folder', function () {
  this.timeout(120_000);
  let tmp: string;
  let work: string;
  let prefix: string;
  let env: NodeJS.ProcessEnv;
  let values: TestValues;
  let bridge: ChildProcess;
  let bridgeOut = '';
  let tarball: string;
  const installed = () => path.join(prefix, 'lib', 'node_modules', 'browser-use-ext');

  /**
   * Runs the installed CLI; a command still running after `ms` is stopped (SIGTERM, then SIGKILL).
   * With `settleMs`, one that has printed and then kept running that long is past its argument
   * parsing (a server or a dialing client), and is stopped then.
   */
  function run(argv: string[], ms = 8000, settleMs?: number): Promise<Ran> {
    return new Promise((resolve) => {
      const child = spawn(BIN, argv, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let stillRunning = false;
      const stop = () => {
        if (child.exitCode !== null || child.signalCode !== null || stillRunning) return;
        stillRunning = true;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      };
      let settle: NodeJS.Timeout | undefined;
      const onData = (d: Buffer) => {
        out += d.toString();
        if (settleMs !== undefined && !settle) settle = setTimeout(stop, settleMs);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      const timer = setTimeout(stop, ms);
      child.on('error', (e) => {
        clearTimeout(timer);
        clearTimeout(settle);
        resolve({ code: -1, out: `${out}${e.message}`, stillRunning: false });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        clearTimeout(settle);
        resolve({ code, out, stillRunning });
      });
    });
  }

  // The same argv run by two cases (a --help, `pair`) runs once: each start of the CLI parses a 2 MB bundle.
  const runs = new Map<string, Promise<Ran>>();
  const runOnce = (argv: string[], ms?: number, settleMs?: number): Promise<Ran> => {
    const key = JSON.stringify(argv);
    const r = runs.get(key) ?? run(argv, ms, settleMs);
    runs.set(key, r);
    return r;
  };

  before(async function () {
    this.timeout(180_000);
    const missing = OUTPUTS.filter((f) => !fs.existsSync(path.join(REPO_ROOT, f)));
    if (missing.length) throw new Error(`No build (${missing.join(', ')} missing): run npm run build first.`);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-install-'));
    work = path.join(tmp, 'work');
    prefix = path.join(tmp, 'prefix');
    fs.mkdirSync(work);
    const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], {
        cwd: REPO_ROOT,
        env: npmEnv,
        encoding: 'utf8',
      }),
    ) as { filename: string }[];
    tarball = path.join(tmp, (packed[0] as { filename: string }).filename);
    execFileSync('npm', ['i', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: work,
      env: npmEnv,
      stdio: 'pipe',
    });
    const port = await freePort();
    const configDir = path.join(tmp, 'config');
    values = { port, configDir, agentUrl: `ws://127.0.0.1:${port}/agent`, deadUrl: `ws://127.0.0.1:${await freePort()}/backend` };
    // Nothing from the checkout or the real home: the installed bin first on PATH, a temp config
    // dir and the bridge's URL in the environment (so printed commands need no extra flags).
    const keep = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD|BROWSER_USE_EXT_|OPENAI_|ANTHROPIC_)/.test(k)),
    );
    env = {
      ...keep,
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
      HOME: path.join(tmp, 'home'),
      XDG_CONFIG_HOME: path.join(tmp, 'home', '.config'),
      BROWSER_USE_EXT_CONFIG_DIR: configDir,
      BROWSER_USE_EXT_BRIDGE_URL: values.agentUrl,
    };
    bridge = spawn(BIN, ['bridge', '--port', String(port)], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bridge.stdout?.on('data', (d: Buffer) => (bridgeOut += d.toString()));
    bridge.stderr?.on('data', (d: Buffer) => (bridgeOut += d.toString()));
    const deadline = Date.now() + 20_000;
    while (!/listening/.test(bridgeOut)) {
      if (Date.now() > deadline || bridge.exitCode !== null) throw new Error(`the installed bridge did not start:\n${bridgeOut}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  after(() => {
    if (bridge && bridge.exitCode === null) bridge.kill('SIGKILL');
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the tarball holds the built bridge, client and extension, an executable bin and no harness or source files', () => {
    const list = execFileSync('tar', ['-tvzf', tarball], { encoding: 'utf8' });
    const names = list
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/).pop() as string);
    for (const f of [
      'package/package.json',
      'package/README.md',
      'package/LICENSE',
      'package/dist/bridge/cli.js',
      'package/dist/client/index.js',
      'package/dist/client/types/bridge/client/agent-client.d.ts',
      'package/dist/extension/manifest.json',
      'package/dist/extension/background.js',
      'package/dist/extension/icons/icon128.png',
    ])
      expect(names, f).to.include(f);
    expect(names.filter((n) => /\.map$|config\.json$|\/src\/|\.spec\.|\.tgz$|\.zip$/.test(n))).to.deep.equal([]);
    expect(list).to.match(/^-rwxr-xr-x .* package\/dist\/bridge\/cli\.js$/m);
    expect(fs.readFileSync(path.join(installed(), pkg.bin['browser-use-ext'] as string), 'utf8')).to.match(/^#!\/usr\/bin\/env node\n/);
    // The unpacked build keeps its key: the bridge's default extension id is the one it pins.
    expect(JSON.parse(fs.readFileSync(path.join(installed(), 'dist/extension/manifest.json'), 'utf8'))).to.have.property('key');
  });

  it('every package the built CLI and client import at run time is a dependency (the rest is bundled)', () => {
    for (const file of ['dist/bridge/cli.js', 'dist/client/index.js']) {
      const code = fs.readFileSync(path.join(installed(), file), 'utf8');
      const specs = new Set([...code.matchAll(/^(?:import|export)\s[^;]*?from\s*'([^'./][^']*)'/gm)].map((m) => m[1] as string));
      for (const m of code.matchAll(/\bimport\(\s*'([^'./][^']*)'\s*\)/g)) specs.add(m[1] as string);
      const bare = [...specs].filter((s) => !s.startsWith('node:'));
      expect(bare.length, file).to.be.greaterThan(0);
      for (const s of bare) {
        const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] as string);
        expect(pkg.dependencies, `${file} imports ${s}`).to.have.property(name);
      }
    }
  });

  it('the bridge answers /healthz; every subcommand prints its --help', async () => {
    const r = await fetch(`http://127.0.0.1:${values.port}/healthz`);
    expect(r.status).to.equal(200);
    const subs = ['bridge', 'pair', 'mcp', 'mcp-token', 'cdp-url', 'connect', 'agent', 'seed002', 'seed003', 'conformance'];
    const helps = await inPool([[], ...subs.map((s) => [s])], (argv) => runOnce([...argv, '--help'], 20_000));
    helps.forEach((h, i) => {
      const what = `browser-use-ext ${subs[i - 1] ?? ''} --help`;
      expect(h.code, `${what}: ${h.out}`).to.equal(0);
      expect(h.out, what).to.match(/Usage|usage/);
    });
  });

  it('pair prints a one-time code; cdp-url prints a URL on the running bridge', async () => {
    const pair = await runOnce(['pair']);
    expect(pair.code, pair.out).to.equal(0);
    expect(pair.out).to.match(/\b[A-Z0-9]{4}-[A-Z0-9]{4}\b/);
    const cdp = await run(['cdp-url', '--name', 'install-test']);
    expect(cdp.code, cdp.out).to.equal(0);
    expect(cdp.out).to.match(new RegExp(`http://127\\.0\\.0\\.1:${values.port}/cdp/\\S+`));
  });

  it('mcp: an MCP client lists the tools over stdio', async () => {
    const transport = new StdioClientTransport({
      command: BIN,
      args: ['mcp'],
      cwd: work,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'install-test', version: '0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.length, tools.map((t) => t.name).join(', ')).to.be.greaterThan(5);
    } finally {
      await client.close();
    }
  });

  it('connect and agent start and keep running against the bridge until stopped', async () => {
    const [connect, agent] = await Promise.all([
      run(['connect', '--dialect', '000', values.deadUrl], 4000),
      run(['agent', '--base-url', `${values.deadUrl.replace(/^ws/, 'http')}/v1`, '--model', 'test-model'], 4000),
    ]);
    for (const [what, r] of [
      ['connect', connect],
      ['agent', agent],
    ] as const) {
      expect(r.out, what).to.not.match(NOT_AS_PRINTED);
      expect(r.out, what).to.not.match(CRASHED);
      // Either still serving when stopped, or it ended saying why (e.g. the LLM does not answer).
      if (!r.stillRunning) expect(r.out.trim(), what).to.not.equal('');
    }
  });

  it('the agent client imports as a library with its types, and connects to the installed bridge', async () => {
    const consumer = path.join(tmp, 'consumer');
    fs.mkdirSync(path.join(consumer, 'node_modules'), { recursive: true });
    fs.symlinkSync(installed(), path.join(consumer, 'node_modules', 'browser-use-ext'));
    fs.writeFileSync(path.join(consumer, 'package.json'), '{"type":"module"}');
    fs.writeFileSync(
      path.join(consumer, 'use.mjs'),
      `import { AgentClient } from 'browser-use-ext';\n` +
        `const a = await AgentClient.connect({ url: process.env.BROWSER_USE_EXT_BRIDGE_URL });\n` +
        `console.log('connected', typeof a.call);\nawait a.close();\n`,
    );
    const out = execFileSync(process.execPath, ['use.mjs'], { cwd: consumer, env, encoding: 'utf8', timeout: 20_000 });
    expect(out).to.contain('connected function');
    // A TypeScript user resolving with nodenext gets the action names and their parameters.
    fs.writeFileSync(
      path.join(consumer, 'use.ts'),
      `import { AgentClient } from 'browser-use-ext';\n` +
        `export async function f(): Promise<string> {\n  const a = await AgentClient.connect({ url: 'ws://127.0.0.1:1/agent' });\n` +
        `  const r = await a.call('click', { role: 'button', name: 'OK' });\n  // @ts-expect-error not a click parameter\n` +
        `  await a.call('click', { no_such_param: 1 });\n  return r.status;\n}\n`,
    );
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // skipLibCheck as most projects set it; the @ts-expect-error above still fails if the types were lost (any).
    const args = ['--strict', '--noEmit', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
    const types = ['--typeRoots', path.join(REPO_ROOT, 'node_modules', '@types'), '--types', 'node', 'use.ts'];
    execFileSync(process.execPath, [tsc, ...args, ...types], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
  });

  it('every command the README, the extension, the bridge and the Python package print runs as printed', async function () {
    const printed = collectPrintedCommands(REPO_ROOT);
    expect(printed.length).to.be.greaterThan(10);
    // One run per distinct argv; each failure names every place that prints it.
    const byArgv = new Map<string, { argv: string[]; from: PrintedCommand[] }>();
    for (const c of printed)
      for (const argv of [toArgv(c.printed, values), toArgv(c.printed, values, true)]) {
        if (!argv) continue;
        const key = JSON.stringify(argv);
        const entry = byArgv.get(key) ?? { argv, from: [] };
        if (!entry.from.includes(c)) entry.from.push(c);
        byArgv.set(key, entry);
      }
    const failures: string[] = [];
    // docs/getting-started.md shows the checkout's `npx browser-use-ext ...` beside the installed form on
    // purpose; fresh-clone.spec.ts runs those from a clone, where npx finds the local bin.
    for (const c of printed.filter((p) => p.npx && !p.where.startsWith('docs/getting-started.md:')))
      failures.push(
        `npx ${c.printed} (${c.where}): npx looks the package up on the npm registry (404); print browser-use-ext ${c.printed.slice(16)}`,
      );
    await inPool(
      [...byArgv.values()],
      async (job) => {
        const r = await runOnce(job.argv, 6000, 1500);
        const bad = NOT_AS_PRINTED.test(r.out) ? 'not as printed' : CRASHED.test(r.out) ? 'crashed' : null;
        if (bad)
          failures.push(
            `browser-use-ext ${job.argv.join(' ')} (printed at ${job.from.map((f) => f.where).join(', ')}): ${bad}, exit ${r.code}: ${r.out.trim().split('\n').slice(0, 3).join(' | ')}`,
          );
      },
      // Most of these wait (a server, a dialing connector): more at once than there are cores.
      6,
    );
    expect(failures.length, `${failures.length} printed commands do not work as printed:\n${failures.join('\n')}\n`).to.equal(0);
  });

  it('the banner ends with the three steps: the installed dist/extension, then pair and an agent as typed here; --version', async () => {
    const steps = bridgeOut.slice(bridgeOut.indexOf('Next steps:'));
    const extensionDir = path.join(fs.realpathSync(installed()), 'dist', 'extension');
    expect(steps.indexOf(`\n       ${extensionDir}\n`), bridgeOut).to.be.greaterThan(steps.indexOf('Load unpacked'));
    expect(steps.indexOf('\n       browser-use-ext pair\n')).to.be.greaterThan(steps.indexOf(extensionDir));
    expect(steps.indexOf('\n       browser-use-ext agent --model gpt-4o-mini\n')).to.be.greaterThan(steps.indexOf('browser-use-ext pair'));
    // Installed, the plain name runs: no command the bridge printed says npx.
    const banner = commandsIn(bridgeOut, 'bridge');
    expect(banner.length).to.be.greaterThan(3);
    expect(banner.filter((c) => c.npx)).to.deep.equal([]);
    const runs = await inPool(
      banner.map((c) => toArgv(c.printed, values) ?? ['--help']),
      (argv) => runOnce(argv, 6000, 1500),
    );
    runs.forEach((r, i) => {
      const what = banner[i]?.printed ?? '';
      expect(r.out, what).to.not.match(NOT_AS_PRINTED);
      expect(r.out, what).to.not.match(CRASHED);
    });
    for (const flag of ['--version', '-V']) {
      const v = await runOnce([flag]);
      expect(v.code).to.equal(0);
      expect(v.out).to.equal(`browser-use-ext ${pkg.version}\n`);
    }
    expect((await runOnce(['pair', '--version'])).out).to.equal(`browser-use-ext ${pkg.version}\n`);
  });

  it('`npm pack` in a checkout leaves no untracked tarball (it is ignored like dist/)', () => {
    // check-ignore exits 1 when the path is not ignored: the tarball would show in `git status`.
    execFileSync('git', ['check-ignore', '-q', `browser-use-ext-${pkg.version}.tgz`], { cwd: REPO_ROOT });
  });

  it('the installed bridge stops on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => bridge.once('exit', (code) => resolve(code)));
    bridge.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running after 10 s'), 10_000))]);
    expect(code).to.equal(0);
  });
});
