// Runs one `action` message and produces its `action_result`.
//   - worker-side actions (navigate, tabs, screenshot, waits, evaluate: actions/registry.ts) run here;
//   - page-side actions go to the content script of the frame that owns the target: "f<frameId>e<N>"
//     element ids name their frame, index targets (1-based, across frames) go through the tab's last
//     index map, role/selector targets are searched in the top frame;
//   - around a page-side action the settle rule runs (settle-rule.ts), then the worker collects the
//     tab's new state. outcome_details carries what happened (navigation, settling, new tab, page
//     activity).
import type {
  ActionMessage,
  ActionResultMessage,
  ErrorInfo,
  GetStateParams,
  OutcomeDetails,
  SimplifiedState,
} from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { STORAGE_KEYS } from '../../shared/config';
import { formatElementId, parseElementId } from '../../shared/element-ref';
import type { FrameSnapshot } from '../../shared/frame-snapshot';
import { CONTENT_CHANNEL } from '../../shared/internal-messages';
import { isLocalUrl } from '../../shared/local-files';
import type { Drained, SettleReport } from '../../shared/settle-messages';
import { TAB_LEVEL, WORKER_HANDLERS } from '../actions/registry';
import type { Tab } from '../actions/types';
import { isExtensionPage } from '../agent-scope';
import { Budget, withTimeout } from '../budget';
import { sendToContent } from '../content-channel';
import { blockedDownload, type DownloadRecord, downloadSentence, DownloadWatch, repeatedDownloadBlocked, targetsLink } from '../downloads';
import { boxInTopViewport } from '../frame-box';
import {
  blockedLocalFrame,
  hasDomainPolicy,
  localFileBlocked,
  localTabError,
  policyError,
  scopeNow,
  tabScopeError,
  withPersonDefaults,
} from '../person-policy';
import {
  ANSWER_REQUIRED,
  EXPECTS_CHANGE,
  lostAnswer,
  noChangeNotice,
  type ResolvedSettle,
  resolveSettle,
  SETTLE_OPTIONS_KEY,
  settleSend,
  takeDeferred,
  waitParams,
  watchInBackground,
} from '../settle-rule';
import { collectState, elementIdForIndex, frameOffset } from '../state';
import { answerState, latestState, rememberState, withStateDelta } from '../state-cache';
import { stateExtras } from '../state-extras';
import { type NavigationEnd, TabWatch } from '../tab-watch';
import { isRestrictedUrl, resolveTab } from '../tabs';
import { performTrustedInput, TrustedInputRefused, type TrustedPlan, trustedPlan, withCurrentViewport } from '../trusted-input';
import { classicUploadRefusal } from '../upload-policy';
import { allInBefore, inputCutError, inputDone, notActedError, POINTER_ACTIONS, TYPING_ACTIONS } from './interrupted-input';
import { rereadWhileReloading } from './reread';

const WS = 'background_script' as const;
/** chrome.storage.local key: true = pointer/keyboard actions use chrome.debugger Input.* (trusted events). */
export const TRUSTED_INPUT_KEY = STORAGE_KEYS.trustedInput;

/** The person's action settings, cached (one storage read per worker life, refreshed on change). */
let settingsCache: Promise<Record<string, unknown>> | null = null;
const readSettings = () => (settingsCache ??= chrome.storage.local.get([TRUSTED_INPUT_KEY, SETTLE_OPTIONS_KEY]));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && (TRUSTED_INPUT_KEY in changes || SETTLE_OPTIONS_KEY in changes)) settingsCache = null;
});

/** How long a download may take to appear after the navigation it replaced was aborted. */
const DOWNLOAD_AFTER_ABORT_MS = 1000;
/** How long a click on a link that did not navigate waits for a download to appear. */
const DOWNLOAD_AFTER_LINK_MS = 300;
const CLICKS = new Set<string>(['click', 'double_click']);

type Timings = NonNullable<OutcomeDetails['timings_ms']>;

const now = () => performance.now();
/** Durations on the wire: ms with 0.01 resolution. */
// Durations are never negative; phases measured inside handlers are rounded, so clamp at 0.
const ms = (d: number) => Math.max(0, Math.round(d * 100) / 100);
/** total, and the wall-clock receive/send stamps a caller uses to split its round trip into hops. */
const stamps = (started: number): Pick<Timings, 'total' | 'received_at' | 'sent_at'> => {
  const end = now();
  return { total: ms(end - started), received_at: ms(performance.timeOrigin + started), sent_at: ms(performance.timeOrigin + end) };
};

export async function runAction(action: ActionMessage): Promise<ActionResultMessage> {
  // Reads have no side effects: one the page's navigation cut short is run again on the new document.
  const result = await rereadWhileReloading(action, (budget) => runActionOnce(action, budget));
  // state_since: the state after the action as a delta (get_state uses params.since).
  return action.state_since === undefined || action.action === 'get_state' ? result : withStateDelta(result, action.state_since);
}

/** One action's run: made once when the action arrives, handed to whatever runs it. */
interface ActionRun {
  action: ActionMessage;
  /** performance.now() when the action arrived (timings_ms). */
  started: number;
  /** What is left of the action's timeout_ms. */
  budget: Budget;
  /** The settle rule for this action: the caller's settle options over the person's defaults. */
  settle: ResolvedSettle;
  /** Pointer and keyboard input go through chrome.debugger Input.* (trusted events). */
  trusted: boolean;
  /** The error result; state: the tab's state after the failure, when there is one. */
  fail: (error: ErrorInfo, state?: SimplifiedState | null, tabId?: number) => ActionResultMessage;
  /** The tab's state for a result, or null (no tab, a closed tab, a restricted page). knownUrl: the
   * tab's URL when the caller knows it has not changed (saves a tabs.get on the hot path). */
  stateOrNull: (tabId: number | null | undefined, knownUrl?: string, topSnapshot?: FrameSnapshot) => Promise<SimplifiedState | null>;
}

async function runActionOnce(action: ActionMessage, budget = new Budget(action.timeout_ms)): Promise<ActionResultMessage> {
  const started = now();
  const settings = await readSettings();
  const settle = resolveSettle(settings[SETTLE_OPTIONS_KEY], action.settle);
  const trusted = (action.params as { trusted?: unknown } | undefined)?.trusted === true || settings[TRUSTED_INPUT_KEY] === true;
  const base = resultBase(action);
  const fail = (error: ErrorInfo, state: SimplifiedState | null = null, tabId?: number): ActionResultMessage => ({
    ...base,
    ...(tabId === undefined ? {} : { tab_id: tabId }),
    status: 'error',
    outcome_details: null,
    new_simplified_state: state,
    error_info: error,
  });
  const stateOrNull = async (
    tabId: number | null | undefined,
    knownUrl?: string,
    topSnapshot?: FrameSnapshot,
  ): Promise<SimplifiedState | null> => {
    if (tabId === null || tabId === undefined) return null;
    const tab = knownUrl !== undefined ? { url: knownUrl } : await chrome.tabs.get(tabId).catch(() => null);
    if (!tab || isRestrictedUrl(tab.url)) return null;
    // The person's PII redaction default applies to every state; a snapshot taken without it is redone.
    const params = await withPersonDefaults({});
    const s = await collectState(tabId, params, 'redact_pii' in params ? undefined : topSnapshot);
    // An allowed local page may have framed a file from outside its folder (person-policy.ts); judged
    // after the collection, so a frame added while it ran is seen too.
    if (isLocalUrl(tab.url) && (await blockedLocalFrame(tabId))) return null;
    if (s.ok) rememberState(tabId, s.state); // a base for a later get_state since
    return s.ok ? s.state : null;
  };
  const run: ActionRun = { action, started, budget, settle, trusted, fail, stateOrNull };
  try {
    const worker = WORKER_HANDLERS[action.action];
    // The hot path (a page action on a given tab, no settling, synthetic input, no domain lists):
    // the tab lookup (chrome.tabs.get, ~0.2 ms in the worker) runs while the page acts, and its
    // verdict is awaited before anything is answered. Nothing can run before it says no: a closed
    // tab and a restricted page (chrome://, the Web Store) have no content script to act.
    const tabId = action.tab_id;
    const upload = await classicUploadRefusal(action);
    if (upload) return fail(upload, null, tabId);
    if (!worker && action.action !== 'get_state' && tabId !== undefined && !settle.enabled && !trusted && !(await hasDomainPolicy())) {
      return await runPageAction(run, { id: tabId, check: () => checkedTab(resolveTab(tabId)) });
    }
    const resolved = await resolveTab(action.tab_id);
    if (!resolved.ok) return fail(resolved.error);
    const tab = resolved.tab;
    // Letting go of the DevTools protocol is never refused, whatever the tab shows now.
    if (!NOT_ON_THE_TAB.has(action.action) && isExtensionPage(tab.url ?? tab.pendingUrl))
      return fail(extensionPageError(tab, action.action), null, tab.id);
    const denied = action.action === 'cdp_detach' ? null : await policyError(action, tab.url, tab.id);
    if (denied) return fail(denied, null, tab.id);
    if (isRestrictedUrl(tab.url) && !TAB_LEVEL.has(action.action)) return fail(restricted(tab), null, tab.id);
    if (action.action === 'get_state') return await runGetState(run, tab);
    if (worker) {
      const out = await worker({ tab, budget, settle }, action.params as never);
      // A local page's frames are judged again after reading (extract_content, screenshot): one may have been added meanwhile.
      const after = isLocalUrl(tab.url) ? await policyError(action, tab.url, tab.id) : null;
      if (after) return fail(after, null, tab.id);
      const stateTab = out.stateTabId === undefined ? tab.id : out.stateTabId;
      const t0 = now();
      const state = await stateOrNull(stateTab);
      const timings: Timings = {
        action: ms(t0 - started - (out.ok ? (out.navigation_ms ?? 0) : 0)),
        state: ms(now() - t0),
        ...stamps(started),
      };
      if (!out.ok) return fail(out.error, state, stateTab ?? tab.id);
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
      return {
        ...base,
        tab_id: stateTab ?? tab.id,
        status: 'success',
        outcome_details: details,
        new_simplified_state: state,
        error_info: null,
      };
    }
    return await runPageAction(run, { id: tab.id, check: () => Promise.resolve({ ok: true, tab }) });
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return fail(
      errorInfo(
        'EXTENSION_INTERNAL_ERROR',
        `The extension failed while running "${action.action}": ${why}. Retry; report the bug if it repeats.`,
        WS,
      ),
    );
  }
}

/** get_state: the tab's state (or a delta since a given one), with the page's activity since the last result. */
async function runGetState(run: ActionRun, tab: Tab): Promise<ActionResultMessage> {
  const { action, fail, budget, settle } = run;
  const base = resultBase(action);
  const { since, include_tabs, include_screenshot, ...stateParams } = action.params as GetStateParams;
  const [s, drained] = await Promise.all([
    collectState(tab.id, await withPersonDefaults(stateParams)),
    settleSend(tab.id, 0, { channel: 'bux-settle', kind: 'drain' }, 500),
  ]);
  if (!s.ok) return fail(s.error, null, tab.id);
  // A local page's frames are judged again after the collection: one may have been added meanwhile.
  const after = isLocalUrl(tab.url) ? await policyError(action, tab.url, tab.id) : null;
  if (after) return fail(after, null, tab.id);
  // The tab list and a screenshot of this very state, so a browser_use step is one round trip.
  const result = await stateExtras({ tab, budget, settle }, { ...stateParams, include_tabs, include_screenshot });
  const details: OutcomeDetails = { message: 'State taken.', navigation_occurred: false, result };
  const left = takeDeferred(tab.id);
  const all = left ? mergeDrained(left.drained, drained?.drained ?? NOTHING_DRAINED) : drained?.drained;
  if (all) Object.assign(details, activityFields(all));
  if (left?.notice) details.no_change_notice = left.notice;
  // since: only what changed; a full state with delta_unavailable when no delta can be given.
  const answer = answerState(tab.id, s.state, since);
  const ok = { ...base, tab_id: tab.id, status: 'success', outcome_details: details, error_info: null } as const;
  return 'delta' in answer ? { ...ok, state_delta: answer.delta } : { ...ok, new_simplified_state: answer.state };
}

/**
 * Actions that do not act on the tab they are routed by (it only places a new tab, or nothing):
 * they run whatever it shows. Every other action refuses an extension page.
 */
const NOT_ON_THE_TAB = new Set(['cdp_detach', 'open_tab', 'list_tabs', 'get_cookies']);

/** An extension page is never an agent's tab, not even to navigate or close it (agent-scope.ts). */
const extensionPageError = (tab: Tab, action: string): ErrorInfo => {
  const url = tab.url ?? tab.pendingUrl ?? '';
  return tabScopeError(action, tab.id, url, scopeNow(url) ?? { reason: 'privileged_page', why: 'it is an extension page' });
};

const restricted = (tab: Tab): ErrorInfo =>
  localFileBlocked(tab.url)
    ? localTabError(tab.id, tab.url)
    : errorInfo(
        'RESTRICTED_PAGE',
        `Tab ${tab.id} shows ${tab.url}, a page Chrome does not let extensions script. Navigate the tab to a web page (navigate) or use another tab (list_tabs, switch_tab).`,
        WS,
        { tab_id: tab.id, current_url: tab.url },
      );

type TabVerdict = { ok: true; tab: Tab } | { ok: false; error: ErrorInfo; tabId?: number };

/**
 * A page action's tab: its id at once, and check(): the verdict of its lookup (found, not
 * restricted). On the hot path check() starts chrome.tabs.get, whose call alone takes ~0.15 ms of
 * the worker's thread: it is started right after the request to the page is posted.
 */
interface PageTab {
  id: number;
  check: () => Promise<TabVerdict>;
}

function checkedTab(resolved: ReturnType<typeof resolveTab>): Promise<TabVerdict> {
  return resolved.then((r) => (!r.ok ? r : isRestrictedUrl(r.tab.url) ? { ok: false, error: restricted(r.tab), tabId: r.tab.id } : r));
}

/** Which frame runs a page-side action, and the params it gets (element ids made frame-local). */
async function route(
  tabId: number,
  params: unknown,
): Promise<{ ok: true; frameId: number; params: unknown } | { ok: false; error: ErrorInfo }> {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const source = await localTarget(tabId, p);
  if (!source.ok) return source;
  const frameId = source.frameId ?? 0;
  const out = source.params;
  // drag_and_drop's nested `to` target: same translation, and it must live in the source's frame
  // (one content script runs the whole drag; its points are that frame's viewport coordinates).
  if (typeof p['to'] === 'object' && p['to'] !== null) {
    const to = await localTarget(tabId, p['to'] as Record<string, unknown>);
    if (!to.ok) return to;
    const toFrame = to.frameId ?? 0;
    if (toFrame !== frameId) {
      return {
        ok: false,
        error: errorInfo(
          'INVALID_MESSAGE',
          `drag_and_drop cannot drag between frames: the source is in ${frameLabel(frameId)} and "to" in ${frameLabel(toFrame)}. Both ends must be in one frame; pick a source and destination from the same frame (their ids share the "f<frame>" prefix), or use from_point/to_point in the top frame.`,
          WS,
          { reason: 'cross_frame', from_frame_id: frameId, to_frame_id: toFrame },
        ),
      };
    }
    out['to'] = to.params;
  }
  return { ok: true, frameId, params: out };
}

const frameLabel = (frameId: number) => (frameId === 0 ? 'the top frame' : `frame ${frameId}`);

/** One target's element_id/index made frame-local; frameId undefined when the target names no frame (role, selector, points). */
async function localTarget(
  tabId: number,
  p: Record<string, unknown>,
): Promise<{ ok: true; frameId: number | undefined; params: Record<string, unknown> } | { ok: false; error: ErrorInfo }> {
  let elementId = typeof p['element_id'] === 'string' ? (p['element_id'] as string) : undefined;
  const rest = { ...p };
  if (typeof p['index'] === 'number') {
    const found = await elementIdForIndex(tabId, p['index'] as number);
    if (!found)
      return {
        ok: false,
        error: errorInfo(
          'TARGET_ELEMENT_NOT_FOUND',
          `Index ${p['index'] as number} is not in the latest state of tab ${tabId}. Take a new state (get_state) and use an index from it.`,
          WS,
          { index: p['index'], tab_id: tabId, reason: 'unknown' },
        ),
      };
    elementId = found;
    delete rest['index'];
  }
  if (elementId === undefined) return { ok: true, frameId: undefined, params: rest };
  const parsed = parseElementId(elementId);
  if (!parsed)
    return {
      ok: false,
      error: errorInfo(
        'TARGET_ELEMENT_NOT_FOUND',
        `"${elementId}" is not an element id (they look like "e12", or "f7e3" inside a frame). Take a new state (get_state) and use an id from it.`,
        WS,
        { element_id: elementId, reason: 'unknown' },
      ),
    };
  return { ok: true, frameId: parsed.frameId, params: { ...rest, element_id: parsed.local } };
}

/**
 * A subframe's content script answers with its local refs ("e3"); on the wire they are "f<frame>e3"
 * (element ids name their frame). Re-prefixes element_id fields in a result or error details (also in candidates and
 * covering_element) and the same ids where the message mentions them.
 */
function globalIds<T extends { message?: string }>(frameId: number, obj: T, fields: Record<string, unknown> | undefined): void {
  if (frameId === 0 || !fields) return;
  const seen = new Map<string, string>();
  const fix = (holder: Record<string, unknown>) => {
    const id = holder['element_id'];
    if (typeof id !== 'string') return;
    const parsed = parseElementId(id);
    if (!parsed || id.startsWith('f')) return;
    const global = formatElementId(frameId, parsed.local);
    holder['element_id'] = global;
    seen.set(id, global);
  };
  fix(fields);
  const candidates = fields['candidates'];
  if (Array.isArray(candidates)) for (const c of candidates) if (typeof c === 'object' && c !== null) fix(c as Record<string, unknown>);
  const cover = fields['covering_element'];
  if (typeof cover === 'object' && cover !== null) fix(cover as Record<string, unknown>);
  if (seen.size && typeof obj.message === 'string') obj.message = obj.message.replace(/(?<![\w-])e\d+\b/g, (m) => seen.get(m) ?? m);
}

async function runPageAction(run: ActionRun, pageTab: PageTab): Promise<ActionResultMessage> {
  const { action, budget, settle, trusted, started, fail, stateOrNull } = run;
  const tabId = pageTab.id;
  const routed = await route(tabId, action.params);
  if (!routed.ok) {
    const checked = await pageTab.check();
    return checked.ok ? fail(routed.error, await stateOrNull(tabId), tabId) : fail(checked.error, null, checked.tabId);
  }
  const { frameId } = routed;
  const timings: Timings = {};
  const watch = new TabWatch(tabId);
  const downloads = new DownloadWatch();
  // The target as the agent last saw it (taken before the action's own state replaces it).
  const linkState = latestState(tabId);
  try {
    if (settle.enabled) await settleSend(tabId, frameId, { channel: 'bux-settle', kind: 'begin' }, 1000);
    const tAction = now();
    const plan = trusted ? trustedPlan(action.action, routed.params) : null;
    // Settling off and the top frame acting: the state is taken right after the action, so the page
    // answers with its snapshot at once (one round trip instead of two).
    const withSnapshot = !plan && !settle.enabled && frameId === 0;
    const asked = plan
      ? withCurrentViewport(plan, () => runTrusted(tabId, frameId, plan, watch))
      : sendToContent(
          tabId,
          {
            channel: CONTENT_CHANNEL,
            kind: 'run_action',
            action: action.action,
            params: routed.params,
            ...(withSnapshot ? { snapshot: {} } : {}),
          },
          { frameId },
        );
    const checking = pageTab.check();
    // A page blocked by a native dialog (one the main-world hooks could not intercept) never answers:
    // answer before the bridge's timeout instead, saying what to check.
    const sent = await withTimeout(asked, budget.remaining(), null);
    timings.action = ms(now() - tAction);
    // The tab's lookup (already done, or overlapped with the action on the hot path) comes first.
    const checked = await checking;
    if (!checked.ok) return fail(checked.error, null, checked.tabId);
    const tab = checked.tab;
    if (sent === null) {
      return fail(
        errorInfo(
          'TIMEOUT',
          `The page did not finish "${action.action}" within the action's timeout. A JavaScript dialog (alert/confirm/prompt/beforeunload) may be blocking the tab, or the page is busy: look at the tab, answer any dialog, take a new state, or raise timeout_ms.`,
          WS,
          { tab_id: tab.id, frame_id: frameId, timeout_ms: action.timeout_ms ?? 15_000 },
        ),
        null,
        tab.id,
      );
    }
    if (!sent.ok && !sent.portClosed) return fail(sent.error, await stateOrNull(tab.id), tab.id);
    // Typing the page cut short (it navigated or its tab closed with keys still to type): never success.
    const typed = !sent.ok && TYPING_ACTIONS.has(action.action) ? inputDone(action.action, action.params, sent) : undefined;
    if (typed !== undefined && (typed === null || typed.done < typed.total)) {
      let tabNow = await chrome.tabs.get(tab.id).catch(() => null);
      // The port can close a moment before the tab's removal or the navigation's start is visible.
      if (tabNow && !watch.navigationStarted && (await watch.waitForStartOrNewTab(budget.cap(300))) === false)
        tabNow = await chrome.tabs.get(tab.id).catch(() => null);
      if (tabNow && watch.navigationStarted) await watch.waitForNavigationEnd(budget.cap(settle.navigation_cap_ms));
      tabNow = tabNow ? await chrome.tabs.get(tab.id).catch(() => null) : null;
      return fail(inputCutError(action.action, tab.id, typed, tabNow, tab.url), tabNow ? await stateOrNull(tab.id) : null, tab.id);
    }
    // A pointer action the page left while it still waited for its element: nothing was clicked.
    if (!sent.ok && sent.tracked === true && POINTER_ACTIONS.has(action.action) && (sent.progress?.done ?? 0) === 0) {
      let tabNow = await chrome.tabs.get(tab.id).catch(() => null);
      if (tabNow && !watch.navigationStarted && (await watch.waitForStartOrNewTab(budget.cap(300))) === false)
        tabNow = await chrome.tabs.get(tab.id).catch(() => null);
      if (tabNow && watch.navigationStarted) await watch.waitForNavigationEnd(budget.cap(settle.navigation_cap_ms));
      tabNow = tabNow ? await chrome.tabs.get(tab.id).catch(() => null) : null;
      return fail(notActedError(action.action, tab.id, tabNow, tab.url), tabNow ? await stateOrNull(tab.id) : null, tab.id);
    }
    if (!sent.ok && ANSWER_REQUIRED.has(action.action)) {
      const lost = await lostAnswer(action.action, tab.id, tab.url);
      if (!lost.tabGone && watch.navigationStarted) await watch.waitForNavigationEnd(budget.cap(settle.navigation_cap_ms));
      return fail(lost.error, lost.tabGone ? null : await stateOrNull(tab.id), tab.id);
    }
    if (sent.ok && !sent.response.ok) {
      const error = { ...sent.response.error };
      if (error.details) error.details = structuredClone(error.details);
      globalIds(frameId, error, error.details as Record<string, unknown> | undefined);
      return fail(error, await stateOrNull(tab.id), tab.id);
    }
    if (sent.ok && sent.response.ok) globalIds(frameId, sent.response, sent.response.result);
    if (sent.ok && sent.response.ok && action.action === 'get' && frameId !== 0) {
      const misplaced = await boxInTopViewport(tab.id, frameId, sent.response.result);
      if (misplaced) return fail(misplaced, await stateOrNull(tab.id), tab.id);
    }
    const message = sent.ok && sent.response.ok ? sent.response.message : `"${action.action}" ran; the page unloaded before it answered.`;
    const result =
      sent.ok && sent.response.ok ? sent.response.result : typed && action.action === 'type' ? { chars_typed: typed.total } : {};
    const allTyped = typed ? allInBefore(action.action, typed.total) : '';

    let settled: boolean | undefined;
    let report: SettleReport | undefined;
    let drained: Drained | undefined;
    let notice: string | undefined;
    let navigationEnd: NavigationEnd | null = null;
    const followNavigation = async () => {
      const t = now();
      const end = await watch.waitForNavigationEnd(budget.cap(settle.navigation_cap_ms));
      navigationEnd = end;
      timings.navigation = ms((timings.navigation ?? 0) + now() - t);
      settled = end !== null;
    };
    if (!sent.ok || watch.navigationStarted) {
      await followNavigation();
    } else if (settle.enabled) {
      const t = now();
      const capMs = budget.remaining();
      const waited = await Promise.race([
        settleSend(tab.id, frameId, { channel: 'bux-settle', kind: 'wait', params: waitParams(settle, capMs) }, capMs),
        watch.started().then(() => 'navigation' as const),
      ]);
      if (waited === 'navigation' && watch.navigationStarted) {
        await followNavigation();
      } else if (waited && waited !== 'navigation') {
        report = waited.report;
        drained = waited.drained;
        settled = report.settled;
        // As the worker saw it (the page measures from when the wait request arrived): the quiet
        // window counts from the last mutation, which the action itself usually causes.
        timings.dom_quiet = ms(Math.max(0, now() - t - report.network_idle_ms));
        timings.network_idle = report.network_idle_ms;
      } else if (watch.navigationStarted) {
        await followNavigation();
        // navigationStarted is read again after the wait: it may have turned true meanwhile.
        // eslint-disable-next-line no-dupe-else-if
      } else if ((await watch.waitForStartOrNewTab(budget.cap(300))) && watch.navigationStarted) {
        // The page stopped answering because it is unloading: the navigation event came a moment later.
        await followNavigation();
      } else {
        timings.dom_quiet = ms(now() - t);
        settled = false;
      }
      // Nothing observable happened after an action that should change something: watch a while longer.
      const watchMs = budget.cap(settle.no_change_timeout_ms);
      if (
        report &&
        !report.effects &&
        !watch.navigated &&
        watch.newTabId === undefined &&
        EXPECTS_CHANGE.has(action.action) &&
        settle.no_change_timeout_ms > 0 &&
        !settle.blockOnNoChange
      ) {
        watchInBackground(tab.id, frameId, settle);
      } else if (
        report &&
        !report.effects &&
        !watch.navigated &&
        watch.newTabId === undefined &&
        EXPECTS_CHANGE.has(action.action) &&
        settle.no_change_timeout_ms > 0
      ) {
        const tw = now();
        const watched = await Promise.race([
          settleSend(
            tab.id,
            frameId,
            { channel: 'bux-settle', kind: 'watch', watch_ms: watchMs, params: waitParams(settle, budget.remaining()) },
            watchMs + 1000,
          ),
          watch.started().then(() => 'navigation' as const),
        ]);
        timings.no_change_watch = ms(now() - tw);
        if (watched === 'navigation') {
          if (watch.navigationStarted) await followNavigation();
        } else if (watched) {
          report = watched.report;
          drained = mergeDrained(drained, watched.drained);
          if (!watched.changed) notice = noChangeNotice(watchMs);
          else settled = watched.report.settled;
        }
      }
    }
    if (watch.navigationStarted && settled === undefined) await followNavigation();
    // A download the action started: reported once Chrome finished it (or as it stands when the
    // action's time runs out), so a caller can open the file the result names.
    // A navigation Chrome aborted (net::ERR_ABORTED) is how a link answered with Content-Disposition:
    // attachment ends; its download item is created a moment later.
    const aborted = (navigationEnd as NavigationEnd | null)?.error === 'net::ERR_ABORTED';
    // A link clicked without navigating may be a download whose item Chrome creates a moment later.
    const link = !watch.navigated && !downloads.match(tab.url) && CLICKS.has(action.action) && targetsLink(linkState, action.params);
    const downloadStarted =
      aborted || link
        ? await downloads.waitForMatch(tab.url, budget.cap(aborted ? DOWNLOAD_AFTER_ABORT_MS : DOWNLOAD_AFTER_LINK_MS))
        : downloads.match(tab.url);
    // Chrome refused the file (a repeated automatic download, or one it interrupted as blocked): a failure, not a silent success.
    const repeated =
      !downloadStarted && link
        ? await repeatedDownloadBlocked(downloads, linkState, action.params, tab.url, budget.cap(DOWNLOAD_AFTER_ABORT_MS))
        : null;
    const download: DownloadRecord | undefined =
      downloadStarted || (link && !repeated && downloads.match(tab.url)) ? await downloads.result(budget.remaining()) : undefined;
    const blocked = download ? blockedDownload(download) : repeated;
    const tState = now();
    const frame = sent.ok && sent.response.ok && !watch.navigationStarted ? sent.response.frame : undefined;
    const state = await stateOrNull(tab.id, watch.navigated || !sent.ok ? undefined : (tab.url ?? ''), frame);
    timings.state = ms(now() - tState);
    if (blocked) return fail(blocked, state, tab.id);
    if (watch.navigationStarted) {
      // The old document's log is gone with it; report what the new one did while loading.
      const fresh = await settleSend(tab.id, 0, { channel: 'bux-settle', kind: 'drain' }, 500);
      if (fresh) drained = mergeDrained(drained, fresh.drained);
    }
    Object.assign(timings, stamps(started));
    const left = takeDeferred(tab.id);
    if (left) {
      drained = mergeDrained(left.drained, drained ?? { api_activity: [], dialogs: [], dialog_count: 0, pending: [] });
      notice ??= left.notice ?? undefined;
    }
    const navigated = watch.navigated || !sent.ok;
    const details: OutcomeDetails = {
      message: navigated && !sent.ok ? `${allTyped}"${action.action}" caused a navigation${state ? ` to ${state.url}` : ''}.` : message,
      navigation_occurred: navigated,
      result: result as OutcomeDetails['result'],
      timings_ms: timings,
    };
    if (settled !== undefined) details.settled = settled;
    if (report) details.dom_changed = report.dom_changed;
    if (watch.newTabId !== undefined) details.new_tab_id = watch.newTabId;
    if (drained) Object.assign(details, activityFields(drained));
    if (notice) details.no_change_notice = notice;
    if (download) {
      details.download = download;
      details.message += downloadSentence(download);
    }
    return {
      ...resultBase(action),
      tab_id: tab.id,
      status: 'success',
      outcome_details: details,
      new_simplified_state: state,
      error_info: null,
    };
  } finally {
    watch.stop();
    downloads.stop();
  }
}

/** Trusted mode: the page (of the target's frame) prepares the target, the worker sends real input. */
async function runTrusted(tabId: number, frameId: number, plan: TrustedPlan, watch: TabWatch): ReturnType<typeof sendToContent> {
  const asked = await sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'prepare', ...plan.prepare }, { frameId });
  if (!asked.ok || !asked.response.ok) return asked;
  const prepared: Record<string, unknown> = asked.response.result;
  // The page did it through the DOM (fill of a date/range/color...: CDP typing cannot set those).
  if (prepared['done'] === true) {
    const { done: _done, x: _x, y: _y, focused: _f, ...rest } = prepared;
    return {
      ok: true,
      response: {
        ok: true,
        message: `${plan.verb} (value set through the DOM: real key events cannot set this input type) into ${String(prepared['element_id'])}.`,
        result: plan.result(rest, typeof rest['value'] === 'string' ? { value: rest['value'] } : {}),
      },
    };
  }
  const input = plan.input(prepared);
  if (!input) {
    const focusable = plan.prepare.focus && prepared['focused'] !== true;
    return {
      ok: true,
      response: {
        ok: false,
        error: errorInfo(
          'OPERATION_FAILED_IN_TARGET',
          focusable
            ? 'The target did not take focus, so trusted keys would go elsewhere. Click it first, or turn trusted_input off, and retry.'
            : 'The page did not give a point for trusted input. Turn trusted_input off and retry.',
          WS,
          { ...(typeof prepared['element_id'] === 'string' ? { element_id: prepared['element_id'] } : {}) },
        ),
      },
    };
  }
  if (input.kind === 'mouse' && frameId !== 0) {
    // The page gave a point in its frame's viewport; Input.* takes top-level viewport coordinates.
    const offset = await frameOffset(tabId, frameId);
    if (!offset)
      return {
        ok: true,
        response: {
          ok: false,
          error: errorInfo(
            'COMMUNICATION_ERROR_WITH_TARGET',
            `Could not find where frame ${frameId} sits on the page, so a trusted click there would miss. Take a new state and retry, or turn trusted_input off.`,
            WS,
            { tab_id: tabId, frame_id: frameId },
          ),
        },
      };
    input.x += offset.x;
    input.y += offset.y;
    // The controlled-tab bar is in the top frame, above this frame: while a person's pointer rests
    // on it, Stop takes the pointer and would take this click too. The top frame moves it aside for
    // the input, as it does for a point of its own (content/agent-bar.ts). Best effort: a top frame
    // without our content script has no bar.
    await sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'bar_aside', x: input.x, y: input.y }, { frameId: 0 }).catch(
      () => undefined,
    );
  }
  // Keys are counted as they go, and stop when the page starts navigating (CDP input outlives the
  // document: keys sent on would land in whatever the next page focuses).
  const total = input.kind === 'mouse' ? 0 : input.kind === 'keys' ? input.keys.length : [...input.text].length;
  let done = 0;
  const cut = (why: string): Awaited<ReturnType<typeof sendToContent>> => ({
    ok: false,
    portClosed: true,
    error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', `The page went away while the action ran (${why}).`, WS),
    progress: { done, total },
    tracked: true,
  });
  try {
    await performTrustedInput(tabId, input, { progress: (n) => (done = n), stop: () => watch.navigationStarted });
  } catch (e) {
    if (total > 0 && !(e instanceof TrustedInputRefused) && !(await chrome.tabs.get(tabId).catch(() => null))) return cut('the tab closed');
    if (e instanceof TrustedInputRefused)
      return {
        ok: true,
        response: {
          ok: false,
          error: errorInfo(e.code, e.message, WS, {
            ...e.details,
            ...(typeof prepared['element_id'] === 'string' ? { element_id: prepared['element_id'] } : {}),
          }),
        },
      };
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: true,
      response: {
        ok: false,
        error: errorInfo(
          'OPERATION_FAILED_IN_TARGET',
          `Trusted input failed (${why}); another debugger (DevTools?) may be attached to this tab. Close it, or turn trusted_input off, and retry.`,
          WS,
          { tab_id: tabId },
        ),
      },
    };
  }
  if (done < total) return cut('the page navigated');
  let value: Record<string, unknown> = {};
  if (plan.readValue && typeof prepared['element_id'] === 'string') {
    const read = await sendToContent(
      tabId,
      { channel: CONTENT_CHANNEL, kind: 'read_value', element_id: prepared['element_id'] },
      { frameId },
    );
    if (read.ok && read.response.ok) value = read.response.result;
  }
  const id = typeof prepared['element_id'] === 'string' ? ` ${prepared['element_id']}` : '';
  const where =
    input.kind === 'mouse'
      ? ` at (${Math.round(input.x)}, ${Math.round(input.y)})${id ? ` on${id}` : ''}`
      : input.kind === 'keys' && plan.verb === 'Trusted key press'
        ? ` ${input.keys.join(' ')}${id ? ` in${id}` : ''}`
        : id
          ? ` into${id}`
          : '';
  return { ok: true, response: { ok: true, message: `${plan.verb}${where}.`, result: plan.result(prepared, value) } };
}

const NOTHING_DRAINED: Drained = { api_activity: [], dialogs: [], dialog_count: 0, pending: [] };

const resultBase = (action: ActionMessage) => ({
  type: 'action_result' as const,
  original_action_id: action.action_id,
  action: action.action,
});

function mergeDrained(a: Drained | undefined, b: Drained): Drained {
  if (!a) return b;
  return {
    api_activity: [...a.api_activity, ...b.api_activity].slice(-50),
    dialogs: [...a.dialogs, ...b.dialogs],
    dialog_count: a.dialog_count + b.dialog_count,
    pending: b.pending,
  };
}

function activityFields(d: Drained): Pick<OutcomeDetails, 'api_activity' | 'dialog'> {
  const out: Pick<OutcomeDetails, 'api_activity' | 'dialog'> = {};
  if (d.api_activity.length) out.api_activity = d.api_activity;
  const last = d.dialogs[d.dialogs.length - 1];
  if (last) out.dialog = d.dialog_count > 1 ? { ...last, count: d.dialog_count } : last;
  return out;
}
