// The MCP commands as a person runs them (the built CLI, dist/bridge/cli.js): issue a token with
// `mcp-token add`, start `bridge` with the same --config-dir, and the MCP SDK client gets in over
// HTTP with it; `mcp-token revoke` locks it out without a restart. No browser needed.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { BUILT_CLI, connectHttpClient } from '../harness/mcp-clients';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BUILT_CLI, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("mcp CLI: mcp-token and the bridge's /mcp", function () {
  this.timeout(60_000);
  let dir: string;
  let bridge: ChildProcess | null = null;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-mcp-cli-'))));
  afterEach(async () => {
    if (bridge && bridge.exitCode === null) {
      const exited = new Promise((r) => bridge?.once('close', r));
      bridge.kill('SIGTERM');
      await exited;
    }
    bridge = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('issues a token once, lists names only, and the bridge started with that config dir accepts it until revoked', async () => {
    const added = cli(['mcp-token', 'add', 'vscode', '--config-dir', dir]);
    expect(added.status, added.stderr).to.equal(0);
    const token = /(bux_mcp_[A-Za-z0-9_-]+)/.exec(added.stdout)?.[1] ?? '';
    expect(token).to.have.length(51);
    expect(fs.readFileSync(path.join(dir, 'mcp-tokens.json'), 'utf8')).not.to.contain(token);
    const listed = cli(['mcp-token', 'list', '--config-dir', dir]);
    // A header names the columns (as cdp-url --list's), then one line per token: name and date first.
    expect(listed.stdout).to.match(/^NAME\tCREATED\tBROWSER\nvscode\t\d{4}-/);
    expect(listed.stdout).not.to.contain(token);
    expect(cli(['mcp-token', 'add', 'vscode', '--config-dir', dir]).status).to.equal(1);

    bridge = spawn(process.execPath, [BUILT_CLI, 'bridge', '--port', '0', '--config-dir', dir, '--log-level', 'error'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    bridge.stdout?.on('data', (d) => (out += d));
    const end = Date.now() + 20_000;
    while (!out.includes('Press Ctrl+C') && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(out).to.match(/MCP \(HTTP\): +http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const port = Number(/ws:\/\/127\.0\.0\.1:(\d+)\/agent/.exec(out)?.[1]);
    const client = await connectHttpClient({ port, token, name: 'vscode' });
    const tools = await client.listTools();
    expect(tools.tools.length).to.be.greaterThan(20);
    await client.close();

    expect(cli(['mcp-token', 'revoke', 'vscode', '--config-dir', dir]).status).to.equal(0);
    let refused: unknown = null;
    await connectHttpClient({ port, token, name: 'vscode' }).catch((e: unknown) => (refused = e));
    expect(String(refused)).to.match(/401|bearer token/i);
    expect(cli(['mcp-token', 'revoke', 'vscode', '--config-dir', dir]).status).to.equal(1);
  });

  it('mcp without an agent secret exits with a message that says where to get one', () => {
    const r = spawnSync(process.execPath, [BUILT_CLI, 'mcp', '--config-dir', dir], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '' },
      input: '',
    });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('No agent secret');
    expect(r.stderr).to.contain('--print-pairing');
    expect(r.stdout).to.equal(''); // stdout is the MCP channel
  });
});
