// A CDP client's messages into its emulator: the ones that arrive while start() runs (it may hand
// the person's tab over first) wait and are delivered in order after it; a message over the size
// limit is answered here and never relayed (the bridge's frames could not carry it); a throw in the
// emulator is logged and the connection carries on. A start() that fails closes the socket (1011).
import { type RawData, WebSocket } from 'ws';

import { cdpTraceMark } from '../../common/cdp-trace';
import type { Logger } from '../../common/log';
import { type CdpEmulator, type CdpSocket, closeReason, type Connection, noteVersionCommand } from './cdp-connection';
import { oversizeAnswer, rawBuffer } from './message-size';

export function pumpClient(o: { conn: Connection; ws: WebSocket; socket: CdpSocket; emulator: CdpEmulator; log: Logger }): void {
  const { conn, ws, socket, emulator, log } = o;
  let queue: string[] | null = [];
  const deliver = (text: string) => {
    if (text.includes('Browser.getVersion')) noteVersionCommand(conn, text);
    try {
      emulator.handle(text);
    } catch (e) {
      log.error('cdp: the emulator failed on a message', { name: conn.name, error: e instanceof Error ? e.message : String(e) });
    }
  };
  ws.on('message', (data: RawData) => {
    cdpTraceMark('b_client_in');
    const buf = rawBuffer(data);
    const refused = oversizeAnswer(buf);
    if (refused !== null) {
      log.warn('cdp: a message over the size limit was answered with an error', { name: conn.name, bytes: buf.length });
      return socket.send(refused);
    }
    const text = buf.toString('utf8');
    if (queue) queue.push(text);
    else deliver(text);
  });
  emulator.start().then(
    () => {
      const waiting = queue ?? [];
      queue = null;
      for (const text of waiting) deliver(text);
    },
    (e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      log.warn('cdp: the DevTools emulation could not start', { name: conn.name, error: why });
      queue = null;
      if (ws.readyState === WebSocket.OPEN) ws.close(1011, closeReason(why));
    },
  );
}
