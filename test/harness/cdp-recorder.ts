// A recording CDP proxy: sits between a CDP client (browser_use, Playwright connectOverCDP, puppeteer
// connect) and a real browser endpoint (Chromium's --remote-debugging-port), forwards every HTTP
// request and WebSocket message unchanged, and logs each one: direction, sessionId (or none),
// method, params, and the answer paired with its command. What a client really sends is what the
// bridge's CDP endpoint has to emulate (docs/CDP-CLIENTS.md is written from these logs).
//
// The only rewrite: `webSocketDebuggerUrl` / `devtoolsFrontendUrl` in /json/* answers point at this
// proxy instead of the browser, so the client's WebSocket comes through here too. The upstream may
// have a path prefix (the bridge's http://127.0.0.1:P/cdp/<token>): the proxy serves it at its root
// and adds the prefix to every request it forwards.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import WebSocket, { WebSocketServer } from 'ws';

export type Direction = 'client->browser' | 'browser->client';

export interface HttpEntry {
  kind: 'http';
  t: number;
  method: string;
  path: string;
  status: number;
  /** Request headers a relay has to accept (lower-cased names). */
  headers: Record<string, string>;
  /** The parsed JSON answer (after the URL rewrite), when it was JSON. */
  body: unknown;
}

export interface WsEntry {
  kind: 'command' | 'event' | 'result' | 'error' | 'open' | 'close';
  t: number;
  /** Which WebSocket connection (1, 2, ...), and its path (/devtools/browser/<id> or /devtools/page/<id>). */
  conn: number;
  path: string;
  dir: Direction;
  sessionId?: string;
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export type Entry = HttpEntry | WsEntry;

export interface CdpRecorder {
  /** http://127.0.0.1:<port>: give this to the client instead of the browser's address. */
  url: string;
  log: Entry[];
  close(): Promise<void>;
}

export interface CdpError {
  code: number;
  message: string;
}

export interface RecorderOptions {
  /**
   * Answer a command with this CDP error instead of forwarding it (what a relay that cannot honour
   * a method does): called with the method and whether it came without a sessionId (browser level).
   */
  refuse?: (method: string, browserLevel: boolean) => CdpError | undefined;
  /**
   * Hold an event from the browser this many ms before passing it on (later messages are not held):
   * e.g. an attachedToTarget that arrives after createTarget's answer, as a slower relay may send it.
   */
  delayEvent?: (method: string, browserLevel: boolean) => number;
}

interface CdpFrame {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  sessionId?: string;
}

/** Long strings (screenshots, DOM snapshots) are cut: the log is about shapes, not page content. */
function trim(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 300 ? `${value.slice(0, 300)}…(${value.length} chars)` : value;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const head = value.slice(0, 20).map((v) => trim(v, depth + 1));
    return value.length > 20 ? [...head, `…(${value.length} items)`] : head;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v, depth + 1)]));
}

export async function startCdpRecorder(upstream: string, options: RecorderOptions = {}): Promise<CdpRecorder> {
  const up = new URL(upstream);
  const prefix = up.pathname.replace(/\/$/, '');
  const log: Entry[] = [];
  const started = Date.now();
  const now = (): number => Date.now() - started;
  let conns = 0;
  const sockets = new Set<WebSocket>();

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const headers = Object.fromEntries(
      Object.entries(req.headers)
        .filter(([k]) => ['host', 'origin', 'user-agent', 'accept'].includes(k))
        .map(([k, v]) => [k, String(v)]),
    );
    fetch(`${up.origin}${prefix}${path}`, { method: req.method ?? 'GET' })
      .then(async (r) => {
        let text = await r.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
          const own = `${req.headers.host ?? ''}`;
          text = text.split(`${up.host}${prefix}`).join(own);
          body = JSON.parse(text);
        } catch {
          // not JSON: forwarded as is
        }
        log.push({ kind: 'http', t: now(), method: req.method ?? 'GET', path, status: r.status, headers, body });
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/plain' }).end(text);
      })
      .catch((e: unknown) => {
        log.push({ kind: 'http', t: now(), method: req.method ?? 'GET', path, status: 502, headers, body: String(e) });
        res.writeHead(502).end(String(e));
      });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 512 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const path = req.url ?? '/';
    const conn = ++conns;
    const headers = Object.fromEntries(
      Object.entries(req.headers)
        .filter(([k]) => ['host', 'origin', 'user-agent'].includes(k))
        .map(([k, v]) => [k, String(v)]),
    );
    const target = new WebSocket(`ws://${up.host}${prefix}${path}`, { maxPayload: 512 * 1024 * 1024, perMessageDeflate: false });
    const pending: Buffer[] = [];
    // Which method each command id was, per connection, so answers are logged with their method.
    const methods = new Map<string, string>();
    const key = (id: number | undefined, sessionId: string | undefined): string => `${sessionId ?? ''}#${id ?? ''}`;
    const record = (dir: Direction, raw: string): void => {
      let f: CdpFrame;
      try {
        f = JSON.parse(raw) as CdpFrame;
      } catch {
        return;
      }
      const base = { t: now(), conn, path, dir, ...(f.sessionId ? { sessionId: f.sessionId } : {}) };
      if (dir === 'client->browser') {
        if (f.method) methods.set(key(f.id, f.sessionId), f.method);
        log.push({ ...base, kind: 'command', id: f.id, method: f.method, params: trim(f.params) });
      } else if (f.id === undefined) {
        log.push({ ...base, kind: 'event', method: f.method, params: trim(f.params) });
      } else {
        const method = methods.get(key(f.id, f.sessionId));
        if (f.error) log.push({ ...base, kind: 'error', id: f.id, method, error: f.error });
        else log.push({ ...base, kind: 'result', id: f.id, method, result: trim(f.result) });
      }
    };
    const refusal = (raw: string): string | undefined => {
      if (!options.refuse) return undefined;
      let f: CdpFrame;
      try {
        f = JSON.parse(raw) as CdpFrame;
      } catch {
        return undefined;
      }
      const error = f.method ? options.refuse(f.method, !f.sessionId) : undefined;
      return error ? JSON.stringify({ id: f.id, ...(f.sessionId ? { sessionId: f.sessionId } : {}), error }) : undefined;
    };
    wss.handleUpgrade(req, socket, head, (client) => {
      sockets.add(client).add(target);
      log.push({ kind: 'open', t: now(), conn, path, dir: 'client->browser', params: headers });
      client.on('message', (data: Buffer) => {
        record('client->browser', data.toString());
        const refused = refusal(data.toString());
        if (refused) {
          record('browser->client', refused);
          client.send(refused);
          return;
        }
        if (target.readyState === WebSocket.OPEN) target.send(data.toString());
        else pending.push(data);
      });
      target.on('open', () => {
        for (const d of pending.splice(0)) target.send(d.toString());
      });
      target.on('message', (data: Buffer) => {
        const raw = data.toString();
        const f = options.delayEvent ? (JSON.parse(raw) as CdpFrame) : undefined;
        const hold = f?.method && f.id === undefined ? (options.delayEvent?.(f.method, !f.sessionId) ?? 0) : 0;
        const pass = (): void => {
          record('browser->client', raw);
          if (client.readyState === WebSocket.OPEN) client.send(raw);
        };
        if (hold > 0) setTimeout(pass, hold);
        else pass();
      });
      const closeBoth = (dir: Direction, code: number): void => {
        if (!log.some((e) => e.kind === 'close' && e.conn === conn))
          log.push({ kind: 'close', t: now(), conn, path, dir, params: { code } });
        client.close();
        target.close();
      };
      client.on('close', (code) => closeBoth('client->browser', code));
      target.on('close', (code) => closeBoth('browser->client', code));
      target.on('error', () => closeBoth('browser->client', 1011));
      client.on('error', () => closeBoth('client->browser', 1011));
    });
  });

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    async close() {
      for (const s of sockets) s.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
