// Runs one `action` message and produces its `action_result`: the action runs in the page (or in
// the worker for tab-level actions), then the worker collects the tab's state after it.
import type { ActionMessage, ActionResultMessage, ErrorInfo, GetStateParams, SimplifiedState } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/errors';
import { CONTENT_CHANNEL } from '../shared/internal-messages';
import { sendToContent } from './content-channel';
import { collectState } from './state';
import { isRestrictedUrl, resolveTab, waitForTabComplete } from './tabs';

const NAVIGATION_CAP_MS = 10_000;

export async function runAction(action: ActionMessage): Promise<ActionResultMessage> {
  const base = { type: 'action_result' as const, original_action_id: action.action_id, action: action.action };
  const fail = (error: ErrorInfo, state: SimplifiedState | null = null, tabId?: number): ActionResultMessage => ({
    ...base,
    ...(tabId === undefined ? {} : { tab_id: tabId }),
    status: 'error',
    outcome_details: null,
    new_simplified_state: state,
    error_info: error,
  });
  const stateOrNull = async (tabId: number, params?: GetStateParams) => {
    const s = await collectState(tabId, params);
    return s.ok ? s.state : null;
  };
  try {
    const resolved = await resolveTab(action.tab_id);
    if (!resolved.ok) return fail(resolved.error);
    const tab = resolved.tab;
    if (isRestrictedUrl(tab.url)) {
      return fail(errorInfo('RESTRICTED_PAGE', `Tab ${tab.id} shows ${tab.url}, a page Chrome does not let extensions script. Navigate the tab to a web page or use another tab.`, 'background_script', { tab_id: tab.id, current_url: tab.url }), null, tab.id);
    }
    if (action.action === 'get_state') {
      const s = await collectState(tab.id, action.params as GetStateParams);
      if (!s.ok) return fail(s.error, null, tab.id);
      return { ...base, tab_id: tab.id, status: 'success', outcome_details: { message: 'State taken.', navigation_occurred: false, result: {} }, new_simplified_state: s.state, error_info: null };
    }
    const sent = await sendToContent(tab.id, { channel: CONTENT_CHANNEL, kind: 'run_action', action: action.action, params: action.params });
    if (!sent.ok) {
      if (!sent.portClosed) return fail(sent.error, await stateOrNull(tab.id), tab.id);
      // The page unloaded mid-action: the action caused a navigation. Report it with the new page's state.
      await waitForTabComplete(tab.id, NAVIGATION_CAP_MS);
      const state = await stateOrNull(tab.id);
      return { ...base, tab_id: tab.id, status: 'success', outcome_details: { message: `"${action.action}" caused a navigation${state ? ` to ${state.url}` : ''}.`, navigation_occurred: true, result: {} }, new_simplified_state: state, error_info: null };
    }
    const r = sent.response;
    if (!r.ok) return fail(r.error, await stateOrNull(tab.id), tab.id);
    return { ...base, tab_id: tab.id, status: 'success', outcome_details: { message: r.message, navigation_occurred: false, result: r.result }, new_simplified_state: await stateOrNull(tab.id), error_info: null };
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return fail(errorInfo('EXTENSION_INTERNAL_ERROR', `The extension failed while running "${action.action}": ${why}. Retry; report the bug if it repeats.`, 'background_script'));
  }
}
