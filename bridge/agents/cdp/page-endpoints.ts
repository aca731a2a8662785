// The page WebSockets /json/list hands out (…/devtools/page/<targetId>), as Chrome serves them: a
// client attaches to one page directly (chrome-remote-interface, a raw WebSocket) and its commands
// without sessionId are that page's, answered with that page's events. A tab is attached to
// chrome.debugger once, by the agent session of the connection that holds it, so a page WebSocket
// cannot be a session of its own: it becomes one more page session in that connection's browser
// model, whose answers and events the writer diverts to the page's socket (cdp-writer.ts). When the
// target goes away (closed, released, the person's Stop), the page socket gets Inspector.detached and
// closes, as Chrome's does.
import type { Logger } from '../../common/log';
import type { BrowserModel } from './browser-model';
import { NO_SESSION, parseCommand, SERVER_ERROR } from './cdp-protocol';
import { mintId, type PageSession } from './cdp-sessions';
import type { CdpSocket } from './cdp-writer';
import { CdpPageSession } from './page-session';

/** A page WebSocket's side of the emulator: the client's messages in, and the end. */
export interface PageEndpoint {
  handle(text: string): void;
  close(): void;
}

/** Chrome's close of a page WebSocket whose target went away (the reason after Inspector.detached). */
const TARGET_CLOSED = 'target closed';

export class PageEndpoints {
  private readonly open = new Set<{ session: PageSession; socket: CdpSocket }>();

  constructor(
    private readonly model: BrowserModel,
    private readonly log: Logger,
  ) {}

  /** A page socket on a target this connection holds; null when it holds no such page (any more). */
  attach(targetId: string, socket: CdpSocket): PageEndpoint | null {
    const { model } = this;
    const tab = model.sessions.liveTabs().find((t) => t.targetId === targetId);
    if (!tab || model.ended !== null) return null;
    const id = mintId();
    // Its own id as parent: nothing is announced to the browser socket, and the detach at the target's
    // end is written to this session, which the writer turns into Inspector.detached here.
    const session = new CdpPageSession(model, id, tab, id);
    const entry = { session, socket };
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.open.delete(entry);
      model.out.divert(id, null);
      model.sessions.removeSession(id);
    };
    model.out.divert(id, {
      write: (text) => socket.send(text),
      detached: () => {
        close();
        socket.send(JSON.stringify({ method: 'Inspector.detached', params: { reason: 'target_closed' } }));
        socket.close(1000, TARGET_CLOSED);
      },
    });
    model.sessions.addSession(session);
    this.open.add(entry);
    this.log.debug('cdp: a page WebSocket attached', { target: targetId });
    return {
      handle: (text) => {
        if (closed) return;
        const c = parseCommand(text);
        const fail = (e: { code: number; message: string }) => socket.send(JSON.stringify({ id: c.id, error: e }));
        if ('malformed' in c) return fail(c.error);
        if (model.ended !== null) return fail({ code: SERVER_ERROR, message: model.ended });
        // Flat child sessions (frames, workers) are the browser endpoint's: this socket has the page only.
        if (c.sessionId !== undefined) return fail(NO_SESSION);
        if (c.method === 'Target.setAutoAttach' && c.params['autoAttach'] === true)
          return fail({
            code: SERVER_ERROR,
            message:
              "A page WebSocket of this endpoint does not attach the page's frames and workers; connect to the browser endpoint " +
              '(webSocketDebuggerUrl of /json/version) and auto-attach there.',
          });
        session.handle({ ...c, sessionId: id });
      },
      close,
    };
  }

  /** The connection ends: every page socket on it is told and closed. */
  closeAll(reason: string): void {
    for (const { session, socket } of [...this.open]) {
      this.model.out.divert(session.id, null);
      this.model.sessions.removeSession(session.id);
      socket.close(1001, reason);
    }
    this.open.clear();
  }
}
