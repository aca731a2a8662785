// The settle rule, worker side (README "Settle rule"). After an action:
//   - a navigation of the top frame started  -> wait for it to load (navigation_cap_ms);
//   - otherwise, in the acting frame          -> DOM quiet for quiet_ms (dom_cap_ms) and no fetch/XHR
//                                                in flight (network_cap_ms), see content/settle.ts;
//   - nothing observable happened at all after an action that should change something
//                                              -> watch for a first change up to no_change_timeout_ms,
//                                                then report seed 002's notice.
// Every wait is also capped by the action's budget (budget.ts), so nothing hangs.
import type { SettleOptions } from '../../../../schemas/generated/protocol';
import { type Drained, SETTLE_CHANNEL, type SettleRequest, type SettleResponse, type SettleWaitParams } from '../../shared/settle-messages';
import { withTimeout } from './budget';

/** blockOnNoChange: the caller (action settle or stored settings) set no_change_timeout_ms itself. */
export type ResolvedSettle = Required<SettleOptions> & { blockOnNoChange: boolean };

export const SETTLE_DEFAULTS: ResolvedSettle = {
  enabled: true,
  quiet_ms: 100,
  dom_cap_ms: 3000,
  network_cap_ms: 5000,
  navigation_cap_ms: 10_000,
  no_change_timeout_ms: 15_000,
  blockOnNoChange: false,
};

/** Pointer and keyboard actions: a person doing them expects the page to react. */
export const EXPECTS_CHANGE = new Set<string>([
  'click',
  'double_click',
  'press',
  'send_keys',
  'drag_and_drop',
  'check',
  'uncheck',
  'select_option',
]);

export const NO_CHANGE_NOTICE_15S = 'Action executed but no DOM change detected within 15 seconds.';

export function noChangeNotice(ms: number): string {
  return ms === 15_000 ? NO_CHANGE_NOTICE_15S : `Action executed but no DOM change detected within ${Math.round(ms / 100) / 10} seconds.`;
}

/** chrome.storage.local key: the person's (or a test's) SettleOptions, under the action message's own `settle`. */
export const SETTLE_OPTIONS_KEY = 'settle_options';

/**
 * Defaults < chrome.storage.local settle_options < the action message's settle.
 * The no-change watch: by default an action answers as soon as the page has
 * settled, and the watch for a first change goes on in the background; when no_change_timeout_ms
 * passes with no change, the seed 002 notice rides on the tab's next result (takeDeferred). A caller
 * that sets no_change_timeout_ms itself (the seed 002 flow wanting the notice in the action's own
 * result) gets the blocking watch: the result waits for the first change or the notice.
 */
export function resolveSettle(stored: unknown, options: SettleOptions | undefined): ResolvedSettle {
  const fromStorage = typeof stored === 'object' && stored !== null ? (stored as SettleOptions) : {};
  const blockOnNoChange = fromStorage.no_change_timeout_ms !== undefined || options?.no_change_timeout_ms !== undefined;
  return { ...SETTLE_DEFAULTS, ...fromStorage, ...(options ?? {}), blockOnNoChange };
}

/** Per tab: the seed 002 notice (and the activity drained with it) from a background watch. */
const deferred = new Map<number, { notice: string | null; drained: Drained }>();

/** Starts the no-change watch without holding the action's result (see resolveSettle). */
export function watchInBackground(tabId: number, frameId: number, s: ResolvedSettle): void {
  const watchMs = s.no_change_timeout_ms;
  void settleSend(
    tabId,
    frameId,
    { channel: SETTLE_CHANNEL, kind: 'watch', watch_ms: watchMs, params: waitParams(s, s.dom_cap_ms + s.network_cap_ms) },
    watchMs + s.dom_cap_ms + s.network_cap_ms + 1000,
  ).then((w) => {
    if (!w || (w as { superseded?: boolean }).superseded) return;
    const prev = deferred.get(tabId);
    const drained = prev
      ? {
          api_activity: [...prev.drained.api_activity, ...w.drained.api_activity].slice(-50),
          dialogs: [...prev.drained.dialogs, ...w.drained.dialogs],
          dialog_count: prev.drained.dialog_count + w.drained.dialog_count,
          pending: w.drained.pending,
        }
      : w.drained;
    deferred.set(tabId, { notice: w.changed ? (prev?.notice ?? null) : noChangeNotice(watchMs), drained });
    if (!w.changed) noticeListener?.(tabId);
  });
}

let noticeListener: ((tabId: number) => void) | undefined;

/** Called when a background watch leaves a notice (run/change-push.ts pushes it to an agent that watches). */
export function onDeferredNotice(listener: (tabId: number) => void): void {
  noticeListener = listener;
}

/** Hands the tab's due notice to send; taken only when send says it went (the activity stays for the next result). */
export function takeDeferredNotice(tabId: number, send: (notice: string) => boolean): void {
  const d = deferred.get(tabId);
  if (d?.notice && send(d.notice)) d.notice = null;
}

/** Drops what a background watch left for a closed tab (closed-tabs.ts). */
export function forgetDeferred(tabId: number): void {
  deferred.delete(tabId);
}

/** Whether a background watch left something for this tab's next result (closed-tabs.ts, tests). */
export function deferredHeldFor(tabId: number): number {
  return deferred.has(tabId) ? 1 : 0;
}

/** The notice and activity a background watch left for this tab's next result (taken once). */
export function takeDeferred(tabId: number): { notice: string | null; drained: Drained } | undefined {
  const d = deferred.get(tabId);
  deferred.delete(tabId);
  return d;
}

export function waitParams(s: ResolvedSettle, capMs: number): SettleWaitParams {
  return {
    quiet_ms: s.quiet_ms,
    dom_cap_ms: Math.min(s.dom_cap_ms, capMs),
    network_cap_ms: Math.max(0, Math.min(s.network_cap_ms, capMs - Math.min(s.dom_cap_ms, capMs))),
  };
}

const NO_RECEIVER = /Receiving end does not exist|Could not establish connection/i;

/**
 * Sends a settle request to one frame. null when the frame cannot answer (navigated away, restricted,
 * no script) or did not answer within timeoutMs: settling then reports what the worker saw itself.
 * Tabs open before the extension was installed get the two document_start scripts injected late.
 */
export async function settleSend<K extends SettleRequest['kind']>(
  tabId: number,
  frameId: number,
  request: Extract<SettleRequest, { kind: K }>,
  timeoutMs: number,
): Promise<Extract<SettleResponse, { kind: K }> | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const p = chrome.tabs.sendMessage(tabId, request, { frameId }) as Promise<unknown>;
      const r = await withTimeout(p, timeoutMs, null);
      if (r && typeof r === 'object' && (r as { ok?: unknown }).ok === true) return r as Extract<SettleResponse, { kind: K }>;
      return null;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (attempt > 0 || !NO_RECEIVER.test(why)) return null;
      try {
        await chrome.scripting.executeScript({
          target: { tabId, frameIds: [frameId] },
          files: ['main-hooks.js'],
          world: 'MAIN',
          injectImmediately: true,
        });
        await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ['early.js'], injectImmediately: true });
      } catch {
        return null;
      }
    }
  }
  return null;
}
