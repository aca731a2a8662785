// The worker's half of the bridge's CDP endpoint: a CDP client (Playwright connectOverCDP, puppeteer,
// browser_use) drives the tabs it holds through chrome.debugger. cdp_attach attaches a tab
// (debugger-attachments.ts, shared with trusted input), every DevTools event of it then goes to the
// bridge as a cdp_event (Chrome's child sessions of out-of-process frames and workers included,
// with their sessionId), and a cdp_command relays one command (cdp-command.ts). The attachment ends
// with cdp_detach, the end of the tab's lease (the bridge's agent_sessions: released, Stop, the agent
// gone), or Chrome's own detach (the person cancelled the debugging bar, the tab closed), which the
// client learns as Inspector.detached. While a tab is attached Chrome keeps the worker alive (active
// chrome.debugger sessions extend an MV3 worker's life since Chrome 118).
import type { CdpEventMessage, ErrorInfo } from '../../../../schemas/generated/protocol';
import { POPUP_EVENT } from '../../../../schemas/lib/cdp-popup-event';
import { errorInfo } from '../../../../schemas/lib/errors';
import { isLocalUrl } from '../../shared/local-files';
import { maskedScreencastFrame } from './capture-mask';
import { onTabLeavesScope, passEvent, scopeAttached, scopeDetached, scopeForward } from './cdp-scope';
import { forgetClientInput } from './client-input';
import { endClientPresence } from './client-script-marks';
import { holdForRelay, onChromeDetached, relayHolds, relayTabs, releaseRelay } from './debugger-attachments';
import { addHeldTab } from './held-tab-rules';
import { nativeDialogsOff, nativeDialogsOn, nativeDialogsOnEvent } from './native-dialogs';
import { installPopupWatch } from './popup-watch';

const WS = 'background_script' as const;
/** storage.session: the tabs CDP clients hold, so a restarted worker can tell the bridge they are gone. */
const STORAGE_KEY = 'bux_cdp_tabs';

/** Sends a message to the bridge; false when not connected (nothing was sent). */
export type CdpSink = (message: CdpEventMessage) => boolean;
let sink: CdpSink = () => false;
let bridgeUp: () => boolean = () => false;

/** send: to the bridge; connected: whether the bridge connection is up now. */
export function setCdpSink(send: CdpSink, connected: () => boolean): void {
  sink = send;
  bridgeUp = connected;
}

/** The DevTools protocol's identifier fields (strings of hex or digits, never page text). */
const CDP_ID_FIELDS = new Set([
  'targetId',
  'sessionId',
  'frameId',
  'parentFrameId',
  'openerId',
  'openerFrameId',
  'parentId',
  'loaderId',
  'requestId',
  'interceptionId',
  'networkId',
  'objectId',
  'scriptId',
  'browserContextId',
  'uniqueId',
  'executionContextUniqueId',
  'workerId',
  'registrationId',
  'versionId',
  'session_id',
  'original_action_id',
  'callFrameId',
  'breakpointId',
  'styleSheetId',
  'guid',
]);

/**
 * Protocol identifiers and base64 bodies pass the privacy filter unchanged: a 32-hex-digit target or
 * session id holding 13 digits in a row that pass Luhn would otherwise be masked as a card number,
 * and the client would lose that target. Every other string is scrubbed as always.
 */
export const keepCdpField = (key: string, owner: Record<string, unknown>): boolean =>
  CDP_ID_FIELDS.has(key) ||
  // A Page.Frame names itself `id` (Page.getFrameTree, Page.frameNavigated): masked, puppeteer asked
  // for an isolated world in a frame that does not exist and its page never answered again.
  (key === 'id' && 'loaderId' in owner) ||
  (key === 'body' && owner['base64Encoded'] === true);

/**
 * The agent session holding each attached tab, as the bridge's leases (agent_sessions) named it. A
 * tab attached by a session's first action is leased only when its answer reaches the bridge, so a
 * lease update may come after the attach and still not name the tab: the holder is set by the first
 * update that names it, and only a later one that does not (or names another session) ends it.
 */
const holder = new Map<number, string>();
/**
 * Tabs attached since the last lease update that named their holder, and when (see attachRelay).
 * The bridge publishes leases within a second of any change, so after UNSETTLED_MS the guess is
 * settled and the usual rule applies (a later update that does not name the holder ends it).
 */
const unsettled = new Map<number, number>();
const UNSETTLED_MS = 5_000;
/** The latest lease update's owners (a tab leased before its attach is not named again after). */
let lastOwners: ReadonlyMap<number, string> = new Map();
/** A tab attached for a client but never seen leased (its answer was lost): detached after this long. */
const UNLEASED_MS = 10_000;

/**
 * Relays a held tab's DevTools events to the bridge and ends the relay when Chrome or the tab's scope
 * does. Called by the worker's entry (index.ts) synchronously at top level: MV3 wakes a stopped
 * worker only for listeners that exist when its script first runs.
 */
export function installCdpRelay(): void {
  installPopupWatch((openerTabId, params) => sink({ type: 'cdp_event', tab_id: openerTabId, method: POPUP_EVENT, params: { ...params } }));
  chrome.debugger.onEvent.addListener((source, method, params) => {
    const tabId = source.tabId;
    // Trusted input's own short attachments are not a client's: nothing of them leaves the worker.
    if (tabId === undefined || !relayHolds(tabId)) return;
    const p = (params ?? {}) as Record<string, unknown>;
    // Nothing of a page, frame or worker out of the client's scope reaches it (cdp-scope.ts).
    if (!passEvent(tabId, source.sessionId, method, p, scopeForward(tabId))) return;
    nativeDialogsOnEvent(tabId, method, p);
    relayEvent(tabId, source.sessionId, method, p);
  });
  // The tab started to show a page out of the client's scope (an extension page, chrome://, a local
  // file, a blocked site): the attachment ends before any command reaches that page, and the client
  // learns why from Inspector.detached (the bridge reports the page gone, and why, to the client).
  onTabLeavesScope((tabId, why) => {
    void detachRelay(tabId).then((was) => {
      if (was) sink({ type: 'cdp_event', tab_id: tabId, method: 'Inspector.detached', params: { reason: 'out_of_scope', message: why } });
    });
  });
  chrome.debugger.onDetach.addListener((source, reason) => {
    const tabId = source.tabId;
    if (tabId === undefined || !onChromeDetached(tabId)) return;
    scopeDetached(tabId);
    holder.delete(tabId);
    void remember();
    forgetClientInput(tabId);
    void endClientPresence(tabId);
    void nativeDialogsOff(tabId);
    sink({ type: 'cdp_event', tab_id: tabId, method: 'Inspector.detached', params: { reason } });
  });
}

/** One DevTools event of a held tab to the bridge (also the ones cdp-scope.ts makes up: a child session it took away). */
export function relayEvent(tabId: number, sessionId: string | undefined, method: string, params: Record<string, unknown>): void {
  // A screencast frame shows card numbers no more than a screenshot does (capture-mask.ts).
  if (method === 'Page.screencastFrame')
    return void maskedScreencastFrame(tabId, sessionId, params).then((p) => p && sinkEvent(tabId, sessionId, method, p));
  sinkEvent(tabId, sessionId, method, params);
}

function sinkEvent(tabId: number, sessionId: string | undefined, method: string, params: Record<string, unknown>): void {
  const event: CdpEventMessage = { type: 'cdp_event', tab_id: tabId, method, params };
  if (sessionId) event.session_id = sessionId;
  sink(event);
}

/** Attaches the tab for a CDP client (or keeps the attachment it has). url: what the tab shows. Throws Chrome's error. */
export async function attachRelay(tabId: number, url: string): Promise<void> {
  // The tab becomes a client's target (cdp_attach, once per client and tab) with nothing typed in it:
  // also when it passes from a client that just disconnected, before its detach (see below).
  forgetClientInput(tabId);
  if (await holdForRelay(tabId)) scopeAttached(tabId, url);
  await nativeDialogsOn(tabId);
  void addHeldTab(tabId);
  lost.delete(tabId);
  watch();
  // Until a lease update names the tab again, its holder is only a guess: the tab may have just
  // passed from a client that disconnected to this one (the update naming the new holder comes
  // after this attach's answer reached the bridge), or this session leased it before attaching
  // (then no later update names it again). The next update that names a holder settles it; one
  // that names none leaves it unsettled (the old holder's release), and the timer below lets go of
  // a tab nobody ever holds.
  unsettled.set(tabId, Date.now());
  const owner = lastOwners.get(tabId);
  if (owner !== undefined) holder.set(tabId, owner);
  else holder.delete(tabId);
  setTimeout(() => {
    if (relayHolds(tabId) && !holder.has(tabId)) void detachRelay(tabId);
  }, UNLEASED_MS);
  await remember();
}

/** Detaches the tab from the CDP client; false when no client held it. */
export async function detachRelay(tabId: number): Promise<boolean> {
  const held = await releaseRelay(tabId);
  scopeDetached(tabId);
  holder.delete(tabId);
  unsettled.delete(tabId);
  if (held) await remember();
  forgetClientInput(tabId);
  if (held) void endClientPresence(tabId);
  if (held) void nativeDialogsOff(tabId);
  return held;
}

/**
 * The bridge's leases changed (agent_sessions): a tab the session that held it holds no more
 * (released, Stop, the agent gone) is detached. complete: false when the bridge listed only a page
 * of its sessions (a tab missing from it may still be held).
 */
export async function onLeases(owners: ReadonlyMap<number, string>, complete = true): Promise<void> {
  lastOwners = owners;
  const ended: number[] = [];
  for (const tabId of relayTabs()) {
    const owner = owners.get(tabId);
    const was = holder.get(tabId);
    const since = unsettled.get(tabId);
    if (since !== undefined && Date.now() - since < UNSETTLED_MS) {
      if (owner === undefined) holder.delete(tabId);
      else {
        holder.set(tabId, owner);
        unsettled.delete(tabId);
      }
    } else if (was === undefined) {
      unsettled.delete(tabId);
      if (owner !== undefined) holder.set(tabId, owner);
    } else if (owner !== was && (owner !== undefined || complete)) ended.push(tabId);
  }
  await Promise.all(ended.map((tabId) => detachRelay(tabId)));
}

async function remember(): Promise<void> {
  await chrome.storage.session.set({ [STORAGE_KEY]: relayTabs() }).catch(() => undefined);
}

type LostReason = 'worker_restarted' | 'bridge_disconnected';
/** Inspector.detached notices waiting for the bridge: the worker restarted, or the bridge was gone. */
const notices: { tabId: number; reason: LostReason }[] = [];
/** Tabs a client held whose attachment the extension let go of, and why (until attached again). */
const lost = new Map<number, LostReason>();
/**
 * How long the bridge may be out of reach before the attachments are let go: every CDP client's
 * connection runs through the bridge, so while it is gone nobody uses them, and Chrome's debugging
 * bar must not stay. A client still there when the bridge is back learns it from Inspector.detached.
 */
const BRIDGE_GONE_MS = 10_000;
let bridgeDownSince: number | null = null;
let watching: ReturnType<typeof setInterval> | null = null;

/** Runs once a second while a tab is attached for a client or a notice waits; stops by itself. */
function watch(): void {
  watching ??= setInterval(() => void tick(), 1000);
}

async function tick(): Promise<void> {
  if (bridgeUp()) {
    bridgeDownSince = null;
    for (let n = notices[0]; n; n = notices[0]) {
      if (!sink({ type: 'cdp_event', tab_id: n.tabId, method: 'Inspector.detached', params: { reason: n.reason } })) break;
      notices.shift();
    }
  } else if (relayTabs().length > 0) {
    bridgeDownSince ??= Date.now();
    if (Date.now() - bridgeDownSince >= BRIDGE_GONE_MS)
      for (const tabId of relayTabs()) {
        notices.push({ tabId, reason: 'bridge_disconnected' });
        lost.set(tabId, 'bridge_disconnected');
        await detachRelay(tabId);
      }
  }
  if (watching && relayTabs().length === 0 && notices.length === 0) {
    clearInterval(watching);
    watching = null;
    bridgeDownSince = null;
  }
}

/**
 * A worker that starts again has lost its attachments' bookkeeping: each tab a client held is
 * detached and told gone (Inspector.detached, reason worker_restarted, once the bridge is reachable),
 * so the client attaches again instead of waiting for events that never come.
 */
async function afterRestart(): Promise<void> {
  const got = await chrome.storage.session.get(STORAGE_KEY).catch(() => ({}) as Record<string, unknown>);
  const tabs = (got as Record<string, unknown>)[STORAGE_KEY];
  if (!Array.isArray(tabs) || tabs.length === 0) return;
  await chrome.storage.session.remove(STORAGE_KEY).catch(() => undefined);
  for (const tabId of tabs.filter((t): t is number => typeof t === 'number' && !relayHolds(t))) {
    lost.set(tabId, 'worker_restarted');
    await chrome.debugger.detach({ tabId }).catch(() => undefined);
    void nativeDialogsOff(tabId);
    notices.push({ tabId, reason: 'worker_restarted' });
  }
  if (notices.length > 0) watch();
}
const restartChecked = afterRestart();

/**
 * Why a tab a client held is not attached, when the extension let go of it (its worker restarted, or
 * the bridge was gone): commands that reach the restarted worker before the client heard of it (they
 * waited in the bridge while the worker was away) are told so instead of a bare "not attached".
 */
export async function lostAttachment(tabId: number): Promise<string | null> {
  await restartChecked;
  const reason = lost.get(tabId);
  if (reason === undefined) return null;
  const why =
    reason === 'worker_restarted'
      ? "the extension's service worker restarted (Chrome stops idle workers) and its DevTools attachment of the tab ended with it"
      : 'the bridge was out of reach for 10 s, so the extension let go of the tab';
  return `Tab ${tabId} is no longer attached: ${why}. Your page was reported detached (Inspector.detached, reason ${reason}); the browser endpoint gives the tab back as a new target: use that one.`;
}

/** Chrome's refusal of chrome.debugger.attach, as the error the client gets. */
export function attachError(tabId: number, url: string | undefined, e: unknown): ErrorInfo {
  const why = e instanceof Error ? e.message : String(e);
  if (/already attached/i.test(why))
    return errorInfo(
      'NOT_PERMITTED',
      `Tab ${tabId} is already being debugged by DevTools or another extension, and Chrome lets only one of them attach. Close DevTools on that tab (or turn off the other debugging extension) and call cdp_attach again.`,
      WS,
      { reason: 'debugger_in_use', tab_id: tabId },
    );
  if (isLocalUrl(url))
    return errorInfo(
      'NOT_PERMITTED',
      `Chrome does not let the extension debug tab ${tabId}, a local file (${why}). The person can turn on "Allow access to file URLs" for browser-use-ext in chrome://extensions; otherwise work on a web page.`,
      WS,
      { reason: 'local_file', tab_id: tabId },
    );
  if (/cannot (access|attach)/i.test(why))
    return errorInfo(
      'RESTRICTED_PAGE',
      `Tab ${tabId} shows a page Chrome does not let extensions debug (${why}). Navigate it to a web page, or use another tab.`,
      WS,
      { tab_id: tabId, ...(url ? { current_url: url } : {}) },
    );
  return errorInfo(
    'OPERATION_FAILED_IN_TARGET',
    `Chrome could not attach the DevTools protocol to tab ${tabId}: ${why}. Retry cdp_attach.`,
    WS,
    {
      tab_id: tabId,
    },
  );
}
