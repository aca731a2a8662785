// MCP over Streamable HTTP at /mcp on the bridge. Each request passes, in order:
//   1. loopback peer address (even with --allow-remote: a bearer token over plain http must not
//      cross a network);
//   2. the bridge's Host/Origin rule (origin-check.ts, the /agent rule): Host must be this bridge
//      (DNS rebinding), and any Origin header is refused (a web page cannot call /mcp; MCP clients
//      are local programs and send none);
//   3. a per-client bearer token (tokens.ts), with the handshake rate limit for wrong ones.
// Each MCP session (Mcp-Session-Id) is bound to the token that created it and is its own bridge
// agent session: an AgentClient over loopback to /agent with the bridge's agent secret. That keeps
// one code path for every agent (handshake, validation, leases, queues, resume) at ~0.5 ms per hop
// (bench:bridge), instead of a second, in-process session interface into server.ts to keep correct.
import crypto from 'node:crypto';
import type http from 'node:http';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import type { Logger } from '../../common/log';
import type { UpgradeVerdict } from '../../common/origin-check';
import { FailureGate } from '../../common/rate-limit';
import { createMcpSession, type McpSession } from './mcp-server';
import type { McpTokenStore } from './tokens';

export interface McpHttpOptions {
  tokens: McpTokenStore;
  agentUrl: () => string;
  agentSecret: () => string;
  /** The bridge's Host + Origin rule for this request. */
  checkHeaders: (headers: http.IncomingHttpHeaders) => UpgradeVerdict;
  log: Logger;
  /** An MCP session without a request for this long is closed and its tabs freed (default 30 min). */
  idleMs?: number;
  maxBodyBytes?: number;
  /** Wrong tokens answered at once before they are slowed (rate-limit.ts: a right token never waits). */
  maxFailures?: number;
  /** Past that burst, one wrong-token answer per this many ms, across all addresses. */
  failureIntervalMs?: number;
}

interface Entry {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  tokenName: string;
  lastSeen: number;
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

export class McpHttpEndpoint {
  readonly path = '/mcp';
  readonly label = 'MCP Streamable HTTP';
  private readonly sessions = new Map<string, Entry>();
  private readonly failures: FailureGate;
  private readonly sweep: ReturnType<typeof setInterval>;
  private readonly idleMs: number;

  constructor(private readonly opts: McpHttpOptions) {
    this.failures = new FailureGate({ burst: opts.maxFailures ?? 10, intervalMs: opts.failureIntervalMs ?? 1_000 });
    this.idleMs = opts.idleMs ?? 30 * 60_000;
    this.sweep = setInterval(() => this.closeIdle(), Math.min(60_000, this.idleMs));
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
    const remote = req.socket.remoteAddress;
    if (!isLoopbackAddress(remote))
      return refuse(
        res,
        403,
        -32001,
        'MCP over HTTP is served to this machine only (loopback). Run the MCP client on the machine where the bridge runs, or use `browser-use-ext mcp` (stdio) there.',
      );
    const verdict = this.opts.checkHeaders(req.headers);
    if (!verdict.ok) {
      // Same rule as /agent (origin-check.ts); name the endpoint the caller actually used.
      const reason = verdict.reason.replace('connect to /agent', 'call /mcp');
      this.opts.log.warn('refused mcp request', { reason });
      return refuse(res, 403, -32001, reason);
    }
    const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    let tokenName: string | null;
    try {
      tokenName = auth?.[1] ? this.opts.tokens.verify(auth[1]) : null;
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
      // every address, so no local program can lock the right token out and guessing stays slow.
      // Queued answers are bounded: past 10 s of backlog the request is refused with 429 at once.
      const late = this.failures.book('mcp', Date.now() + 10_000);
      if (late.answerInMs) await new Promise((r) => setTimeout(r, late.answerInMs));
      this.closeRevoked();
      this.opts.log.warn('refused mcp request: missing or wrong token');
      if (late.answerInMs === null) {
        res.setHeader('retry-after', '1');
        return refuse(res, 429, -32001, 'Too many requests with a wrong token; try again with the right one.');
      }
      res.setHeader('www-authenticate', 'Bearer realm="browser-use-ext"');
      return refuse(
        res,
        401,
        -32001,
        'Missing or wrong bearer token. Issue one with `npx browser-use-ext mcp-token add <client-name>` and send it as "Authorization: Bearer <token>".',
      );
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > (this.opts.maxBodyBytes ?? 4 * 1024 * 1024)) return refuse(res, 413, -32600, 'Request body too large.');

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = this.sessions.get(sessionId);
      // Another token's session id is "not found" too: ids are not capabilities on their own.
      if (!entry || entry.tokenName !== tokenName) return refuse(res, 404, -32001, 'Unknown or expired MCP session; initialize a new one.');
      entry.lastSeen = Date.now();
      await entry.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST')
      return refuse(res, 400, -32000, 'Send initialize (POST) first; other requests need the Mcp-Session-Id it returns.');
    await this.startSession(req, res, tokenName);
  }

  private async startSession(req: http.IncomingMessage, res: http.ServerResponse, tokenName: string): Promise<void> {
    const session = createMcpSession({ url: this.opts.agentUrl(), secret: this.opts.agentSecret(), clientSuffix: ` [${tokenName}]` });
    let entry: Entry | null = null;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        entry = { transport, session, tokenName, lastSeen: Date.now() };
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

  private closeIdle(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, e] of this.sessions) {
      if (e.lastSeen >= cutoff) continue;
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
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((e) => e.transport.close().catch(() => undefined)));
  }
}

function refuse(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
