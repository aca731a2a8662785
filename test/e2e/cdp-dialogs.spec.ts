// Dialogs in a CDP client's tab are the client's to answer, as on Chrome's own endpoint: Playwright's
// page.on('dialog') sees alert/confirm/prompt (from an evaluate, from the page's first inline script
// and from an onload handler right after goto) and its accept/dismiss is what the page gets; with no
// listener Playwright dismisses. The same Playwright case runs against Chromium's own
// --remote-debugging-port and the bridge's endpoint, and both must give the same outcome. Ours only:
// once the client is gone and the tab released, the person's dialog policy answers again.
import { expect } from 'chai';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { launchPlainChromium, type PlainChromium } from '../harness/cdp-clients';
import { FixtureServer } from '../harness/fixture-server';
import { type Harness, startHarness } from '../harness/harness';
import { until } from '../harness/until';

const STEP_TIMEOUT_MS = 15_000;

/**
 * The page's first script, a frame of another site (its own process) and the page's onload handler
 * each ask; what they got is left in the page. frameUrl: the frame's page, FRAME_PAGE.
 */
const dialogPage = (frameUrl: string) =>
  '<script>document.title = "head:" + confirm("from the first script");' +
  'addEventListener("message", (e) => { document.getElementById("p").dataset.frame = e.data });' +
  'addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = "" })</script>' +
  `<p id="p">dialogs</p><iframe src="${frameUrl}"></iframe>` +
  '<script>onload = () => { document.getElementById("p").dataset.onload = String(confirm("from onload")) }</script>';
const FRAME_PAGE = '<script>parent.postMessage(String(confirm("from a frame")), "*")</script>';

/** The fixture pages; the frame is served from "localhost", another site than the page's 127.0.0.1. */
function servePages(fx: FixtureServer): { dialogs: string; start: string } {
  const frame = fx.html('/dialog-frame', FRAME_PAGE).replace('//127.0.0.1:', '//localhost:');
  return { dialogs: fx.html('/dialogs', dialogPage(frame)), start: fx.html('/start', '<p>the person was here</p>', 'Start') };
}

interface Outcome {
  /** What the client's dialog handler saw: `${type}:${message}`. */
  seen: string[];
  prompted: string | null;
  confirmed: boolean;
  /** The first script's, the frame's and the onload handler's confirm() after goto, the handler dismissing. */
  headTitle: string;
  frame: string | undefined;
  onload: string | undefined;
  /** confirm() with no dialog listener (Playwright dismisses). */
  unheard: boolean;
  /** Leaving the dialog page after a click (the page asks in beforeunload; the handler accepts). */
  left: boolean;
}

/** Playwright's connectOverCDP answering the page's dialogs. held: take the tab at start.url (else any page). */
async function dialogCase(
  wsUrl: string,
  urls: { dialogs: string; start: string },
  held = false,
): Promise<{ outcome: Outcome; docTime: number }> {
  const browser = await chromium.connectOverCDP(wsUrl, { timeout: STEP_TIMEOUT_MS });
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('connectOverCDP gave no default browser context');
    const page = context.pages().find((p) => !held || p.url() === urls.start) ?? (await context.newPage());
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const seen: string[] = [];

    page.on('dialog', (d) => {
      seen.push(`${d.type()}:${d.message()}`);
      void (d.type() === 'prompt' ? d.accept('x') : d.type() === 'alert' ? d.accept() : d.dismiss());
    });
    const prompted = await page.evaluate(() => prompt('q', 'default'));
    const confirmed = await page.evaluate(() => confirm('sure?'));
    await page.evaluate(() => alert('hello'));
    await page.goto(urls.dialogs, { waitUntil: 'load' });
    const headTitle = await page.title();
    const onload = await page.locator('#p').getAttribute('data-onload');
    const frame = await page.locator('#p').getAttribute('data-frame');

    page.removeAllListeners('dialog');
    const unheard = await page.evaluate(() => confirm('nobody listens'));

    page.on('dialog', (d) => {
      seen.push(`${d.type()}:${d.message()}`);
      void d.accept();
    });
    await page.click('#p'); // Chrome asks beforeunload only of a page the user interacted with
    await page.goto(urls.start, { waitUntil: 'load' });
    const left = page.url() === urls.start;
    const docTime = await page.evaluate(() => performance.timeOrigin);
    return {
      outcome: { seen, prompted, confirmed, headTitle, frame: frame ?? undefined, onload: onload ?? undefined, unheard, left },
      docTime,
    };
  } finally {
    await browser.close().catch(() => undefined);
  }
}

const EXPECTED: Outcome = {
  seen: [
    'prompt:q',
    'confirm:sure?',
    'alert:hello',
    'confirm:from the first script',
    'confirm:from a frame',
    'confirm:from onload',
    'beforeunload:',
  ],
  prompted: 'x',
  confirmed: false,
  headTitle: 'head:false',
  frame: 'false',
  onload: 'false',
  unheard: false,
  left: true,
};

/** puppeteer's page.on('dialog') on a page of its own: what prompt() got and what the handler saw. */
async function puppeteerCase(wsUrl: string): Promise<{ prompted: string | null; seen: string[] }> {
  const browser = await puppeteer.connect({ browserWSEndpoint: wsUrl, defaultViewport: null });
  try {
    const page = await browser.newPage();
    const seen: string[] = [];
    page.on('dialog', (d) => {
      seen.push(`${d.type()}:${d.message()}`);
      void d.accept('p');
    });
    const prompted = await page.evaluate(() => prompt('from puppeteer'));
    await page.close();
    return { prompted, seen };
  } finally {
    await browser.disconnect().catch(() => undefined);
  }
}
const PUPPETEER_EXPECTED = { prompted: 'p', seen: ['prompt:from puppeteer'] };

describe("dialogs in a CDP client's tab, side by side", function () {
  this.timeout(90_000);
  let fx: FixtureServer | undefined;
  let chrome: PlainChromium | undefined;
  let h: Harness | undefined;
  const outcomes: { chromium?: Outcome; bridge?: Outcome } = {};

  before(async () => {
    fx = await new FixtureServer().start();
  });
  after(async () => {
    await chrome?.close();
    await h?.close();
    await fx?.close();
  });

  it("Chromium's own endpoint: the client sees and answers every dialog, and dismisses when nobody listens", async () => {
    chrome = await launchPlainChromium();
    if (!fx) throw new Error('no fixture server');
    outcomes.chromium = (await dialogCase(chrome.endpoint.wsUrl, servePages(fx))).outcome;
    expect(outcomes.chromium).to.deep.equal(EXPECTED);
    expect(await puppeteerCase(chrome.endpoint.wsUrl)).to.deep.equal(PUPPETEER_EXPECTED);
    await chrome.close();
    chrome = undefined;
  });

  it("the bridge endpoint: the same, then the person's policy answers again once the tab is released", async () => {
    h = await startHarness();
    const urls = servePages(h.fixtures);
    const person = await h.openPage(urls.start);
    const { url } = mintCdpClient(h.configDir, { name: 'cdp-dialogs', maxTabs: 2 });
    const version = (await (await fetch(`${url(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const { outcome, docTime } = await dialogCase(version.webSocketDebuggerUrl, urls, true);
    outcomes.bridge = outcome;
    expect(outcomes.bridge).to.deep.equal(outcomes.chromium ?? EXPECTED);

    // The harness's own puppeteer session on the tab hears a native dialog too: from now on it answers
    // "no", so a dialog still native after the release shows as false instead of a hang.
    person.on('dialog', (d) => void d.dismiss());
    // The client ran script, so its end reloads the tab once the debugger left it (client-script-marks.ts).
    await until('the tab reloaded after the client left', 15_000, async () => {
      const now = await person.evaluate(() => performance.timeOrigin).catch(() => docTime);
      return now !== docTime && (await person.evaluate(() => document.readyState === 'complete').catch(() => false));
    });
    expect(await person.evaluate(() => [confirm('again?'), prompt('name?', 'd')]), 'the open document').to.deep.equal([true, 'd']);
    await person.goto(urls.dialogs, { waitUntil: 'load' });
    const answered = await person.evaluate(() => [document.title, document.getElementById('p')?.dataset['onload']]);
    expect(answered, 'a new document, by the default policy (accept)').to.deep.equal(['head:true', 'true']);

    expect(await puppeteerCase(version.webSocketDebuggerUrl)).to.deep.equal(PUPPETEER_EXPECTED);
  });
});
