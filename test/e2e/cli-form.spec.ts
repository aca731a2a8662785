// Commands the panel and Settings print run where the bridge runs. A bridge started from a checkout
// is typed `npx browser-use-ext ...` there (plain `browser-use-ext` is "command not found"); the
// bridge names its form on /healthz, which the extension reads before pairing too, so the very first
// hint a newcomer copies ("run `... pair`") already works. Real Chromium with the built extension.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { EXTENSION_ID } from '../../bridge/common/extension-id';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import { type LaunchedBrowser, launchWithExtension } from '../harness/browser';
import { openPanel } from '../harness/panel';
import { brokenCommands } from '../harness/panel-checks';

describe('e2e: the panel and Settings print commands in the form the bridge says works where it runs', function () {
  this.timeout(120_000);
  let dir: string;
  let bridge: BridgeServer;
  let launched: LaunchedBrowser;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cli-form-'));
    bridge = createBridge({ port: 0, configDir: dir, cliForm: 'npx browser-use-ext', logger: createLogger('silent') });
    await bridge.start();
    // A fresh install, not paired: what a newcomer sees first.
    launched = await launchWithExtension({ extensionBridgeUrl: bridge.extensionUrl, extensionConfig: {} });
  });
  after(async () => {
    await launched?.close();
    await bridge?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('not paired yet: the pairing hints, the agent hint and Settings say `npx browser-use-ext ...`, each one whole', async () => {
    const panel = await openPanel(launched.browser, { width: 360, height: 800 });
    const codes = (sel: string) => panel.$$eval(sel, (cs) => cs.map((c) => c.textContent));
    await panel.waitForFunction(
      () => [...document.querySelectorAll('#conn-next code')].map((c) => c.textContent).includes('npx browser-use-ext pair'),
      { timeout: 20_000 },
    );
    expect(await codes('#conn-next code')).to.deep.equal(['npx browser-use-ext pair', 'npx browser-use-ext bridge --print-pairing']);
    // The page's own hints too (written in the HTML), and none left in the form that does not run there.
    const all = (await codes('code')).filter((t): t is string => t !== null && /browser-use-ext\s/.test(t));
    expect(all).to.include('npx browser-use-ext agent --base-url https://api.openai.com/v1 --model gpt-4o-mini');
    expect(all.filter((t) => !t.startsWith('npx '))).to.deep.equal([]);
    expect(await brokenCommands(panel)).to.deep.equal([]);
    const settings = await launched.browser.newPage();
    await settings.goto(`chrome-extension://${EXTENSION_ID}/options.html`, { waitUntil: 'load' });
    await settings.waitForFunction(() => document.querySelector('.lead code')?.textContent === 'npx browser-use-ext pair', {
      timeout: 10_000,
    });
    await settings.close();
  });
});
