// The one reconnect schedule of the product: every link that dials again after a drop (the agent
// client, the connectors' backend link, the extension's bridge connection, the offscreen wake port)
// waits base, 2 x base, 4 x base, ... up to a cap, and starts over once a connection worked. Written
// once so that a fix (a cap, a jitter) reaches every side; it lives in schemas/lib because that is the
// only folder both the bridge and the extension may import (DEPS.json). Pure and clock-free: callers
// own their timers, tests inject the random source.

export interface BackoffOptions {
  /** The first delay (attempt 0), in ms. */
  baseMs: number;
  /** The longest delay, in ms: it wins over baseMs when smaller. */
  maxMs: number;
  /**
   * Spread of the random factor around the delay (0 = none; 0.5 = x0.75 to x1.25), so that several
   * clients of one bridge do not all knock at the same instant after a restart.
   */
  jitter?: number;
}

/** Delay before retry number `attempt` (0-based): min(base x 2^attempt, max), then jittered. */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const plain = Math.min(opts.baseMs * 2 ** Math.max(0, attempt), opts.maxMs);
  const jitter = opts.jitter ?? 0;
  return jitter > 0 ? plain * (1 - jitter / 2 + random() * jitter) : plain;
}

/** A backoff schedule with its attempt count: next() for each retry, reset() once a connection worked. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly opts: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next retry; each call moves one step up the schedule. */
  next(): number {
    return backoffDelay(this.attempt++, this.opts, this.random);
  }

  /** Back to the first (shortest) delay. */
  reset(): void {
    this.attempt = 0;
  }
}
