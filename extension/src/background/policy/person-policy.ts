// The person's settings that limit agents (side panel / options page), enforced in the worker:
// allowed and blocked domains (every action on a tab showing a blocked site, and navigate/open_tab/
// search to one, fails with NOT_PERMITTED), local files (refused unless the person allowed their
// folder: shared/local-files.ts) and PII redaction by default in get_state. The tab limit per agent
// is enforced by the bridge (sent as session_control set_tab_limit).
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { isLocalUrl, localVerdict } from '../../shared/local-files';
import { SETTING_KEYS } from '../../shared/panel-messages';
import { scopeOf, type ScopePolicy, type ScopeVerdict, siteVerdict } from './agent-scope';

interface Policy {
  allowed: string[];
  blocked: string[];
  redactPii: boolean;
  /** Folders (file: URLs) whose files agents may read. */
  localFolders: string[];
}

let cache: Promise<Policy> | null = null;
const policyListeners: (() => void)[] = [];
/** fn runs each time the person's changed settings have been read again (scopeNow judges by them then). */
export function onPolicyChanged(fn: () => void): void {
  policyListeners.push(fn);
}
/** The loaded folders, for the synchronous checks (tabs.ts isRestrictedUrl); null until read: every local URL is refused then. */
let foldersNow: string[] | null = null;
/** The loaded policy, for the synchronous scope checks (a CDP command, a navigation event); null until read. */
let policyLoaded: Policy | null = null;
/**
 * The policy as the person last set it, for the CDP command's synchronous path (scopeIfRead,
 * domainPolicyNow): null from a change of the settings until they are read again, so that path
 * waits as every other does instead of judging by the settings they replace.
 */
let policyFresh: Policy | null = null;

const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim().toLowerCase()) : [];
const folders = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && /^file:\/\//i.test(x)) : [];

const POLICY_KEYS = [SETTING_KEYS.allowedDomains, SETTING_KEYS.blockedDomains, SETTING_KEYS.redactPii, SETTING_KEYS.localFileFolders];

function policy(): Promise<Policy> {
  if (cache) return cache;
  policyFresh = null;
  const reading = chrome.storage.local.get(POLICY_KEYS).then((v) => {
    const p = {
      allowed: list(v[SETTING_KEYS.allowedDomains]),
      blocked: list(v[SETTING_KEYS.blockedDomains]),
      redactPii: v[SETTING_KEYS.redactPii] === true,
      localFolders: folders(v[SETTING_KEYS.localFileFolders]),
    };
    foldersNow = p.localFolders;
    policyLoaded = p;
    // A change that came while this read ran started another read: only the latest is fresh.
    if (cache === reading) policyFresh = p;
    return p;
  });
  cache = reading;
  return reading;
}

void policy();

/**
 * Tabs showing a local URL now (tabs.onUpdated), so the hot path of run/dispatch.ts (which acts before
 * its tab lookup returns) is not taken while one is open: every action then checks the tab's URL first.
 */
const localTabs = new Set<number>();
let localTabsKnown = false;
const localTabsReady: Promise<void> = chrome.tabs
  .query({})
  .then(
    (tabs) => {
      for (const t of tabs) if (t.id !== undefined && isLocalUrl(t.url ?? t.pendingUrl)) localTabs.add(t.id);
    },
    () => undefined,
  )
  .finally(() => {
    localTabsKnown = true;
  });

/**
 * Keeps the policy and the local tabs current: a changed setting is read again (and the policy's
 * listeners told), a tab that starts or stops showing a local URL joins or leaves localTabs.
 * Called by the worker's entry (index.ts) synchronously at top level.
 */
export function installPersonPolicy(): void {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && POLICY_KEYS.some((k) => k in changes)) {
      cache = null;
      void policy().then(() => {
        for (const fn of policyListeners) fn();
      });
      // Until read again: a folder the person just removed must not stay readable meanwhile.
      if (SETTING_KEYS.localFileFolders in changes) foldersNow = folders(changes[SETTING_KEYS.localFileFolders]?.newValue);
    }
  });
  chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.url === undefined && tab.pendingUrl === undefined) return;
    if (isLocalUrl(change.url ?? tab.url) || isLocalUrl(tab.pendingUrl)) localTabs.add(tabId);
    else localTabs.delete(tabId);
  });
  chrome.tabs.onRemoved.addListener((tabId) => localTabs.delete(tabId));
}

/** Synchronous: whether an agent is refused this local URL (false for any non-local URL). */
export function localFileBlocked(url: string | undefined): boolean {
  const v = localVerdict(url, foldersNow ?? []);
  return v.local && !v.allowed;
}

const SETTINGS_HINT =
  'The person can allow a folder in the extension\'s Settings ("Local files agents may read"); otherwise work on a web page.';

/** NOT_PERMITTED for a local file (reason local_file); why: localVerdict's reason. */
export function localFileError(action: string, why: string, details: Record<string, unknown>): ErrorInfo {
  return errorInfo('NOT_PERMITTED', `"${action}" refused: ${why}. ${SETTINGS_HINT}`, 'background_script', {
    reason: 'local_file',
    ...details,
  });
}

/** NOT_PERMITTED when an action would open this URL and it is a local file agents may not read; null otherwise. */
export function localTargetError(action: string, url: string, allowed: readonly string[] | null = foldersNow): ErrorInfo | null {
  const v = localVerdict(url, allowed ?? []);
  return v.local && !v.allowed ? localFileError(action, `${url}: ${v.why}`, { url }) : null;
}

/** NOT_PERMITTED for a tab found showing a blocked local file where the action was not judged first (run/tab-gate.ts refuseTab). */
export function localTabError(tabId: number, url: string | undefined): ErrorInfo {
  const v = localVerdict(url, foldersNow ?? []);
  const why = v.local && !v.allowed ? v.why : 'it is a local file';
  return errorInfo('NOT_PERMITTED', `Refused: tab ${tabId} shows ${url ?? ''}: ${why}. ${SETTINGS_HINT}`, 'background_script', {
    reason: 'local_file',
    tab_id: tabId,
    tab_url: url ?? null,
  });
}

/** The local-file rule for this action: a local target, a tab showing a local file, or a frame of it that is not allowed. */
async function localFileRefusal(
  action: Judged,
  target: string | undefined,
  tabId: number | undefined,
  tabUrl: string | undefined,
  p: Policy,
): Promise<ErrorInfo | null> {
  if (target !== undefined) return localTargetError(action.action, target, p.localFolders);
  if (TAB_ONLY.has(action.action) || !isLocalUrl(tabUrl)) return null;
  const v = localVerdict(tabUrl, p.localFolders);
  const tabLabel = `tab ${tabId ?? '?'} shows ${tabUrl ?? ''}`;
  if (v.local && !v.allowed)
    return localFileError(action.action, `${tabLabel}: ${v.why}`, { tab_id: tabId ?? null, tab_url: tabUrl ?? null });
  if (tabId === undefined) return null;
  const frame = await blockedLocalFrame(tabId, p.localFolders);
  return frame
    ? localFileError(action.action, `${tabLabel}, with a frame showing ${frame.url}: ${frame.why}`, {
        tab_id: tabId,
        tab_url: tabUrl ?? null,
        frame_url: frame.url,
      })
    : null;
}

/**
 * A frame of the tab showing a local file agents may not read, or null. An allowed page may frame a
 * file from elsewhere (<iframe src="../.config/browser-use-ext/secrets.json">): every frame is judged.
 */
export async function blockedLocalFrame(tabId: number, allowed?: readonly string[]): Promise<{ url: string; why: string } | null> {
  const folders = allowed ?? (await policy()).localFolders;
  const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? [];
  for (const f of frames) {
    const v = localVerdict(f.url, folders);
    if (v.local && !v.allowed) return { url: f.url, why: v.why };
  }
  return null;
}

/** Whether the person limits agents to or away from sites. */
export async function hasSiteLists(): Promise<boolean> {
  const p = await policy();
  return p.allowed.length > 0 || p.blocked.length > 0;
}

/** The person's site lists and folders, once read. */
export const policySettings = (): Promise<ScopePolicy> => policy();

/** Why the person's settings forbid an agent on this URL, or null. Non-web URLs (about:, chrome:) are not judged here. */
export function domainVerdict(url: string | undefined, allowed: string[], blocked: string[]): string | null {
  let u: URL;
  try {
    u = new URL(url ?? '');
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return siteVerdict(u.hostname, { allowed, blocked, localFolders: [] });
}

/**
 * Whether an agent may reach this URL now (agent-scope.ts), synchronously: for the checks that run
 * on every CDP command and navigation event. Before the settings are read, local files and
 * privileged pages are out of scope as always, and sites are judged when the settings arrive (every
 * path that can wait, waits: policyError, scopeError).
 */
export function scopeNow(url: string): ScopeVerdict {
  return scopeOf(url, policyLoaded ?? { allowed: [], blocked: [], localFolders: [] });
}

/** As scopeNow, once the person's settings are read. */
export async function scopeWhenRead(url: string): Promise<ScopeVerdict> {
  const p: ScopePolicy = await policy();
  return scopeOf(url, p);
}

/** As scopeWhenRead without waiting (a CDP command's hot path); undefined while the settings are being read (then use scopeWhenRead). */
export function scopeIfRead(url: string): ScopeVerdict | undefined {
  return policyFresh === null ? undefined : scopeOf(url, policyFresh);
}

/**
 * A tab that shows a page out of scope: RESTRICTED_PAGE for a privileged page (what the tab shows is
 * not a page an agent may have), NOT_PERMITTED otherwise (the person's settings).
 */
export function tabScopeError(what: string, tabId: number, url: string, verdict: NonNullable<ScopeVerdict>): ErrorInfo {
  if (verdict.reason !== 'privileged_page') return scopeError(what, url, verdict, { tab_id: tabId });
  return errorInfo(
    'RESTRICTED_PAGE',
    `"${what}" refused: tab ${tabId} shows ${url}, which is out of reach: ${verdict.why}. Use another tab (list_tabs), or open one on a web page (open_tab).`,
    'background_script',
    { reason: verdict.reason, tab_id: tabId, current_url: url },
  );
}

const SCOPE_HINTS: Record<NonNullable<ScopeVerdict>['reason'], string> = {
  privileged_page: 'Agents work on web pages only: use an http(s) address.',
  local_file: SETTINGS_HINT,
  domain_policy: 'Work on another site, or ask the person to change the sites in the browser-use-ext settings.',
};

/** NOT_PERMITTED for a URL out of an agent's scope (details.reason: privileged_page, local_file or domain_policy). */
export function scopeError(
  what: string,
  url: string,
  verdict: NonNullable<ScopeVerdict>,
  details: Record<string, unknown> = {},
): ErrorInfo {
  return errorInfo(
    'NOT_PERMITTED',
    `"${what}" refused: ${url} is out of reach: ${verdict.why}. ${SCOPE_HINTS[verdict.reason]}`,
    'background_script',
    {
      reason: verdict.reason,
      url,
      ...details,
    },
  );
}

const TARGET_URL_ACTIONS: Record<string, (params: Record<string, unknown>) => string | undefined> = {
  navigate: (p) => (typeof p['url'] === 'string' ? p['url'] : undefined),
  open_tab: (p) => (typeof p['url'] === 'string' ? p['url'] : undefined),
  search: () => 'https://www.google.com/search',
};
/** Actions that touch no page content: allowed on any tab. */
const TAB_ONLY = new Set([
  'list_tabs',
  'switch_tab',
  'close_tab',
  'wait',
  'open_tab',
  'navigate',
  'search',
  'go_back',
  'go_forward',
  'open_tool',
]);

/** What the person's settings judge: an action (its name and params), or a CDP command (its method). */
export type Judged = { action: string; params?: unknown };

export async function policyError(action: Judged, tabUrl: string | undefined, tabId?: number): Promise<ErrorInfo | null> {
  const p = await policy();
  const params = (typeof action.params === 'object' && action.params !== null ? action.params : {}) as Record<string, unknown>;
  const target = TARGET_URL_ACTIONS[action.action]?.(params);
  // Where an action goes is judged by the whole allow list (a privileged page too), not the site lists alone.
  const out = target === undefined || !looksLikeUrl(target) ? null : scopeOf(target, p);
  if (out) return scopeError(action.action, target ?? '', out);
  const local = await localFileRefusal(action, target, tabId, tabUrl, p);
  if (local) return local;
  if (!p.allowed.length && !p.blocked.length) return null;
  const why =
    target !== undefined
      ? domainVerdict(target, p.allowed, p.blocked)
      : TAB_ONLY.has(action.action)
        ? null
        : domainVerdict(tabUrl, p.allowed, p.blocked);
  if (!why) return null;
  return errorInfo(
    'NOT_PERMITTED',
    `"${action.action}" refused: ${why}, set in the browser-use-ext settings. Work on another site, or ask the person to change the domain settings.`,
    'background_script',
    { reason: 'domain_policy', ...(target !== undefined ? { url: target } : { tab_url: tabUrl ?? null }) },
  );
}

/**
 * A target written with a scheme is judged as written; "example.com" (no scheme) is completed to
 * https:// by the navigate action itself (navigation.ts normalizeUrl), which judges it again.
 */
const looksLikeUrl = (s: string) => /^[a-z][a-z0-9+.-]*:/i.test(s.trim());

/**
 * Whether every action must check its tab's URL before it runs: the person limits agents to or away
 * from domains, or a tab shows a local file (which an action must not touch unless its folder is allowed).
 */
export async function hasDomainPolicy(): Promise<boolean> {
  const [p] = await Promise.all([policy(), localTabsReady]);
  return p.allowed.length > 0 || p.blocked.length > 0 || localTabs.size > 0;
}

/** As hasDomainPolicy without waiting (a CDP command's hot path); undefined while the settings or the open tabs are being read. */
export function domainPolicyNow(): boolean | undefined {
  if (policyFresh === null || !localTabsKnown) return undefined;
  return policyFresh.allowed.length > 0 || policyFresh.blocked.length > 0 || localTabs.size > 0;
}

/** get_state params with the person's redaction default (an explicit redact_pii wins). */
export async function withPersonDefaults<T extends object>(params: T): Promise<T> {
  const p = await policy();
  if (!p.redactPii || 'redact_pii' in params) return params;
  return { ...params, redact_pii: true };
}
