// What the CDP endpoint answers for the browser as a whole, as data: the browser-level methods it
// refuses (with the reason a client reads in the CDP error) and the ones it answers itself (with how),
// from which docs/CDP-METHODS.md is generated (scripts/cdp-methods-doc.ts). The handlers of the
// answered ones are the method table in browser-commands.ts, whose keys a unit test holds equal to
// EMULATED_BROWSER_METHODS; Chrome's error shapes are cdp-protocol.ts.

/**
 * Browser-level methods the endpoint refuses, each with why: the browser, the profile and the machine
 * are the person's; a client drives only the tabs it holds. Methods in neither this list nor the
 * emulated set answer Chrome's own "'X' wasn't found".
 */
export const REFUSED_BROWSER_METHODS: Readonly<Record<string, string>> = {
  'Browser.close':
    "the person's own browser is never closed by a client. Disconnect instead (Playwright browser.close() on a connectOverCDP browser, puppeteer browser.disconnect(), or close the WebSocket): the tabs stay open for the person.",
  'Browser.crash': "the person's own browser is never crashed by a client.",
  'Browser.crashGpuProcess': "the person's own browser is never crashed by a client.",
  'Browser.executeBrowserCommand': "browser commands act on the person's whole browser, not on a tab this client holds.",
  'Browser.setWindowBounds':
    "the person's window keeps its size and place. To change what a page sees, use Emulation.setDeviceMetricsOverride in the page's session (Playwright viewport, puppeteer page.setViewport).",
  'Browser.setContentsSize':
    "the person's window keeps its size. To change what a page sees, use Emulation.setDeviceMetricsOverride in the page's session (Playwright viewport, puppeteer page.setViewport).",
  'Browser.setDockTile': "the dock tile belongs to the person's browser.",
  'Browser.grantPermissions':
    "site permissions are the person's, for their whole profile: they grant them in Chrome's own prompt or site settings.",
  'Browser.setPermission':
    "site permissions are the person's, for their whole profile: they grant them in Chrome's own prompt or site settings.",
  'Browser.resetPermissions': "site permissions are the person's, for their whole profile: a client does not reset them.",
  'Browser.cancelDownload': "downloads belong to the person's Chrome: they cancel one in Chrome's downloads page (chrome://downloads).",
  'Browser.getBrowserCommandLine': "the command line of the person's browser is not shared with clients.",
  'Browser.getHistograms': "browser-wide telemetry of the person's browser is not shared with clients.",
  'Browser.getHistogram': "browser-wide telemetry of the person's browser is not shared with clients.",
  'Target.createBrowserContext':
    "the person's own profile is the only browser context: use the default one (Playwright: browser.contexts()[0] after connectOverCDP; puppeteer: browser.defaultBrowserContext()).",
  'Target.disposeBrowserContext': "the person's own profile is the only browser context, and a client never disposes of it.",
  'Target.sendMessageToTarget':
    'only flat sessions are relayed: attach with flatten: true and send commands with their sessionId (every current client does).',
  'Target.exposeDevToolsProtocol': "the DevTools protocol is never exposed to the person's pages.",
  'Target.openDevTools': "DevTools windows in the person's browser are theirs to open.",
  'Target.setRemoteLocations': 'remote target discovery is not relayed; every tab this client holds is reported already.',
  'Storage.setCookies':
    "browser-level cookies are the person's whole profile; set cookies for a tab you hold in its page session (Network.setCookie), which the person's policy checks.",
  'Storage.clearCookies': "browser-level cookies are the person's whole profile: a client never clears them.",
  'Security.setIgnoreCertificateErrors': "certificate checks of the person's whole browser stay on.",
  'Tracing.start':
    "browser-wide tracing would record every tab of the person's browser: start Tracing in the page session of a tab you hold.",
  'SystemInfo.getInfo': "details of the person's machine (GPU, drivers, command line) are not shared with clients.",
  'SystemInfo.getFeatureState': "details of the person's machine are not shared with clients.",
  'SystemInfo.getProcessInfo': "the processes of the person's browser are not shared with clients.",
  'Extensions.loadUnpacked': "the person's extensions are theirs to install.",
  'Extensions.uninstall': "the person's extensions are theirs to remove.",
  'Extensions.getExtensions': "the person's extensions are not listed to clients.",
  'Extensions.triggerAction': "the person's extensions are theirs to use.",
};

/**
 * Browser-level methods the endpoint answers itself, over the tabs this client holds, each with how
 * (for the docs). In a page session, Target.getTargetInfo of the page itself and the browser-wide
 * Target methods are answered the same way; every other page-session command goes to the tab.
 */
export const EMULATED_BROWSER_METHODS: Readonly<Record<string, string>> = {
  'Browser.getVersion':
    'protocolVersion 1.3; product, userAgent and jsVersion from the first tab (navigator.userAgent; jsVersion is the V8 that ships with that Chrome); revision empty.',
  'Browser.setDownloadBehavior':
    "accepted; sent to each tab as Page.setDownloadBehavior with the bridge's downloads folder (Chrome refuses that to extensions, and then downloads land in the person's own Downloads folder). Browser.downloadWillBegin / downloadProgress come from the tabs, with filePath when the file was found.",
  'Browser.getWindowForTarget': 'a window id per tab and the bounds the page reports (screenX/Y, outerWidth/Height).',
  'Browser.getWindowBounds': 'the bounds the page of that window reports.',
  'Target.setDiscoverTargets':
    "targetCreated for every target the filter takes (the browser, each held tab's tab and page targets), then for new ones.",
  'Target.getTargets': "the browser, tab and page targets the filter takes (Chrome's default filter: pages).",
  'Target.getTargetInfo': 'the browser target without targetId, else the tab or page target.',
  'Target.setAutoAttach':
    'flat sessions only: attachedToTarget with a new sessionId for each held tab (its page, or its tab target when the filter asks for tabs, as puppeteer does), waitingForDebugger false.',
  'Target.attachToTarget': 'flat only: a new session on a held page or tab target, announced before the answer.',
  'Target.attachToBrowserTarget': 'a browser-level session with its own discovery and auto-attach.',
  'Target.detachFromTarget': 'ends a session this client opened (a tab session takes its page session with it).',
  'Target.createTarget':
    "open_tab (the person's domain policy decides; its refusal is the CDP error), then cdp_attach; targetCreated and attachedToTarget come before the answer. " +
    "The client's first page opens a window of its own without focus, later pages join it (newWindow: a new one): own-window.ts.",
  'Target.closeTarget': 'close_tab; then detachedFromTarget and targetDestroyed.',
  'Target.activateTarget': 'switch_tab.',
  'Target.getBrowserContexts': "browserContextIds [] and defaultBrowserContextId: the person's profile is the only context.",
  'Target.getDevToolsTarget': 'no DevTools target (chrome-devtools-mcp then keeps to its own session) for a held page.',
  'Storage.getCookies':
    "the cookies of the held tabs' pages (Network.getCookies in each, which the person's policy checks), never the whole profile's.",
};

/**
 * Chrome/<version> and the V8 version that ships with it, from a tab's navigator.userAgent, or from the
 * full version the page's userAgentData gives (the user agent string says <major>.0.0.0 nowadays).
 */
export function versionFromUserAgent(userAgent: string, fullVersion: string | null = null): { product: string; jsVersion: string } | null {
  const m = /(?:Chrome|Chromium|HeadlessChrome)\/(\d+)\.(\d+)\.(\d+)\.(\d+)/.exec(userAgent);
  if (!m) return null;
  const major = Number(m[1]);
  const version =
    fullVersion !== null && fullVersion.startsWith(`${m[1]}.`) && /^\d+\.\d+\.\d+\.\d+$/.test(fullVersion)
      ? fullVersion
      : `${m[1]}.${m[2]}.${m[3]}.${m[4]}`;
  // V8 majors follow Chrome's (Chrome 131 ships V8 13.1): the page cannot tell the exact build.
  return { product: `Chrome/${version}`, jsVersion: `${Math.floor(major / 10)}.${major % 10}` };
}
