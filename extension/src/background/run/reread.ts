// Reads on a page that navigates or reloads under them. A read (get_state, extract_content, get, is,
// get_dropdown_options, screenshot) changes nothing, so when the document it was reading goes away
// (the port closes, the frame is removed, the content script is not there yet, Chrome's capture of
// a page being replaced fails with "image readback failed"), it is run again on the new
// document within the action's time budget, and answers from the newest one. A page that never
// stays long enough to be read answers NAVIGATED_AWAY saying so, never a channel error.
import type { ActionResultMessage, ErrorCode } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { type Budget, sleep } from '../page-watch/budget';
import { TabWatch } from '../page-watch/tab-watch';
import type { ActionRun } from './action-run';

/** Pure reads: running one again has no effect on the page. */
export const READ_ONLY_ACTIONS = new Set<string>(['get_state', 'extract_content', 'get', 'is', 'get_dropdown_options', 'screenshot']);

/** What a read answers when its document went away under it (the channel closed, the frame was removed). */
const WENT_AWAY: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'COMMUNICATION_ERROR_WITH_TARGET',
  'OPERATION_FAILED_IN_TARGET',
  'NAVIGATED_AWAY',
]);

/** Below this much budget no new read is started: the answer is due. */
const LAST_TRY_MS = 250;
/** How long one new document may take to load before it is read anyway. */
const LOAD_CAP_MS = 2000;

export async function rereadWhileReloading(run: ActionRun, runOnce: () => Promise<ActionResultMessage>): Promise<ActionResultMessage> {
  const { budget } = run;
  if (!READ_ONLY_ACTIONS.has(run.name)) return runOnce();
  // An action that names no tab learns it from its first result (no tab lookup on the way of a read that works).
  let tabId = run.action.tab_id;
  let navigations = 0;
  for (;;) {
    const watch = tabId === undefined ? null : new TabWatch(tabId);
    try {
      const r = await runOnce();
      const code = r.error_info?.error_code;
      if (r.status === 'success' || code === undefined || !WENT_AWAY.has(code)) return r;
      tabId ??= r.tab_id ?? undefined;
      if (tabId === undefined) return r;
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      // Only a document that went away is read again; a page that stays and fails says so as before.
      const moved = watch?.navigationStarted === true;
      if (tab && !moved && tab.status !== 'loading') return r;
      if (tab) navigations++;
      // A closed tab has no answer; no new read is started when the budget is spent, before or after waiting for the new document.
      if (!tab || budget.remaining() < LAST_TRY_MS || !(await newDocument(watch, moved, budget)))
        return wentAway(run, r, { tabId, closed: !tab, navigations });
      run.again();
    } finally {
      watch?.stop();
    }
  }
}

/** Waits for the new document (its load, capped; a short pause when no navigation was seen).
 * false: too little budget is left to read it. */
async function newDocument(watch: TabWatch | null, moved: boolean, budget: Budget): Promise<boolean> {
  if (watch && moved) await watch.waitForNavigationEnd(budget.cap(LOAD_CAP_MS));
  else await sleep(budget.cap(50));
  return budget.remaining() >= LAST_TRY_MS;
}

/** The read's answer when its document went away for good: its tab closed, or the page never stayed long enough to be read. */
function wentAway(
  run: ActionRun,
  last: ActionResultMessage,
  { tabId, closed, navigations }: { tabId: number; closed: boolean; navigations: number },
): ActionResultMessage {
  const action = run.name;
  const elapsed = run.budget.elapsed();
  const [code, message, more]: [ErrorCode, string, Record<string, number>] = closed
    ? [
        'TAB_NOT_FOUND',
        `Tab ${tabId} was closed while "${action}" read it, so there is no answer. Use another tab (list_tabs, switch_tab) or open one (open_tab).`,
        {},
      ]
    : [
        'NAVIGATED_AWAY',
        `The page keeps reloading or navigating: it went away ${navigations} time${navigations === 1 ? '' : 's'} in ${elapsed} ms while "${action}" read it, never long enough to be read, so there is no answer. Wait for it to settle (wait, wait_for_navigation) and retry, or navigate elsewhere.`,
        { navigations, elapsed_ms: elapsed },
      ];
  return {
    ...last,
    status: 'error',
    outcome_details: null,
    new_simplified_state: null,
    error_info: errorInfo(code, message, 'background_script', { tab_id: tabId, action, ...more }),
  };
}
