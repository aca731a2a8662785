// A stand-in for the bridge's /extension side, for e2e tests of what the extension itself sends
// (its hello, browser_update) and does with what a bridge answers (hello_ack, agent_sessions, error),
// apart from how a given bridge version decides. It speaks the real handshake (the extension checks
// the bridge's proof before it proves itself: bridge/common/auth.ts) and a one-time POST /pair, so the
// panel's pairing form works against it. Every message the extension sends is recorded in order.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import WebSocket, { WebSocketServer } from 'ws';

import { bridgeProof, clientProof, newNonce, proofsEqual } from '../../bridge/common/auth';
import { BRIDGE_NAME, BRIDGE_VERSION } from '../../bridge/common/version';
import type { BrowserInfo, HelloMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';

export class FakeBridge {
  readonly received: ProtocolMessage[] = [];
  /** What hello_ack.browser says for a hello (undefined: none, as a bridge serving one browser). */
  answerBrowser: (hello: HelloMessage) => BrowserInfo | undefined = () => undefined;
  /** The code POST /pair accepts once. */
  pairingCode: string | null = null;
  private socket: WebSocket | null = null;
  private readonly waiters: { pred: (m: ProtocolMessage) => boolean; resolve: (m: ProtocolMessage) => void }[] = [];
  private readonly server: http.Server;
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor(readonly secret: string) {
    this.server = http.createServer((req, res) => this.pair(req, res));
    this.server.on('upgrade', (req, sock, head) => {
      if (req.url !== '/extension') return sock.destroy();
      this.wss.handleUpgrade(req, sock, head, (ws) => this.accept(ws));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/extension`;
  }

  /** The next message from now on that matches. */
  next<T extends ProtocolMessage['type']>(
    type: T,
    pred: (m: Extract<ProtocolMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<Extract<ProtocolMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} from the extension within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        pred: (m) => m.type === type && pred(m as Extract<ProtocolMessage, { type: T }>),
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as Extract<ProtocolMessage, { type: T }>);
        },
      });
    });
  }

  /** Sends to the extension's current connection (after its hello_ack). */
  send(m: ProtocolMessage): void {
    if (this.socket?.readyState !== WebSocket.OPEN) throw new Error('the extension is not connected to the fake bridge');
    this.socket.send(JSON.stringify(m));
  }

  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
    await new Promise((r) => this.server.close(r));
  }

  private accept(ws: WebSocket): void {
    let hello: HelloMessage | null = null;
    const nonce = newNonce();
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as ProtocolMessage;
      this.received.push(m);
      if (m.type === 'hello') {
        hello = m;
        ws.send(JSON.stringify({ type: 'auth_challenge', nonce, bridge_proof: bridgeProof(this.secret, m.client_nonce) }));
      } else if (m.type === 'auth_response' && hello) {
        if (!proofsEqual(clientProof(this.secret, 'extension', nonce, hello.client_nonce), m.proof)) return ws.close(4001);
        // A browser reconnecting replaces its earlier connection, as the bridge does.
        if (this.socket && this.socket !== ws) this.socket.close(1000);
        this.socket = ws;
        const browser = this.answerBrowser(hello);
        ws.send(
          JSON.stringify({
            type: 'hello_ack',
            protocol_version: PROTOCOL_VERSION,
            bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION },
            session_id: 'extension',
            extension_connected: true,
            ...(browser ? { browser } : {}),
          } satisfies ProtocolMessage),
        );
      }
      for (const w of [...this.waiters]) {
        if (!w.pred(m)) continue;
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(m);
      }
    });
  }

  private pair(req: http.IncomingMessage, res: http.ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const code = (JSON.parse(body || '{}') as { code?: string }).code?.replace('-', '');
      const ok = req.method === 'POST' && req.url === '/pair' && this.pairingCode !== null && code === this.pairingCode.replace('-', '');
      if (ok) this.pairingCode = null;
      res.writeHead(ok ? 200 : 403, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { extension_secret: this.secret } : { error: 'That code is not valid.' }));
    });
  }
}
