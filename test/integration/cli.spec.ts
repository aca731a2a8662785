// The `browser-use-ext bridge` CLI as a person runs it: first-run pairing text, --print-pairing,
// refusing a public interface without --allow-remote, clean shutdown on SIGTERM, the session-cap
// flags reaching the running bridge (a refusal names the flag; a bad value exits 2).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { readSecrets } from '../../bridge/common/secrets';
import { RawPeer } from '../bridge/raw-peer';
import { REPO_ROOT } from '../harness/browser';

const CLI = path.join(REPO_ROOT, 'bridge', 'cli', 'main.ts');

function run(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('bridge CLI', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cli-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates secrets on first run, says how to pair, serves /status without them and stops on SIGTERM', async () => {
    const cfg = path.join(dir, 'cfg');
    const p = run(['bridge', '--port', '0', '--config-dir', cfg, '--log-level', 'warn']);
    await waitFor(() => p.out().includes('Press Ctrl+C'));
    const secrets = JSON.parse(fs.readFileSync(path.join(cfg, 'secrets.json'), 'utf8')) as {
      extension_secret: string;
      agent_secret: string;
    };
    expect(fs.statSync(path.join(cfg, 'secrets.json')).mode & 0o777).to.equal(0o600);
    expect(p.out()).to.contain('First run');
    expect(p.out()).to.contain(secrets.extension_secret);
    const port = Number(/ws:\/\/127\.0\.0\.1:(\d+)\/agent/.exec(p.out())?.[1]);
    const status = await (await fetch(`http://127.0.0.1:${port}/status`)).text();
    expect(status).not.to.contain(secrets.agent_secret);
    expect(status).not.to.contain(secrets.extension_secret);
    p.child.kill('SIGTERM');
    expect(await p.exit).to.equal(0);
    // Second run: no secrets printed, only where they are.
    const again = run(['bridge', '--port', '0', '--config-dir', cfg]);
    await waitFor(() => again.out().includes('Press Ctrl+C'));
    expect(again.out()).not.to.contain(secrets.extension_secret);
    expect(again.out()).to.contain('--print-pairing');
    again.child.kill('SIGINT');
    expect(await again.exit).to.equal(0);
  });

  it('--print-pairing shows both secrets and exits', async () => {
    const p = run(['bridge', '--print-pairing', '--config-dir', dir]);
    expect(await p.exit).to.equal(0);
    const secrets = JSON.parse(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')) as {
      extension_secret: string;
      agent_secret: string;
    };
    expect(p.out()).to.contain(secrets.extension_secret);
    expect(p.out()).to.contain(`BROWSER_USE_EXT_AGENT_SECRET=${secrets.agent_secret}`);
  });

  it('refuses a non-loopback --host without --allow-remote, and warns loudly with it', async () => {
    const refused = run(['bridge', '--host', '0.0.0.0', '--port', '0', '--config-dir', dir]);
    expect(await refused.exit).to.equal(2);
    expect(refused.err()).to.match(/--allow-remote/);
    const remote = run(['bridge', '--host', '0.0.0.0', '--allow-remote', '--port', '0', '--config-dir', dir, '--log-level', 'silent']);
    await waitFor(() => remote.out().includes('Press Ctrl+C'));
    expect(remote.err()).to.contain('WARNING');
    remote.child.kill('SIGTERM');
    expect(await remote.exit).to.equal(0);
  });

  it('bridge --help lists every option', async () => {
    const p = run(['bridge', '--help']);
    expect(await p.exit).to.equal(0);
    for (const flag of [
      '--port',
      '--host',
      '--allow-remote',
      '--log-level',
      '--max-tabs',
      '--extension-id',
      '--config-dir',
      '--print-pairing',
    ])
      expect(p.out()).to.contain(flag);
  });

  it('--max-agent-sessions caps agent sessions; --help lists the cap flags; a bad value exits 2', async () => {
    const help = run(['bridge', '--help']);
    expect(await help.exit).to.equal(0);
    for (const flag of ['--max-agent-sessions', '--mcp-sessions-per-token', '--mcp-sessions', '--mcp-idle-minutes'])
      expect(help.out()).to.contain(flag);
    const bad = run(['bridge', '--port', '0', '--config-dir', dir, '--mcp-sessions-per-token', '0']);
    expect(await bad.exit).to.equal(2);
    expect(bad.err()).to.contain('--mcp-sessions-per-token must be an integer 1-');

    const bridge = run(['bridge', '--port', '0', '--config-dir', dir, '--log-level', 'silent', '--max-agent-sessions', '1']);
    try {
      await waitFor(() => /agent endpoint: +(ws:\S+)/.test(bridge.out()), 30_000);
      const url = /agent endpoint: +(ws:\S+)/.exec(bridge.out())?.[1];
      const secret = readSecrets(dir)?.agent_secret;
      if (!url || !secret) throw new Error(`bridge did not start: ${bridge.err()}`);
      const first = await RawPeer.hello(url, 'agent', { secret });
      let refused = '';
      await RawPeer.hello(url, 'agent', { secret }).catch((e: unknown) => (refused = String(e)));
      expect(refused).to.contain('TOO_MANY_SESSIONS');
      expect(refused).to.contain('--max-agent-sessions');
      first.close();
    } finally {
      bridge.child.kill('SIGTERM');
      await bridge.exit;
    }
  });
});
