// One CDP client connection, seen by the client as a real Chrome browser endpoint (or a page endpoint),
// built on an ordinary agent session of the bridge (AgentClient named cdp:<name>):
// - Page sessions the client attaches go to their tab as cdp_command messages (the extension's chrome.debugger);
//   child sessions Chrome creates inside a tab (out-of-process frames, workers) pass through by id.
// - The browser as a whole is emulated over the tabs this session holds: targets, discovery,
//   auto-attach, createTarget (open_tab + cdp_attach), closeTarget (close_tab), activateTarget
//   (switch_tab), version, downloads. What would reach beyond those tabs is refused with a reason
//   (browser-methods.ts), and anything unknown answers Chrome's own "'X' wasn't found".
// - The person's Stop (or their release of a tab) reports the pages detached and destroyed; every
//   later command gets a CDP error that says the person stopped this client.
// The relay adds little per command: one cdp_command through AgentClient (its schema check is the only
// validation), answered by a .then on the call itself so answers and events leave in the order they
// arrived; event params are serialized once however many sessions get them.
import type {
  ActionResultMessage,
  CdpEventMessage,
  CdpResultMessage,
  ErrorInfo,
  HelloAckMessage,
  TabReleasedMessage,
} from '../../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../../schemas/generated/registry';
import { CLOSE_CODES } from '../../../schemas/lib/close-codes';
import { type AgentClient, BridgeClientError, type CallOptions, type CdpCommand, finalClose } from '../../client/agent-client';
import type { Logger } from '../../common/log';
import {
  type CdpError,
  filterAccepts,
  methodNotFound,
  NO_SESSION,
  NO_TARGET,
  parseFilter,
  refused,
  REFUSED_BROWSER_METHODS,
  SERVER_ERROR,
  STOPPED_MESSAGE,
  versionFromUserAgent,
} from './browser-methods';
import type { CdpConnectionStats } from './cdp-endpoint';
import { CdpSessions, type ClientSession, mintId, type PageSession, type Scope, type TabTarget } from './cdp-sessions';
import { type ChildAlias, ChildSessions } from './child-sessions';
import { Downloads, type SendOutcome } from './downloads';

export interface CdpSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface EmulatorOptions {
  socket: CdpSocket;
  /** Already open (hello done), clientName `cdp:<name>`, maxTabs from the token. */
  agent: AgentClient;
  /** A page endpoint may name the tab (from targets() of another connection) so it is attached directly. */
  target: { kind: 'browser' } | { kind: 'page'; targetId: string; tabId?: number };
  log: Logger;
  downloadsDir: string;
}

interface Command {
  id: number;
  method: string;
  params: Record<string, unknown>;
  sessionId: string | undefined;
}

type Params = Record<string, unknown>;
/** A browser-level answer; `after` runs once it is sent (events Chrome sends after the answer). */
type Answer = { result: Params; after?: () => void } | { error: CdpError };

/** A CDP command waits as long as the client lets it (its own timeouts apply); the bridge caps at this. */
const CDP_CALL_TIMEOUT_MS = 600_000;
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

/** Target methods a page session answers from what the endpoint knows (Chrome answers them per browser). */
const BROWSER_WIDE_IN_PAGE = new Set([
  'Target.createTarget',
  'Target.closeTarget',
  'Target.activateTarget',
  'Target.getTargets',
  'Target.getBrowserContexts',
  'Target.createBrowserContext',
  'Target.disposeBrowserContext',
  'Target.attachToBrowserTarget',
]);

/** Commands in the last 10 s, in one-second buckets. */
class RateCounter {
  private readonly counts = new Array<number>(10).fill(0);
  private readonly seconds = new Array<number>(10).fill(-1);
  hit(now: number): void {
    const sec = Math.floor(now / 1000);
    const i = sec % 10;
    if (this.seconds[i] !== sec) {
      this.seconds[i] = sec;
      this.counts[i] = 0;
    }
    this.counts[i] = (this.counts[i] ?? 0) + 1;
  }
  perSecond(now: number): number {
    const sec = Math.floor(now / 1000);
    let n = 0;
    for (let i = 0; i < 10; i++) if (sec - (this.seconds[i] ?? -100) < 10) n += this.counts[i] ?? 0;
    return n / 10;
  }
}

const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Chrome's own error when the extension relayed one, else the bridge's message as a server error. */
export function cdpErrorOf(info: ErrorInfo | null | undefined): CdpError {
  if (!info) return { code: SERVER_ERROR, message: 'The browser answered with an error but gave no details.' };
  const cdp = info.details?.['cdp_error'];
  if (info.error_code === 'CDP_ERROR' && isObject(cdp) && typeof cdp['code'] === 'number' && typeof cdp['message'] === 'string')
    return cdp as unknown as CdpError;
  return { code: SERVER_ERROR, message: info.message };
}

export class BrowserEmulator {
  private readonly s = new CdpSessions();
  private readonly children = new ChildSessions();
  private readonly downloads: Downloads;
  private readonly rate = new RateCounter();
  private lastMethod: string | null = null;
  /** Set when the session ended for good: the answer to every later command. */
  private ended: string | null = null;
  private disposed = false;
  private version: { product: string; jsVersion: string; userAgent: string } | null = null;
  /** Page endpoint: the page session commands without sessionId go to (id ''), or why there is none. */
  private pageRoot: PageSession | null = null;
  private pageRootMissing: string | null = null;
  private readonly windowIds = new Map<number, number>();
  private readonly titleTimers = new Map<number, ReturnType<typeof setTimeout>>();
  private readonly onEvent = (m: CdpEventMessage) => {
    // Answers leave from a .then on their call, queued when the answer arrived: an event queued the
    // same way keeps the order Chrome gave (an event read in the same chunk after an answer waits).
    queueMicrotask(() => this.routeEvent(m));
  };
  private readonly onReleased = (m: TabReleasedMessage) => {
    queueMicrotask(() => {
      const tab = this.s.tab(m.tab_id);
      if (tab) this.targetGone(tab);
    });
  };
  /** The bridge restarted without this session: its tabs are no longer held, so the pages are gone for the client. */
  private readonly onReconnected = (ack: HelloAckMessage | null) => {
    if (this.disposed || ack?.resumed === true) return;
    this.o.log.info('cdp: the bridge did not keep the session; the client is told its pages are gone', { session: ack?.session_id });
    for (const tab of this.s.liveTabs()) this.targetGone(tab);
  };
  private readonly onClose = (code: number, reason: string) => {
    if (this.disposed) return;
    const final = finalClose(code, reason);
    if (final) this.end(code === CLOSE_CODES.disconnectedByPerson ? STOPPED_MESSAGE : final.message);
  };

  constructor(private readonly o: EmulatorOptions) {
    this.downloads = new Downloads({
      downloadsDir: o.downloadsDir,
      log: o.log,
      send: (tabId, method, params) => this.cdpSend(tabId, method, params),
    });
  }

  // --- lifecycle -------------------------------------------------------------------

  /** Hands over the person's active tab (or the named one); without one the client starts with no targets. */
  async start(): Promise<void> {
    const { agent, target } = this.o;
    agent.on('cdp_event', this.onEvent);
    agent.on('tab_released', this.onReleased);
    agent.on('close', this.onClose);
    agent.on('reconnected', this.onReconnected);
    const wanted = target.kind === 'page' ? target : null;
    const attached = await this.attachTab(wanted?.tabId);
    if (!attached.ok)
      this.o.log.info('cdp: no tab handed over at start; the client starts with no targets', { message: attached.error.message });
    if (!wanted) return;
    if (attached.ok && attached.tab.targetId === wanted.targetId) {
      this.pageRoot = { kind: 'page', id: '', tab: attached.tab, parent: undefined, autoAttach: false };
      this.s.addSession(this.pageRoot);
      return;
    }
    this.pageRootMissing = `Target ${wanted.targetId} is not available to this connection (closed, held by another client, or not the tab the person has open): connect to the browser endpoint (webSocketDebuggerUrl of /json/version) and pick the page from its targets.`;
    if (attached.ok) {
      await this.act('cdp_detach', {}, { tabId: attached.tab.tabId, timeoutMs: 5_000 });
      this.s.removeTab(attached.tab.tabId);
    }
  }

  /** Detaches every tab, then ends the agent session: the bridge releases the tabs, which stay open for the person. */
  async dispose(reason: string): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const { agent } = this.o;
    agent.off('cdp_event', this.onEvent);
    agent.off('tab_released', this.onReleased);
    agent.off('close', this.onClose);
    agent.off('reconnected', this.onReconnected);
    for (const t of this.titleTimers.values()) clearTimeout(t);
    this.titleTimers.clear();
    if (!this.ended)
      await Promise.all(
        this.s.liveTabs().map((t) => agent.call('cdp_detach', {}, { tabId: t.tabId, timeoutMs: 5_000 }).catch(() => undefined)),
      );
    await agent.close().catch(() => undefined);
    this.o.log.info('cdp: client connection ended', { reason, session: agent.sessionId });
  }

  targets(): { targetId: string; tabId: number; url: string; title: string }[] {
    return this.s.liveTabs().map((t) => ({ targetId: t.targetId, tabId: t.tabId, url: t.url, title: t.title }));
  }

  stats(): CdpConnectionStats {
    return {
      commands_per_s: this.rate.perSecond(Date.now()),
      last_method: this.lastMethod,
      tab_ids: this.s.liveTabs().map((t) => t.tabId),
      session_id: this.o.agent.sessionId,
    };
  }

  // --- commands --------------------------------------------------------------------

  /** One CDP message from the client. Never throws: a bad message gets Chrome's error answer. */
  handle(text: string): void {
    if (this.disposed) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.fail(0, undefined, { code: -32700, message: 'Message must be a valid JSON' });
      return;
    }
    const c = this.asCommand(value);
    if (!c) return;
    const now = Date.now();
    this.rate.hit(now);
    this.lastMethod = c.method;
    if (this.ended !== null) return this.fail(c.id, c.sessionId, { code: SERVER_ERROR, message: this.ended });
    if (c.sessionId === undefined) {
      if (this.pageRoot) return this.onPageCommand(this.pageRoot, c);
      if (this.pageRootMissing) return this.fail(c.id, undefined, { code: SERVER_ERROR, message: this.pageRootMissing });
      return void this.onBrowserCommand(this.s.root, c);
    }
    const session = c.sessionId === '' ? undefined : this.s.session(c.sessionId);
    if (session?.kind === 'page') return this.onPageCommand(session, c);
    if (session?.kind === 'tab') return void this.onTabCommand(session, c);
    if (session?.kind === 'browser') return void this.onBrowserCommand(session.scope, c);
    const alias = this.children.alias(c.sessionId);
    if (alias) return this.onChildCommand(alias, c);
    this.fail(c.id, c.sessionId, NO_SESSION);
  }

  private asCommand(v: unknown): Command | null {
    if (!isObject(v)) {
      this.fail(0, undefined, { code: -32600, message: 'Message must be an object' });
      return null;
    }
    const sessionId = typeof v['sessionId'] === 'string' ? v['sessionId'] : undefined;
    const id = v['id'];
    if (typeof id !== 'number' || !Number.isInteger(id)) {
      this.fail(0, sessionId, { code: -32600, message: "Message must have integer 'id' property" });
      return null;
    }
    const method = v['method'];
    if (typeof method !== 'string') {
      this.fail(id, sessionId, { code: -32600, message: "Message must have string 'method' property" });
      return null;
    }
    const params = v['params'] ?? {};
    if (!isObject(params)) {
      this.fail(id, sessionId, { code: -32602, message: 'Invalid parameters', data: 'params: object expected' });
      return null;
    }
    return { id, method, params, sessionId };
  }

  /** A page session: to Chrome through the tab, but for the Target methods the endpoint answers itself. */
  private onPageCommand(ps: PageSession, c: Command): void {
    const m = c.method;
    // The profile's cookies are refused in a tab; a page's own are what browser_use reads this way.
    if (m === 'Storage.getCookies') {
      void this.cookiesOfTabs(c.params, [ps.tab]).then(
        (a) => ('error' in a ? this.fail(c.id, c.sessionId, a.error) : this.reply(c, a.result)),
        (e: unknown) => this.fail(c.id, c.sessionId, this.rejection(e)),
      );
      return;
    }
    if (m.startsWith('Target.') || m.startsWith('Browser.')) {
      if (m === 'Target.getTargetInfo' && (c.params['targetId'] === undefined || c.params['targetId'] === ps.tab.targetId))
        return this.reply(c, { targetInfo: this.info(ps.tab, 'page') });
      if (m === 'Browser.getWindowForTarget' && c.params['targetId'] === undefined)
        return void this.onBrowserCommand(this.s.root, { ...c, params: { ...c.params, targetId: ps.tab.targetId } });
      const own =
        m.startsWith('Browser.') ||
        BROWSER_WIDE_IN_PAGE.has(m) ||
        (m === 'Target.attachToTarget' && this.s.byTarget(String(c.params['targetId'])) !== undefined) ||
        (m === 'Target.detachFromTarget' && this.s.session(String(c.params['sessionId'])) !== undefined) ||
        (m === 'Target.getTargetInfo' && this.s.byTarget(String(c.params['targetId'])) !== undefined);
      if (own) return void this.onBrowserCommand(this.s.root, c);
    }
    if (m === 'Target.setAutoAttach') {
      // Set before Chrome answers: it reports the frames and workers there are before its answer.
      ps.autoAttach = c.params['autoAttach'] === true;
      if (ps.autoAttach) this.replayChildren(ps, null, ps.id === '' ? undefined : ps.id);
    } else if (m === 'Target.detachFromTarget') {
      const a = this.children.alias(String(c.params['sessionId']));
      if (a && a.owner === ps) return this.detachAlias(a, c);
    }
    this.forward(ps.tab.tabId, c, undefined);
  }

  /** A client's alias of one of Chrome's child sessions: to that child, with Chrome's id. */
  private onChildCommand(a: ChildAlias, c: Command): void {
    if (c.method === 'Target.setAutoAttach') {
      a.autoAttach = c.params['autoAttach'] === true;
      if (a.autoAttach) this.replayChildren(a.owner, a.child.id, a.alias);
    } else if (c.method === 'Target.detachFromTarget') {
      const nested = this.children.alias(String(c.params['sessionId']));
      if (nested && nested.owner === a.owner) return this.detachAlias(nested, c);
    }
    this.forward(a.child.tabId, c, a.child.id);
  }

  /**
   * Chrome reports a tab's frames and workers once, to its one session: a client session that asks
   * for auto-attach later gets the ones already there, under aliases of its own.
   */
  private replayChildren(owner: PageSession, parent: string | null, eventSession: string | undefined): void {
    for (const child of this.children.childrenOf(owner.tab.tabId, parent)) {
      if (this.children.aliasFor(child.id, owner)) continue;
      const a = this.children.addAlias(child, owner);
      this.event(eventSession, 'Target.attachedToTarget', { sessionId: a.alias, targetInfo: child.targetInfo, waitingForDebugger: false });
    }
  }

  /**
   * A client detached its alias of a child: only that client loses it (as with Chrome's own child
   * sessions); Chrome's session is detached when no client knows the child any more.
   */
  private detachAlias(a: ChildAlias, c: Command): void {
    const last = this.children.removeAlias(a);
    this.event(c.sessionId === '' ? undefined : c.sessionId, 'Target.detachedFromTarget', {
      sessionId: a.alias,
      targetId: a.child.targetInfo['targetId'],
    });
    this.reply(c, {});
    if (last) void this.cdpSend(a.child.tabId, 'Target.detachFromTarget', { sessionId: a.child.id }, a.child.parent ?? undefined);
  }

  /**
   * The hot path: one cdp_command, answered from a .then on the call itself (no await chain), Chrome's
   * error passed through exactly.
   */
  private forward(tabId: number, c: Command, childSession: string | undefined): void {
    if (!METHOD_RE.test(c.method)) return this.fail(c.id, c.sessionId, methodNotFound(c.method));
    const command: CdpCommand = { tabId, method: c.method, params: c.params, timeoutMs: CDP_CALL_TIMEOUT_MS };
    if (childSession !== undefined) command.sessionId = childSession;
    this.o.agent.cdp(command).then(
      (r) => (r.result ? this.reply(c, r.result) : this.fail(c.id, c.sessionId, cdpErrorOf(r.error_info))),
      (e: unknown) => this.fail(c.id, c.sessionId, this.rejection(e)),
    );
  }

  /** The emulated tab target (puppeteer): its auto-attach brings the page session. */
  private async onTabCommand(ts: Extract<ClientSession, { kind: 'tab' }>, c: Command): Promise<void> {
    const p = c.params;
    switch (c.method) {
      case 'Target.setAutoAttach': {
        if (p['autoAttach'] === true && p['flatten'] !== true) return this.fail(c.id, c.sessionId, notFlat());
        if (p['autoAttach'] === true && ts.page === null && !ts.tab.gone) {
          const page: PageSession = { kind: 'page', id: mintId(), tab: ts.tab, parent: ts.id, autoAttach: false };
          this.s.addSession(page);
          ts.page = page.id;
          this.event(ts.id, 'Target.attachedToTarget', {
            sessionId: page.id,
            targetInfo: this.info(ts.tab, 'page'),
            waitingForDebugger: false,
          });
        }
        return this.reply(c, {});
      }
      case 'Runtime.runIfWaitingForDebugger':
        return this.reply(c, {});
      case 'Target.getTargetInfo':
        return this.reply(c, { targetInfo: this.info(ts.tab, 'tab') });
      case 'Target.detachFromTarget': {
        const id = p['sessionId'];
        const page = typeof id === 'string' ? this.s.session(id) : undefined;
        if (!page || page.kind !== 'page' || page.parent !== ts.id)
          return this.fail(c.id, c.sessionId, { code: -32602, message: 'No session with given id' });
        this.detachSession(page);
        return this.reply(c, {});
      }
      default:
        if (c.method.startsWith('Target.') || c.method.startsWith('Browser.')) return this.onBrowserCommand(this.s.root, c);
        return this.fail(c.id, c.sessionId, methodNotFound(c.method));
    }
  }

  /** Browser-level methods (no sessionId, a browser session, or the browser-wide ones of a page session). */
  private async onBrowserCommand(scope: Scope, c: Command): Promise<void> {
    try {
      const answer = await this.browserMethod(scope, c);
      if ('error' in answer) return this.fail(c.id, c.sessionId, answer.error);
      this.reply(c, answer.result);
      answer.after?.();
    } catch (e) {
      this.fail(c.id, c.sessionId, this.rejection(e));
    }
  }

  private async browserMethod(scope: Scope, c: Command): Promise<Answer> {
    const p = c.params;
    const ok = (result: Params = {}) => ({ result });
    const err = (error: CdpError) => ({ error });
    switch (c.method) {
      case 'Browser.getVersion': {
        const v = await this.browserVersion();
        return ok({ protocolVersion: '1.3', product: v.product, revision: '', userAgent: v.userAgent, jsVersion: v.jsVersion });
      }
      case 'Target.setDiscoverTargets': {
        if (p['discover'] !== true) {
          scope.discover = null;
          return ok();
        }
        const was = scope.discover;
        scope.discover = parseFilter(p['filter']);
        // As Chrome: targetCreated for each target already there, before the answer.
        if (!was) {
          if (filterAccepts(scope.discover, 'browser'))
            this.event(scope.sessionId, 'Target.targetCreated', { targetInfo: this.browserInfo() });
          for (const tab of this.s.liveTabs()) this.announceTo(scope, tab);
        }
        return ok();
      }
      case 'Target.getTargets': {
        const filter = parseFilter(p['filter']);
        const infos: Params[] = [];
        if (filterAccepts(filter, 'browser')) infos.push(this.browserInfo());
        for (const tab of this.s.liveTabs()) {
          if (filterAccepts(filter, 'tab')) infos.push(this.info(tab, 'tab'));
          if (filterAccepts(filter, 'page')) infos.push(this.info(tab, 'page'));
        }
        return ok({ targetInfos: infos });
      }
      case 'Target.getTargetInfo': {
        const targetId = p['targetId'];
        if (targetId === undefined || targetId === this.s.browserTargetId) return ok({ targetInfo: this.browserInfo() });
        const t = this.s.byTarget(String(targetId));
        if (!t) return err(NO_TARGET);
        return ok({ targetInfo: this.info(t.tab, t.type) });
      }
      case 'Target.setAutoAttach': {
        if (p['autoAttach'] !== true) {
          scope.autoAttach = null;
          return ok();
        }
        if (p['flatten'] !== true) return err(notFlat());
        scope.autoAttach = parseFilter(p['filter']);
        for (const tab of this.s.liveTabs()) this.autoAttach(scope, tab);
        return ok();
      }
      case 'Target.attachToTarget': {
        if (p['flatten'] !== true) return err(notFlat());
        const targetId = String(p['targetId']);
        if (targetId === this.s.browserTargetId) return ok({ sessionId: this.attachBrowser(c.sessionId) });
        const t = this.s.byTarget(targetId);
        if (!t) return err(NO_TARGET);
        return ok({ sessionId: this.attachSession(t.tab, t.type, c.sessionId).id });
      }
      case 'Target.attachToBrowserTarget':
        return ok({ sessionId: this.attachBrowser(c.sessionId) });
      case 'Target.detachFromTarget': {
        const id = p['sessionId'];
        let s = typeof id === 'string' ? this.s.session(id) : undefined;
        if (!s && typeof p['targetId'] === 'string') {
          const t = this.s.byTarget(p['targetId']);
          s = t && this.s.sessionsUnder(c.sessionId).find((x) => x.kind !== 'browser' && x.tab === t.tab);
        }
        if (!s || s.id === '') return err({ code: -32602, message: 'No session with given id' });
        this.detachSession(s);
        return ok();
      }
      case 'Target.createTarget':
        return this.createTarget(c);
      case 'Target.closeTarget': {
        const t = this.s.byTarget(String(p['targetId']));
        if (!t) return err(NO_TARGET);
        const closed = await this.act('close_tab', { tab_id: t.tab.tabId }, { tabId: t.tab.tabId });
        if (!closed.ok) return err(closed.error);
        return { result: { success: true }, after: () => this.targetGone(t.tab) }; // detached after the answer, as Chrome
      }
      case 'Target.activateTarget': {
        const t = this.s.byTarget(String(p['targetId']));
        if (!t) return err(NO_TARGET);
        const switched = await this.act('switch_tab', { tab_id: t.tab.tabId }, { tabId: t.tab.tabId });
        return switched.ok ? ok() : err(switched.error);
      }
      case 'Target.getBrowserContexts':
        // Only the default context, which Chrome never lists among browserContextIds.
        return ok({ browserContextIds: [], defaultBrowserContextId: this.s.contextId });
      case 'Target.getDevToolsTarget': {
        // No DevTools window of the person's is reported (chrome-devtools-mcp then uses its own session).
        return this.s.byTarget(String(p['targetId'])) ? ok() : err(NO_TARGET);
      }
      case 'Browser.setDownloadBehavior': {
        const ctx = p['browserContextId'];
        if (ctx !== undefined && ctx !== this.s.contextId)
          return err({ code: SERVER_ERROR, message: `Failed to find browser context for id ${String(ctx)}` });
        scope.downloadEvents = p['eventsEnabled'] === true;
        const refusal = await this.downloads.setBehavior(
          p,
          this.s.liveTabs().map((t) => t.tabId),
        );
        return refusal ? err(refusal) : ok();
      }
      case 'Browser.getWindowForTarget': {
        const t = this.s.byTarget(String(p['targetId']));
        if (!t) return err(NO_TARGET);
        return this.windowOf(t.tab);
      }
      case 'Browser.getWindowBounds': {
        const tab = this.s.liveTabs().find((x) => this.windowIds.get(x.tabId) === p['windowId']);
        if (!tab) return err({ code: SERVER_ERROR, message: `Browser window not found` });
        const w = await this.windowOf(tab);
        return 'error' in w ? w : ok({ bounds: w.result['bounds'] });
      }
      case 'Storage.getCookies':
        return this.cookiesOfTabs(p, this.s.liveTabs());
      default: {
        const why = REFUSED_BROWSER_METHODS[c.method];
        return err(why ? refused(c.method, why) : methodNotFound(c.method));
      }
    }
  }

  /** open_tab (the person's policy decides), then cdp_attach; the client hears of it before the answer. */
  private async createTarget(c: Command): Promise<{ result: Params } | { error: CdpError }> {
    const p = c.params;
    const ctx = p['browserContextId'];
    if (ctx !== undefined && ctx !== this.s.contextId)
      return { error: { code: SERVER_ERROR, message: `Failed to find browser context with id ${String(ctx)}` } };
    const params: ActionParams<'open_tab'> = {};
    if (typeof p['url'] === 'string' && p['url'] !== '' && p['url'] !== 'about:blank') params.url = p['url'];
    if (p['background'] === true) params.active = false;
    const opened = await this.act('open_tab', params, { timeoutMs: OPEN_TAB_TIMEOUT_MS });
    if (!opened.ok) return { error: opened.error };
    const tabId = opened.result['tab_id'];
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

  // --- targets and sessions ----------------------------------------------------------

  private async attachTab(tabId: number | undefined): Promise<{ ok: true; tab: TabTarget } | { ok: false; error: CdpError }> {
    const r = await this.act('cdp_attach', {}, tabId === undefined ? { timeoutMs: 15_000 } : { tabId, timeoutMs: 15_000 });
    if (!r.ok) return r;
    const { tab_id, target_id, url, title } = r.result;
    if (typeof tab_id !== 'number' || typeof target_id !== 'string')
      return { ok: false, error: { code: SERVER_ERROR, message: 'The extension attached a tab but did not say which.' } };
    const tab = this.s.addTab(tab_id, target_id, typeof url === 'string' ? url : '', typeof title === 'string' ? title : '');
    if (!this.windowIds.has(tab_id)) this.windowIds.set(tab_id, this.windowIds.size + 1);
    await this.downloads.applyTo(tab_id);
    return { ok: true, tab };
  }

  /** A new tab to every scope: targetCreated where discovering, attachedToTarget where auto-attaching. */
  private announce(tab: TabTarget): void {
    // Chrome's order: the tab target (created, then attached where auto-attach takes tabs), then its page.
    for (const type of ['tab', 'page'] as const)
      for (const scope of this.s.scopes()) {
        if (scope.discover && filterAccepts(scope.discover, type))
          this.event(scope.sessionId, 'Target.targetCreated', { targetInfo: this.info(tab, type) });
        if (autoAttachType(scope) === type) this.autoAttach(scope, tab);
      }
  }

  private announceTo(scope: Scope, tab: TabTarget): void {
    if (!scope.discover) return;
    if (filterAccepts(scope.discover, 'tab')) this.event(scope.sessionId, 'Target.targetCreated', { targetInfo: this.info(tab, 'tab') });
    if (filterAccepts(scope.discover, 'page')) this.event(scope.sessionId, 'Target.targetCreated', { targetInfo: this.info(tab, 'page') });
  }

  private autoAttach(scope: Scope, tab: TabTarget): void {
    const type = autoAttachType(scope);
    if (!type) return;
    if (this.s.sessionsUnder(scope.sessionId).some((s) => s.kind === type && s.tab === tab)) return;
    this.attachSession(tab, type, scope.sessionId);
  }

  private attachSession(tab: TabTarget, type: 'page' | 'tab', parent: string | undefined): ClientSession {
    const s: ClientSession =
      type === 'page'
        ? { kind: 'page', id: mintId(), tab, parent, autoAttach: false }
        : { kind: 'tab', id: mintId(), tab, parent, page: null };
    const wasAttached = this.s.isAttached(type === 'page' ? tab.targetId : tab.tabTargetId);
    this.s.addSession(s);
    // As Chrome: discovering clients see the target become attached, then the attach itself.
    if (!wasAttached) this.infoChanged(tab, type);
    this.event(parent, 'Target.attachedToTarget', { sessionId: s.id, targetInfo: this.info(tab, type), waitingForDebugger: false });
    return s;
  }

  private attachBrowser(parent: string | undefined): string {
    const id = mintId();
    this.s.addSession({ kind: 'browser', id, scope: { sessionId: id, discover: null, autoAttach: null, downloadEvents: false } });
    this.event(parent, 'Target.attachedToTarget', { sessionId: id, targetInfo: this.browserInfo(), waitingForDebugger: false });
    return id;
  }

  /** The client detached one session (a tab session takes its page session with it). */
  private detachSession(s: ClientSession): void {
    if (s.kind === 'tab' && s.page !== null) {
      const page = this.s.session(s.page);
      if (page) this.detachSession(page);
    }
    this.s.removeSession(s.id);
    if (s.kind === 'page') this.children.removeOwner(s);
    if (s.kind === 'browser')
      return this.event(undefined, 'Target.detachedFromTarget', { sessionId: s.id, targetId: this.s.browserTargetId });
    this.event(s.parent, 'Target.detachedFromTarget', {
      sessionId: s.id,
      targetId: s.kind === 'page' ? s.tab.targetId : s.tab.tabTargetId,
    });
  }

  /** The tab closed, was released or lost its debugger: every client session of it is detached, then the targets destroyed. */
  private targetGone(tab: TabTarget): void {
    if (tab.gone) return;
    const timer = this.titleTimers.get(tab.tabId);
    if (timer) clearTimeout(timer);
    this.titleTimers.delete(tab.tabId);
    const sessions = this.s.removeTab(tab.tabId);
    this.children.removeTab(tab.tabId);
    if (this.pageRoot?.tab === tab) {
      this.pageRootMissing = `Target ${tab.targetId} is gone (closed, released by the person, or its debugger detached).`;
      this.pageRoot = null;
      this.sendEvent(undefined, 'Inspector.detached', JSON.stringify({ reason: 'target_closed' }));
    }
    // Pages first: a page's parent may be one of the tab sessions that follow (puppeteer waits for the tab's).
    for (const type of ['page', 'tab'] as const) {
      const targetId = type === 'page' ? tab.targetId : tab.tabTargetId;
      for (const s of sessions)
        if (s.kind === type && s.id !== '') this.event(s.parent, 'Target.detachedFromTarget', { sessionId: s.id, targetId });
      for (const scope of this.s.scopes())
        if (scope.discover && filterAccepts(scope.discover, type)) this.event(scope.sessionId, 'Target.targetDestroyed', { targetId });
    }
  }

  /** The person's Stop (or the session ended for good): pages detached and destroyed, later commands refused. */
  private end(message: string): void {
    if (this.ended !== null) return;
    this.ended = message;
    this.o.log.info('cdp: the session ended; the client is told its pages are gone', { session: this.o.agent.sessionId });
    for (const tab of this.s.liveTabs()) this.targetGone(tab);
  }

  /** A held tab as Chrome lists it: its tab target or the page inside it. */
  private info(tab: TabTarget, type: 'tab' | 'page'): Params {
    const targetId = type === 'page' ? tab.targetId : tab.tabTargetId;
    return {
      targetId,
      type,
      title: tab.title,
      url: tab.url,
      attached: this.s.isAttached(targetId),
      canAccessOpener: false,
      browserContextId: this.s.contextId,
    };
  }

  private browserInfo(): Params {
    return { targetId: this.s.browserTargetId, type: 'browser', title: '', url: '', attached: true, canAccessOpener: false };
  }

  // --- events ------------------------------------------------------------------------

  private routeEvent(m: CdpEventMessage): void {
    if (this.disposed || this.ended !== null) return;
    const tab = this.s.tab(m.tab_id);
    if (!tab || tab.gone) return;
    const { method, params } = m;
    const from = m.session_id ?? null;
    if (method === 'Inspector.detached' && from === null) {
      this.targetGone(tab);
      if (params['reason'] === 'worker_restarted' || params['reason'] === 'bridge_disconnected') void this.reattach(tab.tabId);
      return;
    }
    if (method === 'Target.attachedToTarget' && typeof params['sessionId'] === 'string') return this.childAttached(tab, from, params);
    if (method === 'Target.detachedFromTarget' && typeof params['sessionId'] === 'string') return this.childDetached(from, params);
    const json = JSON.stringify(params);
    if (from !== null) {
      for (const a of this.children.aliasesOf(from)) this.sendEvent(a.alias, method, json);
      return;
    }
    this.noteTabEvent(tab, method, params);
    for (const ps of this.s.pageSessions(tab.tabId)) this.sendEvent(ps.id === '' ? undefined : ps.id, method, json);
  }

  /**
   * Chrome attached a frame or worker of the tab (from: null) or of a child: each client session that
   * asked for auto-attach there gets it under an alias of its own. Nobody asked: a child Chrome paused
   * for a debugger is let go, or the person's frame would stay blank.
   */
  private childAttached(tab: TabTarget, from: string | null, params: Params): void {
    if (from !== null && !this.children.child(from)) return;
    const targetInfo = isObject(params['targetInfo']) ? params['targetInfo'] : {};
    const child = this.children.addChild(String(params['sessionId']), tab.tabId, from, targetInfo);
    const to: { owner: PageSession; session: string | undefined }[] =
      from === null
        ? this.s
            .pageSessions(tab.tabId)
            .filter((ps) => ps.autoAttach)
            .map((ps) => ({ owner: ps, session: ps.id === '' ? undefined : ps.id }))
        : this.children
            .aliasesOf(from)
            .filter((a) => a.autoAttach)
            .map((a) => ({ owner: a.owner, session: a.alias }));
    for (const { owner, session } of to)
      this.event(session, 'Target.attachedToTarget', { ...params, sessionId: this.children.addAlias(child, owner).alias });
    if (to.length === 0 && params['waitingForDebugger'] === true)
      void this.cdpSend(tab.tabId, 'Runtime.runIfWaitingForDebugger', {}, child.id);
  }

  /**
   * The extension lost the tab's debugger through no choice of the person's (its service worker
   * restarted, or the bridge was out of reach long enough that it let go): the tab is still this
   * client's. The old page was reported gone (targetGone) and is not revived: Chrome forgot all the
   * client had set up in it (enabled domains, scripts for new documents, auto-attach, bindings), which
   * the emulator cannot replay in general, and a page that seemed to live on would leave the client
   * waiting for events that never come. Instead the tab is attached again and announced as a new
   * target, the way a newly opened tab is: the client picks it up as it picks up any new page
   * (auto-attach, targetCreated). The person's own detach (the debugging bar's Cancel) and a closed
   * tab are never undone.
   */
  private async reattach(tabId: number): Promise<void> {
    const attached = await this.attachTab(tabId);
    if (this.disposed || this.ended !== null) return;
    if (!attached.ok) {
      this.o.log.info('cdp: a tab whose debugger the extension lost could not be attached again', { message: attached.error.message });
      return;
    }
    this.announce(attached.tab);
  }

  /** Chrome detached a child: every client that knew it is told under its own alias. */
  private childDetached(from: string | null, params: Params): void {
    for (const a of this.children.removeChild(String(params['sessionId']))) {
      const session = from === null ? (a.owner.id === '' ? undefined : a.owner.id) : this.children.aliasFor(from, a.owner)?.alias;
      if (from !== null && session === undefined) continue;
      this.event(session, 'Target.detachedFromTarget', { ...params, sessionId: a.alias });
    }
  }

  /** Keeps url/title current (targetInfoChanged, as Chrome) and turns downloads into Browser events. */
  private noteTabEvent(tab: TabTarget, method: string, params: Params): void {
    if (method === 'Page.frameNavigated' && isObject(params['frame']) && params['frame']['parentId'] === undefined) {
      const f = params['frame'];
      const url = `${String(f['url'] ?? '')}${typeof f['urlFragment'] === 'string' ? f['urlFragment'] : ''}`;
      // At commit Chrome names a page by its URL without the scheme (the <title> is not parsed yet),
      // and sends no event when the title arrives: browser_use 0.13 matches its tab list against the
      // page's title mid-capture, so a late title-only update made it lose its current tab.
      this.setInfo(tab, url, titleAtCommit(url));
    } else if (method === 'Page.navigatedWithinDocument' && params['frameId'] === tab.targetId && typeof params['url'] === 'string') {
      this.setInfo(tab, params['url'], tab.title);
    } else if (
      method === 'Target.targetInfoChanged' &&
      isObject(params['targetInfo']) &&
      params['targetInfo']['targetId'] === tab.targetId
    ) {
      const info = params['targetInfo'];
      this.setInfo(tab, String(info['url'] ?? tab.url), String(info['title'] ?? tab.title));
    } else if (method === 'Page.loadEventFired' || method === 'Page.domContentEventFired') {
      this.refreshTitleSoon(tab);
    } else if (method.startsWith('Page.download')) {
      const translated = this.downloads.translate(method, params);
      if (translated)
        for (const scope of this.s.scopes()) if (scope.downloadEvents) this.event(scope.sessionId, translated.method, translated.params);
    }
  }

  private setInfo(tab: TabTarget, url: string, title: string): void {
    if (tab.url === url && tab.title === title) return;
    tab.url = url;
    tab.title = title;
    this.infoChanged(tab, 'tab');
    this.infoChanged(tab, 'page');
  }

  /** Target.targetInfoChanged to every scope discovering that type of target. */
  private infoChanged(tab: TabTarget, type: 'tab' | 'page'): void {
    for (const scope of this.s.scopes())
      if (scope.discover && filterAccepts(scope.discover, type))
        this.event(scope.sessionId, 'Target.targetInfoChanged', { targetInfo: this.info(tab, type) });
  }

  /** The page's title after a load (the Page domain has no title event). */
  private refreshTitleSoon(tab: TabTarget): void {
    if (this.titleTimers.has(tab.tabId)) return;
    const timer = setTimeout(() => {
      this.titleTimers.delete(tab.tabId);
      void this.cdpSend(tab.tabId, 'Runtime.evaluate', { expression: 'document.title', returnByValue: true }).then((r) => {
        const value = r.ok && isObject(r.result['result']) ? r.result['result']['value'] : undefined;
        // Kept for Target.getTargets and /json/list, as Chrome's own list has it; no event (see above).
        if (typeof value === 'string' && value !== '' && !tab.gone) tab.title = value;
      });
    }, 50);
    timer.unref?.();
    this.titleTimers.set(tab.tabId, timer);
  }

  // --- the bridge ----------------------------------------------------------------------

  /** An action of the endpoint itself (not a client's command): its result, or a CDP error. */
  private async act<A extends ActionName>(action: A, params: ActionParams<A>, options: CallOptions): Promise<SendOutcome> {
    let r: ActionResultMessage;
    try {
      r = await this.o.agent.call(action, params, options);
    } catch (e) {
      return { ok: false, error: this.rejection(e) };
    }
    if (r.status !== 'success') return { ok: false, error: cdpErrorOf(r.error_info) };
    const result = r.outcome_details?.result;
    return { ok: true, result: isObject(result) ? result : {} };
  }

  private async cdpSend(tabId: number, method: string, params: Params, childSession?: string): Promise<SendOutcome> {
    const command: CdpCommand = { tabId, method, params, timeoutMs: 15_000 };
    if (childSession !== undefined) command.sessionId = childSession;
    let r: CdpResultMessage;
    try {
      r = await this.o.agent.cdp(command);
    } catch (e) {
      return { ok: false, error: this.rejection(e) };
    }
    return r.result ? { ok: true, result: r.result } : { ok: false, error: cdpErrorOf(r.error_info) };
  }

  /** A rejected call: the person's Stop ends the session; anything else is a server error with its message. */
  private rejection(e: unknown): CdpError {
    if (e instanceof BridgeClientError && e.code === 'NOT_PERMITTED') this.end(STOPPED_MESSAGE);
    if (this.ended !== null) return { code: SERVER_ERROR, message: this.ended };
    return { code: SERVER_ERROR, message: e instanceof Error ? e.message : String(e) };
  }

  private async browserVersion(): Promise<{ product: string; jsVersion: string; userAgent: string }> {
    if (this.version) return this.version;
    const tab = this.s.liveTabs()[0];
    if (!tab) return FALLBACK_VERSION;
    const r = await this.cdpSend(tab.tabId, 'Runtime.evaluate', {
      expression: USER_AGENT_EXPRESSION,
      awaitPromise: true,
      returnByValue: true,
    });
    const value = r.ok && isObject(r.result['result']) ? r.result['result']['value'] : undefined;
    const ua = isObject(value) ? value['userAgent'] : undefined;
    const full = isObject(value) ? value['fullVersion'] : undefined;
    const v = typeof ua === 'string' ? versionFromUserAgent(ua, typeof full === 'string' ? full : null) : null;
    if (typeof ua !== 'string' || !v) return FALLBACK_VERSION;
    this.version = { ...v, userAgent: ua };
    return this.version;
  }

  /** The window of a tab as the page sees it (screenX/Y, outer size): the bridge has no window API. */
  private async windowOf(tab: TabTarget): Promise<{ result: Params } | { error: CdpError }> {
    const r = await this.cdpSend(tab.tabId, 'Runtime.evaluate', {
      expression: '({left: screenX, top: screenY, width: outerWidth, height: outerHeight})',
      returnByValue: true,
    });
    if (!r.ok) return { error: r.error };
    const v = isObject(r.result['result']) ? r.result['result']['value'] : undefined;
    if (!isObject(v)) return { error: { code: SERVER_ERROR, message: 'The page did not report its window.' } };
    return { result: { windowId: this.windowIds.get(tab.tabId) ?? 0, bounds: { ...v, windowState: 'normal' } } };
  }

  /**
   * Storage.getCookies: the cookies of the pages this client holds (Network.getCookies in each tab,
   * which the person's policy checks), never the whole profile's; in a page session, that page's.
   */
  private async cookiesOfTabs(p: Params, tabs: TabTarget[]): Promise<{ result: Params } | { error: CdpError }> {
    const ctx = p['browserContextId'];
    if (ctx !== undefined && ctx !== this.s.contextId)
      return { error: { code: SERVER_ERROR, message: `Failed to find browser context for id ${String(ctx)}` } };
    const seen = new Map<string, unknown>();
    for (const tab of tabs) {
      const r = await this.cdpSend(tab.tabId, 'Network.getCookies', {});
      if (!r.ok) return { error: r.error };
      const cookies = r.result['cookies'];
      if (!Array.isArray(cookies)) continue;
      for (const c of cookies as unknown[])
        if (isObject(c))
          seen.set(
            `${String(c['name'])}\u0000${String(c['domain'])}\u0000${String(c['path'])}\u0000${JSON.stringify(c['partitionKey'] ?? null)}`,
            c,
          );
    }
    return { result: { cookies: [...seen.values()] } };
  }

  // --- the client socket ---------------------------------------------------------------

  private reply(c: Command, result: Params): void {
    const text =
      c.sessionId === undefined ? JSON.stringify({ id: c.id, result }) : JSON.stringify({ id: c.id, result, sessionId: c.sessionId });
    this.write(text);
  }

  private fail(id: number, sessionId: string | undefined, error: CdpError): void {
    this.write(sessionId === undefined ? JSON.stringify({ id, error }) : JSON.stringify({ id, error, sessionId }));
  }

  private event(sessionId: string | undefined, method: string, params: Params): void {
    this.sendEvent(sessionId, method, JSON.stringify(params));
  }

  /** params already serialized (once for every session that gets the event). */
  private sendEvent(sessionId: string | undefined, method: string, paramsJson: string): void {
    const head = `{"method":${JSON.stringify(method)},"params":${paramsJson}`;
    this.write(sessionId === undefined ? `${head}}` : `${head},"sessionId":${JSON.stringify(sessionId)}}`);
  }

  private write(text: string): void {
    if (this.disposed) return;
    try {
      this.o.socket.send(text);
    } catch (e) {
      this.o.log.debug('cdp: the client socket refused a message', { error: e instanceof Error ? e.message : String(e) });
    }
  }
}

/** What a scope's auto-attach takes: pages, or tab targets when its filter leaves pages out (puppeteer). */
function autoAttachType(scope: Scope): 'page' | 'tab' | null {
  if (!scope.autoAttach) return null;
  return filterAccepts(scope.autoAttach, 'page') ? 'page' : filterAccepts(scope.autoAttach, 'tab') ? 'tab' : null;
}

function notFlat(): CdpError {
  return {
    code: SERVER_ERROR,
    message:
      'Only flatten protocol is supported (pass flatten: true): this endpoint relays flat sessions only, each command carrying its sessionId.',
  };
}

/** The title Chrome gives a page when it commits: its URL without the scheme (about:blank stays so). */
export function titleAtCommit(url: string): string {
  return /^https?:\/\//.test(url) ? url.replace(/^https?:\/\//, '') : url;
}
