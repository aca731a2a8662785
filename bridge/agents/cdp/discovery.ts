// The HTTP side of the CDP endpoint, shaped like Chrome's own DevTools HTTP server
// (https://chromedevtools.github.io/devtools-protocol/#endpoints) so a client given
// http://127.0.0.1:PORT/cdp/<token> finds its WebSocket exactly as it would with
// --remote-debugging-port: Playwright's connectOverCDP reads <url>/json/version/, browser_use reads
// <url>/json/version. Same field names; every URL it hands out keeps the /cdp/<token> prefix and the
// Host the client used (which passed the loopback Host check).

/** What the path after /cdp/<token> asks for. */
export type CdpRoute =
  | { kind: 'version' }
  | { kind: 'list' }
  /** /json/new, /json/close/<id>, /json/activate/<id>: tab changes go over the WebSocket instead. */
  | { kind: 'tab-change'; what: 'new' | 'close' | 'activate' }
  | { kind: 'protocol' }
  | { kind: 'browser-ws' }
  | { kind: 'page-ws'; targetId: string }
  | { kind: 'unknown' };

/** Splits "/cdp/<token>/rest?query" into the token and the rest (without query); null if not under the prefix. */
export function splitCdpPath(url: string | undefined, prefix: string): { token: string; rest: string } | null {
  const p = (url ?? '').split('?')[0] ?? '';
  if (!p.startsWith(prefix)) return null;
  const after = p.slice(prefix.length);
  const slash = after.indexOf('/');
  return slash < 0 ? { token: after, rest: '' } : { token: after.slice(0, slash), rest: after.slice(slash) };
}

/** Chrome's target ids are 32 hex digits; allow any plain id a client may have been given. */
const TARGET_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function routeOf(rest: string): CdpRoute {
  const r = rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
  if (r === '/json/version') return { kind: 'version' };
  if (r === '/json' || r === '/json/list') return { kind: 'list' };
  if (r === '/json/protocol') return { kind: 'protocol' };
  const change = /^\/json\/(new|close|activate)(?:\/.*)?$/.exec(r);
  if (change) return { kind: 'tab-change', what: change[1] as 'new' | 'close' | 'activate' };
  // Any browser id is accepted (Chrome's is a per-run UUID; ours needs none): /devtools/browser[/<id>].
  if (/^\/devtools\/browser(?:\/[A-Za-z0-9._-]{0,128})?$/.test(r)) return { kind: 'browser-ws' };
  const page = /^\/devtools\/page\/(.+)$/.exec(r);
  if (page?.[1] !== undefined && TARGET_ID.test(page[1])) return { kind: 'page-ws', targetId: page[1] };
  return { kind: 'unknown' };
}

/** Browser.getVersion's result, which /json/version mirrors. */
export interface BrowserVersion {
  product: string;
  protocolVersion: string;
  userAgent: string;
  jsVersion: string;
  revision: string;
}

/**
 * What /json/version says before any client has asked the browser itself (Browser.getVersion over
 * the WebSocket, whose answer is remembered): the bridge does not know the person's Chrome version
 * until a tab is attached. The same placeholder as the emulator's Browser.getVersion answers then, so
 * both say the same. Clients read only webSocketDebuggerUrl from /json/version.
 */
export const UNKNOWN_BROWSER: BrowserVersion = {
  product: 'Chrome/0.0.0.0',
  protocolVersion: '1.3',
  userAgent: 'Mozilla/5.0 (browser-use-ext: no tab attached yet)',
  jsVersion: '0.0',
  revision: '',
};

/**
 * /json/version from what the extension said of its browser at hello (hello.browser): Browser and
 * User-Agent exactly as Chrome gives them; V8-Version from the major (V8 13.1 ships in Chrome 131; the
 * build is not visible to an extension) and WebKit-Version from the user agent's AppleWebKit token.
 */
export function versionOfBrowser(b: { product: string; user_agent: string } | undefined): BrowserVersion | null {
  if (!b) return null;
  const major = /\/(\d+)\./.exec(b.product)?.[1];
  return {
    product: b.product,
    protocolVersion: '1.3',
    userAgent: b.user_agent,
    jsVersion: major === undefined ? '' : `${Math.floor(Number(major) / 10)}.${Number(major) % 10}`,
    revision: /AppleWebKit\/([\d.]+)/.exec(b.user_agent)?.[1] ?? '',
  };
}

export function versionBody(base: string, browserId: string, v: BrowserVersion): Record<string, string> {
  return {
    Browser: v.product,
    'Protocol-Version': v.protocolVersion,
    'User-Agent': v.userAgent,
    'V8-Version': v.jsVersion,
    'WebKit-Version': v.revision,
    webSocketDebuggerUrl: `${base}/devtools/browser/${browserId}`,
  };
}

export interface ListedTarget {
  targetId: string;
  url: string;
  title: string;
}

/**
 * /json/list: only this client's leased tabs. Chrome also gives devtoolsFrontendUrl (a DevTools
 * front end page); it is left out because that page would connect with an Origin header, which the
 * endpoint refuses, so offering it would only promise something that fails.
 */
export function listBody(base: string, targets: readonly ListedTarget[]): Record<string, string>[] {
  return targets.map((t) => ({
    description: '',
    id: t.targetId,
    title: t.title,
    type: 'page',
    url: t.url,
    webSocketDebuggerUrl: `${base}/devtools/page/${t.targetId}`,
  }));
}

/** ws://<Host>/cdp/<token>: the base of every WebSocket URL handed out. */
export const wsBase = (host: string, prefix: string, token: string): string => `ws://${host}${prefix}${token}`;

export function tabChangeMessage(what: 'new' | 'close' | 'activate'): string {
  const command = what === 'new' ? 'Target.createTarget' : what === 'close' ? 'Target.closeTarget' : 'Target.activateTarget';
  return (
    `/json/${what} is not served by the browser-use-ext CDP endpoint: tabs are opened, closed and switched through its WebSocket ` +
    `(${command}), so the tab limit, the tab group and the person's Stop apply to them. Connect to webSocketDebuggerUrl from /json/version and send ${command}.`
  );
}
