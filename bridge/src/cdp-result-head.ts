// An extension's successful cdp_result, read by its envelope alone: the bridge routes it by its id
// and tab and hands Chrome's result on as the text the worker wrote (raw-relay.ts, then the CDP
// endpoint's reply), so parsing the result only to drop the parsed copy cost a full JSON.parse per
// answer (a 10,000-element DOMSnapshot.captureSnapshot: 2 MB, 30-150 ms on a loaded machine, in the
// process that also writes every client's replies). The result is parsed only if something reads it.
//
// Why this keeps the boundary: what agents send is still parsed and validated in full on receive
// (peer.ts); this is the paired extension's answer (its socket passed the HMAC handshake), and the
// worker writes every success as JSON.stringify({type, original_command_id, tab_id, result})
// (cdp/cdp-command.ts), so the text is JSON by construction. Only that exact shape is read this way,
// every field of the envelope checked as the schema (schemas/v1/messages/cdp_result.json) checks it;
// anything else (an error, another key order, an id out of bounds) is decoded and validated in full.
import type { CdpResultMessage } from '../../schemas/generated/protocol';

// The id: a JSON string (JSON.parse below refuses raw control characters); the tab: a non-negative integer.
const HEAD =
  /^\{"type":"cdp_result","original_command_id":("(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"),"tab_id":(0|[1-9]\d{0,15}),"result":\{/;

/** The message read by its envelope, its result parsed on first read; null: decode it in full. */
export function cdpResultByHead(text: string): CdpResultMessage | null {
  if (!text.startsWith('{"type":"cdp_result",') || !text.endsWith('}}')) return null;
  const m = HEAD.exec(text.slice(0, 400));
  if (!m) return null;
  let id: string;
  try {
    id = JSON.parse(m[1] as string) as string;
  } catch {
    return null;
  }
  const tabId = Number(m[2]);
  if (id.length < 1 || id.length > 128 || !Number.isSafeInteger(tabId)) return null;
  const resultText = text.slice(m[0].length - 1, -1);
  let parsed: Record<string, unknown> | undefined;
  const message = { type: 'cdp_result', original_command_id: id, tab_id: tabId } as CdpResultMessage;
  Object.defineProperty(message, 'result', {
    enumerable: true,
    get: () => (parsed ??= JSON.parse(resultText) as Record<string, unknown>),
  });
  return message;
}
