// npm run bench:seed003 — seed 003's success criterion "executes actions within 2 seconds on
// average": the executor call (executeStep: one grounded tool call through agent -> bridge ->
// extension -> page, including the settle wait) for each of the seven tools on the fixture shop
// and a large generated page (1500 rows), BENCH_RUNS rounds. dom_snapshot is taken before each
// step and not counted (the seed's DOM extraction is upstream). Not a timed test.
// Writes bench/results/seed003.json and bench/results/seed003.md with the machine's load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { domSnapshot, executeStep, type Seed003ToolCall } from '../bridge/agents/step-executor/executor';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { mean, summary } from './stats';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const OUT = path.join(REPO_ROOT, 'bench', 'results');
const ALL = ['navigate', 'click', 'type', 'search', 'scroll', 'press_key', 'wait'];

function largePage(rows = 1500): string {
  const body = ['<h1>Large</h1><label>Search catalogue <input type="search" placeholder="Search"></label><table>'];
  for (let i = 0; i < rows; i++) {
    body.push(
      `<tr><td>Row ${i}</td><td><a href="#r${i}">Open ${i}</a></td>` +
        `<td><button onclick="this.textContent='Added ${i}'">Buy ${i}</button></td></tr>`,
    );
  }
  return body.join('') + '</table>';
}

async function main(): Promise<void> {
  const h = await startHarness({ fixturesDir: path.join(REPO_ROOT, 'python-shim-spec/tests/fixtures/shop') });
  const times: Record<string, number[]> = {};
  const failures: string[] = [];
  try {
    const large = h.fixtures.html('/large', largePage(), 'Large');
    await h.openPage(h.fixtures.url('/index.html'));
    const agent = await h.connectAgent();
    const step = async (site: string, tool: Seed003ToolCall) => {
      const snap = await domSnapshot(agent);
      const t0 = performance.now();
      const dom = snap.dom_snapshot as unknown as Record<string, unknown>;
      const input = { main_goal: 'bench', plan_step: tool.tool, dom_snapshot: dom, url: snap.url, allowed_tools: ALL };
      const out = await executeStep(agent, input, tool);
      const ms = performance.now() - t0;
      const key = `${site} ${tool.tool}`;
      (times[key] ??= []).push(ms);
      if (out.status !== 'success') failures.push(`${key}: ${out.error_type} ${out.message}`);
    };
    for (let i = 0; i < RUNS; i++) {
      await step('shop', { tool: 'navigate', args: { url: h.fixtures.url('/index.html') } });
      await step('shop', { tool: 'click', args: { role: 'textbox', name: 'Search products' } });
      await step('shop', { tool: 'type', args: { text: 'stapler' } });
      await step('shop', { tool: 'press_key', args: { key: 'Enter' } });
      await step('shop', { tool: 'click', args: { role: 'button', name: 'Add Mini Stapler to cart' } });
      await step('shop', { tool: 'scroll', args: { direction: 'down' } });
      await step('shop', { tool: 'wait', args: { seconds: 1 } });
      await step('shop', { tool: 'navigate', args: { url: h.fixtures.url('/index.html') } });
      await step('shop', { tool: 'search', args: { query: 'pen' } });
      await step('large', { tool: 'navigate', args: { url: large } });
      await step('large', { tool: 'click', args: { role: 'button', name: `Buy ${700 + i}` } });
      await step('large', { tool: 'scroll', args: { direction: 'down' } });
      await step('large', { tool: 'search', args: { query: 'row 5' } });
    }
  } finally {
    await h.close();
  }
  const rows = Object.entries(times).map(([k, xs]) => {
    const s = summary(xs);
    return { step: k, n: s.n, mean_ms: Math.round(s.mean), p50_ms: Math.round(s.p50), p95_ms: Math.round(s.p95) };
  });
  const noWait = Object.entries(times)
    .filter(([k]) => !k.endsWith(' wait'))
    .flatMap(([, xs]) => xs);
  const all = Object.values(times).flat();
  const totals = {
    runs: RUNS,
    mean_ms_all_steps: Math.round(mean(all)),
    mean_ms_without_wait: Math.round(mean(noWait)),
    target_ms: 2000,
    failures,
    load: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
    cpus: os.cpus().length,
    date: new Date().toISOString(),
  };
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'seed003.json'), JSON.stringify({ summary: totals, rows }, null, 2) + '\n');
  const md = [
    '# Seed 003 executor: time per executed step',
    '',
    `${totals.date}, ${RUNS} rounds, load average ${totals.load} on ${totals.cpus} cores (machine shared with other jobs).`,
    `Seed 003's target: within 2 s on average. Mean over all steps: **${totals.mean_ms_all_steps} ms** ` +
      `(without the 1 s wait tool: ${totals.mean_ms_without_wait} ms). Failures: ${failures.length}.`,
    '',
    '| site / tool | n | mean ms | p50 ms | p95 ms |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.step} | ${r.n} | ${r.mean_ms} | ${r.p50_ms} | ${r.p95_ms} |`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(OUT, 'seed003.md'), md);
  process.stdout.write(md);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
