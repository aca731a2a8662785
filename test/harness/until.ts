// Polling for something another process or the browser does in its own time, bounded.

/**
 * Calls probe every 25 ms until it gives a value other than null, undefined or false, and returns
 * that value; throws "<what>: not within <capMs> ms" once capMs has passed. A probe that throws
 * ends the wait with its error.
 */
export async function until<T>(
  what: string,
  capMs: number,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
): Promise<T> {
  const end = Date.now() + capMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${capMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
