// A DevTools command's result as the JSON text Chrome's answer carried, for a relay that hands it on
// (the CDP endpoint writes it into its reply to the client as is): parsing a 2 MB DOM snapshot and
// serializing it again cost about 35 ms per command, for bytes that do not change.
//
// Why the text is safe to reuse: it is the text this client parsed into the cdp_result it resolves
// with, the bridge checked those same bytes' envelope when the extension sent them (raw-relay.ts
// relays them with only the id changed; cdp-result-head.ts), and the cut is made only when the parsed message has exactly the four
// keys the worker writes (type, original_command_id, tab_id, result; cdp/cdp-command.ts) and the text
// starts with exactly those first three: what follows `"result":` up to the closing brace is then the
// result's own text. Any other shape (an error, a message built by the bridge) gives null.
import type { CdpResultMessage, ProtocolMessage } from '../../schemas/generated/protocol';

const texts = new WeakMap<object, string>();

/** Keeps the received text of a cdp_result that carries a result. */
export function keepResultText(message: ProtocolMessage, text: string): void {
  if (message.type === 'cdp_result' && message.result !== undefined) texts.set(message, text);
}

const KEYS = ['type', 'original_command_id', 'tab_id', 'result'];

/** The result's JSON text exactly as received, or null (serialize `result` instead). */
export function resultText(message: CdpResultMessage): string | null {
  const text = texts.get(message);
  if (text === undefined || message.result === undefined) return null;
  const keys = Object.keys(message);
  if (keys.length !== KEYS.length || keys.some((k, i) => k !== KEYS[i])) return null;
  const head = `{"type":"cdp_result","original_command_id":${JSON.stringify(message.original_command_id)},"tab_id":${message.tab_id},"result":`;
  if (!text.startsWith(head) || !text.endsWith('}')) return null;
  return text.slice(head.length, -1);
}
