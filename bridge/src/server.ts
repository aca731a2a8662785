// The bridge: one HTTP server (loopback by default) carrying two WebSocket endpoints, /extension
// (the Chrome extension) and /agent (Python shim, TypeScript client), plus /healthz and /status.
// Every connection passes the upgrade checks (origin-check.ts) and the challenge-response handshake
// (auth.ts, contract G). Agents get sessions that lease tabs (sessions.ts, contract I); actions for
// one tab run one at a time (tab-queue.ts); tasks a person submits are relayed (tasks.ts, contract H).
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type {
  ActionMessage,
  ActionResultMessage,
  AuthResponseMessage,
  ErrorInfo,
  HelloMessage,
  ProtocolMessage,
  SessionControlMessage,
  StateUpdateMessage,
  TaskControlMessage,
  TaskProgressMessage,
  UserTaskSubmissionMessage,
} from '../../schemas/generated/protocol';
import { ACTION_NAMES, PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { CLOSE_CODES } from '../../schemas/lib/close-codes';
import { errorInfo } from '../../schemas/lib/wire';
import { cappedMaxTabs, describeSessions, holderDescription, resolveControl, SessionsPublisher, takeOverFromPredecessor } from './agent-sessions';
import { bridgeProof, clientNonceBytes, clientProof, newNonce, proofsEqual } from './auth';
import { EXTENSION_ID, extensionOrigin } from './extension-id';
import { createLogger, type Logger, type LogLevel } from './log';
import { checkUpgrade, isLoopbackHost, type UpgradePolicy } from './origin-check';
import { PairingCodes } from './pairing';
import { handlePairRequest } from './pairing-http';
import { McpHttpEndpoint } from './mcp/http-endpoint';
import { McpTokenStore } from './mcp/tokens';
import { PendingRegistry, type PendingEntry } from './pending';
import { CLOSE, Peer, type Role } from './peer';
import { FailureGate } from './rate-limit';
import { configDir, newSecret, type Secrets } from './secrets';
import { DebouncedWriter, loadSessions, saveSessions } from './session-store';
import { SessionRegistry, type Released, type Session } from './sessions';
import { TabQueues } from './tab-queue';
import { FINAL_TASK_STATUSES, TaskRegistry } from './tasks';
import { BRIDGE_NAME, BRIDGE_VERSION } from './version';

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
  /** Largest accepted frame. Screenshots are the largest legitimate messages. */
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
  /** Failing proofs (per role, all addresses together) answered at once before they are slowed (rate-limit.ts). */
  maxAuthFailures?: number;
  /** Past that burst, one failing proof per role is answered per this many ms. A right proof never waits. */
  authFailureIntervalMs?: number;
  /** Bearer tokens of MCP clients on /mcp (mcp/tokens.ts). Default: mcp-tokens.json in the config dir. */
  mcpTokens?: McpTokenStore;
  /** Where `browser-use-ext pair` writes one-time pairing codes (pairing.ts). Omitted: in-process codes only. */
  configDir?: string;
  /** Protocol version this bridge speaks (default PROTOCOL_VERSION); tests set another to play a different release. */
  protocolVersion?: number;
}

type ResolvedOptions = Required<Omit<BridgeOptions, 'logger' | 'logLevel' | 'secrets' | 'extensionOrigins' | 'stateFile' | 'mcpTokens' | 'configDir' | 'protocolVersion'>>;

interface InFlight {
  action: ActionMessage['action'];
  resolve: (result: ActionResultMessage) => void;
}

type Target = { ok: true; tabId: number | null } | { ok: false; error: ErrorInfo };

export const DEFAULT_PORT = 8765;
/** Actions on the browser rather than a tab: no implicit hand-over of the active tab. open_tool/list_tools: seed 002. */
const BROWSER_LEVEL = new Set<string>(['open_tab', 'list_tabs', 'open_tool', 'list_tools']);
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_TABS = 10;
/** After a restart with restored sessions, actions wait this long (within their timeout) for the extension. */
const RESTART_GRACE_MS = 10_000;
/** Actions that only read: safe to ask again after the extension dropped mid-way. */
const READ_ONLY_ACTIONS = new Set<string>(['get_state', 'get', 'is', 'extract_content', 'list_tabs', 'screenshot', 'get_dropdown_options']);

export class BridgeServer extends EventEmitter {
  readonly secrets: Secrets;
  private readonly opts: ResolvedOptions;
  private readonly extensionOrigins: string[];
  private readonly log: Logger;
  private readonly http: http.Server;
  private readonly wss: WebSocketServer;
  private extension: Peer | null = null;
  private extensionAwaySince: number | null = null;
  private readonly agents = new Set<Peer>();
  private readonly sessionOf = new Map<Peer, Session>();
  private readonly sessions: SessionRegistry;
  private readonly tasks = new TaskRegistry();
  private readonly queues = new TabQueues<number | 'active'>();
  private readonly failures: FailureGate;
  private pending = new PendingRegistry<InFlight>();
  /** action_results received from the extension (validated on receive), relayed without a second check. */
  private readonly relayedResults = new WeakSet<ActionResultMessage>();
  private nextId = 1;
  private readonly persist: DebouncedWriter | null = null;
  /** When sessions were restored from disk (null: none), see awaitingExtensionAfterRestart. */
  private restoredAt: number | null = null;
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private address: AddressInfo | null = null;
  private readonly protocolVersion: number;
  /** One-time pairing codes redeemed on POST /pair (pairing.ts). */
  readonly pairing: PairingCodes;
  private readonly publisher: SessionsPublisher;
  /** The person's cap on tabs per agent (extension settings, session_control set_tab_limit). */
  private personMaxTabs: number | null = null;
  private readonly mcp: McpHttpEndpoint;

  constructor(options: BridgeOptions = {}) {
    super();
    this.setMaxListeners(0); // every action waiting for the extension to come back listens once
    this.opts = {
      host: options.host ?? '127.0.0.1',
      allowRemote: options.allowRemote ?? false,
      port: options.port ?? DEFAULT_PORT,
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      keepaliveMs: options.keepaliveMs ?? 20_000,
      maxPayloadBytes: options.maxPayloadBytes ?? 32 * 1024 * 1024,
      maxTabsPerSession: options.maxTabsPerSession ?? DEFAULT_MAX_TABS,
      sessionGraceMs: options.sessionGraceMs ?? 60_000,
      resultCacheSize: options.resultCacheSize ?? 256,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
      badMessageBudget: options.badMessageBudget ?? 20,
      maxAuthFailures: options.maxAuthFailures ?? 10,
      authFailureIntervalMs: options.authFailureIntervalMs ?? 1_000,
    };
    this.secrets = options.secrets ?? { extension_secret: newSecret(), agent_secret: newSecret() };
    this.extensionOrigins = options.extensionOrigins ?? [extensionOrigin(EXTENSION_ID)];
    this.log = options.logger ?? createLogger(options.logLevel ?? 'info');
    this.failures = new FailureGate({ burst: this.opts.maxAuthFailures, intervalMs: this.opts.authFailureIntervalMs });
    const stateFile = options.stateFile;
    if (stateFile) this.persist = new DebouncedWriter(() => saveSessions(stateFile, this.sessions.snapshot()), 50, (e) => this.log.error('could not save sessions', { file: stateFile, error: e instanceof Error ? e.message : String(e) }));
    this.sessions = new SessionRegistry({ graceMs: this.opts.sessionGraceMs, resultCapacity: this.opts.resultCacheSize, onChange: () => this.persist?.schedule() }, (s, released) => this.onSessionEnded(s, released));
    if (stateFile) {
      const saved = loadSessions(stateFile);
      this.sessions.restore(saved);
      if (saved.length) this.restoredAt = Date.now();
    }
    this.mcp = new McpHttpEndpoint({
      tokens: options.mcpTokens ?? new McpTokenStore(configDir()),
      agentUrl: () => this.agentUrl,
      agentSecret: () => this.secrets.agent_secret,
      checkHeaders: (headers) => checkUpgrade('agent', headers, this.upgradePolicy()),
      log: this.log,
    });
    this.protocolVersion = options.protocolVersion ?? PROTOCOL_VERSION;
    this.pairing = new PairingCodes(options.configDir ?? null);
    this.publisher = new SessionsPublisher(
      () => ({ type: 'agent_sessions', sessions: describeSessions(this.sessions.all(), this.tasks, this.opts.sessionGraceMs) }),
      (m) => (this.extension?.ready ? this.extension.send(m) : false),
    );
    this.http = http.createServer((req, res) => this.onHttp(req, res));
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.opts.maxPayloadBytes });
    this.http.on('upgrade', (req: http.IncomingMessage, socket, head) => {
      const role = roleForPath(req.url);
      if (!role) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      const verdict = checkUpgrade(role, req.headers, this.upgradePolicy());
      if (!verdict.ok) {
        this.log.warn('refused connection', { endpoint: role, reason: verdict.reason, remote: req.socket.remoteAddress });
        socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${verdict.reason}\n`);
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, role, req.socket.remoteAddress ?? 'unknown'));
    });
  }

  async start(): Promise<{ host: string; port: number }> {
    if (!isLoopbackHost(this.opts.host) && !this.opts.allowRemote) {
      throw new Error(`Refusing to bind ${this.opts.host}: the bridge drives a logged-in browser and listens on loopback only unless allowRemote (--allow-remote) is set.`);
    }
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.opts.port, this.opts.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    this.address = this.http.address() as AddressInfo;
    this.keepalive = setInterval(() => this.extension?.send({ type: 'ping', sent_at: Date.now() }), this.opts.keepaliveMs);
    this.keepalive.unref();
    this.log.info('bridge listening', { host: this.address.address, port: this.address.port });
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
    return this.extension?.ready === true;
  }

  /** Resolves once an extension has completed its handshake (tests, harness). */
  waitForExtension(timeoutMs = 15_000): Promise<void> {
    if (this.extensionConnected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('extension-connected', onUp);
        reject(new Error(`no extension connected to ${this.extensionUrl} within ${timeoutMs} ms: is it loaded, paired (extension secret) and pointed at this port?`));
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
    }));
    return {
      bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION, protocol_version: PROTOCOL_VERSION },
      extension: this.extension?.ready
        ? { connected: true, client: this.extension.client, connection_id: this.extension.id }
        : { connected: false, away_since: this.extensionAwaySince === null ? null : new Date(this.extensionAwaySince).toISOString() },
      sessions,
      agents: sessions.filter((s) => s.connected).map((s) => ({ session_id: s.session_id, client: s.client, capabilities: s.capabilities })),
      leased_tabs: sessions.reduce((n, s) => n + s.tabs.length, 0),
      in_flight_actions: this.pending.size,
      running_tasks: this.tasks.size,
      security: { loopback_only: !this.opts.allowRemote, extension_origins: this.extensionOrigins, authentication: 'hmac-sha256 challenge-response' },
    };
  }

  async close(): Promise<void> {
    if (this.keepalive) clearInterval(this.keepalive);
    this.publisher.stop();
    await this.mcp.close();
    for (const e of this.pending.drain()) this.failInFlight(e, errorInfo('EXTENSION_DISCONNECTED', 'The bridge is shutting down; the action may or may not have run. Reconnect and take a new state.', 'bridge'));
    this.extension?.close(CLOSE.goingAway, 'bridge shutting down');
    for (const a of this.agents) a.close(CLOSE.goingAway, 'bridge shutting down');
    // Sessions stay on disk so agents resume them after a restart (session-store.ts).
    this.persist?.stop();
    this.sessions.clear();
    // Give the close frames a moment to leave, then cut whatever is left.
    await new Promise((r) => setTimeout(r, 20));
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private upgradePolicy(): UpgradePolicy {
    const wildcard = this.opts.host === '0.0.0.0' || this.opts.host === '::';
    return { port: this.port, extensionOrigins: this.extensionOrigins, extraHosts: this.opts.allowRemote ? [this.opts.host] : [], anyHostName: this.opts.allowRemote && wildcard };
  }

  // --- HTTP ---------------------------------------------------------------------------------

  private onHttp(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    // MCP over Streamable HTTP (mcp/http-endpoint.ts does its own loopback, Host/Origin and token checks).
    if (path === '/mcp') return void this.mcp.handle(req, res);
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    // Same Host rule as the WebSocket endpoints: a DNS-rebound page must not read /status either.
    // No CORS headers, so other origins cannot read the answers.
    const verdict = checkUpgrade('agent', { host: req.headers.host }, this.upgradePolicy());
    if (!verdict.ok) return json(403, { error: verdict.reason });
    if (path === '/pair') {
      void handlePairRequest(req, { codes: this.pairing, gate: this.failures, extensionOrigins: this.extensionOrigins, secret: this.secrets.extension_secret, extensionUrl: this.extensionUrl, log: this.log }).then(({ code, body }) => json(code, body));
      return;
    }
    if (req.method !== 'GET') return json(405, { error: 'only GET' });
    if (path === '/healthz') return json(200, { ok: true });
    if (path === '/status') return json(200, this.status());
    json(404, { error: 'not found', endpoints: ['/agent (WebSocket)', '/extension (WebSocket)', '/mcp (MCP Streamable HTTP)', '/healthz', '/status'] });
  }

  // --- WebSocket ----------------------------------------------------------------------------

  private onConnection(ws: WebSocket, role: Role, remote: string): void {
    const peer = new Peer(`${role === 'extension' ? 'ext' : 'agent'}-${this.nextId++}`, role, ws, this.log, remote, this.opts.badMessageBudget);
    this.log.debug('connection opened', { peer: peer.id });
    const handshakeTimer = setTimeout(() => {
      if (peer.ready) return;
      peer.sendError(errorInfo('UNAUTHORIZED', `No completed handshake within ${this.opts.handshakeTimeoutMs} ms. Send hello, then auth_response to the auth_challenge (contract G).`, 'bridge'), null);
      this.refusedLog(peer, 'handshake timeout');
      peer.close(CLOSE.policy, 'handshake timeout');
    }, this.opts.handshakeTimeoutMs);
    handshakeTimer.unref();
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        peer.sendError(errorInfo('INVALID_MESSAGE', 'Binary frames are not part of the protocol; send JSON text frames.', 'bridge'), null);
        peer.close(CLOSE.unsupportedData, 'binary frames are not accepted');
        return;
      }
      const message = peer.receive(rawToString(data), (error, inReplyTo) => {
        // An invalid answer from the extension must not leave its agent waiting for the timeout.
        if (peer.role !== 'extension' || inReplyTo === null) return;
        const entry = this.pending.take(inReplyTo);
        if (entry) this.failInFlight(entry, errorInfo('EXTENSION_INTERNAL_ERROR', `The extension answered "${entry.value.action}" with an invalid message (${error.message}). Take a new state and retry; report the bug if it repeats.`, 'bridge', { validation: error.details ?? {} }));
      });
      if (message) this.onMessage(peer, message);
    });
    ws.on('close', (code: number) => {
      clearTimeout(handshakeTimer);
      this.onClose(peer, code);
    });
    ws.on('error', (err) => {
      // ws reports oversize frames here and closes with 1009 itself.
      this.log.warn('connection error', { peer: peer.id, error: err.message });
    });
  }

  private onMessage(peer: Peer, message: ProtocolMessage): void {
    if (peer.stage === 'refused') return; // its refusal is on the way (rate-limit.ts): one proof per connection
    if (peer.stage === 'hello') {
      if (message.type !== 'hello') {
        peer.sendError(errorInfo('UNAUTHORIZED', `Send "hello" first; got "${message.type}" before the handshake.`, 'bridge'), message.type);
        this.refusedLog(peer, 'hello required first');
      peer.close(CLOSE.policy, 'hello required first');
        return;
      }
      this.onHello(peer, message);
      return;
    }
    if (peer.stage === 'auth') {
      if (message.type !== 'auth_response') {
        peer.sendError(errorInfo('UNAUTHORIZED', `Answer the auth_challenge with auth_response; got "${message.type}".`, 'bridge'), message.type);
        this.refusedLog(peer, 'auth_response required');
      peer.close(CLOSE.policy, 'auth_response required');
        return;
      }
      this.onAuthResponse(peer, message);
      return;
    }
    switch (message.type) {
      case 'hello':
      case 'auth_response':
        peer.sendError(errorInfo('INVALID_MESSAGE', `The handshake is already complete on this connection; do not send "${message.type}" again.`, 'bridge'), message.type);
        peer.countBad();
        return;
      case 'ping':
        peer.send({ type: 'pong', sent_at: message.sent_at });
        return;
      case 'pong':
        return;
      case 'action':
        this.onAgentAction(peer, message);
        return;
      case 'action_result':
        this.onExtensionResult(message);
        return;
      case 'state_update':
        this.onStateUpdate(message);
        return;
      case 'user_task_submission':
        this.onTaskSubmission(peer, message);
        return;
      case 'task_progress':
        this.onTaskProgress(peer, message);
        return;
      case 'task_control':
        this.onTaskControl(peer, message);
        return;
      case 'session_control':
        this.onSessionControl(peer, message);
        return;
      case 'error':
        this.log.warn('peer reported an error', { peer: peer.id, code: message.error_info.error_code, message: message.error_info.message });
        return;
      case 'hello_ack':
      case 'auth_challenge':
      case 'tab_released':
      case 'extension_status':
      case 'agent_sessions':
        return; // only the bridge sends these; Peer.receive already refused them
      default:
        assertNever(message);
    }
  }

  // --- handshake (contract G) -----------------------------------------------------------------

  /** Handshake refusals are WARN (issue 11): the reason and who, never the secret or a proof. */
  private refusedLog(peer: Peer, reason: string): void {
    this.log.warn('handshake refused', { peer: peer.id, role: peer.role, remote: peer.remoteAddress, reason });
  }

  private secretFor(role: Role): string {
    return role === 'extension' ? this.secrets.extension_secret : this.secrets.agent_secret;
  }

  private onHello(peer: Peer, hello: HelloMessage): void {
    if (hello.role !== peer.role) {
      peer.sendError(errorInfo('UNAUTHORIZED', `This endpoint is for role "${peer.role}", but hello says "${hello.role}". Connect to /${hello.role} instead.`, 'bridge'), 'hello');
      this.refusedLog(peer, 'role does not match endpoint');
      peer.close(CLOSE.policy, 'role does not match endpoint');
      return;
    }
    if (hello.protocol_version !== this.protocolVersion) {
      const older = hello.protocol_version < this.protocolVersion;
      const upgrade = older ? `upgrade the ${hello.role} (${hello.client.name})` : 'upgrade the bridge (npm i -g browser-use-ext@latest)';
      peer.sendError(
        errorInfo('VERSION_MISMATCH', `Protocol version ${hello.protocol_version} is not supported; this bridge speaks ${this.protocolVersion}. To fix it, ${upgrade}.`, 'bridge', {
          bridge_protocol_version: this.protocolVersion,
          peer_protocol_version: hello.protocol_version,
          upgrade: older ? hello.role : 'bridge',
        }),
        'hello',
      );
      this.refusedLog(peer, 'protocol version mismatch');
      peer.close(CLOSE_CODES.versionMismatch, `protocol version mismatch: bridge speaks ${this.protocolVersion}, ${peer.role} ${hello.protocol_version}; upgrade the ${older ? peer.role : 'bridge'}`);
      return;
    }
    if (clientNonceBytes(hello.client_nonce) < 16) {
      peer.sendError(errorInfo('INVALID_MESSAGE', 'hello.client_nonce must carry at least 16 random bytes (base64). Generate a fresh one per connection.', 'bridge', { instance_path: '/client_nonce' }), 'hello');
      this.refusedLog(peer, 'weak client nonce');
      peer.close(CLOSE.policy, 'weak client nonce');
      return;
    }
    peer.hello = hello;
    peer.nonce = newNonce();
    peer.stage = 'auth';
    peer.send({ type: 'auth_challenge', nonce: peer.nonce, bridge_proof: bridgeProof(this.secretFor(peer.role), hello.client_nonce) });
  }

  private onAuthResponse(peer: Peer, response: AuthResponseMessage): void {
    const hello = peer.hello;
    const nonce = peer.nonce;
    if (!hello || !nonce) return;
    const expected = clientProof(this.secretFor(peer.role), peer.role, nonce, hello.client_nonce);
    if (!proofsEqual(expected, response.proof)) {
      // Answered late when many proofs fail (rate-limit.ts); never refuses anyone else's right proof.
      peer.stage = 'refused';
      peer.nonce = null;
      const verdict = this.failures.book(peer.role, peer.connectedAt + this.opts.handshakeTimeoutMs);
      this.log.warn('handshake refused: wrong proof', { peer: peer.id, role: peer.role, remote: peer.remoteAddress, answer_delay_ms: verdict.answerInMs ?? 'left to the handshake timeout' });
      if (verdict.answerInMs === null) return;
      const how =
        peer.role === 'extension'
          ? 'Paste the extension secret shown by `browser-use-ext bridge --print-pairing` into the extension\'s options page.'
          : 'Set BROWSER_USE_EXT_AGENT_SECRET to the agent secret shown by `browser-use-ext bridge --print-pairing` (or run on the machine where the bridge created its secrets file).';
      const refuse = () => {
        peer.sendError(errorInfo('UNAUTHORIZED', `Authentication failed: the proof does not match this bridge's ${peer.role} secret. ${how}`, 'bridge'), 'auth_response');
        peer.close(CLOSE_CODES.secretRefused, `pairing secret refused: pair the ${peer.role} again (npx browser-use-ext pair)`);
      };
      if (verdict.answerInMs === 0) refuse();
      else setTimeout(refuse, verdict.answerInMs).unref();
      return;
    }
    peer.nonce = null;
    peer.stage = 'ready';
    peer.client = hello.client;
    peer.capabilities = hello.capabilities;
    if (peer.role === 'extension') this.onExtensionReady(peer);
    else this.onAgentReady(peer, hello);
  }

  private onExtensionReady(peer: Peer): void {
    const previous = this.extension;
    this.extension = peer;
    // A restarted service worker can reconnect before the old socket is noticed dead: newest wins.
    if (previous && previous !== peer) previous.close(CLOSE.normal, 'replaced by a newer extension connection');
    peer.send({ type: 'hello_ack', protocol_version: PROTOCOL_VERSION, bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION }, session_id: peer.id, extension_connected: true });
    this.log.info('extension connected', { peer: peer.id, client: peer.client });
    if (this.extensionAwaySince !== null) {
      const awayMs = Date.now() - this.extensionAwaySince;
      this.extensionAwaySince = null;
      this.broadcastToAgents({
        type: 'extension_status',
        connected: true,
        away_ms: awayMs,
        message: `The browser extension is back after ${awayMs} ms. Your session and tab ids are unchanged; take a new state before acting (actions in flight when it left failed with EXTENSION_DISCONNECTED).`,
      });
    }
    this.publisher.flush(true);
    this.emit('extension-connected', peer.id);
  }

  private onAgentReady(peer: Peer, hello: HelloMessage): void {
    let session = hello.session_token ? this.sessions.find(hello.session_token) : null;
    const resumed = session !== null;
    if (session) {
      const old = session.peer;
      this.sessions.attach(session, peer);
      if (old && old !== peer) {
        this.sessionOf.delete(old);
        old.close(CLOSE.normal, 'session resumed by a newer connection');
      }
      if (hello.max_tabs !== undefined) session.requestedMaxTabs = hello.max_tabs;
    } else {
      session = this.sessions.create(peer, hello.max_tabs ?? this.opts.maxTabsPerSession);
    }
    session.maxTabs = cappedMaxTabs(session.requestedMaxTabs, this.personMaxTabs);
    this.publisher.schedule();
    this.sessionOf.set(peer, session);
    this.agents.add(peer);
    peer.send({
      type: 'hello_ack',
      protocol_version: PROTOCOL_VERSION,
      bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION },
      session_id: session.id,
      extension_connected: this.extensionConnected,
      session_token: session.token ?? hello.session_token ?? '',
      resumed,
      max_tabs: session.maxTabs,
      leased_tab_ids: [...session.tabs.keys()],
    });
    this.log.info(resumed ? 'agent resumed its session' : 'agent connected', { peer: peer.id, session: session.id, client: peer.client });
  }

  // --- actions (contract I) -------------------------------------------------------------------

  private onAgentAction(peer: Peer, action: ActionMessage): void {
    const session = this.sessionOf.get(peer);
    if (!session) return;
    // Idempotent ids: a re-sent action (same session, same action_id) gets the recorded result.
    const recorded = session.results.get(action.action_id);
    if (recorded) {
      peer.send(recorded);
      return;
    }
    // Still running (the agent reconnected and re-sent it): the running one answers session.peer.
    if (session.running.has(action.action_id)) return;
    const target = this.targetOf(session, action);
    if (!target.ok) {
      peer.send(errorResult(action, target.error));
      return;
    }
    session.running.add(action.action_id);
    const timeoutMs = action.timeout_ms ?? this.opts.defaultTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    void this.queues
      .run(target.tabId ?? 'active', () => this.execute(session, action, target.tabId, deadline, timeoutMs))
      .then((result) => this.finishAction(session, action, target.tabId, result));
  }

  /** Which tab the action goes to, refusing another session's tabs (TAB_NOT_LEASED). */
  private targetOf(session: Session, action: ActionMessage): Target {
    const paramTab = numberField(action.params, 'tab_id');
    for (const tabId of [action.tab_id, paramTab]) {
      if (tabId === undefined) continue;
      const owner = this.sessions.ownerOf(tabId);
      if (owner && owner !== session && !takeOverFromPredecessor(this.sessions, owner, session)) return { ok: false, error: notLeased(tabId, holderDescription(owner, this.opts.sessionGraceMs)) };
    }
    if (action.tab_id !== undefined) return { ok: true, tabId: action.tab_id };
    if (session.currentTab !== null) return { ok: true, tabId: session.currentTab };
    // Implicit hand-over: a session with no tab yet gets the browser's active tab (execute() checks
    // it is nobody else's when other sessions hold tabs).
    return { ok: true, tabId: null };
  }

  private async execute(session: Session, action: ActionMessage, tabId: number | null, deadline: number, timeoutMs: number): Promise<ActionResultMessage> {
    if (tabId === null && this.sessions.othersHoldTabs(session) && !BROWSER_LEVEL.has(action.action)) {
      const active = await this.resolveActiveTab(deadline);
      if (!active.ok) return errorResult(action, active.error);
      const owner = this.sessions.ownerOf(active.tabId);
      if (owner && owner !== session && !takeOverFromPredecessor(this.sessions, owner, session)) {
        return errorResult(action, errorInfo('TAB_NOT_LEASED', `The active tab (${active.tabId}) belongs to another agent session, so it cannot be handed to you. ${holderDescription(owner, this.opts.sessionGraceMs)} Or open a tab of your own with open_tab, or pass the tab_id of one of yours.`, 'bridge', { tab_id: active.tabId, holder_session_id: owner.id }));
      }
      tabId = active.tabId;
    }
    const message: ActionMessage = tabId === null ? { ...action } : { ...action, tab_id: tabId };
    return this.relay(message, deadline, timeoutMs, true);
  }

  /** Sends one action to the extension and resolves with its result, TIMEOUT or EXTENSION_DISCONNECTED. */
  /** validated: the action came from an agent (checked on receive); only its ids/tab_id change here. */
  private async relay(action: ActionMessage, deadline: number, timeoutMs: number, validated = false, retried = false): Promise<ActionResultMessage> {
    // The extension was here and left (its service worker restarts, issue 11): wait for it within
    // the action's own timeout instead of failing at once; it is usually back within a second.
    if (!(this.extension?.ready && this.extension.open) && (this.extensionAwaySince !== null || this.awaitingExtensionAfterRestart())) await this.extensionBack(deadline);
    const ext = this.extension;
    if (!ext?.ready || !ext.open) {
      return Promise.resolve(errorResult(action, errorInfo('NO_EXTENSION_CONNECTED', 'No browser extension is connected to the bridge. Open Chrome with the browser-use-ext extension installed and paired, then retry.', 'bridge')));
    }
    const remaining = deadline - Date.now();
    const timeout = () =>
      errorResult(action, errorInfo('TIMEOUT', `Action "${action.action}" got no result within ${timeoutMs} ms (including time queued behind earlier actions on the same tab). The page may still be busy: take a new state (get_state) before retrying, or raise timeout_ms.`, 'bridge', { timeout_ms: timeoutMs }));
    if (remaining <= 0) return Promise.resolve(timeout());
    // Agents choose their own ids; the bridge relays under its own so two agents never collide.
    const relayId = `b${this.nextId++}`;
    return new Promise((resolve) => {
      // A read that was in flight when the extension dropped is asked again once it is back (within
      // the deadline): reading twice is harmless, and the agent gets its answer instead of an outage.
      const settle = (r: ActionResultMessage) => {
        if (!retried && r.error_info?.error_code === 'EXTENSION_DISCONNECTED' && READ_ONLY_ACTIONS.has(action.action) && Date.now() < deadline) resolve(this.relay(action, deadline, timeoutMs, validated, true));
        else resolve(r);
      };
      this.pending.add(relayId, { action: action.action, resolve: settle }, remaining, () => resolve(timeout()));
      if (!ext.send({ ...action, action_id: relayId }, validated)) {
        this.pending.take(relayId);
        resolve(errorResult(action, errorInfo('EXTENSION_DISCONNECTED', 'The extension connection closed before the action could be sent. Wait for it to reconnect, then retry.', 'bridge')));
      }
    });
  }

  /** Sessions came back from disk (a restart): the extension is expected back within seconds. */
  private awaitingExtensionAfterRestart(): boolean {
    return this.restoredAt !== null && Date.now() - this.restoredAt < RESTART_GRACE_MS;
  }

  /** Resolves when an extension is connected again, or at the deadline. */
  private extensionBack(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.off('extension-connected', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      this.on('extension-connected', done);
    });
  }

  private async resolveActiveTab(deadline: number): Promise<{ ok: true; tabId: number } | { ok: false; error: ErrorInfo }> {
    const noHandOver = (why: string) => ({ ok: false as const, error: errorInfo('TAB_NOT_LEASED', `Other agent sessions hold tabs, so the bridge cannot hand you the active tab implicitly (${why}). Pass tab_id, or open a tab of your own with open_tab.`, 'bridge') });
    if (!(ACTION_NAMES as readonly string[]).includes('list_tabs')) return noHandOver('this build has no list_tabs');
    const r = await this.relay({ type: 'action', action_id: 'list-tabs', action: 'list_tabs', params: {} } as ActionMessage, deadline, DEFAULT_TIMEOUT_MS);
    const tabs = r.status === 'success' ? (r.outcome_details?.result as { tabs?: { tab_id: number; active: boolean }[] } | undefined)?.tabs : undefined;
    const active = tabs?.find((t) => t.active);
    if (!active) return noHandOver(r.error_info?.message ?? 'no active tab');
    return { ok: true, tabId: active.tab_id };
  }

  /** Updates leases from what the action did, records the result and delivers it. */
  private finishAction(session: Session, action: ActionMessage, sentTab: number | null, result: ActionResultMessage): void {
    const released: (Released & { reason: 'tab_limit' | 'tab_closed' })[] = [];
    const lease = (tabId: number, url: string | null, makeCurrent: boolean) => {
      const r = this.sessions.lease(session, tabId, url);
      if (!r.ok) return;
      released.push(...r.released.map((x) => ({ ...x, reason: 'tab_limit' as const })));
      if (makeCurrent) session.currentTab = tabId;
    };
    const state = result.new_simplified_state ?? null;
    const actedTab = result.tab_id ?? state?.tab_id ?? sentTab;
    const resultFields = (result.outcome_details?.result ?? null) as Record<string, unknown> | null;
    if (result.status === 'success') {
      // list_tabs/open_tab without a tab act on the browser, not on the active tab: no hand-over.
      const browserLevel = sentTab === null && BROWSER_LEVEL.has(action.action);
      if (actedTab !== null && actedTab !== undefined && !browserLevel) lease(actedTab, state?.url ?? result.state_delta?.facts?.url ?? null, action.action !== 'close_tab');
      if (action.action === 'open_tab' || action.action === 'open_tool' || action.action === 'switch_tab') {
        const opened = numberField(resultFields, 'tab_id');
        if (opened !== undefined) lease(opened, state?.tab_id === opened ? state.url : urlParam(action.params), true);
      }
      const popup = numberField(result.outcome_details, 'new_tab_id');
      if (popup !== undefined) lease(popup, null, false);
      if (action.action === 'close_tab') {
        const closed = numberField(resultFields, 'closed_tab_id') ?? numberField(action.params, 'tab_id') ?? sentTab ?? undefined;
        if (closed !== undefined && this.sessions.ownerOf(closed) === session) this.sessions.release(closed);
      }
    } else if (result.error_info?.error_code === 'TAB_NOT_FOUND' && actedTab !== null && actedTab !== undefined && this.sessions.ownerOf(actedTab) === session) {
      const url = session.tabs.get(actedTab)?.url ?? null;
      this.sessions.release(actedTab);
      released.push({ tabId: actedTab, url, reason: 'tab_closed' });
    }
    this.publisher.schedule();
    const answer: ActionResultMessage = { ...result, original_action_id: action.action_id };
    session.record(action.action_id, answer);
    session.running.delete(action.action_id);
    this.sessions.changed();
    const peer = session.peer;
    if (!peer) return; // recorded: a re-send after the agent reconnects gets it
    for (const r of released) {
      peer.send({
        type: 'tab_released',
        tab_id: r.tabId,
        url: r.url,
        reason: r.reason,
        ...(r.reason === 'tab_limit' ? { max_tabs: session.maxTabs } : {}),
        message: r.reason === 'tab_limit' ? `Tab limit (${session.maxTabs}) reached. Released tab: ${r.url ?? `tab ${r.tabId}`}` : `Tab ${r.tabId} (${r.url ?? 'unknown URL'}) was closed and is no longer yours.`,
      });
    }
    peer.send(answer, this.relayedResults.has(result));
  }

  private onExtensionResult(result: ActionResultMessage): void {
    const entry = this.pending.take(result.original_action_id);
    if (!entry) {
      this.log.debug('late or unknown action_result dropped', { id: result.original_action_id });
      return;
    }
    // A result for another action than the one asked is a broken extension, never a success (issue 11).
    if (result.action !== undefined && result.action !== entry.value.action) {
      this.log.error('extension answered with a result for another action', { id: result.original_action_id, asked: entry.value.action, answered: result.action });
      this.failInFlight(entry, errorInfo('EXTENSION_INTERNAL_ERROR', `The extension answered "${entry.value.action}" with a result for "${result.action}"; the outcome is unknown. Take a new state before retrying; report the bug if it repeats.`, 'bridge', { asked: entry.value.action, answered: result.action }));
      return;
    }
    this.relayedResults.add(result);
    entry.value.resolve(result);
  }

  /** state_update reaches only the session leasing that tab (no cross-talk between agents). */
  private onStateUpdate(update: StateUpdateMessage): void {
    this.sessions.noteUrl(update.tab_id, update.state.url);
    const owner = this.sessions.ownerOf(update.tab_id);
    owner?.peer?.send(update);
  }

  private failInFlight(entry: PendingEntry<InFlight>, error: ErrorInfo): void {
    entry.value.resolve({ type: 'action_result', original_action_id: entry.id, action: entry.value.action, status: 'error', outcome_details: null, new_simplified_state: null, error_info: error });
  }

  // --- tasks (contract H) ---------------------------------------------------------------------

  private onTaskSubmission(from: Peer, submitted: UserTaskSubmissionMessage): void {
    const taker = this.sessions.all().find((s) => s.connected && s.capabilities.includes('accepts_tasks'));
    if (!taker?.peer) {
      from.sendError(errorInfo('NO_TASK_AGENT', 'No agent that accepts tasks is connected. Start one with `python -m browser_use_ext serve`, then submit the task again.', 'bridge'), submitted.task_id ?? 'user_task_submission');
      return;
    }
    const task: UserTaskSubmissionMessage = { ...submitted, task_id: submitted.task_id ?? this.tasks.newId() };
    this.tasks.assign(task.task_id as string, taker.id);
    taker.peer.send(task);
    this.publisher.schedule();
  }

  private onTaskProgress(peer: Peer, progress: TaskProgressMessage): void {
    const session = this.sessionOf.get(peer);
    if (!session || this.tasks.holderOf(progress.task_id) !== session.id) {
      peer.sendError(errorInfo('TASK_NOT_FOUND', `Task "${progress.task_id}" is not held by this session (never assigned, already finished, or another agent's). Report progress only for tasks you received in user_task_submission.`, 'bridge', { task_id: progress.task_id }), progress.task_id);
      return;
    }
    if (FINAL_TASK_STATUSES.has(progress.status)) {
      this.tasks.finish(progress.task_id);
      this.publisher.schedule();
    }
    if (!this.extension?.send(progress)) this.log.info('task progress not delivered: no extension connected', { task_id: progress.task_id, status: progress.status });
  }

  private onTaskControl(from: Peer, control: TaskControlMessage): void {
    const holderId = this.tasks.holderOf(control.task_id);
    const holder = holderId === null ? undefined : this.sessions.all().find((s) => s.id === holderId);
    if (!holder) {
      from.sendError(errorInfo('TASK_NOT_FOUND', `No running task "${control.task_id}". It may have finished already; submit a new task instead.`, 'bridge', { task_id: control.task_id }), control.task_id);
      return;
    }
    if (!holder.peer?.send(control)) {
      from.sendError(errorInfo('NO_TASK_AGENT', `The agent running task "${control.task_id}" is disconnected right now; it may resume within ${Math.round(this.opts.sessionGraceMs / 1000)} s. Try the command again then.`, 'bridge', { task_id: control.task_id }), control.task_id);
    }
  }

  // --- the person's controls over agent sessions (agent-sessions.ts) --------------------------

  private onSessionControl(from: Peer, control: SessionControlMessage): void {
    const outcome = resolveControl(control, this.sessions);
    if (!outcome.ok) {
      from.sendError(outcome.error, 'session_control');
      return;
    }
    if (outcome.kind === 'tab_limit') {
      this.personMaxTabs = outcome.maxTabs;
      for (const s of this.sessions.all()) s.maxTabs = cappedMaxTabs(s.requestedMaxTabs, outcome.maxTabs);
    } else if (outcome.kind === 'released') {
      this.sessions.release(outcome.tabId);
      this.log.info('the person released a tab', { session: outcome.session.id, tab_id: outcome.tabId });
      outcome.session.peer?.send({ type: 'tab_released', tab_id: outcome.tabId, url: outcome.url, reason: 'released_by_user', message: `The person took tab ${outcome.tabId} (${outcome.url ?? 'unknown URL'}) back in the extension; it is no longer yours. Open a tab of your own with open_tab if you still need one.` });
    } else {
      const { session } = outcome;
      this.log.info('the person disconnected an agent', { session: session.id, client: session.client });
      const peer = session.peer;
      this.sessions.end(session);
      if (peer) {
        this.sessionOf.delete(peer);
        this.agents.delete(peer);
        peer.close(CLOSE_CODES.disconnectedByPerson, 'disconnected by the person in the extension side panel');
      }
    }
    this.publisher.schedule();
  }

  // --- connection ends ------------------------------------------------------------------------

  private onSessionEnded(session: Session, released: Released[]): void {
    this.log.info('agent session ended', { session: session.id, released_tabs: released.length });
    this.publisher.schedule();
    for (const taskId of this.tasks.heldBy(session.id)) {
      this.tasks.finish(taskId);
      this.extension?.send({ type: 'task_progress', task_id: taskId, status: 'failed', message: 'The agent running this task disconnected and did not come back. Submit the task again.', final_result: null });
    }
  }

  private broadcastToAgents(message: ProtocolMessage): void {
    for (const a of this.agents) if (a.ready) a.send(message);
  }

  private onClose(peer: Peer, code: number): void {
    this.log.debug('connection closed', { peer: peer.id, code });
    // The client checks the bridge's proof first; a client whose secret is outdated finds it wrong
    // and says so with this code instead of sending a proof. Log it: the person has to pair again.
    if (peer.stage === 'auth' && code === CLOSE_CODES.secretRefused) {
      this.failures.book(peer.role); // counts like a failed proof (slows the next wrong answers)
      this.log.warn(`handshake refused by the ${peer.role}: its pairing secret does not match this bridge's. Pair it again (npx browser-use-ext pair).`, { peer: peer.id, role: peer.role, remote: peer.remoteAddress });
    }
    if (peer.role === 'agent') {
      this.agents.delete(peer);
      const session = this.sessionOf.get(peer);
      this.sessionOf.delete(peer);
      if (!session) return;
      // A normal close (1000) is a goodbye: the session ends and its tabs are free at once. Any
      // other end (network drop, crash) keeps it for sessionGraceMs so the agent can resume.
      if (code === CLOSE.normal && session.peer === peer) this.sessions.end(session);
      else this.sessions.detach(session, peer);
      this.publisher.schedule();
      return;
    }
    if (this.extension !== peer) return;
    this.extension = null;
    this.extensionAwaySince = Date.now();
    const inFlight = this.pending.drain();
    for (const e of inFlight) this.failInFlight(e, errorInfo('EXTENSION_DISCONNECTED', `The extension disconnected while "${e.value.action}" was running; it may or may not have taken effect. Wait for the extension to reconnect, take a new state, then decide whether to retry.`, 'bridge'));
    this.log.warn('extension disconnected', { failed_in_flight: inFlight.length });
    this.broadcastToAgents({ type: 'extension_status', connected: false, message: 'The browser extension disconnected (its service worker restarted or the browser closed). New actions wait for it within their timeout (reads in flight are asked again); you will get extension_status connected true, with your tabs unchanged.' });
    this.emit('extension-disconnected', peer.id);
  }
}

function errorResult(action: ActionMessage, error: ErrorInfo): ActionResultMessage {
  return { type: 'action_result', original_action_id: action.action_id, action: action.action, status: 'error', outcome_details: null, new_simplified_state: null, error_info: error };
}

function notLeased(tabId: number, why: string): ErrorInfo {
  return errorInfo('TAB_NOT_LEASED', `Tab ${tabId} belongs to another agent session. ${why} Or open a tab of your own with open_tab, or act on one of your tabs (hello_ack.leased_tab_ids, open_tab results).`, 'bridge', { tab_id: tabId });
}

/** Reads an integer field from an open wire object (params, outcome details) without `any`. */
function numberField(obj: unknown, key: string): number | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const v = (obj as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

function urlParam(params: unknown): string | null {
  if (typeof params !== 'object' || params === null) return null;
  const v = (params as Record<string, unknown>)['url'];
  return typeof v === 'string' ? v : null;
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
