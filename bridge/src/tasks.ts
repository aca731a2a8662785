// Tasks a person submits in the extension: which agent session holds which task.
// user_task_submission goes to a session that said "accepts_tasks"; its task_progress goes back
// to the extension; task_control (stop/redirect) goes to the holding session.
export const FINAL_TASK_STATUSES = new Set(['done', 'incomplete', 'failed', 'stopped']);

export class TaskRegistry {
  private readonly holder = new Map<string, string>();
  private seq = 1;

  newId(): string {
    return `task-${Date.now().toString(36)}-${this.seq++}`;
  }

  assign(taskId: string, sessionId: string): void {
    this.holder.set(taskId, sessionId);
  }

  holderOf(taskId: string): string | null {
    return this.holder.get(taskId) ?? null;
  }

  /** Tasks held by a session (to fail them when the session ends). */
  heldBy(sessionId: string): string[] {
    return [...this.holder].filter(([, s]) => s === sessionId).map(([t]) => t);
  }

  finish(taskId: string): void {
    this.holder.delete(taskId);
  }

  get size(): number {
    return this.holder.size;
  }
}
