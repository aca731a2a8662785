// The CDP endpoint under /cdp/<token> on the bridge's port (CdpService, bridge/src/services.ts):
// standard DevTools clients (Playwright connectOverCDP, puppeteer, browser_use, chrome-devtools-mcp)
// reach the person's Chrome through it. Every request and upgrade passes, in order:
//   1. loopback peer address (even with --allow-remote: the token travels in the URL over plain
//      http/ws and must not cross a network);
//   2. the bridge's /agent Host + Origin rule (origin-check.ts): Host must name this bridge (DNS
//      rebinding), and any Origin is refused: CDP clients are local programs and send none, while a
//      web page always sends one;
//   3. the URL's token (cdp-clients-file.ts), verified first; a wrong one goes through the failure
//      gate (rate-limit.ts: a few answers per second, the excess closed unanswered, the right token
//      never delayed). Something that is not even token-shaped guesses nothing and is answered at once.
// Then HTTP answers discovery (discovery.ts) and an upgrade becomes one ordinary agent session: an
// AgentClient to /agent named `cdp:<name>` with the URL's tab limit, driven by a BrowserEmulator
// (browser-emulator.ts) that turns CDP into the relay's actions. Tokens are never logged (the path
// carries one): logs name the URL instead.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';

import { type RawData, WebSocket, WebSocketServer } from 'ws';

import type { CdpClientControlMessage, CdpClientsMessage, ErrorInfo } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/wire';
import { AgentClient } from '../../client/agent-client';
import { EPHEMERAL_SESSION } from '../../common/ephemeral-session';
import type { Logger } from '../../common/log';
import { CDP_READ_MAX_BYTES, explainTooBig } from '../../common/message-limits';
import type { UpgradeVerdict } from '../../common/origin-check';
import {
  DEFAULT_FAILURE_BURST,
  DEFAULT_FAILURE_INTERVAL_MS,
  DEFAULT_FAILURE_MAX_PENDING,
  FailureGate,
  RefusalLog,
} from '../../common/rate-limit';
import { CDP_TOKEN_FORMAT, type CdpClientRecord, CdpClientsFile, revokeCdpClient, touchCdpClient } from './cdp-clients-file';
import {
  type BrowserVersion,
  type CdpRoute,
  listBody,
  type ListedTarget,
  routeOf,
  splitCdpPath,
  tabChangeMessage,
  UNKNOWN_BROWSER,
  versionBody,
  wsBase,
} from './discovery';
import { oversizeAnswer, rawBuffer, TOO_BIG_TO_READ } from './message-size';

// --- The seam with the browser emulator (browser-emulator.ts): its BrowserEmulator fits these. ----

export interface CdpSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface CdpEmulatorOptions {
  socket: CdpSocket;
  /** Already open (hello done), clientName `cdp:<name>`, maxTabs from the URL. */
  agent: AgentClient;
  /** A page endpoint names the tab too when another connection of the same URL holds it (its targets()). */
  target: { kind: 'browser' } | { kind: 'page'; targetId: string; tabId?: number };
  log: Logger;
  /** <config dir>/downloads/<URL name>, created before the emulator starts. */
  downloadsDir: string;
}

export interface CdpEmulator {
  start(): Promise<void>;
  handle(text: string): void;
  dispose(reason: string): Promise<void>;
  targets(): { targetId: string; tabId: number; url: string; title: string }[];
  stats(): CdpConnectionStats;
}

/** What the panel and /status show of one connection: the cdp_clients message's own shape (schemas/v1). */
export type CdpConnectionStats = CdpClientsMessage['clients'][number]['connections'][number];

export type CdpEmulatorFactory = (o: CdpEmulatorOptions) => CdpEmulator;

// --- Options --------------------------------------------------------------------------------------

export interface CdpEndpointOptions {
  /** Where cdp-clients.json and downloads/ live. */
  configDir: string;
  agentUrl: () => string;
  agentSecret: () => string;
  /** The bridge's Host + Origin rule as it applies to /agent. */
  checkHeaders: (headers: http.IncomingHttpHeaders) => UpgradeVerdict;
  /** Sends to the connected extension; false when none is connected. */
  sendToExtension: (m: CdpClientsMessage) => boolean;
  log: Logger;
  emulator: CdpEmulatorFactory;
  /** WebSocket connections per URL at once (default 8). */
  maxConnectionsPerUrl?: number;
  /** Wrong tokens answered at once before they are slowed (rate-limit.ts). */
  maxFailures?: number;
  /** Past that burst, one wrong-token answer per this many ms, across all addresses. */
  failureIntervalMs?: number;
  /** Wrong-token requests waiting for their answer; more are closed unanswered. */
  maxPendingFailures?: number;
  /** Wrong tokens are logged once, then summarised per this many ms. */
  failureLogWindowMs?: number;
  /** How often the file is checked for new/revoked URLs and the panel's stats refreshed (default 1000 ms). */
  pollMs?: number;
}

export const CDP_PREFIX = '/cdp/';
export const DEFAULT_CDP_CONNECTIONS_PER_URL = 8;
/** A wrong token is answered within this long or not at all. */
const WRONG_TOKEN_MAX_WAIT_MS = 10_000;
/** Longest a closing bridge waits for one emulator to hand its tabs back. */
const DISPOSE_WAIT_MS = 2_000;
const MISSING_URL = 'Unknown CDP URL. Make one with: browser-use-ext cdp-url --name NAME';
/**
 * Close code when the person revokes a URL (or it is replaced): 1008 "policy violation". A CDP
 * client reports a close that is not 1000/1001 as an error carrying the reason (Python websockets
 * raises ConnectionClosedError "received 1008 (policy violation) <reason>", as browser_use shows),
 * where 1000 reads as a normal end the client may not even mention.
 */
export const CLOSE_REVOKED = 1008;

interface Connection {
  id: number;
  name: string;
  /** The hash it authenticated with: a re-minted URL of the same name does not keep it alive. */
  sha256: string;
  ws: WebSocket | null;
  agent: AgentClient | null;
  emulator: CdpEmulator | null;
  /** Set once it must end (revoked, bridge closing); a connection still being set up checks it. */
  ended: string | null;
  /** Ids of the client's Browser.getVersion commands, to remember the answer for /json/version. */
  versionIds: Set<number>;
}

type Checked =
  | { ok: true; record: CdpClientRecord; token: string; route: CdpRoute }
  | { ok: false; status: number; message: string }
  | { ok: false; status: 'drop' };

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

/** Close reasons are at most 123 bytes (RFC 6455 5.5); longer ones make ws throw. */
function closeReason(text: string): string {
  let r = text;
  while (Buffer.byteLength(r) > 123) r = r.slice(0, -1);
  return r;
}

export class CdpEndpoint {
  readonly prefix = CDP_PREFIX;
  readonly label = 'Chrome DevTools Protocol: make a URL with browser-use-ext cdp-url';
  private readonly file: CdpClientsFile;
  private readonly wss: WebSocketServer;
  private readonly failures: FailureGate;
  private readonly refusals: RefusalLog;
  private readonly connections = new Map<number, Connection>();
  private readonly poll: ReturnType<typeof setInterval>;
  private readonly browserId = crypto.randomUUID();
  private readonly maxPerUrl: number;
  private nextId = 1;
  /** The person's browser as its own Browser.getVersion last described it. */
  private browser: BrowserVersion | null = null;
  /** The last cdp_clients sent (without request_id), to send only changes. */
  private lastSent: string | null = null;
  private fileVersion = -1;
  private closed = false;

  constructor(private readonly opts: CdpEndpointOptions) {
    this.file = new CdpClientsFile(opts.configDir);
    this.wss = new WebSocketServer({ noServer: true, maxPayload: CDP_READ_MAX_BYTES, perMessageDeflate: false });
    this.maxPerUrl = opts.maxConnectionsPerUrl ?? DEFAULT_CDP_CONNECTIONS_PER_URL;
    const windowMs = opts.failureLogWindowMs ?? 10_000;
    this.failures = new FailureGate({
      burst: opts.maxFailures ?? DEFAULT_FAILURE_BURST,
      intervalMs: opts.failureIntervalMs ?? DEFAULT_FAILURE_INTERVAL_MS,
      maxPending: opts.maxPendingFailures ?? DEFAULT_FAILURE_MAX_PENDING,
      windowMs,
      warn: (message, fields) => opts.log.warn(message, fields),
    });
    this.refusals = new RefusalLog((message, fields) => opts.log.warn(message, fields), windowMs);
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
    const checked = await this.check(req, 'http');
    if (!checked.ok) {
      if (checked.status === 'drop') return void req.socket.destroy();
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
        return json(res, 200, versionBody(base, this.browserId, this.browser ?? UNKNOWN_BROWSER));
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

  /** The common checks of a request or upgrade (see the top of this file). */
  private async check(req: http.IncomingMessage, via: 'http' | 'ws'): Promise<Checked> {
    const remote = req.socket.remoteAddress;
    if (!isLoopbackAddress(remote))
      return {
        ok: false,
        status: 403,
        message:
          'The CDP endpoint serves this machine only (loopback): its URL carries a token over plain http. Run the CDP client on the machine where the bridge runs, or tunnel to it over SSH.',
      };
    const verdict = this.opts.checkHeaders(req.headers);
    if (!verdict.ok) {
      const reason = verdict.reason
        .replace('connect to /agent', 'use the CDP endpoint')
        .replace('agents are local programs', 'CDP clients are local programs');
      this.refusals.refused('refused cdp request', 'refused cdp request', { reason, via });
      return { ok: false, status: 403, message: reason };
    }
    const parts = splitCdpPath(req.url, this.prefix);
    const token = parts?.token ?? '';
    const missing = { ok: false as const, status: via === 'ws' ? 403 : 404, message: MISSING_URL };
    if (!CDP_TOKEN_FORMAT.test(token)) {
      this.opts.log.debug('refused cdp request: no token in the path', { via });
      return missing;
    }
    let record: CdpClientRecord | null;
    try {
      record = this.file.verify(token);
    } catch (e) {
      // A damaged file is the bridge's problem, not the client's: say which file and how to fix it.
      const why = e instanceof Error ? e.message : String(e);
      this.opts.log.error('cannot read the CDP URL list', { error: why });
      return { ok: false, status: 503, message: `The bridge cannot read its CDP URL list: ${why}` };
    }
    if (!record) {
      // Same rule as the handshakes and /mcp: answered late, one bucket for every address.
      const wrong = this.failures.fail('CDP URL token', {
        remote,
        deadline: Date.now() + WRONG_TOKEN_MAX_WAIT_MS,
        message: 'refused cdp request: unknown or revoked URL token (more in this window are summarised in one line)',
        fields: { remote, via },
      });
      const cancel = () => wrong.cancel();
      req.socket.once('close', cancel);
      const outcome = await wrong.outcome;
      req.socket.off('close', cancel);
      return outcome === 'drop' ? { ok: false, status: 'drop' } : missing;
    }
    return { ok: true, record, token, route: routeOf(parts?.rest ?? '') };
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
    const checked = await this.check(req, 'ws');
    if (!checked.ok) {
      if (checked.status === 'drop') return void socket.destroy();
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
      this.refusals.refused(`cdp connection refused (${record.name})`, 'cdp connection refused: the URL is at its connection cap', {
        name: record.name,
        connections: open,
      });
      return refuseUpgrade(
        socket,
        429,
        `The CDP URL "${record.name}" already has ${open} open connections, its cap is ${this.maxPerUrl}. Close connections you no longer use (browser.close() / disconnect) and connect again.`,
      );
    }
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
    this.connections.set(conn.id, conn);
    let agent: AgentClient;
    try {
      agent = await AgentClient.connect({
        url: this.opts.agentUrl(),
        secret: this.opts.agentSecret(),
        clientName: `cdp:${record.name}`,
        maxTabs: record.max_tabs,
        capabilities: [EPHEMERAL_SESSION],
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
        if (conn.versionIds.size > 0) this.noteVersion(conn, text);
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
    // Commands that arrive while start() runs (it may hand the person's tab over first) wait, in order.
    let queue: string[] | null = [];
    const deliver = (text: string) => {
      if (text.includes('Browser.getVersion')) this.noteVersionCommand(conn, text);
      try {
        emulator.handle(text);
      } catch (e) {
        this.opts.log.error('cdp: the emulator failed on a message', {
          name: conn.name,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    };
    ws.on('message', (data: RawData) => {
      const buf = rawBuffer(data);
      // Over the size limit: answered here, never relayed (the bridge's frames could not carry it).
      const refused = oversizeAnswer(buf);
      if (refused !== null) {
        this.opts.log.warn('cdp: a message over the size limit was answered with an error', { name: conn.name, bytes: buf.length });
        return socket.send(refused);
      }
      const text = buf.toString('utf8');
      if (queue) queue.push(text);
      else deliver(text);
    });
    ws.on('error', (err) => this.opts.log.warn('cdp connection error', { name: conn.name, error: err.message }));
    ws.on('close', (code: number) => {
      this.opts.log.info('cdp client disconnected', { name: conn.name, code });
      void this.endConnection(conn, conn.ended ?? 'client closed');
    });
    // The person's Stop (the agent session closed for good) is the emulator's to report: the client
    // sees its pages detached and then a CDP error per command naming the Stop, as the contract says,
    // rather than a bare closed socket.
    this.publishChanges();
    emulator.start().then(
      () => {
        const waiting = queue ?? [];
        queue = null;
        for (const text of waiting) deliver(text);
      },
      (e: unknown) => {
        const why = e instanceof Error ? e.message : String(e);
        this.opts.log.warn('cdp: the DevTools emulation could not start', { name: conn.name, error: why });
        queue = null;
        if (ws.readyState === WebSocket.OPEN) ws.close(1011, closeReason(why));
      },
    );
  }

  private async endConnection(conn: Connection, reason: string): Promise<void> {
    if (this.connections.get(conn.id) !== conn) return;
    this.connections.delete(conn.id);
    conn.ended ??= reason;
    try {
      await conn.emulator?.dispose(reason);
    } catch (e) {
      this.opts.log.warn('cdp: releasing the tabs failed', { name: conn.name, error: e instanceof Error ? e.message : String(e) });
    }
    // The emulator ends the agent session; this only makes sure of it (close() twice is harmless).
    await conn.agent?.close().catch(() => undefined);
    this.publishChanges();
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

  private noteVersionCommand(conn: Connection, text: string): void {
    try {
      const m = JSON.parse(text) as { id?: unknown; method?: unknown; sessionId?: unknown };
      if (m.method === 'Browser.getVersion' && typeof m.id === 'number' && m.sessionId === undefined && conn.versionIds.size < 16)
        conn.versionIds.add(m.id);
    } catch {
      // not JSON: the emulator answers that
    }
  }

  private noteVersion(conn: Connection, text: string): void {
    if (text.length > 8192 || !text.includes('"product"')) return;
    try {
      const m = JSON.parse(text) as { id?: unknown; result?: Partial<Record<keyof BrowserVersion, unknown>> };
      if (typeof m.id !== 'number' || !conn.versionIds.delete(m.id)) return;
      const r = m.result;
      // The placeholder (no tab attached yet) must not replace what a tab already told.
      if (typeof r?.product !== 'string' || r.product === UNKNOWN_BROWSER.product) return;
      const s = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
      this.browser = {
        product: r.product,
        protocolVersion: s(r.protocolVersion, '1.3'),
        userAgent: s(r.userAgent, ''),
        jsVersion: s(r.jsVersion, ''),
        revision: s(r.revision, ''),
      };
    } catch {
      // not ours to judge
    }
  }

  // --- What the panel and /status see ------------------------------------------------------------

  private pageTarget(name: string, targetId: string): CdpEmulatorOptions['target'] {
    const tabId = this.targetsOf(name).find((t) => t.targetId === targetId)?.tabId;
    return tabId === undefined ? { kind: 'page', targetId } : { kind: 'page', targetId, tabId };
  }

  private targetsOf(name: string): (ListedTarget & { tabId: number })[] {
    const seen = new Map<string, ListedTarget & { tabId: number }>();
    for (const c of this.connections.values()) {
      if (c.name !== name || !c.emulator) continue;
      for (const t of safe(() => c.emulator?.targets() ?? [], [])) if (!seen.has(t.targetId)) seen.set(t.targetId, t);
    }
    return [...seen.values()];
  }

  private connectionStats(name: string): CdpClientsMessage['clients'][number]['connections'] {
    return [...this.connections.values()]
      .filter((c) => c.name === name && c.ended === null)
      .map((c) => {
        const s = c.emulator ? safe(() => c.emulator?.stats() ?? null, null) : null;
        return {
          session_id: s?.session_id ?? c.agent?.sessionId ?? null,
          commands_per_s: Math.max(0, Math.round((s?.commands_per_s ?? 0) * 10) / 10),
          last_method: s?.last_method ? s.last_method.slice(0, 100) : null,
          tab_ids: (s?.tab_ids ?? []).filter((t) => Number.isInteger(t) && t >= 0),
        };
      });
  }

  private records(): CdpClientRecord[] {
    try {
      return this.file.records();
    } catch {
      return [];
    }
  }

  private clientsMessage(): CdpClientsMessage {
    return {
      type: 'cdp_clients',
      clients: this.records().map((r) => ({
        name: r.name,
        max_tabs: r.max_tabs,
        created_at: r.created_at,
        last_used_at: r.last_used_at,
        connections: this.connectionStats(r.name),
      })),
    };
  }

  status(): unknown {
    let records: CdpClientRecord[];
    try {
      records = this.file.records();
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    return Object.fromEntries(
      records.map((r) => [r.name, { max_tabs: r.max_tabs, last_used_at: r.last_used_at, connections: this.connectionStats(r.name) }]),
    );
  }

  /** The extension just connected: it gets the whole list now. */
  publish(): void {
    const m = this.clientsMessage();
    this.lastSent = this.opts.sendToExtension(m) ? JSON.stringify(m) : null;
  }

  /** Sends the list if it differs from what the extension last got (at most once per tick for stats). */
  private publishChanges(): void {
    if (this.closed) return;
    const m = this.clientsMessage();
    const text = JSON.stringify(m);
    if (text === this.lastSent) return;
    if (this.opts.sendToExtension(m)) this.lastSent = text;
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

  handleControl(c: CdpClientControlMessage): Promise<{ ok: true; reply: CdpClientsMessage } | { ok: false; error: ErrorInfo }> {
    return Promise.resolve(this.control(c));
  }

  private control(c: CdpClientControlMessage): { ok: true; reply: CdpClientsMessage } | { ok: false; error: ErrorInfo } {
    let names: string[];
    try {
      names = this.file.records().map((r) => r.name);
    } catch (e) {
      return { ok: false, error: errorInfo('EXTENSION_INTERNAL_ERROR', e instanceof Error ? e.message : String(e), 'bridge') };
    }
    if (!names.includes(c.name))
      return {
        ok: false,
        error: errorInfo(
          'CONNECTOR_NOT_FOUND',
          names.length
            ? `No CDP URL is named "${c.name}"; the URLs are: ${names.join(', ')}. Refresh the list and pick one of them.`
            : `No CDP URL is named "${c.name}"; there are none now (make one with: browser-use-ext cdp-url --name NAME).`,
          'bridge',
          { name: c.name, names },
        ),
      };
    try {
      revokeCdpClient(this.opts.configDir, c.name);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        error: errorInfo(
          'EXTENSION_INTERNAL_ERROR',
          `Could not revoke the CDP URL "${c.name}": ${why}. It still works; retry, or run: browser-use-ext cdp-url --revoke ${c.name}`,
          'bridge',
        ),
      };
    }
    this.opts.log.info('cdp URL revoked in the side panel', { name: c.name });
    this.file.refresh();
    this.fileVersion = this.file.version;
    this.closeConnections(
      (x) => x.name === c.name,
      'this CDP URL was revoked in the browser-use-ext side panel; make a new one with: browser-use-ext cdp-url',
      CLOSE_REVOKED,
    );
    const m = this.clientsMessage();
    this.lastSent = JSON.stringify(m);
    return { ok: true, reply: { ...m, request_id: c.request_id } };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    this.failures.close();
    this.refusals.close();
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

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Refuses an upgrade with a plain-text reason, which CDP clients show in their connection error. */
function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = message + '\n';
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
