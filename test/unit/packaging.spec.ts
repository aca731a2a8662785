// Facts about the package that other parts rely on.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { BRIDGE_VERSION } from '../../bridge/common/version';
import { buildManifest, EXTENSION_ID, EXTENSION_KEY, PERMISSION_REASONS } from '../../extension/manifest.mjs';
import { REPO_ROOT } from '../harness/browser';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

describe('packaging', () => {
  it('the bridge reports the package version', () => {
    expect(BRIDGE_VERSION).to.equal(pkg.version);
  });

  it('every manifest permission has a one-line reason', () => {
    const m = buildManifest(pkg.version) as { permissions: string[]; host_permissions: string[] };
    const declared = [...m.permissions, ...m.host_permissions].sort();
    expect(Object.keys(PERMISSION_REASONS).sort()).to.deep.equal(declared);
    for (const reason of Object.values(PERMISSION_REASONS) as string[]) expect(reason).to.match(/^\S.{10,}$/);
  });

  it('the fixed extension id is derived from the manifest key', () => {
    const der = Buffer.from(EXTENSION_KEY, 'base64');
    const hex = crypto.createHash('sha256').update(der).digest('hex').slice(0, 32);
    const id = [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
    expect(id).to.equal(EXTENSION_ID);
  });

  it('the manifest opens the side panel from the toolbar, has icons and a name a person recognises', () => {
    const m = buildManifest(pkg.version) as Record<string, unknown>;
    expect(m['side_panel']).to.deep.equal({ default_path: 'sidepanel/index.html' });
    expect(m['name']).to.equal('browser-use-ext');
    const icons = m['icons'] as Record<string, string>;
    for (const size of ['16', '32', '48', '128']) {
      const file = path.join(REPO_ROOT, 'extension', icons[size] as string);
      const png = fs.readFileSync(file);
      expect(png.subarray(1, 4).toString('ascii'), file).to.equal('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], file).to.deep.equal([Number(size), Number(size)]);
    }
  });

  it('npm run package writes a zip that standard unzip tools read back byte for byte (config.json left out)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-pkg-'));
    try {
      const src = path.join(dir, 'ext');
      fs.mkdirSync(path.join(src, 'icons'), { recursive: true });
      fs.writeFileSync(path.join(src, 'manifest.json'), '{"name":"x"}');
      fs.writeFileSync(path.join(src, 'icons', 'a.bin'), crypto.randomBytes(5000));
      fs.writeFileSync(path.join(src, 'config.json'), '{"extension_secret":"do-not-ship"}');
      const out = path.join(dir, 'x.zip');
      execFileSync('node', [path.join(REPO_ROOT, 'scripts', 'package.mjs'), src, out], { cwd: REPO_ROOT });
      const listing = execFileSync('python3', [
        '-c',
        'import sys,zipfile,hashlib; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(sorted((i.filename, hashlib.sha256(z.read(i)).hexdigest()) for i in z.infolist()))',
        out,
      ]).toString();
      const sha = (f: string) =>
        crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(src, f)))
          .digest('hex');
      expect(listing.trim()).to.equal(`[('icons/a.bin', '${sha('icons/a.bin')}'), ('manifest.json', '${sha('manifest.json')}')]`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
