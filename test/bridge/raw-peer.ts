// A raw WebSocket peer for bridge tests: speaks the protocol by hand so tests can also send what a
// correct client never would.
import WebSocket from 'ws';
import type { ProtocolMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';

export class RawPeer {
  readonly received: ProtocolMessage[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: { pred: (m: ProtocolMessage) => boolean; resolve: (m: ProtocolMessage) => void }[] = [];
  private closeWaiters: ((c: { code: number; reason: string }) => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as ProtocolMessage;
      this.received.push(m);
      this.waiters = this.waiters.filter((w) => (w.pred(m) ? (w.resolve(m), false) : true));
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.closeWaiters) w(this.closed);
    });
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<RawPeer> {
    const ws = new WebSocket(url, { headers });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RawPeer(ws);
  }

  /** Opens and completes the hello handshake as the given role. */
  static async hello(url: string, role: 'agent' | 'extension', capabilities: string[] = []): Promise<RawPeer> {
    const p = await RawPeer.open(url);
    p.send({ type: 'hello', role, protocol_version: PROTOCOL_VERSION, client: { name: `test-${role}`, version: '0' }, capabilities });
    await p.next((m) => m.type === 'hello_ack');
    return p;
  }

  send(m: ProtocolMessage | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(m));
  }

  sendText(text: string): void {
    this.ws.send(text);
  }

  next(pred: (m: ProtocolMessage) => boolean = () => true, timeoutMs = 3000): Promise<ProtocolMessage> {
    const already = this.received.find(pred);
    if (already) {
      this.received.splice(this.received.indexOf(already), 1);
      return Promise.resolve(already);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          this.received.splice(this.received.indexOf(m), 1);
          resolve(m);
        },
      });
    });
  }

  waitClose(timeoutMs = 3000): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('connection did not close')), timeoutMs);
      this.closeWaiters.push((c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
  }

  close(): void {
    this.ws.close();
  }
}
