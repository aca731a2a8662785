// What an agent may reach, as an allow list: the one rule every path asks (navigate, open_tab, a
// CDP client's Page.navigate / Network.loadNetworkResource / child sessions / frames, the tab an
// agent is handed, the tabs it is shown). A URL is in scope only when it is one of:
//   http: / https:       judged by the person's allowed and blocked sites;
//   about:blank / srcdoc a document with no content of its own;
//   chrome-error://chromewebdata/  the page Chrome shows for a load that failed (no site's content:
//                        a client whose page.goto failed keeps its page, as on Chrome's own endpoint);
//   data:                its content is the URL itself (what the agent or the page wrote);
//   blob:                judged by the origin that made it (blob:https://a.example/... as a.example);
//   file: (and local     only inside a folder the person allowed (shared/local-files.ts).
//   forms of it)
// Everything else is out of scope, named or not: chrome://, chrome-extension:// (our own pages run
// with the extension's permissions: every tab, every cookie, the pairing secret), devtools://,
// chrome-untrusted://, view-source:, filesystem:, javascript:, and whatever scheme a later Chrome
// adds. A list of refusals would let the next scheme through; this list lets nothing through that it
// does not name.
import { isLocalUrl, localVerdict } from '../../shared/local-files';
import { hostMatches } from './host-match';

/** The person's settings that bound agents (person-policy.ts reads them). */
export interface ScopePolicy {
  allowed: readonly string[];
  blocked: readonly string[];
  /** Folders (file: URLs) whose files agents may read. */
  localFolders: readonly string[];
}

export type ScopeReason = 'privileged_page' | 'local_file' | 'domain_policy';

/** null: in scope. Otherwise why not, in words that complete "<url> is out of reach: ...". */
export type ScopeVerdict = { reason: ScopeReason; why: string } | null;

/**
 * Pages the Chrome Web Store serves: no extension may script them (Chrome refuses), so an agent
 * handed one could do nothing there; judged out of scope with the pages Chrome itself owns.
 */
const CHROME_ERROR_PAGE = 'chrome-error://chromewebdata/';
const STORE_HOSTS = ['chromewebstore.google.com'];
const STORE_PREFIX = 'https://chrome.google.com/webstore';

/** Why the person's site lists forbid this host, or null. */
export function siteVerdict(host: string, p: ScopePolicy): string | null {
  const b = p.blocked.find((pattern) => hostMatches(host, pattern));
  if (b) return `${host} is on the person's blocked sites (${b})`;
  if (p.allowed.length && !p.allowed.some((pattern) => hostMatches(host, pattern)))
    return `${host} is not on the person's allowed sites (${p.allowed.join(', ')})`;
  return null;
}

/** Whether an agent may reach this URL (show it in a tab or frame it holds, load or fetch it). */
export function scopeOf(url: string, p: ScopePolicy): ScopeVerdict {
  // A frame or tab that has not committed a document yet shows nothing; it is judged when it does.
  if (url === '') return null;
  if (url.startsWith(CHROME_ERROR_PAGE)) return null;
  if (isLocalUrl(url)) {
    const v = localVerdict(url, p.localFolders);
    return v.local && !v.allowed ? { reason: 'local_file', why: v.why } : null;
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { reason: 'privileged_page', why: 'it is not a URL agents may open (write a full http:// or https:// address)' };
  }
  switch (u.protocol) {
    case 'http:':
    case 'https:': {
      const host = u.hostname.toLowerCase();
      if (STORE_HOSTS.includes(host) || url.startsWith(STORE_PREFIX))
        return { reason: 'privileged_page', why: 'Chrome lets no extension act on the Chrome Web Store' };
      const why = siteVerdict(host, p);
      return why ? { reason: 'domain_policy', why } : null;
    }
    case 'about:':
      return u.pathname === 'blank' || u.pathname === 'srcdoc'
        ? null
        : { reason: 'privileged_page', why: `${u.protocol}${u.pathname} is one of Chrome's own pages, which agents never reach` };
    case 'data:':
      return null;
    case 'blob:': {
      // blob:https://a.example/uuid names the origin that made it; the local forms were judged above.
      const inner = url.slice('blob:'.length);
      return /^https?:\/\//i.test(inner)
        ? scopeOf(inner, p)
        : { reason: 'privileged_page', why: 'it is a blob of a page agents may not reach' };
    }
    default:
      return { reason: 'privileged_page', why: privilegedWhy(u.protocol) };
  }
}

function privilegedWhy(scheme: string): string {
  switch (scheme) {
    case 'chrome-extension:':
      return "extension pages run with the extension's own permissions (every tab, every cookie, its settings), and no agent reaches them";
    case 'chrome:':
    case 'chrome-untrusted:':
    case 'edge:':
    case 'brave:':
      return "it is one of the browser's own pages (settings, history, passwords), which agents never reach";
    case 'devtools:':
      return 'it is a DevTools page, which agents never reach';
    case 'view-source:':
      return 'view-source: pages are not pages agents may open (open the page itself)';
    case 'javascript:':
      return 'javascript: URLs are script, not a page (run script with Runtime.evaluate or the evaluate action)';
    default:
      return `${scheme} URLs are not pages agents may open (agents reach http, https, about:blank, data and allowed local files)`;
  }
}

/** Extension pages (ours and others'), which are never an agent's tab, never listed to agents and never "the active tab". */
export function isExtensionPage(url: string | undefined): boolean {
  return /^\s*(chrome-extension|moz-extension|extension|devtools):/i.test(url ?? '');
}
