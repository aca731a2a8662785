// Every wait in the worker is capped twice: by its own cap and by what is left of the action's
// budget. The budget is the action message's timeout_ms (the bridge's default 15 s otherwise) minus
// a margin, so the extension always answers before the bridge gives up with TIMEOUT.
export const DEFAULT_ACTION_TIMEOUT_MS = 15_000;
const MARGIN_MS = 750;

export class Budget {
  private readonly deadline: number;
  constructor(
    timeoutMs: number | undefined,
    private readonly startedAt = Date.now(),
  ) {
    this.deadline = startedAt + Math.max(250, (timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS) - MARGIN_MS);
  }
  remaining(): number {
    return Math.max(0, this.deadline - Date.now());
  }
  /** min(capMs, what is left). */
  cap(capMs: number): number {
    return Math.max(0, Math.min(capMs, this.remaining()));
  }
  elapsed(): number {
    return Date.now() - this.startedAt;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves with the promise's value, or with `fallback` after ms (the promise keeps running). */
export function withTimeout<T, F>(p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
