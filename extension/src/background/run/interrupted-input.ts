// Acts the page cut short: what it means for an action when its document goes away before it answers.
// type, fill, press and send_keys report how much of their input went in (content script: progress
// messages on the port; trusted mode: the worker counts the keys it sent), and that count decides
// the result: everything went in, then the page navigated (Enter submitted a form) -> success with
// the navigation noted; the page navigated or its tab closed with keys still to type ->
// NAVIGATED_AWAY or TAB_NOT_FOUND with details {chars_typed, chars_total}, never success. A pointer
// action still waiting for its element, and an action whose answer comes from the page (get, is,
// wait_for...), fail the same way: nothing was done, or nothing was observed.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import type { InputProgress } from '../../shared/internal-messages';
import { parseChord } from '../../shared/keys';
import type { Tab } from '../actions/types';
import type { ChannelOutcome } from '../connection/content-channel';
import type { ActionRun, Refusal } from './action-run';
import type { Signals } from './after-action';

/** Actions whose input goes in piece by piece and can be cut short by the page. */
export const TYPING_ACTIONS = new Set<string>(['type', 'fill', 'press', 'send_keys']);

/**
 * Pointer actions whose content script says (progress 1 of 1) right before it dispatches the input.
 * When the page goes away without that word, the action was still waiting for its element (visible,
 * stable, enabled): nothing was clicked, so the answer is never "caused a navigation".
 */
export const POINTER_ACTIONS = new Set<string>(['click', 'double_click', 'check', 'uncheck', 'hover']);

/** The error for a pointer action the page left before its input went in. tab: the tab now (null: closed). */
export function notActedError(action: string, tabId: number, tab: { url?: string } | null, previousUrl: string | undefined): ErrorInfo {
  const details: Record<string, unknown> = { tab_id: tabId, action, acted: false, ...(previousUrl ? { previous_url: previousUrl } : {}) };
  if (!tab)
    return errorInfo(
      'TAB_NOT_FOUND',
      `Tab ${tabId} was closed while "${action}" was waiting for its element, before anything was done to it. Use another tab (list_tabs, switch_tab) or open one (open_tab).`,
      'background_script',
      details,
    );
  if (tab.url) details['current_url'] = tab.url;
  return errorInfo(
    'NAVIGATED_AWAY',
    `The page navigated away${tab.url && tab.url !== previousUrl ? ` (to ${tab.url})` : ''} while "${action}" was waiting for its element, before anything was done to it. Take a new state and act on the page as it is now.`,
    'background_script',
    details,
  );
}

/** How many characters (keys, for press and a send_keys chord) the action means to put in. */
export function inputTotal(action: string, params: unknown): number {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof p[key] === 'string' ? [...(p[key] as string)].length : 0);
  if (action === 'type') return text('text');
  if (action === 'fill') return text('value');
  if (action === 'press') return 1;
  if (action === 'send_keys') return typeof p['keys'] === 'string' && parseChord(p['keys'], false).ok ? 1 : text('keys');
  return 0;
}

/** What the page reported before it went away: null when nothing can be known (no port, no count). */
export function inputDone(
  action: string,
  params: unknown,
  sent: { progress?: InputProgress; tracked?: boolean },
): { done: number; total: number } | null {
  if (sent.tracked === false) return null;
  const total = sent.progress?.total ?? inputTotal(action, params);
  return { done: Math.min(sent.progress?.done ?? 0, total), total };
}

const unit = (action: string, total: number) =>
  action === 'press' || (action === 'send_keys' && total === 1) ? (total === 1 ? 'key' : 'keys') : 'characters';

/** The start of a success message when every key went in before the page navigated. */
export function allInBefore(action: string, total: number): string {
  return total === 1 && unit(action, total) === 'key' ? 'The key went in; then ' : `All ${total} ${unit(action, total)} went in; then `;
}

/**
 * The error for typing the page cut short. count null: the request went the old way (no port) and
 * the page could not say how far it got. tab: the tab now (null: closed).
 */
export function inputCutError(
  action: string,
  tabId: number,
  count: { done: number; total: number } | null,
  tab: { url?: string } | null,
  previousUrl: string | undefined,
): ErrorInfo {
  const how = count
    ? `${count.done} of ${count.total} ${unit(action, count.total)} went in`
    : 'it could not be told how many characters went in';
  const details: Record<string, unknown> = {
    tab_id: tabId,
    action,
    ...(count ? { chars_typed: count.done, chars_total: count.total } : {}),
    ...(previousUrl ? { previous_url: previousUrl } : {}),
  };
  if (!tab)
    return errorInfo(
      'TAB_NOT_FOUND',
      `Tab ${tabId} was closed while "${action}" was typing: ${how} before it closed, and the rest was not typed. Use another tab (list_tabs, switch_tab) or open one (open_tab), take a new state, and type the text again there.`,
      'background_script',
      details,
    );
  if (tab.url) details['current_url'] = tab.url;
  return errorInfo(
    'NAVIGATED_AWAY',
    `The page navigated away${tab.url && tab.url !== previousUrl ? ` (to ${tab.url})` : ''} while "${action}" was typing: ${how} before it left, and the rest was not typed. Take a new state: the field on the new page may be empty or partially filled; type what is missing there (or fill the whole value).`,
    'background_script',
    details,
  );
}

/**
 * Actions whose answer comes from the page: when the page goes away before answering, nothing was
 * observed, so they must fail (wait_for used to report "caused a navigation"
 * as success while its condition was never met).
 */
export const ANSWER_REQUIRED = new Set<string>(['wait_for', 'get', 'is', 'extract_content', 'get_dropdown_options', 'scroll_to_text']);

/** The error for an ANSWER_REQUIRED action whose page went away: TAB_NOT_FOUND or NAVIGATED_AWAY. */
export async function lostAnswer(
  action: string,
  tabId: number,
  urlBefore: string | undefined,
): Promise<{ error: ErrorInfo; tabGone: boolean }> {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab) {
    return {
      tabGone: true,
      error: errorInfo(
        'TAB_NOT_FOUND',
        `Tab ${tabId} was closed while "${action}" was running, so it has no answer (for wait_for: the condition was not met). Use another tab (list_tabs, switch_tab) or open one (open_tab).`,
        'background_script',
        { tab_id: tabId, action },
      ),
    };
  }
  return {
    tabGone: false,
    error: errorInfo(
      'NAVIGATED_AWAY',
      `The page navigated away${tab.url && tab.url !== urlBefore ? ` (to ${tab.url})` : ''} while "${action}" was running, so it has no answer (for wait_for: the condition was not met on the old page). Take a new state and decide again.`,
      'background_script',
      { tab_id: tabId, action, ...(urlBefore ? { previous_url: urlBefore } : {}), ...(tab.url ? { current_url: tab.url } : {}) },
    ),
  };
}

/**
 * Input the page cut short, never a success: typing with keys still to type when the page navigated
 * or its tab closed, or a pointer action the page left while it still waited for its element
 * (nothing was clicked). The error, given the tab as it is now (null: closed); null when not cut short.
 */
export function cutShort(
  run: ActionRun,
  tab: Tab,
  sent: ChannelOutcome,
  typed: ReturnType<typeof inputDone> | undefined,
): ((tabNow: chrome.tabs.Tab | null) => ErrorInfo) | null {
  if (typed !== undefined && (typed === null || typed.done < typed.total))
    return (tabNow) => inputCutError(run.name, tab.id, typed, tabNow, tab.url);
  if (!sent.ok && sent.tracked === true && POINTER_ACTIONS.has(run.name) && (sent.progress?.done ?? 0) === 0)
    return (tabNow) => notActedError(run.name, tab.id, tabNow, tab.url);
  return null;
}

/** The tab as it is once the page's going away shows (closed, or navigated and loaded), and the error for it. */
export async function waitCutShort(
  run: ActionRun,
  tab: Tab,
  signals: Signals,
  error: (tabNow: chrome.tabs.Tab | null) => ErrorInfo,
): Promise<Refusal> {
  const { watch } = signals;
  const lookUp = () => chrome.tabs.get(tab.id).catch(() => null);
  let tabNow = await lookUp();
  // The port can close a moment before the tab's removal or the navigation's start is visible.
  if (tabNow && !watch.navigationStarted && (await watch.waitForStartOrNewTab(run.budget.cap(300))) === false) tabNow = await lookUp();
  if (tabNow && watch.navigationStarted) await watch.waitForNavigationEnd(run.budget.cap(run.settle.navigation_cap_ms));
  tabNow = tabNow ? await lookUp() : null;
  return { error: error(tabNow), withState: tabNow !== null };
}
