// One action's run, from its arrival to its answer. Made once when the action arrives, it holds what
// every phase needs (the action, its tab once known, the time budget, the settle rule, trusted
// input, the timings) and builds the result, so each phase takes the run instead of a growing list
// of loose parameters. The model is Playwright's server-side Progress, handed to every step of a
// call (packages/playwright-core/src/server/progress.ts).
import type {
  ActionMessage,
  ActionResultMessage,
  ErrorInfo,
  OutcomeDetails,
  SimplifiedState,
  StateDelta,
} from '../../../../schemas/generated/protocol';
import type { FrameSnapshot } from '../../shared/frame-snapshot';
import type { Tab } from '../actions/types';
import type { Budget } from '../page-watch/budget';
import type { ResolvedSettle } from '../page-watch/settle-rule';
import { withStateDelta } from '../state/state-cache';

export type Timings = NonNullable<OutcomeDetails['timings_ms']>;

export const now = () => performance.now();
/** Durations on the wire: ms with 0.01 resolution. Never negative: phases measured inside handlers are rounded. */
export const ms = (d: number) => Math.max(0, Math.round(d * 100) / 100);

/** The tab's state for a result, or null (a closed tab, a restricted page). knownUrl: the tab's URL
 * when the caller knows it has not changed (saves a tabs.get on the hot path). */
export type StateReader = (tabId: number, knownUrl?: string, topSnapshot?: FrameSnapshot) => Promise<SimplifiedState | null>;

/** A failure of an act. withState: the tab is still there, and its state goes with the error (failOnTab). */
export interface Refusal {
  error: ErrorInfo;
  withState: boolean;
}

export interface RunSetup {
  /** What is left of the action's timeout_ms. */
  budget: Budget;
  /** The caller's settle options over the person's defaults. */
  settle: ResolvedSettle;
  /** Pointer and keyboard input go through chrome.debugger Input.* (trusted events). */
  trusted: boolean;
  readState: StateReader;
  /** performance.now() when the action arrived (default: now). */
  started?: number;
}

export class ActionRun {
  readonly budget: Budget;
  readonly settle: ResolvedSettle;
  readonly trusted: boolean;
  started: number;
  /** timings_ms of the result, filled by the phases as they go. */
  timings: Timings = {};
  /** The tab the action runs on, once its lookup said yes. */
  tab: Tab | undefined;
  private readonly readState: StateReader;

  constructor(
    readonly action: ActionMessage,
    setup: RunSetup,
  ) {
    this.budget = setup.budget;
    this.settle = setup.settle;
    this.trusted = setup.trusted;
    this.readState = setup.readState;
    this.started = setup.started ?? now();
  }

  get name(): ActionMessage['action'] {
    return this.action.action;
  }

  get params(): unknown {
    return this.action.params;
  }

  /** Another attempt of the same action (a read run again on a new document): its own timings and tab lookup, the same budget. */
  again(): this {
    this.started = now();
    this.timings = {};
    this.tab = undefined;
    return this;
  }

  /** The answer the caller gets: with state_since, the state after the action as a delta (get_state uses params.since). */
  answer(result: ActionResultMessage): ActionResultMessage {
    const since = this.action.state_since;
    return since === undefined || this.name === 'get_state' ? result : withStateDelta(result, since);
  }

  /** The error result; state: the tab's state after the failure, when there is one. */
  fail(error: ErrorInfo, state: SimplifiedState | null = null, tabId?: number): ActionResultMessage {
    return {
      ...this.head(),
      ...(tabId === undefined ? {} : { tab_id: tabId }),
      status: 'error',
      outcome_details: null,
      new_simplified_state: state,
      error_info: error,
    };
  }

  /** The error result on the run's tab; withState: with the tab's state after the failure. */
  async failOnTab(error: ErrorInfo, withState = true): Promise<ActionResultMessage> {
    const tabId = this.tab?.id;
    return this.fail(error, withState ? await this.stateOrNull(tabId) : null, tabId);
  }

  /** The success result; state: the tab's state, or (get_state since) the delta from an earlier one. */
  success(details: OutcomeDetails, state: SimplifiedState | null | { delta: StateDelta }, tabId: number): ActionResultMessage {
    const ok = { ...this.head(), tab_id: tabId, status: 'success', outcome_details: details } as const;
    if (state && 'delta' in state) return { ...ok, error_info: null, state_delta: state.delta };
    return { ...ok, new_simplified_state: state, error_info: null };
  }

  /** The tab's state for a result (StateReader), or null without a tab. */
  async stateOrNull(tabId: number | null | undefined, knownUrl?: string, topSnapshot?: FrameSnapshot): Promise<SimplifiedState | null> {
    if (tabId === null || tabId === undefined) return null;
    return this.readState(tabId, knownUrl, topSnapshot);
  }

  /** total, and the wall-clock receive/send stamps a caller uses to split its round trip into hops. */
  stamp(): Timings {
    const end = now();
    this.timings.total = ms(end - this.started);
    this.timings.received_at = ms(performance.timeOrigin + this.started);
    this.timings.sent_at = ms(performance.timeOrigin + end);
    return this.timings;
  }

  /** Every result starts with these keys, in this order (the bridge relays the bytes: bridge/src/raw-relay.ts). */
  private head() {
    return { type: 'action_result' as const, original_action_id: this.action.action_id, action: this.action.action };
  }
}
