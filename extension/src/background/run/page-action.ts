// A page-side action, start to end, as phases that each take the run:
//   send -> judgeCutShort -> afterAction -> download -> finish
// send posts the action to the content script of the target's frame (or sends trusted input),
// judgeCutShort turns a page that refused or went away into the one failure it is, afterAction
// (after-action.ts) collects what the act set off (navigation, settling, a new tab), download reports
// a file the act started, and finish takes the tab's new state and builds the result.
import type { ActionResultMessage, ErrorInfo, OutcomeDetails, SimplifiedState } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { CONTENT_CHANNEL } from '../../shared/internal-messages';
import { type DownloadRequest, SETTLE_CHANNEL } from '../../shared/settle-messages';
import type { Tab } from '../actions/types';
import { type ChannelOutcome, sendToContent } from '../connection/content-channel';
import { withTimeout } from '../page-watch/budget';
import { markDownloadTab } from '../page-watch/download-gesture';
import {
  blockedDownload,
  type DownloadRecord,
  downloadSentence,
  droppedDownload,
  repeatedDownloadBlocked,
  targetsLink,
} from '../page-watch/downloads';
import { boxInTopViewport } from '../page-watch/frame-box';
import { settleSend, takeDeferred } from '../page-watch/settle-rule';
import { type ActionRun, ms, now, type Refusal } from './action-run';
import { activityFields, mergeDrained, NOTHING_DRAINED } from './activity';
import { afterAction, isResult, Signals } from './after-action';
import { allInBefore, ANSWER_REQUIRED, cutShort, inputDone, lostAnswer, TYPING_ACTIONS, waitCutShort } from './interrupted-input';
import { globalIds, route } from './route';
import type { PageTab } from './tab-gate';
import { cssHoverPlan, runTrusted, trustedPlan, withCurrentViewport } from './trusted-run';

/** How long a download may take to appear after the navigation it replaced was aborted. */
const DOWNLOAD_AFTER_ABORT_MS = 1000;
/** How long a click on a link that did not navigate waits for a download to appear. */
const DOWNLOAD_AFTER_LINK_MS = 300;
const CLICKS = new Set<string>(['click', 'double_click']);

/** The page's answer, on the tab the lookup confirmed. */
interface Sent {
  tab: Tab;
  sent: ChannelOutcome;
}

/** An act the page did (or that ran until the page unloaded): what the result will say of it. */
interface Acted extends Sent {
  message: string;
  result: Record<string, unknown>;
  /** "All N characters went in; then ": typing that ended in a navigation it caused. */
  allTyped: string;
}

type Routed = Extract<Awaited<ReturnType<typeof route>>, { ok: true }>;

export async function runPageAction(run: ActionRun, pageTab: PageTab): Promise<ActionResultMessage> {
  const routed = await route(pageTab.id, run.params);
  const ended = !routed.ok ? await refusedRoute(run, pageTab, routed.error) : await onFrame(run, pageTab, routed);
  // The one place a refused act fails the run, with the tab's state when the tab is still there.
  return isResult(ended) ? ended : run.failOnTab(ended.error, ended.withState);
}

/** A target route() could not place: the tab's verdict comes first (a closed tab says so), then the route's error. */
async function refusedRoute(run: ActionRun, pageTab: PageTab, error: ErrorInfo): Promise<ActionResultMessage | Refusal> {
  const checked = await pageTab.check();
  if (!checked.ok) return run.fail(checked.error, null, checked.tabId);
  run.tab = checked.tab;
  return { error, withState: true };
}

/** The act on the target's frame inside its signals, then the download and the result. */
async function onFrame(run: ActionRun, pageTab: PageTab, routed: Routed): Promise<ActionResultMessage | Refusal> {
  const signals = new Signals(run, pageTab.id, routed.frameId);
  try {
    const acted = await afterAction(run, signals, async (): Promise<Acted | ActionResultMessage | Refusal> => {
      const sent = await send(run, pageTab, routed, signals);
      return isResult(sent) ? sent : judgeCutShort(run, sent, signals);
    });
    if (!('sent' in acted)) return acted;
    const download = await collectDownload(run, signals, acted);
    return await finish(run, signals, acted, download);
  } finally {
    signals.stop();
  }
}

async function send(run: ActionRun, pageTab: PageTab, routed: Routed, signals: Signals): Promise<Sent | ActionResultMessage> {
  const { frameId } = routed;
  const tAction = now();
  const plan = run.trusted ? trustedPlan(run.name, routed.params) : cssHoverPlan(run.name, routed.params);
  // Settling off and the top frame acting: the state is taken right after the action, so the page
  // answers with its snapshot at once (one round trip instead of two).
  const withSnapshot = !plan && !run.settle.enabled && frameId === 0;
  const asked = plan
    ? withCurrentViewport(plan, () => runTrusted(pageTab.id, frameId, plan, signals.watch))
    : sendToContent(
        pageTab.id,
        {
          channel: CONTENT_CHANNEL,
          kind: 'run_action',
          action: run.name,
          params: routed.params,
          ...(withSnapshot ? { snapshot: {} } : {}),
          ...(!run.settle.enabled && CLICKS.has(run.name) ? { downloads: true as const } : {}),
        },
        { frameId },
      );
  const checking = pageTab.check();
  // A page blocked by a native dialog (one the main-world hooks could not intercept) never answers:
  // answer before the bridge's timeout instead, saying what to check.
  const sent = await withTimeout(asked, run.budget.remaining(), null);
  run.timings.action = ms(now() - tAction);
  // The tab's lookup (already done, or overlapped with the action on the hot path) comes first.
  const checked = await checking;
  if (!checked.ok) return run.fail(checked.error, null, checked.tabId);
  const tab = checked.tab;
  run.tab = tab;
  if (sent === null) return run.fail(pageTimeout(run, tab.id, frameId), null, tab.id);
  return { tab, sent };
}

const pageTimeout = (run: ActionRun, tabId: number, frameId: number): ErrorInfo =>
  errorInfo(
    'TIMEOUT',
    `The page did not finish "${run.name}" within the action's timeout. A JavaScript dialog (alert/confirm/prompt/beforeunload) may be blocking the tab, or the page is busy: look at the tab, answer any dialog, take a new state, or raise timeout_ms.`,
    'background_script',
    { tab_id: tabId, frame_id: frameId, timeout_ms: run.action.timeout_ms ?? 15_000 },
  );

/** The page's answer judged: a failure (the page refused, or went away before the act was done) or what it did. */
async function judgeCutShort(run: ActionRun, { tab, sent }: Sent, signals: Signals): Promise<Acted | Refusal> {
  const name = run.name;
  if (!sent.ok && !sent.portClosed) return { error: sent.error, withState: true };
  const typed = !sent.ok && TYPING_ACTIONS.has(name) ? inputDone(name, run.params, sent) : undefined;
  const cut = cutShort(run, tab, sent, typed);
  if (cut) return waitCutShort(run, tab, signals, cut);
  if (!sent.ok && ANSWER_REQUIRED.has(name)) {
    const lost = await lostAnswer(name, tab.id, tab.url);
    if (!lost.tabGone && signals.watch.navigationStarted)
      await signals.watch.waitForNavigationEnd(run.budget.cap(run.settle.navigation_cap_ms));
    return { error: lost.error, withState: !lost.tabGone };
  }
  if (!sent.ok) {
    const result = typed && name === 'type' ? { chars_typed: typed.total } : {};
    const message = `"${name}" ran; the page unloaded before it answered.`;
    return { tab, sent, message, result, allTyped: typed ? allInBefore(name, typed.total) : '' };
  }
  const answer = sent.response;
  if (!answer.ok) {
    const error = { ...answer.error };
    if (error.details) error.details = structuredClone(error.details);
    globalIds(signals.frameId, error, error.details as Record<string, unknown> | undefined);
    return { error, withState: true };
  }
  globalIds(signals.frameId, answer, answer.result);
  const misplaced = name === 'get' && signals.frameId !== 0 ? await boxInTopViewport(tab.id, signals.frameId, answer.result) : null;
  if (misplaced) return { error: misplaced, withState: true };
  return { tab, sent, message: answer.message, result: answer.result, allTyped: '' };
}

/** The download phase's report: the file the act started, Chrome's refusal of it, and what the result's message says of it. */
interface Download {
  download?: DownloadRecord;
  blocked: ErrorInfo | null;
  sentence: string;
}

/**
 * A download the act started: reported once Chrome finished it (or as it stands when the action's
 * time runs out), so a caller can open the file the result names. blocked: Chrome refused the file
 * (a repeated automatic download, or one it interrupted as blocked), a failure, not a silent success.
 */
async function collectDownload(run: ActionRun, signals: Signals, acted: Acted): Promise<Download> {
  const { tab } = acted;
  const { watch, downloads, linkState } = signals;
  const { budget, params } = run;
  // A navigation Chrome aborted (net::ERR_ABORTED) is how a link answered with Content-Disposition:
  // attachment ends; its download item is created a moment later.
  const aborted = signals.navigationEnd?.error === 'net::ERR_ABORTED';
  // A link clicked without navigating may be a download whose item Chrome creates a moment later.
  const landedInLink = acted.sent.ok && acted.sent.response.ok && acted.sent.response.link === true;
  const link = !watch.navigated && !downloads.match(tab.url) && CLICKS.has(run.name) && (landedInLink || targetsLink(linkState, params));
  const started =
    aborted || link
      ? await downloads.waitForMatch(tab.url, budget.cap(aborted ? DOWNLOAD_AFTER_ABORT_MS : DOWNLOAD_AFTER_LINK_MS))
      : downloads.match(tab.url);
  const repeated =
    !started && link ? await repeatedDownloadBlocked(downloads, linkState, params, tab.url, budget.cap(DOWNLOAD_AFTER_ABORT_MS)) : null;
  // A file the page made (a blob export) that Chrome did not take: it dropped it without a trace.
  const asked = await pageDownloadRequests(run, signals, acted);
  const dropped =
    !started && !repeated && asked.length ? await droppedDownload(downloads, asked, tab.url, budget.cap(DOWNLOAD_AFTER_ABORT_MS)) : null;
  const download =
    started || ((link || asked.length) && !repeated && !dropped && downloads.match(tab.url))
      ? await downloads.result(budget.remaining())
      : undefined;
  // The tab spent Chrome's one download without a gesture: its next clicks go as real input (download-gesture.ts).
  if (download) await markDownloadTab(tab.id);
  return download
    ? { download, blocked: blockedDownload(download), sentence: downloadSentence(download) }
    : { blocked: repeated ?? dropped, sentence: '' };
}

/** The blob:/data: downloads the page asked for: in the settle drain, or asked of the frame after a click without settling. */
async function pageDownloadRequests(run: ActionRun, signals: Signals, acted: Acted): Promise<DownloadRequest[]> {
  if (signals.drained) return signals.drained.download_requests ?? [];
  if (run.settle.enabled || !CLICKS.has(run.name)) return [];
  // The content script's answer carries them (one round trip); trusted input's answer is the worker's own.
  const answered = acted.sent.ok && acted.sent.response.ok ? acted.sent.response : null;
  if (answered && !run.trusted) return answered.download_requests ?? [];
  const tabId = acted.tab.id;
  const r = await settleSend(tabId, signals.frameId, { channel: SETTLE_CHANNEL, kind: 'download_requests' }, run.budget.cap(500));
  return r?.requests ?? [];
}

async function finish(run: ActionRun, signals: Signals, acted: Acted, download: Download): Promise<ActionResultMessage> {
  const { tab, sent } = acted;
  const { watch } = signals;
  const tState = now();
  const frame = sent.ok && sent.response.ok && !watch.navigationStarted ? sent.response.frame : undefined;
  const state = await run.stateOrNull(tab.id, watch.navigated || !sent.ok ? undefined : (tab.url ?? ''), frame);
  run.timings.state = ms(now() - tState);
  if (download.blocked) return run.fail(download.blocked, state, tab.id);
  await signals.drainNewDocument();
  run.stamp();
  const left = takeDeferred(tab.id);
  if (left) {
    signals.drained = mergeDrained(left.drained, signals.drained ?? NOTHING_DRAINED);
    signals.notice ??= left.notice ?? undefined;
  }
  const details = outcome(run, signals, acted, state, download);
  return run.success(details, state, tab.id);
}

function outcome(
  run: ActionRun,
  signals: Signals,
  acted: Acted,
  state: SimplifiedState | null,
  { download, sentence }: Download,
): OutcomeDetails {
  const { watch, report, drained, notice, settled } = signals;
  const navigated = watch.navigated || !acted.sent.ok;
  const details: OutcomeDetails = {
    message:
      navigated && !acted.sent.ok ? `${acted.allTyped}"${run.name}" caused a navigation${state ? ` to ${state.url}` : ''}.` : acted.message,
    navigation_occurred: navigated,
    result: acted.result as OutcomeDetails['result'],
    timings_ms: run.timings,
  };
  if (settled !== undefined) details.settled = settled;
  if (report) details.dom_changed = report.dom_changed;
  if (watch.newTabId !== undefined) details.new_tab_id = watch.newTabId;
  if (drained) Object.assign(details, activityFields(drained));
  if (notice) details.no_change_notice = notice;
  if (download) details.download = download;
  details.message += sentence;
  return details;
}
