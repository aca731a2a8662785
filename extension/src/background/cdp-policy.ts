// Which DevTools commands a CDP client may send inside the tab it holds. chrome.debugger attached to a
// tab still reaches past it: Target.createTarget opens tabs, Storage.getCookies reads every cookie
// of the person's profile, Network.setCookie writes a cookie for any site. Those are refused here
// (NOT_PERMITTED, details.reason cdp_method_refused) before Chrome sees them. Measured in Chromium
// 156 through chrome.debugger on a tab: Target.getTargets/setDiscoverTargets/activateTarget/
// attachToBrowserTarget/createBrowserContext/getBrowserContexts/closeTarget (of another target) answer
// "Not allowed"; Browser.*, SystemInfo.*, Memory.*, Tethering.*, Extensions.*, Cast.* "wasn't found";
// Page.setDownloadBehavior "Cannot not access browser-level commands"; Target.createTarget,
// Storage.getCookies, Network.getAllCookies, Network.clearBrowserCache and Network.setCookie for any
// site WORK, which is why the list does not rely on Chrome. The bridge's CDP service answers the
// browser-level commands a client needs (Target.* over the leased tabs, Browser.getVersion,
// Browser.setDownloadBehavior) from its browser endpoint; they never reach a tab.
import { hostMatches } from './host-match';

export interface RefusedCdpMethod {
  /** "Domain.method", or "Domain.*" for the whole domain. */
  method: string;
  /** Why, in words for the client and the docs (completes "<method> is refused: ..."). */
  why: string;
}

/** Refused in every tab session and child session. The docs list these, with their why. */
export const REFUSED_CDP_METHODS: readonly RefusedCdpMethod[] = [
  {
    method: 'Browser.*',
    why: 'it acts on the whole browser (windows, permissions of every site, downloads, closing Chrome), not on the tab this client holds',
  },
  { method: 'SystemInfo.*', why: "it reads the person's machine (GPU, processes), not the tab this client holds" },
  { method: 'Memory.*', why: "it reads or changes the memory of the person's whole browser, not of the tab this client holds" },
  { method: 'Tethering.*', why: "it opens ports on the person's machine" },
  { method: 'Extensions.*', why: "it reaches the person's other extensions and their storage" },
  { method: 'Cast.*', why: "it reaches the person's cast devices" },
  {
    method: 'Target.createTarget',
    why: 'new tabs are opened through the browser endpoint, which leases them to this client (the tab limit and tab group apply)',
  },
  { method: 'Target.closeTarget', why: 'tabs are closed through the browser endpoint, and only the tabs this client holds' },
  {
    method: 'Target.activateTarget',
    why: 'tabs are brought to the front through the browser endpoint, and only the tabs this client holds',
  },
  { method: 'Target.getTargets', why: "it lists every tab of the person's browser; the browser endpoint lists the tabs this client holds" },
  {
    method: 'Target.setDiscoverTargets',
    why: "it reports every tab of the person's browser; the browser endpoint reports the tabs this client holds",
  },
  { method: 'Target.createBrowserContext', why: 'browser contexts belong to the browser, not to the tab this client holds' },
  { method: 'Target.disposeBrowserContext', why: 'browser contexts belong to the browser, not to the tab this client holds' },
  { method: 'Target.getBrowserContexts', why: 'browser contexts belong to the browser, not to the tab this client holds' },
  { method: 'Target.attachToBrowserTarget', why: 'the browser target is the whole browser, beyond the tabs this client holds' },
  { method: 'Target.exposeDevToolsProtocol', why: 'it hands the DevTools protocol to page script, which could then reach beyond the tab' },
  { method: 'Target.openDevTools', why: "it opens DevTools in the person's browser" },
  { method: 'Page.setDownloadBehavior', why: 'downloads are set through the browser endpoint (Browser.setDownloadBehavior)' },
  {
    method: 'Storage.getCookies',
    why: "it reads the cookies of the person's whole profile, beyond the tabs this client holds (Network.getCookies gives the tab's own)",
  },
  {
    method: 'Storage.setCookies',
    why: "it writes cookies into the person's whole profile, for any site (Network.setCookie sets the tab's own)",
  },
  { method: 'Storage.clearCookies', why: "it deletes every cookie of the person's profile" },
  { method: 'Storage.getTrustTokens', why: "it reads the person's private state tokens of every site" },
  { method: 'Storage.clearTrustTokens', why: "it deletes the person's private state tokens" },
  { method: 'Storage.getInterestGroupDetails', why: "it reads the person's ad interest groups of every site" },
  { method: 'Storage.setInterestGroupTracking', why: "it reports the person's ad interest groups of every site" },
  { method: 'Storage.setInterestGroupAuctionTracking', why: "it reports the person's ad auctions of every site" },
  { method: 'Storage.getSharedStorageMetadata', why: 'it reads the shared storage of any site' },
  { method: 'Storage.getSharedStorageEntries', why: 'it reads the shared storage of any site' },
  { method: 'Storage.setSharedStorageEntry', why: 'it writes the shared storage of any site' },
  { method: 'Storage.deleteSharedStorageEntry', why: 'it deletes the shared storage of any site' },
  { method: 'Storage.clearSharedStorageEntries', why: 'it deletes the shared storage of any site' },
  { method: 'Storage.resetSharedStorageBudget', why: 'it changes the shared storage of any site' },
  { method: 'Storage.setSharedStorageTracking', why: 'it reports the shared storage of every site' },
  { method: 'Storage.setStorageBucketTracking', why: 'it reports the storage buckets of any site' },
  { method: 'Storage.deleteStorageBucket', why: 'it deletes the storage of any site' },
  { method: 'Storage.runBounceTrackingMitigations', why: "it deletes the person's data of the sites it judges trackers" },
  { method: 'Storage.setAttributionReportingLocalTestingMode', why: "it changes the person's attribution reporting for every site" },
  { method: 'Storage.setAttributionReportingTracking', why: "it reports the person's attribution data of every site" },
  { method: 'Storage.sendPendingAttributionReports', why: "it sends the person's pending attribution reports of every site" },
  { method: 'Storage.getRelatedWebsiteSets', why: "it reads the person's browser-wide related website sets" },
  { method: 'Storage.getAffectedUrlsForThirdPartyCookieMetadata', why: "it reads the person's browser-wide cookie settings" },
  { method: 'Storage.setProtectedAudienceKAnonymity', why: "it changes the person's browser-wide ad settings" },
  {
    method: 'Network.getAllCookies',
    why: "it reads the cookies of the person's whole profile, beyond the tabs this client holds (Network.getCookies gives the tab's own)",
  },
  { method: 'Network.clearBrowserCookies', why: "it deletes every cookie of the person's profile" },
  { method: 'Network.clearBrowserCache', why: "it empties the person's whole browser cache" },
];

/**
 * Commands that name a site: allowed only for the sites the tab's frames show (what the page's own
 * script could reach), refused for any other: reading or planting a cookie of another site, emptying
 * another site's storage. names(params) gives the URLs, origins or cookie domains the command names.
 */
export const SITE_SCOPED_CDP_METHODS: Readonly<Record<string, { names: (p: Record<string, unknown>) => string[]; why: string }>> = {
  'Network.getCookies': { names: (p) => strings(p['urls']), why: 'it reads the cookies of a site this tab does not show' },
  'Network.setCookie': { names: (p) => cookieNames(p), why: 'it writes a cookie of a site this tab does not show' },
  'Network.setCookies': {
    names: (p) => (Array.isArray(p['cookies']) ? p['cookies'] : []).flatMap((c) => (isObject(c) ? cookieNames(c) : [])),
    why: 'it writes cookies of a site this tab does not show',
  },
  'Network.deleteCookies': { names: (p) => cookieNames(p), why: 'it deletes cookies of a site this tab does not show' },
  'Storage.getUsageAndQuota': { names: (p) => origins(p), why: 'it reads the storage of a site this tab does not show' },
  'Storage.clearDataForOrigin': { names: (p) => origins(p), why: 'it deletes the storage of a site this tab does not show' },
  'Storage.clearDataForStorageKey': { names: (p) => origins(p), why: 'it deletes the storage of a site this tab does not show' },
  'Storage.overrideQuotaForOrigin': { names: (p) => origins(p), why: 'it changes the storage of a site this tab does not show' },
  'Storage.trackCacheStorageForOrigin': { names: (p) => origins(p), why: 'it reports the storage of a site this tab does not show' },
  'Storage.trackCacheStorageForStorageKey': { names: (p) => origins(p), why: 'it reports the storage of a site this tab does not show' },
  'Storage.trackIndexedDBForOrigin': { names: (p) => origins(p), why: 'it reports the storage of a site this tab does not show' },
  'Storage.trackIndexedDBForStorageKey': { names: (p) => origins(p), why: 'it reports the storage of a site this tab does not show' },
  'CacheStorage.requestCacheNames': { names: (p) => origins(p), why: 'it reads the cache storage of a site this tab does not show' },
  'IndexedDB.requestDatabaseNames': { names: (p) => origins(p), why: 'it reads the databases of a site this tab does not show' },
  'IndexedDB.requestDatabase': { names: (p) => origins(p), why: 'it reads the databases of a site this tab does not show' },
  'IndexedDB.requestData': { names: (p) => origins(p), why: 'it reads the databases of a site this tab does not show' },
  'IndexedDB.getMetadata': { names: (p) => origins(p), why: 'it reads the databases of a site this tab does not show' },
  'IndexedDB.clearObjectStore': { names: (p) => origins(p), why: 'it deletes the databases of a site this tab does not show' },
  'IndexedDB.deleteDatabase': { names: (p) => origins(p), why: 'it deletes the databases of a site this tab does not show' },
  'IndexedDB.deleteObjectStoreEntries': { names: (p) => origins(p), why: 'it deletes the databases of a site this tab does not show' },
  'DOMStorage.getDOMStorageItems': { names: (p) => storageIdNames(p), why: 'it reads the local storage of a site this tab does not show' },
  'DOMStorage.setDOMStorageItem': { names: (p) => storageIdNames(p), why: 'it writes the local storage of a site this tab does not show' },
  'DOMStorage.removeDOMStorageItem': {
    names: (p) => storageIdNames(p),
    why: 'it deletes the local storage of a site this tab does not show',
  },
  'DOMStorage.clear': { names: (p) => storageIdNames(p), why: 'it deletes the local storage of a site this tab does not show' },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const pick = (p: Record<string, unknown>, keys: string[]) => keys.map((k) => p[k]).filter((x): x is string => typeof x === 'string');
const cookieNames = (p: Record<string, unknown>) => pick(p, ['url', 'domain']);
const origins = (p: Record<string, unknown>) => pick(p, ['origin', 'securityOrigin', 'storageKey']);
const storageIdNames = (p: Record<string, unknown>) => (isObject(p['storageId']) ? origins(p['storageId']) : []);

/** The refusal entry for a method, or null when it is not refused outright. */
export function refusedMethod(method: string): RefusedCdpMethod | null {
  const domain = `${method.slice(0, method.indexOf('.'))}.*`;
  return REFUSED_CDP_METHODS.find((r) => r.method === method || r.method === domain) ?? null;
}

/**
 * The host a URL, origin, storage key ("https://a.example/^0..." partitioned keys included) or
 * cookie domain (".example.com") names; null when it names none.
 */
export function hostOf(name: string): string | null {
  if (!name.includes('://')) return name.replace(/^\./, '').toLowerCase() || null;
  try {
    return new URL(name.split('^')[0] ?? name).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** Whether a named site is one the tab's frames show: the same host, or a parent domain of it (as the page's own cookies may name). */
export function siteShown(name: string, frameHosts: readonly string[]): boolean {
  const host = hostOf(name);
  return host !== null && frameHosts.some((f) => hostMatches(f, host));
}
