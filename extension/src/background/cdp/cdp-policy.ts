// Which DevTools commands a CDP client may send inside the tab it holds: an allow list
// (cdp-method-table.ts), every other command refused (NOT_PERMITTED, details.reason
// cdp_method_refused) before Chrome sees it. chrome.debugger attached to a tab still reaches past it:
// Target.createTarget opens tabs, Storage.getCookies reads every cookie of the person's profile,
// Network.setCookie writes a cookie for any site. Measured in Chromium 156 through chrome.debugger on
// a tab: Target.getTargets/setDiscoverTargets/activateTarget/attachToBrowserTarget/
// createBrowserContext/getBrowserContexts/closeTarget (of another target) answer "Not allowed";
// Browser.*, SystemInfo.*, Memory.*, Tethering.*, Extensions.*, Cast.* "wasn't found";
// Page.setDownloadBehavior "Cannot not access browser-level commands"; Target.createTarget,
// Storage.getCookies, Network.getAllCookies, Network.clearBrowserCache and Network.setCookie for any
// site WORK, which is why the list does not rely on Chrome. The bridge's CDP service answers the
// browser-level commands a client needs (Target.* over the leased tabs, Browser.getVersion,
// Browser.setDownloadBehavior) from its browser endpoint; they never reach a tab.
import { hostMatches } from '../policy/host-match';
import { CDP_METHOD_RULES, type ParamChecks } from './cdp-method-table';

/** What an allowed command would reach that the caller still judges, from its params. */
export interface CdpCommandNeeds {
  /** URLs it would load or fetch in the page. */
  urls: string[];
  /** Local file paths it would put into the page. */
  files: string[];
  /** Frames it acts in. */
  frameIds: string[];
  /** URLs, origins, storage keys or cookie domains it names: only the sites the tab's frames show. */
  sites: string[];
}

export type MethodVerdict =
  | {
      allowed: true;
      needs: CdpCommandNeeds;
      /** Why a named site is refused, when sites is not empty. */
      sitesWhy?: string;
      /** The anchor in docs/CDP-METHODS.md that lists the checks. */
      section: string;
    }
  | { allowed: false; why: string; /** The anchor in docs/CDP-METHODS.md that says why. */ section: string };

/** docs/CDP-METHODS.md anchors (GitHub's: the heading, lower case, spaces to dashes, ":" dropped). */
export const domainSection = (domain: string): string => `in-a-tab-${domain.toLowerCase()}`;
export const NOT_REVIEWED_SECTION = 'in-a-tab-not-reviewed';

/** How a method stands in the table: allowed (with the checks of its params), refused, or not there. */
export function methodRule(
  method: string,
): { kind: 'allowed'; checks: ParamChecks } | { kind: 'refused'; why: string } | { kind: 'unreviewed' } {
  const dot = method.indexOf('.');
  const rules = dot > 0 ? CDP_METHOD_RULES[method.slice(0, dot)] : undefined;
  if (!rules) return { kind: 'unreviewed' };
  const name = method.slice(dot + 1);
  if (rules.refusedDomain !== undefined) return { kind: 'refused', why: rules.refusedDomain };
  const refused = rules.refused?.[name];
  if (refused !== undefined) return { kind: 'refused', why: refused };
  const checks = rules.checked?.[name];
  if (checks) return { kind: 'allowed', checks };
  if (rules.allowed?.includes(name)) return { kind: 'allowed', checks: {} };
  return { kind: 'unreviewed' };
}

/**
 * Whether a client may send this command in a tab it holds, and what its params would reach (URLs,
 * files, frames, sites) for the caller to judge against the person's settings and the tab's frames.
 */
export function judgeMethod(method: string, params: Record<string, unknown>): MethodVerdict {
  const rule = methodRule(method);
  const domain = method.slice(0, Math.max(0, method.indexOf('.')));
  if (rule.kind === 'unreviewed')
    return {
      allowed: false,
      why: 'it is not on the list of commands a client may send in a tab it holds (a command of another or newer DevTools protocol is refused until it is reviewed)',
      section: NOT_REVIEWED_SECTION,
    };
  if (rule.kind === 'refused') return { allowed: false, why: rule.why, section: domainSection(domain) };
  const c = rule.checks;
  for (const [param, why] of Object.entries(c.refusedParams ?? {}))
    if (params[param] !== undefined) return { allowed: false, why: `${why} (${param})`, section: domainSection(domain) };
  const at = (paths: readonly string[] | undefined) => (paths ?? []).flatMap((p) => stringsAt(params, p));
  return {
    allowed: true,
    needs: { urls: at(c.urls), files: at(c.files), frameIds: at(c.frameIds), sites: at(c.sites?.params) },
    ...(c.sites ? { sitesWhy: c.sites.why } : {}),
    section: domainSection(domain),
  };
}

/**
 * The strings at a param path: "a.b", "a[]" (each element of a), "a[name=x].value" (the value of the
 * elements of a whose name is x, in any case: HTTP header names).
 */
export function stringsAt(params: unknown, path: string): string[] {
  let values: unknown[] = [params];
  for (const seg of path.split('.')) {
    const m = /^([^[\]]+)(?:\[(?:(\w+)=([^\]]*))?\])?$/.exec(seg);
    if (!m) return [];
    const [, key = '', fk, fv] = m;
    const isArray = seg.includes('[');
    values = values.flatMap((v) => {
      const x = isObject(v) ? v[key] : undefined;
      if (!isArray) return x === undefined ? [] : [x];
      if (!Array.isArray(x)) return [];
      return fk === undefined ? x : x.filter((e) => isObject(e) && typeof e[fk] === 'string' && e[fk].toLowerCase() === fv?.toLowerCase());
    });
  }
  return values.filter((x): x is string => typeof x === 'string');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
