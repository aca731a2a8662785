// Relaying an extension's answer (action_result, cdp_result) to its agent without serializing it
// again, to move less. The bridge parses and validates every answer once, on receive (the extension
// -> bridge boundary; a successful cdp_result by its envelope alone, its result left unparsed:
// cdp-result-head.ts), and reads only its envelope (ids, tab, status); the agent gets the very bytes
// the extension sent, with the relay id swapped for the agent's own id. A whole-page state of a
// 3,000-link article is ~1.5 MB of JSON: JSON.stringify of it again cost ~26 ms per step (a CDP
// client's DOM snapshots and screenshots are as large).
//
// Why forwarding the validated bytes is safe: the agent parses exactly the text the bridge parsed
// and validated (same bytes, same parse, including duplicate-key and escaping edge cases), so what
// the agent reads is what passed the check. The splice touches only the leading
// `{"type":"action_result","original_action_id":"<relay id>",` (or `{"type":"cdp_result",
// "original_command_id":"<relay id>",`) that the extension's worker always writes first (run/action-run.ts
// and cdp/cdp-command.ts build every answer from that base); anything else falls back to JSON.stringify
// of the parsed message.
import type { ActionResultMessage, CdpResultMessage, ProtocolMessage } from '../../schemas/generated/protocol';

/** An answer of the extension to one request of an agent. */
export type Answer = ActionResultMessage | CdpResultMessage;

const rawText = new WeakMap<object, string>();

/** Keeps the received text of an answer (extension peers only). */
export function rememberRaw(message: ProtocolMessage, text: string): void {
  if (message.type === 'action_result' || message.type === 'cdp_result') rawText.set(message, text);
}

const head = (answer: Answer, id: string) =>
  answer.type === 'action_result'
    ? `{"type":"action_result","original_action_id":${JSON.stringify(id)},`
    : `{"type":"cdp_result","original_command_id":${JSON.stringify(id)},`;

/** The id of the request an answer names. */
export const answeredId = (answer: Answer): string =>
  answer.type === 'action_result' ? answer.original_action_id : answer.original_command_id;

/** The text to send the agent: the received bytes with the agent's own id, or null (serialize instead). */
export function relayText(received: Answer, agentId: string): string | null {
  const text = rawText.get(received);
  if (text === undefined) return null;
  const from = head(received, answeredId(received));
  if (!text.startsWith(from)) return null;
  return head(received, agentId) + text.slice(from.length);
}
