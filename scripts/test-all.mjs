#!/usr/bin/env node
// `npm test`: the one command that runs everything CI runs, in order, and ends with a single
// summary line "N passed, N failed[, N skipped]" over every suite.
//   1. generated files are fresh   2. type checking   3. build (the e2e tests load dist/extension)
//   4. mocha (unit, schema, bridge, e2e)   5. the Python shim's unittest suite, when present
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function run(label, cmd, args, opts = {}) {
  process.stdout.write(`\n=== ${label}: ${[cmd, ...args].join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const tee = (stream, sink) => stream.on('data', (d) => { out += d; sink.write(d); });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function step(label, cmd, args) {
  const r = await run(label, cmd, args);
  if (r.code !== 0) {
    failedSteps.push(label);
    totals.failed += 1;
  }
  return r;
}

const npx = (bin, ...args) => [process.execPath, [path.join(root, 'node_modules', '.bin', bin), ...args]];

await step('generated files', process.execPath, ['scripts/gen.mjs', '--check']);
await step('typecheck', ...npx('tsc', '-p', 'tsconfig.json')).then(() => step('typecheck bridge', ...npx('tsc', '-p', 'tsconfig.bridge.json'))).then(() => step('typecheck tests', ...npx('tsc', '-p', 'tsconfig.test.json')));
const build = await step('build', ...npx('rollup', '-c', '--silent'));

if (build.code === 0) {
  const m = await run('mocha', ...npx('mocha', '--reporter', 'spec', 'test/**/*.spec.ts'));
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

const pyTests = path.join(root, 'python-shim-spec', 'tests');
if (build.code === 0 && fs.existsSync(pyTests)) {
  const python = process.env.BUX_PYTHON ?? '/usr/bin/python3';
  const r = await run('python unittest', python, ['-m', 'unittest', 'discover', '-s', 'python-shim-spec/tests', '-t', 'python-shim-spec', '-v']);
  const ran = Number((r.out.match(/^Ran (\d+) tests?/m) ?? [])[1] ?? 0);
  const fail = r.out.match(/^FAILED \(([^)]*)\)/m)?.[1] ?? '';
  const count = (k) => Number((fail.match(new RegExp(`${k}=(\\d+)`)) ?? [])[1] ?? 0);
  const skippedPy = Number((r.out.match(/skipped=(\d+)/) ?? [])[1] ?? 0);
  const failedPy = count('failures') + count('errors');
  totals.passed += ran - failedPy - skippedPy;
  totals.failed += failedPy;
  totals.skipped += skippedPy;
  if (r.code !== 0 && failedPy === 0) {
    failedSteps.push('python unittest (crashed)');
    totals.failed += 1;
  }
}

if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`);
process.exit(totals.failed === 0 && failedSteps.length === 0 ? 0 : 1);
