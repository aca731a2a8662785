// The session-cap flags of `browser-use-ext bridge` reach the running bridge: a refusal names the
// flag that raises the cap, and a bad value is refused before anything starts.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { readSecrets } from '../../bridge/common/secrets';
import { REPO_ROOT } from '../harness/browser';
import { RawPeer } from './raw-peer';

const CLI = path.join(REPO_ROOT, 'bridge', 'cli', 'main.ts');

function run(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

describe('bridge CLI: session caps', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cli-caps-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('--max-agent-sessions caps agent sessions; --help lists the cap flags; a bad value exits 2', async () => {
    const help = run(['--help']);
    expect(await help.exit).to.equal(0);
    for (const flag of ['--max-agent-sessions', '--mcp-sessions-per-token', '--mcp-sessions', '--mcp-idle-minutes'])
      expect(help.out()).to.contain(flag);
    const bad = run(['bridge', '--port', '0', '--config-dir', dir, '--mcp-sessions-per-token', '0']);
    expect(await bad.exit).to.equal(2);
    expect(bad.err()).to.contain('--mcp-sessions-per-token must be an integer 1-');

    const bridge = run(['bridge', '--port', '0', '--config-dir', dir, '--log-level', 'silent', '--max-agent-sessions', '1']);
    try {
      const end = Date.now() + 30_000;
      while (!/agent endpoint: +(ws:\S+)/.test(bridge.out()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
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
