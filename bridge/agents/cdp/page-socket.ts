// A page WebSocket (…/devtools/page/<targetId> from /json/list) on a page another connection of the
// same URL holds: no agent session of its own (the tab has one debugger attachment, that connection's),
// so the socket is handed to that connection's emulator (page-endpoints.ts). This file is only the
// socket's side: size limits as on every CDP socket, and the end of either side ending the other.
import { type RawData, WebSocket } from 'ws';

import type { Logger } from '../../common/log';
import { explainTooBig } from '../../common/message-limits';
import { type CdpEmulator, type CdpSocket, closeReason } from './cdp-connection';
import { oversizeAnswer, rawBuffer, TOO_BIG_TO_READ } from './message-size';

/** Serves `ws` as the page `targetId` of `holder`; closes it (1011) when the page went away meanwhile. */
export function servePageSocket(ws: WebSocket, holder: CdpEmulator, targetId: string, log: Logger): void {
  explainTooBig(ws, TOO_BIG_TO_READ);
  const socket: CdpSocket = {
    send: (text) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    },
    close: (code, reason) => ws.close(code, closeReason(reason)),
  };
  const page = holder.openPage?.(targetId, socket) ?? null;
  if (!page) return ws.close(1011, closeReason(`No target with given id ${targetId} found (it closed meanwhile).`));
  ws.on('error', (err) => log.warn('cdp page connection error', { error: err.message }));
  ws.on('close', () => page.close());
  ws.on('message', (data: RawData) => {
    const buf = rawBuffer(data);
    const refused = oversizeAnswer(buf);
    if (refused !== null) return socket.send(refused);
    try {
      page.handle(buf.toString('utf8'));
    } catch (e) {
      log.error('cdp: the page endpoint failed on a message', { error: e instanceof Error ? e.message : String(e) });
    }
  });
}
