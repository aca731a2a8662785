// An agent that lives inside the bridge's own process (the CDP endpoint) reaches the relay over this
// link instead of a loopback WebSocket to /agent: one socket, its framing and two event-loop wake-ups
// fewer per message, on the path every CDP command takes. Everything else stays as for any agent: the
// relay reads each frame with the same Peer.receive (parse + schema check, once), the same handshake
// (hello, HMAC challenge) admits it, and the same leases, timeouts, close codes and Stop apply.
//
// The two ends behave as the subset of a `ws` WebSocket the client and the relay use (readyState,
// send, close, terminate; 'open', 'message', 'close', 'error' events). Frames are strings: immutable,
// so what a sender passes is a copy it cannot change afterwards. Delivery is asynchronous and in
// order (a microtask per batch, as ws parses a read of several frames in one go), so no side runs
// inside the other's call stack. A frame to the relay over its size limit closes the link with 1009,
// as the ws server does with maxPayload; frames to the agent get the ws client's default limit.
import { EventEmitter } from 'node:events';

/** WebSocket readyState values (WHATWG WebSockets, as `ws` uses them). */
export const LINK_STATE = { connecting: 0, open: 1, closing: 2, closed: 3 } as const;

/** Close code of a link cut without a close handshake (RFC 6455 section 7.1.5: 1006, "abnormal"). */
const ABNORMAL = 1006;
const TOO_BIG = 1009;
/** What a `ws` client accepts by default (its maxPayload, 100 MiB): the relay's answers may be a little
 * over its own inbound limit (a relayed answer with a longer id), and a socket client takes them. */
const WS_CLIENT_MAX_PAYLOAD = 100 * 1024 * 1024;

export interface LinkEndEvents {
  open: [];
  message: [data: string, isBinary: boolean];
  close: [code: number, reason: Buffer];
  error: [err: Error];
}

/** One end of an in-process link, shaped as the part of a `ws` WebSocket both sides use. */
export class LinkEnd extends EventEmitter<LinkEndEvents> {
  readyState: number = LINK_STATE.connecting;
  readonly CONNECTING = LINK_STATE.connecting;
  readonly OPEN = LINK_STATE.open;
  readonly CLOSING = LINK_STATE.closing;
  readonly CLOSED = LINK_STATE.closed;
  /** @internal the other end */
  other: LinkEnd | null = null;
  private inbox: string[] = [];
  private draining = false;

  constructor(
    /** Largest frame this end accepts (bytes, UTF-8); a bigger one closes the link with 1009. */
    private readonly maxPayloadBytes: number,
  ) {
    super();
  }

  /** Queues a text frame for the other end; dropped once the link is closing (as ws drops it). */
  send(text: string): void {
    if (this.readyState === LINK_STATE.connecting) throw new Error('in-process link: send before open');
    if (this.readyState !== LINK_STATE.open || !this.other) return;
    this.other.deliver(text);
  }

  /** A close handshake: both ends see 'close' with this code and reason. */
  close(code = 1005, reason = ''): void {
    if (this.readyState === LINK_STATE.closing || this.readyState === LINK_STATE.closed) return;
    this.shut(code, reason);
  }

  /** Cut at once, as ws's terminate(): both ends see 1006. */
  terminate(): void {
    if (this.readyState === LINK_STATE.closed) return;
    this.shut(ABNORMAL, '');
  }

  private shut(code: number, reason: string): void {
    const other = this.other;
    this.readyState = LINK_STATE.closing;
    if (other && other.readyState !== LINK_STATE.closed) other.readyState = LINK_STATE.closing;
    // After the frames already on their way, as a close frame follows them on a socket.
    queueMicrotask(() => {
      this.finish(code, reason);
      other?.finish(code, reason);
    });
  }

  private finish(code: number, reason: string): void {
    if (this.readyState === LINK_STATE.closed) return;
    this.drain();
    this.readyState = LINK_STATE.closed;
    this.inbox.length = 0;
    this.emit('close', code, Buffer.from(reason));
  }

  private deliver(text: string): void {
    if (text.length * 3 > this.maxPayloadBytes && Buffer.byteLength(text) > this.maxPayloadBytes) {
      this.other?.shut(TOO_BIG, '');
      return;
    }
    this.inbox.push(text);
    if (this.draining) return;
    this.draining = true;
    queueMicrotask(() => this.drain());
  }

  private drain(): void {
    this.draining = false;
    const batch = this.inbox;
    this.inbox = [];
    for (let i = 0; i < batch.length; i++) {
      if (this.readyState === LINK_STATE.closed) return;
      this.emit('message', batch[i] as string, false);
    }
  }
}

/**
 * A connected pair: `client` for the agent, `server` for the relay (maxPayloadBytes: the largest frame
 * the relay accepts). Both are 'open' from the next microtask (the client's 'open' then starts its
 * handshake, as on a socket).
 */
export function linkPair(maxPayloadBytes: number): { client: LinkEnd; server: LinkEnd } {
  const client = new LinkEnd(WS_CLIENT_MAX_PAYLOAD);
  const server = new LinkEnd(maxPayloadBytes);
  client.other = server;
  server.other = client;
  queueMicrotask(() => {
    if (client.readyState !== LINK_STATE.connecting) return;
    client.readyState = LINK_STATE.open;
    server.readyState = LINK_STATE.open;
    client.emit('open');
  });
  return { client, server };
}
