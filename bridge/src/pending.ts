// One registry of in-flight actions per extension connection (puppeteer's CallbackRegistry idea):
// each entry owns its timer; when the extension drops, every entry fails at once instead of
// waiting for its own timeout.
export interface PendingEntry<T> {
  readonly id: string;
  readonly value: T;
  readonly startedAt: number;
}

export class PendingRegistry<T> {
  private readonly entries = new Map<string, { entry: PendingEntry<T>; timer: ReturnType<typeof setTimeout> }>();

  add(id: string, value: T, timeoutMs: number, onTimeout: (entry: PendingEntry<T>) => void): void {
    if (this.entries.has(id)) throw new Error(`duplicate pending id ${id}`);
    const entry: PendingEntry<T> = { id, value, startedAt: Date.now() };
    const timer = setTimeout(() => {
      this.entries.delete(id);
      onTimeout(entry);
    }, timeoutMs);
    this.entries.set(id, { entry, timer });
  }

  /** Removes and returns the entry, or undefined when it already settled (late answer). */
  take(id: string): PendingEntry<T> | undefined {
    const slot = this.entries.get(id);
    if (!slot) return undefined;
    clearTimeout(slot.timer);
    this.entries.delete(id);
    return slot.entry;
  }

  /** Removes every entry (for example on disconnect) and hands them to the caller to fail. */
  drain(): PendingEntry<T>[] {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const s of all) clearTimeout(s.timer);
    return all.map((s) => s.entry);
  }

  get size(): number {
    return this.entries.size;
  }
}
