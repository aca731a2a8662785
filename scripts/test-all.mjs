#!/usr/bin/env node
// `npm test`: the one command that runs everything CI runs, in order, and ends with a single
// summary line "N passed, N failed[, N skipped]" over every suite.
//   1. generated files are fresh, imports follow DEPS.json, eslint, prettier (ruff and the Python
//      import walls once the venvs exist)
//   2. type checking   3. build (the e2e tests load dist/extension)
//   4. mocha (unit, schema, bridge, e2e)   5. the Python shim's unittest modules, each in the venvs
//      that scripts/python-envs.mjs assigns it to (real browser_use 0.1.48 and 0.1.40 from PyPI, and
//      one without browser_use); the venvs are created or refreshed first (in parallel with 1-3).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureEnvs, modulesFor, PY_ENVS, unassignedModules, venvPython, venvsDir } from './python-envs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function run(label, cmd, args, opts = {}) {
  const header = `\n=== ${label}: ${[cmd, ...args].join(' ')}\n`;
  if (!opts.buffered) process.stdout.write(header);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? root, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const tee = (stream, sink) =>
      stream.on('data', (d) => {
        out += d;
        if (!opts.buffered) sink.write(d);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('close', (code) => {
      // A buffered run (one of several at once) prints its whole output when it ends, so logs do not interleave.
      if (opts.buffered) process.stdout.write(header + out);
      resolve({ code: code ?? 1, out });
    });
  });
}

async function step(label, cmd, args, opts) {
  const r = await run(label, cmd, args, opts);
  if (r.code !== 0) {
    failedSteps.push(label);
    totals.failed += 1;
  }
  return r;
}

const npx = (bin, ...args) => [process.execPath, [path.join(root, 'node_modules', '.bin', bin), ...args]];

// Venv creation is mostly downloads and unpacking: overlap it with type checking and the build.
const pyEnvs = ensureEnvs().catch((e) => ({ ok: false, failed: PY_ENVS.map((env) => env.name), text: `${e?.stack ?? e}\n` }));
await step('generated files', process.execPath, ['scripts/gen.mjs', '--check']);
await step('import rules (DEPS.json)', process.execPath, ['scripts/check-deps.mjs']);
await step('eslint', ...npx('eslint', '--max-warnings', '0', '.'));
await step('prettier', ...npx('prettier', '--check', '.'));
await step('typecheck', ...npx('tsc', '-p', 'tsconfig.json'))
  .then(() => step('typecheck bridge', ...npx('tsc', '-p', 'tsconfig.bridge.json')))
  .then(() => step('typecheck tests', ...npx('tsc', '-p', 'tsconfig.test.json')));
// Through build-if-stale (--force: always rebuild) so the build record is written and the next `npm start` is fast.
const build = await step('build', process.execPath, ['scripts/build-if-stale.mjs', '--force']);

// The venvs are ready before mocha starts, so pip does not compete with the e2e tests' Chromium.
const envs = await pyEnvs;
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

if (build.code === 0) {
  // The side panel e2e runs browser_use's real Agent (`serve`): give it the 0.1.48 venv's Python.
  const mochaEnv = process.env.BUX_BROWSER_USE_PYTHON ? {} : { BUX_BROWSER_USE_PYTHON: venvPython('bu048') };
  const m = await run('mocha', ...npx('mocha', '--reporter', 'spec', 'test/**/*.spec.ts'), { env: mochaEnv });
  const num = (re) => Number((m.out.match(re) ?? [])[1] ?? 0);
  const passing = num(/^\s*(\d+) passing/m);
  const failing = num(/^\s*(\d+) failing/m);
  const pending = num(/^\s*(\d+) pending/m);
  totals.passed += passing;
  totals.failed += failing;
  totals.skipped += pending;
  if (m.code !== 0 && failing === 0) {
    failedSteps.push('mocha (crashed)');
    totals.failed += 1;
  }
} else {
  process.stdout.write('\nSkipping the test suites: the build failed.\n');
}

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
  const pyRuns = PY_ENVS.map((env) => {
    const modules = modulesFor(env).map((f) => `tests.${f.replace(/\.py$/, '')}`);
    if (!modules.length || envs.failed.includes(env.name)) return null; // a venv that failed to build is counted above
    // cwd python-shim-spec: `tests` is a package there; harness.py puts the shim's sources first on
    // sys.path, and tests/test_install.py checks that the installed wheel holds the same files.
    const r = run(`python ${env.name} (${env.what})`, venvPython(env.name), [path.join(root, 'scripts', 'py-unittest.py'), ...modules], {
      cwd: path.join(root, 'python-shim-spec'),
      buffered: true,
    });
    return { env, r };
  }).filter((x) => x !== null);
  for (const { env, r: pending } of pyRuns) {
    const r = await pending;
    const line = r.out.match(/^BUX_RESULT (\{.*\})$/m)?.[1];
    const c = line ? JSON.parse(line) : null;
    if (c) {
      totals.passed += c.passed;
      totals.failed += c.failed;
      totals.skipped += c.skipped;
    }
    if (!c || (r.code !== 0 && c.failed === 0) || c.passed + c.failed + c.skipped === 0) {
      failedSteps.push(`python ${env.name} (${!c ? 'crashed' : r.code !== 0 ? 'exit ' + r.code : 'ran no test'})`);
      totals.failed += 1;
    }
  }
}

if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`);
process.exit(totals.failed === 0 && failedSteps.length === 0 ? 0 : 1);
