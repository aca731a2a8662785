// `npm run bench:cdp`, the client-level rows: what a Playwright or puppeteer user's own calls cost
// through our endpoint against Chromium's own, on the SAME tab, interleaved (ours, direct, ours, ...).
// A client call is several CDP commands (Playwright's evaluate is one Runtime.callFunctionOn plus its
// bookkeeping; a click is scroll, box, hit-test and the input events; puppeteer's content() a
// serialization in the page), so these ratios show the per-command overhead as a user meets it.
import { chromium, type Page as PwPage } from 'playwright-core';
import type { Page as PptrPage } from 'puppeteer-core';

import { loggingProxy } from './cdp-proxy';
import { median, r1, r2 } from './stats';

export interface ClientRatio {
  /** What a user calls, e.g. "Playwright page.click". */
  call: string;
  runs: number;
  median_ms: { ours: number; direct: number };
  ratio: number;
}

const time = async (f: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

async function pair(call: string, runs: number, f: { ours: () => Promise<unknown>; direct: () => Promise<unknown> }): Promise<ClientRatio> {
  await f.ours();
  await f.direct(); // warm-up
  const xs = { ours: [] as number[], direct: [] as number[] };
  for (let i = 0; i < runs; i++) {
    xs.ours.push(await time(f.ours));
    xs.direct.push(await time(f.direct));
  }
  const m = { ours: r2(median(xs.ours)), direct: r2(median(xs.direct)) };
  return { call, runs, median_ms: m, ratio: r2(m.ours / m.direct) };
}

/**
 * Playwright connectOverCDP on both endpoints: ours opens the tab (so our client holds it), direct
 * finds it by URL; then page.evaluate, page.click and page.screenshot on it. puppeteer's content() on
 * the pages the caller already has (the same tab on both sides).
 */
export async function clientRatios(o: {
  ourHttp: string;
  directHttp: string;
  url: string;
  runs: number;
  puppeteer: { ours: PptrPage; direct: PptrPage };
}): Promise<ClientRatio[]> {
  const rows: ClientRatio[] = [];
  rows.push(
    await pair('puppeteer page.content()', o.runs, { ours: () => o.puppeteer.ours.content(), direct: () => o.puppeteer.direct.content() }),
  );
  // Each side through the same proxy, which keeps the extension's service worker out of the direct
  // client's view (cdp-proxy.ts: its instrumentation of our relay's socket cost only our side).
  const wsOf = async (http: string) =>
    ((await (await fetch(`${http}/json/version`)).json()) as { webSocketDebuggerUrl: string }).webSocketDebuggerUrl;
  const proxies = [await loggingProxy(await wsOf(o.ourHttp), []), await loggingProxy(await wsOf(o.directHttp), [])];
  const ours = await chromium.connectOverCDP(proxies[0]?.url ?? '', { timeout: 60_000 });
  const direct = await chromium.connectOverCDP(proxies[1]?.url ?? '', { timeout: 60_000 });
  try {
    const ctx = ours.contexts()[0];
    if (!ctx) throw new Error('Playwright through our endpoint gave no default context');
    const ourPage = await ctx.newPage();
    await ourPage.goto(o.url, { waitUntil: 'load' });
    await ourPage.bringToFront();
    const directPage = await findPage(
      direct.contexts().flatMap((c) => c.pages()),
      o.url,
      () => direct.contexts().flatMap((c) => c.pages()),
    );
    const pages = { ours: ourPage, direct: directPage };
    const each = (f: (p: PwPage) => Promise<unknown>) => ({ ours: () => f(pages.ours), direct: () => f(pages.direct) });
    rows.push(
      await pair(
        'Playwright page.evaluate(() => 1)',
        o.runs,
        each((p) => p.evaluate(() => 1)),
      ),
    );
    rows.push(
      await pair(
        "Playwright page.click('button')",
        o.runs,
        each((p) => p.click('button')),
      ),
    );
    rows.push(
      await pair(
        'Playwright page.screenshot()',
        o.runs,
        each((p) => p.screenshot()),
      ),
    );
    await ourPage.close().catch(() => undefined);
  } finally {
    // close() of a connectOverCDP browser disconnects; it does not close the person's browser.
    await ours.close().catch(() => undefined);
    await direct.close().catch(() => undefined);
    for (const p of proxies) p.close();
  }
  return rows;
}

/** Chromium's own endpoint learns of a tab opened elsewhere by an event: wait for it briefly. */
async function findPage(now: PwPage[], url: string, again: () => PwPage[]): Promise<PwPage> {
  let pages = now;
  for (let i = 0; i < 100; i++) {
    const found = pages.find((p) => p.url() === url);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
    pages = again();
  }
  throw new Error(`Playwright on Chromium's own endpoint does not see the tab at ${url}`);
}

export function clientRatioRows(rows: ClientRatio[]): string[] {
  return [
    '| client call | runs | ours median ms | direct median ms | ours / direct |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.call} | ${r.runs} | ${r1(r.median_ms.ours)} | ${r1(r.median_ms.direct)} | ${r.ratio} |`),
  ];
}
