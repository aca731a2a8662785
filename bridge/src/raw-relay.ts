// Relaying an extension's action_result to its agent without serializing it again, to move
// less. The bridge parses and validates every action_result once, on receive (the extension ->
// bridge boundary), and reads only its envelope (ids, tab, status); the agent gets the very bytes
// the extension sent, with the relay id swapped for the agent's own action id. A whole-page state
// of a 3,000-link article is ~1.5 MB of JSON: JSON.stringify of it again cost ~26 ms per step.
//
// Why forwarding the validated bytes is safe: the agent parses exactly the text the bridge parsed
// and validated (same bytes, same parse, including duplicate-key and escaping edge cases), so what
// the agent reads is what passed the check. The splice touches only the leading
// `{"type":"action_result","original_action_id":"<relay id>",` that the extension's worker always
// writes first (extension/src/background/run/action-run.ts builds every result from that base); anything else falls back to
// JSON.stringify of the parsed message.
import type { ActionResultMessage, ProtocolMessage } from '../../schemas/generated/protocol';

const rawText = new WeakMap<object, string>();

/** Keeps the received text of an action_result (extension peers only). */
export function rememberRaw(message: ProtocolMessage, text: string): void {
  if (message.type === 'action_result') rawText.set(message, text);
}

const head = (id: string) => `{"type":"action_result","original_action_id":${JSON.stringify(id)},`;

/** The text to send the agent: the received bytes with the agent's action id, or null (serialize instead). */
export function relayText(received: ActionResultMessage, agentActionId: string): string | null {
  const text = rawText.get(received);
  if (text === undefined) return null;
  const from = head(received.original_action_id);
  if (!text.startsWith(from)) return null;
  return head(agentActionId) + text.slice(from.length);
}
