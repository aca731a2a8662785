// Slowing down secret guessing without ever locking the person out.
//
// The old limiter refused every handshake from an address after 10 failures, so any local program
// could lock the real extension and agents out for a minute, while guesses spread over 127.x.y.z
// were never limited at all. Now:
//   - a correct proof is never delayed and never refused, whatever anybody else did;
//   - a failing proof is answered late: failures of one role share one token bucket (global, not
//     keyed on the address, so 127.x.y.z spreads do not help), `burst` answers at once, then one per
//     `intervalMs`. A guesser learns "wrong" no faster than that, however many connections it opens;
//   - a failure whose turn would come after its connection's handshake deadline is never answered:
//     the handshake timeout closes it (answering early would hand the guesser a faster oracle);
//   - every connection gets one proof (the bridge closes after a failure) and a bad-message budget
//     (peer.ts), so the limits are per connection too.
// Guessing a 256-bit secret is hopeless anyway; this keeps a hostile local process from burning CPU
// and filling logs, and keeps a wrong guess cheap for us and slow for the guesser.

export interface FailureGateOptions {
  /** Failures answered without delay (per role) before the rate applies. */
  burst: number;
  /** One further failure answered per this many ms (per role). */
  intervalMs: number;
  now?: () => number;
}

export type GateVerdict = { answerInMs: number } | { answerInMs: null; reason: 'queue_beyond_deadline' };

export class FailureGate {
  /** Per key (role): the bucket's theoretical arrival time (GCRA, RFC 2697's idea in one number). */
  private readonly tat = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly opts: FailureGateOptions) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Books the answer to one failing proof of `key`. answerInMs: when to send the refusal; null when
   * that would be after `deadline` (epoch ms): then let the handshake timeout close the connection.
   */
  book(key: string, deadline: number = Number.POSITIVE_INFINITY): GateVerdict {
    const now = this.now();
    const interval = Math.max(1, this.opts.intervalMs);
    const tolerance = Math.max(0, this.opts.burst - 1) * interval;
    const tat = Math.max(this.tat.get(key) ?? now, now);
    const answerAt = Math.max(now, tat - tolerance);
    if (answerAt > deadline) return { answerInMs: null, reason: 'queue_beyond_deadline' };
    this.tat.set(key, tat + interval);
    this.forget(now);
    return { answerInMs: answerAt - now };
  }

  /** How long the next failure of `key` would wait (0 = answered at once). */
  delayMs(key: string): number {
    const now = this.now();
    const tat = Math.max(this.tat.get(key) ?? now, now);
    return Math.max(0, tat - Math.max(0, this.opts.burst - 1) * Math.max(1, this.opts.intervalMs) - now);
  }

  /** Drops full buckets so the map holds only keys that are being slowed. */
  private forget(now: number): void {
    if (this.tat.size < 16) return;
    for (const [k, t] of this.tat) if (t <= now) this.tat.delete(k);
  }
}
