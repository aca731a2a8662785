// Tab targeting and the pages agents must not script.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/wire';
import { isExtensionPage } from './agent-scope';
import { scopeNow } from './person-policy';

/**
 * Pages an agent may not script (agent-scope.ts: anything but the web pages, blank pages, data: and
 * allowed local files it names; chrome://, extension pages and the Web Store among them), and local
 * files the person has not allowed agents to read: every state, screenshot and context bundle skips
 * them, whatever action led there (a go_back onto a file page included). A site the person blocked
 * is not "restricted": its actions are refused by the person's policy (person-policy.ts), which says so.
 */
export function isRestrictedUrl(url: string | undefined): boolean {
  const out = scopeNow(url ?? '');
  return out !== null && out.reason !== 'domain_policy';
}

export async function resolveTab(
  tabId: number | undefined,
): Promise<{ ok: true; tab: chrome.tabs.Tab & { id: number } } | { ok: false; error: ErrorInfo }> {
  if (tabId !== undefined) {
    try {
      const tab = await chrome.tabs.get(tabId);
      if (tab.id !== undefined) return { ok: true, tab: tab as chrome.tabs.Tab & { id: number } };
    } catch {
      // fall through to the typed error
    }
    return {
      ok: false,
      error: errorInfo(
        'TAB_NOT_FOUND',
        `Tab ${tabId} does not exist (it was closed or never opened). List the tabs and pick an open one.`,
        'background_script',
        { tab_id: tabId },
      ),
    };
  }
  const tab = await agentsActiveTab();
  if (tab?.id === undefined)
    return {
      ok: false,
      error: errorInfo(
        'TAB_NOT_FOUND',
        'There is no tab an agent may act on (the only open tabs are extension pages, which agents never use). Open a tab with open_tab, or pass tab_id.',
        'background_script',
      ),
    };
  return { ok: true, tab: tab as chrome.tabs.Tab & { id: number } };
}

/**
 * "The active tab" when an agent names none: the person's active tab, unless it is an extension
 * page (the side panel's Settings, our options page: they run with the extension's permissions and
 * are never an agent's). Then the tab of that window the person used last before it, else of any
 * normal window; undefined when every open tab is an extension page.
 */
export async function agentsActiveTab(): Promise<chrome.tabs.Tab | undefined> {
  const active = await personsActiveTab();
  if (active && !isExtensionPage(active.url ?? active.pendingUrl)) return active;
  const usable = (await chrome.tabs.query({ windowType: 'normal' })).filter(
    (t) => t.id !== undefined && !isExtensionPage(t.url ?? t.pendingUrl),
  );
  const recent = (ts: chrome.tabs.Tab[]) => ts.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
  return recent(usable.filter((t) => t.windowId === active?.windowId)) ?? recent(usable);
}

/** Resolves when the tab's status is "complete" (or after capMs). */
export function waitForTabComplete(tabId: number, capMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(listener);
      resolve(ok);
    };
    const listener = (id: number, info: { status?: string }) => {
      if (id === tabId && info.status === 'complete') done(true);
    };
    const timer = setTimeout(() => done(false), capMs);
    chrome.tabs.onUpdated.addListener(listener);
    chrome.tabs.get(tabId).then(
      (t) => {
        if (t.status === 'complete') done(true);
      },
      () => done(false),
    );
  });
}

/**
 * The tab the person looks at: the active tab of the last focused NORMAL window. The side panel's
 * popup window, DevTools or an app window may have the focus, and their page is not one to act on.
 * tabs.query's lastFocusedWindow is the last focused window of ANY type: with a popup focused it
 * matches no normal tab. windows.getLastFocused filters by type first, so it names the normal
 * window the person used last (with two normal windows, not just the first one).
 */
export async function personsActiveTab(): Promise<chrome.tabs.Tab | undefined> {
  const win = await chrome.windows.getLastFocused({ windowTypes: ['normal'] }).catch(() => null);
  const [active] = win?.id === undefined ? [] : await chrome.tabs.query({ active: true, windowId: win.id });
  return active ?? (await chrome.tabs.query({ active: true, windowType: 'normal' }))[0];
}
