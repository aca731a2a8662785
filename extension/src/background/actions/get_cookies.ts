// get_cookies: the cookies of the sites an agent session has open, as Playwright's
// BrowserContext.cookies() returns them, and nothing of any other site in the person's browser.
// The bridge hands over the session's own tabs (params.tab_ids, agent-gateway.ts); the origins are
// the http(s) URLs those tabs show now, minus sites the person's domain settings keep agents away
// from. Values are secrets: nothing here logs them, and the answer goes back only to the session.
import type { ActionMessage, GetCookiesParams, GetCookiesResult } from '../../../../schemas/generated/protocol';
import { policyError } from '../policy/person-policy';
import type { WorkerContext, WorkerOutcome } from './types';

type Cookie = GetCookiesResult['cookies'][number];
type Skipped = GetCookiesResult['skipped_urls'][number];

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

function httpUrl(raw: string): URL | null {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/** Playwright's rule (network.ts filterCookies): the cookie's domain matches the host, and a Secure
 * cookie goes over https or to a local host only. path: also the URL's path must be under the cookie's. */
function appliesTo(c: chrome.cookies.Cookie, url: URL, withPath: boolean): boolean {
  const domain = c.domain.startsWith('.') ? c.domain : `.${c.domain}`;
  if (!`.${url.hostname}`.endsWith(domain)) return false;
  if (withPath && !url.pathname.startsWith(c.path)) return false;
  return !(c.secure && url.protocol !== 'https:' && !LOOPBACK.test(url.hostname));
}

const SAME_SITE: Record<string, Cookie['same_site']> = { strict: 'Strict', lax: 'Lax', no_restriction: 'None' };

function wire(c: chrome.cookies.Cookie): Cookie {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.session || c.expirationDate === undefined ? -1 : c.expirationDate,
    http_only: c.httpOnly,
    secure: c.secure,
    // Chrome's "unspecified" is its Lax default; Playwright reports such a cookie as Lax too.
    same_site: SAME_SITE[c.sameSite] ?? 'Lax',
  };
}

/** Origin and path only: a query may hold a token, and the agent needs only to know which URL got nothing. */
function shown(raw: string): string {
  const u = httpUrl(raw);
  return u ? `${u.origin}${u.pathname}` : raw.split(/[?#]/)[0]!.slice(0, 200);
}

export async function getCookies(ctx: WorkerContext, params: GetCookiesParams): Promise<WorkerOutcome> {
  // The bridge always fills tab_ids; an extension driven without one reads only the action's tab.
  const tabIds = params.tab_ids?.length ? params.tab_ids : [ctx.tab.id];
  const probe = { type: 'action', action_id: 'get_cookies', action: 'get_cookies', params: {} } as ActionMessage;
  // The cookie store of each tab (an incognito tab has its own): a tab's cookies come from its store only.
  const stores = await chrome.cookies.getAllCookieStores();
  const byStore = new Map<string, URL[]>();
  const origins: string[] = [];
  for (const id of tabIds) {
    const tab = await chrome.tabs.get(id).catch(() => null);
    const url = httpUrl(tab?.url ?? '');
    if (!tab || !url) continue;
    if (await policyError(probe, url.href, id)) continue; // a site the person keeps agents away from
    const store = stores.find((s) => s.tabIds.includes(id))?.id ?? (tab.incognito ? null : '0');
    if (store === null) continue;
    if (!origins.includes(url.origin)) origins.push(url.origin);
    const list = byStore.get(store) ?? [];
    if (!list.some((u) => u.origin === url.origin)) list.push(url);
    byStore.set(store, list);
  }
  const skipped: Skipped[] = [];
  const asked: URL[] = [];
  for (const raw of params.urls ?? []) {
    const u = httpUrl(raw);
    if (!u) skipped.push({ url: shown(raw), reason: 'not_http' });
    else if (!origins.includes(u.origin)) skipped.push({ url: shown(raw), reason: 'not_a_leased_origin' });
    else asked.push(u);
  }
  const cookies: Cookie[] = [];
  const seen = new Set<string>();
  const filtering = (params.urls?.length ?? 0) > 0;
  for (const [storeId, tabUrls] of byStore) {
    const sameStore = asked.filter((u) => tabUrls.some((t) => t.origin === u.origin));
    if (filtering && sameStore.length === 0) continue;
    for (const c of await chrome.cookies.getAll({ storeId })) {
      const ok = filtering ? sameStore.some((u) => appliesTo(c, u, true)) : tabUrls.some((u) => appliesTo(c, u, false));
      const key = `${storeId}\n${c.domain}\n${c.path}\n${c.name}`;
      if (!ok || seen.has(key)) continue;
      seen.add(key);
      cookies.push(wire(c));
    }
  }
  const result: GetCookiesResult = { cookies, origins, skipped_urls: skipped };
  const where = origins.length ? origins.join(', ') : 'no site (none of your tabs shows an http(s) page an agent may use)';
  const notRead = skipped.length
    ? ` Not read, because no tab of yours shows their origin: ${skipped.map((s) => s.url).join(', ')}; open the site in one of your tabs first.`
    : '';
  return {
    ok: true,
    message: `${cookies.length} cookie${cookies.length === 1 ? '' : 's'} of ${where}.${notRead}`,
    result: { ...result },
    stateTabId: null,
  };
}
