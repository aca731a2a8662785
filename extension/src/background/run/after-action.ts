// What a page action set off, collected by one wait after the act. The signals an act can raise (a
// navigation of the tab, a new tab or popup, a download, the page settling) are registered BEFORE
// the act, so none is missed however fast it comes, and afterAction() waits once the act has
// answered: the navigation to its end, or the settle rule's quiet page (and its no-change watch).
// A download is read from its signal after that wait (page-action.ts), since whether to wait for
// one depends on how the navigation ended. The model is Playwright's
// FrameManager.waitForSignalsCreatedBy and its SignalBarrier (packages/playwright-core/src/server/
// frames.ts): the barrier exists around the action, and the wait after it covers what it started.
import type { ActionResultMessage } from '../../../../schemas/generated/protocol';
import { type Drained, SETTLE_CHANNEL, type SettleReport } from '../../shared/settle-messages';
import type { ChannelOutcome } from '../connection/content-channel';
import { DownloadWatch } from '../page-watch/downloads';
import { EXPECTS_CHANGE, noChangeNotice, settleSend, waitParams, watchInBackground } from '../page-watch/settle-rule';
import { type NavigationEnd, TabWatch } from '../page-watch/tab-watch';
import { latestState } from '../state/state-cache';
import { type ActionRun, ms, now } from './action-run';
import { mergeDrained } from './activity';

/** The signals of one act on one frame of a tab, and what they reported. Start before the act, stop() after. */
export class Signals {
  /** Navigation of the tab and a new tab it opened (chrome.webNavigation, chrome.tabs). */
  readonly watch: TabWatch;
  readonly downloads: DownloadWatch;
  /** The tab's state as the agent last saw it (taken before the act's own state replaces it). */
  readonly linkState: ReturnType<typeof latestState>;
  /** Whether the page settled (or the navigation loaded); undefined when nothing waited. */
  settled: boolean | undefined;
  report: SettleReport | undefined;
  drained: Drained | undefined;
  notice: string | undefined;
  navigationEnd: NavigationEnd | null = null;

  constructor(
    private readonly run: ActionRun,
    readonly tabId: number,
    readonly frameId: number,
  ) {
    this.watch = new TabWatch(tabId);
    this.downloads = new DownloadWatch();
    this.linkState = latestState(tabId);
  }

  stop(): void {
    this.watch.stop();
    this.downloads.stop();
  }

  /** The navigation the act started, to its end (or the navigation cap). */
  async followNavigation(): Promise<void> {
    const t = now();
    const end = await this.watch.waitForNavigationEnd(this.run.budget.cap(this.run.settle.navigation_cap_ms));
    this.navigationEnd = end;
    this.run.timings.navigation = ms((this.run.timings.navigation ?? 0) + now() - t);
    this.settled = end !== null;
  }

  /** A navigated document's log starts anew: what the new one did while loading. */
  async drainNewDocument(): Promise<void> {
    if (!this.watch.navigationStarted) return;
    const fresh = await settleSend(this.tabId, 0, { channel: SETTLE_CHANNEL, kind: 'drain' }, 500);
    if (fresh) this.drained = mergeDrained(this.drained, fresh.drained);
  }
}

/** An act the page answered (or that ran until the page unloaded), as opposed to one that ended the run. */
const answered = (x: object): x is { sent: ChannelOutcome } => 'sent' in x;

/** A result that ends the run: the act failed, or the page cut it short. */
export const isResult = (x: object): x is ActionResultMessage => 'type' in x && x.type === 'action_result';

/**
 * Runs the act inside the run's signals and waits once for what it set off. An act that ends
 * without a page's answer (a result, or a refusal: it failed, or was cut short) ends there: nothing is waited for. An act whose page
 * closed its port before answering (it unloaded) is followed to its navigation's end.
 */
export async function afterAction<R extends object>(run: ActionRun, signals: Signals, act: () => Promise<R>): Promise<R> {
  if (run.settle.enabled) await settleSend(signals.tabId, signals.frameId, { channel: SETTLE_CHANNEL, kind: 'begin' }, 1000);
  const acted = await act();
  if (!answered(acted)) return acted;
  if (!acted.sent.ok || signals.watch.navigationStarted) {
    await signals.followNavigation();
  } else if (run.settle.enabled) {
    await settleOrNavigate(run, signals);
    await watchForChange(run, signals);
  }
  if (signals.watch.navigationStarted && signals.settled === undefined) await signals.followNavigation();
  return acted;
}

/** The settle rule's wait, raced against a navigation the act starts meanwhile. */
async function settleOrNavigate(run: ActionRun, signals: Signals): Promise<void> {
  const { watch } = signals;
  const t = now();
  const capMs = run.budget.remaining();
  const waited = await Promise.race([
    settleSend(signals.tabId, signals.frameId, { channel: SETTLE_CHANNEL, kind: 'wait', params: waitParams(run.settle, capMs) }, capMs),
    watch.started().then(() => 'navigation' as const),
  ]);
  if (waited === 'navigation' && watch.navigationStarted) return signals.followNavigation();
  if (waited && waited !== 'navigation') {
    signals.report = waited.report;
    signals.drained = waited.drained;
    signals.settled = waited.report.settled;
    // As the worker saw it (the page measures from when the wait request arrived): the quiet
    // window counts from the last mutation, which the action itself usually causes.
    run.timings.dom_quiet = ms(Math.max(0, now() - t - waited.report.network_idle_ms));
    run.timings.network_idle = waited.report.network_idle_ms;
    return;
  }
  // navigationStarted is read again after the wait: it may have turned true meanwhile.
  if (watch.navigationStarted) return signals.followNavigation();
  // The page stopped answering because it is unloading: the navigation event comes a moment later.
  if ((await watch.waitForStartOrNewTab(run.budget.cap(300))) && watch.navigationStarted) return signals.followNavigation();
  run.timings.dom_quiet = ms(now() - t);
  signals.settled = false;
}

/** Nothing observable happened after an action that should change something: watch a while longer. */
async function watchForChange(run: ActionRun, signals: Signals): Promise<void> {
  const { settle, budget } = run;
  const { watch, report } = signals;
  const watchMs = budget.cap(settle.no_change_timeout_ms);
  const unchanged =
    report &&
    !report.effects &&
    !watch.navigated &&
    watch.newTabId === undefined &&
    EXPECTS_CHANGE.has(run.name) &&
    settle.no_change_timeout_ms > 0;
  if (!unchanged) return;
  if (!settle.blockOnNoChange) return watchInBackground(signals.tabId, signals.frameId, settle);
  const tw = now();
  const watched = await Promise.race([
    settleSend(
      signals.tabId,
      signals.frameId,
      { channel: SETTLE_CHANNEL, kind: 'watch', watch_ms: watchMs, params: waitParams(settle, budget.remaining()) },
      watchMs + 1000,
    ),
    watch.started().then(() => 'navigation' as const),
  ]);
  run.timings.no_change_watch = ms(now() - tw);
  if (watched === 'navigation') {
    if (watch.navigationStarted) await signals.followNavigation();
  } else if (watched) {
    signals.report = watched.report;
    signals.drained = mergeDrained(signals.drained, watched.drained);
    if (!watched.changed) signals.notice = noChangeNotice(watchMs);
    else signals.settled = watched.report.settled;
  }
}
