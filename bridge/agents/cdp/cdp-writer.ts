// The one way out to a CDP client: answers, errors and events, written as Chrome writes them (sessionId
// only when the message belongs to a child session). Every piece of the relay is handed this writer
// and none reaches the socket itself, so "nothing after dispose" and "a refused send is logged, never
// thrown" hold in one place. Event params can be serialized once for every session that gets them.
import { cdpTraceMark } from '../../common/cdp-trace';
import type { Logger } from '../../common/log';
import type { CdpCommand, CdpError, Params } from './cdp-protocol';

export interface CdpSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** Where a session's messages go instead of this writer's socket: a page WebSocket of /json/list (page-endpoints.ts). */
export interface DivertedSession {
  /** The message, without sessionId: the page WebSocket's own session. */
  write(text: string): void;
  /** The session was detached (its target gone): the page WebSocket is told and closes. */
  detached(): void;
}

export class CdpWriter {
  private closed = false;
  private readonly diverted = new Map<string, DivertedSession>();

  constructor(
    private readonly socket: CdpSocket,
    private readonly log: Logger,
  ) {}

  /** After this nothing more reaches the client (the connection is being torn down). */
  close(): void {
    this.closed = true;
  }

  /** From now on `sessionId`'s answers and events go to `to` (null: back to this socket). */
  divert(sessionId: string, to: DivertedSession | null): void {
    if (to) this.diverted.set(sessionId, to);
    else this.diverted.delete(sessionId);
  }

  reply(c: CdpCommand, result: object): void {
    const d = this.divertedOf(c.sessionId);
    if (d) return d.write(JSON.stringify({ id: c.id, result }));
    this.write(
      c.sessionId === undefined ? JSON.stringify({ id: c.id, result }) : JSON.stringify({ id: c.id, result, sessionId: c.sessionId }),
    );
  }

  /** A result already serialized (Chrome's own text, passed through: tab-channel.ts TabAnswer.json). */
  replyJson(c: CdpCommand, resultJson: string): void {
    const head = `{"id":${c.id},"result":${resultJson}`;
    const d = this.divertedOf(c.sessionId);
    if (d) return d.write(`${head}}`);
    this.write(c.sessionId === undefined ? `${head}}` : `${head},"sessionId":${JSON.stringify(c.sessionId)}}`);
  }

  fail(id: number, sessionId: string | undefined, error: CdpError): void {
    const d = this.divertedOf(sessionId);
    if (d) return d.write(JSON.stringify({ id, error }));
    this.write(sessionId === undefined ? JSON.stringify({ id, error }) : JSON.stringify({ id, error, sessionId }));
  }

  event(sessionId: string | undefined, method: string, params: Params | object): void {
    this.eventJson(sessionId, method, JSON.stringify(params));
  }

  /** params already serialized (once for every session that gets the event). */
  eventJson(sessionId: string | undefined, method: string, paramsJson: string): void {
    const head = `{"method":${JSON.stringify(method)},"params":${paramsJson}`;
    const d = this.divertedOf(sessionId);
    if (d) return method === 'Target.detachedFromTarget' ? d.detached() : d.write(`${head}}`);
    this.write(sessionId === undefined ? `${head}}` : `${head},"sessionId":${JSON.stringify(sessionId)}}`);
  }

  private divertedOf(sessionId: string | undefined): DivertedSession | undefined {
    return sessionId === undefined || this.diverted.size === 0 || this.closed ? undefined : this.diverted.get(sessionId);
  }

  private write(text: string): void {
    if (this.closed) return;
    try {
      this.socket.send(text);
      cdpTraceMark('b_client_out');
    } catch (e) {
      this.log.debug('cdp: the client socket refused a message', { error: e instanceof Error ? e.message : String(e) });
    }
  }
}
