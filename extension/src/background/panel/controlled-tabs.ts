// Tabs an agent holds are visible to the person: each agent's tabs sit in a tab group
// titled with the agent's name, and the page shows the overlay "Agent is controlling this tab" with
// Stop (content/agent-ui.ts). Driven by the bridge's agent_sessions; released tabs leave the group
// and lose the overlay. Only groups this module made are touched (remembered in storage.session, so a
// restarted worker still knows them); a tab the person moved into their own group stays there.
// A CDP client's tabs get the group but never the overlay: the bar is a node in the page, and a CDP
// client reads the page whole (DOM with pierce, the accessibility tree, DOMSnapshot, evaluate,
// screenshots), where Chrome's own endpoint shows nothing of the kind. The person still sees the
// group, the side panel's entry with Disconnect, and Chrome's own "started debugging this browser" bar.
import type { AgentSessionInfo } from '../../../../schemas/generated/protocol';
import { agentEntries, entrySessions } from '../../shared/agent-entries';
import { cdpClientName, UI_CHANNEL, type UiRequest } from '../../shared/panel-messages';
import { onLeases } from '../cdp/cdp-relay';
import { endClientPresence } from '../cdp/client-script-marks';
import { relayTabs } from '../cdp/debugger-attachments';
import { setHeldTabs } from '../cdp/held-tab-rules';
import { setKeptStateTabs } from '../state/keep-state-arm';

const KEY = 'bux_controlled';
const COLORS = ['blue', 'purple', 'cyan', 'orange', 'pink', 'green', 'yellow', 'red'] as chrome.tabGroups.Color[];

interface Controlled {
  /** tab id -> session id, agent label and whether the page shows the overlay (absent: it does) */
  tabs: Record<string, { session: string; label: string; task: string | null; bar?: boolean }>;
  /** session id -> group id we created */
  groups: Record<string, number>;
}

/** Whether the pages of a session's tabs show the overlay: not a CDP client's. */
const showsBar = (s: AgentSessionInfo): boolean => cdpClientName(s.client.name) === null;

async function load(): Promise<Controlled> {
  const got = await chrome.storage.session.get(KEY);
  const v = got[KEY] as Controlled | undefined;
  return v && typeof v === 'object' ? v : { tabs: {}, groups: {} };
}

function tellTab(tabId: number, req: UiRequest): void {
  chrome.tabs.sendMessage(tabId, req, { frameId: 0 }).catch(() => undefined);
}

let chain: Promise<unknown> = Promise.resolve();

/** total: how many sessions the bridge holds (more than listed when the list was cut to one page). */
export function onAgentSessions(sessions: AgentSessionInfo[], total = sessions.length): Promise<unknown> {
  // A tab's lease ended (released, Stop, the agent gone): a CDP client's debugger leaves it at once.
  const owners = new Map(sessions.flatMap((s) => s.tabs.map((t) => [t.tab_id, s.session_id] as const)));
  void onLeases(owners, total <= sessions.length);
  // A cut-short list may leave a held tab out: the tabs a CDP client has attached stay in too.
  void setHeldTabs([...owners.keys(), ...relayTabs()]);
  // The kept page state arms in the tabs an agent holds, never a CDP client's (it reads the page whole).
  setKeptStateTabs(sessions.filter(showsBar).flatMap((s) => s.tabs.map((t) => t.tab_id)));
  chain = chain.then(() => apply(sessions)).catch((e: unknown) => console.warn('[browser-use-ext] controlled tabs update failed', e));
  return chain;
}

async function apply(sessions: AgentSessionInfo[]): Promise<void> {
  const state = await load();
  const next: Controlled['tabs'] = {};
  // Named as the side panel names the agent (one entry for a program and the session running its task),
  // and the task is the entry's: Stop in the page then stops that task, whichever of its sessions holds the tab.
  for (const e of agentEntries(sessions)) {
    const all = entrySessions(e);
    for (const s of all)
      for (const t of s.tabs)
        next[String(t.tab_id)] = {
          session: s.session_id,
          label: e.label,
          task: s.task_ids[0] ?? all.flatMap((x) => x.task_ids)[0] ?? null,
          bar: showsBar(s),
        };
  }
  // Released: out of our group, overlay off.
  for (const [id, was] of Object.entries(state.tabs)) {
    if (next[id]?.session === was.session) continue;
    const tabId = Number(id);
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (tab && tab.groupId !== -1 && tab.groupId === state.groups[was.session]) await chrome.tabs.ungroup(tabId).catch(() => undefined);
    if (tab) tellTab(tabId, { channel: UI_CHANNEL, kind: 'overlay', show: false });
    // Script the agent ran there ends with its hold (a CDP client's also when its debugger detaches: cdp-relay.ts).
    if (tab && !next[id]) void endClientPresence(tabId);
  }
  // Held: into the agent's group (created on first use), overlay on (off for a CDP client).
  for (const [id, now] of Object.entries(next)) {
    const tabId = Number(id);
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab) continue;
    // Only ungrouped tabs: never pull a tab out of a group the person made.
    if (tab.groupId === -1) {
      const group = state.groups[now.session];
      // chrome.tabs.group with a group of another window would move the tab there.
      const existing = group === undefined ? null : await chrome.tabGroups.get(group).catch(() => null);
      const reuse = existing && existing.windowId === tab.windowId ? existing.id : undefined;
      const gid = await chrome.tabs
        .group(reuse !== undefined ? { groupId: reuse, tabIds: tabId } : { tabIds: tabId, createProperties: { windowId: tab.windowId } })
        .catch(() => null);
      if (gid !== null && gid !== reuse) {
        state.groups[now.session] = gid;
        const color = COLORS[Object.keys(state.groups).length % COLORS.length];
        await chrome.tabGroups.update(gid, { title: `Agent: ${now.label}`, color }).catch(() => undefined);
      }
    }
    const was = state.tabs[id];
    if (!now.bar) {
      // A bar shown for the tab's previous holder goes (one a CDP client's attach found went then: barOffForClient).
      if (was && was.bar !== false) tellTab(tabId, { channel: UI_CHANNEL, kind: 'overlay', show: false });
    } else if (!was || was.session !== now.session || was.task !== now.task || was.label !== now.label || was.bar === false)
      tellTab(tabId, { channel: UI_CHANNEL, kind: 'overlay', show: true, agent: now.label, task: now.task });
  }
  // Groups of sessions that are gone are left to Chrome: an empty group disappears by itself.
  const live = new Set(sessions.map((s) => s.session_id));
  for (const sid of Object.keys(state.groups)) if (!live.has(sid)) delete state.groups[sid];
  await chrome.storage.session.set({ [KEY]: { tabs: next, groups: state.groups } satisfies Controlled });
}

/**
 * A tab an agent opens (open_tab) from a tab it holds joins that agent's group before the open is
 * answered. Grouped later (when the bridge's agent_sessions names the new lease) Chrome could move
 * it to the group's end after the agent had already listed the tabs: the same tab would then sit at
 * another index in the next list, and browser_use's page_id (the position in the tab strip) would
 * name another tab.
 */
export async function joinOpenersGroup(openerTabId: number, tabId: number): Promise<void> {
  // An update still being applied may be the one that makes the opener's group.
  await chain;
  const state = await load();
  const held = state.tabs[String(openerTabId)];
  const group = held ? state.groups[held.session] : undefined;
  if (group === undefined) return;
  const [opener, tab] = await Promise.all([chrome.tabs.get(openerTabId).catch(() => null), chrome.tabs.get(tabId).catch(() => null)]);
  // Only our group, and only in the new tab's own window (grouping across windows moves the tab).
  if (!opener || !tab || opener.groupId !== group || tab.groupId !== -1 || tab.windowId !== opener.windowId) return;
  await chrome.tabs.group({ groupId: group, tabIds: tabId }).catch(() => undefined);
}

/** A controlled tab loaded a new document: its overlay must be shown again. */
export async function onTabComplete(tabId: number): Promise<void> {
  const state = await load();
  const c = state.tabs[String(tabId)];
  if (c && c.bar !== false) tellTab(tabId, { channel: UI_CHANNEL, kind: 'overlay', show: true, agent: c.label, task: c.task });
}

/** How long a CDP client's attach waits at most for the page to take the overlay down (a page busy in a long script answers late). */
const BAR_OFF_WAIT_MS = 1000;

/**
 * A CDP client is about to attach the tab: an overlay shown there (the tab was held by another
 * agent before) leaves the page first, so no command of the client finds it and no DOM event of its
 * removal reaches it. A tab with no content script (nothing shown) answers at once.
 */
export async function barOffForClient(tabId: number): Promise<void> {
  const off: UiRequest = { channel: UI_CHANNEL, kind: 'overlay', show: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    chrome.tabs.sendMessage(tabId, off, { frameId: 0 }).catch(() => undefined),
    new Promise((r) => (timer = setTimeout(r, BAR_OFF_WAIT_MS))),
  ]);
  clearTimeout(timer);
}

/** Who controls a tab (for the overlay's Stop). */
export async function controllerOf(tabId: number): Promise<{ session: string; task: string | null } | null> {
  const c = (await load()).tabs[String(tabId)];
  return c ? { session: c.session, task: c.task } : null;
}
