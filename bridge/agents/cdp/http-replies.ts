// How the CDP endpoint answers over plain HTTP: JSON for discovery (as Chrome's /json/* does, never
// cached), and a refused WebSocket upgrade as a status line with a plain-text reason, which CDP
// clients (Playwright, puppeteer, websockets) show in their connection error.
import http from 'node:http';
import type { Duplex } from 'node:stream';

export function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Refuses an upgrade with a plain-text reason, which CDP clients show in their connection error. */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = message + '\n';
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
