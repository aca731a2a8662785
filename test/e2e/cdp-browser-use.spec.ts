// browser_use 0.13's own Agent (unmodified: Agent(task, llm=ChatOpenAI(base_url=<scripted>),
// browser=Browser(cdp_url=URL))) shops on the fixture shop through a CDP endpoint: search, add the
// cheapest stapler, open a second tab, switch back, read the cart, done. The first case runs it
// against Chromium's own --remote-debugging-port (the side-by-side baseline that proves the script);
// the second refuses the browser-wide methods a relay may refuse (docs/CDP-CLIENTS.md); the last runs
// the very same task against the bridge's CDP endpoint, changing only the URL.
import path from 'node:path';

import { expect } from 'chai';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { REPO_ROOT } from '../harness/browser';
import { type Bu013Result, runBu013ShopTask } from '../harness/bu013';
import { type CdpChromium, launchCdpChromium } from '../harness/cdp-chromium';
import { startCdpRecorder, type WsEntry } from '../harness/cdp-recorder';
import { FixtureServer } from '../harness/fixture-server';
import { startHarness } from '../harness/harness';
import { ScriptedLlm } from '../harness/scripted-llm';

const FIXTURES = path.join(REPO_ROOT, 'python-shim-spec', 'tests', 'fixtures');

interface JsonTarget {
  id: string;
  type: string;
  url: string;
}

/** The task's outcome as browser_use reported it, and the model's decisions (the scripted server's log). */
async function expectShopTaskDone(r: Bu013Result, shopUrl: string, llm: ScriptedLlm): Promise<void> {
  const why = `${r.error ?? ''}\n${r.output.slice(-4000)}`;
  expect(r.error, why).to.equal(null);
  expect(r.done, why).to.equal(true);
  expect(r.success, why).to.equal(true);
  // The cheapest stapler, read back from the cart page the agent opened in its first tab.
  expect(r.final_result).to.equal('Cart: Mini Stapler - $3.99');
  expect(r.errors).to.deep.equal([]);
  expect(r.actions).to.include.members(['input', 'click', 'navigate', 'switch', 'done']);
  expect(r.urls_visited).to.include(`${shopUrl}results.html?q=stapler`);
  expect(r.urls_visited.at(-1)).to.equal(`${shopUrl}cart.html`);
  // Every step the model decided, in order: the second tab was opened and left again before the
  // cart was read. (One ScriptedLlm per run: its log holds every run it served.)
  const goals = (await llm.log()).map((d) => d.goal.replace(/ \(.*\)/, ''));
  expect(goals).to.deep.equal([
    'Search for staplers',
    'Add the cheapest stapler to the cart',
    'Open the shop in a second tab',
    'Go back to the first tab',
    'Open the cart',
    'Report the cart',
  ]);
}

/** Both tabs are still open (browser_use closes no tab at the end): the first on the cart, the second on the home page. */
async function expectTabsLeft(jsonListUrl: string, shopUrl: string): Promise<void> {
  const pages = ((await (await fetch(jsonListUrl)).json()) as JsonTarget[]).filter((t) => t.type === 'page');
  expect(pages.map((p) => p.url).sort()).to.deep.equal([`${shopUrl}cart.html`, `${shopUrl}index.html`]);
}

describe('e2e: browser_use 0.13 over CDP', function () {
  this.timeout(300_000);
  let fixtures: FixtureServer;
  let llm: ScriptedLlm;

  before(async () => {
    fixtures = await new FixtureServer(FIXTURES).start();
    llm = await new ScriptedLlm('shop013').start();
  });
  after(async () => {
    await llm?.close();
    await fixtures?.close();
  });

  it("completes the shop task over Chromium's own DevTools endpoint (the baseline)", async () => {
    const chromium: CdpChromium = await launchCdpChromium();
    try {
      const shopUrl = fixtures.url('/shop/');
      const r = await runBu013ShopTask({ cdpUrl: chromium.httpUrl, llmBaseUrl: llm.baseUrl, shopUrl });
      await expectShopTaskDone(r, shopUrl, llm);
      await expectTabsLeft(`${chromium.httpUrl}/json/list`, shopUrl);
    } finally {
      await chromium.close();
    }
  });

  it('still completes it when the browser-wide methods a relay cannot honour are refused with a CDP error', async () => {
    // A relay in front of a person's Chrome must not change downloads or permissions for the whole
    // profile. browser_use sends Browser.setDownloadBehavior, Browser.grantPermissions (every origin)
    // and a session-less Page.enable; answering each with a CDP error must not stop the task.
    const refused = new Set(['Browser.setDownloadBehavior', 'Browser.grantPermissions', 'Page.enable']);
    const chromium = await launchCdpChromium();
    const recorder = await startCdpRecorder(chromium.httpUrl, {
      refuse: (method, browserLevel) =>
        browserLevel && refused.has(method) ? { code: -32000, message: `${method} is not available through this endpoint` } : undefined,
    });
    const fresh = await new ScriptedLlm('shop013').start();
    try {
      const shopUrl = fixtures.url('/shop/');
      const r = await runBu013ShopTask({ cdpUrl: recorder.url, llmBaseUrl: fresh.baseUrl, shopUrl });
      await expectShopTaskDone(r, shopUrl, fresh);
      // They were really asked for, and really refused.
      const errors = recorder.log.filter((e): e is WsEntry => e.kind === 'error' && !e.sessionId).map((e) => e.method);
      expect(errors).to.include.members(['Browser.setDownloadBehavior', 'Browser.grantPermissions', 'Page.enable']);
    } finally {
      await fresh.close();
      await recorder.close();
      await chromium.close();
    }
  });

  it('completes the same shop task over the bridge endpoint (/cdp/<token>), in the tabs it holds', async () => {
    const h = await startHarness();
    const fresh = await new ScriptedLlm('shop013').start();
    try {
      const { url } = mintCdpClient(h.configDir, { name: 'bu013', maxTabs: 2 });
      const cdpUrl = url(h.bridge.port);
      const shopUrl = fixtures.url('/shop/');
      const r = await runBu013ShopTask({ cdpUrl, llmBaseUrl: fresh.baseUrl, shopUrl });
      await expectShopTaskDone(r, shopUrl, fresh);
      // Its tabs stay open in the person's browser after it disconnected (browser_use closes none).
      const urls = (await h.launched.browser.pages()).map((p) => p.url());
      expect(urls).to.include.members([`${shopUrl}cart.html`, `${shopUrl}index.html`]);
    } finally {
      await fresh.close();
      await h.close();
    }
  });
});
