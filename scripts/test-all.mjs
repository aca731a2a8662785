#!/usr/bin/env node
// `npm test`: the one command that runs everything CI runs, in order, and ends with a single
// summary line "N passed, N failed[, N skipped]" over every suite, just below a table of each
// step's wall time.
//   1. generated files are fresh, imports follow DEPS.json, eslint, prettier, all at once (ruff and
//      the Python import walls once the venvs exist)
//   2. type checking   3. build (the e2e tests load dist/extension)
//   4. mocha, one run per suite (unit and bridge at once, beside 1-3; then e2e and integration alone)
//   5. the Python shim's unittest modules, each in the venvs that scripts/python-envs.mjs assigns it
//      to (real browser_use 0.1.48 and 0.1.40 from PyPI, and one without browser_use); the venvs are
//      created or refreshed first (in parallel with 1-3). Once one Python process is left, the other
//      mocha suites (install, mcp, seeds, soak, ...) run one after another beside it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { lintSteps } from './lint-steps.mjs';
import { mochaCounts, mochaFailedTitles, otherSuites, splitSuites, UNIT_RUNS } from './mocha-suites.mjs';
import { ensureEnvs, processesFor, PY_ENVS, unassignedModules, venvPython, venvsDir } from './python-envs.mjs';
import { durationTable, runStep, untilAtMost } from './run-step.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
/** Every failed test by suite and title, printed above the summary (a CI log may be shown cut short). */
const failedTests = [];

/** Every step's wall time, printed as a table just above the final summary line. */
const timings = [];

async function run(label, cmd, args, opts = {}) {
  const r = await runStep(label, cmd, args, { cwd: root, ...opts });
  timings.push(r);
  return r;
}

/** One mocha run, its counts and failed titles added to the totals. */
async function mochaSuite(suite, env, buffered = false) {
  const m = await run(`mocha ${suite.name}`, ...npx('mocha', '--reporter', 'spec', ...suite.globs), { env, buffered });
  const c = mochaCounts(m.out);
  totals.passed += c.passing;
  totals.failed += c.failing;
  totals.skipped += c.pending;
  for (const t of mochaFailedTitles(m.out)) failedTests.push(`mocha ${suite.name}: ${t}`);
  if (m.code !== 0 && c.failing === 0) {
    failedSteps.push(`mocha ${suite.name} (crashed)`);
    totals.failed += 1;
  }
}

async function step(label, cmd, args, opts = {}) {
  const r = await run(label, cmd, args, opts);
  if (r.code !== 0) {
    failedSteps.push(label);
    totals.failed += 1;
  }
  return r;
}

const npx = (bin, ...args) => [process.execPath, [path.join(root, 'node_modules', '.bin', bin), ...args]];

// Venv creation is mostly downloads and unpacking: overlap it with type checking and the build.
const pyStarted = performance.now();
const pyEnvs = ensureEnvs().catch((e) => ({ ok: false, failed: PY_ENVS.map((env) => env.name), text: `${e?.stack ?? e}\n` }));
// The lint steps read and write nothing shared: they run at the same time, each printing when it ends,
// beside type checking, the build and the unit specs (each of those is one process on one core).
// No cache here: this is the gate CI runs (scripts/lint-steps.mjs says why).
const linted = Promise.all(lintSteps({ cache: false }).map((s) => step(s.label, s.cmd, s.args, { buffered: true })));
const built = (async () => {
  await step('typecheck', ...npx('tsc', '-p', 'tsconfig.json'), { buffered: true })
    .then(() => step('typecheck bridge', ...npx('tsc', '-p', 'tsconfig.bridge.json'), { buffered: true }))
    .then(() => step('typecheck tests', ...npx('tsc', '-p', 'tsconfig.test.json'), { buffered: true }));
  // Through build-if-stale (--force: always rebuild) so the build record is written and the next `npm start` is fast.
  const b = await step('build', process.execPath, ['scripts/build-if-stale.mjs', '--force'], { buffered: true });
  // The unit and bridge specs need no venv and no browser: they run while pip may still be installing.
  const env = process.env.BUX_BROWSER_USE_PYTHON ? {} : { BUX_BROWSER_USE_PYTHON: venvPython('bu048') };
  if (b.code === 0) await Promise.all(UNIT_RUNS.map((suite) => mochaSuite(suite, env, true)));
  return b;
})();
await linted;
const build = await built;
// The venvs are ready before the other suites start, so pip does not compete with the e2e tests' Chromium.
const envs = await pyEnvs;
timings.push({ label: 'python venvs (beside the above)', seconds: (performance.now() - pyStarted) / 1000 });
process.stdout.write(`\n=== python venvs (scripts/python-envs.mjs)\n${envs.text}`);
if (!envs.ok) {
  failedSteps.push('python venvs');
  totals.failed += 1;
} else {
  // ruff comes with the 'nobu' venv (its constraints pin the version); config in python-shim-spec/pyproject.toml.
  await step('ruff', path.join(venvsDir, 'nobu', 'bin', 'ruff'), ['check', 'python-shim-spec']);
  // import-linter, pinned in the same venv: the shim's import walls ([tool.importlinter] in its
  // pyproject.toml). cwd python-shim-spec, so it reads these sources and not the venv's installed copy.
  await step('python import walls', path.join(venvsDir, 'nobu', 'bin', 'lint-imports'), [], { cwd: path.join(root, 'python-shim-spec') });
}

// The side panel e2e runs browser_use's real Agent (`serve`): give it the 0.1.48 venv's Python.
const mochaEnv = process.env.BUX_BROWSER_USE_PYTHON ? {} : { BUX_BROWSER_USE_PYTHON: venvPython('bu048') };
// test:unit's two runs ran above; e2e and integration now, alone; the others later, beside the last Python
// process (splitSuites in scripts/mocha-suites.mjs says why).
const { first: mochaFirst, later: mochaLater } = build.code === 0 ? splitSuites(otherSuites(root)) : { first: [], later: [] };
if (build.code === 0) {
  for (const suite of mochaFirst) await mochaSuite(suite, mochaEnv);
} else {
  process.stdout.write('\nSkipping the test suites: the build failed.\n');
}

/** @type {{ env: { name: string }, r: Promise<{ code: number, out: string }> }[]} */
let pyRuns = [];
if (build.code === 0) {
  const lost = unassignedModules();
  if (lost.length) {
    process.stdout.write(`\nPython test modules that no venv runs: ${lost.join(', ')}. Add them to PY_ENVS in scripts/python-envs.mjs.\n`);
    failedSteps.push('python modules not assigned to a venv');
    totals.failed += lost.length;
  }
  // The venvs run at the same time: each starts its own bridge and Chromium on free ports, and much of
  // their time is waiting (browser_use's fixed page-load delays, Playwright's browser start), so two
  // cores finish them several minutes sooner than one after another. Each prints its output when done.
  pyRuns = PY_ENVS.flatMap((env) => {
    if (envs.failed.includes(env.name)) return []; // a venv that failed to build is counted above
    return processesFor(env).map(({ label, modules }) => {
      // cwd python-shim-spec: `tests` is a package there; harness.py puts the shim's sources first on
      // sys.path, and tests/test_install.py checks that the installed wheel holds the same files.
      const names = modules.map((f) => `tests.${f.replace(/\.py$/, '')}`);
      const r = run(`python ${label} (${env.what})`, venvPython(env.name), [path.join(root, 'scripts', 'py-unittest.py'), ...names], {
        cwd: path.join(root, 'python-shim-spec'),
        buffered: true,
      });
      return { env: { name: label }, r };
    });
  });
  // The shorter mocha suites once a single Python process is left: from then on one core would idle
  // until it ends. Each prints when it ends, as the Python runs do, so their logs do not interleave.
  await untilAtMost(
    1,
    pyRuns.map((p) => p.r),
  );
  for (const suite of mochaLater) await mochaSuite(suite, mochaEnv, true);
}
for (const { env, r: pending } of pyRuns) {
  const r = await pending;
  const line = r.out.match(/^BUX_RESULT (\{.*\})$/m)?.[1];
  const c = line ? JSON.parse(line) : null;
  if (c) {
    totals.passed += c.passed;
    totals.failed += c.failed;
    totals.skipped += c.skipped;
    for (const t of c.failed_names ?? []) failedTests.push(`python ${env.name}: ${t}`);
  }
  if (!c || (r.code !== 0 && c.failed === 0) || c.passed + c.failed + c.skipped === 0) {
    failedSteps.push(`python ${env.name} (${!c ? 'crashed' : r.code !== 0 ? 'exit ' + r.code : 'ran no test'})`);
    totals.failed += 1;
  }
}

process.stdout.write(`\n${durationTable(timings)}`);
if (failedTests.length) process.stdout.write(`\nFailed tests:\n${failedTests.map((t) => `  ${t}\n`).join('')}`);
if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`);
process.exit(totals.failed === 0 && failedSteps.length === 0 ? 0 : 1);
