// The bridge's HTTP/upgrade/routing shell: one HTTP server (loopback by default) carrying two
// WebSocket endpoints, /extension (the Chrome extension) and /agent (every kind of agent: Python
// shim, TypeScript client, MCP clients, seed connectors), plus /pair, /healthz, /status and the
// HTTP services handed in as options (MCP's /mcp: services.ts). Every connection passes the upgrade
// checks (origin-check.ts) and the handshake (handshake.ts: hello, HMAC challenge, version); then its messages go to its side:
// extension-link.ts (one per browser, browsers.ts: the extension, actions in
// flight, its absences) or agent-gateway.ts (sessions, leases, per-tab queues, tasks, the person's
// controls).
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { type RawData, type WebSocket, WebSocketServer } from 'ws';

import type { BrowserInfo, BrowserUpdateMessage, ErrorInfo, HelloMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { CLOSE_CODES } from '../../schemas/lib/close-codes';
import { errorInfo } from '../../schemas/lib/wire';
import { cdpTraceMark } from '../common/cdp-trace';
import { cli } from '../common/cli-invocation';
import { type LinkEnd, linkPair } from '../common/in-process-link';
import type { Logger, LogLevel } from '../common/log';
import { explainTooBig, mib } from '../common/message-limits';
import { checkUpgrade, type EndpointName, isLoopbackHost, type UpgradePolicy, type UpgradeVerdict } from '../common/origin-check';
import { DEFAULT_MAX_TABS, DEFAULT_PORT } from '../common/ports';
import type { FailureGate, RefusalLog } from '../common/rate-limit';
import type { Secrets } from '../common/secrets';
import { BRIDGE_NAME, BRIDGE_VERSION } from '../common/version';
import type { AgentGateway } from './agent-gateway';
import type { SessionsPublisher } from './agent-sessions';
import { type BrowserRegistry, DEFAULT_BROWSER_ID } from './browsers';
import type { CdpClientsScope } from './cdp-clients-scope';
import { cdpResultByHead } from './cdp-result-head';
import { DEFAULT_TIMEOUT_MS, type ExtensionLink } from './extension-link';
import type { Handshake } from './handshake';
import type { PairingCodes } from './pairing';
import { handlePairRequest } from './pairing-http';
import { CLOSE, Peer, type PeerSocket, type Role } from './peer';
import { rememberRaw } from './raw-relay';
import type { BridgeServices, CdpService, ConnectorService, HttpService } from './services';
import type { DebouncedWriter } from './session-store';
import type { SessionRegistry } from './sessions';
import type { TaskRegistry } from './tasks';

export { DEFAULT_MAX_TABS, DEFAULT_PORT, DEFAULT_TIMEOUT_MS };

/**
 * Agent sessions a bridge keeps at most unless told otherwise (--max-agent-sessions). One person's
 * browser rarely has more than a handful of agents; 64 leaves room for MCP clients that open a
 * session per conversation (16 per token by default, agents/mcp/http-endpoint.ts) and for sessions
 * waiting out their resume grace, while keeping memory, fds and the panel's list small.
 */
export const DEFAULT_MAX_AGENT_SESSIONS = 64;

export interface BridgeOptions {
  /** Interface to bind. Loopback by default: the bridge drives a person's logged-in browser. */
  host?: string;
  /** Required to bind anything but loopback (CLI --allow-remote). */
  allowRemote?: boolean;
  /** TCP port; 0 picks a free one (tests). */
  port?: number;
  logLevel?: LogLevel;
  logger?: Logger;
  /** Pairing secrets (secrets.ts). Omitted: fresh random ones, readable from `bridge.secrets` (tests). */
  secrets?: Secrets;
  /** Origins accepted on /extension. Default: chrome-extension://<EXTENSION_ID>. */
  extensionOrigins?: string[];
  /** Default per-action timeout when the action has no timeout_ms. */
  defaultTimeoutMs?: number;
  /** Interval of application-level pings to the extension. Must stay under ~25 s: MV3 workers idle out at 30 s. */
  keepaliveMs?: number;
  /** Largest accepted frame on /agent and /extension (default BRIDGE_FRAME_MAX_BYTES, message-limits.ts). */
  maxPayloadBytes?: number;
  /** Default tab limit per agent session (seed 002); hello.max_tabs overrides it per session. */
  maxTabsPerSession?: number;
  /** How long a disconnected agent's session (tabs, recorded results) waits to be resumed. */
  sessionGraceMs?: number;
  /** Recorded results kept per session for idempotent re-sends. */
  resultCacheSize?: number;
  /** A connection that has not finished the handshake by then is closed. */
  handshakeTimeoutMs?: number;
  /** File persisting sessions and leases across restarts (session-store.ts); the CLI uses
   * <config dir>/sessions.json. Omitted: sessions live in memory only (tests). */
  stateFile?: string;
  /** Invalid messages tolerated per connection before it is closed with 1008. */
  badMessageBudget?: number;
  /** Wrong guesses (per credential kind, all addresses together) answered at once before they are slowed (rate-limit.ts). */
  maxAuthFailures?: number;
  /** Past that burst, one wrong guess per kind is answered per this many ms. A right secret never waits. */
  authFailureIntervalMs?: number;
  /** Wrong guesses per kind waiting for their answer; more are closed unanswered (bounds fds). */
  maxPendingAuthFailures?: number;
  /** Wrong guesses are logged once in full, then summarised in one line per this many ms. */
  authFailureLogWindowMs?: number;
  /** Agent sessions (connected or waiting to be resumed) the bridge keeps at most; a new one past it
   * is refused with TOO_MANY_SESSIONS. Resuming an existing session is always allowed. */
  maxAgentSessions?: number;
  /** The services beside the relay (MCP's /mcp, the panel's backend connectors), built by the CLI
   * (bridge/cli/wire.ts). Omitted: the relay alone. */
  services?: BridgeServices;
  /** Where `browser-use-ext pair` writes one-time pairing codes (pairing.ts). Omitted: in-process codes only. */
  configDir?: string;
  /** How the person types the CLI where this bridge runs (bridge/common/cli-invocation.ts; the CLI sets it).
   * /healthz names it so the extension prints commands that work there. Omitted: not named. */
  cliForm?: string;
  /** Protocol version this bridge speaks (default PROTOCOL_VERSION); tests set another to play a different release. */
  protocolVersion?: number;
}

/** BridgeOptions with every default filled in (bridge/cli/wire.ts resolves them). */
export type ResolvedOptions = Required<
  Omit<
    BridgeOptions,
    'logger' | 'logLevel' | 'secrets' | 'extensionOrigins' | 'stateFile' | 'services' | 'configDir' | 'protocolVersion' | 'cliForm'
  >
>;

/** The relay's collaborators, built and tied together by bridge/cli/wire.ts (createRelay), handed in whole. */
export interface RelayParts {
  opts: ResolvedOptions;
  secrets: Secrets;
  extensionOrigins: string[];
  log: Logger;
  failures: FailureGate;
  /** Refusals anybody can trigger (browser Origins, abandoned handshakes): summarised per window. */
  refusals: RefusalLog;
  sessions: SessionRegistry;
  tasks: TaskRegistry;
  /** Writes sessions to the state file; null when sessions live in memory only. */
  persist: DebouncedWriter | null;
  /** Every browser the person uses, each with its extension link. */
  browsers: BrowserRegistry;
  /** cdp_clients cut per browser, and which panel may revoke which URL. */
  cdpScope: CdpClientsScope;
  agents: AgentGateway;
  handshake: Handshake;
  /** One-time pairing codes redeemed on POST /pair (pairing.ts). */
  pairing: PairingCodes;
  /** BridgeOptions.cliForm, or null. */
  cliForm: string | null;
  publisher: SessionsPublisher;
  /** HTTP endpoints beside the relay (MCP's /mcp). */
  httpServices: HttpService[];
  /** Backend connectors the person starts from the side panel; null when the CLI gave none. */
  connectors: ConnectorService | null;
  /** The CDP endpoint (/cdp/...); null when the CLI gave none. */
  cdp: CdpService | null;
}

export class BridgeServer extends EventEmitter {
  readonly secrets: Secrets;
  private readonly opts: ResolvedOptions;
  private readonly extensionOrigins: string[];
  private readonly log: Logger;
  private readonly http: http.Server;
  private readonly wss: WebSocketServer;
  private readonly browsers: BrowserRegistry;
  private readonly cdpScope: CdpClientsScope;
  /** The browser of each extension connection (its hello.browser_id, or the default one). */
  private readonly browserOfPeer = new WeakMap<Peer, string>();
  private readonly agents: AgentGateway;
  private readonly handshake: Handshake;
  private readonly sessions: SessionRegistry;
  private readonly tasks: TaskRegistry;
  private readonly failures: FailureGate;
  /** Refusals anybody can trigger (browser Origins, abandoned handshakes): summarised per window. */
  private readonly refusals: RefusalLog;
  /** Each peer's socket, to close a connection without any answer (rate-limit.ts). */
  private readonly sockets = new WeakMap<Peer, { terminate(): void }>();
  /** The relay's ends of in-process agent links, cut at shutdown like the WebSocket clients. */
  private readonly inProcess = new Set<LinkEnd>();
  private nextId = 1;
  private readonly persist: DebouncedWriter | null;
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private address: AddressInfo | null = null;
  /** One-time pairing codes redeemed on POST /pair (pairing.ts). */
  readonly pairing: PairingCodes;
  private readonly cliForm: string | null;
  private readonly publisher: SessionsPublisher;
  /** HTTP endpoints beside the relay (MCP's /mcp), by path. */
  private readonly httpServices = new Map<string, HttpService>();
  /** Backend connectors the person starts from the side panel; null when the CLI gave none. */
  private readonly connectors: ConnectorService | null;
  /** The CDP endpoint (/cdp/...); null when the CLI gave none. */
  private readonly cdp: CdpService | null;

  /** Stores what bridge/cli/wire.ts built and wires the HTTP server's listeners; builds nothing else. */
  constructor(parts: RelayParts) {
    super();
    this.setMaxListeners(0); // every action waiting for the extension to come back listens once
    this.opts = parts.opts;
    this.secrets = parts.secrets;
    this.extensionOrigins = parts.extensionOrigins;
    this.log = parts.log;
    this.failures = parts.failures;
    this.refusals = parts.refusals;
    this.sessions = parts.sessions;
    this.tasks = parts.tasks;
    this.persist = parts.persist;
    this.browsers = parts.browsers;
    this.cdpScope = parts.cdpScope;
    this.agents = parts.agents;
    this.handshake = parts.handshake;
    this.pairing = parts.pairing;
    this.cliForm = parts.cliForm;
    this.publisher = parts.publisher;
    for (const service of parts.httpServices) this.httpServices.set(service.path, service);
    this.connectors = parts.connectors;
    this.cdp = parts.cdp;
    this.http = http.createServer((req, res) => this.onHttp(req, res));
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.opts.maxPayloadBytes });
    this.http.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
  }

  /** The handshake is done: the extension's link or the agents' gateway takes the peer, unless the session cap refuses it. */
  admit(peer: Peer, hello: HelloMessage): void {
    if (peer.role === 'extension') {
      const id = this.browsers.onExtensionHello(hello);
      this.browserOfPeer.set(peer, id);
      // Told as connected: its link takes the connection in onReady, right before the ack leaves.
      const up = (b: BrowserInfo): BrowserInfo => (b.browser_id === id ? { ...b, connected: true } : b);
      const self = this.browsers.info(id);
      return this.browsers
        .link(id)
        .onReady(peer, hello.browser, { ...(self ? { browser: up(self) } : {}), browsers: this.browsers.list().map(up) });
    }
    const refusal = this.sessionCapRefusal(hello);
    if (!refusal) return this.agents.onReady(peer, hello);
    this.refusals.refused(
      'agent session refused: the bridge is at its session cap',
      'agent session refused: the bridge is at its session cap',
      {
        peer: peer.id,
        client: hello.client,
        max_agent_sessions: this.opts.maxAgentSessions,
      },
    );
    peer.stage = 'refused'; // nothing it sends before the close reaches the gateway
    peer.sendError(refusal, 'hello');
    peer.close(CLOSE.policy, `too many agent sessions (${this.opts.maxAgentSessions}); close idle ones`);
  }

  /** Closes a peer's connection without any answer (rate-limit.ts). */
  drop(peer: Peer): void {
    this.sockets.get(peer)?.terminate();
  }

  /** The bridge's Host + Origin rule (origin-check.ts) as it applies to /agent, for the services beside the relay. */
  checkAgentHeaders(headers: http.IncomingHttpHeaders, endpoint?: EndpointName): UpgradeVerdict {
    return checkUpgrade('agent', headers, this.upgradePolicy(), endpoint);
  }

  private onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const role = roleForPath(req.url);
    if (!role && this.cdp && (req.url ?? '').startsWith(this.cdp.prefix)) {
      this.cdp.upgrade(req, socket, head);
      return;
    }
    if (!role) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const verdict = checkUpgrade(role, req.headers, this.upgradePolicy());
    if (!verdict.ok) {
      this.refusals.refused(`refused connection to /${role}`, 'refused connection', {
        endpoint: role,
        reason: verdict.reason,
        remote: req.socket.remoteAddress,
      });
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${verdict.reason}\n`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, role, req.socket.remoteAddress ?? 'unknown'));
  }

  async start(): Promise<{ host: string; port: number }> {
    if (!isLoopbackHost(this.opts.host) && !this.opts.allowRemote) {
      throw new Error(
        `Refusing to bind ${this.opts.host}: the bridge drives a logged-in browser and listens on loopback only unless allowRemote (--allow-remote) is set.`,
      );
    }
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.opts.port, this.opts.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    this.address = this.http.address() as AddressInfo;
    this.keepalive = setInterval(() => {
      for (const link of this.browsers.allLinks()) link.ping();
    }, this.opts.keepaliveMs);
    this.keepalive.unref();
    this.log.info('bridge listening', { host: this.address.address, port: this.address.port });
    await this.connectors?.start(this.agentUrl, this.secrets.agent_secret);
    return { host: this.address.address, port: this.address.port };
  }

  get port(): number {
    if (!this.address) throw new Error('bridge not started: call start() first');
    return this.address.port;
  }

  /** Base URL without path, e.g. ws://127.0.0.1:8765. */
  get url(): string {
    const host = this.opts.host.includes(':') ? `[${this.opts.host}]` : this.opts.host;
    return `ws://${host}:${this.port}`;
  }

  get agentUrl(): string {
    return `${this.url}/agent`;
  }

  get extensionUrl(): string {
    return `${this.url}/extension`;
  }

  get extensionConnected(): boolean {
    return this.browsers.anyConnected;
  }

  /** Resolves once an extension has completed its handshake (tests, harness). */
  waitForExtension(timeoutMs = 15_000): Promise<void> {
    if (this.extensionConnected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('extension-connected', onUp);
        reject(
          new Error(
            `no extension connected to ${this.extensionUrl} within ${timeoutMs} ms: is it loaded, paired (extension secret) and pointed at this port?`,
          ),
        );
      }, timeoutMs);
      const onUp = () => {
        clearTimeout(timer);
        resolve();
      };
      this.once('extension-connected', onUp);
    });
  }

  /** /status: what is connected and which tabs are leased. Never secrets or session tokens. */
  status(): Record<string, unknown> {
    const sessions = this.sessions.all().map((s) => ({
      session_id: s.id,
      connected: s.connected,
      client: s.peer?.client ?? null,
      capabilities: s.capabilities,
      max_tabs: s.maxTabs,
      current_tab_id: s.currentTab,
      tabs: [...s.tabs.values()].map((l) => ({ tab_id: l.tabId, url: l.url })),
      browser: this.browsers.nameOf(s.browserId),
    }));
    const links = this.browsers.allLinks();
    // Old readers look at `extension`: the default browser's link, connected when any browser is.
    const shown = this.browsers.defaultBrowser();
    return {
      bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION, protocol_version: PROTOCOL_VERSION },
      extension:
        shown === null
          ? (links.find((l) => l.away)?.status() ?? { connected: false, away_since: null })
          : this.browsers.link(shown).status(),
      browsers: this.browsers.list(),
      sessions,
      agents: sessions
        .filter((s) => s.connected)
        .map((s) => ({ session_id: s.session_id, client: s.client, capabilities: s.capabilities, browser: s.browser })),
      leased_tabs: sessions.reduce((n, s) => n + s.tabs.length, 0),
      in_flight_actions: links.reduce((n, l) => n + l.inFlight, 0),
      running_tasks: this.tasks.size,
      ...(this.cdp ? { cdp_clients: this.cdp.status() } : {}),
      security: {
        loopback_only: !this.opts.allowRemote,
        extension_origins: this.extensionOrigins,
        authentication: 'hmac-sha256 challenge-response',
      },
    };
  }

  async close(): Promise<void> {
    if (this.keepalive) clearInterval(this.keepalive);
    this.failures.close();
    this.refusals.close();
    this.publisher.stop();
    await this.connectors?.close();
    await this.cdp?.close();
    for (const service of this.httpServices.values()) await service.close();
    for (const link of this.browsers.allLinks()) link.close();
    this.agents.closeAll();
    // Sessions stay on disk so agents resume them after a restart (session-store.ts).
    this.persist?.stop();
    this.sessions.clear();
    // Give the close frames a moment to leave, then cut whatever is left.
    await new Promise((r) => setTimeout(r, 20));
    for (const ws of this.wss.clients) ws.terminate();
    for (const end of this.inProcess) end.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  /**
   * A new agent session past maxAgentSessions is refused (each holds a socket, tabs and recorded
   * results: a thousand of them cost 231 MB and 2,000 fds, and the panel cannot show them). Resuming
   * a session that exists is always allowed, so a reconnecting agent never loses its tabs to the cap.
   */
  private sessionCapRefusal(hello: HelloMessage): ErrorInfo | null {
    if (hello.session_token && this.sessions.find(hello.session_token)) return null;
    const all = this.sessions.all();
    const max = this.opts.maxAgentSessions;
    if (all.length < max) return null;
    const waiting = all.filter((s) => !s.connected).length;
    return errorInfo(
      'TOO_MANY_SESSIONS',
      `This bridge already has ${all.length} agent sessions (${waiting} of them disconnected, kept ${Math.round(this.opts.sessionGraceMs / 1000)} s for a resume), its cap is ${max}. ` +
        `Close agents you no longer need (end them normally, or Disconnect them in the extension's side panel; ${this.statusUrl} lists every session), ` +
        `wait for disconnected ones to expire, or restart the bridge with --max-agent-sessions N.`,
      'bridge',
      { max_agent_sessions: max, agent_sessions: all.length },
    );
  }

  private get statusUrl(): string {
    return `${this.url.replace(/^ws/, 'http')}/status`;
  }

  private upgradePolicy(): UpgradePolicy {
    const wildcard = this.opts.host === '0.0.0.0' || this.opts.host === '::';
    return {
      port: this.port,
      extensionOrigins: this.extensionOrigins,
      extraHosts: this.opts.allowRemote ? [this.opts.host] : [],
      anyHostName: this.opts.allowRemote && wildcard,
    };
  }

  // --- HTTP ---------------------------------------------------------------------------------

  private onHttp(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    // A service beside the relay (MCP's /mcp) does its own loopback, Host/Origin and token checks.
    const service = path === undefined ? undefined : this.httpServices.get(path);
    if (service) return void service.handle(req, res);
    if (this.cdp && path?.startsWith(this.cdp.prefix)) return void this.cdp.handle(req, res);
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    // Same Host rule as the WebSocket endpoints: a DNS-rebound page must not read /status either.
    // No CORS headers, so other origins cannot read the answers.
    const verdict = checkUpgrade('agent', { host: req.headers.host }, this.upgradePolicy());
    if (!verdict.ok) return json(403, { error: verdict.reason });
    if (path === '/pair') {
      void handlePairRequest(req, {
        codes: this.pairing,
        gate: this.failures,
        refusals: this.refusals,
        extensionOrigins: this.extensionOrigins,
        secret: this.secrets.extension_secret,
        extensionUrl: this.extensionUrl,
        log: this.log,
        maxWaitMs: this.opts.handshakeTimeoutMs,
      }).then((answer) => (answer === 'drop' ? req.socket.destroy() : json(answer.code, answer.body)));
      return;
    }
    if (req.method !== 'GET') return json(405, { error: 'only GET' });
    // config_dir: which config dir's pairing codes this bridge reads (a hash; `pair` compares it with its own).
    if (path === '/healthz') {
      const dirId = this.pairing.configDirId();
      // cli: how the person types this CLI where the bridge runs; the extension prints commands that way.
      return json(200, {
        ok: true,
        ...(this.cliForm === null ? {} : { cli: this.cliForm }),
        ...(dirId === null ? {} : { config_dir: dirId }),
      });
    }
    if (path === '/status') return json(200, this.status());
    json(404, {
      error: 'not found',
      endpoints: [
        '/agent (WebSocket)',
        '/extension (WebSocket)',
        ...[...this.httpServices.values()].map((s) => `${s.path} (${s.label})`),
        ...(this.cdp ? [`${this.cdp.prefix}<token> (${this.cdp.label})`] : []),
        '/healthz',
        '/status',
      ],
    });
  }

  // --- WebSocket ----------------------------------------------------------------------------

  private onConnection(ws: WebSocket, role: Role, remote: string): void {
    explainTooBig(ws, `a frame to the bridge is at most ${mib(this.opts.maxPayloadBytes)}; send less in one message`);
    const conn = this.openPeer(ws, role, remote);
    ws.on('message', (data: RawData, isBinary: boolean) => conn.message(rawToString(data), isBinary));
    ws.on('close', (code: number) => conn.closed(code));
    ws.on('error', (err) => {
      // ws reports oversize frames here and closes with 1009 itself.
      this.log.warn('connection error', { peer: conn.peer.id, error: err.message });
    });
  }

  /**
   * An agent inside this process (the CDP endpoint) connects without a loopback socket: it gets the
   * client end of an in-process link (in-process-link.ts), and its frames take the same road as a
   * WebSocket's from here on (handshake, Peer.receive's validation, the gateway's leases and Stop).
   */
  connectInProcessAgent(): LinkEnd {
    const { client, server } = linkPair(this.opts.maxPayloadBytes);
    this.inProcess.add(server);
    const conn = this.openPeer(server, 'agent', 'in-process');
    server.on('message', (text, isBinary) => conn.message(text, isBinary));
    server.on('close', (code) => {
      this.inProcess.delete(server);
      conn.closed(code);
    });
    return client;
  }

  /** A new connection's peer, its handshake deadline, and what to do with each frame and at its close. */
  private openPeer(socket: PeerSocket & { terminate(): void }, role: Role, remote: string) {
    const peer = new Peer(
      `${role === 'extension' ? 'ext' : 'agent'}-${this.nextId++}`,
      role,
      socket,
      this.log,
      remote,
      this.opts.badMessageBudget,
    );
    this.log.debug('connection opened', { peer: peer.id });
    this.sockets.set(peer, socket);
    const handshakeTimer = setTimeout(() => {
      // A refused peer waits for the gate (rate-limit.ts), which answers or closes it: answering it
      // here would hand a guesser its "wrong" faster than the gate allows.
      if (peer.ready || peer.stage === 'refused') return;
      peer.sendError(
        errorInfo(
          'UNAUTHORIZED',
          `No completed handshake within ${this.opts.handshakeTimeoutMs} ms. Send hello, then auth_response to the auth_challenge.`,
          'bridge',
        ),
        null,
      );
      this.handshake.refused(peer, 'handshake timeout');
      peer.close(CLOSE.policy, 'handshake timeout');
    }, this.opts.handshakeTimeoutMs);
    handshakeTimer.unref();
    return {
      peer,
      message: (text: string, isBinary: boolean) => {
        if (isBinary) {
          peer.sendError(
            errorInfo('INVALID_MESSAGE', 'Binary frames are not part of the protocol; send JSON text frames.', 'bridge'),
            null,
          );
          peer.close(CLOSE.unsupportedData, 'binary frames are not accepted');
          return;
        }
        if (peer.role === 'extension') cdpTraceMark('b_ext_frame');
        // A paired extension's CDP answer is routed by its envelope, its result passed on unparsed (cdp-result-head.ts).
        const byHead = peer.role === 'extension' && peer.ready ? cdpResultByHead(text) : null;
        const message =
          byHead ??
          peer.receive(text, (error, inReplyTo) => {
            // An invalid answer from the extension must not leave its agent waiting for the timeout.
            if (peer.role === 'extension' && inReplyTo !== null) this.linkOf(peer)?.onInvalidAnswer(inReplyTo, error);
          });
        if (message && peer.role === 'extension') rememberRaw(message, text);
        if (message) this.onMessage(peer, message);
      },
      closed: (code: number) => {
        clearTimeout(handshakeTimer);
        this.handshake.gone(peer);
        this.onClose(peer, code);
      },
    };
  }

  private onMessage(peer: Peer, message: ProtocolMessage): void {
    if (peer.stage === 'refused') return; // its refusal is on the way (rate-limit.ts): one proof per connection
    if (peer.stage === 'hello') {
      if (message.type !== 'hello') {
        peer.sendError(
          errorInfo('UNAUTHORIZED', `Send "hello" first; got "${message.type}" before the handshake.`, 'bridge'),
          message.type,
        );
        this.handshake.refused(peer, 'hello required first');
        peer.close(CLOSE.policy, 'hello required first');
        return;
      }
      this.handshake.onHello(peer, message);
      return;
    }
    if (peer.stage === 'auth') {
      if (message.type !== 'auth_response') {
        peer.sendError(
          errorInfo('UNAUTHORIZED', `Answer the auth_challenge with auth_response; got "${message.type}".`, 'bridge'),
          message.type,
        );
        this.handshake.refused(peer, 'auth_response required');
        peer.close(CLOSE.policy, 'auth_response required');
        return;
      }
      this.handshake.onAuthResponse(peer, message);
      return;
    }
    switch (message.type) {
      case 'hello':
      case 'auth_response':
        peer.sendError(
          errorInfo(
            'INVALID_MESSAGE',
            `The handshake is already complete on this connection; do not send "${message.type}" again.`,
            'bridge',
          ),
          message.type,
        );
        peer.countBad();
        return;
      case 'ping':
        peer.send({ type: 'pong', sent_at: message.sent_at });
        return;
      case 'pong':
        return;
      case 'action':
        this.agents.onAction(peer, message);
        return;
      case 'action_result':
        this.linkOf(peer)?.onResult(message);
        return;
      case 'state_update':
        this.agents.onStateUpdate(this.browserOf(peer), message);
        return;
      case 'user_task_submission':
        this.agents.onTaskSubmission(peer, this.browserOf(peer), message);
        return;
      case 'task_progress':
        this.agents.onTaskProgress(peer, message);
        return;
      case 'task_control':
        this.agents.onTaskControl(peer, this.browserOf(peer), message);
        return;
      case 'session_control':
        this.agents.onSessionControl(peer, this.browserOf(peer), message);
        return;
      case 'connector_control':
        if (!this.connectors) {
          peer.sendError(
            errorInfo(
              'INVALID_MESSAGE',
              'This bridge runs without backend connectors (it was started as a bare relay). Start it with `browser-use-ext bridge` to connect backends from the panel.',
              'bridge',
            ),
            message.request_id,
          );
          return;
        }
        // A connector started from a browser's panel works in that browser.
        void this.connectors
          .handle(message, this.browsers.nameOf(this.browserOf(peer)))
          .then((r) => (r.ok ? peer.send(r.reply) : peer.sendError(r.error, message.request_id)));
        return;
      case 'cdp_event':
        this.agents.onCdpEvent(this.browserOf(peer), message);
        return;
      case 'cdp_command':
        this.agents.onCdpCommand(peer, message);
        return;
      case 'cdp_result':
        this.linkOf(peer)?.onCdpResult(message);
        return;
      case 'cdp_client_control':
        if (!this.cdp) {
          peer.sendError(
            errorInfo(
              'INVALID_MESSAGE',
              'This bridge runs without the CDP endpoint (it was started as a bare relay). Start it with `browser-use-ext bridge` to use CDP clients.',
              'bridge',
            ),
            message.request_id,
          );
          return;
        }
        if (!this.cdpScope.mayControl(message, this.browserOf(peer))) {
          peer.sendError(
            errorInfo(
              'NOT_PERMITTED',
              `The CDP URL "${message.name}" is in use by clients working in another browser; only that browser's side panel can ${message.op} it (or run browser-use-ext cdp-url --revoke ${message.name}).`,
              'bridge',
              { name: message.name },
            ),
            message.request_id,
          );
          return;
        }
        void this.cdp
          .handleControl(message)
          .then((r) =>
            r.ok ? peer.send(this.cdpScope.forBrowser(r.reply, this.browserOf(peer))) : peer.sendError(r.error, message.request_id),
          );
        return;
      case 'browser_update':
        this.onBrowserUpdate(peer, message);
        return;
      case 'error':
        this.log.warn('peer reported an error', {
          peer: peer.id,
          code: message.error_info.error_code,
          message: message.error_info.message,
        });
        return;
      case 'hello_ack':
      case 'auth_challenge':
      case 'tab_released':
      case 'extension_status':
      case 'persistence_status':
      case 'agent_sessions':
      case 'backend_connectors':
      case 'cdp_clients':
        return; // only the bridge sends these; Peer.receive already refused them
      default:
        assertNever(message);
    }
  }

  // --- connection ends ------------------------------------------------------------------------

  private onClose(peer: Peer, code: number): void {
    this.log.debug('connection closed', { peer: peer.id, code });
    // The client checks the bridge's proof first; a client whose secret is outdated finds it wrong
    // and says so with this code instead of sending a proof. Log it: the person has to pair again.
    if (peer.stage === 'auth' && code === CLOSE_CODES.secretRefused) {
      // Counted and logged like a wrong proof (once in full, then summarised); nothing to answer.
      this.failures.fail(`${peer.role} secret`, {
        remote: peer.remoteAddress,
        deadline: 0,
        message:
          peer.role === 'extension'
            ? `handshake refused by the extension: its pairing secret does not match this bridge's. Pair it again (${cli('pair')}).`
            : `handshake refused by an agent: its agent secret does not match this bridge's. It should use BROWSER_USE_EXT_AGENT_SECRET or secrets.json as shown by ${cli('bridge --print-pairing')}.`,
        fields: { peer: peer.id, role: peer.role, remote: peer.remoteAddress },
      });
    }
    if (peer.role === 'agent') this.agents.onClosed(peer, code);
    else this.linkOf(peer)?.onClosed(peer);
  }

  /** The browser an extension connection speaks for (set at its admission, before any message is routed). */
  private browserOf(peer: Peer): string {
    return this.browserOfPeer.get(peer) ?? DEFAULT_BROWSER_ID;
  }

  private linkOf(peer: Peer): ExtensionLink | undefined {
    const id = this.browserOfPeer.get(peer);
    return id === undefined ? undefined : this.browsers.link(id);
  }

  /** The person renamed this browser (refused when another has the name) or focused one of its windows. */
  private onBrowserUpdate(peer: Peer, update: BrowserUpdateMessage): void {
    const id = this.browserOf(peer);
    if (update.name !== undefined) {
      const r = this.browsers.rename(id, update.name);
      if (!r.ok) peer.sendError(errorInfo('NOT_PERMITTED', r.message, 'bridge', { name: update.name }), null);
    }
    if (update.focused_at !== undefined) this.browsers.noteFocus(id, update.focused_at);
    this.publisher.schedule();
  }
}

function roleForPath(url: string | undefined): Role | null {
  const path = (url ?? '').split('?')[0];
  if (path === '/extension') return 'extension';
  if (path === '/agent') return 'agent';
  return null;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function assertNever(x: never): never {
  throw new Error(`unhandled message ${JSON.stringify(x)}`);
}
