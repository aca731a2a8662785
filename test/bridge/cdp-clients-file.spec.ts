// The CDP URLs' token store (cdp-clients.json) and `browser-use-ext cdp-url` as a person runs it:
// only hashes on disk (0600), a name made again replaces its URL, revocation and new URLs reach a
// running bridge without a restart, and the URL alone goes to stdout so $(browser-use-ext cdp-url) works.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import {
  CDP_TOKEN_FORMAT,
  CdpClientsFile,
  cdpClientsPath,
  listCdpClients,
  mintCdpClient,
  revokeCdpClient,
  touchCdpClient,
} from '../../bridge/agents/cdp/cdp-clients-file';
import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { sha256Hex } from '../../bridge/common/token-file';
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

describe('CDP URL store (cdp-clients.json)', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-file-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps only the hash of a fresh cdp_ token, owner-only (0600), with the tab limit and dates', () => {
    const m = mintCdpClient(dir, { name: 'playwright', maxTabs: 5 });
    expect(m.token).to.match(CDP_TOKEN_FORMAT);
    expect(m.url(9999)).to.equal(`http://127.0.0.1:9999/cdp/${m.token}`);
    const text = fs.readFileSync(cdpClientsPath(dir), 'utf8');
    expect(text).not.to.contain(m.token);
    expect(text).to.contain(sha256Hex(m.token));
    if (process.platform !== 'win32') expect(fs.statSync(cdpClientsPath(dir)).mode & 0o777).to.equal(0o600);
    const [r] = listCdpClients(dir);
    expect(r).to.include({ name: 'playwright', max_tabs: 5, last_used_at: null });
    expect(Date.parse(r?.created_at ?? '')).to.be.closeTo(Date.now(), 5000);
    expect(mintCdpClient(dir, { name: 'other' }).record.max_tabs).to.equal(3);
    // No temporary files left beside it.
    expect(fs.readdirSync(dir).sort()).to.deep.equal(['cdp-clients.json']);
  });

  it('making a name again replaces its URL: the old token stops matching, the new one matches', () => {
    const first = mintCdpClient(dir, { name: 'bu' });
    const file = new CdpClientsFile(dir);
    expect(file.verify(first.token)?.name).to.equal('bu');
    const second = mintCdpClient(dir, { name: 'bu', maxTabs: 2 });
    expect(second.replaced).to.equal(true);
    expect(first.replaced).to.equal(false);
    // The running bridge's view notices the change on its next look, without a restart.
    expect(file.verify(first.token)).to.equal(null);
    expect(file.verify(second.token)).to.include({ name: 'bu', max_tabs: 2 });
    expect(listCdpClients(dir).map((r) => r.name)).to.deep.equal(['bu']);
  });

  it('revoke removes the entry; unknown names are reported; last use is noted for the right token only', () => {
    const a = mintCdpClient(dir, { name: 'a' });
    mintCdpClient(dir, { name: 'b' });
    touchCdpClient(dir, 'a', sha256Hex('cdp_not-the-token'));
    expect(listCdpClients(dir).find((r) => r.name === 'a')?.last_used_at).to.equal(null);
    touchCdpClient(dir, 'a', sha256Hex(a.token));
    expect(listCdpClients(dir).find((r) => r.name === 'a')?.last_used_at).to.be.a('string');
    expect(revokeCdpClient(dir, 'a')).to.equal(true);
    expect(revokeCdpClient(dir, 'a')).to.equal(false);
    expect(new CdpClientsFile(dir).verify(a.token)).to.equal(null);
    expect(listCdpClients(dir).map((r) => r.name)).to.deep.equal(['b']);
  });

  it('refuses names that are not 1-64 plain characters and tab limits outside 1-100, naming the rule', () => {
    for (const name of ['', '-x', '.hidden', 'a b', 'x'.repeat(65), 'ü'])
      expect(() => mintCdpClient(dir, { name })).to.throw(/1-64 letters, digits, dot, dash or underscore/);
    for (const maxTabs of [0, 101, 1.5]) expect(() => mintCdpClient(dir, { name: 'ok', maxTabs })).to.throw(/1-100/);
    expect(fs.existsSync(cdpClientsPath(dir))).to.equal(false);
  });

  it("two processes changing the list at once do not lose each other's change (lock beside the file)", async () => {
    mintCdpClient(dir, { name: 'first' });
    const file = cdpClientsPath(dir);
    // Another process (a CLI) in the middle of its read-modify-write: it holds the lock for 400 ms.
    const other = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs');
         fs.closeSync(fs.openSync(process.argv[1] + '.lock', 'wx'));
         const list = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
         process.stdout.write('locked\\n');
         setTimeout(() => {
           list.clients.push({ name: 'other', sha256: '${'0'.repeat(64)}', max_tabs: 3, created_at: new Date().toISOString(), last_used_at: null });
           fs.writeFileSync(process.argv[1], JSON.stringify(list));
           fs.rmSync(process.argv[1] + '.lock');
         }, 400);`,
        file,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => other.stdout.once('data', () => resolve()));
    const started = Date.now();
    mintCdpClient(dir, { name: 'mine' });
    expect(Date.now() - started).to.be.above(200); // it waited for the other writer
    await new Promise((r) => other.once('close', r));
    expect(listCdpClients(dir).map((r) => r.name)).to.deep.equal(['first', 'other', 'mine']);
    expect(fs.existsSync(`${file}.lock`)).to.equal(false);
    // A lock left by a crashed process does not block for ever.
    fs.writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    expect(revokeCdpClient(dir, 'other')).to.equal(true);
  });

  it('a damaged file says which file and how to fix it; the bridge view recovers once it is repaired', () => {
    fs.writeFileSync(cdpClientsPath(dir), '{"clients": [');
    expect(() => listCdpClients(dir)).to.throw(/not valid JSON.*cdp-url --name NAME/);
    const file = new CdpClientsFile(dir);
    expect(() => file.records()).to.throw(cdpClientsPath(dir));
    fs.rmSync(cdpClientsPath(dir));
    const m = mintCdpClient(dir, { name: 'fixed' });
    expect(file.verify(m.token)?.name).to.equal('fixed');
  });
});

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

  it('prints the URL alone on stdout, usage on stderr; the running bridge serves it at once; a second run replaces it', async () => {
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
    expect(first.err).not.to.match(/Warning|No bridge answers/);
    const version = await get(`${url}/json/version`);
    expect(version.status).to.equal(200);
    expect(listCdpClients(dir)[0]).to.include({ name: 'bu', max_tabs: 2 });

    const second = await runCli(['cdp-url', '--name', 'bu', '--config-dir', dir, '--bridge-url', bridgeUrl]);
    expect(second.code).to.equal(0);
    expect(second.err).to.contain('replaces the earlier URL named "bu": that one stops working now');
    expect((await get(`${url}/json/version`)).status).to.equal(404);
    expect((await get(`${second.out.trim()}/json/version`)).status).to.equal(200);
  });

  it('--list shows names and limits but never a URL; --revoke stops the URL without a restart', async () => {
    const made = await runCli(['cdp-url', '--name', 'pw', '--config-dir', dir, '--bridge-url', `http://127.0.0.1:${bridge.port}`]);
    const url = made.out.trim();
    const token = url.split('/').pop() ?? '';
    const list = await runCli(['cdp-url', '--list', '--config-dir', dir]);
    expect(list.code).to.equal(0);
    expect(list.out).to.match(/^NAME\tTABS\tCREATED\tLAST USED\npw\t3\t\S+\tnever\n$/);
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

  it('takes the port from $BROWSER_USE_EXT_BRIDGE_URL, says when no bridge answers, and checks its arguments', async () => {
    const env = await runCli(['cdp-url', '--config-dir', dir], { BROWSER_USE_EXT_BRIDGE_URL: `ws://127.0.0.1:${bridge.port}/agent` });
    expect(env.code).to.equal(0);
    expect(env.out).to.match(new RegExp(`^http://127\\.0\\.0\\.1:${bridge.port}/cdp/cdp_`));
    expect(listCdpClients(dir).map((r) => r.name)).to.deep.equal(['default']);
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
    for (const flag of ['--name', '--tabs', '--list', '--revoke', '--bridge-url', '--config-dir', 'BROWSER_USE_EXT_BRIDGE_URL'])
      expect(help.out).to.contain(flag);
    const main = await runCli(['--help']);
    expect(main.out).to.contain('cdp-url');
  });
});
