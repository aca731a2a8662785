// How a printed command is typed where the bridge runs: the plain name only when `browser-use-ext`
// on PATH is this very script (a global install, npm link), else with npx (a checkout, a project's
// node_modules); and the flags the next steps add so a bare subcommand reaches this bridge.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { reachFlags } from '../../bridge/cli/first-steps';
import { onPath } from '../../bridge/common/cli-invocation';

describe('the CLI as typed where the bridge runs', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cli-form-'));
    fs.mkdirSync(path.join(root, 'pkg', 'dist', 'bridge'), { recursive: true });
    fs.writeFileSync(path.join(root, 'pkg', 'dist', 'bridge', 'cli.js'), '');
    fs.mkdirSync(path.join(root, 'bin'));
    fs.mkdirSync(path.join(root, 'other-bin'));
    fs.symlinkSync(path.join(root, 'pkg', 'dist', 'bridge', 'cli.js'), path.join(root, 'bin', 'browser-use-ext'));
    fs.writeFileSync(path.join(root, 'other-bin', 'browser-use-ext'), '');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('plain when the name on PATH is this script, npx otherwise (another copy, or none)', () => {
    const self = fs.realpathSync(path.join(root, 'pkg', 'dist', 'bridge', 'cli.js'));
    const bin = path.join(root, 'bin');
    const other = path.join(root, 'other-bin');
    expect(onPath(self, ['/nonexistent', bin].join(path.delimiter), 'linux')).to.equal(true);
    expect(onPath(self, other, 'linux')).to.equal(false);
    expect(onPath(self, '', 'linux')).to.equal(false);
  });

  it('the next steps add --bridge-url and --config-dir only where a bare command would miss this bridge', () => {
    const env = { XDG_CONFIG_HOME: '/home/ada/.config' };
    const dflt = path.join('/home/ada/.config', 'browser-use-ext');
    expect(reachFlags({ host: '127.0.0.1', port: 8765, configDir: dflt }, env)).to.equal('');
    expect(reachFlags({ host: '127.0.0.1', port: 9000, configDir: dflt }, env)).to.equal(' --bridge-url ws://127.0.0.1:9000');
    expect(
      reachFlags({ host: '127.0.0.1', port: 9000, configDir: dflt }, { ...env, BROWSER_USE_EXT_BRIDGE_URL: 'ws://127.0.0.1:9000' }),
    ).to.equal('');
    expect(reachFlags({ host: '127.0.0.1', port: 8765, configDir: '/tmp/my dir' }, env)).to.equal(" --config-dir '/tmp/my dir'");
  });
});
