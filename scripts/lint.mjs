// `npm run lint`: every lint step at once (scripts/lint-steps.mjs), each printing its output when
// it ends, with eslint's and prettier's caches on (--no-cache: check every file again). Exits
// non-zero when any step fails, and names the failed steps last.
import { lintSteps, root } from './lint-steps.mjs';
import { durationTable, runStep } from './run-step.mjs';

const cache = !process.argv.includes('--no-cache');
const results = await Promise.all(lintSteps({ cache }).map((s) => runStep(s.label, s.cmd, s.args, { cwd: root, buffered: true })));
process.stdout.write(`\n${durationTable(results)}`);
const failed = results.filter((r) => r.code !== 0).map((r) => r.label);
process.stdout.write(failed.length ? `\nlint failed: ${failed.join(', ')}\n` : '\nlint passed\n');
process.exit(failed.length ? 1 : 0);
