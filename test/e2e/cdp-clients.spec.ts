// Standard CDP clients, unchanged, against a CDP endpoint: Playwright connectOverCDP (HTTP base and
// ws URL), puppeteer connect (browserURL and browserWSEndpoint), chrome-devtools-mcp over the MCP SDK,
// and requests a hostile page or a client without the token would make. The first describe runs them
// against Chromium's own --remote-debugging-port (the reference: every case here passes there); the
// second runs the very same cases against the bridge's /cdp/<token> endpoint. Assertions are about
// what a user of those clients relies on: the click changed the page, the filled value reads back,
// the cross-origin frame's text is read, the screenshot is a PNG, the accessibility snapshot has the
// heading, and closing the client leaves the person's browser and tab open.
import { expect } from 'chai';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import {
  browserLevelMethods,
  browserStillUp,
  CDP_FIXTURE_DIR,
  type CdpEndpoint,
  type CdpFixtures,
  chromeDevtoolsMcpScenario,
  eventsBeforeAnswers,
  formatRecord,
  hostileProbes,
  launchPlainChromium,
  type PlainChromium,
  playwrightScenario,
  type ProbeResult,
  puppeteerScenario,
  type ScenarioRecord,
  startLoggingProxy,
  stepValue,
} from '../harness/cdp-clients';
import { FixtureServer } from '../harness/fixture-server';
import { type Harness, startHarness } from '../harness/harness';
import { RawCdp } from '../harness/raw-cdp';

interface CaseContext {
  endpoint: CdpEndpoint & { token?: string };
  fixtures: CdpFixtures;
  /**
   * URLs of the tabs really open in the browser, seen from outside the endpoint (the bridge's
   * /json/list shows only the client's leases, which may end when it disconnects). Without it the
   * endpoint's own /json/list, read right after the close, is used.
   */
  openPageUrls?: () => Promise<string[]>;
}

/** Runs assertions; on failure the message also shows every step of the scenario. */
function withRecord(rec: ScenarioRecord, check: () => void): void {
  try {
    check();
  } catch (err) {
    // A new Error, so the runner prints all of it: the failed expectation, then every step.
    const e = err as { message?: string; actual?: unknown; expected?: unknown; showDiff?: boolean };
    const diff = e.showDiff ? ` (expected ${JSON.stringify(e.expected)}, got ${JSON.stringify(e.actual)})` : '';
    throw new Error(`${e.message ?? String(err)}${diff}\n${formatRecord(rec)}`);
  }
}

interface FrameRead {
  url: string;
  crossOrigin: boolean;
  text: string | null;
  status: string | null;
}

/** The steps Playwright and puppeteer share, read the way a user reads them. */
function expectPageBehaviour(rec: ScenarioRecord, fixtures: CdpFixtures): void {
  stepValue(rec, 'connect');
  stepValue(rec, 'page');
  const goto = stepValue<{ status: number | null; title: string; url: string }>(rec, 'goto');
  expect(goto.status, 'goto answers the fixture page').to.equal(200);
  expect(goto.title).to.equal('CDP client fixture');
  expect(stepValue(rec, 'click'), 'the click ran the page handler').to.equal('clicked');
  expect(stepValue(rec, 'fill'), 'the filled value reads back').to.equal('Ada Lovelace');
  expect(stepValue(rec, 'press'), 'Enter reached the key handler with the filled value').to.equal('Enter pressed: Ada Lovelace');
  expect(stepValue(rec, 'evaluate')).to.deep.equal({ title: 'CDP client fixture', sum: 3, href: fixtures.formUrl });
  expect(stepValue(rec, 'waitForSelector'), 'waited for an element that was not there yet').to.deep.equal({
    absentBefore: true,
    text: 'arrived late',
  });
  const same = stepValue<FrameRead>(rec, 'same-origin frame');
  expect(same.crossOrigin).to.equal(false);
  expect(same.text).to.equal('frame from 127.0.0.1');
  expect(same.status, 'a click inside the same-origin frame').to.equal('frame clicked');
  const cross = stepValue<FrameRead>(rec, 'cross-origin frame');
  expect(cross.crossOrigin, `the frame at ${cross.url} is on another origin`).to.equal(true);
  expect(cross.text, 'text read from the out-of-process frame').to.equal('frame from localhost');
  expect(cross.status, 'a click inside the cross-origin frame').to.equal('frame clicked');
  const second = stepValue<{ title: string; text: string; pages: number }>(rec, 'new page');
  expect(second.title).to.equal('CDP late fixture');
  expect(second.text, 'waited for content that appears after load').to.equal('Loaded later');
  const shot = stepValue<{ bytes: number; png: boolean }>(rec, 'screenshot');
  expect(shot.png, 'the screenshot is a PNG').to.equal(true);
  expect(shot.bytes).to.be.greaterThan(1000);
  const closed = stepValue<{ closed: boolean; pages: number }>(rec, 'page close');
  expect(closed.closed).to.equal(true);
  expect(closed.pages, 'one page fewer after closing the new one').to.equal(second.pages - 1);
}

/** After close/disconnect the browser answers and the person's tab is still open. */
async function expectBrowserLeftOpen(rec: ScenarioRecord, step: string, ctx: CaseContext): Promise<void> {
  const after = stepValue<{ alive: boolean; pageUrls: string[] }>(rec, step);
  const open = ctx.openPageUrls ? await ctx.openPageUrls() : after.pageUrls;
  withRecord(rec, () => {
    expect(after.alive, `the browser still answers after ${step}`).to.equal(true);
    expect(open, `the tab the client used is still open after ${step}`).to.include(ctx.fixtures.formUrl);
  });
}

interface AxNode {
  role: string;
  name?: string;
  children?: AxNode[];
}

function findAx(node: AxNode | null | undefined, role: string, name: string): boolean {
  if (!node) return false;
  if (node.role === role && node.name === name) return true;
  return (node.children ?? []).some((c) => findAx(c, role, name));
}

/** Section 2 of docs/CDP-CLIENTS-PW-PPTR.md: every browser-level method each client was seen to send. */
const DOCUMENTED_BROWSER_LEVEL: Record<ScenarioRecord['client'], string[]> = {
  playwright: [
    'Browser.getVersion',
    'Target.setAutoAttach',
    'Browser.setDownloadBehavior',
    'Target.getTargetInfo',
    'Target.detachFromTarget',
    'Target.createTarget',
    'Target.closeTarget',
  ],
  puppeteer: [
    'Target.getBrowserContexts',
    'Target.setDiscoverTargets',
    'Target.setAutoAttach',
    'Target.createTarget',
    'Target.closeTarget',
  ],
  'chrome-devtools-mcp': [
    'Target.getBrowserContexts',
    'Target.setDiscoverTargets',
    'Target.setAutoAttach',
    'Target.detachFromTarget',
    'Target.attachToTarget',
    'Target.getDevToolsTarget',
    'Target.getTargets',
  ],
};

/** How the hostile probes must be answered: by Chromium itself, or by the bridge (stricter). */
type ProbeExpectations = Record<string, (status: ProbeResult['status']) => boolean>;

const CHROMIUM_PROBES: ProbeExpectations = {
  'http baseline': (s) => s === 200,
  // Chromium checks Host (DNS rebinding) on HTTP, and Origin and Host on the WebSocket upgrade.
  'http foreign Host': (s) => s !== 200,
  'ws baseline': (s) => s === 101,
  'ws Origin header': (s) => s === 403,
  'ws foreign Host': (s) => s !== 101,
};

const BRIDGE_PROBES: ProbeExpectations = {
  'http baseline': (s) => s === 200,
  'http no token': (s) => s === 404,
  'http wrong token': (s) => s === 404,
  'http Origin header': (s) => s === 403,
  'http foreign Host': (s) => s === 403,
  'ws baseline': (s) => s === 101,
  'ws no token': (s) => s === 403,
  'ws wrong token': (s) => s === 403,
  'ws Origin header': (s) => s === 403,
  'ws foreign Host': (s) => s === 403,
};

/** The same cases for any endpoint; `ctx()` is read when each case runs (after the before hook). */
/**
 * Whether puppeteer's browserURL can work: puppeteer builds `new URL('/json/version', browserURL)`, an
 * absolute path that drops the bridge's /cdp/<token> prefix, so through the bridge it cannot (the
 * README and `cdp-url` give puppeteer the ws URL instead).
 */
type PuppeteerBrowserUrl = 'works' | 'drops the token path';

function cdpClientCases(ctx: () => CaseContext, probes: ProbeExpectations, browserUrl: PuppeteerBrowserUrl = 'works'): void {
  for (const via of ['http', 'ws'] as const) {
    it(`Playwright connectOverCDP (${via === 'http' ? 'HTTP base' : 'ws URL'}): page actions, frames, new page, screenshot, aria snapshot, close keeps the browser`, async () => {
      const { endpoint, fixtures } = ctx();
      const rec = await playwrightScenario(endpoint, fixtures, via);
      withRecord(rec, () => {
        expectPageBehaviour(rec, fixtures);
        const aria = stepValue<string>(rec, 'ariaSnapshot');
        expect(aria).to.include('- heading "CDP client fixture" [level=1]');
        expect(aria).to.include('- textbox "Name": Ada Lovelace');
      });
      await expectBrowserLeftOpen(rec, 'browser close', ctx());
    });
  }

  if (browserUrl === 'drops the token path') {
    it('puppeteer connect (browserURL) cannot reach a URL with a path; it fails at once, naming the missing /json/version', async () => {
      const { endpoint, fixtures } = ctx();
      const rec = await puppeteerScenario(endpoint, fixtures, 'http');
      const connect = rec.steps.find((s) => s.step === 'connect');
      expect(connect?.ok, 'connect through browserURL').to.equal(false);
      expect(String(connect?.error)).to.match(/json\/version: HTTP Not Found/);
    });
  }
  for (const via of browserUrl === 'works' ? (['http', 'ws'] as const) : (['ws'] as const)) {
    it(`puppeteer connect (${via === 'http' ? 'browserURL' : 'browserWSEndpoint'}): page actions, frames, new page, screenshot, accessibility snapshot, disconnect keeps the browser`, async () => {
      const { endpoint, fixtures } = ctx();
      const rec = await puppeteerScenario(endpoint, fixtures, via);
      withRecord(rec, () => {
        expectPageBehaviour(rec, fixtures);
        const ax = stepValue<AxNode | null>(rec, 'accessibility snapshot');
        expect(findAx(ax, 'heading', 'CDP client fixture'), 'the heading is in the accessibility snapshot').to.equal(true);
        expect(findAx(ax, 'textbox', 'Name'), 'the textbox is in the accessibility snapshot').to.equal(true);
      });
      await expectBrowserLeftOpen(rec, 'disconnect', ctx());
    });
  }

  for (const via of ['http', 'ws'] as const) {
    it(`chrome-devtools-mcp (${via === 'http' ? '--browserUrl' : '--wsEndpoint'}): list_pages, navigate_page and take_snapshot, frames included`, async () => {
      const { endpoint, fixtures } = ctx();
      const rec = await chromeDevtoolsMcpScenario(endpoint, fixtures, via);
      withRecord(rec, () => {
        expect(stepValue<string[]>(rec, 'tools')).to.include.members(['list_pages', 'take_snapshot', 'navigate_page']);
        expect(stepValue<{ text: string }>(rec, 'list_pages').text, 'list_pages lists the open page as page 1').to.match(/^1: /m);
        expect(stepValue<{ text: string }>(rec, 'navigate_page').text).to.include(fixtures.formUrl);
        const snapshot = stepValue<{ text: string }>(rec, 'take_snapshot').text;
        expect(snapshot).to.include('heading "CDP client fixture"');
        expect(snapshot).to.include('textbox "Name"');
        expect(snapshot, 'the snapshot descends into the same-origin frame').to.include('"frame from 127.0.0.1"');
        expect(snapshot, 'the snapshot descends into the cross-origin frame').to.include('"frame from localhost"');
        expect(snapshot, 'our bar in the snapshot (never on Chromium)').to.not.match(/Stop the agent|Agent is controlling/);
      });
      await expectBrowserLeftOpen(rec, 'close', ctx());
    });
  }

  it('the browser-level CDP each client sends stays within docs/CDP-CLIENTS-PW-PPTR.md, and Playwright gets its new page attached before createTarget answers', async () => {
    const { endpoint, fixtures } = ctx();
    if (!endpoint.httpBase || !endpoint.wsUrl) throw new Error('this case needs both the HTTP base and the ws URL');
    const proxy = await startLoggingProxy({ httpBase: endpoint.httpBase, wsUrl: endpoint.wsUrl });
    try {
      const runs = [
        {
          rec: () => playwrightScenario(proxy.endpoint, fixtures, 'http'),
          core: ['Browser.getVersion', 'Target.setAutoAttach', 'Target.createTarget'],
        },
        {
          rec: () => puppeteerScenario(proxy.endpoint, fixtures, 'http'),
          core: ['Target.getBrowserContexts', 'Target.setDiscoverTargets', 'Target.setAutoAttach'],
        },
        { rec: () => chromeDevtoolsMcpScenario(proxy.endpoint, fixtures, 'http'), core: ['Target.setAutoAttach', 'Target.attachToTarget'] },
      ];
      for (const run of runs) {
        const from = proxy.log.length;
        const rec = await run.rec();
        const log = proxy.log.slice(from);
        withRecord(rec, () => {
          const methods = browserLevelMethods(log);
          const undocumented = methods.filter((m) => !DOCUMENTED_BROWSER_LEVEL[rec.client].includes(m));
          expect(
            undocumented,
            `${rec.client} sent browser-level methods the doc (and so the emulation) does not cover; update both`,
          ).to.deep.equal([]);
          expect(methods).to.include.members(run.core);
          if (rec.client === 'playwright') {
            const order = eventsBeforeAnswers(log, 'Target.createTarget', 'Target.attachedToTarget');
            expect(order, 'Target.attachedToTarget for each created page arrived before the createTarget answer').to.not.include(false);
            expect(order).to.not.be.empty;
          }
        });
      }
    } finally {
      await proxy.close();
    }
  });

  it("a page's WebSocket from /json/list answers Runtime.evaluate and sends Page.loadEventFired after Page.navigate; closing the page detaches it", async () => {
    const { endpoint, fixtures } = ctx();
    if (!endpoint.httpBase || !endpoint.wsUrl) throw new Error('this case needs both the HTTP base and the ws URL');
    const browser = await RawCdp.open(endpoint.wsUrl);
    try {
      const created = await browser.send('Target.createTarget', { url: fixtures.formUrl });
      const targetId = String(created.result?.['targetId']);
      const list = (await (await fetch(`${endpoint.httpBase}/json/list`)).json()) as {
        id: string;
        type: string;
        webSocketDebuggerUrl: string;
      }[];
      const entry = list.find((t) => t.id === targetId);
      expect(entry, `/json/list lists the new page: ${JSON.stringify(list)}`).to.include({ type: 'page' });
      const page = await RawCdp.open(entry?.webSocketDebuggerUrl ?? '');
      const sum = await page.send('Runtime.evaluate', { expression: '1 + 2', returnByValue: true });
      expect(sum.result?.['result'], JSON.stringify(sum)).to.deep.include({ type: 'number', value: 3 });
      expect((await page.send('Page.enable')).error).to.equal(undefined);
      const from = page.messages.length;
      const nav = await page.send('Page.navigate', { url: fixtures.lateUrl });
      expect(nav.result?.['frameId'], JSON.stringify(nav)).to.be.a('string');
      // The load that counts follows the late page's commit: the first page's own load may still be on its way.
      const committed = await page.next(
        (m) => m.method === 'Page.frameNavigated' && (m.params?.['frame'] as { url?: string } | undefined)?.url === fixtures.lateUrl,
        'Page.frameNavigated to the late page',
        from,
      );
      await page.next((m) => m.method === 'Page.loadEventFired', 'Page.loadEventFired', page.messages.indexOf(committed) + 1);
      const title = await page.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });
      expect(title.result?.['result']).to.deep.include({ value: 'CDP late fixture' });
      expect(
        page.messages.every((m) => m.sessionId === undefined),
        'the page socket speaks without sessionId',
      ).to.equal(true);
      // The page closes: its socket is told (Inspector.detached) and closed, as Chrome does.
      await browser.send('Target.closeTarget', { targetId });
      await page.next((m) => m.method === 'Inspector.detached', 'Inspector.detached');
      await page.closed;
    } finally {
      browser.close();
    }
  });

  it('requests a hostile page or a client without the token would make are refused', async () => {
    const results = await hostileProbes(ctx().endpoint);
    const got = Object.fromEntries(results.map((r) => [r.probe, r.status]));
    for (const [probe, ok] of Object.entries(probes)) {
      expect(ok(got[probe] ?? null), `${probe}: answered ${got[probe]}; all answers: ${JSON.stringify(got)}`).to.equal(true);
    }
  });
}

describe("CDP clients against Chromium's own --remote-debugging-port", function () {
  this.timeout(60_000);
  let chrome: PlainChromium | undefined;
  let fx: FixtureServer | undefined;
  let context: CaseContext | undefined;

  before(async () => {
    fx = await new FixtureServer(CDP_FIXTURE_DIR).start();
    chrome = await launchPlainChromium();
    context = { endpoint: chrome.endpoint, fixtures: { formUrl: fx.url('/cdp/form.html'), lateUrl: fx.url('/cdp/late.html') } };
  });
  after(async () => {
    await chrome?.close();
    await fx?.close();
  });

  cdpClientCases(() => {
    if (!context) throw new Error('the before hook did not start Chromium and the fixture server');
    return context;
  }, CHROMIUM_PROBES);

  it('Chromium itself is still running after every client closed or disconnected', async () => {
    expect(chrome?.process.exitCode, 'the browser process did not exit').to.equal(null);
    expect((await browserStillUp(chrome?.endpoint ?? {})).alive, 'the browser still answers /json/version').to.equal(true);
  });
});

describe('over the bridge CDP endpoint', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  /** The endpoint's very first /json/version answer, before any client asked the browser anything. */
  let firstVersion: Record<string, string> = {};
  let fx: FixtureServer | undefined;
  let context: CaseContext | undefined;

  before(async function () {
    fx = await new FixtureServer(CDP_FIXTURE_DIR).start();
    const fixtures = { formUrl: fx.url('/cdp/form.html'), lateUrl: fx.url('/cdp/late.html') };
    h = await startHarness();
    const { token, url } = mintCdpClient(h.configDir, { name: 'cdp-clients-test', maxTabs: 3 });
    const httpBase = url(h.bridge.port);
    const version = (await (await fetch(`${httpBase}/json/version`)).json()) as Record<string, string> & { webSocketDebuggerUrl: string };
    firstVersion = version;
    const launched = h.launched;
    const openPageUrls = async () => (await launched.browser.pages()).map((p) => p.url());
    context = { endpoint: { httpBase, wsUrl: version.webSocketDebuggerUrl, token }, fixtures, openPageUrls };
  });
  after(async () => {
    await h?.close();
    await fx?.close();
  });

  it("/json/version names the person's browser from the first request, as Chrome's own does (Browser, User-Agent)", async () => {
    const browser = h!.launched.browser;
    expect(firstVersion['Browser'], 'the product and full version Browser.getVersion gives').to.equal(await browser.version());
    expect(firstVersion['User-Agent']).to.equal(await browser.userAgent());
    expect(firstVersion['Protocol-Version']).to.equal('1.3');
    // Browser.getVersion over the WebSocket says the same, tab or no tab.
    const raw = await RawCdp.open(context?.endpoint.wsUrl ?? '');
    try {
      expect((await raw.send('Browser.getVersion')).result).to.deep.include({
        product: firstVersion['Browser'],
        userAgent: firstVersion['User-Agent'],
      });
    } finally {
      raw.close();
    }
    expect(Object.keys(firstVersion)).to.have.members([
      'Browser',
      'Protocol-Version',
      'User-Agent',
      'V8-Version',
      'WebKit-Version',
      'webSocketDebuggerUrl',
    ]);
  });

  cdpClientCases(
    () => {
      if (!context) throw new Error('the before hook did not set up the bridge CDP endpoint');
      return context;
    },
    BRIDGE_PROBES,
    'drops the token path',
  );
});
