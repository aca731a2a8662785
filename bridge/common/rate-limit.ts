// Bounding how fast anybody can learn that a guessed secret is wrong, without ever locking the
// person out. One gate per bridge; one bucket per credential kind ("pairing code", "agent secret",
// "extension secret", "MCP token"), shared by every address (127.x.y.z spreads do not help):
//   - the caller verifies FIRST. A right secret is answered at once and never touches the gate, so a
//     flood of wrong guesses can neither delay nor refuse it;
//   - a wrong guess is answered from the bucket: `burst` answers at once, then one per `intervalMs`.
//     Tries beyond that wait (held, not answered) in a FIFO until a slot frees, so the rate of "wrong"
//     answers anybody can collect is bounded, however many connections they open;
//   - at most `maxPending` wrong tries wait per kind (and none past the caller's deadline, e.g. the
//     handshake timeout). Beyond that the connection is closed at once WITHOUT an answer: this bounds
//     the file descriptors a flood can pin (it used to be one per guess: 4,000 fds), and keeps the
//     bridge able to accept the right secret. There is no 429 any more: an immediate "slow down" told
//     a guesser "wrong" as well as a 401 did.
//   - logging is one WARN for the first wrong try of a quiet period (the person with a stale secret
//     sees why at once) and one summary line per window after that, not one line per guess.
// Guessing a 256-bit secret is hopeless anyway; the 40-bit pairing code (10 minutes, one use) is
// the one this really protects. It also keeps a hostile local process from burning CPU, fds and logs.

export interface FailureGateOptions {
  /** Wrong tries answered at once (per kind) before the rate applies. */
  burst: number;
  /** Past the burst, one wrong try per kind is answered per this many ms. */
  intervalMs: number;
  /** Wrong tries waiting for their answer per kind; more are closed unanswered. */
  maxPending: number;
  /** Summary log window (default 10 s). */
  windowMs?: number;
  /** Where the first-of-a-window and summary lines go (WARN). */
  warn?: (message: string, fields?: Record<string, unknown>) => void;
}

/** Defaults of the bridge and /mcp: 10 at once, then 4 per second; 32 waiting (8 s of backlog). */
export const DEFAULT_FAILURE_BURST = 10;
export const DEFAULT_FAILURE_INTERVAL_MS = 250;
export const DEFAULT_FAILURE_MAX_PENDING = 32;

/** answer: send the refusal now. drop: close the connection without an answer. */
export type WrongTryOutcome = 'answer' | 'drop';

export interface WrongTry {
  readonly outcome: Promise<WrongTryOutcome>;
  /** The connection went away while waiting: frees its place in the queue. */
  cancel(): void;
}

export interface WrongTryInfo {
  /** Peer address, for the summary (never a secret). */
  remote?: string | undefined;
  /** Epoch ms after which an answer is pointless (the connection's own timeout): drop instead. */
  deadline?: number;
  /** Logged for the first wrong try of a quiet period. */
  message: string;
  fields?: Record<string, unknown>;
}

interface Waiter {
  resolve(o: WrongTryOutcome): void;
}

interface Window {
  tries: number;
  answered: number;
  dropped: number;
  gaveUp: number;
  remotes: Map<string, number>;
  timer: ReturnType<typeof setTimeout>;
}

interface Bucket {
  tokens: number;
  refilledAt: number;
  queue: Waiter[];
  timer: ReturnType<typeof setTimeout> | null;
  window: Window | null;
}

const MAX_REMOTES_SHOWN = 5;

export class FailureGate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly windowMs: number;
  private closed = false;

  constructor(private readonly opts: FailureGateOptions) {
    this.windowMs = opts.windowMs ?? 10_000;
  }

  private get interval(): number {
    return Math.max(1, this.opts.intervalMs);
  }

  /** Tokens never pile up beyond the burst; with burst 0 a slot still frees every interval. */
  private get capacity(): number {
    return Math.max(1, this.opts.burst);
  }

  private bucket(kind: string): Bucket {
    let b = this.buckets.get(kind);
    if (!b) {
      b = { tokens: Math.max(0, this.opts.burst), refilledAt: Date.now(), queue: [], timer: null, window: null };
      this.buckets.set(kind, b);
    }
    return b;
  }

  private refill(b: Bucket, now: number): void {
    b.tokens = Math.min(this.capacity, b.tokens + (now - b.refilledAt) / this.interval);
    b.refilledAt = now;
  }

  /** Books the answer to one wrong try of `kind` (the caller already verified it is wrong). */
  fail(kind: string, info: WrongTryInfo): WrongTry {
    const now = Date.now();
    const b = this.bucket(kind);
    this.refill(b, now);
    const w = this.note(kind, b, info);
    if (b.queue.length === 0 && b.tokens >= 1) {
      b.tokens -= 1;
      w.answered++;
      return { outcome: Promise.resolve('answer'), cancel: () => undefined };
    }
    // When this try's slot would come: after everyone queued before it.
    const answerAt = now + (b.queue.length + 1 - b.tokens) * this.interval;
    if (this.closed || b.queue.length >= this.opts.maxPending || answerAt > (info.deadline ?? Number.POSITIVE_INFINITY)) {
      w.dropped++;
      return { outcome: Promise.resolve('drop'), cancel: () => undefined };
    }
    let waiter!: Waiter;
    const outcome = new Promise<WrongTryOutcome>((resolve) => {
      waiter = {
        resolve: (o) => {
          if (o === 'answer') w.answered++;
          resolve(o);
        },
      };
    });
    b.queue.push(waiter);
    this.schedule(b);
    return {
      outcome,
      cancel: () => {
        const i = b.queue.indexOf(waiter);
        if (i < 0) return;
        b.queue.splice(i, 1);
        w.gaveUp++;
        waiter.resolve('drop');
      },
    };
  }

  /** Wrong tries held for an answer right now, per kind (tests, /status). */
  pending(kind: string): number {
    return this.buckets.get(kind)?.queue.length ?? 0;
  }

  private schedule(b: Bucket): void {
    if (b.timer || b.queue.length === 0) return;
    const wait = Math.max(0, Math.ceil((1 - b.tokens) * this.interval));
    b.timer = setTimeout(() => {
      b.timer = null;
      this.refill(b, Date.now());
      while (b.tokens >= 1 && b.queue.length > 0) {
        b.tokens -= 1;
        b.queue.shift()?.resolve('answer');
      }
      this.schedule(b);
    }, wait);
    b.timer.unref?.();
  }

  /** Counts the try in its window; the first of a quiet period is logged in full at once. */
  private note(kind: string, b: Bucket, info: WrongTryInfo): Window {
    if (!b.window) {
      this.opts.warn?.(info.message, info.fields);
      const timer = setTimeout(() => this.summarise(kind, b), this.windowMs);
      timer.unref?.();
      b.window = { tries: 0, answered: 0, dropped: 0, gaveUp: 0, remotes: new Map(), timer };
    }
    const w = b.window;
    w.tries++;
    const remote = info.remote ?? 'unknown';
    if (w.remotes.has(remote) || w.remotes.size < MAX_REMOTES_SHOWN + 1) w.remotes.set(remote, (w.remotes.get(remote) ?? 0) + 1);
    return w;
  }

  private summarise(kind: string, b: Bucket): void {
    const w = b.window;
    b.window = null;
    if (!w || w.tries <= 1) return; // the one try was logged in full already
    const shown = [...w.remotes.keys()].slice(0, MAX_REMOTES_SHOWN);
    const more = w.remotes.size > MAX_REMOTES_SHOWN ? ' and more addresses' : '';
    const perSecond = Math.round((1000 / this.interval) * 100) / 100;
    this.opts.warn?.(
      `${kind}: ${w.tries} wrong tries in the last ${Math.round(this.windowMs / 1000)} s from ${shown.join(', ')}${more}; ` +
        `answered ${w.answered} (at most ${this.opts.burst} at once, then ${perSecond}/s), ` +
        `closed ${w.dropped} unanswered (more than ${this.opts.maxPending} were waiting), ${w.gaveUp} gave up waiting`,
      { kind, tries: w.tries, answered: w.answered, closed_unanswered: w.dropped, gave_up: w.gaveUp },
    );
  }

  /** Bridge shutdown: every waiting try is closed unanswered and no timer is left behind. */
  close(): void {
    this.closed = true;
    for (const b of this.buckets.values()) {
      if (b.timer) clearTimeout(b.timer);
      b.timer = null;
      for (const waiter of b.queue.splice(0)) waiter.resolve('drop');
      if (b.window) clearTimeout(b.window.timer);
      b.window = null;
    }
  }
}

/**
 * WARN lines for refusals anybody can trigger at will (a browser Origin, a foreign Host, a
 * handshake abandoned or malformed): the first of each kind per window in full, then one line with
 * how many more there were, so a flood writes O(windows) lines instead of one per connection.
 */
export class RefusalLog {
  private readonly windows = new Map<string, { more: number; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly warn: (message: string, fields?: Record<string, unknown>) => void,
    private readonly windowMs = 10_000,
  ) {}

  refused(kind: string, message: string, fields?: Record<string, unknown>): void {
    const open = this.windows.get(kind);
    if (open) {
      open.more++;
      return;
    }
    this.warn(message, fields);
    const entry = {
      more: 0,
      timer: setTimeout(() => {
        this.windows.delete(kind);
        if (entry.more > 0)
          this.warn(
            `${kind}: ${entry.more} more in the last ${Math.round(this.windowMs / 1000)} s (one line per window; the first is logged above)`,
            {
              kind,
              more: entry.more,
            },
          );
      }, this.windowMs),
    };
    entry.timer.unref?.();
    this.windows.set(kind, entry);
  }

  close(): void {
    for (const w of this.windows.values()) clearTimeout(w.timer);
    this.windows.clear();
  }
}
