// `npm run test:unit`: the unit, schema and bridge specs as two mocha runs at once (scripts/mocha-suites.mjs
// says why), each printing its output when it ends, then one line with the counts of both. Extra
// arguments go to both runs: `npm run test:unit -- --grep 'session caps'`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { mochaCounts, UNIT_RUNS } from './mocha-suites.mjs';
import { durationTable, runStep } from './run-step.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mocha = path.join(root, 'node_modules', '.bin', 'mocha');
const extra = process.argv.slice(2);
const runs = await Promise.all(
  UNIT_RUNS.map((r) => runStep(`mocha ${r.name}`, process.execPath, [mocha, ...r.globs, ...extra], { cwd: root, buffered: true })),
);
const sum = { passing: 0, failing: 0, pending: 0 };
let crashed = false;
for (const r of runs) {
  const c = mochaCounts(r.out);
  for (const k of Object.keys(sum)) sum[k] += c[k];
  // A run that exits non-zero without a failing test crashed (a syntax error, a hook outside a test).
  if (r.code !== 0 && c.failing === 0) crashed = true;
}
process.stdout.write(`\n${durationTable(runs)}`);
process.stdout.write(
  `\n${sum.passing} passing, ${sum.failing} failing${sum.pending ? `, ${sum.pending} pending` : ''}${crashed ? ' (a run crashed: see its output above)' : ''}\n`,
);
process.exit(sum.failing === 0 && !crashed ? 0 : 1);
