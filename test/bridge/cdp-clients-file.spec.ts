// The CDP URLs' token store (cdp-clients.json): only hashes on disk (0600), a name made again
// replaces its URL, a lock keeps two writers from losing each other's change. The CLI that edits it,
// run as a person runs it, is test/integration/cdp-url-cli.spec.ts.
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
  setCdpClientStopped,
  touchCdpClient,
} from '../../bridge/agents/cdp/cdp-clients-file';
import { sha256Hex } from '../../bridge/common/token-file';

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

  it("the person's Stop is kept in the file (a new reader sees it), for that URL only, until allowed again or made again", () => {
    const m = mintCdpClient(dir, { name: 'bu' });
    expect(listCdpClients(dir)[0]?.stopped_at).to.equal(null);
    expect(setCdpClientStopped(dir, 'bu', new Date('2026-01-02T03:04:05Z'), sha256Hex('cdp_other'))).to.equal(false);
    expect(setCdpClientStopped(dir, 'bu', new Date('2026-01-02T03:04:05Z'), m.record.sha256)).to.equal(true);
    // What a restarted bridge reads.
    expect(new CdpClientsFile(dir).verify(m.token)?.stopped_at).to.equal('2026-01-02T03:04:05.000Z');
    expect(setCdpClientStopped(dir, 'bu', null)).to.equal(true);
    expect(new CdpClientsFile(dir).verify(m.token)?.stopped_at).to.equal(null);
    setCdpClientStopped(dir, 'bu', new Date());
    expect(mintCdpClient(dir, { name: 'bu' }).record.stopped_at).to.equal(null);
    expect(setCdpClientStopped(dir, 'nobody', new Date())).to.equal(false);
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
