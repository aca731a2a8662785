import type { OpenTabParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { localTargetError } from '../person-policy';
import { waitForTabComplete } from '../tabs';
import { normalizeUrl } from './navigation';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

/**
 * Opens the tab in the acting tab's window, active (browser_use's open_tab switches to it) unless params.active is false (seed 002:
 * background).
 */
export async function openTab(ctx: WorkerContext, params: OpenTabParams): Promise<WorkerOutcome> {
  const url = params.url === undefined ? 'about:blank' : normalizeUrl(params.url);
  // Also reached by open_tool with a saved tool's URL, which dispatch.ts does not see.
  const local = localTargetError('open_tab', url);
  if (local) return { ok: false, error: local, stateTabId: null };
  const t0 = performance.now(); // same clock as dispatch.ts: a coarser Date.now() made the derived action time negative
  let tab: chrome.tabs.Tab;
  try {
    tab = await chrome.tabs.create({ url, active: params.active !== false, windowId: ctx.tab.windowId });
  } catch (e) {
    return {
      ok: false,
      error: errorInfo(
        'NAVIGATION_FAILED',
        `Could not open a tab at ${url}: ${e instanceof Error ? e.message : String(e)}. Check the URL.`,
        WS,
        { url },
      ),
    };
  }
  if (tab.id === undefined)
    return { ok: false, error: errorInfo('EXTENSION_INTERNAL_ERROR', 'Chrome opened a tab without an id. Retry.', WS) };
  const loaded = await waitForTabComplete(tab.id, ctx.budget.cap(params.timeout_ms ?? ctx.settle.navigation_cap_ms));
  return {
    ok: true,
    message: `Opened tab ${tab.id} at ${url}${loaded ? '' : ' (still loading)'}.`,
    result: { tab_id: tab.id },
    stateTabId: tab.id,
    new_tab_id: tab.id,
    navigation_occurred: true,
    settled: loaded,
    navigation_ms: Math.round(performance.now() - t0),
  };
}
