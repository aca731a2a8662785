// The newcomer's path from a fresh clone: `npm start` in a new checkout builds everything (minutes on
// a slow machine) and must never leave the person staring at a silent terminal, then says the next
// three steps with this checkout's real dist/extension path and commands typed as they run there
// (`npx browser-use-ext ...`: the plain name is "command not found" in a checkout). Every command
// the bridge printed, and every subcommand the docs, panel and messages print, runs from the clone
// in that form. node_modules is linked from this checkout (the clone's `npm ci` is npm's business).
// Needs git. A full first build costs minutes on CI's two cores, so by default the clone gets this
// checkout's fresh dist/ (same sources, so `npm start` finds it fresh) and the first build's progress
// is proven by build-if-stale.spec.ts (the real script, a step slower than its progress period);
// BUX_FRESH_CLONE_BUILD=1 makes the clone build itself and checks that progress here, end to end.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { REPO_ROOT } from '../harness/browser';
import { freePort } from '../harness/free-port';
import { collectPrintedCommands, commandsIn, type TestValues, toArgv } from './printed-commands';

// What a printed command must never answer (as in npm-package.spec.ts), and a crash.
const NOT_AS_PRINTED =
  /unknown option|unknown command|unexpected argument|takes no value|argument missing|\b404\b|command not found|ENOENT/i;
const CRASHED = /^\s+at .+:\d+:\d+\)?$/m;
/** The longest a first `npm start` may print nothing (the build says it still runs every 15 s). */
const MAX_SILENCE_MS = 20_000;
/** The clone builds itself (minutes) instead of taking this checkout's fresh build. */
const BUILD_IN_CLONE = process.env['BUX_FRESH_CLONE_BUILD'] === '1';

describe('a fresh clone: npm start, then the three steps it prints', function () {
  this.timeout(20 * 60_000);
  let tmp: string;
  let clone: string;
  let env: NodeJS.ProcessEnv;
  let values: TestValues;
  let start: ChildProcess;
  let out = '';
  /** When each piece of output arrived (ms since start), and the text so far then. */
  const arrivals: { at: number; text: string }[] = [];
  let listeningAt = -1;

  before(async function () {
    this.timeout(20 * 60_000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-clone-'));
    clone = path.join(tmp, 'browser-use-ext');
    execFileSync('git', ['clone', '--quiet', REPO_ROOT, clone], { stdio: 'pipe' });
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(clone, 'node_modules'));
    if (!BUILD_IN_CLONE) fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(clone, 'dist'), { recursive: true });
    const port = await freePort();
    const configDir = path.join(tmp, 'config');
    values = { port, configDir, agentUrl: `ws://127.0.0.1:${port}/agent`, deadUrl: `ws://127.0.0.1:${await freePort()}/backend` };
    const keep = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD|BROWSER_USE_EXT_|OPENAI_|ANTHROPIC_)/.test(k)),
    );
    env = {
      ...keep,
      HOME: path.join(tmp, 'home'),
      npm_config_update_notifier: 'false',
      BROWSER_USE_EXT_CONFIG_DIR: configDir,
      BROWSER_USE_EXT_BRIDGE_URL: values.agentUrl,
    };
    const began = Date.now();
    // A group of its own, stopped whole in after(): a signal to npm alone leaves the bridge it started running.
    start = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const onData = (d: Buffer) => {
      out += d.toString();
      arrivals.push({ at: Date.now() - began, text: out });
      if (listeningAt < 0 && /listening/.test(out)) listeningAt = Date.now() - began;
    };
    start.stdout?.on('data', onData);
    start.stderr?.on('data', onData);
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (/Press Ctrl\+C to stop/.test(out)) {
          clearInterval(check);
          resolve();
        } else if (start.exitCode !== null) {
          clearInterval(check);
          reject(new Error(`npm start ended (exit ${start.exitCode}) before listening:\n${out}`));
        }
      }, 200);
    });
  });

  after(() => {
    try {
      if (start?.pid !== undefined) process.kill(-start.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('builds with progress: what it builds at once, then never more than 20 s without a line until it listens', () => {
    if (!BUILD_IN_CLONE) {
      // The checkout's own build, taken as is: the start says so at once and listens without building.
      expect(out, 'the clone took the fresh build').to.match(/build: fresh, nothing changed since the last build/);
      expect(out).to.not.match(/build: building/);
      expect(listeningAt, out).to.be.below(MAX_SILENCE_MS * 3);
      return;
    }
    const building = arrivals.find((a) => /build: building the bridge/.test(a.text));
    expect(building, out).to.not.equal(undefined);
    expect(building!.at, 'the first build line').to.be.below(MAX_SILENCE_MS);
    expect(out).to.match(/A first build takes a few minutes/);
    const before = arrivals.filter((a) => a.at <= listeningAt);
    const gaps = before.map((a, i) => a.at - (before[i - 1]?.at ?? 0));
    expect(Math.max(...gaps), `silent for too long while building:\n${out}`).to.be.at.most(MAX_SILENCE_MS);
    expect(out.indexOf('build: rebuilt in')).to.be.greaterThan(-1).and.below(out.indexOf('listening'));
  });

  it('then the three steps in order: this checkout’s dist/extension, the pair command, an agent command, typed as they run here', () => {
    const steps = out.slice(out.indexOf('Next steps:'));
    const extensionDir = path.join(fs.realpathSync(clone), 'dist', 'extension');
    expect(fs.existsSync(path.join(extensionDir, 'manifest.json'))).to.equal(true);
    const at = (s: string) => steps.indexOf(s);
    expect(at('chrome://extensions')).to.be.greaterThan(0);
    expect(at(`\n       ${extensionDir}\n`)).to.be.greaterThan(at('Load unpacked'));
    expect(at('\n       npx browser-use-ext pair\n')).to.be.greaterThan(at(extensionDir));
    expect(at('\n       npx browser-use-ext agent --model gpt-4o-mini\n')).to.be.greaterThan(at('npx browser-use-ext pair'));
    // Nothing in the banner in the form that is "command not found" here.
    expect(out).to.not.match(/(?<!npx )\bbrowser-use-ext (pair|agent|mcp|cdp-url|bridge --)/);
  });

  it('every command the bridge printed, and every printed subcommand, runs from the clone as `npx browser-use-ext ...`', async () => {
    const banner = commandsIn(out, 'npm start');
    expect(
      banner.every((c) => c.npx),
      JSON.stringify(banner),
    ).to.equal(true);
    const jobs = new Map<string, string[]>();
    for (const c of banner) {
      const argv = toArgv(c.printed, values);
      if (argv) jobs.set(JSON.stringify(argv), argv);
    }
    expect([...jobs.keys()].some((k) => k.startsWith('["pair"'))).to.equal(true);
    // The static texts (docs, panel, messages) are shown as `npx browser-use-ext <sub> ...` here: each
    // subcommand resolves to this checkout's bin (their flags run in the installed package's test).
    for (const c of collectPrintedCommands(clone)) {
      const sub = c.printed.split(/\s+/)[1] ?? '';
      if (/^[a-z][a-z0-9-]*$/.test(sub)) jobs.set(JSON.stringify([sub, '--help']), [sub, '--help']);
    }
    const failures: string[] = [];
    const run = (argv: string[]) =>
      new Promise<{ code: number | null; text: string }>((resolve) => {
        // A group of its own: npx runs the bin as a child, which a signal to npx alone would leave running.
        const child = spawn('npx', ['browser-use-ext', ...argv], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        let text = '';
        // A server (mcp, agent) keeps running: once it has printed and run on for 1.5 s it is past its
        // argument parsing, and is stopped. npx itself takes seconds to start on a busy machine.
        let settle: NodeJS.Timeout | undefined;
        const stop = () => {
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
          } catch {
            // already gone
          }
        };
        const onData = (d: Buffer) => {
          text += d.toString();
          settle ??= setTimeout(stop, 1500);
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        const hard = setTimeout(stop, 30_000);
        child.on('close', (code) => {
          clearTimeout(hard);
          clearTimeout(settle);
          resolve({ code, text });
        });
      });
    const all = [...jobs.values()];
    for (let i = 0; i < all.length; i += 3) {
      await Promise.all(
        all.slice(i, i + 3).map(async (argv) => {
          const r = await run(argv);
          if (NOT_AS_PRINTED.test(r.text) || CRASHED.test(r.text) || r.text.trim() === '')
            failures.push(`npx browser-use-ext ${argv.join(' ')}: exit ${r.code}: ${r.text.trim().split('\n').slice(0, 3).join(' | ')}`);
        }),
      );
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});
