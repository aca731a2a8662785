// The size rule itself lives in schemas/lib/message-limits.ts (the extension sends by it too); the
// Node-side helpers that measure and enforce it are here.
import type { WebSocket } from 'ws';

export {
  BRIDGE_FRAME_MAX_BYTES,
  CDP_MESSAGE_MAX_BYTES,
  CDP_READ_MAX_BYTES,
  CLOSE_TOO_BIG,
  ENVELOPE_HEADROOM_BYTES,
  MIB,
  mib,
} from '../../schemas/lib/message-limits';
import { CLOSE_TOO_BIG } from '../../schemas/lib/message-limits';

/** UTF-8 size of text, counted only when it could exceed `limit` (a UTF-16 unit is at most 3 bytes). */
export function exceeds(text: string, limit: number): number | null {
  if (text.length * 3 <= limit) return null;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > limit ? bytes : null;
}

/**
 * ws closes a connection whose frame is over its maxPayload with a bare 1009 (receiver.js calls
 * websocket.close(1009) without a reason), which a client shows as "connection closed". The reason
 * given here goes with that close instead, so the client reads which limit it hit.
 */
export function explainTooBig(ws: WebSocket, reason: string): void {
  const close = ws.close.bind(ws);
  ws.close = (code?: number, data?: string | Buffer) => close(code, code === CLOSE_TOO_BIG && data === undefined ? reason : data);
}
