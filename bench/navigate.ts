// Why: the page-state benches open each bench page in the same tab, and puppeteer's goto waits for
// every frame's lifecycle, which some ad frames never finish; one way to get there, shared.
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
