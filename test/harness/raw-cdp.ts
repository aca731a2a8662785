// The smallest CDP client: one WebSocket, commands by id, events kept and awaitable. What a script
// using a page's webSocketDebuggerUrl from /json/list (chrome-remote-interface style) does, so a test
// can run the same steps against Chromium's own endpoint and the bridge's.
import WebSocket from 'ws';

export interface RawCdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  sessionId?: string;
}

export class RawCdp {
  readonly messages: RawCdpMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private nextId = 1;
  private readonly waiters: { pred: (m: RawCdpMessage) => boolean; resolve: (m: RawCdpMessage) => void }[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as RawCdpMessage;
      this.messages.push(m);
      for (const w of this.waiters.filter((x) => x.pred(m))) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(m);
      }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static open(url: string): Promise<RawCdp> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawCdp(ws)));
      ws.once('error', reject);
    });
  }

  /** The first message matching `pred` from index `from` of what was received (or still to come); a timeout names `what`. */
  next(pred: (m: RawCdpMessage) => boolean, what: string, from = 0, timeoutMs = 15_000): Promise<RawCdpMessage> {
    const had = this.messages.slice(from).find(pred);
    if (had) return Promise.resolve(had);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Sends a command and waits for its answer (result or error). */
  async send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<RawCdpMessage> {
    const id = this.nextId++;
    const answer = this.next((m) => m.id === id, `answer to ${method}`, this.messages.length);
    this.ws.send(JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }));
    return answer;
  }

  close(): void {
    this.ws.close();
  }
}
