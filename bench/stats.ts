// Summary statistics for every bench (bench/*.ts and, through its twin python-shim-spec/bench/stats.py,
// the Python ones), so that a p95 means the same thing in every table.
//
// One rank rule, the nearest-rank percentile: the p-th percentile of n samples is the sample at rank
// ceil(p / 100 * n) in ascending order (rank 1 for p = 0). Every percentile reported is a time that was
// measured, never a blend of two, and p100 is the maximum.
// https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method (numpy.percentile's
// method='inverted_cdf', Hyndman and Fan's definition 1). The median is the 50th percentile of the
// finite samples: the lower middle one for an even count. test/unit/stats.spec.ts checks that the
// Python twin gives the same numbers on the same samples.

/** The p-th percentile (0..100) by nearest rank, NaN samples (a missing measurement) left out; NaN for none. */
export function pct(xs: readonly number[], p: number): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

/** The median of the finite samples (a missing timing is NaN): the lower middle one for an even count. */
export const median = (xs: readonly number[]): number =>
  pct(
    xs.filter((x) => Number.isFinite(x)),
    50,
  );

/** The arithmetic mean, summed left to right; NaN for no samples. */
export function mean(xs: readonly number[]): number {
  let total = 0;
  for (const x of xs) total += x;
  return xs.length ? total / xs.length : NaN;
}

/** n rounded to `digits` decimals (Math.round: halves towards +Infinity). */
export const roundTo = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;
export const r1 = (n: number): number => roundTo(n, 1);
export const r2 = (n: number): number => roundTo(n, 2);

/** What the bench tables print for one series (unrounded). */
export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

export const summary = (xs: readonly number[]): Summary => ({
  n: xs.length,
  mean: mean(xs),
  p50: pct(xs, 50),
  p95: pct(xs, 95),
  max: pct(xs, 100),
});
