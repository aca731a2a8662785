// A raw WebSocket peer for bridge tests: speaks the protocol by hand so tests can also send what a
// correct client never would.
import crypto from 'node:crypto';

import WebSocket from 'ws';

import { bridgeProof, clientProof } from '../../bridge/common/auth';
import { EXTENSION_ID } from '../../bridge/common/extension-id';
import type { HelloAckMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';

export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}`;

export interface HelloOptions {
  /** The role's secret (bridge.secrets.extension_secret / agent_secret). */
  secret: string;
  capabilities?: string[];
  sessionToken?: string;
  maxTabs?: number;
  /** hello.client.name (default test-<role>). */
  clientName?: string;
  /** Upgrade headers; the extension role gets our extension Origin by default. */
  headers?: Record<string, string>;
  /** More hello fields (browser_id, browser_name, browser). */
  hello?: Record<string, unknown>;
}

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

  /** opts.localAddress: the source address (any 127.x.y.z works on Linux loopback). */
  static async open(url: string, headers: Record<string, string> = {}, opts: { localAddress?: string } = {}): Promise<RawPeer> {
    const ws = new WebSocket(url, { headers, ...opts });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RawPeer(ws);
  }

  ack: HelloAckMessage | null = null;

  /** Opens and completes the handshake (hello, auth_challenge, auth_response, hello_ack) as the given role. */
  static async hello(url: string, role: 'agent' | 'extension', o: HelloOptions): Promise<RawPeer> {
    const p = await RawPeer.open(url, o.headers ?? (role === 'extension' ? { Origin: EXTENSION_ORIGIN } : {}));
    const clientNonce = crypto.randomBytes(16).toString('base64');
    const hello: Record<string, unknown> = {
      type: 'hello',
      role,
      protocol_version: PROTOCOL_VERSION,
      client: { name: o.clientName ?? `test-${role}`, version: '0' },
      capabilities: o.capabilities ?? [],
      client_nonce: clientNonce,
      ...o.hello,
    };
    if (o.sessionToken) hello['session_token'] = o.sessionToken;
    if (o.maxTabs !== undefined) hello['max_tabs'] = o.maxTabs;
    p.send(hello);
    const challenge = await p.next((m) => m.type === 'auth_challenge' || m.type === 'error');
    if (challenge.type !== 'auth_challenge') throw new Error(`handshake refused: ${JSON.stringify(challenge)}`);
    if (challenge.bridge_proof !== bridgeProof(o.secret, clientNonce)) throw new Error('the bridge proof does not match the secret');
    p.send({ type: 'auth_response', proof: clientProof(o.secret, role, challenge.nonce, clientNonce) });
    const ack = await p.next((m) => m.type === 'hello_ack' || m.type === 'error');
    if (ack.type !== 'hello_ack') throw new Error(`handshake refused: ${JSON.stringify(ack)}`);
    p.ack = ack;
    return p;
  }

  /** Resolves with the HTTP status when the upgrade is refused, or null when it is accepted. */
  static async refusedStatus(url: string, headers: Record<string, string> = {}): Promise<number | null> {
    const ws = new WebSocket(url, { headers });
    return new Promise((resolve) => {
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('open', () => {
        resolve(null);
        ws.close();
      });
      ws.once('error', () => undefined);
    });
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
      const timer = setTimeout(
        () => reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`)),
        timeoutMs,
      );
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
