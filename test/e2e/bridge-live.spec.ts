// The bridge's guarantees in the real browser: a web page cannot reach the bridge (cross-site
// WebSocket hijacking, peers.md section 3), and when Chrome stops the extension's service worker
// the extension reconnects and an agent's session continues on the same tab id.
import { expect } from 'chai';

import { EXTENSION_ID } from '../../bridge/common/extension-id';
import type { ExtensionStatusMessage } from '../../schemas/generated/protocol';
import { FixtureServer } from '../harness/fixture-server';
import { type Harness, startHarness } from '../harness/harness';

describe('e2e: bridge security and restarts in the real browser', function () {
  let h: Harness;
  let other: FixtureServer;
  before(async function () {
    this.timeout(60_000);
    h = await startHarness();
    // A second local origin (another port): a web page the person happens to have open.
    other = await new FixtureServer().start(0);
  });
  after(async () => {
    await other?.close();
    await h?.close();
  });

  it("refuses a web page's WebSocket to /agent and /extension before any message", async () => {
    const page = await h.openPage(other.html('/evil', '<p>just a page</p>', 'Evil'));
    // A string, so the page runs exactly this code (no bundler helpers).
    const script = `(async () => {
      const base = ${JSON.stringify(h.bridge.url)};
      const tryOne = (path) => new Promise((resolve) => {
        const ws = new WebSocket(base + path);
        let opened = false;
        let messages = 0;
        ws.onopen = () => {
          opened = true;
          ws.send(JSON.stringify({ type: 'hello', role: path.slice(1), protocol_version: 1, client: { name: 'evil', version: '1' }, capabilities: [], client_nonce: 'q83vEjRWeJq83vEjRWeJqw==' }));
        };
        ws.onmessage = () => { messages += 1; };
        ws.onclose = (ev) => resolve({ opened, messages, code: ev.code });
      });
      return { agent: await tryOne('/agent'), extension: await tryOne('/extension') };
    })()`;
    const outcome = await page.evaluate(script);
    // 1006: the upgrade was answered 403, so the browser never got a WebSocket.
    expect(outcome).to.deep.equal({
      agent: { opened: false, messages: 0, code: 1006 },
      extension: { opened: false, messages: 0, code: 1006 },
    });
    expect((h.bridge.status()['sessions'] as unknown[]).length).to.equal(0);
    await page.close();
  });

  it('reconnects after the service worker is stopped; the session keeps its tab id', async function () {
    this.timeout(60_000);
    const page = await h.openPage(h.fixtures.html('/sw', '<button>Keep me</button>', 'SW restart'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    expect(first.status, JSON.stringify(first.error_info)).to.equal('success');
    const tabId = first.tab_id as number;
    const statuses: ExtensionStatusMessage[] = [];
    agent.on('extension_status', (m: ExtensionStatusMessage) => statuses.push(m));
    const down = new Promise((resolve) => h.bridge.once('extension-disconnected', resolve));
    const up = new Promise((resolve) => h.bridge.once('extension-connected', resolve));
    // Stop every service worker of the browser, the way Chrome does when it idles one out.
    const cdp = await h.launched.browser.target().createCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${EXTENSION_ID}/`));
    expect(worker, 'the extension service worker target').to.not.equal(undefined);
    await cdp.send('Target.closeTarget', { targetId: worker!.targetId });
    await down;
    // Any extension event wakes the worker, which reconnects on start. In real life the 30 s
    // reconnect alarm does it; here a storage write from the options page is faster.
    const options = await h.launched.browser.newPage();
    await options.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
    await options.evaluate('chrome.storage.local.set({ wake_test: Date.now() })');
    await up;
    await options.close();
    const again = await agent.call('get_state', {});
    expect(again.status, JSON.stringify(again.error_info)).to.equal('success');
    expect(again.tab_id).to.equal(tabId);
    expect(statuses.map((s) => s.connected)).to.deep.equal([false, true]);
    // A closed session frees its tab: later cases start with no other session holding tabs.
    await agent.close();
    await page.close();
  });

  it('pairs through the options page: a wrong pasted secret is refused, the right one connects', async function () {
    this.timeout(60_000);
    const options = await h.launched.browser.newPage();
    await options.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
    const save = async (secret: string) => {
      await options.$eval('#bridge-url', (el, v) => ((el as HTMLInputElement).value = v as string), h.bridge.extensionUrl);
      await options.$eval('#extension-secret', (el, v) => ((el as HTMLInputElement).value = v as string), secret);
      await options.click('button[type=submit]');
      // "Saved." then, with a new secret, that it is connecting; the status box shows the outcome.
      await options.waitForFunction('document.getElementById("saved").textContent.startsWith("Saved.")');
      await options.$eval('#saved', (el) => (el.textContent = ''));
    };
    const down = new Promise((resolve) => h.bridge.once('extension-disconnected', resolve));
    await save('a-wrong-secret-pasted-by-mistake');
    await down;
    await new Promise((r) => setTimeout(r, 1500));
    expect(h.bridge.extensionConnected, 'a wrong secret must not pair').to.equal(false);
    await options.waitForFunction('document.getElementById("status").dataset.state === "secret_refused"', { timeout: 15_000 });
    const up = new Promise((resolve) => h.bridge.once('extension-connected', resolve));
    await save(h.secrets.extension_secret);
    await up;
    expect(h.bridge.extensionConnected).to.equal(true);
    // The page never shows the stored secret back.
    expect(await options.$eval('#extension-secret', (el) => (el as HTMLInputElement).value)).to.equal('');
    await options.close();
  });

  it("an agent's first action without a tab acts on the last focused normal window's active tab, not on a popup focused after it", async function () {
    this.timeout(60_000);
    const first = await h.openPage(h.fixtures.html('/first-window', '<p>first window</p>', 'First window'));
    // A second normal window, which the person uses last; then a popup window (window.open with
    // popup features) takes the focus, as a sign-in or payment popup does.
    const cdp = await h.launched.browser.target().createCDPSession();
    const { targetId } = await cdp.send('Target.createTarget', {
      url: h.fixtures.html('/second-window', '<p>second window</p>', 'Second window'),
      newWindow: true,
    });
    const target = await h.launched.browser.waitForTarget((t) => (t as unknown as { _targetId: string })._targetId === targetId);
    const second = await target.page();
    if (!second) throw new Error('no page for the second window');
    await second.waitForFunction('document.readyState === "complete"');
    await second.bringToFront();
    const popupTarget = h.launched.browser.waitForTarget((t) => t.url().includes('/popup-window'));
    const popupUrl = h.fixtures.html('/popup-window', '<p>popup</p>', 'Popup');
    await second.evaluate((u) => void window.open(u, 'signin', 'popup,width=420,height=320'), popupUrl);
    const popup = await (await popupTarget).page();
    await popup?.bringToFront();
    // Chrome records the focus changes asynchronously: wait until it has (the popup focused last,
    // after the second window).
    const sw = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
    const worker = await sw.worker();
    const focusSettled = async () =>
      (await worker?.evaluate(async () => {
        const [tab] = await chrome.tabs.query({ url: '*://*/second-window' });
        const last = await chrome.windows.getLastFocused();
        const order = await chrome.windows.getAll();
        return last.type === 'popup' && tab !== undefined && order.some((w) => w.id === tab.windowId);
      })) === true;
    for (const end = Date.now() + 10_000; !(await focusSettled());) {
      if (Date.now() > end) throw new Error('the popup window never took the focus');
      await new Promise((r) => setTimeout(r, 100));
    }
    // No other agent session holds a tab, so the bridge relays the action without a tab and the
    // worker picks the tab (with one, the bridge picks the active tab from list_tabs itself).
    expect(h.bridge.status()['sessions'] as unknown[]).to.have.length(0);
    const agent = await h.connectAgent();
    try {
      const r = await agent.call('get_state', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(r.new_simplified_state?.url).to.contain('/second-window');
    } finally {
      await agent.close();
      await popup?.close();
      await second.close();
      await first.close();
      await cdp.detach();
    }
  });
});
