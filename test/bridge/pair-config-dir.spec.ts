// `pair --config-dir X` while a bridge started with another config dir runs: that bridge reads codes
// only from its own dir, so pair refuses (saying what to do) instead of printing a code that can
// never be accepted; with the bridge's own dir it makes the code as before.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { runPair } from '../../bridge/cli/pair';
import { parseBridgeUrl } from '../../bridge/cli/shared-options';
import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { PAIRING_FILE } from '../../bridge/src/pairing';
import type { BridgeServer } from '../../bridge/src/server';

describe('pair with a config dir the running bridge does not read', () => {
  let root: string;
  let bridge: BridgeServer;
  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-pair-dir-'));
    bridge = createBridge({ port: 0, configDir: path.join(root, 'bridge-dir'), logger: createLogger('silent') });
    await bridge.start();
  });
  after(async () => {
    await bridge.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const pair = async (configDir: string) => {
    let out = '';
    let err = '';
    const address = parseBridgeUrl(`127.0.0.1:${bridge.port}`);
    if (!address) throw new Error('bad address');
    const code = await runPair(
      { configDir, bridge: address, open: false },
      (s) => void (out += s),
      (s) => void (err += s),
    );
    return { code, out, err };
  };

  it('refuses with what to do, and writes no code there', async () => {
    const other = path.join(root, 'other-dir');
    const r = await pair(other);
    expect(r.code).to.equal(1);
    expect(r.out).to.equal('');
    expect(r.err).to.contain(`uses another config dir than ${other}, so it could never accept a code made there; no code was made`);
    expect(r.err).to.contain('Run pair with the --config-dir the bridge was started with');
    expect(fs.existsSync(path.join(other, PAIRING_FILE))).to.equal(false);
  });

  it("makes the code with the bridge's own config dir", async () => {
    const r = await pair(path.join(root, 'bridge-dir'));
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.match(/\b[A-Z0-9]{4}-[A-Z0-9]{4}\b/);
    expect(r.out).to.contain('The bridge is running at');
  });
});
