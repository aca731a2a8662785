// Why: the snapshot's kept-answer switch (content/snapshot/walk-cache.ts: a cold walk to compare
// with, and the count of walks) lives in the extension's isolated world, which the page cannot
// reach; a test or bench reaches it as DevTools does, by evaluating in that world's context.
import type { Page } from 'puppeteer-core';

/** Evaluates expr in the extension's isolated world of the page's top frame; returns its value. */
export async function isolatedEval<T>(page: Page, expr: string): Promise<T> {
  const cdp = await page.createCDPSession();
  try {
    const contexts: { id: number; origin: string; auxData?: { frameId?: string; type?: string } }[] = [];
    cdp.on('Runtime.executionContextCreated', (e: { context: (typeof contexts)[number] }) => contexts.push(e.context));
    await cdp.send('Runtime.enable');
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const ctx = contexts.find(
      (c) => c.auxData?.frameId === frameTree.frame.id && c.auxData?.type === 'isolated' && c.origin.startsWith('chrome-extension://'),
    );
    if (!ctx) throw new Error('no isolated world of the extension in the top frame');
    const r = await cdp.send('Runtime.evaluate', { expression: expr, contextId: ctx.id, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`isolated evaluate failed: ${r.exceptionDetails.text}`);
    return r.result.value as T;
  } finally {
    await cdp.detach();
  }
}

/** Makes every state of the page a fresh walk that leaves nothing behind (on), or ends that (off). */
export const coldWalks = (page: Page, on: boolean): Promise<unknown> =>
  isolatedEval(page, `(window.__browserUseExtWalkCache ??= { walks: 0 }).cold = ${on}`);

/** How many fresh walks the page's ordinary states have made. */
export const walkCount = (page: Page): Promise<number> => isolatedEval<number>(page, 'window.__browserUseExtWalkCache?.walks ?? 0');
