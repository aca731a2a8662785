// One agent as the person knows it, from the bridge's sessions. A program that carries out a task
// in a session of its own (`serve` runs each task in a browser_use session; the bridge links it to
// the session holding the task with parent_session_id) is one agent, not two: the side panel lists
// it once, the toolbar badge counts it once and the in-page bar names it as the panel does. Older
// bridges and agents send no parent_session_id: every session then stands alone.
import { agentLabel } from './agent-names';
import type { AgentSessionInfo } from './panel-messages';

export interface AgentEntry {
  /** The session that stands for the entry: the one that took the person's task (the parent), or the session itself. */
  head: AgentSessionInfo;
  /** Sessions carrying out the head's tasks, in the bridge's order. */
  children: AgentSessionInfo[];
  /** "browser_use agent · gpt-4o": the child's client when one runs a task (the program at work), else the head's. */
  label: string;
}

/** A session is at work while it holds a tab or runs a task. */
export const isWorking = (s: AgentSessionInfo): boolean => s.connected && (s.tabs.length > 0 || s.task_ids.length > 0);

/** The bridge's sessions folded into agents, in the bridge's order (a child sits in its parent's entry).
 * A child whose parent is not listed (a list cut to one page) stands alone. */
export function agentEntries(sessions: readonly AgentSessionInfo[]): AgentEntry[] {
  const ids = new Set(sessions.map((s) => s.session_id));
  const parentOf = (s: AgentSessionInfo): string | null => {
    const p = s.parent_session_id;
    return typeof p === 'string' && p !== s.session_id && ids.has(p) ? p : null;
  };
  const entries = new Map<string, AgentEntry>();
  for (const s of sessions) if (parentOf(s) === null) entries.set(s.session_id, { head: s, children: [], label: agentLabel(s.client) });
  for (const s of sessions) {
    const p = parentOf(s);
    // A parent that is itself a child (never sent by the bridge) would hide the entry: the child stands alone then.
    const entry = p === null ? undefined : entries.get(p);
    if (p === null) continue;
    if (!entry) {
      entries.set(s.session_id, { head: s, children: [], label: agentLabel(s.client) });
      continue;
    }
    entry.children.push(s);
  }
  for (const e of entries.values()) e.label = entryLabel(e);
  return [...entries.values()];
}

/** The child at work names the entry; it inherits the head's model when it did not say its own. */
function entryLabel(e: AgentEntry): string {
  const child = e.children.find((c) => c.connected) ?? e.children[0];
  if (!child) return agentLabel(e.head.client);
  const model = child.client.model ?? e.head.client.model;
  return agentLabel({ ...child.client, ...(model ? { model } : {}) });
}

/** Every session of the entry, head first. */
export const entrySessions = (e: AgentEntry): AgentSessionInfo[] => [e.head, ...e.children];

/** How many agents are at work (an entry counts once however many of its sessions hold tabs). */
export function workingCount(sessions: readonly AgentSessionInfo[]): number {
  return agentEntries(sessions).filter((e) => entrySessions(e).some(isWorking)).length;
}

/** The label of the entry a session belongs to: what the panel and the in-page bar call it. */
export function labelOfSession(sessions: readonly AgentSessionInfo[], sessionId: string): string | null {
  const e = agentEntries(sessions).find((x) => entrySessions(x).some((s) => s.session_id === sessionId));
  return e ? e.label : null;
}
