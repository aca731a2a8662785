// What a session that refuses past its tab limit (TAB_LIMIT_REFUSES: CDP clients) is told when an
// action would take one tab more: the limit, that nothing was opened and nothing it holds was closed,
// and how to get room (close a page, or raise the limit where it was set). Chrome's own endpoint has
// no limit; ours must fail loudly, since a page that vanished to make room looks like a crash.
import type { ActionMessage, ErrorInfo } from '../../schemas/generated/protocol';
import { errorInfo } from '../../schemas/lib/wire';
import type { Session } from './sessions';

/** Actions that never take a tab: they only read or let go of what the session holds. */
const TAKES_NO_TAB = new Set<string>(['cdp_detach', 'list_tabs']);

/** The refusal when `action` on tabId (null: a tab yet to open, or the active one) would pass the limit; else null. */
export function tabLimitRefusal(session: Session, action: ActionMessage, tabId: number | null): ErrorInfo | null {
  if (TAKES_NO_TAB.has(action.action)) return null;
  const opens = action.action === 'open_tab';
  if (!session.refusesNewTab(opens ? null : tabId)) return null;
  const n = session.maxTabs;
  const cdpName = /^cdp:(.+)$/.exec(session.client?.name ?? '')?.[1];
  const raise =
    session.maxTabs < session.requestedMaxTabs
      ? `the person capped every agent at ${n} tabs in the extension's settings; only they can raise it there.`
      : cdpName !== undefined
        ? `have the person mint a URL with a higher limit: browser-use-ext cdp-url --name ${cdpName} --tabs ${Math.min(n + 1, 100)} --replace (it replaces this URL).`
        : 'connect with a higher hello.max_tabs.';
  return errorInfo(
    'NOT_PERMITTED',
    `Tab limit reached: this client already holds ${n} tab${n === 1 ? '' : 's'}, the most it may hold at once, so ${opens ? 'no tab was opened' : `tab ${String(tabId ?? 'active')} was not taken`} and nothing it holds was closed. Close a page you no longer need and try again, or ${raise}`,
    'bridge',
    { reason: 'tab_limit', max_tabs: n, ...(tabId !== null && !opens ? { tab_id: tabId } : {}) },
  );
}
