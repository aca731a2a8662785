// Commands for one tab run one at a time, in arrival order: two actions racing on
// the same page would interleave their DOM effects and snapshots. Different tabs run in parallel.
export class TabQueues<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  get busy(): number {
    return this.tails.size;
  }
}
