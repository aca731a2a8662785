// Outbound WebSocket to a seed backend (seeds 000 and 001 run a WebSocket *server* that the
// extension dials; seed 001's default is ws://localhost:8080). Keeps the link up with exponential
// backoff, answers WebSocket ping frames (ws does it) and sends its own ping frames so a half-open
// link is noticed. Loopback only unless allowRemote: the backend gets to drive the person's browser.
import { EventEmitter } from 'node:events';
import { STATUS_CODES } from 'node:http';

import WebSocket from 'ws';

import { Backoff } from '../../../schemas/lib/backoff';
import { isLoopbackHost } from '../../common/origin-check';

export class BackendUrlError extends Error {
  override name = 'BackendUrlError';
  constructor(
    message: string,
    /** BACKEND_URL_INVALID (not a ws:// URL) or BACKEND_NOT_LOOPBACK (remote without allowRemote). */
    readonly code: 'BACKEND_URL_INVALID' | 'BACKEND_NOT_LOOPBACK' = 'BACKEND_URL_INVALID',
  ) {
    super(message);
  }
}

/** Throws BackendUrlError when url is not ws(s):// or (without allowRemote) not a loopback host. */
export function checkBackendUrl(url: string, allowRemote: boolean): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BackendUrlError(`"${url}" is not a URL. Pass the backend's WebSocket address, e.g. ws://localhost:8080.`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new BackendUrlError(`"${url}" is not a WebSocket URL (ws:// or wss://).`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!allowRemote && !isLoopbackHost(host)) {
    throw new BackendUrlError(
      `Refusing to connect to ${u.host}: a backend can drive your logged-in browser, so only loopback backends are allowed. Add --allow-remote if you really mean it.`,
      'BACKEND_NOT_LOOPBACK',
    );
  }
  return u;
}

export interface BackendLinkOptions {
  url: string;
  allowRemote?: boolean;
  /** First reconnect delay (doubles up to maxDelayMs). */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Interval of WebSocket ping frames (0 = none). */
  heartbeatMs?: number;
}

/** Why a dial or an open link ended: nobody answered, or the backend answered and said no. */
export interface LinkFailure {
  kind: 'unreachable' | 'refused';
  /** The error or close as the link saw it (e.g. "connect ECONNREFUSED 127.0.0.1:8080", "HTTP 403 Forbidden"). */
  why: string;
}

/** A backend that answers the WebSocket upgrade with an HTTP error status (ws: "Unexpected server
 * response: 403"), or closes an open link with 1008 (policy) or a 4xxx code, is there but refuses
 * us: telling the person "not reachable" would send them to start a backend that already runs. */
export function classifyFailure(lastError: string, closeCode: number, closeReason: string, wasOpen: boolean): LinkFailure {
  const http = /Unexpected server response: (\d{3})/.exec(lastError);
  if (http) {
    const status = Number(http[1]);
    return { kind: 'refused', why: `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}` };
  }
  if (wasOpen && (closeCode === 1008 || (closeCode >= 4000 && closeCode <= 4999)))
    return { kind: 'refused', why: `closed with ${closeCode}${closeReason ? ` ${closeReason}` : ''}` };
  return { kind: 'unreachable', why: lastError || `closed ${closeCode}${closeReason ? ` ${closeReason}` : ''}` };
}

/**
 * Events: 'open', 'message' (parsed JSON value), 'bad-frame' (text that is not JSON), 'close'
 * (code, reason), 'retry' (delayMs, error message, LinkFailure).
 */
export class BackendLink extends EventEmitter {
  private ws: WebSocket | null = null;
  private stopped = false;
  private readonly backoff: Backoff;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private beat: ReturnType<typeof setInterval> | null = null;
  private alive = true;

  constructor(private readonly opts: BackendLinkOptions) {
    super();
    checkBackendUrl(opts.url, opts.allowRemote ?? false);
    this.backoff = new Backoff({ baseMs: opts.minDelayMs ?? 250, maxMs: opts.maxDelayMs ?? 10_000 });
  }

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.stopped = false;
    this.dial();
  }

  send(value: unknown): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(value));
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.beat) clearInterval(this.beat);
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000, 'connector stopping');
      setTimeout(resolve, 2000).unref();
    });
  }

  private dial(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.opts.url, { handshakeTimeout: 10_000 });
    this.ws = ws;
    let lastError = '';
    let wasOpen = false;
    ws.on('open', () => {
      wasOpen = true;
      this.backoff.reset();
      this.alive = true;
      const hb = this.opts.heartbeatMs ?? 20_000;
      if (hb > 0) {
        this.beat = setInterval(() => {
          if (!this.alive) {
            ws.terminate(); // no pong since the last ping: the link is dead, reconnect
            return;
          }
          this.alive = false;
          ws.ping();
        }, hb);
        this.beat.unref();
      }
      this.emit('open');
    });
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      this.alive = true;
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.emit('bad-frame', text);
        return;
      }
      this.emit('message', value);
    });
    ws.on('error', (e) => {
      lastError = e.message;
    });
    ws.on('close', (code, reason) => {
      if (this.beat) clearInterval(this.beat);
      this.beat = null;
      if (this.ws === ws) this.ws = null;
      this.emit('close', code, reason.toString());
      if (this.stopped) return;
      const wait = this.backoff.next();
      const failure = classifyFailure(lastError, code, reason.toString(), wasOpen);
      this.emit('retry', wait, failure.why, failure);
      this.timer = setTimeout(() => this.dial(), wait);
    });
  }
}
