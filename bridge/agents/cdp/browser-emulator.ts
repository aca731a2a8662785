// One CDP client connection, seen by the client as a real Chrome browser endpoint (or a page endpoint),
// built on an ordinary agent session of the bridge (AgentClient named cdp:<name>). This file is the
// connection's life: it hands over the first tab, parses each client message and gives it to the
// session it names (each session kind handles its own commands: page-session.ts, tab-session.ts,
// browser-session.ts, child-alias.ts), routes the tabs' events (event-router.ts), and ends the
// session on the person's Stop. The browser itself, its targets and sessions, is browser-model.ts;
// what leaves for the client goes through cdp-writer.ts, what leaves for a tab through tab-channel.ts.
// - The person's Stop (or their release of a tab) reports the pages detached and destroyed; every
//   later command gets a CDP error that says the person stopped this client.
// The relay adds little per command: one message to the tab (its schema check is the only
// validation), answered by a .then on the call itself so answers and events leave in the order they
// arrived (tab-channel.ts).
import type { CdpEventMessage, HelloAckMessage, TabReleasedMessage } from '../../../schemas/generated/protocol';
import { CLOSE_CODES } from '../../../schemas/lib/close-codes';
import { finalClose } from '../../client/agent-client';
import { BrowserModel } from './browser-model';
import type { CdpConnectionStats, CdpEmulatorOptions, CdpSocket } from './cdp-connection';
import { type CdpCommand, NO_SESSION, parseCommand, SERVER_ERROR, STOPPED_MESSAGE } from './cdp-protocol';
import type { CommandTarget } from './cdp-sessions';
import { CdpWriter } from './cdp-writer';
import { EventRouter } from './event-router';
import { type PageEndpoint, PageEndpoints } from './page-endpoints';
import { RateCounter } from './rate-counter';

export type { CdpSocket } from './cdp-writer';

/** What an emulator is handed: the endpoint's seam (cdp-connection.ts), written once. */
export type EmulatorOptions = CdpEmulatorOptions;

export class BrowserEmulator {
  private readonly out: CdpWriter;
  private readonly model: BrowserModel;
  private readonly events: EventRouter;
  private readonly pages: PageEndpoints;
  private readonly rate = new RateCounter();
  private lastMethod: string | null = null;
  private disposed = false;
  private readonly onEvent = (m: CdpEventMessage) => {
    // Answers leave from a .then on their call, queued when the answer arrived: an event queued the
    // same way keeps the order Chrome gave (an event read in the same chunk after an answer waits).
    queueMicrotask(() => this.events.route(m));
  };
  private readonly onReleased = (m: TabReleasedMessage) => {
    queueMicrotask(() => {
      const tab = this.model.sessions.tab(m.tab_id);
      if (tab) this.model.targetGone(tab);
    });
  };
  /** The bridge restarted without this session: its tabs are no longer held, so the pages are gone for the client. */
  private readonly onReconnected = (ack: HelloAckMessage | null) => {
    if (this.disposed || ack?.resumed === true) return;
    this.o.log.info('cdp: the bridge did not keep the session; the client is told its pages are gone', { session: ack?.session_id });
    for (const tab of this.model.sessions.liveTabs()) this.model.targetGone(tab);
  };
  private readonly onClose = (code: number, reason: string) => {
    if (this.disposed) return;
    const final = finalClose(code, reason);
    if (final) this.model.end(code === CLOSE_CODES.disconnectedByPerson ? STOPPED_MESSAGE : final.message);
  };

  constructor(private readonly o: EmulatorOptions) {
    this.out = new CdpWriter(o.socket, o.log);
    this.model = new BrowserModel({ out: this.out, agent: o.agent, log: o.log, downloadsDir: o.downloadsDir, browser: o.browser });
    this.events = new EventRouter(this.model, o.log, () => !this.disposed);
    this.pages = new PageEndpoints(this.model, o.log);
  }

  /** A page WebSocket of /json/list on one of this connection's pages: a page session of this connection. */
  openPage(targetId: string, socket: CdpSocket): PageEndpoint | null {
    return this.disposed ? null : this.pages.attach(targetId, socket);
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
    const attached = await this.model.attachTab(wanted?.tabId);
    if (!attached.ok)
      this.o.log.info('cdp: no tab handed over at start; the client starts with no targets', { message: attached.error.message });
    if (!wanted) return;
    if (attached.ok && attached.tab.targetId === wanted.targetId) return this.model.setPageRoot(attached.tab);
    this.model.pageRootMissing = `Target ${wanted.targetId} is not available to this connection (closed, held by another client, or not the tab the person has open): connect to the browser endpoint (webSocketDebuggerUrl of /json/version) and pick the page from its targets.`;
    if (attached.ok) {
      await this.model.tabs.act('cdp_detach', {}, { tabId: attached.tab.tabId, timeoutMs: 5_000 });
      this.model.sessions.removeTab(attached.tab.tabId);
    }
  }

  /** Detaches every tab, then ends the agent session: the bridge releases the tabs, which stay open for the person. */
  async dispose(reason: string): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.pages.closeAll('the browser connection that holds this page closed');
    this.out.close();
    const { agent } = this.o;
    agent.off('cdp_event', this.onEvent);
    agent.off('tab_released', this.onReleased);
    agent.off('close', this.onClose);
    agent.off('reconnected', this.onReconnected);
    this.model.dispose();
    if (!this.model.ended)
      await Promise.all(
        this.model.sessions
          .liveTabs()
          .map((t) => agent.call('cdp_detach', {}, { tabId: t.tabId, timeoutMs: 5_000 }).catch(() => undefined)),
      );
    await agent.close().catch(() => undefined);
    this.o.log.info('cdp: client connection ended', { reason, session: agent.sessionId });
  }

  targets(): { targetId: string; tabId: number; url: string; title: string }[] {
    return this.model.sessions.liveTabs().map((t) => ({ targetId: t.targetId, tabId: t.tabId, url: t.url, title: t.title }));
  }

  stats(): CdpConnectionStats {
    return {
      commands_per_s: this.rate.perSecond(Date.now()),
      last_method: this.lastMethod,
      tab_ids: this.model.sessions.liveTabs().map((t) => t.tabId),
      session_id: this.o.agent.sessionId,
    };
  }

  // --- commands --------------------------------------------------------------------

  /** One CDP message from the client. Never throws: a bad message gets Chrome's error answer. */
  handle(text: string): void {
    if (this.disposed) return;
    const c = parseCommand(text);
    if ('malformed' in c) return this.out.fail(c.id, c.sessionId, c.error);
    this.rate.hit(Date.now());
    this.lastMethod = c.method;
    const { model } = this;
    if (model.ended !== null) return this.out.fail(c.id, c.sessionId, { code: SERVER_ERROR, message: model.ended });
    const session = this.sessionOf(c);
    if (session) return session.handle(c);
    if (c.sessionId === undefined && model.pageRootMissing)
      return this.out.fail(c.id, undefined, { code: SERVER_ERROR, message: model.pageRootMissing });
    this.out.fail(c.id, c.sessionId, NO_SESSION);
  }

  /** The session a command names: the connection's own (page or browser), a client session, or a child alias. */
  private sessionOf(c: CdpCommand): CommandTarget | undefined {
    const { model } = this;
    if (c.sessionId === undefined) return model.pageRoot ?? (model.pageRootMissing ? undefined : model.root);
    // '' is the page endpoint's own session: a client names it by leaving sessionId out.
    if (c.sessionId === '') return model.children.alias(c.sessionId);
    return model.sessions.session(c.sessionId) ?? model.children.alias(c.sessionId);
  }
}
