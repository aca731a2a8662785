// The agent's side of the bridge -> agent hop: one validation per trust boundary.
//
// Where the checks are, and why:
// - agent -> bridge: the bridge validates every message an agent sends (agents are untrusted input).
// - extension -> bridge: the bridge validates every message the extension sends, action_results
//   with their whole state included, before any agent sees it: it is the one boundary every agent
//   relies on (the Python shim, MCP clients and third-party clients included), and it reads the
//   envelope (ids, tab, status) for leases. It then forwards those validated bytes (raw-relay.ts).
// - bridge -> this client: the client has authenticated the bridge (its HMAC proof of the agent
//   secret, checked before anything else), and the bytes it receives are the ones the bridge
//   validated. So every message is still validated here except the page state inside an
//   action_result, which gets a structural check only: validating a 1.5 MB whole-page state a
//   second time cost ~22-29 ms per step. BROWSER_USE_EXT_CLIENT_FULL_VALIDATION=1 restores the full
//   check (for a client talking to a bridge it does not trust to validate).
import type { SimplifiedState } from '../../schemas/generated/protocol';
import { errorInfo } from '../../schemas/lib/errors';
import { checkMessage, decodeMessage } from '../../schemas/lib/wire';

const FULL = process.env['BROWSER_USE_EXT_CLIENT_FULL_VALIDATION'] === '1';

type Decoded = ReturnType<typeof decodeMessage>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function decodeFromBridge(text: string): Decoded {
  if (FULL) return decodeMessage(text, 'client');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return decodeMessage(text, 'client'); // the typed not-JSON error
  }
  if (!isObject(value) || value['type'] !== 'action_result' || !isObject(value['new_simplified_state']))
    return checkMessage(value, 'client');
  const state = value['new_simplified_state'];
  const checked = checkMessage({ ...value, new_simplified_state: null }, 'client');
  if (!checked.ok) return checked;
  if (!Array.isArray(state['actionable_elements']) || typeof state['url'] !== 'string') {
    const id = typeof value['original_action_id'] === 'string' ? value['original_action_id'] : null;
    return {
      ok: false,
      inReplyTo: id,
      error: errorInfo(
        'INVALID_MESSAGE',
        'Invalid action_result message: new_simplified_state lacks url or actionable_elements. The bridge should have refused it: update the bridge.',
        'client',
        { instance_path: '/new_simplified_state' },
      ),
    };
  }
  const envelope = checked.value;
  if (envelope.type !== 'action_result') return checked;
  // Checked by the bridge (see above); structurally checked here.
  return { ok: true, value: { ...envelope, new_simplified_state: state as unknown as SimplifiedState } };
}
