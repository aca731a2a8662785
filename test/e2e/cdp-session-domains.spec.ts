// A user's own CDPSession on a page must not take Playwright's events away: Chrome keeps domains per
// session, so `Network.disable`, `Runtime.disable`, `Page.disable`, `Log.disable` and a Fetch.enable /
// Fetch.disable of a second session leave page.on('request'), page.on('console') and page.route() of
// Playwright's own session working, and the second session's own Runtime.enable announces the page's
// contexts to it. The same Playwright case runs against Chromium's own --remote-debugging-port and
// against the bridge's endpoint (which shares one chrome.debugger session per tab: domain-state.ts),
// and both must give the same outcome.
import { expect } from 'chai';
import { chromium } from 'playwright-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { CDP_FIXTURE_DIR, launchPlainChromium, type PlainChromium } from '../harness/cdp-clients';
import { FixtureServer } from '../harness/fixture-server';
import { type Harness, startHarness } from '../harness/harness';

const STEP_TIMEOUT_MS = 15_000;

interface Outcome {
  /** Default contexts of the main frame the second session's Runtime.enable announced to it. */
  mainContextsOnEnable: number;
  /** What Playwright's own session still sees after the second session turned its domains off. */
  requestSeen: boolean;
  consoleText: string;
  routed: string;
  /** Events the second session got after its disables (Chrome sends it none). */
  eventsAfterDisable: string[];
}

/** Playwright's connectOverCDP, a second CDPSession that turns domains off, then what Playwright still sees. */
async function secondSessionCase(wsUrl: string, pageUrl: string): Promise<Outcome> {
  const browser = await chromium.connectOverCDP(wsUrl, { timeout: STEP_TIMEOUT_MS });
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('connectOverCDP gave no default browser context');
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page.route('**/domains-probe*', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'fulfilled by route' }));

    const s = await context.newCDPSession(page);
    const { frameTree } = await s.send('Page.getFrameTree');
    const contexts: { isDefault?: boolean; frameId?: string }[] = [];
    s.on('Runtime.executionContextCreated', (e) => contexts.push(e.context.auxData as { isDefault?: boolean; frameId?: string }));
    await s.send('Runtime.enable');
    const mainContextsOnEnable = contexts.filter((c) => c.isDefault === true && c.frameId === frameTree.frame.id).length;

    // The second session had Network and Fetch on for a moment; all of it off again.
    await s.send('Network.enable');
    await s.send('Fetch.enable', { patterns: [{ urlPattern: '*never-matches*' }] });
    for (const m of ['Network.disable', 'Runtime.disable', 'Page.disable', 'Log.disable', 'Fetch.disable'] as const) await s.send(m);
    const eventsAfterDisable: string[] = [];
    for (const e of ['Network.requestWillBeSent', 'Runtime.consoleAPICalled', 'Page.loadEventFired', 'Fetch.requestPaused'] as const)
      s.on(e, () => eventsAfterDisable.push(e));

    const request = page.waitForRequest((r) => r.url().includes('/cdp/late.html'));
    await page.evaluate(() => fetch('/cdp/late.html').then((r) => r.status));
    const requestSeen = (await request).url().includes('/cdp/late.html');
    const consoleMessage = page.waitForEvent('console', (m) => m.text().startsWith('domains-probe'));
    await page.evaluate(() => console.log('domains-probe console'));
    const consoleText = (await consoleMessage).text();
    const routed = await page.evaluate(() => fetch('/domains-probe?x=1').then((r) => r.text()));
    await s.detach();
    return { mainContextsOnEnable, requestSeen, consoleText, routed, eventsAfterDisable };
  } finally {
    await browser.close().catch(() => undefined);
  }
}

const EXPECTED: Outcome = {
  mainContextsOnEnable: 1,
  requestSeen: true,
  consoleText: 'domains-probe console',
  routed: 'fulfilled by route',
  eventsAfterDisable: [],
};

describe('a second CDP session turning domains off, side by side', function () {
  this.timeout(90_000);
  let fx: FixtureServer | undefined;
  let chrome: PlainChromium | undefined;
  let h: Harness | undefined;
  const outcomes: { chromium?: Outcome; bridge?: Outcome } = {};

  before(async () => {
    fx = await new FixtureServer(CDP_FIXTURE_DIR).start();
  });
  after(async () => {
    await chrome?.close();
    await h?.close();
    await fx?.close();
  });

  it("Chromium's own endpoint: Playwright keeps its request, console and route events; the session gets its contexts", async () => {
    chrome = await launchPlainChromium();
    outcomes.chromium = await secondSessionCase(chrome.endpoint.wsUrl, fx?.url('/cdp/form.html') ?? '');
    expect(outcomes.chromium).to.deep.equal(EXPECTED);
    await chrome.close();
    chrome = undefined;
  });

  it('the bridge endpoint: the same outcome over one shared chrome.debugger session', async () => {
    h = await startHarness();
    const { url } = mintCdpClient(h.configDir, { name: 'cdp-session-domains', maxTabs: 2 });
    const version = (await (await fetch(`${url(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    outcomes.bridge = await secondSessionCase(version.webSocketDebuggerUrl, fx?.url('/cdp/form.html') ?? '');
    expect(outcomes.bridge).to.deep.equal(outcomes.chromium ?? EXPECTED);
  });
});
