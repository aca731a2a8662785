// Worker-side action handlers: one module per action, registered in registry.ts. They run in the
// service worker with chrome.* APIs; expected failures are returned as values with a typed error.
import type { ErrorInfo, OutcomeDetails } from '../../../../schemas/generated/protocol';
import type { Budget } from '../page-watch/budget';
import type { ResolvedSettle } from '../page-watch/settle-rule';

export type Tab = chrome.tabs.Tab & { id: number };

export interface WorkerContext {
  /** The tab the action message targets (tab_id, or the active tab). */
  tab: Tab;
  budget: Budget;
  settle: ResolvedSettle;
}

export type WorkerOutcome =
  | {
      ok: true;
      message: string;
      result: Record<string, unknown>;
      /** Tab whose state goes into new_simplified_state (default: ctx.tab); null = no state. */
      stateTabId?: number | null;
      navigation_occurred?: boolean;
      new_tab_id?: number;
      settled?: boolean;
      /** ms spent waiting for a navigation to load. */
      navigation_ms?: number;
      /** The file a navigation turned into (outcome_details.download). */
      download?: OutcomeDetails['download'];
    }
  | { ok: false; error: ErrorInfo; stateTabId?: number | null };

export type WorkerHandler = (ctx: WorkerContext, params: never) => Promise<WorkerOutcome>;

/** Pages no extension may script: the handler refuses instead of failing obscurely. */
export const WS = 'background_script' as const;
