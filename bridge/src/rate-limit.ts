// Failed-handshake limiter per remote address: after `maxFailures` failures within `windowMs`,
// further handshakes from that address are refused with RATE_LIMITED until the window passes.
// Guessing a 256-bit secret is hopeless anyway; this keeps a hostile local process from burning
// CPU and filling logs.
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly maxFailures = 10,
    readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Milliseconds until `key` may try again, or 0 when it may now. */
  retryAfterMs(key: string): number {
    const list = this.recent(key);
    if (list.length < this.maxFailures) return 0;
    return Math.max(1, (list[list.length - this.maxFailures] ?? 0) + this.windowMs - this.now());
  }

  recordFailure(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
  }
}
