// cdp_attach: a CDP client of the bridge takes the tab's DevTools protocol (cdp-relay.ts). No page
// state in the answer: a CDP client reads the page through the protocol.
import { errorInfo } from '../../../../schemas/lib/errors';
import { attachError, attachRelay, detachRelay } from '../cdp/cdp-relay';
import { barOffForClient } from '../panel/controlled-tabs';
import { scopeWhenRead, tabScopeError } from '../policy/person-policy';
import type { WorkerContext, WorkerOutcome } from './types';
import { WS } from './types';

export async function cdpAttach(ctx: WorkerContext): Promise<WorkerOutcome> {
  const tabId = ctx.tab.id;
  // Only a tab on a page in the client's scope is handed over (agent-scope.ts): Chrome itself would
  // attach to the extension's own pages, whose script runs with the extension's permissions.
  // A tab that has not committed its first page yet (a popup just opened) has url '' and the page it
  // is loading in pendingUrl: that one is checked (?? would let '' through unchecked).
  const url = ctx.tab.url || ctx.tab.pendingUrl || '';
  const out = url === '' ? null : await scopeWhenRead(url);
  if (out) return { ok: false, error: tabScopeError('cdp_attach', tabId, url, out), stateTabId: null };
  try {
    await barOffForClient(tabId);
    await attachRelay(tabId, url);
  } catch (e) {
    return { ok: false, error: attachError(tabId, ctx.tab.url, e), stateTabId: null };
  }
  const [targets, tab] = await Promise.all([chrome.debugger.getTargets(), chrome.tabs.get(tabId).catch(() => null)]);
  const target = targets.find((t) => t.tabId === tabId);
  if (!target || !tab) {
    await detachRelay(tabId);
    return {
      ok: false,
      error: errorInfo(
        'TAB_NOT_FOUND',
        `Tab ${tabId} went away while the DevTools protocol was attached to it. Open or pick another tab and call cdp_attach again.`,
        WS,
        { tab_id: tabId },
      ),
      stateTabId: null,
    };
  }
  return {
    ok: true,
    message: `DevTools protocol attached to tab ${tabId}: its events now come as cdp_event, until cdp_detach or the tab's release.`,
    // The url is redacted on its way out, as every string the worker sends (bridge-connection.ts).
    result: { tab_id: tabId, target_id: target.id, url: tab.url || tab.pendingUrl || '', title: tab.title ?? '' },
    stateTabId: null,
  };
}
