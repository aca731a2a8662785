// The one shape of a failed action's answer: an action_result with no outcome and no state, only
// the error. The bridge (an action it refuses or loses), the agent client (an action it could not
// send) and the extension answer with it, so an agent reads every failure the same way whoever
// failed it (protocol: schemas/v1/messages/action_result.json).
import type { ActionResultMessage, ErrorInfo } from '../generated/protocol';

/** The fields every action_result starts with: which action it answers. */
export function resultBase(
  actionId: string,
  action: ActionResultMessage['action'],
): Pick<ActionResultMessage, 'type' | 'original_action_id' | 'action'> {
  return { type: 'action_result', original_action_id: actionId, action };
}

/** The answer to an action that did not happen (or whose outcome is unknown): status error, with why. */
export function errorResult(actionId: string, action: ActionResultMessage['action'], error: ErrorInfo): ActionResultMessage {
  return { ...resultBase(actionId, action), status: 'error', outcome_details: null, new_simplified_state: null, error_info: error };
}
