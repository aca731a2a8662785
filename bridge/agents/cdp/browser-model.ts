// The browser as one CDP client sees it, emulated over the tabs its agent session holds: the targets
// (each held tab is a tab target and a page target, as in Chrome), the client's sessions on them, the
// child sessions inside them (child-sessions.ts), downloads, and what Target.* / Browser.* answer
// (the method table, browser-commands.ts). Sessions are objects that handle their own commands
// (page-session.ts, tab-session.ts, browser-session.ts, child-alias.ts), as puppeteer's CDPSession and
// Playwright's crConnection sessions are; this model makes them and tells the client what changed.
// Everything it writes goes through the CdpWriter; everything it sends to a tab through the TabChannel.
import type { Protocol } from 'devtools-protocol';

import { type AgentClient, BridgeClientError } from '../../client/agent-client';
import type { Logger } from '../../common/log';
import { browserMethod } from './browser-commands';
import { versionFromUserAgent } from './browser-methods';
import { CdpBrowserSession } from './browser-session';
import {
  type CdpCommand,
  type CdpError,
  filterAccepts,
  isObject,
  methodNotFound,
  objectOf,
  type Params,
  paramsOf,
  SERVER_ERROR,
  STOPPED_MESSAGE,
  type TargetInfo,
} from './cdp-protocol';
import { CdpSessions, type ClientSession, mintId, type PageSession, type Scope, type TabTarget } from './cdp-sessions';
import type { CdpWriter } from './cdp-writer';
import { CdpChildAlias } from './child-alias';
import { ChildSessions } from './child-sessions';
import { Downloads } from './downloads';
import { CdpPageSession } from './page-session';
import type { Answer, BrowserHost } from './session-host';
import { CDP_CALL_TIMEOUT_MS, OWN_CALL_TIMEOUT_MS, TabChannel } from './tab-channel';
import { CdpTabSession } from './tab-session';

/** open_tab waits for the page to load; a slow page still gets its target. */
const OPEN_TAB_TIMEOUT_MS = 60_000;
const METHOD_RE = /^[A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*$/;
/** Until a tab tells the real one (no tab attached yet). */
const FALLBACK_VERSION = { product: 'Chrome/0.0.0.0', jsVersion: '0.0', userAgent: 'Mozilla/5.0 (browser-use-ext: no tab attached yet)' };

/**
 * The tab's user agent, and Chrome's full version where the page may ask for it: navigator.userAgent
 * says Chrome/<major>.0.0.0 since Chrome's user-agent reduction.
 */
const USER_AGENT_EXPRESSION = `(async () => {
  let fullVersion = null;
  try {
    const h = await navigator.userAgentData?.getHighEntropyValues(['fullVersionList']);
    fullVersion = h?.fullVersionList?.find((b) => /Chrom/.test(b.brand))?.version ?? null;
  } catch {}
  return { userAgent: navigator.userAgent, fullVersion };
})()`;

export interface BrowserModelOptions {
  out: CdpWriter;
  /** The agent session whose tabs this client drives (its calls go through the TabChannel). */
  agent: AgentClient;
  log: Logger;
  downloadsDir: string;
}

export class BrowserModel implements BrowserHost {
  readonly out: CdpWriter;
  readonly tabs: TabChannel;
  readonly sessions = new CdpSessions();
  readonly children: ChildSessions = new ChildSessions((alias, child, owner) => new CdpChildAlias(this, alias, child, owner));
  readonly downloads: Downloads;
  readonly windowIds = new Map<number, number>();
  /** The connection's own browser-level session (commands without sessionId on the browser endpoint). */
  readonly root: CdpBrowserSession;
  /** Set when the session ended for good: the answer to every later command. */
  ended: string | null = null;
  /** Page endpoint: the page session commands without sessionId go to (id ''), or why there is none. */
  pageRoot: PageSession | null = null;
  pageRootMissing: string | null = null;
  private readonly titleTimers = new Map<number, ReturnType<typeof setTimeout>>();
  private version: { product: string; jsVersion: string; userAgent: string } | null = null;

  constructor(private readonly o: BrowserModelOptions) {
    this.out = o.out;
    this.tabs = new TabChannel(o.agent, (e) => this.rejection(e));
    this.root = new CdpBrowserSession(this, '', this.sessions.root);
    this.downloads = new Downloads({
      downloadsDir: o.downloadsDir,
      log: o.log,
      send: (tabId, method, params) => this.tabs.request(tabId, method, params),
    });
  }

  /** The page endpoint's own session on this tab (commands without sessionId). */
  setPageRoot(tab: TabTarget): void {
    this.pageRoot = new CdpPageSession(this, '', tab, undefined);
    this.sessions.addSession(this.pageRoot);
  }

  dispose(): void {
    for (const t of this.titleTimers.values()) clearTimeout(t);
    this.titleTimers.clear();
  }

  // --- commands ------------------------------------------------------------------------------

  /**
   * The hot path: one command to the tab, answered from the call's own .then (no await chain),
   * Chrome's error passed through exactly.
   */
  forward(tabId: number, c: CdpCommand, childSession: string | undefined): void {
    if (!METHOD_RE.test(c.method)) return this.out.fail(c.id, c.sessionId, methodNotFound(c.method));
    this.tabs.sendToTab({ tabId, sessionId: childSession, method: c.method, params: c.params, timeoutMs: CDP_CALL_TIMEOUT_MS }, (a) => {
      if (!a.ok) return this.out.fail(c.id, c.sessionId, a.error);
      if (a.result) return this.out.reply(c, a.result);
      this.out.fail(c.id, c.sessionId, {
        code: SERVER_ERROR,
        message: 'The extension answered without a result; the command may not have run.',
      });
    });
  }

  browserCommand(scope: Scope, c: CdpCommand): void {
    void this.runBrowserCommand(scope, c);
  }

  private async runBrowserCommand(scope: Scope, c: CdpCommand): Promise<void> {
    try {
      const answer = await browserMethod(this, scope, c);
      if ('error' in answer) return this.out.fail(c.id, c.sessionId, answer.error);
      this.out.reply(c, answer.result);
      answer.after?.();
    } catch (e) {
      this.out.fail(c.id, c.sessionId, this.rejection(e));
    }
  }

  /** A rejected call: the person's Stop ends the session; anything else is a server error with its message. */
  rejection(e: unknown): CdpError {
    if (e instanceof BridgeClientError && e.code === 'NOT_PERMITTED') this.end(STOPPED_MESSAGE);
    if (this.ended !== null) return { code: SERVER_ERROR, message: this.ended };
    return { code: SERVER_ERROR, message: e instanceof Error ? e.message : String(e) };
  }

  /** The person's Stop (or the session ended for good): pages detached and destroyed, later commands refused. */
  end(message: string): void {
    if (this.ended !== null) return;
    this.ended = message;
    this.o.log.info('cdp: the session ended; the client is told its pages are gone', { session: this.o.agent.sessionId });
    for (const tab of this.sessions.liveTabs()) this.targetGone(tab);
  }

  // --- targets and sessions ------------------------------------------------------------------

  /** cdp_attach (the named tab, or the person's active one): the tab becomes this client's target. */
  async attachTab(tabId: number | undefined): Promise<{ ok: true; tab: TabTarget } | { ok: false; error: CdpError }> {
    const r = await this.tabs.act(
      'cdp_attach',
      {},
      tabId === undefined ? { timeoutMs: OWN_CALL_TIMEOUT_MS } : { tabId, timeoutMs: OWN_CALL_TIMEOUT_MS },
    );
    if (!r.ok) return r;
    const { tab_id, target_id, url, title } = r.result as { tab_id?: unknown; target_id?: unknown; url?: unknown; title?: unknown };
    if (typeof tab_id !== 'number' || typeof target_id !== 'string')
      return { ok: false, error: { code: SERVER_ERROR, message: 'The extension attached a tab but did not say which.' } };
    const tab = this.sessions.addTab(tab_id, target_id, typeof url === 'string' ? url : '', typeof title === 'string' ? title : '');
    if (!this.windowIds.has(tab_id)) this.windowIds.set(tab_id, this.windowIds.size + 1);
    await this.downloads.applyTo(tab_id);
    return { ok: true, tab };
  }

  /** open_tab (the person's policy decides), then cdp_attach; the client hears of it before the answer. */
  async createTarget(c: CdpCommand): Promise<Answer> {
    const p = paramsOf(c, 'Target.createTarget');
    if (p.browserContextId !== undefined && p.browserContextId !== this.sessions.contextId)
      return { error: { code: SERVER_ERROR, message: `Failed to find browser context with id ${String(p.browserContextId)}` } };
    const params: { url?: string; active?: boolean } = {};
    if (typeof p.url === 'string' && p.url !== '' && p.url !== 'about:blank') params.url = p.url;
    if (p.background === true) params.active = false;
    const opened = await this.tabs.act('open_tab', params, { timeoutMs: OPEN_TAB_TIMEOUT_MS });
    if (!opened.ok) return { error: opened.error };
    const tabId = (opened.result as { tab_id?: unknown }).tab_id;
    if (typeof tabId !== 'number') return { error: { code: SERVER_ERROR, message: 'The extension opened a tab but did not say which.' } };
    const attached = await this.attachTab(tabId);
    if (!attached.ok)
      return {
        error: {
          code: SERVER_ERROR,
          message: `The tab opened (tab ${tabId}) but cannot be debugged: ${attached.error.message} It stays open for the person.`,
        },
      };
    this.announce(attached.tab);
    return { result: { targetId: attached.tab.targetId } };
  }

  /** A new tab to every scope: targetCreated where discovering, attachedToTarget where auto-attaching. */
  announce(tab: TabTarget): void {
    // Chrome's order: the tab target (created, then attached where auto-attach takes tabs), then its page.
    for (const type of ['tab', 'page'] as const)
      for (const scope of this.sessions.scopes()) {
        if (scope.discover && filterAccepts(scope.discover, type))
          this.out.event(scope.sessionId, 'Target.targetCreated', { targetInfo: this.info(tab, type) });
        if (autoAttachType(scope) === type) this.autoAttach(scope, tab);
      }
  }

  announceTo(scope: Scope, tab: TabTarget): void {
    if (!scope.discover) return;
    for (const type of ['tab', 'page'] as const)
      if (filterAccepts(scope.discover, type))
        this.out.event(scope.sessionId, 'Target.targetCreated', { targetInfo: this.info(tab, type) });
  }

  autoAttach(scope: Scope, tab: TabTarget): void {
    const type = autoAttachType(scope);
    if (!type) return;
    if (this.sessions.sessionsUnder(scope.sessionId).some((s) => s.kind === type && s.tab === tab)) return;
    this.attachSession(tab, type, scope.sessionId);
  }

  attachSession(tab: TabTarget, type: 'page' | 'tab', parent: string | undefined): ClientSession {
    const s = type === 'page' ? new CdpPageSession(this, mintId(), tab, parent) : this.tabSession(tab, parent);
    const wasAttached = this.sessions.isAttached(type === 'page' ? tab.targetId : tab.tabTargetId);
    this.sessions.addSession(s);
    // As Chrome: discovering clients see the target become attached, then the attach itself.
    if (!wasAttached) this.infoChanged(tab, type);
    this.out.event(parent, 'Target.attachedToTarget', { sessionId: s.id, targetInfo: this.info(tab, type), waitingForDebugger: false });
    return s;
  }

  private tabSession(tab: TabTarget, parent: string | undefined): CdpTabSession {
    return new CdpTabSession(this, mintId(), tab, parent, (t, under) => {
      const page = new CdpPageSession(this, mintId(), t, under);
      this.sessions.addSession(page);
      return page.id;
    });
  }

  attachBrowser(parent: string | undefined): string {
    const id = mintId();
    this.sessions.addSession(new CdpBrowserSession(this, id, { sessionId: id, discover: null, autoAttach: null, downloadEvents: false }));
    this.out.event(parent, 'Target.attachedToTarget', { sessionId: id, targetInfo: this.browserInfo(), waitingForDebugger: false });
    return id;
  }

  detachSession(s: ClientSession): void {
    if (s.kind === 'tab' && s.page !== null) {
      const page = this.sessions.session(s.page);
      if (page) this.detachSession(page);
    }
    this.sessions.removeSession(s.id);
    if (s.kind === 'page') this.children.removeOwner(s);
    if (s.kind === 'browser')
      return this.out.event(undefined, 'Target.detachedFromTarget', { sessionId: s.id, targetId: this.sessions.browserTargetId });
    this.out.event(s.parent, 'Target.detachedFromTarget', {
      sessionId: s.id,
      targetId: s.kind === 'page' ? s.tab.targetId : s.tab.tabTargetId,
    });
  }

  /** The tab closed, was released or lost its debugger: every client session of it is detached, then the targets destroyed. */
  targetGone(tab: TabTarget): void {
    if (tab.gone) return;
    const timer = this.titleTimers.get(tab.tabId);
    if (timer) clearTimeout(timer);
    this.titleTimers.delete(tab.tabId);
    const sessions = this.sessions.removeTab(tab.tabId);
    this.children.removeTab(tab.tabId);
    if (this.pageRoot?.tab === tab) {
      this.pageRootMissing = `Target ${tab.targetId} is gone (closed, released by the person, or its debugger detached).`;
      this.pageRoot = null;
      this.out.eventJson(undefined, 'Inspector.detached', JSON.stringify({ reason: 'target_closed' }));
    }
    // Pages first: a page's parent may be one of the tab sessions that follow (puppeteer waits for the tab's).
    for (const type of ['page', 'tab'] as const) {
      const targetId = type === 'page' ? tab.targetId : tab.tabTargetId;
      for (const s of sessions)
        if (s.kind === type && s.id !== '') this.out.event(s.parent, 'Target.detachedFromTarget', { sessionId: s.id, targetId });
      for (const scope of this.sessions.scopes())
        if (scope.discover && filterAccepts(scope.discover, type)) this.out.event(scope.sessionId, 'Target.targetDestroyed', { targetId });
    }
  }

  // --- what the client is told of targets --------------------------------------------------------

  info(tab: TabTarget, type: 'tab' | 'page'): TargetInfo {
    const targetId = type === 'page' ? tab.targetId : tab.tabTargetId;
    return {
      targetId,
      type,
      title: tab.title,
      url: tab.url,
      attached: this.sessions.isAttached(targetId),
      canAccessOpener: false,
      browserContextId: this.sessions.contextId,
    };
  }

  browserInfo(): TargetInfo {
    return { targetId: this.sessions.browserTargetId, type: 'browser', title: '', url: '', attached: true, canAccessOpener: false };
  }

  setInfo(tab: TabTarget, url: string, title: string): void {
    if (tab.url === url && tab.title === title) return;
    tab.url = url;
    tab.title = title;
    this.infoChanged(tab, 'tab');
    this.infoChanged(tab, 'page');
  }

  /** Target.targetInfoChanged to every scope discovering that type of target. */
  private infoChanged(tab: TabTarget, type: 'tab' | 'page'): void {
    for (const scope of this.sessions.scopes())
      if (scope.discover && filterAccepts(scope.discover, type))
        this.out.event(scope.sessionId, 'Target.targetInfoChanged', { targetInfo: this.info(tab, type) });
  }

  /** The page's title after a load (the Page domain has no title event). */
  refreshTitleSoon(tab: TabTarget): void {
    if (this.titleTimers.has(tab.tabId)) return;
    const timer = setTimeout(() => {
      this.titleTimers.delete(tab.tabId);
      void this.tabs.request(tab.tabId, 'Runtime.evaluate', { expression: 'document.title', returnByValue: true }).then((r) => {
        const value = r.ok ? evaluatedValue(r.result) : undefined;
        // Kept for Target.getTargets and /json/list, as Chrome's own list has it; no event (see event-router.ts).
        if (typeof value === 'string' && value !== '' && !tab.gone) tab.title = value;
      });
    }, 50);
    timer.unref?.();
    this.titleTimers.set(tab.tabId, timer);
  }

  // --- answers made from a tab -------------------------------------------------------------------

  async browserVersion(): Promise<{ product: string; jsVersion: string; userAgent: string }> {
    if (this.version) return this.version;
    const tab = this.sessions.liveTabs()[0];
    if (!tab) return FALLBACK_VERSION;
    const r = await this.tabs.request(tab.tabId, 'Runtime.evaluate', {
      expression: USER_AGENT_EXPRESSION,
      awaitPromise: true,
      returnByValue: true,
    });
    const value = objectOf<{ userAgent: string; fullVersion: string }>(r.ok ? evaluatedValue(r.result) : undefined);
    const ua = value.userAgent;
    const v = typeof ua === 'string' ? versionFromUserAgent(ua, typeof value.fullVersion === 'string' ? value.fullVersion : null) : null;
    if (typeof ua !== 'string' || !v) return FALLBACK_VERSION;
    this.version = { ...v, userAgent: ua };
    return this.version;
  }

  /** The window of a tab as the page sees it (screenX/Y, outer size): the bridge has no window API. */
  async windowOf(tab: TabTarget): Promise<{ result: Protocol.Browser.GetWindowForTargetResponse } | { error: CdpError }> {
    const r = await this.tabs.request(tab.tabId, 'Runtime.evaluate', {
      expression: '({left: screenX, top: screenY, width: outerWidth, height: outerHeight})',
      returnByValue: true,
    });
    if (!r.ok) return { error: r.error };
    const v = evaluatedValue(r.result);
    if (!isObject(v)) return { error: { code: SERVER_ERROR, message: 'The page did not report its window.' } };
    const bounds = { ...v, windowState: 'normal' } as Protocol.Browser.Bounds;
    return { result: { windowId: this.windowIds.get(tab.tabId) ?? 0, bounds } };
  }

  /**
   * Storage.getCookies: the cookies of the pages this client holds (Network.getCookies in each tab,
   * which the person's policy checks), never the whole profile's; in a page session, that page's.
   */
  async cookiesOfTabs(p: Params, tabs: TabTarget[]): Promise<Answer> {
    const ctx = objectOf<Protocol.Storage.GetCookiesRequest>(p).browserContextId;
    if (ctx !== undefined && ctx !== this.sessions.contextId)
      return { error: { code: SERVER_ERROR, message: `Failed to find browser context for id ${String(ctx)}` } };
    const seen = new Map<string, unknown>();
    for (const tab of tabs) {
      const r = await this.tabs.request(tab.tabId, 'Network.getCookies', {});
      if (!r.ok) return { error: r.error };
      const cookies = objectOf<Protocol.Network.GetCookiesResponse>(r.result).cookies;
      if (!Array.isArray(cookies)) continue;
      for (const c of cookies as unknown[]) {
        if (!isObject(c)) continue;
        const k = objectOf<Protocol.Network.Cookie>(c);
        seen.set(`${String(k.name)}\u0000${String(k.domain)}\u0000${String(k.path)}\u0000${JSON.stringify(k.partitionKey ?? null)}`, c);
      }
    }
    return { result: { cookies: [...seen.values()] } };
  }
}

/** Runtime.evaluate's value (returnByValue), when the answer has one. */
function evaluatedValue(result: Params): unknown {
  return objectOf<Protocol.Runtime.RemoteObject>(objectOf<Protocol.Runtime.EvaluateResponse>(result).result).value;
}

/** What a scope's auto-attach takes: pages, or tab targets when its filter leaves pages out (puppeteer). */
function autoAttachType(scope: Scope): 'page' | 'tab' | null {
  if (!scope.autoAttach) return null;
  return filterAccepts(scope.autoAttach, 'page') ? 'page' : filterAccepts(scope.autoAttach, 'tab') ? 'tab' : null;
}
