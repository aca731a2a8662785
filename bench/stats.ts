// Percentiles and rounding shared by the snapshot bench and its hop tables.

/** The p-th percentile (nearest rank); NaN for no samples. */
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};

/** The median of the finite samples (the lower middle one for an even count). */
export const median = (xs: number[]): number => pct(xs.filter((x) => Number.isFinite(x)), 50);

export const r1 = (n: number): number => Math.round(n * 10) / 10;
