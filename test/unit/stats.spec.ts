// The benches' one percentile rule (bench/stats.ts, nearest rank) and its Python twin
// (python-shim-spec/bench/stats.py): the numbers a bench table prints must not depend on the
// language that measured them, so both run here on the same samples and must agree to the digit.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { expect } from 'chai';

import { mean, median, pct, r1, r2, summary } from '../../bench/stats';
import { REPO_ROOT } from '../harness/browser';

const PYTHON = '/usr/bin/python3';
const TWIN = path.join(REPO_ROOT, 'python-shim-spec', 'bench', 'stats.py');
const PS = [0, 1, 5, 10, 25, 30, 40, 50, 75, 90, 95, 99, 100];

/** Deterministic samples (a seeded LCG): timings with ties, halves at the rounding digit and lengths 1..41. */
function sampleSets(): number[][] {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const sets: number[][] = [];
  for (let n = 1; n <= 41; n += 4) {
    sets.push(Array.from({ length: n }, () => rand() * 300));
    sets.push(Array.from({ length: n }, () => Math.floor(rand() * 8) + 0.05 * Math.floor(rand() * 20)));
  }
  sets.push([15, 20, 35, 40, 50], [1, 2, 3, 4], [0.25, 0.35, 2.675, 1.005, -0.05, -0.25], [7, 7, 7], [5, NaN, 1, 3]);
  return sets;
}

/** What the twin's command line prints for a sample list: bench/stats.ts's results, NaN as null. */
const ours = (xs: number[]) => ({
  pct: PS.map((p) => pct(xs, p)),
  median: median(xs),
  mean: mean(xs),
  r1: xs.map(r1),
  r2: xs.map(r2),
  summary: summary(xs),
});

describe('bench statistics (bench/stats.ts)', () => {
  it('percentiles by nearest rank, as the definition it links works them out', () => {
    // The worked example of https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method
    const xs = [50, 15, 40, 20, 35];
    expect([5, 30, 40, 50, 100].map((p) => pct(xs, p))).to.deep.equal([15, 20, 20, 35, 50]);
    expect(pct([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 95)).to.equal(19);
    expect(pct([3, 1, 2], 0)).to.equal(1);
    expect(pct([], 50)).to.be.NaN;
    expect(pct([4, NaN, 2], 100), 'a missing measurement is left out').to.equal(4);
  });

  it('the median is a measured sample (the lower middle for an even count) of the finite ones', () => {
    expect(median([4, 1, 3, 2])).to.equal(2);
    expect(median([5, 1, 3])).to.equal(3);
    expect(median([NaN, 9, Infinity, 1, 5])).to.equal(5);
    expect(median([])).to.be.NaN;
  });

  it('mean, rounding (halves up, like Math.round) and the summary the tables print', () => {
    expect(mean([1, 2, 3, 4])).to.equal(2.5);
    expect(mean([])).to.be.NaN;
    expect([r1(0.25), r1(1.04), r1(-0.25), r2(1.125), r2(3)]).to.deep.equal([0.3, 1, -0.2, 1.13, 3]);
    expect(summary([10, 30, 20, 40])).to.deep.equal({ n: 4, mean: 25, p50: 20, p95: 40, max: 40 });
  });

  it('the Python twin gives the same numbers on the same samples', function () {
    this.timeout(20_000);
    const sets = sampleSets();
    const r = spawnSync(PYTHON, [TWIN], { input: JSON.stringify({ samples: sets, ps: PS }), encoding: 'utf8', timeout: 15_000 });
    expect(r.error, `could not run ${PYTHON} ${TWIN}`).to.equal(undefined);
    expect(r.status, `${TWIN} failed: ${r.stderr}`).to.equal(0);
    const theirs = JSON.parse(r.stdout) as unknown[];
    expect(theirs).to.have.length(sets.length);
    // Compared as JSON text: NaN becomes null on both sides, 3.0 and 3 are the same number.
    sets.forEach((xs, i) => {
      expect(JSON.stringify(theirs[i]), `samples ${JSON.stringify(xs)}`).to.equal(JSON.stringify(ours(xs)));
    });
  });
});
