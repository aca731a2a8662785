import type { WaitForNavigationParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { TabWatch } from '../page-watch/tab-watch';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

/** Waits for the next top-frame navigation of the tab to start and load. */
export async function waitForNavigation(ctx: WorkerContext, params: WaitForNavigationParams): Promise<WorkerOutcome> {
  const watch = new TabWatch(ctx.tab.id);
  try {
    const cap = ctx.budget.cap(params.timeout_ms ?? ctx.settle.navigation_cap_ms);
    const t0 = performance.now(); // same clock as run/action-run.ts: a coarser Date.now() made the derived action time negative
    const end = await watch.waitForNavigationEnd(cap);
    if (!end) {
      const what = watch.navigationStarted ? 'A navigation started but did not finish loading' : 'No navigation started';
      return {
        ok: false,
        error: errorInfo(
          'TIMEOUT',
          `${what} within ${cap} ms. If the navigation already happened, take a new state; otherwise raise timeout_ms.`,
          WS,
          { tab_id: ctx.tab.id, timeout_ms: cap, navigation_started: watch.navigationStarted },
        ),
      };
    }
    if (!end.ok)
      return {
        ok: false,
        error: errorInfo(
          'NAVIGATION_FAILED',
          `The navigation failed with ${end.error ?? 'an unknown error'} for ${end.url ?? 'the URL'}.`,
          WS,
          { tab_id: ctx.tab.id, url: end.url, net_error: end.error },
        ),
      };
    return {
      ok: true,
      message: `Navigated to ${end.url ?? ''}.`,
      result: { url: end.url ?? '' },
      navigation_occurred: true,
      settled: true,
      navigation_ms: Math.round(performance.now() - t0),
    };
  } finally {
    watch.stop();
  }
}
