// The browser-level methods the endpoint answers itself, over the tabs this client holds: one entry
// per method (its keys are exactly EMULATED_BROWSER_METHODS of browser-methods.ts, which documents
// each; a unit test holds them equal), anything refused answers its reason from
// REFUSED_BROWSER_METHODS, and anything else Chrome's own "'X' wasn't found". Playwright's
// dispatchers answer a channel's methods from such a table (one handler per method, no switch).
import { REFUSED_BROWSER_METHODS } from './browser-methods';
import {
  type CdpCommand,
  type CdpError,
  filterAccepts,
  methodNotFound,
  NO_SESSION_GIVEN,
  NO_TARGET,
  notFlat,
  paramsOf,
  parseFilter,
  refused,
  SERVER_ERROR,
  type TargetInfo,
} from './cdp-protocol';
import type { Scope } from './cdp-sessions';
import type { Answer, BrowserHost } from './session-host';

type BrowserMethod = (host: BrowserHost, scope: Scope, c: CdpCommand) => Answer | Promise<Answer>;

const ok = (result: object = {}): Answer => ({ result });
const err = (error: CdpError): Answer => ({ error });
const wrongContext = (ctx: unknown): Answer => err({ code: SERVER_ERROR, message: `Failed to find browser context for id ${String(ctx)}` });

export const BROWSER_METHODS: Readonly<Record<string, BrowserMethod>> = {
  'Browser.getVersion': async (host) => {
    const v = await host.browserVersion();
    return ok({ protocolVersion: '1.3', product: v.product, revision: '', userAgent: v.userAgent, jsVersion: v.jsVersion });
  },

  'Target.setDiscoverTargets': (host, scope, c) => {
    const p = paramsOf(c, 'Target.setDiscoverTargets');
    if (p.discover !== true) {
      scope.discover = null;
      return ok();
    }
    const was = scope.discover;
    scope.discover = parseFilter(p.filter);
    // As Chrome: targetCreated for each target already there, before the answer.
    if (!was) {
      if (filterAccepts(scope.discover, 'browser'))
        host.out.event(scope.sessionId, 'Target.targetCreated', { targetInfo: host.browserInfo() });
      for (const tab of host.sessions.liveTabs()) host.announceTo(scope, tab);
    }
    return ok();
  },

  'Target.getTargets': (host, _scope, c) => {
    const filter = parseFilter(paramsOf(c, 'Target.getTargets').filter);
    const infos: TargetInfo[] = [];
    if (filterAccepts(filter, 'browser')) infos.push(host.browserInfo());
    for (const tab of host.sessions.liveTabs()) {
      if (filterAccepts(filter, 'tab')) infos.push(host.info(tab, 'tab'));
      if (filterAccepts(filter, 'page')) infos.push(host.info(tab, 'page'));
    }
    return ok({ targetInfos: infos });
  },

  'Target.getTargetInfo': (host, _scope, c) => {
    const targetId = paramsOf(c, 'Target.getTargetInfo').targetId;
    if (targetId === undefined || targetId === host.sessions.browserTargetId) return ok({ targetInfo: host.browserInfo() });
    const t = host.sessions.byTarget(String(targetId));
    return t ? ok({ targetInfo: host.info(t.tab, t.type) }) : err(NO_TARGET);
  },

  'Target.setAutoAttach': (host, scope, c) => {
    const p = paramsOf(c, 'Target.setAutoAttach');
    if (p.autoAttach !== true) {
      scope.autoAttach = null;
      return ok();
    }
    if (p.flatten !== true) return err(notFlat());
    scope.autoAttach = parseFilter(p.filter);
    for (const tab of host.sessions.liveTabs()) host.autoAttach(scope, tab);
    return ok();
  },

  'Target.attachToTarget': (host, _scope, c) => {
    const p = paramsOf(c, 'Target.attachToTarget');
    if (p.flatten !== true) return err(notFlat());
    const targetId = String(p.targetId);
    if (targetId === host.sessions.browserTargetId) return ok({ sessionId: host.attachBrowser(c.sessionId) });
    const t = host.sessions.byTarget(targetId);
    return t ? ok({ sessionId: host.attachSession(t.tab, t.type, c.sessionId).id }) : err(NO_TARGET);
  },

  'Target.attachToBrowserTarget': (host, _scope, c) => ok({ sessionId: host.attachBrowser(c.sessionId) }),

  'Target.detachFromTarget': (host, _scope, c) => {
    const p = paramsOf(c, 'Target.detachFromTarget');
    let s = typeof p.sessionId === 'string' ? host.sessions.session(p.sessionId) : undefined;
    if (!s && typeof p.targetId === 'string') {
      const t = host.sessions.byTarget(p.targetId);
      s = t && host.sessions.sessionsUnder(c.sessionId).find((x) => x.kind !== 'browser' && x.tab === t.tab);
    }
    if (!s || s.id === '') return err(NO_SESSION_GIVEN);
    host.detachSession(s);
    return ok();
  },

  'Target.createTarget': (host, _scope, c) => host.createTarget(c),

  'Target.closeTarget': async (host, _scope, c) => {
    const t = host.sessions.byTarget(String(paramsOf(c, 'Target.closeTarget').targetId));
    if (!t) return err(NO_TARGET);
    const closed = await host.tabs.act('close_tab', { tab_id: t.tab.tabId }, { tabId: t.tab.tabId });
    if (!closed.ok) return err(closed.error);
    return { result: { success: true }, after: () => host.targetGone(t.tab) }; // detached after the answer, as Chrome
  },

  'Target.activateTarget': async (host, _scope, c) => {
    const t = host.sessions.byTarget(String(paramsOf(c, 'Target.activateTarget').targetId));
    if (!t) return err(NO_TARGET);
    const switched = await host.tabs.act('switch_tab', { tab_id: t.tab.tabId }, { tabId: t.tab.tabId });
    return switched.ok ? ok() : err(switched.error);
  },

  // Only the default context, which Chrome never lists among browserContextIds.
  'Target.getBrowserContexts': (host) => ok({ browserContextIds: [], defaultBrowserContextId: host.sessions.contextId }),

  // No DevTools window of the person's is reported (chrome-devtools-mcp then uses its own session).
  'Target.getDevToolsTarget': (host, _scope, c) =>
    host.sessions.byTarget(String(paramsOf(c, 'Target.getDevToolsTarget').targetId)) ? ok() : err(NO_TARGET),

  'Browser.setDownloadBehavior': async (host, scope, c) => {
    const p = paramsOf(c, 'Browser.setDownloadBehavior');
    if (p.browserContextId !== undefined && p.browserContextId !== host.sessions.contextId) return wrongContext(p.browserContextId);
    scope.downloadEvents = p.eventsEnabled === true;
    const refusal = await host.downloads.setBehavior(
      p,
      host.sessions.liveTabs().map((t) => t.tabId),
    );
    return refusal ? err(refusal) : ok();
  },

  'Browser.getWindowForTarget': (host, _scope, c) => {
    const t = host.sessions.byTarget(String(paramsOf(c, 'Browser.getWindowForTarget').targetId));
    return t ? host.windowOf(t.tab) : err(NO_TARGET);
  },

  'Browser.getWindowBounds': async (host, _scope, c) => {
    const windowId = paramsOf(c, 'Browser.getWindowBounds').windowId;
    const tab = host.sessions.liveTabs().find((x) => host.windowIds.get(x.tabId) === windowId);
    if (!tab) return err({ code: SERVER_ERROR, message: `Browser window not found` });
    const w = await host.windowOf(tab);
    return 'error' in w ? w : ok({ bounds: w.result.bounds });
  },

  'Storage.getCookies': (host, _scope, c) => host.cookiesOfTabs(c.params, host.sessions.liveTabs()),
};

/** The answer to a browser-level method: its table entry, its refusal, or Chrome's "not found". */
export function browserMethod(host: BrowserHost, scope: Scope, c: CdpCommand): Answer | Promise<Answer> {
  // Own keys only: a method named like Object's prototype ('constructor') is not in the table.
  const run = Object.hasOwn(BROWSER_METHODS, c.method) ? BROWSER_METHODS[c.method] : undefined;
  if (run) return run(host, scope, c);
  const why = Object.hasOwn(REFUSED_BROWSER_METHODS, c.method) ? REFUSED_BROWSER_METHODS[c.method] : undefined;
  return err(why ? refused(c.method, why) : methodNotFound(c.method));
}
