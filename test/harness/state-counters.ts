// The worker's test counters of how a state's frames crossed (background/state/frame-hold.ts: whole,
// "same as last", as edits; token questions) and which child frames a viewport state asked ahead
// (fetch.ts), read through DevTools as a test can and a page cannot.
import type { Harness } from './harness';
import { extensionWorker } from './more-browsers';

export interface StateCounts {
  whole: number;
  same: number;
  patched: number;
  tokens_asked: number;
  viewport_prefetched: number;
  viewport_prefetch_used: number;
}

export async function stateCounts(h: Harness): Promise<StateCounts> {
  const c = await (
    await extensionWorker(h.launched.browser)
  ).evaluate(() => {
    const g = globalThis as {
      __browserUseExtFrameHold?: { whole: number; same: number; patched?: number; tokens_asked: number };
      __browserUseExtFrameFetch?: { viewport_prefetched: number; viewport_prefetch_used: number };
    };
    const hold = g.__browserUseExtFrameHold;
    const fetch = g.__browserUseExtFrameFetch;
    // A worker without edits or the viewport prefetch (an older build) counts none of them.
    return hold
      ? {
          whole: hold.whole,
          same: hold.same,
          patched: hold.patched ?? 0,
          tokens_asked: hold.tokens_asked,
          viewport_prefetched: fetch?.viewport_prefetched ?? 0,
          viewport_prefetch_used: fetch?.viewport_prefetch_used ?? 0,
        }
      : null;
  });
  if (!c) throw new Error('the worker has no frame-hold counters (globalThis.__browserUseExtFrameHold)');
  return c;
}

/** What happened between two counts. */
export function countsBetween(before: StateCounts, after: StateCounts): StateCounts {
  const out = { ...after };
  for (const k of Object.keys(out) as (keyof StateCounts)[]) out[k] = after[k] - before[k];
  return out;
}
