// npm run bench:seed002 — what seed 002's change watch costs and how late it reports. The driver
// asks the extension to push its target tabs' own changes (get_state watch: a MutationObserver in
// the page, the state taken and pushed once the change settled); with push off it polls with
// get_state while the LLM thinks (every 1000 ms, delivered once two polls agree). Measures (1) one
// poll (pollChanges: get_state of one target tab + rendering) on the fixture shop and on a 1500-row
// page, (2) the delay from a page changing by itself to waitForChange returning it, pushed (small
// page and 1500-row page) and polled. Not a timed test.
// Writes bench/results/seed002-watch.json and .md with the machine's load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Seed002Driver } from '../bridge/agents/text-driver/driver';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { summary } from './stats';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const OUT = path.join(REPO_ROOT, 'bench', 'results');

function largePage(rows = 1500): string {
  const body = ['<h1>Large</h1><table>'];
  for (let i = 0; i < rows; i++) {
    body.push(`<tr><td>Row ${i}</td><td><a href="#r${i}">Open ${i}</a></td><td><button>Buy ${i}</button></td></tr>`);
  }
  return body.join('') + '</table>';
}

async function main(): Promise<void> {
  const h = await startHarness({ fixturesDir: path.join(REPO_ROOT, 'python-shim-spec/tests/fixtures/shop') });
  const times: Record<string, number[]> = {};
  const add = (k: string, ms: number) => (times[k] ??= []).push(ms);
  try {
    const large = h.fixtures.html('/large', largePage(), 'Large');
    // A page whose button appears when the bench asks (window.change()), with no command involved.
    const change = "const b = document.createElement('button'); b.textContent = 'New ' + Date.now(); document.body.append(b);";
    const later = h.fixtures.html('/later', `<input aria-label="Query"><script>window.change = () => { ${change} }</script>`, 'Later');
    const largeLater = h.fixtures.html('/large-later', `${largePage()}<script>window.change = () => { ${change} }</script>`, 'Large later');
    const sites = [
      ['shop', h.fixtures.url('/index.html')],
      ['large (1500 rows, 500 elements cap)', large],
    ] as const;
    for (const [site, url] of sites) {
      const page = await h.openPage(url);
      const agent = await h.connectAgent();
      const driver = new Seed002Driver(agent, agent);
      await driver.observe();
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await driver.pollChanges();
        add(`one poll: ${site}`, performance.now() - t0);
      }
      await agent.close();
      await page.close();
    }
    const deliveries = [
      ['pushed', later, {}],
      ['pushed, 1500-row page', largeLater, {}],
      ['1000 ms polls', later, { push: false }],
    ] as const;
    for (const [how, url, opts] of deliveries) {
      const page = await h.openPage(url);
      const agent = await h.connectAgent();
      const driver = new Seed002Driver(agent, agent, opts);
      await driver.observe();
      for (let i = 0; i < RUNS; i++) {
        const watching = driver.waitForChange(AbortSignal.timeout(15_000));
        await new Promise((r) => setTimeout(r, 200 + Math.random() * 1000));
        const t0 = performance.now();
        await page.evaluate(() => (window as unknown as { change(): void }).change());
        const got = await watching;
        if (got === null) throw new Error('no change reported within 15 s');
        add(`page change -> delivered (${how})`, performance.now() - t0);
      }
      await agent.close();
      await page.close();
    }
  } finally {
    await h.close();
  }
  const rows = Object.entries(times).map(([k, xs]) => {
    const s = summary(xs);
    return { what: k, n: s.n, mean_ms: Math.round(s.mean), p50_ms: Math.round(s.p50), p95_ms: Math.round(s.p95) };
  });
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const machine = { runs: RUNS, load, cpus: os.cpus().length, date: new Date().toISOString() };
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'seed002-watch.json'), JSON.stringify({ summary: machine, rows }, null, 2) + '\n');
  const md = [
    '# Seed 002 change watch: cost of a poll, delay of a delivery',
    '',
    `${machine.date}, ${RUNS} rounds, load average ${machine.load} on ${machine.cpus} cores (machine shared with other jobs).`,
    'Pushed: the page settles 50 ms, then the state is taken and sent. Polled (push off): a poll runs only while the LLM thinks and',
    'delivery needs two agreeing polls, so expect 1-2 poll intervals plus two polls.',
    '',
    '| what | n | mean ms | p50 ms | p95 ms |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.what} | ${r.n} | ${r.mean_ms} | ${r.p50_ms} | ${r.p95_ms} |`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(OUT, 'seed002-watch.md'), md);
  process.stdout.write(md);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
