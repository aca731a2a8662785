// The CDP endpoint under /cdp/<token> on the bridge's port (CdpService, bridge/src/services.ts):
// standard DevTools clients (Playwright connectOverCDP, puppeteer, browser_use, chrome-devtools-mcp)
// reach the person's Chrome through it. Every request and upgrade passes the endpoint guard
// (bridge/common/endpoint-guard.ts: loopback peer, the /agent Host + Origin rule, the failure gate for
// wrong tokens), with the URL's token (cdp-clients-file.ts) verified first. Something that is not
// even token-shaped guesses nothing and is answered at once.
// Then HTTP answers discovery (discovery.ts) and an upgrade becomes one ordinary agent session: an
// AgentClient to /agent named `cdp:<name>` with the URL's tab limit, driven by a BrowserEmulator
// (browser-emulator.ts) that turns CDP into the relay's actions. Tokens are never logged (the path
// carries one): logs name the URL instead. A URL made with --browser B names B in its session's
// hello (browser_name), and /json/version and Browser.getVersion describe the browser the URL works in
// (browser-versions.ts), as the bridge told this endpoint's agent sessions.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';

import { WebSocket, WebSocketServer } from 'ws';

import type { BrowserInfo, CdpClientControlMessage, ExtensionStatusMessage, HelloAckMessage } from '../../../schemas/generated/protocol';
import { CLOSE_CODES } from '../../../schemas/lib/close-codes';
import { AgentClient } from '../../client/agent-client';
import { EndpointGuard } from '../../common/endpoint-guard';
import { EPHEMERAL_SESSION } from '../../common/ephemeral-session';
import { CDP_READ_MAX_BYTES, explainTooBig } from '../../common/message-limits';
import { TAB_LIMIT_REFUSES } from '../../common/tab-limit-refuses';
import { BrowserVersions } from './browser-versions';
import { type CdpClientRecord, CdpClientsFile, touchCdpClient } from './cdp-clients-file';
import { CdpClientsPanel, type ControlAnswer } from './cdp-clients-panel';
import {
  type CdpEmulator,
  type CdpEmulatorOptions,
  type CdpSocket,
  closeReason,
  type Connection,
  releaseConnection,
  safe,
  versionAnswer,
} from './cdp-connection';
import { pumpClient } from './client-pump';
import { ConnectionReleases } from './connection-releases';
import {
  type BrowserVersion,
  type CdpRoute,
  listBody,
  type ListedTarget,
  tabChangeMessage,
  UNKNOWN_BROWSER,
  versionBody,
  versionOfBrowser,
  wsBase,
} from './discovery';
import { CDP_PREFIX, type CdpEndpointOptions, CLOSE_REVOKED, DEFAULT_CDP_CONNECTIONS_PER_URL } from './endpoint-options';
import { json, refuseUpgrade } from './http-replies';
import { TOO_BIG_TO_READ } from './message-size';
import { servePageSocket } from './page-socket';
import { checkCdpRequest } from './request-check';
import { markStopped, STOPPED_CLOSE_REASON, STOPPED_SOCKET_GRACE_MS, stoppedHttpBody } from './stopped-url';

export type { CdpConnectionStats, CdpEmulator, CdpEmulatorFactory, CdpEmulatorOptions, CdpSocket } from './cdp-connection';
export { CDP_PREFIX, type CdpEndpointOptions, CLOSE_REVOKED, DEFAULT_CDP_CONNECTIONS_PER_URL } from './endpoint-options';

/** Longest a closing bridge waits for one emulator to hand its tabs back. */
const DISPOSE_WAIT_MS = 2_000;
export class CdpEndpoint {
  readonly prefix = CDP_PREFIX;
  readonly label = 'Chrome DevTools Protocol: make a URL with browser-use-ext cdp-url';
  private readonly file: CdpClientsFile;
  private readonly wss: WebSocketServer;
  private readonly guard: EndpointGuard;
  private readonly panel: CdpClientsPanel;
  private readonly connections = new Map<number, Connection>();
  /** Connections of a URL still letting go of their tabs after their socket closed. */
  private readonly releases = new ConnectionReleases(DISPOSE_WAIT_MS);
  private readonly poll: ReturnType<typeof setInterval>;
  private readonly browserId = crypto.randomUUID();
  private readonly maxPerUrl: number;
  private nextId = 1;
  /** The person's browser as its own Browser.getVersion last described it (a bridge that names no browsers). */
  private browser: BrowserVersion | null = null;
  /** The browsers the bridge told this endpoint's agent sessions of, for /json/version per URL. */
  private readonly versions = new BrowserVersions();
  /** A short agent session asking the bridge which browsers it has (when /json/version comes before any connection). */
  private probing: Promise<void> | null = null;
  private probedAt = 0;
  private fileVersion = -1;
  private closed = false;

  constructor(private readonly opts: CdpEndpointOptions) {
    this.file = new CdpClientsFile(opts.configDir);
    this.wss = new WebSocketServer({ noServer: true, maxPayload: CDP_READ_MAX_BYTES, perMessageDeflate: false });
    this.maxPerUrl = opts.maxConnectionsPerUrl ?? DEFAULT_CDP_CONNECTIONS_PER_URL;
    this.guard = new EndpointGuard({
      name: { action: 'use the CDP endpoint', callers: 'CDP clients' },
      logName: 'cdp',
      loopbackOnly:
        'The CDP endpoint serves this machine only (loopback): its URL carries a token over plain http. Run the CDP client on the machine where the bridge runs, or tunnel to it over SSH.',
      checkHeaders: opts.checkHeaders,
      credential: 'CDP URL token',
      log: opts.log,
      maxFailures: opts.maxFailures,
      failureIntervalMs: opts.failureIntervalMs,
      maxPendingFailures: opts.maxPendingFailures,
      logWindowMs: opts.failureLogWindowMs ?? 10_000,
    });
    this.panel = new CdpClientsPanel({
      file: this.file,
      configDir: opts.configDir,
      log: opts.log,
      sendToExtension: opts.sendToExtension,
      connections: () => this.connections.values(),
      onRevoked: (name) => {
        this.file.refresh();
        this.fileVersion = this.file.version;
        this.closeConnections(
          (x) => x.name === name,
          'this CDP URL was revoked in the browser-use-ext side panel; make a new one with: browser-use-ext cdp-url',
          CLOSE_REVOKED,
        );
      },
    });
    this.poll = setInterval(() => this.tick(), opts.pollMs ?? 1000);
    this.poll.unref();
  }

  // --- HTTP -------------------------------------------------------------------------------------

  handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    void this.handleHttp(req, res).catch((e: unknown) => {
      this.opts.log.warn('cdp request failed', { error: e instanceof Error ? e.message : String(e) });
      if (!res.headersSent)
        json(res, 500, { error: "Internal error in the bridge's CDP endpoint; retry, and report the bug if it repeats." });
      else res.end();
    });
  }

  private async handleHttp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const checked = await checkCdpRequest(req, 'http', this.checks());
    if (!checked.ok) {
      if (checked.status === 'drop') return void req.socket.destroy();
      if (checked.stopped) {
        const ws = `${wsBase(req.headers.host ?? '127.0.0.1', this.prefix, checked.stopped.token)}/devtools/browser/${this.browserId}`;
        return json(res, checked.status, stoppedHttpBody(checked.message, ws));
      }
      return json(res, checked.status, { error: checked.message });
    }
    const { route, token } = checked;
    if (route.kind === 'tab-change') return json(res, 405, { error: tabChangeMessage(route.what) });
    if (req.method !== 'GET')
      return json(res, 405, {
        error: `Only GET is served here (got ${req.method ?? '?'}); the DevTools protocol itself runs over the WebSocket.`,
      });
    // req.headers.host passed the loopback Host check in check().
    const base = wsBase(req.headers.host ?? '127.0.0.1', this.prefix, token);
    switch (route.kind) {
      case 'version':
        return json(res, 200, versionBody(base, this.browserId, await this.versionFor(checked.record)));
      case 'list':
        return json(res, 200, listBody(base, this.targetsOf(checked.record.name)));
      case 'protocol':
        return json(res, 404, {
          error: 'The protocol description is not served here; see https://chromedevtools.github.io/devtools-protocol/ (version 1.3).',
        });
      default:
        return json(res, 404, {
          error: 'Not a DevTools endpoint.',
          endpoints: ['/json/version', '/json/list', '/json', 'ws: /devtools/browser/<id>', 'ws: /devtools/page/<targetId>'],
        });
    }
  }

  private checks(): Parameters<typeof checkCdpRequest>[2] {
    return { guard: this.guard, file: this.file, prefix: this.prefix, log: this.opts.log };
  }

  // --- WebSocket --------------------------------------------------------------------------------

  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined); // a client that resets mid-refusal must not take the bridge down
    void this.upgradeChecked(req, socket, head).catch((e: unknown) => {
      this.opts.log.warn('cdp connection failed', { error: e instanceof Error ? e.message : String(e) });
      refuseUpgrade(socket, 500, "Internal error in the bridge's CDP endpoint; retry, and report the bug if it repeats.");
    });
  }

  private async upgradeChecked(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const checked = await checkCdpRequest(req, 'ws', this.checks());
    if (!checked.ok) {
      if (checked.status === 'drop') return void socket.destroy();
      if (checked.stopped) return this.wss.handleUpgrade(req, socket, head, (ws) => ws.close(CLOSE_REVOKED, STOPPED_CLOSE_REASON));
      return refuseUpgrade(socket, checked.status, checked.message);
    }
    const { record, route } = checked;
    if (route.kind !== 'browser-ws' && route.kind !== 'page-ws')
      return refuseUpgrade(
        socket,
        404,
        'Not a DevTools WebSocket. Use webSocketDebuggerUrl from /json/version (…/devtools/browser/<id>) or /json/list (…/devtools/page/<targetId>).',
      );
    const open = [...this.connections.values()].filter((c) => c.name === record.name).length;
    if (open >= this.maxPerUrl) {
      this.guard.refusals.refused(`cdp connection refused (${record.name})`, 'cdp connection refused: the URL is at its connection cap', {
        name: record.name,
        connections: open,
      });
      return refuseUpgrade(
        socket,
        429,
        `The CDP URL "${record.name}" already has ${open} open connections, its cap is ${this.maxPerUrl}. Close connections you no longer use (browser.close() / disconnect) and connect again.`,
      );
    }
    // A page another connection of this URL holds is served by that connection (one debugger per tab).
    const holder = route.kind === 'page-ws' ? this.pageHolder(record.name, route.targetId) : null;
    if (holder && route.kind === 'page-ws')
      return this.wss.handleUpgrade(req, socket, head, (ws) => servePageSocket(ws, holder, route.targetId, this.opts.log));
    const conn: Connection = {
      id: this.nextId++,
      name: record.name,
      sha256: record.sha256,
      ws: null,
      agent: null,
      emulator: null,
      ended: null,
      versionIds: new Set(),
    };
    // A connection of this URL the bridge is already closing (a frame over the limit: 1009) says 'close'
    // only once the closing handshake is over, which a client reconnecting at once can beat on a busy
    // machine: its release starts now, so the wait below covers it.
    for (const c of [...this.connections.values()])
      if (c.name === record.name && c.ws !== null && c.ws.readyState !== WebSocket.OPEN)
        void this.endConnection(c, c.ended ?? 'client closed');
    this.connections.set(conn.id, conn);
    await this.releases.settled(record.name); // a client reconnecting at once finds its tabs free
    let agent: AgentClient;
    try {
      agent = await AgentClient.connect({
        url: this.opts.agentUrl(),
        secret: this.opts.agentSecret(),
        ...(this.opts.agentLink ? { inProcess: this.opts.agentLink } : {}),
        clientName: `cdp:${record.name}`,
        maxTabs: record.max_tabs,
        ...(record.browser === null ? {} : { browser: record.browser }),
        capabilities: [EPHEMERAL_SESSION, TAB_LIMIT_REFUSES],
        // A blip inside the bridge resumes the same session (same tabs) instead of ending the client's.
        reconnect: true,
      });
    } catch (e) {
      this.connections.delete(conn.id);
      const why = e instanceof Error ? e.message : String(e);
      this.opts.log.warn('cdp connection refused: no agent session', { name: record.name, error: why });
      return refuseUpgrade(socket, 503, `The bridge could not open an agent session for this CDP client: ${why}`);
    }
    conn.agent = agent;
    this.versions.learnAck(agent.hello);
    agent.on('reconnected', (ack: HelloAckMessage | null) => this.versions.learnAck(ack));
    agent.on('extension_status', (m: ExtensionStatusMessage) => this.versions.learnStatus(m));
    agent.on('close', (code: number) => {
      if (code === CLOSE_CODES.disconnectedByPerson) this.stopped(conn);
    });
    if (conn.ended !== null || this.closed) {
      this.connections.delete(conn.id);
      await agent.close();
      return refuseUpgrade(socket, 403, conn.ended ?? 'The bridge is shutting down.');
    }
    const downloadsDir = path.join(this.opts.configDir, 'downloads', record.name);
    try {
      fs.mkdirSync(downloadsDir, { recursive: true, mode: 0o700 });
      touchCdpClient(this.opts.configDir, record.name, record.sha256);
    } catch (e) {
      this.opts.log.warn('cdp: could not prepare the downloads folder or note the last use', {
        name: record.name,
        error: e instanceof Error ? e.message : String(e),
      });
    }
    // The client may have given up while the session opened; handleUpgrade then destroys the socket
    // without calling back, so the session is ended here instead.
    const abandoned = () => {
      if (conn.ws !== null || this.connections.get(conn.id) !== conn) return;
      this.connections.delete(conn.id);
      void agent.close();
    };
    if (socket.destroyed || !socket.writable) return abandoned();
    socket.once('close', abandoned);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(conn, ws, agent, route, downloadsDir));
  }

  private onConnection(conn: Connection, ws: WebSocket, agent: AgentClient, route: CdpRoute, downloadsDir: string): void {
    conn.ws = ws;
    explainTooBig(ws, TOO_BIG_TO_READ);
    this.opts.log.info('cdp client connected', { name: conn.name, session: agent.sessionId });
    const socket: CdpSocket = {
      send: (text) => {
        const told = conn.versionIds.size > 0 ? versionAnswer(conn, text) : null;
        if (told) {
          this.browser = told;
          this.versions.remember(agent.browser, told);
        }
        if (ws.readyState === WebSocket.OPEN) ws.send(text);
      },
      close: (code, reason) => ws.close(code, closeReason(reason)),
    };
    let emulator: CdpEmulator;
    try {
      emulator = this.opts.emulator({
        socket,
        agent,
        target: route.kind === 'page-ws' ? this.pageTarget(conn.name, route.targetId) : { kind: 'browser' },
        log: this.opts.log,
        downloadsDir,
        browser: () => this.sessionVersion(agent),
      });
    } catch (e) {
      this.opts.log.error('cdp: could not start the DevTools emulation', {
        name: conn.name,
        error: e instanceof Error ? e.message : String(e),
      });
      ws.close(1011, 'the bridge could not start the DevTools emulation; see its log');
      this.connections.delete(conn.id);
      void agent.close();
      return;
    }
    conn.emulator = emulator;
    ws.on('error', (err) => this.opts.log.warn('cdp connection error', { name: conn.name, error: err.message }));
    ws.on('close', (code: number) => {
      this.opts.log.info('cdp client disconnected', { name: conn.name, code });
      void this.endConnection(conn, conn.ended ?? 'client closed');
    });
    // The person's Stop (the agent session closed for good) is the emulator's to report: the client
    // sees its pages detached and then a CDP error per command naming the Stop, as the contract says,
    // rather than a bare closed socket.
    this.publishChanges();
    pumpClient({ conn, ws, socket, emulator, log: this.opts.log });
  }

  private endConnection(conn: Connection, reason: string): Promise<void> {
    if (this.connections.get(conn.id) !== conn) return Promise.resolve();
    this.connections.delete(conn.id);
    conn.ended ??= reason;
    return this.releases.track(
      conn.name,
      releaseConnection(conn, reason, this.opts.log).then(() => this.publishChanges()),
    );
  }

  /** Ends every connection of `name` (or those whose URL was replaced): the client sees `reason`. */
  private closeConnections(pred: (c: Connection) => boolean, reason: string, code: number): void {
    for (const c of this.connections.values()) {
      if (!pred(c) || c.ended !== null) continue;
      c.ended = reason;
      if (c.ws && c.ws.readyState === WebSocket.OPEN) c.ws.close(code, closeReason(reason));
      else if (c.ws) void this.endConnection(c, reason);
      // A connection still being set up sees `ended` and refuses itself.
    }
  }

  /**
   * The person stopped this client (Disconnect in the panel, Stop in the page): its URL is refused from
   * now on and the URL's other connections end. The stopped one first hears its pages are gone (its
   * emulator detaches them and answers each command with why, which Playwright and puppeteer print),
   * and STOPPED_SOCKET_GRACE_MS later its socket closes with the reason: browser_use 0.13 treats a
   * closed socket as a crash and reconnects, is refused (the URL is stopped), and ends its run, where a
   * socket that stayed open and only refused commands kept it asking its model until max_steps.
   */
  private stopped(conn: Connection): void {
    markStopped(this.opts.configDir, conn.name, conn.sha256, this.opts.log);
    this.file.refresh();
    this.fileVersion = this.file.version;
    const reason = "the person stopped this CDP URL's client in the browser; allow it again in the side panel or make a new URL";
    this.closeConnections((c) => c !== conn && c.name === conn.name && c.sha256 === conn.sha256, reason, CLOSE_REVOKED);
    setTimeout(() => this.closeConnections((c) => c === conn, STOPPED_CLOSE_REASON, CLOSE_REVOKED), STOPPED_SOCKET_GRACE_MS).unref();
    this.publishChanges();
  }

  // --- What the panel and /status see ------------------------------------------------------------

  private pageTarget(name: string, targetId: string): CdpEmulatorOptions['target'] {
    const tabId = this.targetsOf(name).find((t) => t.targetId === targetId)?.tabId;
    return tabId === undefined ? { kind: 'page', targetId } : { kind: 'page', targetId, tabId };
  }

  /**
   * /json/version of a URL: the browser it works in (named, else the bridge's rule for an agent that
   * names none), as the bridge described it, else as a client's Browser.getVersion did, else unknown.
   * A bridge that names no browsers: the extension's word at hello, as before.
   */
  private async versionFor(record: CdpClientRecord): Promise<BrowserVersion> {
    const oldBridge = this.versions.heardBridge && !this.versions.namesBrowsers;
    if (!oldBridge && !this.versions.pick(record.browser)?.connected) await this.probe(record.browser);
    if (!this.versions.namesBrowsers) return versionOfBrowser(this.opts.extensionBrowser?.()) ?? this.browser ?? UNKNOWN_BROWSER;
    // None to pick (no browser connected yet) for a URL bound to no browser: what a client's tab last
    // told, as before several browsers; a URL bound to a browser never takes another browser's word.
    return this.describe(this.versions.pick(record.browser)) ?? (record.browser === null ? this.browser : null) ?? UNKNOWN_BROWSER;
  }

  /**
   * A browser's version as the bridge described it. A bridge that passes no user agent with it: the
   * extension's word at hello when it is the same product (one browser), so User-Agent is never blank.
   */
  private describe(info: BrowserInfo | undefined): BrowserVersion | null {
    const v = this.versions.versionOf(info);
    if (!v || v.userAgent !== '') return v;
    const ext = this.opts.extensionBrowser?.();
    return ext && ext.product === v.product ? versionOfBrowser(ext) : v;
  }

  /**
   * Browser.getVersion's answer before a tab is asked: the browser this connection's session works in,
   * as the bridge described it (null while it has none, or without its user agent: a tab then tells).
   */
  private sessionVersion(agent: AgentClient): BrowserVersion | null {
    if (agent.browser) {
      const v = this.describe(agent.browser);
      return v && v.userAgent !== '' ? v : null;
    }
    if (this.versions.namesBrowsers || agent.hello?.browsers !== undefined) return null;
    return versionOfBrowser(this.opts.extensionBrowser?.());
  }

  /**
   * Asks the bridge which browsers it has, as any agent learns it: a session that only shakes hands
   * (hello_ack.browsers) and closes at once, holding no tab. At most one at a time and one per 2 s, so a
   * client polling /json/version for a browser that is not connected does not open a session per request.
   */
  private probe(browser: string | null): Promise<void> {
    if (this.probing) return this.probing;
    if (Date.now() - this.probedAt < 2_000 || this.closed) return Promise.resolve();
    this.probedAt = Date.now();
    this.probing = (async () => {
      const agent = await AgentClient.connect({
        url: this.opts.agentUrl(),
        secret: this.opts.agentSecret(),
        ...(this.opts.agentLink ? { inProcess: this.opts.agentLink } : {}),
        clientName: 'cdp:discovery',
        capabilities: [EPHEMERAL_SESSION],
        ...(browser === null ? {} : { browser }),
        reconnect: false,
        connectTimeoutMs: 3_000,
      });
      this.versions.learnAck(agent.hello);
      await agent.close();
    })()
      .catch((e: unknown) => {
        this.opts.log.debug('cdp: could not ask the bridge for its browsers', { error: e instanceof Error ? e.message : String(e) });
      })
      .finally(() => {
        this.probing = null;
      });
    return this.probing;
  }

  /** The live connection of `name` holding page `targetId` (one whose socket is closing lets go of it soon: not that one). */
  private pageHolder(name: string, targetId: string): CdpEmulator | null {
    for (const c of this.connections.values())
      if (
        c.name === name &&
        c.ended === null &&
        c.ws?.readyState === WebSocket.OPEN &&
        c.emulator?.openPage &&
        safe(() => c.emulator?.targets() ?? [], []).some((t) => t.targetId === targetId)
      )
        return c.emulator;
    return null;
  }

  private targetsOf(name: string): (ListedTarget & { tabId: number })[] {
    const seen = new Map<string, ListedTarget & { tabId: number }>();
    for (const c of this.connections.values()) {
      if (c.name !== name || !c.emulator) continue;
      for (const t of safe(() => c.emulator?.targets() ?? [], [])) if (!seen.has(t.targetId)) seen.set(t.targetId, t);
    }
    return [...seen.values()];
  }

  status(): unknown {
    return this.panel.status();
  }

  /** The extension just connected: it gets the whole list now. */
  publish(): void {
    this.panel.publish();
  }

  private publishChanges(): void {
    if (!this.closed) this.panel.publishChanges();
  }

  handleControl(c: CdpClientControlMessage): Promise<ControlAnswer> {
    return Promise.resolve(this.panel.control(c));
  }

  /** Once a second: pick up a changed file (new, replaced, revoked URLs) and refresh the panel's stats. */
  private tick(): void {
    try {
      this.file.refresh();
    } catch (e) {
      this.opts.log.warn('cdp: cannot check the CDP URL list', { error: e instanceof Error ? e.message : String(e) });
    }
    if (this.file.version !== this.fileVersion) {
      this.fileVersion = this.file.version;
      this.closeRevoked();
    }
    this.publishChanges();
  }

  /** Connections whose URL was revoked or replaced (same name, new token) end now. */
  private closeRevoked(): void {
    if (this.connections.size === 0) return;
    let records: CdpClientRecord[];
    try {
      records = this.file.records();
    } catch {
      return; // a damaged file says nothing about which URLs are gone
    }
    const live = new Set(records.map((r) => `${r.name}\n${r.sha256}`));
    const gone = (c: Connection) => !live.has(`${c.name}\n${c.sha256}`);
    for (const c of this.connections.values())
      if (gone(c) && c.ended === null) this.opts.log.info('cdp client disconnected: its URL was revoked or replaced', { name: c.name });
    this.closeConnections(gone, 'this CDP URL was revoked or replaced; make a new one with: browser-use-ext cdp-url', CLOSE_REVOKED);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    this.guard.close();
    const all = [...this.connections.values()];
    for (const c of all) {
      c.ended ??= 'the bridge is shutting down';
      if (c.ws && c.ws.readyState === WebSocket.OPEN) c.ws.close(1001, 'the bridge is shutting down');
    }
    await Promise.all(
      all.map((c) =>
        Promise.race([this.endConnection(c, 'the bridge is shutting down'), new Promise((r) => setTimeout(r, DISPOSE_WAIT_MS).unref())]),
      ),
    );
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
