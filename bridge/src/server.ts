// The bridge: one HTTP server on loopback carrying two WebSocket endpoints, /extension (the
// Chrome extension) and /agent (Python shim, TypeScript client), plus /healthz and /status.
// It relays `action` from agents to the extension and `action_result` back by id.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { ActionMessage, ActionResultMessage, ErrorInfo, HelloMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { errorInfo } from '../../schemas/lib/wire';
import { createLogger, type Logger, type LogLevel } from './log';
import { PendingRegistry, type PendingEntry } from './pending';
import { CLOSE, Peer, type Role } from './peer';
import { BRIDGE_NAME, BRIDGE_VERSION } from './version';

export interface BridgeOptions {
  /** Interface to bind. Loopback by default: the bridge drives a person's logged-in browser. */
  host?: string;
  /** TCP port; 0 picks a free one (tests). */
  port?: number;
  logLevel?: LogLevel;
  logger?: Logger;
  /** Default per-action timeout when the action has no timeout_ms. */
  defaultTimeoutMs?: number;
  /** Interval of application-level pings to the extension. Must stay under ~25 s: MV3 workers idle out at 30 s. */
  keepaliveMs?: number;
  /** Largest accepted frame. Screenshots are the largest legitimate messages. */
  maxPayloadBytes?: number;
}

interface InFlight {
  agent: Peer;
  agentActionId: string;
  action: ActionMessage['action'];
}

export const DEFAULT_PORT = 8765;
export const DEFAULT_TIMEOUT_MS = 15_000;

export class BridgeServer extends EventEmitter {
  private readonly opts: Required<Omit<BridgeOptions, 'logger' | 'logLevel'>>;
  private readonly log: Logger;
  private readonly http: http.Server;
  private readonly wss: WebSocketServer;
  private extension: Peer | null = null;
  private readonly agents = new Set<Peer>();
  private pending = new PendingRegistry<InFlight>();
  private nextId = 1;
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private address: AddressInfo | null = null;

  constructor(options: BridgeOptions = {}) {
    super();
    this.opts = {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? DEFAULT_PORT,
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      keepaliveMs: options.keepaliveMs ?? 20_000,
      maxPayloadBytes: options.maxPayloadBytes ?? 32 * 1024 * 1024,
    };
    this.log = options.logger ?? createLogger(options.logLevel ?? 'info');
    this.http = http.createServer((req, res) => this.onHttp(req, res));
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.opts.maxPayloadBytes });
    this.http.on('upgrade', (req, socket, head) => {
      const role = roleForPath(req.url);
      if (!role) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, role));
    });
  }

  async start(): Promise<{ host: string; port: number }> {
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

  /** Resolves once an extension has completed its hello (tests, harness). */
  waitForExtension(timeoutMs = 15_000): Promise<void> {
    if (this.extensionConnected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('extension-connected', onUp);
        reject(new Error(`no extension connected to ${this.extensionUrl} within ${timeoutMs} ms: is it loaded and pointed at this port?`));
      }, timeoutMs);
      const onUp = () => {
        clearTimeout(timer);
        resolve();
      };
      this.once('extension-connected', onUp);
    });
  }

  status(): Record<string, unknown> {
    return {
      bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION, protocol_version: PROTOCOL_VERSION },
      extension: this.extension?.ready ? { connected: true, client: this.extension.client, session_id: this.extension.id } : { connected: false },
      agents: [...this.agents].filter((a) => a.ready).map((a) => ({ session_id: a.id, client: a.client, capabilities: a.capabilities })),
      in_flight_actions: this.pending.size,
    };
  }

  async close(): Promise<void> {
    if (this.keepalive) clearInterval(this.keepalive);
    for (const e of this.pending.drain()) this.failInFlight(e, errorInfo('EXTENSION_DISCONNECTED', 'The bridge is shutting down; the action may or may not have run. Reconnect and take a new state.', 'bridge'));
    this.extension?.close(CLOSE.goingAway, 'bridge shutting down');
    for (const a of this.agents) a.close(CLOSE.goingAway, 'bridge shutting down');
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  // --- HTTP ---------------------------------------------------------------------------------

  private onHttp(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return json(405, { error: 'only GET' });
    if (path === '/healthz') return json(200, { ok: true });
    if (path === '/status') return json(200, this.status());
    json(404, { error: 'not found', endpoints: ['/agent (WebSocket)', '/extension (WebSocket)', '/healthz', '/status'] });
  }

  // --- WebSocket ----------------------------------------------------------------------------

  private onConnection(ws: WebSocket, role: Role): void {
    const peer = new Peer(`${role === 'extension' ? 'ext' : 'agent'}-${this.nextId++}`, role, ws, this.log);
    this.log.debug('connection opened', { peer: peer.id });
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
    ws.on('close', () => this.onClose(peer));
    ws.on('error', (err) => {
      // ws reports oversize frames here and closes with 1009 itself.
      this.log.warn('connection error', { peer: peer.id, error: err.message });
    });
  }

  private onMessage(peer: Peer, message: ProtocolMessage): void {
    if (!peer.ready) {
      if (message.type !== 'hello') {
        peer.sendError(errorInfo('UNAUTHORIZED', `Send "hello" first; got "${message.type}" before the handshake.`, 'bridge'), message.type);
        peer.close(CLOSE.policy, 'hello required first');
        return;
      }
      this.onHello(peer, message);
      return;
    }
    switch (message.type) {
      case 'hello':
        peer.sendError(errorInfo('INVALID_MESSAGE', 'hello was already accepted on this connection; do not send it twice.', 'bridge'), 'hello');
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
        for (const a of this.agents) if (a.ready) a.send(message);
        return;
      case 'user_task_submission':
        this.onTaskSubmission(peer, message);
        return;
      case 'error':
        this.log.warn('peer reported an error', { peer: peer.id, code: message.error_info.error_code, message: message.error_info.message });
        return;
      case 'hello_ack':
        return; // only the bridge sends it; Peer.receive already refused it
      default:
        assertNever(message);
    }
  }

  private onHello(peer: Peer, hello: HelloMessage): void {
    if (hello.role !== peer.role) {
      peer.sendError(errorInfo('UNAUTHORIZED', `This endpoint is for role "${peer.role}", but hello says "${hello.role}". Connect to /${hello.role} instead.`, 'bridge'), 'hello');
      peer.close(CLOSE.policy, 'role does not match endpoint');
      return;
    }
    if (hello.protocol_version !== PROTOCOL_VERSION) {
      const upgrade = hello.protocol_version < PROTOCOL_VERSION ? `upgrade the ${hello.role} (${hello.client.name})` : 'upgrade the bridge (npm i -g browser-use-ext@latest)';
      peer.sendError(
        errorInfo('VERSION_MISMATCH', `Protocol version ${hello.protocol_version} is not supported; this bridge speaks ${PROTOCOL_VERSION}. To fix it, ${upgrade}.`, 'bridge', {
          bridge_protocol_version: PROTOCOL_VERSION,
          peer_protocol_version: hello.protocol_version,
        }),
        'hello',
      );
      peer.close(CLOSE.policy, 'protocol version mismatch');
      return;
    }
    peer.ready = true;
    peer.client = hello.client;
    peer.capabilities = hello.capabilities;
    if (peer.role === 'extension') {
      const previous = this.extension;
      this.extension = peer;
      // A restarted service worker can reconnect before the old socket is noticed dead: newest wins.
      if (previous && previous !== peer) previous.close(CLOSE.normal, 'replaced by a newer extension connection');
    } else {
      this.agents.add(peer);
    }
    peer.send({ type: 'hello_ack', protocol_version: PROTOCOL_VERSION, bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION }, session_id: peer.id, extension_connected: this.extensionConnected });
    this.log.info(`${peer.role} connected`, { peer: peer.id, client: hello.client });
    if (peer.role === 'extension') this.emit('extension-connected', peer.id);
  }

  private onAgentAction(agent: Peer, action: ActionMessage): void {
    const ext = this.extension;
    if (!ext?.ready || !ext.open) {
      agent.send(errorResult(action, errorInfo('NO_EXTENSION_CONNECTED', 'No browser extension is connected to the bridge. Open Chrome with the browser-use-ext extension installed and paired, then retry.', 'bridge')));
      return;
    }
    // Agents choose their own ids; the bridge relays under its own so two agents never collide.
    const relayId = `b${this.nextId++}`;
    const timeoutMs = action.timeout_ms ?? this.opts.defaultTimeoutMs;
    this.pending.add(relayId, { agent, agentActionId: action.action_id, action: action.action }, timeoutMs, (entry) => {
      this.failInFlight(
        entry,
        errorInfo('TIMEOUT', `Action "${action.action}" got no result within ${timeoutMs} ms. The page may still be busy: take a new state (get_state) before retrying, or raise timeout_ms.`, 'bridge', { timeout_ms: timeoutMs }),
      );
    });
    ext.send({ ...action, action_id: relayId });
  }

  private onExtensionResult(result: ActionResultMessage): void {
    const entry = this.pending.take(result.original_action_id);
    if (!entry) {
      this.log.debug('late or unknown action_result dropped', { id: result.original_action_id });
      return;
    }
    entry.value.agent.send({ ...result, original_action_id: entry.value.agentActionId });
  }

  private onTaskSubmission(from: Peer, task: ProtocolMessage & { type: 'user_task_submission' }): void {
    const taker = [...this.agents].find((a) => a.ready && a.capabilities.includes('accepts_tasks'));
    if (!taker) {
      from.sendError(errorInfo('NO_TASK_AGENT', 'No agent that accepts tasks is connected. Start one with `python -m browser_use_ext serve`, then submit the task again.', 'bridge'), task.task_id ?? 'user_task_submission');
      return;
    }
    taker.send(task);
  }

  private failInFlight(entry: PendingEntry<InFlight>, error: ErrorInfo): void {
    entry.value.agent.send({ type: 'action_result', original_action_id: entry.value.agentActionId, action: entry.value.action, status: 'error', outcome_details: null, new_simplified_state: null, error_info: error });
  }

  private onClose(peer: Peer): void {
    this.log.debug('connection closed', { peer: peer.id });
    if (peer.role === 'agent') {
      this.agents.delete(peer);
      return;
    }
    if (this.extension !== peer) return;
    this.extension = null;
    const inFlight = this.pending.drain();
    for (const e of inFlight) this.failInFlight(e, errorInfo('EXTENSION_DISCONNECTED', `The extension disconnected while "${e.value.action}" was running; it may or may not have taken effect. Wait for the extension to reconnect, take a new state, then decide whether to retry.`, 'bridge'));
    this.log.warn('extension disconnected', { failed_in_flight: inFlight.length });
    this.emit('extension-disconnected', peer.id);
  }
}

function errorResult(action: ActionMessage, error: ErrorInfo): ActionResultMessage {
  return { type: 'action_result', original_action_id: action.action_id, action: action.action, status: 'error', outcome_details: null, new_simplified_state: null, error_info: error };
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
