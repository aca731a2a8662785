// `npm run soak`: the long fault suite (test/soak/fault-suite.ts); writes docs/RELIABILITY.md.
// 10 agents, each on its own tab, 200 actions each by default; SOAK_ACTIONS sets the total.
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../test/harness/browser';
import { renderReport, runSoak } from '../test/soak/fault-suite';

const actions = Number(process.env['SOAK_ACTIONS'] ?? 2_000);
const report = await runSoak({
  actions,
  agents: 10,
  faultEvery: 25,
  restartPhase: 0.7,
  fuzzAgentFrames: 10_000,
  fuzzHandshakes: 400,
  sampleEvery: Math.max(50, Math.round(actions / 100)),
  log: (l) => process.stderr.write(`${new Date().toISOString()} ${l}\n`),
});
const md = renderReport(report);
fs.writeFileSync(path.join(REPO_ROOT, 'docs', 'RELIABILITY.md'), md);
process.stdout.write(md);
process.exit(
  report.lost === 0 && report.falseSuccess === 0 && report.duplicated === 0 && report.leaked === 0 && report.crashes === 0 ? 0 : 1,
);
