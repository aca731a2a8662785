// One connection to the bridge, extension or agent (a WebSocket, or an in-process agent's link).
// Validates every message in both directions with the generated validators; an invalid incoming
// message gets a typed `error` and the connection stays open.
import type { ErrorInfo, HelloMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { MESSAGE_SENDERS, type Sender } from '../../schemas/generated/registry';
import { checkMessage, decodeMessage, errorInfo } from '../../schemas/lib/wire';
import type { Logger } from '../common/log';

export type Role = Exclude<Sender, 'bridge'>;

/** WebSocket close codes we use (RFC 6455 section 7.4.1). */
export const CLOSE = { normal: 1000, goingAway: 1001, unsupportedData: 1003, policy: 1008, tooBig: 1009 } as const;

/** Handshake stage: hello -> auth_challenge -> auth_response -> hello_ack; 'refused':
 * a wrong proof whose (possibly delayed, rate-limit.ts) refusal is pending, nothing more is read. */
export type Stage = 'hello' | 'auth' | 'ready' | 'refused';

/** What a peer needs of its connection: a `ws` WebSocket, or one end of an in-process link (bridge/common/in-process-link.ts). */
export interface PeerSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly CONNECTING: number;
  send(text: string): void;
  close(code: number, reason: string): void;
}

export class Peer {
  stage: Stage = 'hello';
  capabilities: readonly string[] = [];
  client: { name: string; version: string } | null = null;
  readonly connectedAt = Date.now();
  /** The accepted hello and the bridge's challenge nonce, kept until auth_response. */
  hello: HelloMessage | null = null;
  nonce: string | null = null;
  /** Invalid messages received so far; past the budget the connection is closed (1008). */
  badMessages = 0;

  constructor(
    readonly id: string,
    readonly role: Role,
    private readonly ws: PeerSocket,
    private readonly log: Logger,
    readonly remoteAddress: string = 'unknown',
    private readonly badMessageBudget: number = 20,
  ) {}

  get ready(): boolean {
    return this.stage === 'ready';
  }

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  /**
   * Sends a message after validating it; a message we built wrong is our bug, logged, never sent.
   * relayed: the message is one this bridge received and validated, relayed with only its id
   * changed, so it is not validated a second time (a large state costs real time to check).
   */
  send(message: ProtocolMessage, relayed = false): boolean {
    const checked = relayed ? { ok: true as const } : checkMessage(message, 'bridge');
    if (!checked.ok) {
      this.log.error('bridge built an invalid message; not sent', { peer: this.id, type: message.type, error: checked.error.message });
      return false;
    }
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Sends text that is already a validated message (raw-relay.ts); false when the socket is closed. */
  sendText(text: string): boolean {
    if (!this.open) return false;
    this.ws.send(text);
    return true;
  }

  sendError(error: ErrorInfo, inReplyTo: string | null): void {
    this.send({ type: 'error', in_reply_to: inReplyTo, error_info: error });
  }

  close(code: number, reason: string): void {
    // Close reasons are limited to 123 bytes by RFC 6455.
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason.slice(0, 120));
  }

  /** Counts one bad message; past the budget, says why and closes with 1008 (policy violation). */
  countBad(): void {
    this.badMessages += 1;
    if (this.badMessages <= this.badMessageBudget) return;
    this.sendError(
      errorInfo(
        'RATE_LIMITED',
        `More than ${this.badMessageBudget} invalid messages on this connection; closing it. Fix the client (each error above names the field), then reconnect.`,
        'bridge',
      ),
      null,
    );
    this.close(CLOSE.policy, 'too many invalid messages');
  }

  /**
   * Decodes an incoming frame. Returns the message when it is valid and this role may send it;
   * otherwise answers with a typed error (closing only on non-JSON) and returns null.
   */
  receive(data: string, onInvalid?: (error: ErrorInfo, inReplyTo: string | null) => void): ProtocolMessage | null {
    const decoded = decodeMessage(data, 'bridge');
    if (!decoded.ok) {
      this.sendError(decoded.error, decoded.inReplyTo);
      onInvalid?.(decoded.error, decoded.inReplyTo);
      if (decoded.notJson) this.close(CLOSE.unsupportedData, 'message is not JSON');
      else this.countBad();
      return null;
    }
    const message = decoded.value;
    if (!MESSAGE_SENDERS[message.type].includes(this.role)) {
      this.sendError(
        errorInfo(
          'UNAUTHORIZED',
          `A ${this.role} may not send "${message.type}" messages. See x-senders in schemas/v1/messages/${message.type}.json.`,
          'bridge',
        ),
        message.type,
      );
      this.countBad();
      return null;
    }
    return message;
  }
}
