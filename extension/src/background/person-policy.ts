// The person's settings that limit agents (side panel / options page), enforced in the worker:
// allowed and blocked domains (every action on a tab showing a blocked site, and navigate/open_tab/
// search to one, fails with NOT_PERMITTED), local files (refused unless the person allowed their
// folder: shared/local-files.ts) and PII redaction by default in get_state. The tab limit per agent
// is enforced by the bridge (sent as session_control set_tab_limit).
import type { ActionMessage, ErrorInfo } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/errors';
import { isLocalUrl, localVerdict } from '../shared/local-files';
import { SETTING_KEYS } from '../shared/panel-messages';
import { hostMatches } from './host-match';

interface Policy {
  allowed: string[];
  blocked: string[];
  redactPii: boolean;
  /** Folders (file: URLs) whose files agents may read. */
  localFolders: string[];
}

let cache: Promise<Policy> | null = null;
/** The loaded folders, for the synchronous checks (tabs.ts isRestrictedUrl); null until read: every local URL is refused then. */
let foldersNow: string[] | null = null;

const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim().toLowerCase()) : [];
const folders = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && /^file:\/\//i.test(x)) : [];

const POLICY_KEYS = [SETTING_KEYS.allowedDomains, SETTING_KEYS.blockedDomains, SETTING_KEYS.redactPii, SETTING_KEYS.localFileFolders];

function policy(): Promise<Policy> {
  cache ??= chrome.storage.local.get(POLICY_KEYS).then((v) => {
    const p = {
      allowed: list(v[SETTING_KEYS.allowedDomains]),
      blocked: list(v[SETTING_KEYS.blockedDomains]),
      redactPii: v[SETTING_KEYS.redactPii] === true,
      localFolders: folders(v[SETTING_KEYS.localFileFolders]),
    };
    foldersNow = p.localFolders;
    return p;
  });
  return cache;
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && POLICY_KEYS.some((k) => k in changes)) {
    cache = null;
    // Until read again: a folder the person just removed must not stay readable meanwhile.
    if (SETTING_KEYS.localFileFolders in changes) foldersNow = folders(changes[SETTING_KEYS.localFileFolders]?.newValue);
  }
});
void policy();

/**
 * Tabs showing a local URL now (tabs.onUpdated), so the hot path of dispatch.ts (which acts before
 * its tab lookup returns) is not taken while one is open: every action then checks the tab's URL first.
 */
const localTabs = new Set<number>();
const localTabsReady: Promise<void> = chrome.tabs.query({}).then(
  (tabs) => {
    for (const t of tabs) if (t.id !== undefined && isLocalUrl(t.url ?? t.pendingUrl)) localTabs.add(t.id);
  },
  () => undefined,
);
chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.url === undefined && tab.pendingUrl === undefined) return;
  if (isLocalUrl(change.url ?? tab.url) || isLocalUrl(tab.pendingUrl)) localTabs.add(tabId);
  else localTabs.delete(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => localTabs.delete(tabId));

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

/** NOT_PERMITTED for a tab found showing a blocked local file where the action was not judged first (dispatch.ts restricted()). */
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
  action: ActionMessage,
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

/** Why the person's settings forbid an agent on this URL, or null. Non-web URLs (about:, chrome:) are not judged here. */
export function domainVerdict(url: string | undefined, allowed: string[], blocked: string[]): string | null {
  let host: string;
  try {
    const u = new URL(url ?? '');
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    host = u.hostname;
  } catch {
    return null;
  }
  const b = blocked.find((p) => hostMatches(host, p));
  if (b) return `${host} is on the person's blocked domains (${b})`;
  if (allowed.length && !allowed.some((p) => hostMatches(host, p)))
    return `${host} is not on the person's allowed domains (${allowed.join(', ')})`;
  return null;
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

export async function policyError(action: ActionMessage, tabUrl: string | undefined, tabId?: number): Promise<ErrorInfo | null> {
  const p = await policy();
  const params = (typeof action.params === 'object' && action.params !== null ? action.params : {}) as Record<string, unknown>;
  const target = TARGET_URL_ACTIONS[action.action]?.(params);
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
 * Whether every action must check its tab's URL before it runs: the person limits agents to or away
 * from domains, or a tab shows a local file (which an action must not touch unless its folder is allowed).
 */
export async function hasDomainPolicy(): Promise<boolean> {
  const [p] = await Promise.all([policy(), localTabsReady]);
  return p.allowed.length > 0 || p.blocked.length > 0 || localTabs.size > 0;
}

/** get_state params with the person's redaction default (an explicit redact_pii wins). */
export async function withPersonDefaults<T extends object>(params: T): Promise<T> {
  const p = await policy();
  if (!p.redactPii || 'redact_pii' in params) return params;
  return { ...params, redact_pii: true };
}
