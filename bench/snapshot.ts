// npm run bench:snapshot — the snapshot performance targets (the Targets table it writes), every
// column side by side, in ONE Chromium, interleaved, on generated pages (bench/pages.ts). Not a
// timed test: it writes bench/results/snapshot.{json,md}. Flags: --pages a,b (keys from
// bench/pages.ts), --runs N (default 5, or $BENCH_RUNS), --out DIR (default bench/results),
// --render (rewrite snapshot.md from snapshot.json only), --quick (or BENCH_QUICK=1): the pages in
// QUICK_PAGES only, same runs per column, written to bench/tmp/quick unless --out is given. Quick
// is about half the full run's work (the full run takes about 4.5 min on an idle machine; quick
// took 6 min at load average 12 on 2 cores), for before/after comparisons of the ratios between
// columns on one machine, not for bench/results.
// Columns, each timed at its caller, one warm-up round (reported as "first call") then N rounds in a
// rotating order so drift hits every column alike:
//   ours viewport   agent.call('get_state', {}) through the real bridge and extension, the bridge in
//                   its own process as deployed (bench/deployed.ts; BENCH_BRIDGE=inline runs it in
//                   this process, as the test harness does, which adds this process's load to it)
//   ours whole      get_state {viewport_expansion: -1, limits raised}
//   playwright      page.locator('body').ariaSnapshot() (playwright-core over CDP, same tab)
//   browser_use     its own buildDomTree.js from the installed browser-use 0.1.48 (browser-use-js.ts),
//                   called as browser_use calls it (Playwright page.evaluate(js, args)), highlights
//                   off (they would add nodes to the page the other columns then measure):
//                   viewportExpansion 0 (its default) and -1 (whole page)
//   floor           bench/floor.ts: a walk calling getBoundingClientRect on every element (and a
//                   viewport variant that does not enter subtrees lying outside the viewport)
// Text and tokens (gpt-tokenizer, o200k_base): ours = renderAriaTree (seed 001) and renderBrowserUse
// (the browser_use prompt format the shim gives agents); Playwright's YAML; browser_use's own prompt
// text from its element tree (bench/bu_tokens.py, run with the same browser-use interpreter).
// "Interactive missed": Chromium accessibility-tree nodes (Accessibility.getFullAXTree, top frame)
// with an interactive role that our whole-page state does not list. The click target is read from
// bench/results/actions.json (npm run bench:actions), not measured here.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { countTokens } from 'gpt-tokenizer';
import { chromium } from 'playwright-core';

import type { GetStateParams, SimplifiedState } from '../schemas/generated/protocol';
import { renderAriaTree, renderBrowserUse } from '../schemas/lib/render';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { findBrowserUseJs } from './browser-use-js';
import { startDeployedSetup } from './deployed';
import { FLOOR_VIEWPORT, FLOOR_WHOLE } from './floor';
import { type HopCosts, hopCosts, hopCostsMarkdown } from './hop-costs';
import { navigateToBenchPage, playwrightPageAt } from './navigate';
import { AD_SLOTS, BENCH_PAGES, type BenchPage, serveBenchPages, startBenchSites } from './pages';
import { pct, r1 } from './stats';
import { measureTransport, type TransportRow } from './transport-floor';

const INTERACTIVE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'treeitem',
]);
const WHOLE: GetStateParams = { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 };
/** A column whose first call takes longer than SLOW_MS gets SLOW_RUNS timed runs; a call over CAP_MS is stopped. */
const SLOW_MS = 2000;
const SLOW_RUNS = 2;
const CAP_MS = 20_000;
const COLS = ['ours_viewport', 'ours_whole', 'playwright', 'bu_viewport', 'bu_whole', 'floor_whole', 'floor_viewport'] as const;
type Col = (typeof COLS)[number];
const LABEL: Record<Col, string> = {
  ours_viewport: 'ours viewport (default)',
  ours_whole: 'ours whole page',
  playwright: 'Playwright ariaSnapshot',
  bu_viewport: 'browser_use buildDomTree (viewport, its default)',
  bu_whole: 'browser_use buildDomTree (whole page)',
  floor_whole: 'floor (whole page)',
  floor_viewport: 'floor (viewport, pruned walk)',
};

/** The quick run's pages: one of each kind (many links, frames, a huge table, forms, shadow DOM, web components). */
const QUICK_PAGES = ['wiki-article', 'news-ads', 'news-saved', 'wc-todo', 'table-10k', 'form-heavy', 'shadow-app'];

interface Args {
  /** Only re-render snapshot.md from the snapshot.json in --out (no browser). */
  render: boolean;
  pages: BenchPage[];
  runs: number;
  out: string;
}

function parseArgs(argv: string[]): Args {
  let runs = Number(process.env['BENCH_RUNS'] ?? 5);
  let pages = BENCH_PAGES;
  let out: string | undefined;
  let render = false;
  let quick = process.env['BENCH_QUICK'] === '1';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--render') render = true;
    else if (a === '--quick') quick = true;
    else if (a === '--runs') runs = Number(value());
    else if (a === '--out') out = path.resolve(value());
    else if (a === '--pages') {
      const keys = value()
        .split(',')
        .map((k) => k.trim());
      const unknown = keys.filter((k) => !BENCH_PAGES.some((p) => p.key === k));
      if (unknown.length) throw new Error(`unknown page(s) ${unknown.join(', ')}; pages: ${BENCH_PAGES.map((p) => p.key).join(', ')}`);
      pages = BENCH_PAGES.filter((p) => keys.includes(p.key));
    } else {
      throw new Error(`unknown argument ${a}; usage: npm run bench:snapshot -- [--pages a,b] [--runs N] [--out DIR] [--quick] [--render]`);
    }
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  if (quick && pages === BENCH_PAGES) pages = BENCH_PAGES.filter((p) => QUICK_PAGES.includes(p.key));
  out ??= path.join(REPO_ROOT, 'bench', quick ? 'tmp/quick' : 'results');
  return { render, pages, runs, out };
}

interface ColResult {
  first_ms: number;
  runs_ms: number[];
  p50_ms: number;
  p95_ms: number;
  /** The text an LLM reads, for the columns that make one. */
  text_bytes?: number;
  tokens?: number;
  /** Ours: the default rendering (long off-screen runs summarised). */
  default_tokens?: number;
  /** Ours: the full listing with every ` [ref=eN]` removed (what the refs alone cost; Playwright's plain snapshot has none). */
  no_ref_tokens?: number;
  /** Playwright: ariaSnapshot({mode: 'ai'}), which carries refs. */
  ai_tokens?: number;
  /** Ours only: the same state in browser_use's prompt format (renderBrowserUse). */
  browser_use_format_tokens?: number;
  json_bytes?: number;
  /** Elements listed (ours), interactive lines (Playwright), highlight indexes (browser_use), elements visited (floor). */
  count?: number;
  truncated?: string;
  /** Ours: the worker's timings_ms per run (frames_fetched is the time spent waiting on iframes). */
  timings?: Record<string, number>[];
}

interface FramesReport {
  /** The wait for one frame's answer that the extension documents, parsed from its frame messages. */
  budget_ms: number | null;
  frames_fetched_ms: Record<'ours_viewport' | 'ours_whole', { p50: number; max: number }>;
  statuses: Record<'ours_viewport' | 'ours_whole', Record<string, number>>;
  /** The ad frames that cannot answer (frozen, never-finishing), and whether the whole-page state lists each as left out. */
  dead_frames: { slot: number; kind: string; listed_as: string }[];
  /** Child frames the whole-page state lists as not ok (left out). */
  listed_left_out: number;
  not_ok: { frame_id: number; url: string; status: string; message?: string }[];
}

interface Target {
  met: boolean | null;
  detail: string;
}

interface PageResult {
  page: string;
  title: string;
  html_bytes: number;
  dom_elements: number;
  cols: Partial<Record<Col, ColResult>>;
  na: Partial<Record<Col, string>>;
  browser_use_tokens?: { viewport?: number; whole?: number };
  ax_interactive: number;
  missing_vs_ax: number;
  missing_examples: string[];
  frames?: FramesReport;
  /** Where the whole-page time goes (bench/hop-costs.ts). */
  hops?: HopCosts | null;
  targets: Record<string, Target>;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const uptime = () => spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();

function countPlaywrightInteractive(yaml: string): number {
  let n = 0;
  for (const line of yaml.split('\n')) {
    const m = /^\s*- ([a-z]+)/.exec(line);
    if (m && INTERACTIVE.has(m[1] as string)) n++;
  }
  return n;
}

function missingVsAx(ax: { role?: { value?: string }; name?: { value?: string } }[], state: SimplifiedState): string[] {
  const ours = new Map<string, number>();
  for (const e of state.actionable_elements) {
    for (const k of new Set([`${e.role}|${e.name}`, `*|${e.name}`])) ours.set(k, (ours.get(k) ?? 0) + 1);
  }
  const missing: string[] = [];
  for (const n of ax) {
    const name = String(n.name?.value ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    const key = `${n.role?.value}|${name}`;
    const any = `*|${name}`;
    if ((ours.get(key) ?? 0) > 0) {
      ours.set(key, (ours.get(key) ?? 0) - 1);
      ours.set(any, (ours.get(any) ?? 0) - 1);
    } else if ((ours.get(any) ?? 0) > 0) {
      ours.set(any, (ours.get(any) ?? 0) - 1); // same element, a role we name differently
    } else missing.push(`${n.role?.value} "${name}"`);
  }
  return missing;
}

function framesReport(states: Record<'ours_viewport' | 'ours_whole', SimplifiedState[]>): FramesReport {
  const fetched = (ss: SimplifiedState[]) => {
    const xs = ss.map((s) => s.timings_ms?.['frames_fetched'] ?? NaN).filter((x) => !Number.isNaN(x));
    return { p50: r1(pct(xs, 50)), max: r1(Math.max(...xs)) };
  };
  const statuses = (s: SimplifiedState | undefined) => {
    const out: Record<string, number> = {};
    for (const f of s?.frames ?? []) if (f.parent_frame_id !== null) out[f.status] = (out[f.status] ?? 0) + 1;
    return out;
  };
  const whole = states.ours_whole.at(-1);
  const frames = whole?.frames ?? [];
  // The budget as the extension reports it: a number of ms in an unreachable frame's message, or a
  // timings_ms entry whose name says budget (the extension's bounded wait for a frame that does not answer).
  const all = [...states.ours_viewport, ...states.ours_whole];
  const budgets = [
    ...all.flatMap((s) => (s.frames ?? []).map((f) => (f.status === 'unreachable' ? /(\d+)\s*ms/.exec(f.message ?? '')?.[1] : undefined))),
    ...all.flatMap((s) =>
      Object.entries(s.timings_ms ?? {})
        .filter(([k]) => /budget/i.test(k))
        .map(([, v]) => String(v)),
    ),
  ].filter((x): x is string => !!x);
  // Frames that can never answer: renderer frozen, document never finishes, request never answered.
  const dead = AD_SLOTS.flatMap((slot, i) =>
    slot.kind === 'frozen' || slot.kind === 'stall' || slot.kind === 'hang' ? [{ slot: i, kind: slot.kind }] : [],
  );
  const notOk = frames.filter((f) => f.parent_frame_id !== null && f.status !== 'ok');
  const byUrl = dead.map((d) => frames.find((x) => x.url.endsWith(`/ad/${d.slot}`)));
  return {
    budget_ms: budgets.length ? Math.max(...budgets.map(Number)) : null,
    frames_fetched_ms: { ours_viewport: fetched(states.ours_viewport), ours_whole: fetched(states.ours_whole) },
    statuses: { ours_viewport: statuses(states.ours_viewport.at(-1)), ours_whole: statuses(whole) },
    dead_frames: dead.map((d, i) => ({ ...d, listed_as: byUrl[i]?.status ?? 'no frame with its URL' })),
    listed_left_out: notOk.length,
    not_ok: notOk.map((f) => ({ frame_id: f.frame_id, url: f.url, status: f.status, ...(f.message ? { message: f.message } : {}) })),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.render) {
    const j = JSON.parse(fs.readFileSync(path.join(args.out, 'snapshot.json'), 'utf8')) as {
      meta: Parameters<typeof markdown>[0];
      results: PageResult[];
    };
    for (const r of j.results) r.targets = targetsOf(r);
    fs.writeFileSync(path.join(args.out, 'snapshot.md'), markdown(j.meta, j.results));
    process.stdout.write(`re-rendered ${path.join(args.out, 'snapshot.md')} from snapshot.json\n`);
    return;
  }
  const started = Date.now();
  const loadStart = uptime();
  const bu = findBrowserUseJs();
  // A function object made from browser_use's own source: Playwright sends fn.toString() to the page.
  const buFn = bu.ok ? (new Function(`return (${bu.js.trim().replace(/;$/, '')});`)() as (a: unknown) => unknown) : () => null;
  const sites = await startBenchSites();
  const served = serveBenchPages(sites, args.pages);
  const inline = process.env['BENCH_BRIDGE'] === 'inline';
  const h = inline ? await startHarness() : await startDeployedSetup();
  // Playwright attached over CDP also attaches to every service worker of the browser, ours
  // included, and turns on network inspection there: every WebSocket frame our worker sends (a
  // whole-page state is 0.1-2 MB) is then copied to Playwright as a DevTools event and parsed in
  // this process, which also runs the bridge and the agent. That added ~15-20 ms to each
  // news-saved state (timestamps at each hop, worker ws.send -> bridge receive: 3.8 ms without,
  // 20.2 ms with) and is no cost a user of the extension pays: nothing inspects our worker's
  // network. Playwright's own column is unaffected (its page session keeps network inspection).
  // BENCH_PW_SW_NETWORK=1 keeps it on (to measure what it costs).
  if (process.env['BENCH_PW_SW_NETWORK'] !== '1') process.env['PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK'] = '1';
  const pw = await chromium.connectOverCDP(h.launched.browser.wsEndpoint());
  const results: PageResult[] = [];
  let transport: TransportRow[] = [];
  const buDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-bench-bu-'));
  const chromiumVersion = await h.launched.browser.version();
  try {
    let tabId: number | undefined;
    let agent: Awaited<ReturnType<typeof h.connectAgent>> | undefined;
    const getState = async (params: GetStateParams): Promise<{ ms: number; state: SimplifiedState }> => {
      if (!agent) throw new Error('no agent');
      const t0 = performance.now();
      const r = await agent.call('get_state', params, { ...(tabId === undefined ? {} : { tabId }), timeoutMs: 120_000 });
      const ms = performance.now() - t0;
      if (r.status !== 'success' || !r.new_simplified_state) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
      tabId = r.new_simplified_state.tab_id;
      return { ms, state: r.new_simplified_state };
    };

    for (const spec of args.pages) {
      // A fresh tab (and agent session, which takes the active tab) per page: leaving a page whose
      // frames block their renderer can stall a navigation for minutes, so that tab is abandoned.
      const tab = await h.openPage(
        sites.main.set(`/bench/start/${spec.key}`, { kind: 'page', body: `<!doctype html><title>start ${spec.key}</title><p>start</p>` }),
      );
      const cdp = await tab.createCDPSession();
      await agent?.close().catch(() => undefined);
      agent = await h.connectAgent();
      tabId = undefined;
      const startUrl = tab.url();
      const pwPage = await playwrightPageAt(pw, startUrl);
      const url = served.get(spec.key) as string;
      await navigateToBenchPage(tab, cdp, url, spec);
      const domElements = await tab.evaluate(() => document.getElementsByTagName('*').length);
      const body = pwPage.locator('body');
      const states: Record<'ours_viewport' | 'ours_whole', SimplifiedState[]> = { ours_viewport: [], ours_whole: [] };
      let yaml = '';
      const buMaps: Partial<Record<'bu_viewport' | 'bu_whole', unknown>> = {};
      const buCounts: Partial<Record<'bu_viewport' | 'bu_whole', number>> = {};
      const floorCounts: Partial<Record<'floor_whole' | 'floor_viewport', number>> = {};
      const na: Partial<Record<Col, string>> = bu.ok ? {} : { bu_viewport: bu.why, bu_whole: bu.why };
      const cols = COLS.filter((c) => !na[c]);
      const runs: Record<Col, number[]> = {
        ours_viewport: [],
        ours_whole: [],
        playwright: [],
        bu_viewport: [],
        bu_whole: [],
        floor_whole: [],
        floor_viewport: [],
      };
      const first: Partial<Record<Col, number>> = {};
      const measure = async (col: Col): Promise<number> => {
        const t0 = performance.now();
        switch (col) {
          case 'ours_viewport':
          case 'ours_whole': {
            const { ms, state } = await getState(col === 'ours_whole' ? WHOLE : {});
            states[col].push(state);
            return ms;
          }
          case 'playwright':
            yaml = await body.ariaSnapshot({ timeout: 120_000 });
            break;
          case 'bu_viewport':
          case 'bu_whole': {
            if (!bu.ok) return NaN;
            // browser_use's call (dom/service.py): page.evaluate(js_code, args). Python's Playwright
            // detects that the string is a function; the Node client needs the function itself.
            const evaluating = pwPage.evaluate(buFn, {
              doHighlightElements: false,
              focusHighlightIndex: -1,
              viewportExpansion: col === 'bu_whole' ? -1 : 0,
              debugMode: false,
            });
            let timer: ReturnType<typeof setTimeout> | undefined;
            const capped = new Promise<'capped'>((r) => (timer = setTimeout(() => r('capped'), CAP_MS)));
            const m = await Promise.race([evaluating, capped]).finally(() => clearTimeout(timer));
            const ms = performance.now() - t0;
            if (m === 'capped') {
              // Stop the walk in the page (it would hold the page's main thread for the next columns).
              await cdp.send('Runtime.terminateExecution').catch(() => undefined);
              await evaluating.catch(() => undefined);
              return Infinity;
            }
            buMaps[col] = m;
            buCounts[col] = Object.values((m as { map: Record<string, { highlightIndex?: number }> }).map).filter(
              (n) => typeof n?.highlightIndex === 'number',
            ).length;
            return ms;
          }
          case 'floor_whole':
          case 'floor_viewport': {
            const r = (await cdp.send('Runtime.evaluate', {
              expression: col === 'floor_whole' ? FLOOR_WHOLE : FLOOR_VIEWPORT,
              returnByValue: true,
            })) as { result: { value?: number } };
            const ms = performance.now() - t0;
            floorCounts[col] = r.result.value ?? 0;
            return ms;
          }
        }
        return performance.now() - t0;
      };
      // A column whose warm-up call is slow (browser_use on big pages takes seconds) gets fewer
      // timed runs; one that passes CAP_MS is stopped and reported as such (n/a).
      const maxRuns: Partial<Record<Col, number>> = {};
      for (let run = 0; run <= args.runs; run++) {
        // Rotate the order each round so no column always runs right after the same one.
        const order = cols.map((_, i) => cols[(i + run) % cols.length] as Col);
        for (const col of order) {
          if (na[col] || run > (maxRuns[col] ?? args.runs)) continue;
          const ms = await measure(col);
          if (ms === Infinity) {
            na[col] = `stopped: a call took over ${CAP_MS / 1000} s (Runtime.terminateExecution)`;
            continue;
          }
          if (run === 0) {
            first[col] = r1(ms);
            if (ms > SLOW_MS) maxRuns[col] = Math.min(args.runs, SLOW_RUNS);
          } else runs[col].push(ms);
        }
      }

      const colResults: Partial<Record<Col, ColResult>> = {};
      for (const col of cols.filter((c) => !na[c])) {
        const base: ColResult = {
          first_ms: first[col] ?? NaN,
          runs_ms: runs[col].map(r1),
          p50_ms: r1(pct(runs[col], 50)),
          p95_ms: r1(pct(runs[col], 95)),
        };
        if (col === 'ours_viewport' || col === 'ours_whole') {
          const state = states[col].at(-1) as SimplifiedState;
          // Like for like with Playwright (every element, each with its ref): the full listing. The
          // default rendering summarises long off-screen runs (schemas/lib/render/aria-tree.ts), so
          // it is reported beside it, not in its place.
          const text = renderAriaTree(state, { summarize: false });
          Object.assign(base, {
            text_bytes: bytes(text),
            tokens: countTokens(text),
            default_tokens: countTokens(renderAriaTree(state)),
            no_ref_tokens: countTokens(text.replace(/ \[ref=[^\]]+\]/g, '')),
            browser_use_format_tokens: countTokens(renderBrowserUse(state)),
            json_bytes: bytes(JSON.stringify(state)),
            count: state.actionable_elements.length,
            ...(state.truncation ? { truncated: state.truncation.message } : {}),
            timings: states[col].slice(1).map((s) => s.timings_ms ?? {}),
          });
        } else if (col === 'playwright') {
          // Its "ai" mode carries refs like ours (tokens only, untimed).
          const ai = await body.ariaSnapshot({ mode: 'ai', timeout: 120_000 }).catch(() => null);
          Object.assign(base, {
            text_bytes: bytes(yaml),
            tokens: countTokens(yaml),
            count: countPlaywrightInteractive(yaml),
            ...(ai === null ? {} : { ai_tokens: countTokens(ai) }),
          });
        } else if (col === 'bu_viewport' || col === 'bu_whole')
          Object.assign(base, { json_bytes: bytes(JSON.stringify(buMaps[col])), count: buCounts[col] });
        else Object.assign(base, { count: floorCounts[col] });
        colResults[col] = base;
      }
      for (const col of ['bu_viewport', 'bu_whole'] as const)
        if (buMaps[col] && !na[col]) fs.writeFileSync(path.join(buDir, `${spec.key}.${col}.json`), JSON.stringify(buMaps[col]));

      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
        nodes: { ignored: boolean; role?: { value?: string }; name?: { value?: string } }[];
      };
      const ax = nodes.filter((n) => !n.ignored && INTERACTIVE.has(String(n.role?.value ?? '')));
      const missing = missingVsAx(ax, states.ours_whole.at(-1) as SimplifiedState);
      results.push({
        page: spec.key,
        title: spec.title,
        html_bytes: await tab.evaluate(() => document.documentElement.outerHTML.length),
        dom_elements: domElements,
        cols: colResults,
        na,
        ax_interactive: ax.length,
        missing_vs_ax: missing.length,
        missing_examples: missing.slice(0, 5),
        ...(spec.badFrames ? { frames: framesReport(states) } : {}),
        hops: colResults.ours_whole ? hopCosts(states.ours_whole.slice(1), runs.ours_whole) : null,
        targets: {},
      });
      const c = colResults;
      if (!spec.badFrames) await tab.close().catch(() => undefined);
      process.stdout.write(
        `${spec.key}: ours viewport ${c.ours_viewport?.p50_ms} ms, whole ${c.ours_whole?.p50_ms} ms / ${c.ours_whole?.tokens} tok; ` +
          `playwright ${c.playwright?.p50_ms} ms / ${c.playwright?.tokens} tok; browser_use ${c.bu_whole?.p50_ms ?? 'n/a'} ms; floor ` +
          `${c.floor_whole?.p50_ms} ms; missed ${missing.length}\n`,
      );
    }
    // What moving the bytes alone costs in this browser (bench/transport-floor.ts).
    const tUrl = sites.main.set('/bench/transport', { kind: 'page', body: '<!doctype html><title>transport</title><p>transport</p>' });
    await h.openPage(tUrl);
    transport = await measureTransport(h, tUrl, [10_000, 100_000, 500_000, 1_000_000, 2_000_000], 7).catch((e: Error) => {
      process.stdout.write(`transport floor not measured: ${e.message}\n`);
      return [];
    });
  } finally {
    await pw.close().catch(() => undefined);
    await h.close();
    await sites.close();
  }

  // browser_use's own prompt text, from the last run's buildDomTree output of each page.
  let buTokensNote = bu.ok ? 'browser_use 0.1.48 clickable_elements_to_string (bench/bu_tokens.py)' : bu.why;
  if (bu.ok) {
    const files = results
      .flatMap((r) => [`${r.page}.bu_viewport.json`, `${r.page}.bu_whole.json`].map((f) => path.join(buDir, f)))
      .filter((f) => fs.existsSync(f));
    const py = spawnSync(bu.python, [path.join(REPO_ROOT, 'bench', 'bu_tokens.py'), ...files], {
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 1 << 26,
    });
    if (py.status !== 0)
      buTokensNote = `bench/bu_tokens.py failed: ${(py.stderr || String(py.error ?? '')).trim().split('\n').slice(-3).join(' ')}`;
    else {
      for (const r of results) {
        const read = (col: string) => {
          const f = path.join(buDir, `${r.page}.${col}.txt`);
          return fs.existsSync(f) ? countTokens(fs.readFileSync(f, 'utf8')) : undefined;
        };
        const [viewport, whole] = [read('bu_viewport'), read('bu_whole')];
        r.browser_use_tokens = { ...(viewport === undefined ? {} : { viewport }), ...(whole === undefined ? {} : { whole }) };
      }
    }
  }
  fs.rmSync(buDir, { recursive: true, force: true });

  const click = clickTarget();
  for (const r of results) r.targets = targetsOf(r);
  const meta = {
    date: new Date().toISOString(),
    runs_per_column: args.runs,
    order: 'one warm-up round (first call), then rounds in a rotating column order',
    bridge: inline
      ? 'in the bench process (BENCH_BRIDGE=inline, as the test harness runs it)'
      : 'its own process (the built CLI, as deployed); the agent client in the bench process',
    chromium: `${chromiumVersion} (/usr/bin/chromium, headless; one browser for every column)`,
    playwright_core: (
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'playwright-core', 'package.json'), 'utf8')) as { version: string }
    ).version,
    browser_use: bu.ok ? `${bu.version}: ${bu.file}` : `n/a: ${bu.why}`,
    browser_use_tokens: buTokensNote,
    tokenizer: 'gpt-tokenizer (o200k_base)',
    cores: os.cpus().length,
    load_start: loadStart,
    load_end: uptime(),
    machine_note: 'shared machine: other engineers run builds, tests and Chromium at the same time',
    click,
    transport,
    wall_s: Math.round((Date.now() - started) / 1000),
  };
  fs.mkdirSync(args.out, { recursive: true });
  fs.writeFileSync(path.join(args.out, 'snapshot.json'), `${JSON.stringify({ meta, results }, null, 2)}\n`);
  fs.writeFileSync(path.join(args.out, 'snapshot.md'), markdown(meta, results));
  process.stdout.write(`wrote ${path.relative(process.cwd(), args.out) || '.'}/snapshot.{json,md} (${meta.wall_s} s)\n`);
}

/** The click target (settle off, small page, p50 <= 5 ms), from the last bench:actions run. */
function clickTarget(): { source: string; generated_at?: string; p50_ms?: number; met: boolean | null } {
  const file = path.join(REPO_ROOT, 'bench', 'results', 'actions.json');
  try {
    const j = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      generated_at?: string;
      summary?: { page: string; settle_off?: { ours_p50?: number } }[];
    };
    const p50 = j.summary?.find((s) => s.page === 'small')?.settle_off?.ours_p50;
    return {
      source: 'bench/results/actions.json (npm run bench:actions; read, not re-measured here)',
      ...(j.generated_at ? { generated_at: j.generated_at } : {}),
      ...(p50 === undefined ? {} : { p50_ms: p50 }),
      met: p50 === undefined ? null : p50 <= 5,
    };
  } catch (e) {
    return { source: `bench/results/actions.json unreadable (${(e as Error).message}); run npm run bench:actions`, met: null };
  }
}

function targetsOf(r: PageResult): Record<string, Target> {
  const c = r.cols;
  const whole = c.ours_whole;
  const vp = c.ours_viewport;
  const floor = c.floor_whole;
  const pw = c.playwright;
  const t: Record<string, Target> = {};
  const ratio = (a?: number, b?: number) => (a !== undefined && b ? a / b : NaN);
  const wf = ratio(whole?.p50_ms, floor?.p50_ms);
  t['whole_le_3x_floor'] = { met: wf <= 3, detail: `${wf.toFixed(1)}x` };
  const wp = ratio(whole?.p50_ms, pw?.p50_ms);
  t['whole_le_0.25x_playwright'] = { met: wp <= 0.25, detail: `${wp.toFixed(2)}x` };
  const tp = ratio(whole?.tokens, pw?.tokens);
  const tpAi = ratio(whole?.tokens, pw?.ai_tokens);
  const tpDefault = ratio(whole?.default_tokens, pw?.tokens);
  t['tokens_le_0.5x_playwright'] = {
    met: tp <= 0.5,
    detail:
      `${tp.toFixed(2)}x (vs its ai mode with refs: ${Number.isFinite(tpAi) ? `${tpAi.toFixed(2)}x` : 'n/a'}; default rendering: ` +
      `${tpDefault.toFixed(2)}x)`,
  };
  t['nothing_missed'] = { met: r.missing_vs_ax === 0, detail: `${r.missing_vs_ax} of ${r.ax_interactive}` };
  const over = (vp?.p50_ms ?? NaN) - (floor?.p50_ms ?? NaN);
  t['viewport_le_floor_plus_10ms'] = { met: over <= 10, detail: `${over >= 0 ? '+' : ''}${over.toFixed(1)} ms` };
  t['viewport_le_whole'] = { met: (vp?.p50_ms ?? NaN) <= (whole?.p50_ms ?? NaN), detail: `${vp?.p50_ms} vs ${whole?.p50_ms} ms` };
  if (r.frames) {
    const f = r.frames;
    const held = Math.max(f.frames_fetched_ms.ours_viewport.max, f.frames_fetched_ms.ours_whole.max);
    // Listed: by URL where the state names the frame's URL, else by count of frames it lists as left out.
    const named = f.dead_frames.filter((d) => d.listed_as !== 'no frame with its URL');
    const listed = named.every((d) => d.listed_as !== 'ok') && f.listed_left_out >= f.dead_frames.length;
    const withinBudget = f.budget_ms !== null && held <= f.budget_ms + 50;
    t['dead_frames_bounded_and_listed'] = {
      met: withinBudget && listed,
      detail:
        `waited up to ${held} ms on frames (budget ${f.budget_ms === null ? 'not stated' : `${f.budget_ms} ms`}); ` +
        `${f.listed_left_out} frames listed as left out for ${f.dead_frames.length} dead ones (${named.length} recognisable by URL)`,
    };
  }
  return t;
}

const yn = (t?: Target) => (t === undefined ? '' : t.met === null ? '?' : t.met ? 'yes' : '**NO**');

function markdown(meta: Record<string, unknown> & { click: ReturnType<typeof clickTarget> }, results: PageResult[]): string {
  const cell = (r: PageResult, col: Col) => {
    const c = r.cols[col];
    if (!c) return r.na[col]?.startsWith('stopped') ? `> ${CAP_MS} (stopped)` : 'n/a';
    return `${c.p50_ms} / ${c.p95_ms}${c.runs_ms.length < Number(meta['runs_per_column']) ? ` (${c.runs_ms.length} runs)` : ''}`;
  };
  const L: string[] = [
    '# bench:snapshot — the snapshot targets, side by side',
    '',
    `Generated by \`npm run bench:snapshot\` on ${meta['date']}: ${meta['runs_per_column']} runs per column after one warm-up, ` +
      `${meta['order']}. ${meta['cores']} cores; ${meta['machine_note']}.`,
    `Load at start: \`${meta['load_start']}\`; at end: \`${meta['load_end']}\`. Wall time ${meta['wall_s']} s. Bridge: ${meta['bridge'] ?? 'in the bench process'}.`,
    `Chromium ${meta['chromium']}; playwright-core ${meta['playwright_core']}; browser_use ${meta['browser_use']}; tokens: ` +
      `${meta['tokenizer']}.`,
    '',
    'Every column is timed at its caller. Ours: `get_state` through the real bridge and extension (agent -> bridge -> worker -> content ' +
      'scripts -> back). Playwright: `locator(body).ariaSnapshot()` over CDP on the same tab. browser_use: its own `buildDomTree.js` ' +
      'from the installed 0.1.48 package, called as browser_use calls it (`page.evaluate(js, args)`, highlights off). Floor: a walk ' +
      'calling `getBoundingClientRect` on every element (bench/floor.ts); the viewport floor does not enter subtrees lying wholly ' +
      'outside the viewport. Floors and buildDomTree see the top document only.',
    '',
    '## Time, p50 / p95 ms',
    '',
    `| page | DOM elements | ${COLS.map((c) => LABEL[c]).join(' | ')} |`,
    `|---|---:|${COLS.map(() => '---:').join('|')}|`,
  ];
  for (const r of results) L.push(`| ${r.page} | ${r.dom_elements} | ${COLS.map((c) => cell(r, c)).join(' | ')} |`);
  const nas = results.flatMap((r) => Object.entries(r.na).map(([c, why]) => `${r.page} / ${LABEL[c as Col]}: ${why}`));
  if (nas.length) L.push('', `n/a: ${nas.join('; ')}.`);
  L.push('', `A column whose first call took over ${SLOW_MS / 1000} s got ${SLOW_RUNS} timed runs (marked).`);
  L.push(
    '',
    'First (cold) call right after load, ms (the warm-up round):',
    '',
    `| page | ${COLS.map((c) => LABEL[c]).join(' | ')} |`,
    `|---|${COLS.map(() => '---:').join('|')}|`,
  );
  for (const r of results) L.push(`| ${r.page} | ${COLS.map((c) => r.cols[c]?.first_ms ?? 'n/a').join(' | ')} |`);
  L.push(
    '',
    '## Text an LLM reads, tokens',
    '',
    'Ours: `renderAriaTree` (seed 001/MCP text). "every element" = `{summarize: false}`, each interactive element with its ref: the ' +
      'like-for-like column; "default" = the default rendering, which summarises long off-screen runs into one line pointing at scroll ' +
      "(the agent lists them by scrolling). Beside them, the same state in browser_use's prompt format (`renderBrowserUse`, what the " +
      "Python shim gives agents). Playwright: `ariaSnapshot()` (no refs) and `ariaSnapshot({mode: 'ai'})` (with refs, like ours). " +
      'browser_use: the real 0.1.48 `clickable_elements_to_string` of its own tree (bench/bu_tokens.py). Listed = elements ours lists / ' +
      "interactive lines in Playwright's YAML / browser_use highlight indexes.",
    '',
    '| page | ours viewport | ours whole, every element | ours whole, default | ours whole, browser_use format | Playwright | ' +
      'Playwright ai (refs) | browser_use viewport | browser_use whole | every element / Playwright | every element / Playwright ai | ' +
      'every element without refs / Playwright | default / Playwright | listed: ours / Playwright / browser_use whole | Chromium AX ' +
      'interactive | missed by ours |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  );
  for (const r of results) {
    const c = r.cols;
    const trunc = c.ours_whole?.truncated ? ' (truncated)' : '';
    L.push(
      `| ${r.page} | ${c.ours_viewport?.tokens} | ${c.ours_whole?.tokens}${trunc} | ${c.ours_whole?.default_tokens ?? 'n/a'} | ` +
        `${c.ours_whole?.browser_use_format_tokens} | ${c.playwright?.tokens} | ${c.playwright?.ai_tokens ?? 'n/a'} | ` +
        `${r.browser_use_tokens?.viewport ?? 'n/a'} | ${r.browser_use_tokens?.whole ?? 'n/a'} | ` +
        `${((c.ours_whole?.tokens ?? NaN) / (c.playwright?.tokens ?? NaN)).toFixed(2)} | ` +
        `${((c.ours_whole?.tokens ?? NaN) / (c.playwright?.ai_tokens ?? NaN)).toFixed(2)} | ` +
        `${((c.ours_whole?.no_ref_tokens ?? NaN) / (c.playwright?.tokens ?? NaN)).toFixed(2)} | ` +
        `${((c.ours_whole?.default_tokens ?? NaN) / (c.playwright?.tokens ?? NaN)).toFixed(2)} | ${c.ours_whole?.count} / ` +
        `${c.playwright?.count} / ${c.bu_whole?.count ?? 'n/a'} | ${r.ax_interactive} | ` +
        `${r.missing_vs_ax}${r.missing_examples.length ? ` (${r.missing_examples.join('; ')})` : ''} |`,
    );
  }
  if (meta['browser_use_tokens'] && !results.some((r) => r.browser_use_tokens))
    L.push('', `browser_use tokens n/a: ${meta['browser_use_tokens']}`);
  L.push(
    '',
    ...hopCostsMarkdown(
      results.map((r) => ({
        page: r.page,
        hops: r.hops,
        ...(r.cols.floor_whole ? { floor_ms: r.cols.floor_whole.p50_ms } : {}),
        ...(r.cols.playwright ? { playwright_ms: r.cols.playwright.p50_ms } : {}),
      })),
      (meta['transport'] as TransportRow[] | undefined) ?? [],
    ),
  );
  L.push(
    '',
    '## Ratios (p50)',
    '',
    '| page | whole / floor | whole / Playwright | whole / browser_use whole | viewport - floor (ms) | viewport / whole | viewport ' +
      'floor ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    const c = r.cols;
    const d = (a?: ColResult, b?: ColResult) => (a && b ? (a.p50_ms / b.p50_ms).toFixed(2) : 'n/a');
    L.push(
      `| ${r.page} | ${d(c.ours_whole, c.floor_whole)} | ${d(c.ours_whole, c.playwright)} | ${d(c.ours_whole, c.bu_whole)} | ` +
        `${c.ours_viewport && c.floor_whole ? r1(c.ours_viewport.p50_ms - c.floor_whole.p50_ms) : 'n/a'} | ` +
        `${d(c.ours_viewport, c.ours_whole)} | ${c.floor_viewport?.p50_ms ?? 'n/a'} |`,
    );
  }
  L.push(
    '',
    '## Targets',
    '',
    "whole page (limits raised): <= 3x the floor, <= 0.25x Playwright's time, <= 0.5x its tokens, nothing interactive missed that " +
      "Chromium's AX tree lists; viewport (default): <= the whole-page floor + 10 ms (the floor as bench/floor.ts defines it; " +
      'on the 10k-row table that floor is itself slow, so compare with the viewport floor column above too) and never slower than ' +
      'the whole page; frames that never answer: the state waits at most its documented budget (+50 ms slack) and lists each of ' +
      'them as left out. All ' +
      'from one run: compare ratios, not absolute times, when the load above is high.',
    '',
    '| page | whole <= 3x floor | whole <= 0.25x Playwright | tokens <= 0.5x Playwright | nothing missed | viewport <= floor + 10 ms | ' +
      'viewport <= whole | dead frames bounded + listed |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const t = r.targets;
    const k = [
      'whole_le_3x_floor',
      'whole_le_0.25x_playwright',
      'tokens_le_0.5x_playwright',
      'nothing_missed',
      'viewport_le_floor_plus_10ms',
      'viewport_le_whole',
      'dead_frames_bounded_and_listed',
    ];
    L.push(`| ${r.page} | ${k.map((key) => (t[key] ? `${yn(t[key])} (${t[key]?.detail})` : '—')).join(' | ')} |`);
  }
  const cl = meta.click;
  L.push(
    '',
    `Click -> action_result with the new viewport state, settle off, small page: p50 ${cl.p50_ms ?? '?'} ms, target <= 5 ms: ` +
      `${cl.met === null ? '?' : cl.met ? 'yes' : '**NO**'} (from ${cl.source}${cl.generated_at ? `, run ${cl.generated_at}` : ''}).`,
  );
  for (const r of results.filter((x) => x.frames)) {
    const f = r.frames as FramesReport;
    L.push(
      '',
      `## Frames that never answer (${r.page})`,
      '',
      `Ad slots: ${AD_SLOTS.map((s, i) => `${i} ${s.kind}${s.delayMs ? ` ${s.delayMs} ms` : ''}`).join(', ')}. The page was measured ` +
        `${'after its slow frames arrived'}; frozen and never-finishing frames stay dead for the whole run.`,
      '',
      `- Budget the extension states for an unanswered frame: ${
        f.budget_ms === null ? 'not stated (no number in any unreachable frame message, no timings_ms budget entry)' : `${f.budget_ms} ms`
      }.`,
      `- Time the worker spent fetching child frames (timings_ms.frames_fetched): viewport p50 ${f.frames_fetched_ms.ours_viewport.p50} ` +
        `/ max ${f.frames_fetched_ms.ours_viewport.max} ms; whole page p50 ${f.frames_fetched_ms.ours_whole.p50} / max ` +
        `${f.frames_fetched_ms.ours_whole.max} ms.`,
      `- Child-frame statuses, viewport: ${JSON.stringify(f.statuses.ours_viewport)}; whole page: ` +
        `${JSON.stringify(f.statuses.ours_whole)}.`,
      `- Dead frames (frozen, never finishing, never answered) and what the whole-page state says of each, matched by URL: ` +
        `${f.dead_frames.map((d) => `slot ${d.slot} (${d.kind}): ${d.listed_as}`).join('; ')}. Child frames it lists as left out: ` +
        `${f.listed_left_out}.`,
    );
    const groups = new Map<string, string[]>();
    for (const n of f.not_ok) {
      const k = `${n.status}: ${n.message ?? ''}`;
      groups.set(k, [...(groups.get(k) ?? []), `${n.frame_id} ${n.url || '(no url)'}`]);
    }
    for (const [k, v] of groups) L.push(`  - ${v.length} x ${k} [frames: ${v.join(', ')}]`);
  }
  L.push('');
  return L.join('\n');
}

await main();
