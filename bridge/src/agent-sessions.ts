// What the person sees and controls of agent sessions: the bridge sends the extension an
// `agent_sessions` list (name, version, tabs held, tasks) whenever it changes, and acts on the
// extension's `session_control` (release a tab, disconnect an agent, cap tabs per agent). Generic
// over every kind of agent session: each is named by its hello.client.
// Also the rule for a re-run agent: when the tab it needs is held by a *disconnected* session of the
// same agent software from the same address (its crashed predecessor, kept for the resume grace
// period), the new session takes that session's tabs over instead of being refused.
import type {
  AgentSessionInfo,
  AgentSessionsMessage,
  BrowserInfo,
  ErrorInfo,
  SessionControlMessage,
} from '../../schemas/generated/protocol';
import { errorInfo } from '../../schemas/lib/wire';
import type { Session, SessionRegistry } from './sessions';
import type { TaskRegistry } from './tasks';

export function describeSessions(sessions: Session[], tasks: TaskRegistry, graceMs: number, now = Date.now()): AgentSessionInfo[] {
  return sessions.map((s) => ({
    session_id: s.id,
    client: s.client ?? { name: 'unknown agent', version: '?' },
    capabilities: [...s.capabilities],
    connected: s.connected,
    release_in_ms: s.connected || s.detachedAt === null ? null : Math.max(0, s.detachedAt + graceMs - now),
    tabs: [...s.tabs.values()].map((l) => ({ tab_id: l.tabId, url: l.url })),
    task_ids: tasks.heldBy(s.id),
    max_tabs: s.maxTabs,
    ...(s.parent ? { parent_session_id: s.parent.sessionId } : {}),
  }));
}

/**
 * Sessions in one agent_sessions message at most. The schema allows 1000, and a bridge past 1000
 * sessions used to send a message that failed its own schema, so the panel's list silently stopped
 * updating; the session caps keep the count far lower by default (64), but a raised cap or sessions
 * restored from disk must never break the list. 100 rows is more than a person reads.
 */
export const AGENT_SESSIONS_PAGE = 100;

/**
 * The page of sessions the person needs most, oldest first, and how many there are in all: those
 * holding tabs or running tasks (the panel's Release/Disconnect act on them), then connected ones
 * (an agent that accepts tasks before others: "Run with" picks from them), then sessions waiting to
 * be resumed with nothing held.
 */
export function pageOfSessions(all: AgentSessionInfo[], pageSize = AGENT_SESSIONS_PAGE): Pick<AgentSessionsMessage, 'sessions' | 'total'> {
  if (all.length <= pageSize) return { sessions: all, total: all.length };
  const rank = (s: AgentSessionInfo) =>
    s.tabs.length > 0 || s.task_ids.length > 0 ? 0 : s.connected ? (s.capabilities.includes('accepts_tasks') ? 1 : 2) : 3;
  const kept = all
    .map((s, i) => ({ s, i, r: rank(s) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .slice(0, pageSize)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s);
  return { sessions: kept, total: all.length };
}

/**
 * Sends agent_sessions to each connected browser's extension (its own agents, itself, the other
 * browsers) at most once per tick, and to each only when its list changed.
 */
export class SessionsPublisher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The last list sent, per browser. */
  private readonly last = new Map<string, string>();

  constructor(
    /** The browsers to tell (the connected ones). */
    private readonly targets: () => string[],
    private readonly build: (browserId: string) => AgentSessionsMessage,
    private readonly send: (browserId: string, m: AgentSessionsMessage) => boolean,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush(false);
    }, 25);
    this.timer.unref?.();
  }

  /** force: send even when unchanged (a newly connected extension). */
  flush(force: boolean): void {
    for (const target of this.targets()) {
      const m = this.build(target);
      // release_in_ms counts down by itself, and a window focus moves last_focused_at: compare without them.
      const unfocused = (b: BrowserInfo | undefined) => (b === undefined ? null : { ...b, last_focused_at: null });
      const key = JSON.stringify([
        m.total,
        m.sessions.map((s) => ({ ...s, release_in_ms: s.release_in_ms === null ? null : 'pending' })),
        unfocused(m.browser),
        (m.other_browsers ?? []).map(unfocused),
      ]);
      if (!force && key === this.last.get(target)) continue;
      if (this.send(target, m)) this.last.set(target, key);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** A person's tab cap applied to a session's own request (hello.max_tabs or the bridge default). */
export function cappedMaxTabs(requested: number, personCap: number | null): number {
  return personCap === null ? requested : Math.min(requested, personCap);
}

export type ControlOutcome =
  | { ok: true; kind: 'released'; session: Session; tabId: number; url: string | null }
  | { ok: true; kind: 'disconnect'; session: Session }
  | { ok: true; kind: 'tab_limit'; maxTabs: number | null }
  | { ok: false; error: ErrorInfo };

/**
 * Validates a session_control from browserId's extension against the registry; the server carries
 * the outcome out. A panel controls only the agents and tabs of its own browser.
 */
export function resolveControl(control: SessionControlMessage, registry: SessionRegistry, browserId: string): ControlOutcome {
  if (control.command === 'set_tab_limit') return { ok: true, kind: 'tab_limit', maxTabs: control.max_tabs ?? null };
  if (control.command === 'disconnect') {
    const session = registry.all().find((s) => s.id === control.session_id);
    if (session && session.browserId !== browserId)
      return {
        ok: false,
        error: errorInfo(
          'NOT_PERMITTED',
          `Agent session "${control.session_id}" works in another browser; only that browser's side panel can disconnect it.`,
          'bridge',
          { session_id: control.session_id ?? null },
        ),
      };
    if (!session)
      return {
        ok: false,
        error: errorInfo(
          'INVALID_MESSAGE',
          `No agent session "${control.session_id}" (it may have ended already). Refresh the agent list.`,
          'bridge',
          { session_id: control.session_id ?? null },
        ),
      };
    return { ok: true, kind: 'disconnect', session };
  }
  const tabId = control.tab_id ?? -1;
  const owner = registry.ownerOf(browserId, tabId);
  if (!owner || (control.session_id !== undefined && owner.id !== control.session_id)) {
    return {
      ok: false,
      error: errorInfo(
        'TAB_NOT_FOUND',
        `Tab ${tabId} is not held by ${control.session_id ? `session "${control.session_id}"` : 'any agent'}; nothing to release.`,
        'bridge',
        { tab_id: tabId },
      ),
    };
  }
  const url = owner.tabs.get(tabId)?.url ?? null;
  return { ok: true, kind: 'released', session: owner, tabId, url };
}

/**
 * The crashed predecessor rule: `holder` holds a tab `claimant` needs. When holder is disconnected
 * and is the same agent software from the same address, every tab of holder moves to claimant and
 * holder ends (returns true). Otherwise the caller refuses with holderDescription().
 */
export function takeOverFromPredecessor(registry: SessionRegistry, holder: Session, claimant: Session): boolean {
  if (holder === claimant || holder.connected || holder.browserId !== claimant.browserId) return false;
  if (!holder.client || !claimant.client || holder.client.name !== claimant.client.name || holder.remoteAddress !== claimant.remoteAddress)
    return false;
  const moved = [...holder.tabs.values()];
  for (const lease of moved) registry.release(holder.browserId, lease.tabId);
  registry.end(holder);
  for (const lease of moved) registry.lease(claimant, lease.tabId, lease.url);
  return true;
}

/** Who holds a tab, in words for a refused agent: name, state, and how the person can free it. */
export function holderDescription(holder: Session, graceMs: number, now = Date.now()): string {
  const name = holder.client ? `"${holder.client.name}" ${holder.client.version}` : 'another agent';
  if (holder.connected)
    return `It is held by agent ${name} (session ${holder.id}), which is connected. The person can release it in the extension's side panel (Agents -> release).`;
  const left = holder.detachedAt === null ? graceMs : Math.max(0, holder.detachedAt + graceMs - now);
  return `It is held by agent ${name} (session ${holder.id}), which disconnected without saying goodbye; the bridge keeps its tabs ${Math.ceil(left / 1000)} s more in case it resumes. Wait for that, release the tab in the extension's side panel, or re-run from the same program (the same agent software takes its predecessor's tabs over).`;
}
