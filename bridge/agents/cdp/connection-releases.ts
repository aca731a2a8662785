// The tabs a closed CDP connection held are let go of asynchronously (the emulator detaches them and
// ends its agent session). A client that reconnects at once, as Chrome's own endpoint lets it, must
// find those tabs free again, not "held by another client": a new connection of the same URL waits
// for the releases still under way, bounded so a stuck release never blocks a new client for long.

/** Releases under way, by CDP URL name. */
export class ConnectionReleases {
  private readonly pending = new Map<string, Set<Promise<void>>>();

  constructor(private readonly maxWaitMs: number) {}

  /** Notes a release of `name`'s connection; the returned promise settles with it. */
  track(name: string, release: Promise<void>): Promise<void> {
    const set = this.pending.get(name) ?? new Set<Promise<void>>();
    this.pending.set(name, set);
    const done = release.finally(() => {
      set.delete(done);
      if (set.size === 0 && this.pending.get(name) === set) this.pending.delete(name);
    });
    set.add(done);
    return done;
  }

  /** Resolves once the releases of `name` under way now have settled, or after maxWaitMs. */
  async settled(name: string): Promise<void> {
    const set = this.pending.get(name);
    if (!set?.size) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, this.maxWaitMs)));
    await Promise.race([Promise.allSettled([...set]), late]);
    clearTimeout(timer);
  }
}
