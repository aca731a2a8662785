// A bare WebSocket peer for handshake checks: records every frame and checks each one the bridge
// sends against the schemas (the bridge -> agent direction of "schema checks both ways").
import WebSocket from 'ws';

import type { ProtocolMessage } from '../../../schemas/generated/protocol';
import { decodeMessage } from '../../../schemas/lib/wire';

export class RawPeer {
  readonly received: ProtocolMessage[] = [];
  readonly invalid: string[] = [];
  closeCode: number | null = null;
  httpStatus: number | null = null;
  private waiters: (() => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = decodeMessage(d.toString(), 'client');
      if (m.ok) this.received.push(m.value);
      else this.invalid.push(m.error.message);
      this.wake();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const peer = new RawPeer(ws);
      ws.once('open', () => resolve(peer));
      ws.once('unexpected-response', (_req, res) => {
        peer.httpStatus = res.statusCode ?? null;
        resolve(peer);
      });
      ws.once('error', (e) => {
        if (peer.httpStatus === null) reject(e);
      });
    });
  }

  send(v: unknown): void {
    this.ws.send(typeof v === 'string' ? v : JSON.stringify(v));
  }

  /** Next received message matching pred (or null on timeout / close). */
  async next<T extends ProtocolMessage>(pred: (m: ProtocolMessage) => m is T, timeoutMs = 5000): Promise<T | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.received.findIndex(pred);
      if (i >= 0) return this.received.splice(i, 1)[0] as T;
      if (this.closeCode !== null || Date.now() > deadline) return null;
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  async waitClose(timeoutMs = 3000): Promise<number | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return this.closeCode;
  }

  close(): void {
    this.ws.terminate();
  }
}

export const isType =
  <K extends ProtocolMessage['type']>(type: K) =>
  (m: ProtocolMessage): m is Extract<ProtocolMessage, { type: K }> =>
    m.type === type;
