// The mocha runs that make up the test suites, shared by `npm test` (scripts/test-all.mjs) and
// `npm run test:unit` (scripts/test-unit.mjs), and how a run's counts are read from its output.
// test:unit is two runs at once: the bridge specs mostly wait on sockets and short timers, the unit and
// schema specs mostly compute, so on two cores they overlap. Each run keeps its files in the usual
// order in one process (test/unit specs share module state in a known order: the worker modules
// register chrome listeners once, on the fake chrome present at their first import).
import fs from 'node:fs';
import path from 'node:path';

/**
 * test:unit: both at the same time. The bridge specs whose names start with a to c (agent client,
 * sessions, secret recovery, CDP endpoint and emulator) join the unit run so the two take about as
 * long; every spec is in exactly one of the globs.
 */
export const UNIT_RUNS = [
  { name: 'unit, schemas, bridge/[a-c]*', globs: ['test/unit/**/*.spec.ts', 'test/schemas/**/*.spec.ts', 'test/bridge/[a-c]*.spec.ts'] },
  { name: 'bridge/[!a-c]*', globs: ['test/bridge/[!a-c]*.spec.ts'] },
];

/**
 * Every other folder of test/ that holds specs, one run each (one after another: most start
 * Chromium), so a new folder is run without editing a list; loose specs in test/ itself run last.
 * @param {string} root the repository
 * @returns {{ name: string, globs: string[] }[]}
 */
export function otherSuites(root) {
  const inUnit = new Set(UNIT_RUNS.flatMap((r) => r.globs.map((g) => g.split('/')[1])));
  const hasSpecs = (dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .some((e) => (e.isDirectory() ? hasSpecs(path.join(dir, e.name)) : e.name.endsWith('.spec.ts')));
  const testDir = path.join(root, 'test');
  const folders = fs
    .readdirSync(testDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !inUnit.has(e.name) && hasSpecs(path.join(testDir, e.name)))
    .map((e) => e.name)
    .sort();
  const loose = fs.readdirSync(testDir).some((n) => n.endsWith('.spec.ts')) ? [{ name: 'test/', globs: ['test/*.spec.ts'] }] : [];
  return [...folders.map((f) => ({ name: f, globs: [`test/${f}/**/*.spec.ts`] })), ...loose];
}

/**
 * The suites `npm test` runs alone, before the Python runs: e2e (the longest; its Stop and typing
 * timings fail at load ~20) and integration (its floods assert that the right secret is answered within
 * 1 s: 1109-1784 ms beside a Python run at load 7-15, 1 ms alone).
 */
const ALONE = new Set(['e2e', 'integration']);

/**
 * The mocha suites `npm test` runs alone before the Python runs (`first`), and those it runs after
 * (`later`: the others, one after another, started once a single Python process is left). The Python
 * runs end about 150 s apart (bu040 before bu048) and the one process left uses about 0.2 core
 * (bench/results/ci-time.md); the later suites used to start only after it ended.
 * @param {{ name: string, globs: string[] }[]} suites from otherSuites
 * @returns {{ first: { name: string, globs: string[] }[], later: { name: string, globs: string[] }[] }}
 */
export function splitSuites(suites) {
  return { first: suites.filter((s) => ALONE.has(s.name)), later: suites.filter((s) => !ALONE.has(s.name)) };
}

/**
 * The counts mocha's spec reporter prints at its end ("N passing", "N failing", "N pending").
 * @param {string} out
 * @returns {{ passing: number, failing: number, pending: number }}
 */
export function mochaCounts(out) {
  const num = (re) => Number((out.match(re) ?? [])[1] ?? 0);
  return { passing: num(/^\s*(\d+) passing/m), failing: num(/^\s*(\d+) failing/m), pending: num(/^\s*(\d+) pending/m) };
}

/**
 * The titles of the failed tests, as the spec reporter marks them while it runs ("  3) title"), so
 * the summary at the end of `npm test` can name them where a long log is shown only in part.
 * @param {string} out
 * @returns {string[]}
 */
export function mochaFailedTitles(out) {
  const end = out.search(/^\s*\d+ passing/m);
  const during = end < 0 ? out : out.slice(0, end);
  return [...during.matchAll(/^\s+\d+\) (.+)$/gm)].map((m) => m[1].trim());
}
