// Several CDP clients at full speed: each client's pages open in a window of its own, so none is a tab
// hidden behind another (Chrome stops animation frames and rendering there and slows its timers, so a
// client behind ran at a fifth of the speed of the one in front), and the person's window keeps focus and
// its active tab. What is asserted is what a person running two agents relies on: both pages animate as
// a page in front does, the person's tab stays theirs, each client's later pages join its window, a
// window the person closed is not reused, and the tabs are still grouped under the client's name there.
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import type { Harness } from '../harness/harness';
import { useHarness } from '../harness/harness';
import { until } from '../harness/until';
import { worker } from './worker-actions.helpers';

interface TabPlace {
  id: number;
  windowId: number;
  active: boolean;
  groupId: number;
}

async function connectClient(h: Harness, name: string): Promise<Browser> {
  const { url } = mintCdpClient(h.configDir, { name, maxTabs: 3 });
  const version = (await (await fetch(`${url(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  return puppeteer.connect({ browserWSEndpoint: version.webSocketDebuggerUrl, defaultViewport: null });
}

/** Where the tab showing url is (the person's view, through the extension's worker). */
async function placeOf(h: Harness, url: string): Promise<TabPlace> {
  const w = await worker(h);
  const tab = await w.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u), url);
  if (tab?.id === undefined) throw new Error(`no tab shows ${url}`);
  return { id: tab.id, windowId: tab.windowId, active: tab.active, groupId: tab.groupId };
}

/** Three animation frames in a row, as a page in front paints them (a hidden tab paints none). A string: tsx would wrap a named
 * inner function in a helper the page does not have. */
const threeFrames = (page: Page): Promise<unknown> =>
  page.evaluate(
    'new Promise((done) => { let n = 0; const f = () => (++n === 3 ? done(n) : requestAnimationFrame(f)); requestAnimationFrame(f); })',
  );

async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

describe('e2e: several CDP clients, each in a window of its own, all at full speed', function () {
  this.timeout(120_000);
  let h: Harness;
  useHarness((started) => (h = started));
  const clients: Browser[] = [];
  after(async () => {
    for (const c of clients) await c.disconnect().catch(() => undefined);
  });

  it("two clients' pages open in windows of their own, animate as in front, and leave the person's tab in front", async () => {
    const personUrl = h.fixtures.html('/windows-person', '<p>the person reads this</p>', 'Person');
    await h.openPage(personUrl);
    const person = await placeOf(h, personUrl);
    const [a, b] = [await connectClient(h, 'windows-a'), await connectClient(h, 'windows-b')];
    clients.push(a, b);
    const open = async (c: Browser, name: string) => {
      const url = h.fixtures.html(`/windows-${name}`, `<p>${name}</p>`, name);
      const page = await c.newPage();
      await page.goto(url, { waitUntil: 'load' });
      return { page, url, place: await placeOf(h, url) };
    };
    const a1 = await open(a, 'a1');
    const b1 = await open(b, 'b1');
    const a2 = await open(a, 'a2');
    // Each client a window of its own; its later pages join it; the person's window and tab untouched.
    expect(new Set([person.windowId, a1.place.windowId, b1.place.windowId]).size).to.equal(3);
    expect(a2.place.windowId).to.equal(a1.place.windowId);
    expect(await placeOf(h, personUrl)).to.include({ windowId: person.windowId, active: true });
    const w = await worker(h);
    expect((await w.evaluate(() => chrome.windows.getLastFocused({ windowTypes: ['normal'] }))).id).to.equal(person.windowId);
    // The second client's page runs as a page in front: visible, its animation frames painted.
    for (const { page } of [b1, a2]) {
      expect(await page.evaluate(() => document.visibilityState)).to.equal('visible');
      await within(threeFrames(page), 5_000, 'a page in its own window painted no animation frame');
    }
    // The person sees which tabs are the agent's: grouped under its name in its window too.
    await until("b1 in the client's tab group", 10_000, async () => (await placeOf(h, b1.url)).groupId !== -1);

    // The person closes client a's window: its next page opens in a new window, never in the person's.
    await w.evaluate((id) => chrome.windows.remove(id), a1.place.windowId);
    // Its pages closed with it; the next page waits until the bridge has let go of them (at its tab limit a
    // client's new page is refused, never given by closing another).
    const heldByA = () =>
      (h.bridge.status()['sessions'] as { client: { name: string } | null; tabs: unknown[] }[]).find(
        (s) => s.client?.name === 'cdp:windows-a',
      )?.tabs.length ?? 0;
    await until("client a's closed pages released", 10_000, async () => heldByA() <= 1);
    const a3 = await open(a, 'a3');
    expect([person.windowId, a1.place.windowId, b1.place.windowId]).not.to.include(a3.place.windowId);
    expect(await placeOf(h, personUrl)).to.include({ windowId: person.windowId, active: true });
  });
});
