// The extension says which browser it is, in real Chromium with the built extension, against a stand-in
// bridge (harness/fake-bridge.ts) so that what is checked is what the extension sends and shows, not how
// one bridge version decides: its hello carries a stable browser id (the same after its worker was
// stopped) and its brand, and the name the bridge answered; a window getting focus is reported; the
// panel's pairing form names the browser; the panel header names it and one line names the other
// connected browsers; a rename in Settings goes to the bridge, and a refusal is shown in the bridge's
// words. With BUX_DOC_IMAGES=1 it also writes the README's screenshot docs/img/panel-two-browsers.png.
import path from 'node:path';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { EXTENSION_ID } from '../../bridge/common/extension-id';
import type { AgentSessionsMessage, BrowserInfo, HelloMessage } from '../../schemas/generated/protocol';
import { type LaunchedBrowser, launchWithExtension, REPO_ROOT } from '../harness/browser';
import { FakeBridge } from '../harness/fake-bridge';
import { openPanel } from '../harness/panel';

const SECRET = 'fake-bridge-pairing-secret-0123456789';
const ID_RE = /^[A-Za-z0-9_-]{8,64}$/;
const OPTIONS_URL = `chrome-extension://${EXTENSION_ID}/options.html`;

const text = (page: Page, sel: string) => page.$eval(sel, (e) => ((e as HTMLElement).hidden ? null : (e as HTMLElement).innerText));
const waitText = (page: Page, sel: string, want: string | null) =>
  page
    .waitForFunction(
      (s, w) => {
        const e = document.querySelector(s) as HTMLElement | null;
        return !!e && (w === null ? e.hidden : !e.hidden && e.innerText.includes(w));
      },
      { timeout: 15_000 },
      sel,
      want,
    )
    .catch(async (e: unknown) => {
      throw new Error(`${sel}: wanted ${JSON.stringify(want)}, shows ${JSON.stringify(await text(page, sel))} (${String(e)})`);
    });

async function retype(page: Page, selector: string, value: string): Promise<void> {
  await page.click(selector, { clickCount: 3 });
  await page.keyboard.press('Backspace');
  await page.type(selector, value);
}

/** Stops the extension's service worker as Chrome does when it idles it out. */
async function stopWorker(launched: LaunchedBrowser): Promise<void> {
  const target = await launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), {
    timeout: 10_000,
  });
  await (await target.worker())?.close();
}

const other = (browser_id: string, name: string, agents: number, connected = true): BrowserInfo => ({
  browser_id,
  name,
  brand: name === 'Edge' ? 'Microsoft Edge' : 'Google Chrome',
  connected,
  agents,
  held_tabs: agents,
});

describe('e2e: the extension says which browser it is', function () {
  this.timeout(120_000);
  let fake: FakeBridge;
  let launched: LaunchedBrowser;
  let panel: Page;
  let first: HelloMessage;
  /** This browser as the stand-in bridge answers it: the name it was sent, or "Chromium 2" (another "Chromium" has the name). */
  const self = (hello: HelloMessage): BrowserInfo => ({
    browser_id: hello.browser_id ?? 'missing-id',
    name: hello.browser_name ?? 'Chromium 2',
    brand: hello.browser?.brand ?? 'Chromium',
    connected: true,
  });
  let selfNow: BrowserInfo;

  before(async function () {
    this.timeout(60_000);
    fake = await new FakeBridge(SECRET).start();
    fake.answerBrowser = (hello) => (selfNow = self(hello));
    const hello = fake.next('hello');
    launched = await launchWithExtension({ extensionBridgeUrl: fake.url, extensionConfig: { extension_secret: SECRET } });
    first = await hello;
  });
  after(async () => {
    await launched?.close();
    await fake?.close();
  });

  it('hello: a stable browser id, the brand, no name of its own at first; the name answered is kept and sent after a worker restart', async () => {
    expect(first.browser_id).to.match(ID_RE);
    expect(first.browser?.brand, 'headless Chromium').to.equal('Chromium');
    expect(first).to.not.have.property('browser_name');
    // The panel's window getting focus (or the connect itself) is reported with a time.
    const focused = fake.next('browser_update', (m) => typeof m.focused_at === 'number');
    const before = Date.now();
    panel = await openPanel(launched.browser, { width: 360, height: 760 });
    const f = await focused;
    expect(f.focused_at).to.be.within(before - 30_000, Date.now() + 1000);
    // The header names this browser as the bridge answered (stored from hello_ack, before any agent list).
    await waitText(panel, '#browser-name', 'Chromium 2');
    expect(await text(panel, '#other-browsers')).to.equal(null);

    const again = fake.next('hello');
    await stopWorker(launched);
    const second = await again;
    expect(second.browser_id, 'the same id after the worker restarted').to.equal(first.browser_id);
    expect(second.browser_name).to.equal('Chromium 2');
  });

  it('pairing from the panel names the browser: the name goes with the next hello', async () => {
    fake.pairingCode = 'K7F2-9QXM';
    await panel.click('#show-pair');
    await panel.waitForSelector('#pair:not([hidden])');
    expect(await panel.$eval('#pair-name', (e) => (e as HTMLInputElement).value), 'pre-filled with its name').to.equal('Chromium 2');
    expect(await panel.$eval('#pair-url', (e) => (e as HTMLInputElement).value)).to.equal(fake.url);
    await retype(panel, '#pair-name', 'Work');
    await panel.type('#pair-code', 'K7F2-9QXM');
    const hello = fake.next('hello');
    await panel.click('#pair-button');
    const h = await hello;
    expect(h.browser_id).to.equal(first.browser_id);
    expect(h.browser_name).to.equal('Work');
    await waitText(panel, '#browser-name', 'Work');
  });

  it('the panel names the other connected browsers with their agents, and hides the line when there are none', async () => {
    const sessions: AgentSessionsMessage = {
      type: 'agent_sessions',
      sessions: [
        {
          session_id: 'agent-1',
          client: { name: 'browser-use', version: '0.1.48', model: 'gpt-4o' },
          capabilities: ['accepts_tasks'],
          connected: true,
          release_in_ms: null,
          tabs: [],
          task_ids: [],
          max_tabs: 10,
        },
      ],
      total: 1,
      browser: { ...selfNow, agents: 1 },
      other_browsers: [
        other('personal-0001', 'Personal', 2),
        other('edge-0000001', 'Edge', 0),
        other('old-00000001', 'Old laptop', 1, false),
      ],
    };
    fake.send(sessions);
    await waitText(panel, '#other-browsers', 'Also connected: Personal · 2 agents, Edge');
    expect(await text(panel, '#other-browsers'), 'a browser not connected is not named').to.not.contain('Old laptop');
    expect(await text(panel, '#browser-name')).to.equal('Work');
    await panel.waitForFunction(() => document.querySelectorAll('#agent-list .agent-name').length === 1, { timeout: 10_000 });
    if (process.env['BUX_DOC_IMAGES'] === '1')
      await panel.screenshot({ path: path.join(REPO_ROOT, 'docs', 'img', 'panel-two-browsers.png') as `${string}.png` });
    fake.send({ ...sessions, other_browsers: [] });
    await waitText(panel, '#other-browsers', null);
  });

  it('a rename in Settings goes to the bridge; a name it refuses is explained next to the field and not kept', async () => {
    const page = await launched.browser.newPage();
    await page.goto(OPTIONS_URL);
    await page.waitForFunction(() => (document.getElementById('browser-name') as HTMLInputElement).value === 'Work', { timeout: 10_000 });
    await retype(page, '#browser-name', 'Laptop');
    let update = fake.next('browser_update', (m) => m.name !== undefined);
    await page.click('#save');
    expect(await update).to.deep.equal({ type: 'browser_update', name: 'Laptop' });
    selfNow = { ...selfNow, name: 'Laptop' };
    fake.send({ type: 'agent_sessions', sessions: [], browser: selfNow, other_browsers: [] });
    await page.waitForFunction(() => document.getElementById('saved')?.textContent === 'Saved.', { timeout: 10_000 });
    await waitText(panel, '#browser-name', 'Laptop');

    await retype(page, '#browser-name', 'Personal');
    update = fake.next('browser_update', (m) => m.name !== undefined);
    await page.click('#save');
    expect((await update).name).to.equal('Personal');
    const refusal = 'Another browser on this bridge is named "Personal". Choose another name for this one.';
    fake.send({ type: 'error', error_info: { error_code: 'NOT_PERMITTED', message: refusal, component_origin: 'bridge' } });
    await waitText(page, '#browser-name-error', refusal);
    expect(await page.$eval('#browser-name', (e) => e.getAttribute('aria-invalid'))).to.equal('true');
    expect(await page.$eval('#saved', (e) => e.textContent)).to.match(/name is not/);
    const stored = await page.evaluate(() => chrome.storage.local.get('browser_name'));
    expect(stored).to.deep.equal({ browser_name: 'Laptop' });
    expect(await text(panel, '#browser-name')).to.equal('Laptop');
    await page.close();
  });
});
