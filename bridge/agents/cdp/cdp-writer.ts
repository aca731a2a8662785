// The one way out to a CDP client: answers, errors and events, written as Chrome writes them (sessionId
// only when the message belongs to a child session). Every piece of the relay is handed this writer
// and none reaches the socket itself, so "nothing after dispose" and "a refused send is logged, never
// thrown" hold in one place. Event params can be serialized once for every session that gets them.
import type { Logger } from '../../common/log';
import type { CdpCommand, CdpError, Params } from './cdp-protocol';

export interface CdpSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export class CdpWriter {
  private closed = false;

  constructor(
    private readonly socket: CdpSocket,
    private readonly log: Logger,
  ) {}

  /** After this nothing more reaches the client (the connection is being torn down). */
  close(): void {
    this.closed = true;
  }

  reply(c: CdpCommand, result: object): void {
    this.write(
      c.sessionId === undefined ? JSON.stringify({ id: c.id, result }) : JSON.stringify({ id: c.id, result, sessionId: c.sessionId }),
    );
  }

  /** A result already serialized (Chrome's own text, passed through: tab-channel.ts TabAnswer.json). */
  replyJson(c: CdpCommand, resultJson: string): void {
    const head = `{"id":${c.id},"result":${resultJson}`;
    this.write(c.sessionId === undefined ? `${head}}` : `${head},"sessionId":${JSON.stringify(c.sessionId)}}`);
  }

  fail(id: number, sessionId: string | undefined, error: CdpError): void {
    this.write(sessionId === undefined ? JSON.stringify({ id, error }) : JSON.stringify({ id, error, sessionId }));
  }

  event(sessionId: string | undefined, method: string, params: Params | object): void {
    this.eventJson(sessionId, method, JSON.stringify(params));
  }

  /** params already serialized (once for every session that gets the event). */
  eventJson(sessionId: string | undefined, method: string, paramsJson: string): void {
    const head = `{"method":${JSON.stringify(method)},"params":${paramsJson}`;
    this.write(sessionId === undefined ? `${head}}` : `${head},"sessionId":${JSON.stringify(sessionId)}}`);
  }

  private write(text: string): void {
    if (this.closed) return;
    try {
      this.socket.send(text);
    } catch (e) {
      this.log.debug('cdp: the client socket refused a message', { error: e instanceof Error ? e.message : String(e) });
    }
  }
}
