// The browser as one CDP client sees it, emulated over the tabs its agent session holds: the targets
// (each held tab is a tab target and a page target, as in Chrome), the client's sessions on them, the
// child sessions inside them (child-sessions.ts), downloads, and what Target.* / Browser.* answer
// (the method table, browser-commands.ts). Sessions are objects that handle their own commands
// (page-session.ts, tab-session.ts, browser-session.ts, child-alias.ts), as puppeteer's CDPSession and
// Playwright's crConnection sessions are; this model makes them and tells the client what changed.
// Everything it writes goes through the CdpWriter; everything it sends to a tab through the TabChannel.
import type { Protocol } from 'devtools-protocol';

import type { ActionParams, ActionResultOf } from '../../../schemas/generated/registry';
import { type AgentClient, BridgeClientError } from '../../client/agent-client';
import type { Logger } from '../../common/log';
import { browserMethod } from './browser-commands';
import { CdpBrowserSession } from './browser-session';
import {
  type CdpCommand,
  type CdpError,
  filterAccepts,
  methodNotFound,
  type Params,
  paramsOf,
  SERVER_ERROR,
  STOPPED_MESSAGE,
  type TargetInfo,
  type Untrusted,
} from './cdp-protocol';
import { CdpSessions, type ClientSession, mintId, type PageSession, type Scope, type TabTarget } from './cdp-sessions';
import type { CdpWriter } from './cdp-writer';
import { CdpChildAlias } from './child-alias';
import { ChildSessions } from './child-sessions';
import { DomainState } from './domain-state';
import { Downloads } from './downloads';
import { OwnWindow } from './own-window';
import { CdpPageSession } from './page-session';
import { dropPageDomains } from './session-domains';
import type { Answer, BrowserHost } from './session-host';
import { type BrowserVersionInfo, cookiesOfTabs, evaluatedValue, FALLBACK_VERSION, versionOfTab, windowOfTab } from './tab-answers';
import { CDP_CALL_TIMEOUT_MS, OWN_CALL_TIMEOUT_MS, TabChannel } from './tab-channel';
import { CdpTabSession } from './tab-session';

/** open_tab waits for the page to load; a slow page still gets its target. */
const OPEN_TAB_TIMEOUT_MS = 60_000;
const METHOD_RE = /^[A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*$/;
export interface BrowserModelOptions {
  out: CdpWriter;
  /** The agent session whose tabs this client drives (its calls go through the TabChannel). */
  agent: AgentClient;
  log: Logger;
  downloadsDir: string;
  /** The browser as the extension described it at hello (null: an extension that did not say). */
  browser?: (() => BrowserVersionInfo | null) | undefined;
}

export class BrowserModel implements BrowserHost {
  readonly out: CdpWriter;
  readonly tabs: TabChannel;
  readonly sessions = new CdpSessions();
  readonly children: ChildSessions = new ChildSessions((alias, child, owner) => new CdpChildAlias(this, alias, child, owner));
  readonly downloads: Downloads;
  readonly domains = new DomainState();
  readonly windowIds = new Map<number, number>();
  /** The window this client's pages open in (own-window.ts). */
  readonly ownWindow = new OwnWindow();
  /** The connection's own browser-level session (commands without sessionId on the browser endpoint). */
  readonly root: CdpBrowserSession;
  /** Set when the session ended for good: the answer to every later command. */
  ended: string | null = null;
  /** Page endpoint: the page session commands without sessionId go to (id ''), or why there is none. */
  pageRoot: PageSession | null = null;
  pageRootMissing: string | null = null;
  private readonly titleTimers = new Map<number, ReturnType<typeof setTimeout>>();
  private version: BrowserVersionInfo | null = null;

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
      if (a.json !== undefined) return this.out.replyJson(c, a.json);
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
    const { tab_id, target_id, url, title } = r.result as Untrusted<ActionResultOf<'cdp_attach'>>;
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
    const params: ActionParams<'open_tab'> = {};
    if (typeof p.url === 'string' && p.url !== '' && p.url !== 'about:blank') params.url = p.url;
    if (p.background === true) params.active = false;
    Object.assign(params, this.ownWindow.placement(p.newWindow === true));
    const opened = await this.tabs.act('open_tab', params, { timeoutMs: OPEN_TAB_TIMEOUT_MS });
    if (!opened.ok) return { error: opened.error };
    const { tab_id: tabId, window_id: windowId } = opened.result as Untrusted<ActionResultOf<'open_tab'>>;
    this.ownWindow.opened(windowId);
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
    if (s.kind === 'page') dropPageDomains(this, s);
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
    this.domains.forgetTab(tab.tabId);
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
      ...(type === 'page' ? tab.opener : undefined),
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

  // --- answers made from a tab (tab-answers.ts) ------------------------------------------------------

  async browserVersion(): Promise<BrowserVersionInfo> {
    // The extension's own word first (no tab needed, as Chrome answers before any page exists), then a tab's.
    this.version ??= this.o.browser?.() ?? (await versionOfTab(this.tabs, this.sessions.liveTabs()[0]));
    return this.version ?? FALLBACK_VERSION;
  }

  windowOf(tab: TabTarget): Promise<{ result: Protocol.Browser.GetWindowForTargetResponse } | { error: CdpError }> {
    return windowOfTab(this.tabs, tab, this.windowIds.get(tab.tabId) ?? 0);
  }

  cookiesOfTabs(p: Params, tabs: TabTarget[]): Promise<Answer> {
    return cookiesOfTabs(this.tabs, this.sessions.contextId, p, tabs);
  }
}

/** What a scope's auto-attach takes: pages, or tab targets when its filter leaves pages out (puppeteer). */
function autoAttachType(scope: Scope): 'page' | 'tab' | null {
  if (!scope.autoAttach) return null;
  return filterAccepts(scope.autoAttach, 'page') ? 'page' : filterAccepts(scope.autoAttach, 'tab') ? 'tab' : null;
}
