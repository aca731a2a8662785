// `browser-use-ext cdp-url` as a person runs it, through the real entry (bridge/cli/main.ts) in its
// own process against a real bridge: revocation and new URLs reach the running bridge without a
// restart, and the URL alone goes to stdout so $(browser-use-ext cdp-url) works.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { listCdpClients, setCdpClientStopped } from '../../bridge/agents/cdp/cdp-clients-file';
import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import { REPO_ROOT } from '../harness/browser';

const CLI = path.join(REPO_ROOT, 'bridge', 'cli', 'main.ts');

function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, BROWSER_USE_EXT_BRIDGE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

describe('browser-use-ext cdp-url (the real CLI against a real bridge)', function () {
  this.timeout(60_000);
  let dir: string;
  let bridge: BridgeServer;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-cli-'));
    bridge = createBridge({ port: 0, configDir: dir, logger: createLogger('silent') });
    await bridge.start();
  });
  afterEach(async () => {
    await bridge.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => fetch(url).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it('prints the URL alone on stdout, usage on stderr; the running bridge serves it at once; a name in use is replaced only with --replace', async () => {
    const bridgeUrl = `http://127.0.0.1:${bridge.port}`;
    const first = await runCli(['cdp-url', '--name', 'bu', '--tabs', '2', '--config-dir', dir, '--bridge-url', bridgeUrl]);
    expect(first.code, first.err).to.equal(0);
    const lines = first.out.split('\n');
    expect(lines).to.have.length(2); // the URL and the final newline: $(cdp-url) gets exactly the URL
    const url = lines[0] ?? '';
    expect(url).to.match(new RegExp(`^${bridgeUrl}/cdp/cdp_[A-Za-z0-9_-]{43}$`));
    expect(first.err).to.contain(`Browser(cdp_url="${url}")`);
    expect(first.err).to.contain(`chromium.connectOverCDP('${url}')`);
    expect(first.err).to.contain(`browserWSEndpoint: '${url.replace('http', 'ws')}/devtools/browser'`);
    expect(first.err).to.contain('--revoke bu');
    expect(first.err).not.to.match(/No bridge answers|does not know this URL/);
    // No browser is connected to this bridge: said on stderr, with what to do; stdout stays the URL alone.
    expect(first.err).to.contain(`Warning: no browser extension is connected to the bridge at 127.0.0.1:${bridge.port}`);
    expect(first.err).to.contain('browser-use-ext pair');
    const version = await get(`${url}/json/version`);
    expect(version.status).to.equal(200);
    expect(listCdpClients(dir)[0]).to.include({ name: 'bu', max_tabs: 2 });

    // A second run by mistake must not cut the running client off: refused, the first URL still works.
    const again = await runCli(['cdp-url', '--name', 'bu', '--config-dir', dir, '--bridge-url', bridgeUrl]);
    expect(again.code).to.equal(1);
    expect(again.out).to.equal('');
    expect(again.err).to.contain('A CDP URL named "bu" exists. To replace it').and.contain('cdp-url --name bu --replace`');
    expect((await get(`${url}/json/version`)).status).to.equal(200);
    const second = await runCli(['cdp-url', '--name', 'bu', '--replace', '--config-dir', dir, '--bridge-url', bridgeUrl]);
    expect(second.code).to.equal(0);
    expect(second.err).to.contain('replaces the earlier URL named "bu": that one stops working now');
    expect((await get(`${url}/json/version`)).status).to.equal(404);
    expect((await get(`${second.out.trim()}/json/version`)).status).to.equal(200);
  });

  it('--list shows names, dates, browsers and limits but never a URL; --revoke stops the URL without a restart', async () => {
    // --browser wins over $BROWSER_USE_EXT_BROWSER: the URL works in the browser named Work.
    const made = await runCli(
      ['cdp-url', '--name', 'pw', '--browser', 'Work', '--config-dir', dir, '--bridge-url', `http://127.0.0.1:${bridge.port}`],
      { BROWSER_USE_EXT_BROWSER: 'Home' },
    );
    expect(made.err).to.contain('in the browser named "Work"');
    const url = made.out.trim();
    const token = url.split('/').pop() ?? '';
    const list = await runCli(['cdp-url', '--list', '--config-dir', dir]);
    expect(list.code).to.equal(0);
    // Name and date first, as in `mcp-token list` (the columns moved on purpose: the two lists read alike).
    expect(list.out).to.match(/^NAME\tCREATED\tBROWSER\tTABS\tLAST USED\tSTOPPED\npw\t\S+\tWork\t3\tnever\tno\n$/);
    expect(list.out + list.err).not.to.contain(token);
    const revoked = await runCli(['cdp-url', '--revoke', 'pw', '--config-dir', dir]);
    expect(revoked.code).to.equal(0);
    expect(revoked.err).to.contain('Revoked "pw"');
    const after = await get(`${url}/json/version`);
    expect(after.status).to.equal(404);
    expect(after.body['error']).to.contain('browser-use-ext cdp-url --name NAME');
    const unknown = await runCli(['cdp-url', '--revoke', 'pw', '--config-dir', dir]);
    expect(unknown.code).to.equal(1);
    expect(unknown.err).to.contain('No CDP URL is named "pw"');
  });

  it('mcp-token answers as cdp-url does: a name in use refused in the same words, --replace, the same list header', async () => {
    const add = (...extra: string[]) => runCli(['mcp-token', 'add', 'claude', ...extra, '--config-dir', dir]);
    const first = await add();
    expect(first.code, first.err).to.equal(0);
    const token = /\n {2}(\S+)\n/.exec(first.out)?.[1] ?? '';
    const again = await add();
    expect(again.code).to.equal(1);
    expect(again.err).to.contain('A token named "claude" exists. To replace it').and.contain('mcp-token add claude --replace`');
    const replaced = await add('--replace');
    expect(replaced.code, replaced.err).to.equal(0);
    expect(replaced.out).to.not.contain(token);
    const list = await runCli(['mcp-token', 'list', '--config-dir', dir]);
    expect(list.out).to.match(/^NAME\tCREATED\tBROWSER\nclaude\t\S+\t\(last used\)\n$/);
  });

  it('takes the port from $BROWSER_USE_EXT_BRIDGE_URL, says when no bridge answers, and checks its arguments', async () => {
    const env = await runCli(['cdp-url', '--config-dir', dir], { BROWSER_USE_EXT_BRIDGE_URL: `ws://127.0.0.1:${bridge.port}/agent` });
    expect(env.code).to.equal(0);
    expect(env.out).to.match(new RegExp(`^http://127\\.0\\.0\\.1:${bridge.port}/cdp/cdp_`));
    expect(listCdpClients(dir).map((r) => r.name)).to.deep.equal(['default']);
    // --port, as pair and mcp take it: the printed URL is on that port.
    const byPort = await runCli(['cdp-url', '--name', 'p', '--config-dir', dir, '--port', String(bridge.port)]);
    expect(byPort.code, byPort.err).to.equal(0);
    expect(byPort.out).to.match(new RegExp(`^http://127\\.0\\.0\\.1:${bridge.port}/cdp/cdp_[A-Za-z0-9_-]{43}\n$`));
    expect(byPort.err).to.contain('no browser extension is connected');
    setCdpClientStopped(dir, 'p', new Date('2026-01-02T03:04:05Z'));
    expect((await runCli(['cdp-url', '--list', '--config-dir', dir])).out).to.match(
      /\np\t\S+\t\(last used\)\t3\t\S+\t2026-01-02T03:04:05\.000Z\n/,
    );
    const nobody = await runCli(['cdp-url', '--name', 'x', '--config-dir', dir, '--bridge-url', 'http://127.0.0.1:1']);
    expect(nobody.code).to.equal(0);
    expect(nobody.err).to.contain('No bridge answers at 127.0.0.1:1');
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-other-'));
    const elsewhere = await runCli(['cdp-url', '--config-dir', other, '--bridge-url', `http://127.0.0.1:${bridge.port}`]);
    fs.rmSync(other, { recursive: true, force: true });
    expect(elsewhere.err).to.contain('reads another config dir');
    for (const bad of [['--tabs', '0'], ['--tabs', 'x'], ['--bridge-url', 'ftp://h'], ['--nope']]) {
      const r = await runCli(['cdp-url', '--config-dir', dir, ...bad]);
      expect(r.code, bad.join(' ')).to.equal(2);
      expect(r.out).to.equal('');
    }
    const help = await runCli(['cdp-url', '--help']);
    expect(help.code).to.equal(0);
    for (const flag of ['--name', '--tabs', '--list', '--revoke', '--bridge-url', '--config-dir', '--port', 'BROWSER_USE_EXT_BRIDGE_URL'])
      expect(help.out).to.contain(flag);
    const main = await runCli(['--help']);
    expect(main.out).to.contain('cdp-url');
  });
});
