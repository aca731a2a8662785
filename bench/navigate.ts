// Why: the page-state benches open each bench page in the same tab, and puppeteer's goto waits for
// every frame's lifecycle, which some ad frames never finish; one way to get there, shared.
import type { Browser as PwBrowser, Page as PwPage } from 'playwright-core';
import type { CDPSession, Page } from 'puppeteer-core';

import type { BenchPage } from './pages';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Navigates the tab without waiting on its iframes, then until the page is ready by its spec and two frames have drawn. */
export async function navigateToBenchPage(tab: Page, cdp: CDPSession, url: string, spec: BenchPage): Promise<void> {
  await cdp.send('Page.navigate', { url });
  await tab.waitForFunction(
    (u: string, until: string) =>
      location.href === u && (until === 'load' ? document.readyState === 'complete' : document.readyState !== 'loading'),
    { timeout: 60_000, polling: 50 },
    url,
    spec.ready.until,
  );
  if (spec.ready.until === 'domcontentloaded') await sleep(spec.ready.waitMs);
  await tab.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The Playwright page of the tab now at `url` (Playwright learns of a tab a moment after it opens); waits up to 5 s. */
export async function playwrightPageAt(pw: PwBrowser, url: string): Promise<PwPage> {
  for (let i = 0; i < 100; i++, await sleep(50)) {
    const page = pw
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url() === url);
    if (page) return page;
  }
  throw new Error(`Playwright does not see the tab at ${url}`);
}
