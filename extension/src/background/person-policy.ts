// The person's settings that limit agents (side panel / options page), enforced in the worker:
// allowed and blocked domains (every action on a tab showing a blocked site, and navigate/open_tab/
// search to one, fails with NOT_PERMITTED) and PII redaction by default in get_state. The tab limit
// per agent is enforced by the bridge (sent as session_control set_tab_limit).
import type { ActionMessage, ErrorInfo } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/errors';
import { SETTING_KEYS } from '../shared/panel-messages';

interface Policy {
  allowed: string[];
  blocked: string[];
  redactPii: boolean;
}

let cache: Promise<Policy> | null = null;

const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim().toLowerCase()) : [];

function policy(): Promise<Policy> {
  cache ??= chrome.storage.local.get([SETTING_KEYS.allowedDomains, SETTING_KEYS.blockedDomains, SETTING_KEYS.redactPii]).then((v) => ({
    allowed: list(v[SETTING_KEYS.allowedDomains]),
    blocked: list(v[SETTING_KEYS.blockedDomains]),
    redactPii: v[SETTING_KEYS.redactPii] === true,
  }));
  return cache;
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (
    area === 'local' &&
    (SETTING_KEYS.allowedDomains in changes || SETTING_KEYS.blockedDomains in changes || SETTING_KEYS.redactPii in changes)
  )
    cache = null;
});

/** "example.com" matches example.com and every subdomain; "*.example.com" only subdomains. */
export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (pattern.startsWith('*.')) return h.endsWith(pattern.slice(1));
  return h === pattern || h.endsWith(`.${pattern}`);
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

export async function policyError(action: ActionMessage, tabUrl: string | undefined): Promise<ErrorInfo | null> {
  const p = await policy();
  if (!p.allowed.length && !p.blocked.length) return null;
  const params = (typeof action.params === 'object' && action.params !== null ? action.params : {}) as Record<string, unknown>;
  const target = TARGET_URL_ACTIONS[action.action]?.(params);
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

/** Whether the person limits agents to or away from domains (then every action checks its tab's URL first). */
export async function hasDomainPolicy(): Promise<boolean> {
  const p = await policy();
  return p.allowed.length > 0 || p.blocked.length > 0;
}

/** get_state params with the person's redaction default (an explicit redact_pii wins). */
export async function withPersonDefaults<T extends object>(params: T): Promise<T> {
  const p = await policy();
  if (!p.redactPii || 'redact_pii' in params) return params;
  return { ...params, redact_pii: true };
}
