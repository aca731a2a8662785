// Scope, tried as an attacker holding a CDP URL (and an agent's credentials) would, in real Chromium
// with the built extension: every path to the extension's own pages, Chrome's pages, a blocked site
// framed in a held page, and the person's Settings tab as "the active tab". What is asserted is what
// the person relies on: the page out of scope never answers a command of the client, no tab opens,
// nothing of the blocked site reaches the client, and every refusal says why.
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { EXTENSION_ID } from '../../bridge/common/extension-id';
import type { Harness } from '../harness/harness';
import { useHarness } from '../harness/harness';
import { until } from '../harness/until';
import { clearSettings, debuggerAttached, setSettings, worker } from './worker-actions.helpers';

const OPTIONS_URL = `chrome-extension://${EXTENSION_ID}/options.html`;

/** The error message of a command that must fail ('answered' when it did not). */
const refusal = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'answered',
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );

async function connectClient(h: Harness, name: string): Promise<Browser> {
  const { url } = mintCdpClient(h.configDir, { name, maxTabs: 3 });
  const version = (await (await fetch(`${url(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  return puppeteer.connect({ browserWSEndpoint: version.webSocketDebuggerUrl, defaultViewport: null });
}

/** Chrome's tab id of the tab showing url (through the extension's worker). */
async function tabIdOf(h: Harness, url: string): Promise<number> {
  const w = await worker(h);
  const ids = await w.evaluate(async (u) => {
    const c = (globalThis as unknown as { chrome: { tabs: { query: (q: object) => Promise<{ id?: number; url?: string }[]> } } }).chrome;
    return (await c.tabs.query({})).filter((t) => t.url === u).map((t) => t.id);
  }, url);
  const id = ids[0];
  if (typeof id !== 'number') throw new Error(`no tab shows ${url}`);
  return id;
}

/** The person's own view of a tab (the harness's direct DevTools connection, not the client's). */
async function personsPage(h: Harness, url: string): Promise<Page> {
  const page = (await h.launched.browser.pages()).find((p) => p.url() === url);
  if (!page) throw new Error(`the person has no page at ${url}`);
  return page;
}

async function withinMs(p: Promise<unknown>, ms: number, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

async function tabUrl(h: Harness, tabId: number): Promise<string> {
  const w = await worker(h);
  return w.evaluate(
    async (id) =>
      (await (globalThis as unknown as { chrome: { tabs: { get: (i: number) => Promise<{ url?: string }> } } }).chrome.tabs.get(id)).url ??
      '',
    tabId,
  );
}

const storedSettings = async (h: Harness): Promise<string> => {
  const w = await worker(h);
  return w.evaluate(async () =>
    JSON.stringify(
      await (globalThis as unknown as { chrome: { storage: { local: { get: () => Promise<unknown> } } } }).chrome.storage.local.get(),
    ),
  );
};

describe('e2e: a CDP client reaches only its tabs, the sites the person allows, and never the extension', function () {
  this.timeout(120_000);
  let h: Harness;
  useHarness((started) => (h = started));

  it('the extension and Chrome pages: Page.navigate, Target.createTarget and a script are refused (no tab opens); a held tab the person moves there is detached before the client reaches it', async () => {
    const client = await connectClient(h, 'scope-pages');
    try {
      const page = await client.newPage();
      const start = h.fixtures.html('/scope-start', '<p>start</p>', 'Start');
      await page.goto(start);
      const session = await page.createCDPSession();
      const browserSession = await client.target().createCDPSession();
      const tabsBefore = (await h.launched.browser.pages()).length;

      for (const url of [
        OPTIONS_URL,
        `chrome-extension://${EXTENSION_ID}/manifest.json`,
        'chrome://settings',
        'chrome://version',
        `view-source:${start}`,
      ])
        expect(await refusal(session.send('Page.navigate', { url })), url).to.match(/out of reach/);
      for (const url of [OPTIONS_URL, 'chrome://settings', 'chrome://version', `view-source:${start}`])
        expect(await refusal(browserSession.send('Target.createTarget', { url })), url).to.match(/out of reach/);
      expect((await h.launched.browser.pages()).length, 'a refused createTarget opened a tab').to.equal(tabsBefore);

      // A script sending the held tab to the extension's page: Chrome blocks it (the pages are not
      // web-accessible), and the client's hold on the tab ends as it is tried (Inspector.detached).
      const tabId = await tabIdOf(h, start);
      const before = await storedSettings(h);
      const scripted = new Promise<void>((resolve) => page.once('close', () => resolve()));
      await session.send('Runtime.evaluate', { expression: `location.href = ${JSON.stringify(OPTIONS_URL)}` });
      await withinMs(scripted, 5000, 'the client was not told its page is gone after a script sent it to an extension page');
      expect(await tabUrl(h, tabId)).to.not.equal(OPTIONS_URL);

      // The person (or anything but the client's Page.navigate) takes a held tab to the extension's
      // Settings: the attachment ends before the page answers a command.
      const second = await client.newPage();
      const start2 = h.fixtures.html('/scope-start-2', '<p>start 2</p>', 'Start 2');
      await second.goto(start2);
      const session2 = await second.createCDPSession();
      const tab2 = await tabIdOf(h, start2);
      const gone = new Promise<void>((resolve) => second.once('close', () => resolve()));
      await (await personsPage(h, start2)).goto(OPTIONS_URL);
      const attempt = await refusal(
        session2.send('Runtime.evaluate', {
          expression: 'chrome.storage.local.set({blocked_domains: []}).then(() => chrome.tabs.query({})).then((t) => t.length)',
          awaitPromise: true,
        }),
      );
      expect(attempt).to.not.equal('answered');
      await withinMs(gone, 5000, 'the client was not told its page is gone');
      await until('the debugger to leave the Settings tab', 5000, async () => !(await debuggerAttached(h, tab2)));
      expect(await storedSettings(h)).to.equal(before);
      expect((await client.pages()).map((p) => p.url())).to.not.include(OPTIONS_URL);
      // Not handed back either: the tab list the client sees has no extension page.
      const targets = (await browserSession.send('Target.getTargets')).targetInfos.map((t) => t.url);
      expect(targets.filter((u) => u.startsWith('chrome-extension:'))).to.deep.equal([]);
    } finally {
      await client.disconnect();
    }
  });

  it('a blocked site framed in a held page: its frame never gets a session, its URL is refused to Network.loadNetworkResource and Network.getCookies, and nothing of it reaches the client', async () => {
    const blockedOrigin = h.fixtures.url('/').replace('127.0.0.1', 'localhost').replace(/\/$/, '');
    h.fixtures.html(
      '/scope-secret',
      '<title>SECRET-TITLE</title><p>SECRET-TEXT</p><script>document.cookie="sid=SECRET-COOKIE; path=/";localStorage.x="SECRET-STORAGE"</script>',
      'x',
    );
    const framing = h.fixtures.html('/scope-framing', `<p>outer</p><iframe src="${blockedOrigin}/scope-secret"></iframe>`, 'Outer');
    // The person has been on the site before: its HttpOnly-less session cookie is in the profile.
    const visit = await h.openPage(`${blockedOrigin}/scope-secret`);
    await visit.close();
    await setSettings(h, { blocked_domains: ['localhost'] });
    const client = await connectClient(h, 'scope-frames');
    const seen: string[] = [];
    try {
      const page = await client.newPage();
      const session = await page.createCDPSession();
      session.on('Target.attachedToTarget', (e: { targetInfo: { url: string } }) => seen.push(e.targetInfo.url));
      await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
      await page.goto(framing);
      await until('the frame to load or fail', 5000, async () => (await page.evaluate(() => document.readyState)) === 'complete');
      await new Promise((r) => setTimeout(r, 500));
      expect(
        seen.filter((u) => u.includes('localhost')),
        'a child session of the blocked site',
      ).to.deep.equal([]);
      const frameId = (await session.send('Page.getFrameTree')).frameTree.frame.id;
      expect(
        await refusal(
          session.send('Network.loadNetworkResource', {
            frameId,
            url: `${blockedOrigin}/scope-secret`,
            options: { disableCache: true, includeCredentials: true },
          }),
        ),
      ).to.match(/out of reach|blocked/);
      expect(await refusal(session.send('Network.getCookies', { urls: [`${blockedOrigin}/`] }))).to.match(/refused/);
      // No answer or event the client got carries the blocked page's content.
      const everything = JSON.stringify(await refusal(session.send('DOM.getDocument', { depth: -1, pierce: true })));
      const all = JSON.stringify(
        await session.send('DOMSnapshot.captureSnapshot', { computedStyles: [] }).catch((e: unknown) => String(e)),
      );
      for (const secret of ['SECRET-TITLE', 'SECRET-TEXT', 'SECRET-COOKIE', 'SECRET-STORAGE']) {
        expect(everything).to.not.contain(secret);
        expect(all).to.not.contain(secret);
      }
      // A page the client opens with Target.createTarget: the blocked frame never loads in it (the
      // tab is held before its first request), and the page's cookies name none of the blocked site's.
      const browserSession = await client.target().createCDPSession();
      const framing2 = `${framing}?second`;
      await browserSession.send('Target.createTarget', { url: framing2 });
      const opened = await (await client.waitForTarget((t) => t.url() === framing2)).page();
      if (!opened) throw new Error('no page for the created target');
      const openedSession = await opened.createCDPSession();
      const cookies = JSON.stringify(await openedSession.send('Network.getCookies'));
      expect(cookies).to.not.contain('SECRET-COOKIE');
      const personsFrame = (await personsPage(h, framing2)).frames().find((f) => f.url().includes('localhost'));
      const frameText = personsFrame ? await personsFrame.evaluate(() => document.documentElement.innerText).catch(() => '') : '';
      expect(frameText, 'the blocked frame loaded in a tab the client opened').to.not.contain('SECRET-TEXT');

      // A script sending the held page itself to the blocked site: stopped before it commits (the
      // network rules of held tabs); the client keeps its page, which never shows the site.
      await session.send('Runtime.evaluate', { expression: `location.href = ${JSON.stringify(`${blockedOrigin}/scope-secret`)}` });
      await until("the blocked navigation to end on Chrome's error page", 5000, () => page.url().startsWith('chrome-error:'));
      expect(page.isClosed()).to.equal(false);
      // The tab's address is the blocked site: nothing but a navigation away is answered there.
      expect(await refusal(page.evaluate(() => document.documentElement.innerText))).to.match(/localhost is on the person's blocked sites/);
      await page.goto(framing);
      expect(await page.evaluate(() => document.querySelector('p')?.textContent)).to.equal('outer');
    } finally {
      await client.disconnect();
      await clearSettings(h, ['blocked_domains']);
    }
  });

  it("a classic agent never takes the extension's Settings tab as the active tab, never sees it listed, and cannot navigate to an extension page", async () => {
    const web = h.fixtures.html('/scope-web', '<p>web</p>', 'Web');
    const webPage = await h.openPage(web);
    const settings = await h.openPage(OPTIONS_URL);
    await settings.bringToFront();
    const settingsTab = await tabIdOf(h, OPTIONS_URL);
    const webTab = await tabIdOf(h, web);
    const agent = await h.connectAgent();
    try {
      const listed = await agent.call('list_tabs', {});
      const urls = ((listed.outcome_details?.result as { tabs: { url: string }[] }).tabs ?? []).map((t) => t.url);
      expect(urls.filter((u) => u.startsWith('chrome-extension:'))).to.deep.equal([]);
      const state = await agent.call('get_state', {});
      expect(state.status, JSON.stringify(state.error_info)).to.equal('success');
      expect(state.tab_id, 'the agent was handed the Settings tab').to.not.equal(settingsTab);
      expect(state.tab_id).to.equal(webTab);
      const nav = await agent.call('navigate', { url: OPTIONS_URL });
      expect(nav.status).to.equal('error');
      expect(nav.error_info?.error_code).to.equal('NOT_PERMITTED');
      expect(nav.error_info?.details?.['reason']).to.equal('privileged_page');
      const direct = await agent.call('navigate', { url: 'https://example.invalid/' }, { tabId: settingsTab });
      expect(direct.error_info?.error_code).to.equal('RESTRICTED_PAGE');
      expect(settings.url()).to.equal(OPTIONS_URL);
      expect(webPage.url()).to.equal(web);
    } finally {
      await agent.close();
      await settings.close();
    }
  });
});
