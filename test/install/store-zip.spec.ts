// The zip `npm run package` writes from the real build is one the Chrome Web Store accepts: no `key`
// (the store assigns the id), the icons, names and description within the store's limits, a valid
// version, a reason for every permission, and no harness config.json or source map inside. The
// unpacked build keeps its key, so the bridge's default extension id still matches it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { EXTENSION_ID } from '../../bridge/common/extension-id';
import { PERMISSION_REASONS } from '../../extension/manifest.mjs';
import { REPO_ROOT } from '../harness/browser';

// https://developer.chrome.com/docs/extensions/reference/manifest/name (75), short_name (12),
// https://developer.chrome.com/docs/extensions/reference/manifest/description (132).
const LIMITS = { name: 75, short_name: 12, description: 132 };
// https://developer.chrome.com/docs/extensions/reference/manifest/version: 1-4 integers 0-65535, no leading zeros.
const VERSION = /^(0|[1-9]\d{0,4})(\.(0|[1-9]\d{0,4})){0,3}$/;

/** {name: bytes} of every file in the zip, read back by Python's zipfile (an independent reader). */
function unzip(file: string): Map<string, Buffer> {
  const json = execFileSync(
    'python3',
    [
      '-c',
      'import sys,zipfile,json,base64; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(json.dumps({i.filename: base64.b64encode(z.read(i)).decode() for i in z.infolist()}))',
      file,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  ).toString();
  return new Map(Object.entries(JSON.parse(json) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
}

describe('the Chrome Web Store zip (npm run package)', () => {
  const built = path.join(REPO_ROOT, 'dist', 'extension');
  let tmp: string;
  let files: Map<string, Buffer>;
  let manifest: Record<string, unknown>;

  before(function () {
    if (!fs.existsSync(path.join(built, 'manifest.json'))) throw new Error('No build in dist/extension: run npm run build first.');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-store-'));
    // The build as the harness leaves it: a config.json with secrets and a stray source map.
    const src = path.join(tmp, 'extension');
    fs.cpSync(built, src, { recursive: true });
    fs.writeFileSync(path.join(src, 'config.json'), '{"extension_secret":"do-not-ship"}');
    fs.writeFileSync(path.join(src, 'background.js.map'), '{}');
    const out = path.join(tmp, 'store.zip');
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'package.mjs'), src, out], { cwd: REPO_ROOT });
    files = unzip(out);
    manifest = JSON.parse((files.get('manifest.json') as Buffer).toString('utf8')) as Record<string, unknown>;
  });
  after(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

  it('has no key (the store assigns the id); the unpacked build keeps the key the bridge expects', () => {
    expect(manifest).to.not.have.property('key');
    const dev = JSON.parse(fs.readFileSync(path.join(built, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(dev).to.have.property('key');
    const { key: _key, ...devWithoutKey } = dev;
    // Everything else is the same extension.
    expect({ ...devWithoutKey, short_name: undefined }).to.deep.equal({ ...manifest, short_name: undefined });
    expect(EXTENSION_ID).to.match(/^[a-p]{32}$/);
  });

  it('ships the 16, 32, 48 and 128 px icons the manifest names', () => {
    const icons = manifest['icons'] as Record<string, string>;
    expect(Object.keys(icons).sort()).to.deep.equal(['128', '16', '32', '48']);
    for (const [size, file] of Object.entries(icons)) {
      const png = files.get(file);
      expect(png, file).to.not.equal(undefined);
      expect([png?.readUInt32BE(16), png?.readUInt32BE(20)], file).to.deep.equal([Number(size), Number(size)]);
    }
  });

  it('name, short name and description fit the store, the version is valid, every permission has a reason', () => {
    for (const [field, max] of Object.entries(LIMITS)) {
      const v = manifest[field];
      if (field !== 'short_name') expect(v, field).to.be.a('string');
      if (typeof v === 'string') expect(v.length, `${field} "${v}"`).to.be.within(1, max);
    }
    expect(manifest['version']).to.match(VERSION);
    const declared = [...(manifest['permissions'] as string[]), ...((manifest['host_permissions'] as string[] | undefined) ?? [])];
    expect(declared.filter((p) => !PERMISSION_REASONS[p])).to.deep.equal([]);
  });

  it('leaves out the harness config.json and source maps, and packs every other built file byte for byte', () => {
    expect([...files.keys()].filter((f) => f === 'config.json' || f.endsWith('.map'))).to.deep.equal([]);
    const walk = (dir: string, base = ''): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const rel = base ? `${base}/${e.name}` : e.name;
        return e.isDirectory() ? walk(path.join(dir, e.name), rel) : [rel];
      });
    const expected = walk(built).filter((f) => f !== 'config.json' && !f.endsWith('.map'));
    expect([...files.keys()].sort()).to.deep.equal(expected.sort());
    for (const f of expected.filter((x) => x !== 'manifest.json'))
      expect(files.get(f)?.equals(fs.readFileSync(path.join(built, f))), f).to.equal(true);
  });
});
