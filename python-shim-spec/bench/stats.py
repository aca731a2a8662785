"""Summary statistics for the Python benches: the twin of bench/stats.ts, same rule, same numbers.

Percentiles use the nearest-rank method: the p-th percentile of n samples is the sample at rank
ceil(p / 100 * n) in ascending order (rank 1 for p = 0), so every percentile reported is a time that
was measured, never a blend of two. https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method
(numpy.percentile(..., method='inverted_cdf'), Hyndman and Fan's definition 1.) The median is the
50th percentile of the finite samples: the lower middle sample for an even count.

Rounding is JavaScript's Math.round (halves towards +infinity), not Python's round (halves to even),
and sums run left to right (not sum(), which compensates since Python 3.12), so both languages print
the same digits. test/unit/stats.spec.ts runs this module and bench/stats.ts on the same samples.
"""
from __future__ import annotations

import math
from typing import Iterable, TypedDict


def pct(xs: Iterable[float], p: float) -> float:
    """The p-th percentile (0..100) by nearest rank, nan samples (a missing measurement) left out; nan for none."""
    s = sorted(x for x in xs if not math.isnan(x))
    if not s:
        return math.nan
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))]


def median(xs: Iterable[float]) -> float:
    """The median of the finite samples (a missing timing is nan): the lower middle one for an even count."""
    return pct([x for x in xs if math.isfinite(x)], 50)


def mean(xs: Iterable[float]) -> float:
    """The arithmetic mean, summed left to right; nan for no samples."""
    total = 0.0
    n = 0
    for x in xs:
        total += x
        n += 1
    return total / n if n else math.nan


def js_round(x: float) -> float:
    """JavaScript's Math.round: the nearest integer, halves towards +infinity; nan and infinities as they are."""
    if not math.isfinite(x):
        return x
    f = math.floor(x)
    return float(f + 1 if x - f >= 0.5 else f)


def round_to(x: float, digits: int) -> float:
    """x rounded to `digits` decimals as bench/stats.ts roundTo does it: Math.round(x * 10^digits) / 10^digits."""
    scale = 10.0**digits
    return js_round(x * scale) / scale


def r1(x: float) -> float:
    return round_to(x, 1)


def r2(x: float) -> float:
    return round_to(x, 2)


class Summary(TypedDict):
    n: int
    mean: float
    p50: float
    p95: float
    max: float


def summary(xs: Iterable[float]) -> Summary:
    """What the bench tables print for one series: count, mean, p50, p95 and max (unrounded)."""
    s = list(xs)
    return {'n': len(s), 'mean': mean(s), 'p50': pct(s, 50), 'p95': pct(s, 95), 'max': pct(s, 100)}


if __name__ == '__main__':
    # For test/unit/stats.spec.ts: reads {"samples": [[...], ...], "ps": [...]} on stdin (null for a
    # missing timing, nan) and prints, per sample list, what bench/stats.ts computes from it (nan and
    # infinities as null, as JSON.stringify writes them).
    import json
    import sys

    def js(x: float) -> float | None:
        return x if math.isfinite(x) else None

    req = json.load(sys.stdin)
    out = []
    for raw in req['samples']:
        xs = [math.nan if x is None else float(x) for x in raw]
        row = {
            'pct': [js(pct(xs, p)) for p in req['ps']],
            'median': js(median(xs)),
            'mean': js(mean(xs)),
            'r1': [js(r1(x)) for x in xs],
            'r2': [js(r2(x)) for x in xs],
            'summary': {k: (v if isinstance(v, int) else js(v)) for k, v in summary(xs).items()},
        }
        out.append(row)
    json.dump(out, sys.stdout)
