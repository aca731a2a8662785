// The page's activity a result reports (API calls, dialogs), drained from the content script's log
// (shared/settle-messages.ts) and merged across the drains of one action.
import type { OutcomeDetails } from '../../../../schemas/generated/protocol';
import type { Drained } from '../../shared/settle-messages';

export const NOTHING_DRAINED: Drained = { api_activity: [], dialogs: [], dialog_count: 0, pending: [] };

/** a then b; the newest 50 API calls; pending as b (the later drain) saw it. */
export function mergeDrained(a: Drained | undefined, b: Drained): Drained {
  if (!a) return b;
  return {
    api_activity: [...a.api_activity, ...b.api_activity].slice(-50),
    dialogs: [...a.dialogs, ...b.dialogs],
    dialog_count: a.dialog_count + b.dialog_count,
    pending: b.pending,
    ...(a.download_requests || b.download_requests
      ? { download_requests: [...(a.download_requests ?? []), ...(b.download_requests ?? [])].slice(-10) }
      : {}),
  };
}

/** The outcome_details fields for drained activity: the API calls, and the last dialog with its count. */
export function activityFields(d: Drained): Pick<OutcomeDetails, 'api_activity' | 'dialog'> {
  const out: Pick<OutcomeDetails, 'api_activity' | 'dialog'> = {};
  if (d.api_activity.length) out.api_activity = d.api_activity;
  const last = d.dialogs[d.dialogs.length - 1];
  if (last) out.dialog = d.dialog_count > 1 ? { ...last, count: d.dialog_count } : last;
  return out;
}
