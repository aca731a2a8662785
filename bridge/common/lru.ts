// A small bounded map that forgets the least recently used entry first (Map keeps insertion order).
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.map.delete(oldest.value);
    }
  }

  /** Replaces a value in place, keeping its recency (no-op when absent). */
  update(key: K, fn: (v: V) => V): void {
    const v = this.map.get(key);
    if (v !== undefined) this.map.set(key, fn(v));
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  get size(): number {
    return this.map.size;
  }
}
