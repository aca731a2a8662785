// The client side of state deltas: keeps the last state per tab, passes its
// state_id as get_state `since`, and turns an answer's state_delta back into the full state
// (schemas/lib/state-delta.ts) so that renderers and callers always see whole states.
import type { ActionResultMessage, SimplifiedState } from '../../schemas/generated/protocol';
import { applyStateDelta, StateDeltaError } from '../../schemas/lib/state-delta';

export class StateTracker {
  private readonly last = new Map<number, SimplifiedState>();
  /** Tab of the last state seen: the session's current tab as far as this client knows. */
  lastTab: number | undefined;

  /** state_id to pass as since for this tab (default: the last tab a state came from). */
  sinceFor(tabId?: number): string | undefined {
    const t = tabId ?? this.lastTab;
    return t === undefined ? undefined : this.last.get(t)?.state_id;
  }

  /**
   * Takes note of an action_result: a full state replaces the tab's last one; a state_delta is
   * applied to it and the result comes back with new_simplified_state set to the whole new state
   * (state_delta kept, for byte counts). Throws StateDeltaError when the delta does not fit what
   * this client holds (then ask again without since).
   */
  absorb(r: ActionResultMessage): ActionResultMessage {
    const full = r.new_simplified_state;
    if (full) {
      const tab = full.tab_id ?? r.tab_id;
      if (tab !== undefined && full.state_id !== undefined) {
        this.last.set(tab, full);
        this.lastTab = tab;
      }
      return r;
    }
    const delta = r.state_delta;
    if (!delta) return r;
    const tab = r.tab_id;
    const base = tab === undefined ? undefined : this.last.get(tab);
    if (tab === undefined || !base)
      throw new StateDeltaError(
        `A state delta for tab ${String(tab)} arrived but this client holds no state of that tab: ask get_state without since.`,
      );
    const state = applyStateDelta(base, delta);
    this.last.set(tab, state);
    this.lastTab = tab;
    return { ...r, new_simplified_state: state };
  }

  /** Forget a tab (closed) or everything. */
  forget(tabId?: number): void {
    if (tabId === undefined) this.last.clear();
    else this.last.delete(tabId);
  }
}
