// Runs one `action` message and produces its `action_result`.
//   - worker-side actions (navigate, tabs, screenshot, waits, evaluate: actions/registry.ts) run here;
//   - get_state collects the tab's state (or a delta since an earlier one) with the page's activity;
//   - page-side actions go to the content script of the frame that owns the target (page-action.ts,
//     route.ts), with the settle rule around them (after-action.ts).
// Each action gets one ActionRun (action-run.ts) that every step takes, and that builds the result.
import type { ActionMessage, ActionResultMessage, GetStateParams, OutcomeDetails } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { isLocalUrl } from '../../shared/local-files';
import { SETTLE_CHANNEL } from '../../shared/settle-messages';
import { listTabs } from '../actions/list_tabs';
import { WORKER_HANDLERS } from '../actions/registry';
import { stateExtras } from '../actions/state-extras';
import type { Tab, WorkerHandler } from '../actions/types';
import { Budget } from '../page-watch/budget';
import { clickNeedsGesture } from '../page-watch/download-gesture';
import { resolveSettle, SETTLE_OPTIONS_KEY, settleSend, takeDeferred } from '../page-watch/settle-rule';
import { hasDomainPolicy, policyError } from '../policy/person-policy';
import { resolveTab } from '../policy/tabs';
import { classicUploadRefusal } from '../policy/upload-policy';
import { answerState } from '../state/state-cache';
import { ActionRun, ms, now } from './action-run';
import { readActionSettings, TRUSTED_INPUT_KEY } from './action-settings';
import { activityFields, mergeDrained, NOTHING_DRAINED } from './activity';
import { setChangeWatch } from './change-push';
import { type EarlyState, judgedState, startEarlyState } from './early-state';
import { runPageAction } from './page-action';
import { rereadWhileReloading } from './reread';
import { resultState } from './result-state';
import { checkedTab, refuseTab } from './tab-gate';

export async function runAction(action: ActionMessage): Promise<ActionResultMessage> {
  const run = await startRun(action);
  // Reads have no side effects: one the page's navigation cut short is run again on the new document.
  return run.answer(await rereadWhileReloading(run, () => runActionOnce(run)));
}

/** The one run of an action, made at its arrival: its budget, the settle rule and input mode it runs with. */
async function startRun(action: ActionMessage): Promise<ActionRun> {
  const started = now();
  const settings = await readActionSettings();
  return new ActionRun(action, {
    budget: new Budget(action.timeout_ms),
    started,
    settle: resolveSettle(settings[SETTLE_OPTIONS_KEY], action.settle),
    trusted:
      (action.params as { trusted?: unknown } | undefined)?.trusted === true ||
      settings[TRUSTED_INPUT_KEY] === true ||
      (await clickNeedsGesture(action.action, action.tab_id, action.params)),
    readState: resultState,
  });
}

async function runActionOnce(run: ActionRun): Promise<ActionResultMessage> {
  try {
    return await runOnTab(run);
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return run.fail(
      errorInfo(
        'EXTENSION_INTERNAL_ERROR',
        `The extension failed while running "${run.name}": ${why}. Retry; report the bug if it repeats.`,
        'background_script',
      ),
    );
  }
}

async function runOnTab(run: ActionRun): Promise<ActionResultMessage> {
  const { action, settle, trusted } = run;
  const worker = WORKER_HANDLERS[action.action];
  // The hot path (a page action on a given tab, no settling, synthetic input, no domain lists):
  // the tab lookup (chrome.tabs.get, ~0.2 ms in the worker) runs while the page acts, and its
  // verdict is awaited before anything is answered. Nothing can run before it says no: a closed
  // tab and a restricted page (chrome://, the Web Store) have no content script to act.
  const tabId = action.tab_id;
  const upload = await classicUploadRefusal(action);
  if (upload) return run.fail(upload, null, tabId);
  if (!worker && action.action !== 'get_state' && tabId !== undefined && !settle.enabled && !trusted && !(await hasDomainPolicy())) {
    return await runPageAction(run, { id: tabId, check: () => checkedTab(resolveTab(tabId)) });
  }
  // get_state on a named tab: the page's walk starts at once and the tab lookup and the person's
  // policy are judged beside it (early-state.ts says why nothing of a refused walk leaves the worker).
  const early = action.action === 'get_state' && tabId !== undefined ? await startEarlyState(action, tabId) : null;
  const resolved = await resolveTab(action.tab_id);
  if (!resolved.ok) return run.fail(resolved.error);
  const tab = resolved.tab;
  const refused = await refuseTab(run, tab);
  if (refused) return refused;
  run.tab = tab;
  if (action.action === 'get_state') return await runGetState(run, tab, early);
  if (worker) return await runWorkerAction(run, worker, tab);
  return await runPageAction(run, { id: tab.id, check: () => Promise.resolve({ ok: true, tab }) });
}

/** A worker-side action (actions/registry.ts), then the state of the tab it names. */
async function runWorkerAction(run: ActionRun, worker: WorkerHandler, tab: Tab): Promise<ActionResultMessage> {
  const { action, budget, settle, timings } = run;
  const out = await worker({ tab, budget, settle }, action.params as never);
  // A local page's frames are judged again after reading (extract_content, screenshot): one may have been added meanwhile.
  const after = isLocalUrl(tab.url) ? await policyError(action, tab.url, tab.id) : null;
  if (after) return run.fail(after, null, tab.id);
  const stateTab = out.stateTabId === undefined ? tab.id : out.stateTabId;
  const t0 = now();
  const state = await run.stateOrNull(stateTab);
  timings.action = ms(t0 - run.started - (out.ok ? (out.navigation_ms ?? 0) : 0));
  timings.state = ms(now() - t0);
  run.stamp();
  if (!out.ok) return run.fail(out.error, state, stateTab ?? tab.id);
  if (out.navigation_ms !== undefined) timings.navigation = out.navigation_ms;
  const details: OutcomeDetails = {
    message: out.message,
    navigation_occurred: out.navigation_occurred ?? false,
    result: out.result as OutcomeDetails['result'],
    timings_ms: timings,
  };
  if (out.new_tab_id !== undefined) details.new_tab_id = out.new_tab_id;
  if (out.settled !== undefined) details.settled = out.settled;
  if (out.download) details.download = out.download; // a navigation Chrome turned into a download (navigation.ts)
  return run.success(details, state, stateTab ?? tab.id);
}

/** get_state: the tab's state (or a delta since a given one), with the page's activity since the last result. */
async function runGetState(run: ActionRun, tab: Tab, early: EarlyState | null): Promise<ActionResultMessage> {
  const { action, budget, settle } = run;
  const { since, include_tabs, include_screenshot, watch, ...stateParams } = action.params as GetStateParams;
  const { taken, state } = early?.tabId === tab.id ? early : await startEarlyState(action, tab.id);
  // The tab list (a browser_use step asks for it with every state) is read beside the walk too.
  const tabs = include_tabs === true ? listTabs({ tab, budget, settle }) : undefined;
  tabs?.catch(() => undefined);
  // The page's activity is drained only once the tab is judged (a refused read must not take it from the next one).
  const [s, drained] = await Promise.all([state, settleSend(tab.id, 0, { channel: SETTLE_CHANNEL, kind: 'drain' }, 500)]);
  if (!s.ok) return run.fail(s.error, null, tab.id);
  const moved = await judgedState(action, tab.url, s.state.url, tab.id);
  if (moved) return run.fail(moved, null, tab.id);
  // A local page's frames are judged again after the collection: one may have been added meanwhile.
  const after = isLocalUrl(tab.url) ? await policyError(action, tab.url, tab.id) : null;
  if (after) return run.fail(after, null, tab.id);
  // Subscribed (or re-armed for this document) only once the page was read and judged in scope.
  if (watch !== undefined) await setChangeWatch(tab.id, watch, taken);
  // The tab list and a screenshot of this very state, so a browser_use step is one round trip.
  const result = await stateExtras({ tab, budget, settle }, { ...stateParams, include_tabs, include_screenshot }, tabs);
  const details: OutcomeDetails = { message: 'State taken.', navigation_occurred: false, result };
  const left = takeDeferred(tab.id);
  const all = left ? mergeDrained(left.drained, drained?.drained ?? NOTHING_DRAINED) : drained?.drained;
  if (all) Object.assign(details, activityFields(all));
  if (left?.notice) details.no_change_notice = left.notice;
  // since: only what changed; a full state with delta_unavailable when no delta can be given.
  const answer = answerState(tab.id, s.state, since);
  return run.success(details, 'delta' in answer ? answer : answer.state, tab.id);
}
