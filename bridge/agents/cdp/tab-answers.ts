// Browser-level answers the bridge can only make by asking a held tab, since it has no browser API
// of its own: the browser's version (the page's user agent), a window's bounds (what the page sees of
// its window), and the profile's cookies narrowed to the held pages (Network.getCookies in each tab,
// which the person's policy checks; never the whole profile's).
import type { Protocol } from 'devtools-protocol';

import { versionFromUserAgent } from './browser-methods';
import { type CdpError, isObject, objectOf, type Params, SERVER_ERROR } from './cdp-protocol';
import type { TabTarget } from './cdp-sessions';
import type { Answer } from './session-host';
import type { TabChannel } from './tab-channel';

export interface BrowserVersionInfo {
  product: string;
  jsVersion: string;
  userAgent: string;
}

/** Until a tab tells the real one (no tab attached yet). */
export const FALLBACK_VERSION: BrowserVersionInfo = {
  product: 'Chrome/0.0.0.0',
  jsVersion: '0.0',
  userAgent: 'Mozilla/5.0 (browser-use-ext: no tab attached yet)',
};

/**
 * The tab's user agent, and Chrome's full version where the page may ask for it: navigator.userAgent
 * says Chrome/<major>.0.0.0 since Chrome's user-agent reduction.
 */
const USER_AGENT_EXPRESSION = `(async () => {
  let fullVersion = null;
  try {
    const h = await navigator.userAgentData?.getHighEntropyValues(['fullVersionList']);
    fullVersion = h?.fullVersionList?.find((b) => /Chrom/.test(b.brand))?.version ?? null;
  } catch {}
  return { userAgent: navigator.userAgent, fullVersion };
})()`;

/** Runtime.evaluate's value (returnByValue), when the answer has one. */
export function evaluatedValue(result: Params): unknown {
  return objectOf<Protocol.Runtime.RemoteObject>(objectOf<Protocol.Runtime.EvaluateResponse>(result).result).value;
}

/** The browser as the tab's page reports it; null when there is no tab or it did not say. */
export async function versionOfTab(tabs: TabChannel, tab: TabTarget | undefined): Promise<BrowserVersionInfo | null> {
  if (!tab) return null;
  const r = await tabs.request(tab.tabId, 'Runtime.evaluate', {
    expression: USER_AGENT_EXPRESSION,
    awaitPromise: true,
    returnByValue: true,
  });
  const value = objectOf<{ userAgent: string; fullVersion: string }>(r.ok ? evaluatedValue(r.result) : undefined);
  const ua = value.userAgent;
  const v = typeof ua === 'string' ? versionFromUserAgent(ua, typeof value.fullVersion === 'string' ? value.fullVersion : null) : null;
  if (typeof ua !== 'string' || !v) return null;
  return { ...v, userAgent: ua };
}

/** The window of a tab as the page sees it (screenX/Y, outer size): the bridge has no window API. */
export async function windowOfTab(
  tabs: TabChannel,
  tab: TabTarget,
  windowId: number,
): Promise<{ result: Protocol.Browser.GetWindowForTargetResponse } | { error: CdpError }> {
  const r = await tabs.request(tab.tabId, 'Runtime.evaluate', {
    expression: '({left: screenX, top: screenY, width: outerWidth, height: outerHeight})',
    returnByValue: true,
  });
  if (!r.ok) return { error: r.error };
  const v = evaluatedValue(r.result);
  if (!isObject(v)) return { error: { code: SERVER_ERROR, message: 'The page did not report its window.' } };
  const bounds = { ...v, windowState: 'normal' } as Protocol.Browser.Bounds;
  return { result: { windowId, bounds } };
}

/**
 * Storage.getCookies: the cookies of the pages this client holds (Network.getCookies in each tab,
 * which the person's policy checks), never the whole profile's; in a page session, that page's.
 */
export async function cookiesOfTabs(tabs: TabChannel, contextId: string, p: Params, held: TabTarget[]): Promise<Answer> {
  const ctx = objectOf<Protocol.Storage.GetCookiesRequest>(p).browserContextId;
  if (ctx !== undefined && ctx !== contextId)
    return { error: { code: SERVER_ERROR, message: `Failed to find browser context for id ${String(ctx)}` } };
  const seen = new Map<string, unknown>();
  for (const tab of held) {
    const r = await tabs.request(tab.tabId, 'Network.getCookies', {});
    if (!r.ok) return { error: r.error };
    const cookies = objectOf<Protocol.Network.GetCookiesResponse>(r.result).cookies;
    if (!Array.isArray(cookies)) continue;
    for (const c of cookies as unknown[]) {
      if (!isObject(c)) continue;
      const k = objectOf<Protocol.Network.Cookie>(c);
      seen.set(`${String(k.name)}\u0000${String(k.domain)}\u0000${String(k.path)}\u0000${JSON.stringify(k.partitionKey ?? null)}`, c);
    }
  }
  return { result: { cookies: [...seen.values()] } };
}
