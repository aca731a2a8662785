// `npm run bench`: every benchmark, one after the other (they share the machine's two cores, so
// running them in parallel would distort each other). Results land in bench/results/.
import { spawnSync } from 'node:child_process';

const BENCHES = ['bench/bridge.ts', 'bench/snapshot.ts', 'bench/actions.ts'];
let failed = 0;
for (const file of BENCHES) {
  process.stdout.write(`\n=== ${file}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.stdout.write(`\n${BENCHES.length - failed} benchmarks ran, ${failed} failed; see bench/results/*.md\n`);
process.exit(failed ? 1 : 0);
