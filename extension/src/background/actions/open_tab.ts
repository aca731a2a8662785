import type { OpenTabParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { addHeldTab } from '../cdp/held-tab-rules';
import { joinOpenersGroup } from '../panel/controlled-tabs';
import { hasSiteLists, scopeError, scopeWhenRead } from '../policy/person-policy';
import { waitForTabComplete } from '../policy/tabs';
import { loadUrl } from './load-url';
import { normalizeUrl } from './navigation';
import { createPlacedTab } from './tab-window';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

/**
 * Opens the tab in the acting tab's window, active (browser_use's open_tab switches to it) unless params.active is false (seed 002:
 * background). It opens right after the acting tab (where Chrome puts a tab a link opens) and joins that tab's group when it is
 * the agent's: appended at the end of the window, it would be moved next to the agent's group once grouped (controlled-tabs.ts),
 * after the agent had listed the tabs, and browser_use's page_id (the position in the tab strip) would then name another tab.
 * new_window / window_id put it in a window of the caller's own instead, where it is not throttled as a hidden tab (tab-window.ts).
 */
export async function openTab(ctx: WorkerContext, params: OpenTabParams): Promise<WorkerOutcome> {
  const url = params.url === undefined ? 'about:blank' : normalizeUrl(params.url);
  // Also reached by open_tool with a saved tool's URL, which run/dispatch.ts does not see.
  const out = await scopeWhenRead(url);
  if (out) return { ok: false, error: scopeError('open_tab', url, out), stateTabId: null };
  const t0 = performance.now(); // same clock as run/action-run.ts: a coarser Date.now() made the derived action time negative
  let tab: chrome.tabs.Tab;
  try {
    // With site lists set, the tab opens blank and is held (its network rules in place) before it
    // loads the page: a frame or redirect of that page to a blocked site never loads (held-tab-rules.ts).
    const guarded = url !== 'about:blank' && (await hasSiteLists());
    tab = await createPlacedTab(ctx, params, guarded ? 'about:blank' : url);
    if (guarded && tab.id !== undefined) {
      await addHeldTab(tab.id);
      tab = (await loadUrl(ctx.budget, tab.id, url)) ?? tab;
    }
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
  // Before the answer, so the tab is where it stays when the agent next lists the tabs. Best effort: a tab left out of the
  // group is still the agent's (grouped when the bridge's agent_sessions names it, already beside its opener).
  await joinOpenersGroup(ctx.tab.id, tab.id).catch(() => undefined);
  const loaded = await waitForTabComplete(tab.id, ctx.budget.cap(params.timeout_ms ?? ctx.settle.navigation_cap_ms));
  return {
    ok: true,
    message: `Opened tab ${tab.id} at ${url}${loaded ? '' : ' (still loading)'}.`,
    result: { tab_id: tab.id, window_id: tab.windowId },
    stateTabId: tab.id,
    new_tab_id: tab.id,
    navigation_occurred: true,
    settled: loaded,
    navigation_ms: Math.round(performance.now() - t0),
  };
}
