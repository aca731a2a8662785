// Facts about the package that other parts rely on.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BRIDGE_VERSION } from '../../bridge/src/version';
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
});
