/// <reference types="chrome" />
// The last few states of each tab, so that get_state `since` can answer with a state_delta.
// Memory only: a restarted worker has none and answers full states (reason unknown_state),
// and state ids carry a per-run nonce so an id of an earlier run never names a state of this one.
// A tab's states are dropped when its top frame commits a new document (the refs start over there)
// and when the tab closes (closed-tabs.ts). Bounded: STATES_PER_TAB + ASKED_PER_TAB per tab, MAX_TABS tabs, MAX_ELEMENTS elements in all.
import type { ActionResultMessage, SimplifiedState, StateDelta } from '../../../../schemas/generated/protocol';
import { diffStates, jsonBytes } from '../../../../schemas/lib/state-delta';
import { forgetHeldFrame, forgetHeldTab } from './frame-hold';

const STATES_PER_TAB = 3;
/**
 * get_state answers are also kept apart, so the actions of one agent step do not push out the state the agent's next get_state is based on.
 */
const ASKED_PER_TAB = 2;
const MAX_TABS = 10;
const MAX_ELEMENTS = 100_000;
/** A delta must be smaller than this share of the full state, or the full state goes (it is simpler to use). */
const WORTH = 0.7;
const SMALL_DELTA_BYTES = 16_384;

type Reason = NonNullable<SimplifiedState['delta_unavailable']>['reason'];

interface Entry {
  id: string;
  state: SimplifiedState;
  asked: boolean;
}

const RUN = Math.random().toString(36).slice(2, 8);
let seq = 0;
/** tab -> its latest states, oldest first; Map order = least recently used tab first. */
const byTab = new Map<number, Entry[]>();
/** State ids dropped by a navigation, to say so (bounded). */
const navigatedAway = new Map<string, number>();

/** A top-frame navigation drops the tab's states (their ids are then answered as navigated away). Called by index.ts. */
export function installStateCache(): void {
  chrome.webNavigation.onCommitted.addListener((d) => {
    // The frames held for "same as last" (frame-hold.ts) were the old document's.
    forgetHeldFrame(d.tabId, d.frameId);
    if (d.frameId !== 0) return;
    for (const e of byTab.get(d.tabId) ?? []) navigatedAway.set(e.id, d.tabId);
    while (navigatedAway.size > 200) navigatedAway.delete(navigatedAway.keys().next().value as string);
    byTab.delete(d.tabId);
  });
}

/** Drops a closed tab's states (closed-tabs.ts). */
export function forgetTabStates(tabId: number): void {
  byTab.delete(tabId);
  forgetHeldTab(tabId);
}

/** The tab's newest kept state (downloads.ts: what the action's target was). */
export function latestState(tabId: number): SimplifiedState | undefined {
  const list = byTab.get(tabId);
  return list?.[list.length - 1]?.state;
}

/** How many states this tab has kept (closed-tabs.ts, tests). */
export function statesHeldFor(tabId: number): number {
  return byTab.get(tabId)?.length ?? 0;
}

/** Gives `state` its state_id and keeps it as a base for later deltas of the tab (asked: a get_state answer). */
export function rememberState(tabId: number, state: SimplifiedState, asked = false): string {
  const id = `${tabId}.${RUN}.${++seq}`;
  state.state_id = id;
  const list = byTab.get(tabId) ?? [];
  byTab.delete(tabId);
  list.push({ id, state, asked });
  // Evict the oldest beyond the limits: at most STATES_PER_TAB others plus ASKED_PER_TAB get_state answers.
  const keepAsked = new Set(list.filter((e) => e.asked).slice(-ASKED_PER_TAB));
  const keepRecent = new Set(list.slice(-STATES_PER_TAB));
  for (let i = list.length - 1; i >= 0; i--) {
    const e = list[i] as Entry;
    if (!keepAsked.has(e) && !keepRecent.has(e)) list.splice(i, 1);
  }
  byTab.set(tabId, list);
  while (byTab.size > MAX_TABS) byTab.delete(byTab.keys().next().value as number);
  let total = 0;
  for (const l of byTab.values()) for (const e of l) total += e.state.actionable_elements.length;
  // Over the element budget: drop the oldest states of the least recently used tabs, never the newest.
  for (const [t, l] of byTab) {
    while (total > MAX_ELEMENTS && l.length > 0 && !(t === tabId && l.length === 1))
      total -= (l.shift() as Entry).state.actionable_elements.length;
    if (l.length === 0) byTab.delete(t);
    if (total <= MAX_ELEMENTS) break;
  }
  return id;
}

export type StateAnswer = { state: SimplifiedState } | { delta: StateDelta };

/**
 * The answer to a get_state: the state itself, or with `since` the delta from that state when one
 * can be given and pays; otherwise the full state with delta_unavailable saying why. Remembers it.
 */
export function answerState(tabId: number, state: SimplifiedState, since: string | undefined): StateAnswer {
  rememberState(tabId, state, true);
  return since === undefined ? { state } : deltaFrom(tabId, state, since);
}

/** An action's result with its (already remembered) state turned into a delta against `since` (action.state_since). */
export function withStateDelta(result: ActionResultMessage, since: string): ActionResultMessage {
  const state = result.new_simplified_state;
  const tabId = state?.tab_id ?? result.tab_id;
  if (!state || tabId === undefined || state.state_id === undefined) return result;
  const answer = deltaFrom(tabId, state, since);
  if ('state' in answer) return { ...result, new_simplified_state: answer.state };
  const { new_simplified_state: _full, ...rest } = result;
  return { ...rest, state_delta: answer.delta };
}

function deltaFrom(tabId: number, state: SimplifiedState, since: string): StateAnswer {
  const id = state.state_id as string;
  const unavailable = (reason: Reason, message: string): StateAnswer => ({ state: { ...state, delta_unavailable: { reason, message } } });
  const base = byTab.get(tabId)?.find((e) => e.id === since);
  if (!base) {
    if (navigatedAway.has(since))
      return unavailable('navigated', `State ${since} belonged to a document the tab has left; this is the full state of the new one.`);
    for (const [t, l] of byTab)
      if (l.some((e) => e.id === since))
        return unavailable(
          'other_tab',
          `State ${since} is a state of tab ${t}, not of tab ${tabId}; this is the full state of tab ${tabId}.`,
        );
    return unavailable(
      'unknown_state',
      `The extension no longer holds state ${since} (it keeps the last ${STATES_PER_TAB} states of a tab and its last ${ASKED_PER_TAB} get_state answers, drops them on navigation, and forgets them when it restarts); this is the full state.`,
    );
  }
  const d = diffStates(base.state, state, since, id);
  if (!d.ok) return unavailable('not_representable', d.message);
  const deltaBytes = jsonBytes(d.delta);
  // Serializing a large full state only to compare costs more than it tells: a small delta of a
  // state with many elements always pays (an element is ~200 bytes or more on the wire).
  if (deltaBytes <= SMALL_DELTA_BYTES && state.actionable_elements.length * 200 * WORTH > deltaBytes) return { delta: d.delta };
  const fullBytes = jsonBytes(state);
  if (deltaBytes >= fullBytes * WORTH)
    return unavailable(
      'not_smaller',
      `The delta (${deltaBytes} bytes) would not be much smaller than the full state (${fullBytes} bytes).`,
    );
  return { delta: d.delta };
}

/** For tests and diagnostics: how many states are held per tab. */
export function heldStates(): Record<number, number> {
  return Object.fromEntries([...byTab].map(([t, l]) => [t, l.length]));
}
