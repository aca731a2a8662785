// The change push, worker side. An agent that asks get_state with watch true gets the tab's state
// pushed (state_update) when the page changes by itself, instead of polling for it: the frames watch
// their documents (content/change-watch.ts) and say when a change has settled; this takes the state
// with the parameters the agent gave and sends it to the bridge, which hands it only to the session
// holding the tab. Seed 002's no-change notice goes the same way as it falls due (reason no_change),
// once, so an agent waiting for news hears it within the seed's 15 s instead of at its next read.
// What is watched survives a stopped worker (storage.session); a tab leaves the watch when its hold
// ends (the bridge's agent_sessions no longer list it) or it closes.
import type { AgentSessionInfo, GetStateParams, StateUpdateMessage } from '../../../../schemas/generated/protocol';
import { CHANGE_CHANNEL, type ChangeObserveRequest, isChangeMessage } from '../../shared/change-messages';
import { onDeferredNotice, takeDeferredNotice } from '../page-watch/settle-rule';
import { scopeWhenRead } from '../policy/person-policy';
import { collectState } from '../state/collect';
import { rememberState } from '../state/state-cache';

const KEY = 'bux_change_push';

/** tab id -> the get_state parameters its pushes are taken with (the person's defaults applied). */
type Watched = Record<string, GetStateParams>;

type Sink = (m: StateUpdateMessage) => boolean;
let sink: Sink = () => false;

/** How pushes reach the bridge: false when there is no connection (the push is then dropped). */
export function setChangePushSink(send: Sink): void {
  sink = send;
}

async function load(): Promise<Watched> {
  const got = await chrome.storage.session.get(KEY).catch(() => ({}) as Record<string, unknown>);
  const v = got[KEY] as Watched | undefined;
  return v && typeof v === 'object' ? v : {};
}

let chain: Promise<unknown> = Promise.resolve();
/** Read-modify-write of the watched list, one at a time. */
function update(change: (w: Watched) => void): Promise<void> {
  const next = chain.then(async () => {
    const w = await load();
    change(w);
    await chrome.storage.session.set({ [KEY]: w });
  });
  chain = next.catch(() => undefined);
  return next;
}

function tellFrames(tabId: number, on: boolean, frameId?: number): void {
  const req: ChangeObserveRequest = { channel: CHANGE_CHANNEL, kind: 'observe', on };
  const p = frameId === undefined ? chrome.tabs.sendMessage(tabId, req) : chrome.tabs.sendMessage(tabId, req, { frameId });
  (p as Promise<unknown>).catch(() => undefined);
}

/** get_state with watch: true starts (or re-arms, after a navigation) the tab's push; false ends it. */
export async function setChangeWatch(tabId: number, watch: boolean, params: GetStateParams): Promise<void> {
  await update((w) => {
    if (watch) w[String(tabId)] = params;
    else delete w[String(tabId)];
  });
  tellFrames(tabId, watch);
}

/** The tab's hold ended or the tab closed: no more pushes for it. */
export async function endChangeWatch(tabId: number): Promise<void> {
  if (!(String(tabId) in (await load()))) return;
  await update((w) => delete w[String(tabId)]);
  tellFrames(tabId, false);
}

/** The bridge's list of agents and their tabs: a watched tab no agent holds any more leaves the watch. */
export async function endUnheldChangeWatches(sessions: readonly AgentSessionInfo[], total = sessions.length): Promise<void> {
  if (total > sessions.length) return; // a list cut short does not say which tabs are free
  const held = new Set(sessions.flatMap((s) => s.tabs.map((t) => String(t.tab_id))));
  for (const id of Object.keys(await load())) if (!held.has(id)) await endChangeWatch(Number(id));
}

/** The least time between the starts of two pushes of one tab (the first push of a change goes at once). */
const MIN_GAP_MS = 500;

/** Per tab: a push being taken, and the reason of a push asked for meanwhile (taken right after it). */
const inFlight = new Map<number, { next: StateUpdateMessage['reason'] | null }>();

async function push(tabId: number, reason: StateUpdateMessage['reason']): Promise<void> {
  const running = inFlight.get(tabId);
  if (running) {
    // Every push carries the state as it is then; a due notice must not give way to a later change.
    if (running.next !== 'no_change') running.next = reason;
    return;
  }
  const flight: { next: StateUpdateMessage['reason'] | null } = { next: reason };
  inFlight.set(tabId, flight);
  try {
    for (let r = flight.next; r !== null; r = flight.next) {
      flight.next = null;
      const started = Date.now();
      const params = (await load())[String(tabId)];
      if (params) await pushOnce(tabId, r, params);
      // A page that never stops (an animated ad frame) costs one state per MIN_GAP_MS, not one per change.
      if (flight.next !== null) await new Promise((done) => setTimeout(done, Math.max(0, started + MIN_GAP_MS - Date.now())));
    }
  } finally {
    inFlight.delete(tabId);
  }
}

async function pushOnce(tabId: number, reason: StateUpdateMessage['reason'], params: GetStateParams): Promise<void> {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  // A page out of the agent's reach is never sent (the tab guards refuse it; this is the push's own check).
  if (!tab?.url || (await scopeWhenRead(tab.url))) return;
  const s = await collectState(tabId, params);
  if (!s.ok) return;
  rememberState(tabId, s.state);
  const state = s.state;
  if (reason !== 'no_change') {
    sink({ type: 'state_update', tab_id: tabId, reason, state });
    return;
  }
  // The notice is taken only when it was sent: otherwise it stays for the tab's next result.
  takeDeferredNotice(tabId, (notice) => sink({ type: 'state_update', tab_id: tabId, reason, state, no_change_notice: notice }));
}

/** Worker entry (index.ts): the frames' change notes, re-arming a watched tab's new documents, due notices, closed tabs. */
export function installChangePush(): void {
  chrome.runtime.onMessage.addListener((message: unknown, sender) => {
    // Only our own content scripts send on this channel; a frame of a tab nobody watches is ignored.
    if (!isChangeMessage(message) || message.kind !== 'changed' || sender.id !== chrome.runtime.id) return false;
    const tabId = sender.tab?.id;
    if (tabId !== undefined) void push(tabId, 'mutation').catch(() => undefined);
    return false;
  });
  chrome.webNavigation.onDOMContentLoaded.addListener((d) => {
    void load().then((w) => {
      if (!(String(d.tabId) in w)) return;
      tellFrames(d.tabId, true, d.frameId);
      if (d.frameId === 0) void push(d.tabId, 'load').catch(() => undefined);
    });
  });
  onDeferredNotice((tabId) => void push(tabId, 'no_change').catch(() => undefined));
  chrome.tabs.onRemoved.addListener((tabId) => void endChangeWatch(tabId).catch(() => undefined));
}
