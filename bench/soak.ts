// `npm run soak`: the long fault suite (test/soak/fault-suite.ts); writes docs/RELIABILITY.md.
// SOAK_ACTIONS (default 10000) sets the length.
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../test/harness/browser';
import { renderReport, runSoak } from '../test/soak/fault-suite';

const actions = Number(process.env['SOAK_ACTIONS'] ?? 10_000);
const report = await runSoak({
  actions,
  agents: 3,
  faultEvery: 100,
  restartPhase: 0.3,
  fuzzAgentFrames: 10_000,
  fuzzHandshakes: 400,
  sampleEvery: Math.max(50, Math.round(actions / 100)),
  log: (l) => process.stderr.write(`${new Date().toISOString()} ${l}\n`),
});
const md = renderReport(report);
fs.writeFileSync(path.join(REPO_ROOT, 'docs', 'RELIABILITY.md'), md);
process.stdout.write(md);
process.exit(report.lost === 0 && report.falseSuccess === 0 && report.crashes === 0 ? 0 : 1);
