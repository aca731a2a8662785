// npm run bench:repeat — what a state costs when the agent asks again: on an unchanged page, and
// after one action that changed one list item or one form field, beside a fresh walk (the cold
// switch, bench/isolated-world.ts), the bare walk (bench/floor.ts) and Playwright's ariaSnapshot, on
// every bench page (bench/pages.ts), in one Chromium, rounds in a rotating column order. Not a timed
// test: it writes bench/results/state-repeat.{json,md} with the load. Flags: --pages a,b, --runs N
// (default 5), --out DIR. Ours is timed at the agent (get_state through the bridge in its own
// process, bench/deployed.ts) and, beside it, the top frame's walk as the extension reports it
// (timings_ms.top_frame_walk): the walk is what a kept answer saves, the hops stay.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';

import type { GetStateParams, SimplifiedState } from '../schemas/generated/protocol';
import { REPO_ROOT } from '../test/harness/browser';
import { startDeployedSetup } from './deployed';
import { FLOOR_VIEWPORT, FLOOR_WHOLE } from './floor';
import { coldWalks, isolatedEval, walkCount } from './isolated-world';
import { navigateToBenchPage, playwrightPageAt } from './navigate';
import { CHANGE_FIELD, CHANGE_ITEM } from './page-edits';
import { BENCH_PAGES, type BenchPage, serveBenchPages, startBenchSites } from './pages';
import { pct, r1, r2 } from './stats';

const WHOLE: GetStateParams = { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 };
const VIEWPORT: GetStateParams = {};
const COLS = [
  'floor_whole',
  'floor_viewport',
  'playwright',
  'whole_cold',
  'whole_repeat',
  'whole_item',
  'whole_field',
  'viewport_cold',
  'viewport_repeat',
  'viewport_item',
  'since_whole_repeat',
  'since_whole_item',
  'since_whole_field',
  'since_viewport_repeat',
  'since_viewport_item',
] as const;
type Col = (typeof COLS)[number];
const LABEL: Record<Col, string> = {
  floor_whole: 'floor (whole)',
  floor_viewport: 'floor (viewport)',
  playwright: 'Playwright ariaSnapshot',
  whole_cold: 'ours whole, fresh walk',
  whole_repeat: 'ours whole, unchanged page',
  whole_item: 'ours whole, one list item changed',
  whole_field: 'ours whole, one form field changed',
  viewport_cold: 'ours viewport, fresh walk',
  viewport_repeat: 'ours viewport, unchanged page',
  viewport_item: 'ours viewport, one list item changed',
  since_whole_repeat: 'since: whole, unchanged page',
  since_whole_item: 'since: whole, one list item changed',
  since_whole_field: 'since: whole, one form field changed',
  since_viewport_repeat: 'since: viewport, unchanged page',
  since_viewport_item: 'since: viewport, one list item changed',
};
/** The columns asked as real agents ask: the client's getState with since, the delta turned back into the whole state at the agent. */
const isSince = (c: Col) => c.startsWith('since_');

interface Cell {
  ms: number[];
  walk_ms: number[];
  /** The worker's own time for the state (timings_ms.total: walk, content script -> worker, child frames, assembly). */
  worker_ms: number[];
}

interface PageRow {
  page: string;
  dom_elements: number;
  listed_whole: number;
  cols: Partial<Record<Col, { p50: number; p95: number; walk_p50?: number; worker_p50?: number }>>;
  na: Partial<Record<Col, string>>;
  goals: Record<string, { met: boolean | null; detail: string }>;
}

const uptime = () => spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();

function parseArgs(argv: string[]): { pages: BenchPage[]; runs: number; out: string; render: boolean } {
  let runs = Number(process.env['BENCH_RUNS'] ?? 5);
  let pages = BENCH_PAGES;
  let out = path.join(REPO_ROOT, 'bench', 'results');
  let render = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--render') {
      render = true;
      continue;
    }
    const v = argv[++i];
    if (v === undefined) throw new Error(`${a} needs a value; usage: npm run bench:repeat -- [--pages a,b] [--runs N] [--out DIR]`);
    if (a === '--runs') runs = Number(v);
    else if (a === '--out') out = path.resolve(v);
    else if (a === '--pages') pages = BENCH_PAGES.filter((p) => v.split(',').includes(p.key));
    else throw new Error(`unknown argument ${a}; usage: npm run bench:repeat -- [--pages a,b] [--runs N] [--out DIR]`);
  }
  return { pages, runs, out, render };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.render) {
    // Rewrites state-repeat.md from state-repeat.json (no browser).
    const j = JSON.parse(fs.readFileSync(path.join(args.out, 'state-repeat.json'), 'utf8')) as { meta: Meta; rows: PageRow[] };
    for (const r of j.rows) r.goals = goalsOf(r);
    fs.writeFileSync(path.join(args.out, 'state-repeat.md'), markdown(j.meta, j.rows));
    return;
  }
  const started = Date.now();
  const loadStart = uptime();
  const sites = await startBenchSites();
  const served = serveBenchPages(sites, args.pages);
  const h = await startDeployedSetup();
  // As bench/snapshot.ts: Playwright's network inspection of our service worker is no cost a user pays.
  process.env['PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK'] = '1';
  const pw = await chromium.connectOverCDP(h.launched.browser.wsEndpoint());
  const rows: PageRow[] = [];
  try {
    for (const spec of args.pages) {
      const tab = await h.openPage(sites.main.set(`/repeat/start/${spec.key}`, { kind: 'page', body: `<title>start</title><p>start</p>` }));
      const cdp = await tab.createCDPSession();
      const agent = await h.connectAgent();
      let tabId: number | undefined;
      const startUrl = tab.url();
      const pwPage = await playwrightPageAt(pw, startUrl);
      await navigateToBenchPage(tab, cdp, served.get(spec.key) as string, spec);
      const state = async (params: GetStateParams): Promise<SimplifiedState> => {
        const r = await agent.call('get_state', params, { ...(tabId === undefined ? {} : { tabId }), timeoutMs: 120_000 });
        if (r.status !== 'success' || !r.new_simplified_state) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
        tabId = r.new_simplified_state.tab_id;
        return r.new_simplified_state;
      };
      // As real agents ask (AgentClient.getState, bridge/client/state-tracker.ts): since the client's
      // last state of the tab, the answer's delta applied at the agent into the whole state.
      const stateSince = async (params: GetStateParams): Promise<SimplifiedState> => {
        const r = await agent.getState(params, { ...(tabId === undefined ? {} : { tabId }), timeoutMs: 120_000 });
        if (r.status !== 'success' || !r.new_simplified_state) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
        tabId = r.new_simplified_state.tab_id;
        return r.new_simplified_state;
      };
      // The agent takes the tab; the kept state arms in its frames when the worker hears of the lease.
      await state(VIEWPORT);
      await tab.waitForFunction(() => !Function.prototype.toString.call(CSSStyleSheet.prototype.insertRule).includes('[native code]'), {
        timeout: 30_000,
      });
      const evaluate = async (expression: string): Promise<unknown> =>
        ((await cdp.send('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value?: unknown } }).result.value;
      const na: Partial<Record<Col, string>> = {};
      const cells = Object.fromEntries(COLS.map((c) => [c, { ms: [], walk_ms: [], worker_ms: [] } as Cell])) as Record<Col, Cell>;
      let listed = 0;
      const measure = async (col: Col): Promise<void> => {
        let ms: number;
        let s: SimplifiedState | undefined;
        const whole = col.startsWith('whole') || col.startsWith('since_whole');
        const params = whole ? WHOLE : VIEWPORT;
        const ask = isSince(col) ? stateSince : state;
        if (col === 'floor_whole' || col === 'floor_viewport') {
          const t0 = performance.now();
          await evaluate(col === 'floor_whole' ? FLOOR_WHOLE : FLOOR_VIEWPORT);
          ms = performance.now() - t0;
        } else if (col === 'playwright') {
          const t0 = performance.now();
          await pwPage.locator('body').ariaSnapshot({ timeout: 120_000 });
          ms = performance.now() - t0;
        } else {
          if (col.endsWith('cold')) await coldWalks(tab, true);
          else {
            // The state the repeat is measured against (kept; with since also the client's base), then the change, if any.
            await ask(params);
            // With since, the base is itself a repeat: asked right after another column's state, its
            // elements carry is_new against that state's list, and the first repeat's delta would be
            // those marks going away (a one-off patch per element, not what "unchanged" measures).
            if (isSince(col)) await ask(params);
            if (col.endsWith('item') && !(await evaluate(CHANGE_ITEM))) na[col] = 'no list item, cell or paragraph in view';
            if (col.endsWith('field') && !(await evaluate(CHANGE_FIELD))) na[col] = 'no text field';
            if (na[col]) return;
          }
          const before = await walkCount(tab);
          const t0 = performance.now();
          try {
            s = await ask(params);
          } finally {
            if (col.endsWith('cold')) await coldWalks(tab, false);
          }
          ms = performance.now() - t0;
          if (col.endsWith('repeat') && (await walkCount(tab)) !== before)
            na[col] = `walked again: ${await isolatedEval<string>(tab, 'String(window.__browserUseExtWalkCache?.why)')}`;
          cells[col].walk_ms.push(s.timings_ms?.['top_frame_walk'] ?? NaN);
          cells[col].worker_ms.push(s.timings_ms?.['total'] ?? NaN);
          if (col === 'whole_cold') listed = s.actionable_elements.length;
        }
        cells[col].ms.push(ms);
      };
      for (let run = 0; run <= args.runs; run++) {
        const order = COLS.map((_, i) => COLS[(i + run) % COLS.length] as Col);
        for (const col of order) await measure(col);
        // The first round warms up (caches, JIT) and is not counted.
        if (run === 0) for (const c of COLS) cells[c] = { ms: [], walk_ms: [], worker_ms: [] };
      }
      const cols: PageRow['cols'] = {};
      for (const c of COLS) {
        const { ms, walk_ms, worker_ms } = cells[c];
        if (!ms.length) continue;
        const walks = walk_ms.filter((x) => !Number.isNaN(x));
        const workers = worker_ms.filter((x) => !Number.isNaN(x));
        cols[c] = {
          p50: r1(pct(ms, 50)),
          p95: r1(pct(ms, 95)),
          ...(walks.length ? { walk_p50: r1(pct(walks, 50)) } : {}),
          ...(workers.length ? { worker_p50: r1(pct(workers, 50)) } : {}),
        };
      }
      const row: PageRow = {
        page: spec.key,
        dom_elements: (await evaluate('document.getElementsByTagName("*").length')) as number,
        listed_whole: listed,
        cols,
        na,
        goals: {},
      };
      row.goals = goalsOf(row);
      rows.push(row);
      process.stdout.write(`${spec.key}: ${JSON.stringify(cols)}\n`);
      await agent.close().catch(() => undefined);
      await tab.close().catch(() => undefined);
    }
  } finally {
    await pw.close().catch(() => undefined);
    await h.close();
    await sites.close();
  }
  const meta: Meta & { chromium: string } = {
    at: new Date().toISOString(),
    runs: args.runs,
    load_start: loadStart,
    load_end: uptime(),
    wall_s: Math.round((Date.now() - started) / 1000),
    chromium: 'the harness Chromium (test/harness/browser.ts)',
  };
  fs.mkdirSync(args.out, { recursive: true });
  fs.writeFileSync(path.join(args.out, 'state-repeat.json'), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  fs.writeFileSync(path.join(args.out, 'state-repeat.md'), markdown(meta, rows));
  process.stdout.write(`wrote ${path.join(args.out, 'state-repeat.md')}\n`);
}

function goalsOf(r: PageRow): PageRow['goals'] {
  const p = (c: Col) => r.cols[c]?.p50;
  const goal = (ok: boolean | null, detail: string) => ({ met: ok, detail });
  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b);
  const out: PageRow['goals'] = {};
  // Judged on the path real agents use: getState with since (the columns "since: ...").
  const rf = ratio(p('since_whole_repeat'), p('floor_whole'));
  out['unchanged <= 3x floor'] = goal(rf === undefined ? null : rf <= 3, rf === undefined ? 'n/a' : `${r2(rf)}x`);
  const rp = ratio(p('since_whole_repeat'), p('playwright'));
  out['unchanged <= 0.25x Playwright'] = goal(rp === undefined ? null : rp <= 0.25, rp === undefined ? 'n/a' : `${r2(rp)}x`);
  for (const c of ['since_whole_item', 'since_whole_field'] as const) {
    const rc = r.na[c] ? undefined : ratio(p(c), p('since_whole_repeat'));
    out[`${c === 'since_whole_item' ? 'one list item' : 'one form field'} <= 1.5x unchanged`] = goal(
      rc === undefined ? null : rc <= 1.5,
      rc === undefined ? (r.na[c] ?? 'n/a') : `${r2(rc)}x`,
    );
  }
  const v = p('since_viewport_repeat');
  const fv = p('floor_viewport');
  out['viewport <= floor + 10 ms'] = goal(v === undefined || fv === undefined ? null : v <= fv + 10, v === undefined ? 'n/a' : `${v} ms`);
  const w = p('since_whole_repeat');
  out['viewport <= whole'] = goal(v === undefined || w === undefined ? null : v <= w, `${v} / ${w} ms`);
  return out;
}

interface Meta {
  at: string;
  runs: number;
  load_start: string;
  load_end: string;
  wall_s: number;
}

function markdown(meta: Meta, rows: PageRow[]): string {
  const lines = [
    '# bench:repeat — a state asked again: unchanged page, one change, fresh walk',
    '',
    `Generated by \`npm run bench:repeat\` on ${meta.at}: ${meta.runs} runs per column after one warm-up round, rotating column order. ` +
      `2 cores shared with other engineers' builds and browsers. Load at start: \`${meta.load_start}\`; at end: \`${meta.load_end}\`. ` +
      `Wall time ${meta.wall_s} s.`,
    '',
    'Ours is timed at the agent (get_state through the bridge, its own process); in brackets the top frame walk as the extension ' +
      'reports it (timings_ms.top_frame_walk): what a kept answer saves is the walk; the hops to the agent (the same bytes) remain. ' +
      '"fresh walk" = the cold switch (every state walks, nothing kept). "one list item changed" = a text change in one item in view; ' +
      '"one form field changed" = a value typed into the first text field. "since: ..." = the path real agents use: the TS ' +
      "client's getState (AgentClient.getState), asking with since its last state of the tab and turning the state_delta back into " +
      'the whole state at the agent (the time includes that); its base is asked twice, so that the base is a repeat itself (no is_new ' +
      "marks against the previous column's list to take away); the other columns ask without since (the whole state crosses every hop).",
    '',
    '## p50 ms (walk p50)',
    '',
    `| page | DOM | listed | ${COLS.map((c) => LABEL[c]).join(' | ')} |`,
    `|---|---:|---:|${COLS.map(() => '---:').join('|')}|`,
  ];
  for (const r of rows) {
    const cells = COLS.map((c) => {
      if (r.na[c]) return `n/a (${r.na[c]})`;
      const x = r.cols[c];
      if (!x) return 'n/a';
      return x.walk_p50 === undefined ? `${x.p50}` : `${x.p50} (${x.walk_p50})`;
    });
    lines.push(`| ${r.page} | ${r.dom_elements} | ${r.listed_whole} | ${cells.join(' | ')} |`);
  }
  const goalNames = Object.keys(rows[0]?.goals ?? {});
  lines.push(
    '',
    '## Goals (issue: page state near the floor)',
    '',
    'Judged on the since path (the "since: ..." columns), the way the TS client and the Python shim ask.',
    '',
    `| page | ${goalNames.join(' | ')} |`,
    `|---|${goalNames.map(() => '---').join('|')}|`,
  );
  for (const r of rows) {
    const g = goalNames.map((n) => {
      const x = r.goals[n];
      return x ? `${x.met === null ? '-' : x.met ? 'met' : 'NOT met'} (${x.detail})` : '-';
    });
    lines.push(`| ${r.page} | ${g.join(' | ')} |`);
  }
  // The walk alone (what the kept answer changes; the hops are the same bytes either way).
  const w = (r: PageRow, c: Col) => r.cols[c]?.walk_p50;
  lines.push(
    '',
    '## The walk alone (timings_ms.top_frame_walk, p50 ms)',
    '',
    'At the agent the hops (the same state moved to the worker, the bridge and the agent) dominate a kept answer, so the goals ' +
      'above mostly measure them. Here the walk alone: a kept answer against the bare walk, and what one change costs (a fresh walk: ' +
      'any change walks the whole scope again).',
    '',
    '| page | floor (whole) | fresh walk | unchanged | unchanged / floor | one list item | one form field |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    const f = r.cols.floor_whole?.p50;
    const u = w(r, 'whole_repeat');
    const ratio = f && u !== undefined ? `${r2(u / f)}x` : 'n/a';
    const cell = (c: Col) => (r.na[c] ? 'n/a' : String(w(r, c) ?? 'n/a'));
    lines.push(
      `| ${r.page} | ${f ?? 'n/a'} | ${cell('whole_cold')} | ${cell('whole_repeat')} | ${ratio} | ${cell('whole_item')} | ${cell('whole_field')} |`,
    );
  }
  // Per hop, from the timings the state carries: the worker's own time (timings_ms.total: the walk,
  // content script -> worker, child frames, assembly) and the rest (the bridge both ways, the
  // worker's delta/scrub/stringify/send, the agent's parse and delta apply).
  const since = COLS.filter(isSince);
  lines.push(
    '',
    '## Per hop on the since path (p50 ms: at the agent / worker collect / walk)',
    '',
    'worker collect = timings_ms.total (walk + content script -> worker + child frames + assembly); at the agent minus it = ' +
      "agent -> bridge -> worker, the worker's delta, scrub and send, worker -> bridge -> agent, and the agent's parse and delta apply.",
    '',
    `| page | ${since.map((c) => LABEL[c]).join(' | ')} |`,
    `|---|${since.map(() => '---:').join('|')}|`,
  );
  for (const r of rows) {
    const cells = since.map((c) => {
      const x = r.cols[c];
      if (r.na[c] || !x) return 'n/a';
      return `${x.p50} / ${x.worker_p50 ?? 'n/a'} / ${x.walk_p50 ?? 'n/a'}`;
    });
    lines.push(`| ${r.page} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
