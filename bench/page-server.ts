// Loopback HTTP servers for the generated benchmark pages (bench/pages.ts), with the misbehaving
// responses real ad iframes have: answers that come late, bodies that never finish, and requests
// that are never answered. The harness's FixtureServer answers every request at once; these shapes
// need a held response that close() can still end, so that the process exits when the bench does.
//
// Each server is one site: the page at http://127.0.0.1:<a>, ads at http://localhost:<b> and
// http://127.0.0.2:<c> (other host names, so Chromium puts the ad frames in their own renderer
// processes as it does cross-site ads: site isolation keys on scheme + host, not port). A frame
// that blocks its renderer therefore freezes only the frames of its own site.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  /** A whole response, optionally after a delay (a slow ad server). */
  | { kind: 'page'; body: string; contentType?: string; delayMs?: number }
  /** Headers and the first part of the body, then nothing more: the document never finishes loading. */
  | { kind: 'stall'; head: string }
  /** No answer at all (not even headers) until the server closes. */
  | { kind: 'hang' };

export class PageServer {
  private readonly routes = new Map<string, Reply>();
  private readonly held = new Set<http.ServerResponse>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private port = 0;

  /** host: the name pages use for this server; it binds 127.0.0.2 for that name, else 127.0.0.1 (loopback only). */
  constructor(private readonly host: '127.0.0.1' | 'localhost' | '127.0.0.2' = '127.0.0.1') {}

  async start(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, this.host === '127.0.0.2' ? '127.0.0.2' : '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  url(p: string): string {
    return `${this.origin}${p}`;
  }

  set(p: string, reply: Reply): string {
    this.routes.set(p, reply);
    return this.url(p);
  }

  /** Ends every held response and stops listening. */
  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const res of this.held) res.destroy();
    this.held.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const reply = this.routes.get(pathname);
    if (!reply) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no bench page at ${pathname}`);
      return;
    }
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    if (reply.kind === 'hang') {
      this.hold(res);
      return;
    }
    if (reply.kind === 'stall') {
      this.hold(res);
      res.writeHead(200, headers);
      res.write(reply.head);
      return;
    }
    const send = () => {
      this.held.delete(res);
      if (!res.destroyed) res.writeHead(200, { ...headers, 'content-type': reply.contentType ?? headers['content-type'] }).end(reply.body);
    };
    if (!reply.delayMs) {
      send();
      return;
    }
    this.hold(res);
    const t = setTimeout(() => {
      this.timers.delete(t);
      send();
    }, reply.delayMs);
    this.timers.add(t);
  }

  private hold(res: http.ServerResponse): void {
    this.held.add(res);
    res.on('close', () => this.held.delete(res));
  }
}
