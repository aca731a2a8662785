// Local HTTP server for fixture pages: a route table of inline pages plus an optional static
// directory. Binds 127.0.0.1 on a free port; close() stops it.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface Route {
  status?: number;
  contentType?: string;
  body: string | Buffer;
  headers?: Record<string, string>;
  /** Delay before answering, for slow-request fixtures. */
  delayMs?: number;
  /** Sent after `body` once `when` settles: until then the response stays open (a document that is still loading). */
  finish?: { when: Promise<unknown>; tail: string };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export class FixtureServer {
  private readonly routes = new Map<string, Route | ((req: http.IncomingMessage) => Route)>();
  private readonly server: http.Server;
  private port = 0;

  constructor(
    private readonly staticDir?: string,
    private readonly host = '127.0.0.1',
  ) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, this.host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Origin of this server, e.g. http://127.0.0.1:41234 */
  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  url(p: string): string {
    return `${this.origin}${p.startsWith('/') ? p : `/${p}`}`;
  }

  route(p: string, route: Route | ((req: http.IncomingMessage) => Route)): string {
    this.routes.set(p, route);
    return this.url(p);
  }

  /** Registers an inline HTML page and returns its URL. */
  html(p: string, body: string, title = 'Fixture'): string {
    const doc = /<html[\s>]/i.test(body)
      ? body
      : `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
    return this.route(p, { body: doc, contentType: TYPES['.html'] });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const pathname = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    const entry = this.routes.get(pathname);
    let route: Route | null = entry ? (typeof entry === 'function' ? entry(req) : entry) : null;
    if (!route && this.staticDir) route = this.fromStatic(pathname);
    if (!route) route = { status: 404, contentType: 'text/plain', body: `no fixture at ${pathname}` };
    if (route.delayMs) await new Promise((r) => setTimeout(r, route.delayMs));
    res.writeHead(route.status ?? 200, {
      'content-type': route.contentType ?? 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...route.headers,
    });
    if (route.finish) {
      res.write(route.body);
      await route.finish.when;
      res.end(route.finish.tail);
    } else res.end(route.body);
  }

  private fromStatic(pathname: string): Route | null {
    const root = path.resolve(this.staticDir as string);
    const file = path.resolve(root, '.' + (pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    if (!file.startsWith(root + path.sep) && file !== root) return null;
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return null;
    return { body: fs.readFileSync(file), contentType: TYPES[path.extname(file)] ?? 'application/octet-stream' };
  }
}
