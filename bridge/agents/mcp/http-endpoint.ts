// MCP over Streamable HTTP at /mcp on the bridge. Each request passes, in order:
//   1. loopback peer address (even with --allow-remote: a bearer token over plain http must not
//      cross a network);
//   2. the bridge's Host/Origin rule (origin-check.ts, the /agent rule): Host must be this bridge
//      (DNS rebinding), and any Origin header is refused (a web page cannot call /mcp; MCP clients
//      are local programs and send none);
//   3. a per-client bearer token (tokens.ts), verified first; wrong ones go through the failure gate
//      (rate-limit.ts: a few answers per second, excess requests closed unanswered).
// Each MCP session (Mcp-Session-Id) is bound to the token that created it and is its own bridge
// agent session. Sessions are capped, because clients that never DELETE theirs are common (2,000
// un-deleted initializes held 49 MB for 30 minutes, one token opened 1,000 bridge sessions):
//   - at most `maxSessionsPerToken` (16) per token: a new initialize past it closes that token's
//     least recently used session with no request in flight and no GET stream open (a client's own
//     leaked sessions make room for it); when all of them are busy it is refused with TOO_MANY_SESSIONS;
//   - at most `maxSessions` (64, the bridge's agent-session cap) in all: past it, the least recently
//     used session idle for `evictIdleMs` (1 min) is closed, whichever token it has; another
//     client's session is never taken while it is in use; otherwise TOO_MANY_SESSIONS;
//   - a session without a request for `idleMs` (10 min, was 30) is closed and its tabs freed, even
//     while its client holds the GET stream every SDK client keeps open; its client gets 404 and, as
//     the MCP spec says, initializes a new one;
//   - a client that went away is noticed within seconds: the SDK's Client.close() sends no DELETE
//     (only terminateSession() does), it aborts its requests, so the GET stream it held closes. A
//     session whose stream closed, with no request in flight and none within `goneMs` (5 s; an SDK
//     client re-opens a dropped stream after 1 s), is closed and its tabs freed. A live client keeps
//     its stream open however long it idles; one that never opened a stream has only the idle rule.
// Each session reaches the relay as an AgentClient over loopback to /agent with the bridge's agent
// secret. That keeps one code path for every agent (handshake, validation, leases, queues, resume)
// at ~0.5 ms per hop (bench:bridge), instead of a second, in-process session interface into
// server.ts to keep correct.
import crypto from 'node:crypto';
import type http from 'node:http';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { cli } from '../../common/cli-invocation';
import { EndpointGuard } from '../../common/endpoint-guard';
import type { Logger } from '../../common/log';
import type { EndpointName, UpgradeVerdict } from '../../common/origin-check';
import { createMcpSession, type McpSession } from './mcp-server';
import type { McpTokenStore } from './tokens';

export interface McpHttpOptions {
  tokens: McpTokenStore;
  agentUrl: () => string;
  agentSecret: () => string;
  /** The bridge's Host + Origin rule for this request (refusals name this endpoint). */
  checkHeaders: (headers: http.IncomingHttpHeaders, endpoint: EndpointName) => UpgradeVerdict;
  log: Logger;
  /** An MCP session without a request for this long is closed and its tabs freed (default 10 min). */
  idleMs?: number;
  /** MCP sessions per token (default 16). */
  maxSessionsPerToken?: number;
  /** MCP sessions in all (default 64). */
  maxSessions?: number;
  /** At the total cap, another token's session is closed only after idling this long (default 60 s). */
  evictIdleMs?: number;
  maxBodyBytes?: number;
  /** Wrong tokens answered at once before they are slowed (rate-limit.ts: a right token never waits). */
  maxFailures?: number;
  /** Past that burst, one wrong-token answer per this many ms, across all addresses. */
  failureIntervalMs?: number;
  /** Wrong-token requests waiting for their answer; more are closed unanswered. */
  maxPendingFailures?: number;
  /** A session whose GET stream closed is closed when no request comes within this long (default 5 s). */
  goneMs?: number;
  /** Clock for idle expiry (tests). */
  now?: () => number;
}

export const DEFAULT_MCP_IDLE_MS = 10 * 60_000;
export const DEFAULT_MCP_SESSIONS_PER_TOKEN = 16;
export const DEFAULT_MCP_SESSIONS = 64;
const DEFAULT_EVICT_IDLE_MS = 60_000;
export const DEFAULT_MCP_GONE_MS = 5_000;

interface Entry {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  tokenName: string;
  lastSeen: number;
  /** POST/DELETE requests of this session not yet answered (a long tool call). */
  busy: number;
  /**
   * Open GET streams (server-to-client notifications). Every SDK client keeps one open for the
   * whole session, so it says the client is alive, not that a request is in flight: it keeps the
   * session from being evicted for another one, but not from idle expiry (which counts requests).
   */
  streams: number;
  /** It held a GET stream once: a client that keeps one, so its stream closing may mean it is gone. */
  hadStream: boolean;
  /** Armed when that stream closed and nothing is in flight; a request disarms it (see goneMs). */
  goneTimer: ReturnType<typeof setTimeout> | null;
}

export class McpHttpEndpoint {
  readonly path = '/mcp';
  readonly label = 'MCP Streamable HTTP';
  private readonly sessions = new Map<string, Entry>();
  /** Loopback, Host/Origin and wrong tokens; its refusal log summarises cap refusals too. */
  private readonly guard: EndpointGuard;
  private readonly sweep: ReturnType<typeof setInterval>;
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: McpHttpOptions) {
    this.guard = new EndpointGuard({
      name: { action: 'call /mcp', callers: 'agents' },
      logName: 'mcp',
      loopbackOnly:
        'MCP over HTTP is served to this machine only (loopback). Run the MCP client on the machine where the bridge runs, or use `' +
        cli('mcp') +
        '` (stdio) there.',
      checkHeaders: opts.checkHeaders,
      credential: 'MCP token',
      log: opts.log,
      maxFailures: opts.maxFailures,
      failureIntervalMs: opts.failureIntervalMs,
      maxPendingFailures: opts.maxPendingFailures,
    });
    this.idleMs = opts.idleMs ?? DEFAULT_MCP_IDLE_MS;
    this.now = opts.now ?? Date.now;
    this.sweep = setInterval(() => this.closeIdle(), Math.max(50, Math.min(60_000, this.idleMs / 4)));
    this.sweep.unref();
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      await this.handleChecked(req, res);
    } catch (e) {
      this.opts.log.warn('mcp request failed', { error: e instanceof Error ? e.message : String(e) });
      if (!res.headersSent)
        refuse(res, 500, -32603, "Internal error in the bridge's MCP endpoint; retry, and report the bug if it repeats.");
      else res.end();
    }
  }

  private async handleChecked(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const admitted = this.guard.admit(req);
    if (!admitted.ok) return refuse(res, admitted.status, -32001, admitted.message);
    const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    let tokenName: string | null;
    let browser: string | undefined;
    try {
      const record = auth?.[1] ? this.opts.tokens.find(auth[1]) : null;
      tokenName = record?.name ?? null;
      browser = record?.browser;
    } catch (e) {
      // A damaged token file is the bridge's problem, not the client's: say so and how to fix it
      // (the message names the file and the command), instead of a 500 that says "report the bug".
      const why = e instanceof Error ? e.message : String(e);
      this.opts.log.error('cannot read the MCP token file', { error: why });
      res.setHeader('retry-after', '5');
      return refuse(res, 503, -32001, `The bridge cannot read its MCP token list: ${why}`);
    }
    if (!tokenName) {
      // Same rule as the handshakes (rate-limit.ts): a wrong token is answered late, one bucket for
      // every address, so no local program can lock the right token out and guessing stays slow;
      // past the gate's queue the request is closed unanswered (no 429: that said "wrong" at once).
      // A request with no token at all guesses nothing and is answered at once.
      if (auth?.[1]) {
        const outcome = await this.guard.wrongToken(
          req,
          'refused mcp request: wrong token (more in this window are summarised in one line)',
        );
        if (outcome === 'drop') return void req.socket.destroy();
      } else this.opts.log.debug('refused mcp request: no bearer token');
      this.closeRevoked();
      res.setHeader('www-authenticate', 'Bearer realm="browser-use-ext"');
      return refuse(
        res,
        401,
        -32001,
        `Missing or wrong bearer token. Issue one with \`${cli('mcp-token add <client-name>')}\` and send it as "Authorization: Bearer <token>".`,
      );
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > (this.opts.maxBodyBytes ?? 4 * 1024 * 1024)) return refuse(res, 413, -32600, 'Request body too large.');

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = this.sessions.get(sessionId);
      // Another token's session id is "not found" too: ids are not capabilities on their own.
      if (!entry || entry.tokenName !== tokenName) return refuse(res, 404, -32001, 'Unknown or expired MCP session; initialize a new one.');
      entry.lastSeen = this.now();
      const stream = req.method === 'GET';
      if (stream) {
        entry.streams++;
        entry.hadStream = true;
      } else entry.busy++;
      this.disarmGone(entry);
      res.once('close', () => {
        if (stream) entry.streams--;
        else entry.busy--;
        entry.lastSeen = this.now();
        this.armGone(sessionId, entry);
      });
      await entry.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST')
      return refuse(res, 400, -32000, 'Send initialize (POST) first; other requests need the Mcp-Session-Id it returns.');
    const full = this.makeRoom(tokenName);
    if (full) {
      this.guard.refusals.refused(`mcp session refused (${tokenName})`, 'mcp session refused: at the session cap', {
        token: tokenName,
        sessions: this.sessions.size,
      });
      res.setHeader('retry-after', '60');
      return refuse(res, 429, -32001, full, { error_code: 'TOO_MANY_SESSIONS' });
    }
    await this.startSession(req, res, tokenName, browser);
  }

  /**
   * Before a new session of `tokenName`: closes expired sessions, then evicts one when a cap is
   * reached (see the top of this file). Returns the refusal message when no room can be made.
   */
  private makeRoom(tokenName: string): string | null {
    this.closeIdle();
    const perToken = this.opts.maxSessionsPerToken ?? DEFAULT_MCP_SESSIONS_PER_TOKEN;
    const total = this.opts.maxSessions ?? DEFAULT_MCP_SESSIONS;
    const now = this.now();
    const own = [...this.sessions].filter(([, e]) => e.tokenName === tokenName);
    if (own.length >= perToken) {
      if (!this.evictOldestIdle(own, now, 0, 'its token reached its session cap'))
        return (
          `The MCP token "${tokenName}" already has ${own.length} open MCP sessions, all busy; its cap is ${perToken}. ` +
          `Close sessions you no longer use (the MCP client ends one with DELETE /mcp, or restart the client), ` +
          `end them all with \`${cli(`mcp-token revoke ${tokenName}`)}\` (then add a new token), ` +
          `or restart the bridge with --mcp-sessions-per-token N.`
        );
    }
    if (this.sessions.size >= total) {
      const evictIdleMs = this.opts.evictIdleMs ?? DEFAULT_EVICT_IDLE_MS;
      if (!this.evictOldestIdle([...this.sessions], now, evictIdleMs, 'the bridge reached its MCP session cap'))
        return (
          `The bridge already has ${this.sessions.size} MCP sessions, none idle for ${Math.round(evictIdleMs / 1000)} s; its cap is ${total}. ` +
          `Close MCP sessions you no longer use (DELETE /mcp, or restart idle MCP clients), revoke tokens nobody uses ` +
          `(\`${cli('mcp-token list')}\`, then \`mcp-token revoke NAME\`), or restart the bridge with --mcp-sessions N.`
        );
    }
    return null;
  }

  /** Closes the least recently used of `candidates` with no request in flight or stream open that idled `minIdleMs`. */
  private evictOldestIdle(candidates: [string, Entry][], now: number, minIdleMs: number, why: string): boolean {
    let oldest: [string, Entry] | null = null;
    for (const c of candidates) {
      const e = c[1];
      if (e.busy > 0 || e.streams > 0 || now - e.lastSeen < minIdleMs) continue;
      if (!oldest || e.lastSeen < oldest[1].lastSeen) oldest = c;
    }
    if (!oldest) return false;
    const [id, e] = oldest;
    this.sessions.delete(id);
    this.opts.log.info(`mcp session closed: ${why}; it was the least recently used`, { token: e.tokenName, idle_ms: now - e.lastSeen });
    void e.transport.close();
    return true;
  }

  private async startSession(req: http.IncomingMessage, res: http.ServerResponse, tokenName: string, browser?: string): Promise<void> {
    // A token made with --browser binds its sessions to that browser (mcp-token add NAME --browser B).
    const session = createMcpSession({
      url: this.opts.agentUrl(),
      secret: this.opts.agentSecret(),
      clientSuffix: ` [${tokenName}]`,
      ...(browser === undefined ? {} : { browser }),
    });
    let entry: Entry | null = null;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        entry = { transport, session, tokenName, lastSeen: this.now(), busy: 0, streams: 0, hadStream: false, goneTimer: null };
        this.sessions.set(id, entry);
        this.opts.log.info('mcp session started', { token: tokenName });
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.sessions.get(id)?.transport === transport) this.sessions.delete(id);
      // Ends the bridge session with a normal close: its tabs are free at once.
      void session.close();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res);
    if (!entry) await transport.close(); // not an initialize request: nothing to keep
  }

  /** Its client kept a stream and now has none and nothing in flight: closed unless a request comes within goneMs. */
  private armGone(id: string, e: Entry): void {
    if (!e.hadStream || e.streams > 0 || e.busy > 0 || e.goneTimer !== null || this.sessions.get(id) !== e) return;
    const goneMs = this.opts.goneMs ?? DEFAULT_MCP_GONE_MS;
    e.goneTimer = setTimeout(() => {
      e.goneTimer = null;
      if (e.streams > 0 || e.busy > 0 || this.sessions.get(id) !== e) return;
      this.sessions.delete(id);
      this.opts.log.info(`mcp session closed: its client went away (its event stream closed, no request for ${goneMs} ms)`, {
        token: e.tokenName,
      });
      void e.transport.close();
    }, goneMs);
    e.goneTimer.unref();
  }

  private disarmGone(e: Entry): void {
    if (e.goneTimer !== null) clearTimeout(e.goneTimer);
    e.goneTimer = null;
  }

  private closeIdle(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [id, e] of this.sessions) {
      if (e.lastSeen >= cutoff || e.busy > 0) continue;
      this.sessions.delete(id);
      this.opts.log.info('mcp session closed after idling', { token: e.tokenName });
      void e.transport.close();
    }
    this.closeRevoked();
  }

  /** Sessions of a revoked token end (and free their tabs) instead of waiting to idle out. */
  private closeRevoked(): void {
    if (this.sessions.size === 0) return;
    let names: Set<string>;
    try {
      names = new Set(this.opts.tokens.list().map((t) => t.name));
    } catch {
      return;
    }
    for (const [id, e] of this.sessions) {
      if (names.has(e.tokenName)) continue;
      this.sessions.delete(id);
      this.opts.log.info('mcp session closed: its token was revoked', { token: e.tokenName });
      void e.transport.close();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    this.guard.close();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const e of all) this.disarmGone(e);
    await Promise.all(all.map((e) => e.transport.close().catch(() => undefined)));
  }
}

function refuse(res: http.ServerResponse, status: number, code: number, message: string, data?: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null }));
}
