// The toolbar icon says the state at a glance, without opening the panel: not paired, the bridge
// out of reach (or refusing), connected with nothing at work (no badge), or how many agents are at
// work. The icon itself carries no state (it has no "live" dot): only this badge does, so it never
// looks connected when it is not. One home for the rule (badgeFor); it follows what the panel
// renders from (the connection status and the agents in chrome.storage.session), so the two agree.
import { workingCount } from '../../shared/agent-entries';
import { type AgentSessionInfo, type ConnectionState, type ConnectionStatus, PANEL_KEYS } from '../../shared/panel-messages';

export interface Badge {
  /** chrome.action badge text ('' shows none). */
  text: string;
  /** The badge's background colour. */
  color: string;
  /** The icon's tooltip, for the person hovering it (and screen readers). */
  title: string;
}

const GREY = '#5b6078';
const RED = '#c53030';
const WORKING = '#3b3fb6';

const PROBLEM: Readonly<Partial<Record<ConnectionState, string>>> = {
  unreachable: 'the bridge is not reachable',
  refused: 'the bridge refused the connection',
  secret_refused: 'the bridge refused the pairing secret',
  version_mismatch: 'the bridge and the extension speak different versions',
  rate_limited: 'the bridge blocks this browser for a moment',
};

/** The badge for a connection state and the bridge's latest sessions. */
export function badgeFor(state: ConnectionState | null, sessions: readonly AgentSessionInfo[]): Badge {
  const name = 'browser-use-ext';
  if (state === 'not_paired') return { text: '!', color: GREY, title: `${name}: not paired. Click to open the panel and pair.` };
  if (state === null || state === 'connecting') return { text: '…', color: GREY, title: `${name}: connecting to the bridge…` };
  const problem = PROBLEM[state];
  if (problem) return { text: '!', color: RED, title: `${name}: ${problem}. Click to see what to do.` };
  const n = workingCount(sessions);
  if (n === 0) return { text: '', color: WORKING, title: `${name}: connected, no agent at work. Click to give a task.` };
  return { text: String(n), color: WORKING, title: `${name}: ${n} agent${n === 1 ? '' : 's'} at work. Click to watch or stop.` };
}

let state: ConnectionState | null = null;
let sessions: readonly AgentSessionInfo[] = [];
let shown: Badge | null = null;

function apply(): void {
  const b = badgeFor(state, state === 'connected' ? sessions : []);
  if (shown && shown.text === b.text && shown.color === b.color && shown.title === b.title) return;
  shown = b;
  // The action API is absent where there is no toolbar (unit tests, a headless shell): the panel still says it all.
  const action = (globalThis as { chrome?: { action?: typeof chrome.action } }).chrome?.action;
  if (!action) return;
  void action.setBadgeBackgroundColor({ color: b.color }).catch(() => undefined);
  void action.setBadgeText({ text: b.text }).catch(() => undefined);
  void action.setTitle({ title: b.title }).catch(() => undefined);
}

function take(connection: unknown, agents: unknown): void {
  if (connection !== undefined) state = (connection as ConnectionStatus | null)?.state ?? null;
  if (agents !== undefined) sessions = Array.isArray(agents) ? (agents as AgentSessionInfo[]) : [];
  apply();
}

/** Keeps the badge on what storage says, from now on (registered synchronously from registerPanelRelay). */
export function followBadgeState(): void {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'session' || !(PANEL_KEYS.connection in changes || PANEL_KEYS.agents in changes)) return;
    take(
      PANEL_KEYS.connection in changes ? (changes[PANEL_KEYS.connection]?.newValue ?? null) : undefined,
      PANEL_KEYS.agents in changes ? (changes[PANEL_KEYS.agents]?.newValue ?? []) : undefined,
    );
  });
  // A worker that woke up again shows what was there before it slept.
  void chrome.storage.session
    .get([PANEL_KEYS.connection, PANEL_KEYS.agents])
    .then((got) => take(got[PANEL_KEYS.connection] ?? null, got[PANEL_KEYS.agents] ?? []))
    .catch(() => undefined);
}
