// Every action_result from the extension is checked against the request it answers before an agent
// sees it. A peer holding the extension secret (a broken or outdated extension, or anything else that
// has it) could otherwise answer a click with a bare success, a result for another action, or a tab
// of another agent's session, and the bridge would relay it as if the click had happened.
import type { ActionMessage, ActionResultMessage, ErrorInfo } from '../../schemas/generated/protocol';
import { errorInfo } from '../../schemas/lib/wire';

/** Actions whose answer may name another tab than the one they were sent to (they pick or open one). */
const MAY_NAME_OTHER_TAB = new Set<string>(['open_tab', 'switch_tab', 'close_tab', 'open_tool', 'list_tabs', 'list_tools']);

/** Actions on the browser rather than a tab: no implicit hand-over of the active tab. open_tool/list_tools: seed 002. */
export const BROWSER_LEVEL: ReadonlySet<string> = new Set(['open_tab', 'list_tabs', 'open_tool', 'list_tools']);

/**
 * What is wrong with `result` as the answer to `sent` (the message as sent to the extension), or
 * null. foreign(tabId): the tab belongs to another agent session (the gateway knows; the link does not).
 */
export function answerMismatch(
  sent: ActionMessage,
  result: ActionResultMessage,
  foreign: (tabId: number) => boolean = () => false,
): string | null {
  if (result.action === undefined) return `it has no "action" field (asked "${sent.action}")`;
  if (result.action !== sent.action) return `it is a result for "${result.action}"`;
  if (result.status === 'success' && result.error_info !== null && result.error_info !== undefined)
    return 'it says success but carries an error';
  const named = namedTabs(sent, result);
  if (sent.tab_id !== undefined && !MAY_NAME_OTHER_TAB.has(sent.action)) {
    for (const [field, tabId] of named)
      if ((field === 'tab_id' || field === 'new_simplified_state.tab_id') && tabId !== sent.tab_id)
        return `its ${field} is ${tabId}, but the action was sent to tab ${sent.tab_id}`;
  }
  for (const [field, tabId] of named) {
    // A browser-wide action sent without a tab runs wherever the browser's active tab is and says so
    // in tab_id; that is no claim on the tab (the gateway leases nothing for it) and carries no page.
    if (field === 'tab_id' && sent.tab_id === undefined && BROWSER_LEVEL.has(sent.action)) continue;
    if (tabId !== sent.tab_id && foreign(tabId)) return `its ${field} is ${tabId}, a tab of another agent session`;
  }
  return null;
}

/**
 * close_tab answers with the tab now active in that window, and its page state. When that tab is
 * another agent session's, the closing agent gets the close (it happened) without that tab: neither
 * its id nor its page. Any other answer is returned as it is.
 */
export function closeAnswerForAgent(result: ActionResultMessage, foreign: (tabId: number) => boolean): ActionResultMessage {
  const active = result.tab_id ?? result.new_simplified_state?.tab_id;
  if (result.status !== 'success' || typeof active !== 'number' || !foreign(active)) return result;
  const closed = (result.outcome_details?.result as Record<string, unknown> | undefined)?.['closed_tab_id'];
  if (typeof closed !== 'number') return result; // not a close_tab answer: the checks refuse it
  const { tab_id: _tab, new_simplified_state: _state, state_delta: _delta, ...rest } = result;
  return {
    ...rest,
    outcome_details: {
      ...result.outcome_details,
      message: `Closed tab ${closed}.`,
      result: { closed_tab_id: closed, active_tab_id: null },
    },
  };
}

/** The typed failure an agent gets instead of a mismatching answer. */
export function mismatchError(action: string, why: string): ErrorInfo {
  return errorInfo(
    'EXTENSION_INTERNAL_ERROR',
    `The extension answered "${action}" with something that does not match the request (${why}), so it was not passed on as a success; whether the action took effect is unknown. Take a new state and retry; if it repeats, update or reload the extension.`,
    'bridge',
    { reason: 'answer_does_not_match_request', mismatch: why },
  );
}

/** The tab ids an answer names, with the field that names them. */
function namedTabs(sent: ActionMessage, result: ActionResultMessage): [string, number][] {
  const out: [string, number][] = [];
  if (result.tab_id !== undefined) out.push(['tab_id', result.tab_id]);
  const stateTab = result.new_simplified_state?.tab_id;
  if (typeof stateTab === 'number') out.push(['new_simplified_state.tab_id', stateTab]);
  const details = result.outcome_details as Record<string, unknown> | null | undefined;
  const popup = details?.['new_tab_id'];
  if (typeof popup === 'number') out.push(['outcome_details.new_tab_id', popup]);
  const own = details?.['result'];
  if (sent.action !== 'list_tabs' && typeof own === 'object' && own !== null) {
    const t = (own as Record<string, unknown>)['tab_id'];
    if (typeof t === 'number') out.push(['outcome_details.result.tab_id', t]);
  }
  return out;
}
