// get_state's page walk started before the worker's own reads (the tab lookup, the person's scope
// and site policy), so those reads run beside the walk instead of before it: on a news page they
// were 1.5-3 ms of every state, paid before the page was even asked.
//
// Why walking before the verdict opens nothing: the walk only reads the page into the worker; its
// state is answered only after the same verdict as before (dispatch.ts refuseTab), and a refused
// walk is dropped unread. The page's activity is not drained until the verdict (dispatch.ts), and
// a state whose page moved to another URL while it was judged is judged again on that URL
// (judgedState), so the verdict always covers the page the state shows.
import type { ActionMessage, ErrorInfo, GetStateParams } from '../../../../schemas/generated/protocol';
import { policyError, withPersonDefaults } from '../policy/person-policy';
import { collectState, type StateOutcome } from '../state/collect';

export interface EarlyState {
  tabId: number;
  /** The walk's parameters: the agent's, with the person's defaults (redaction is done in the walk). */
  taken: GetStateParams;
  state: Promise<StateOutcome>;
}

/** What the walk is asked for: get_state's parameters without those the worker answers itself. */
export function walkParams(action: ActionMessage): GetStateParams {
  const params: GetStateParams = { ...(action.params as GetStateParams) };
  delete params.since;
  delete params.include_tabs;
  delete params.include_screenshot;
  delete params.watch;
  return params;
}

/** Starts the walk of `tabId` with the person's defaults applied. */
export async function startEarlyState(action: ActionMessage, tabId: number): Promise<EarlyState> {
  const taken = await withPersonDefaults(walkParams(action));
  const state = collectState(tabId, taken);
  // A refused or failed run drops the walk: its rejection must not surface as unhandled.
  state.catch(() => undefined);
  return { tabId, taken, state };
}

/** The refusal for a state whose page is not the URL the tab was judged on, or null when it may be answered. */
export async function judgedState(
  action: ActionMessage,
  judgedUrl: string | undefined,
  stateUrl: string,
  tabId: number,
): Promise<ErrorInfo | null> {
  if (judgedUrl === stateUrl) return null;
  return await policyError(action, stateUrl, tabId);
}
