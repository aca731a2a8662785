// A session opened to carry out another session's task (hello.task_id): `serve` and the built-in agent
// take the person's task on one session and drive the tabs on a second one. The person must see one
// agent with its task, and Stop must be final: so the bridge links the second session to the first
// (AgentSessionInfo.parent_session_id) and ends it when the task or the first session ends, whatever
// the agent program does next.
import type { Session, SessionRegistry } from './sessions';
import type { TaskRegistry } from './tasks';

/**
 * The session that holds taskId, when `child` may be linked to it: the holder is another session of the
 * same browser, connected, and not itself a task's child. Both proved the bridge's one agent secret (the
 * handshake refuses any other), so a session of another pairing can never claim a task. null: the
 * child stands alone (the schema's "ignored").
 */
export function taskParent(child: Session, taskId: string | undefined, tasks: TaskRegistry, sessions: SessionRegistry): Session | null {
  if (!taskId || child.browserId === null) return null;
  const holderId = tasks.holderOf(taskId);
  if (holderId === null || holderId === child.id) return null;
  const holder = sessions.all().find((s) => s.id === holderId);
  if (!holder || !holder.connected || holder.browserId !== child.browserId || holder.parent !== null) return null;
  return holder;
}

/** Links child under parent for taskId (or unlinks it: parent null). */
export function linkToTask(child: Session, parent: Session | null, taskId: string | undefined): void {
  child.parent = parent === null || !taskId ? null : { sessionId: parent.id, taskId };
}

/** The sessions carrying out taskId (when given) or any task of parentId. */
export function childrenOf(sessions: SessionRegistry, parentId: string, taskId?: string): Session[] {
  return sessions.all().filter((s) => s.parent?.sessionId === parentId && (taskId === undefined || s.parent.taskId === taskId));
}
