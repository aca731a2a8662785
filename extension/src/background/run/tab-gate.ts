// Whether an action may run on the tab it names: found, not an extension page, allowed by the
// person's policy, and a page Chrome lets an extension script (unless the action is a tab-level
// one). On the hot path a page action's tab lookup runs while the page acts (PageTab.check), and
// its verdict is awaited before anything is answered.
import type { ActionResultMessage, ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { TAB_LEVEL } from '../actions/registry';
import type { Tab } from '../actions/types';
import { isExtensionPage } from '../policy/agent-scope';
import { localFileBlocked, localTabError, policyError, scopeNow, tabScopeError } from '../policy/person-policy';
import { isRestrictedUrl, type resolveTab } from '../policy/tabs';
import type { ActionRun } from './action-run';

/**
 * Actions that do not act on the tab they are routed by (it only places a new tab, or nothing):
 * they run whatever it shows. Every other action refuses an extension page.
 */
const NOT_ON_THE_TAB = new Set(['cdp_detach', 'open_tab', 'list_tabs', 'get_cookies']);

export type TabVerdict = { ok: true; tab: Tab } | { ok: false; error: ErrorInfo; tabId?: number };

/**
 * A page action's tab: its id at once, and check(): the verdict of its lookup (found, not
 * restricted). On the hot path check() starts chrome.tabs.get, whose call alone takes ~0.15 ms of
 * the worker's thread: it is started right after the request to the page is posted.
 */
export interface PageTab {
  id: number;
  check: () => Promise<TabVerdict>;
}

export function checkedTab(resolved: ReturnType<typeof resolveTab>): Promise<TabVerdict> {
  return resolved.then((r) => (!r.ok ? r : isRestrictedUrl(r.tab.url) ? { ok: false, error: restricted(r.tab), tabId: r.tab.id } : r));
}

/** The failure for an action its tab refuses, or null when it may run there. */
export async function refuseTab(run: ActionRun, tab: Tab): Promise<ActionResultMessage | null> {
  const { action } = run;
  // Letting go of the DevTools protocol is never refused, whatever the tab shows now.
  if (!NOT_ON_THE_TAB.has(action.action) && isExtensionPage(tab.url ?? tab.pendingUrl))
    return run.fail(extensionPageError(tab, action.action), null, tab.id);
  const denied = action.action === 'cdp_detach' ? null : await policyError(action, tab.url, tab.id);
  if (denied) return run.fail(denied, null, tab.id);
  if (isRestrictedUrl(tab.url) && !TAB_LEVEL.has(action.action)) return run.fail(restricted(tab), null, tab.id);
  return null;
}

/** An extension page is never an agent's tab, not even to navigate or close it (agent-scope.ts). */
const extensionPageError = (tab: Tab, action: string): ErrorInfo => {
  const url = tab.url ?? tab.pendingUrl ?? '';
  return tabScopeError(action, tab.id, url, scopeNow(url) ?? { reason: 'privileged_page', why: 'it is an extension page' });
};

const restricted = (tab: Tab): ErrorInfo =>
  localFileBlocked(tab.url)
    ? localTabError(tab.id, tab.url)
    : errorInfo(
        'RESTRICTED_PAGE',
        `Tab ${tab.id} shows ${tab.url}, a page Chrome does not let extensions script. Navigate the tab to a web page (navigate) or use another tab (list_tabs, switch_tab).`,
        'background_script',
        { tab_id: tab.id, current_url: tab.url },
      );
