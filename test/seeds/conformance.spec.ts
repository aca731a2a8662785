// The conformance kit against our own bridge + extension in real Chromium: every check must pass
// (a kit that fails on the reference implementation is wrong), and the CLI prints the report.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { formatReport, runConformance } from '../../bridge/agents/conformance/checks';
import { runAsBridge } from '../../bridge/cli/conformance-as-bridge';
import { loadOrCreateSecrets } from '../../bridge/common/secrets';
import { ACTION_NAMES } from '../../schemas/generated/registry';
import { type LaunchedBrowser, launchWithExtension, REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';

describe('conformance kit', function () {
  let h: Harness;
  before(async function () {
    this.timeout(90_000);
    h = await startHarness();
    await h.openPage(h.fixtures.html('/start', '<p>start</p>'));
  });
  after(async () => {
    await h?.close();
  });

  it('passes every check against the reference bridge and extension, covering every action', async function () {
    this.timeout(180_000);
    const results = await runConformance({ against: h.bridge.agentUrl, secret: h.secrets.agent_secret });
    const report = formatReport(results);
    expect(
      results.filter((r) => r.outcome !== 'pass'),
      report,
    ).to.deep.equal([]);
    const actions = new Set(results.filter((r) => r.section === 'action').flatMap((r) => r.name.split(/[ +()]+/)));
    for (const a of ACTION_NAMES) expect(actions, `action ${a} is checked`).to.include(a);
    expect(results.filter((r) => r.section === 'handshake').length).to.equal(5);
    expect(results.filter((r) => r.section === 'error_code').map((r) => r.name.split(' ')[0])).to.include.members([
      'TARGET_ELEMENT_NOT_FOUND',
      'AMBIGUOUS_TARGET',
      'TARGET_ELEMENT_NOT_INTERACTABLE',
      'OPTION_NOT_FOUND',
      'TIMEOUT',
      'TAB_NOT_FOUND',
      'NAVIGATION_FAILED',
      'INVALID_MESSAGE',
    ]);
  });

  it('fails the handshake checks against a bridge holding another secret, and the CLI exits 1', async function () {
    this.timeout(120_000);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'bridge/cli/main.ts'), 'conformance', '--against', h.bridge.agentUrl],
      { env: { ...process.env, BROWSER_USE_EXT_AGENT_SECRET: 'x'.repeat(43) } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).to.equal(1);
    expect(out).to.contain('FAIL  hello -> auth_challenge whose bridge_proof verifies');
    expect(out).to.match(/\d+ checks: \d+ pass, [1-9]\d* fail/);
  });

  it('--as-bridge: the kit is the bridge for an extension-side implementation (our built extension) and runs every check through it', async function () {
    this.timeout(240_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-conf-'));
    const { secrets } = loadOrCreateSecrets(dir);
    let launched: LaunchedBrowser | null = null;
    try {
      const results = await runAsBridge({
        secrets,
        waitForExtensionMs: 30_000,
        onListening: async (url) => {
          launched = await launchWithExtension({
            extensionBridgeUrl: url,
            extensionConfig: { extension_secret: secrets.extension_secret },
          });
          const page = await launched.browser.newPage();
          await page.goto('about:blank');
        },
      });
      expect(results[0]).to.include({ name: 'an extension connects and completes the handshake', outcome: 'pass' });
      expect(
        results.filter((r) => r.outcome !== 'pass'),
        formatReport(results),
      ).to.deep.equal([]);
      expect(results.length).to.be.greaterThan(50);
    } finally {
      await (launched as LaunchedBrowser | null)?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
