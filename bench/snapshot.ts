// npm run bench:snapshot — our get_state against Playwright's ariaSnapshot, in ONE Chromium session
// on the same generated pages (issue 3 "Benchmark"; not a timed test).
//   ours:       agent.call('get_state') through the real bridge and extension, timed at the agent
//               (page walk + frame stitching + three schema validations + two WebSocket hops);
//               the text an LLM reads is renderAriaTree(state) (seed 001 format).
//   playwright: page.locator('body').ariaSnapshot() over CDP on the same tab, timed at the caller.
// Like with like: Playwright always snapshots the whole page, so the comparison that counts is our
// whole-page mode (viewport_expansion -1, limits raised). Our default (viewport only) and the
// whole page with default limits are reported beside it, labelled as such.
// Also reported: interactive elements found, and Chromium accessibility-tree nodes with an
// interactive role (Accessibility.getFullAXTree) that our whole-page state does not list.
// Writes bench/results/snapshot.json and bench/results/snapshot.md. BENCH_RUNS sets the runs per mode.
import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { chromium } from 'playwright-core';
import type { GetStateParams, SimplifiedState } from '../schemas/generated/protocol';
import { renderAriaTree, renderBrowserUse } from '../schemas/lib/render';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { BENCH_PAGES as PAGES, serveBenchPages, startBenchSites } from './pages';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const OUT = path.join(REPO_ROOT, 'bench', 'results');
const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);

interface ModeResult {
  mode: string;
  like_for_like: boolean;
  /** The first (cold) call on the freshly loaded page, not in p50/p95. */
  first_ms: number;
  runs_ms: number[];
  p50_ms: number;
  p95_ms: number;
  text_bytes: number;
  text_tokens: number;
  json_bytes?: number;
  browser_use_tokens?: number;
  interactive_found: number;
  truncated?: string;
}

interface PageResult {
  page: string;
  title: string;
  html_bytes: number;
  modes: ModeResult[];
  ax_interactive: number;
  missing_vs_ax: number;
  missing_examples: string[];
  targets: { time_at_most_half: boolean; tokens_at_most_half: boolean; nothing_missed: boolean };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
};
const r1 = (n: number) => Math.round(n * 10) / 10;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function countPlaywrightInteractive(yaml: string): number {
  let n = 0;
  for (const line of yaml.split('\n')) {
    const m = /^\s*- ([a-z]+)/.exec(line);
    if (m && INTERACTIVE.has(m[1] as string)) n++;
  }
  return n;
}

async function main(): Promise<void> {
  const started = Date.now();
  const sites = await startBenchSites();
  const h = await startHarness();
  const pw = await chromium.connectOverCDP(h.launched.browser.wsEndpoint());
  const results: PageResult[] = [];
  try {
    const served = serveBenchPages(sites);
    const urls = PAGES.map((p) => served.get(p.key) as string);
    const tab = await h.openPage(h.fixtures.html('/bench/start', '<p>start</p>'));
    const agent = await h.connectAgent();
    let tabId: number | undefined;
    const getState = async (params: GetStateParams): Promise<{ ms: number; state: SimplifiedState }> => {
      const t0 = performance.now();
      const r = await agent.call('get_state', params, { ...(tabId === undefined ? {} : { tabId }), timeoutMs: 120_000 });
      const ms = performance.now() - t0;
      if (r.status !== 'success' || !r.new_simplified_state) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
      tabId = r.new_simplified_state.tab_id;
      return { ms, state: r.new_simplified_state };
    };
    const cdp = await tab.createCDPSession();
    // The Playwright handle of the same tab (it follows the tab across navigations).
    const startUrl = tab.url();
    const pwPage = pw.contexts().flatMap((c) => c.pages()).find((p) => p.url() === startUrl);
    if (!pwPage) throw new Error(`Playwright does not see the tab at ${startUrl}`);
    for (const [i, spec] of PAGES.entries()) {
      const url = urls[i] as string;
      await tab.goto(url, { waitUntil: spec.ready.until });
      if (spec.ready.until === 'domcontentloaded') await new Promise((r) => setTimeout(r, spec.ready.until === 'domcontentloaded' ? spec.ready.waitMs : 0));
      await tab.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await pwPage.waitForURL(url, { waitUntil: 'domcontentloaded' });
      const body = pwPage.locator('body');
      const modes: { mode: string; like: boolean; params: GetStateParams }[] = [
        { mode: 'ours: viewport only (default)', like: false, params: {} },
        { mode: 'ours: whole page, limits raised', like: true, params: { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 } },
        { mode: 'ours: whole page, default limits', like: false, params: { viewport_expansion: -1 } },
      ];
      const times: number[][] = modes.map(() => []);
      const first: number[] = modes.map(() => 0);
      let pwFirst = 0;
      const last: (SimplifiedState | undefined)[] = modes.map(() => undefined);
      const pwTimes: number[] = [];
      let yaml = '';
      // Warm-up round (not recorded), then RUNS rounds interleaving the modes so drift hits all alike.
      for (let run = 0; run <= RUNS; run++) {
        for (const [m, mode] of modes.entries()) {
          const { ms, state } = await getState(mode.params);
          if (run > 0) times[m]!.push(ms);
          else first[m] = ms;
          last[m] = state;
        }
        const t0 = performance.now();
        yaml = await body.ariaSnapshot({ timeout: 120_000 });
        if (run > 0) pwTimes.push(performance.now() - t0);
        else pwFirst = performance.now() - t0;
      }
      const modeResults: ModeResult[] = modes.map((mode, m) => {
        const state = last[m] as SimplifiedState;
        const text = renderAriaTree(state);
        return {
          mode: mode.mode,
          like_for_like: mode.like,
          first_ms: r1(first[m] as number),
          runs_ms: times[m]!.map(r1),
          p50_ms: r1(pct(times[m]!, 50)),
          p95_ms: r1(pct(times[m]!, 95)),
          text_bytes: bytes(text),
          text_tokens: countTokens(text),
          json_bytes: bytes(JSON.stringify(state)),
          browser_use_tokens: countTokens(renderBrowserUse(state)),
          interactive_found: state.actionable_elements.length,
          ...(state.truncation ? { truncated: state.truncation.message } : {}),
        };
      });
      modeResults.push({
        mode: 'playwright: locator(body).ariaSnapshot()',
        like_for_like: true,
        first_ms: r1(pwFirst),
        runs_ms: pwTimes.map(r1),
        p50_ms: r1(pct(pwTimes, 50)),
        p95_ms: r1(pct(pwTimes, 95)),
        text_bytes: bytes(yaml),
        text_tokens: countTokens(yaml),
        interactive_found: countPlaywrightInteractive(yaml),
      });

      // What Chromium's accessibility tree exposes as interactive, against our whole-page state.
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { ignored: boolean; role?: { value?: string }; name?: { value?: string } }[] };
      const ax = nodes.filter((n) => !n.ignored && INTERACTIVE.has(String(n.role?.value ?? '')));
      const whole = last[1] as SimplifiedState;
      const ours = new Map<string, number>();
      for (const e of whole.actionable_elements) {
        const keys = new Set([`${e.role}|${e.name}`, `*|${e.name}`]);
        for (const k of keys) ours.set(k, (ours.get(k) ?? 0) + 1);
      }
      const missing: string[] = [];
      for (const n of ax) {
        const name = String(n.name?.value ?? '').replace(/\s+/g, ' ').trim();
        const key = `${n.role?.value}|${name}`;
        const any = `*|${name}`;
        if ((ours.get(key) ?? 0) > 0) {
          ours.set(key, (ours.get(key) ?? 0) - 1);
          ours.set(any, (ours.get(any) ?? 0) - 1);
        } else if ((ours.get(any) ?? 0) > 0) {
          ours.set(any, (ours.get(any) ?? 0) - 1); // same element, a role we name differently
        } else missing.push(`${n.role?.value} "${name}"`);
      }
      const like = modeResults[1] as ModeResult;
      const pwr = modeResults[3] as ModeResult;
      results.push({
        page: spec.key,
        title: spec.title,
        html_bytes: 0,
        modes: modeResults,
        ax_interactive: ax.length,
        missing_vs_ax: missing.length,
        missing_examples: missing.slice(0, 5),
        targets: { time_at_most_half: like.p50_ms <= pwr.p50_ms / 2, tokens_at_most_half: like.text_tokens <= pwr.text_tokens / 2, nothing_missed: missing.length === 0 },
      });
      process.stdout.write(`${spec.key}: ours whole ${like.p50_ms} ms / ${like.text_tokens} tok, viewport ${modeResults[0]!.p50_ms} ms / ${modeResults[0]!.text_tokens} tok; playwright ${pwr.p50_ms} ms / ${pwr.text_tokens} tok; missing ${missing.length}\n`);
    }
  } finally {
    await pw.close().catch(() => undefined);
    await h.close();
    await sites.close();
  }
  const meta = {
    date: new Date().toISOString(),
    runs_per_mode: RUNS,
    chromium: '/usr/bin/chromium (headless, one session shared by both)',
    tokenizer: 'gpt-tokenizer (o200k_base)',
    machine: '2 cores (shared)',
    wall_s: Math.round((Date.now() - started) / 1000),
  };
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'snapshot.json'), `${JSON.stringify({ meta, results }, null, 2)}\n`);
  fs.writeFileSync(path.join(OUT, 'snapshot.md'), markdown(meta, results));
  process.stdout.write(`wrote bench/results/snapshot.json and snapshot.md (${meta.wall_s} s)\n`);
}

function markdown(meta: Record<string, unknown>, results: PageResult[]): string {
  const lines = [
    '# Snapshot benchmark: get_state vs Playwright ariaSnapshot',
    '',
    `Generated by \`npm run bench:snapshot\` on ${meta['date']} (${meta['runs_per_mode']} runs per mode after one warm-up, interleaved; ${meta['machine']}; tokens: ${meta['tokenizer']}).`,
    'Both run in one headless Chromium session on the same tab. Ours is timed at the agent through the real bridge and extension; Playwright at its caller over CDP.',
    'First call = the cold call right after the page loaded (the warm-up, outside p50/p95; our modes run in order, so only the viewport row is truly first). Text = what an LLM reads: our seed-001 accessibility-tree rendering (`renderAriaTree`) vs Playwright\'s YAML. "like for like" marks the rows that cover the same scope (the whole page).',
    '',
    '| page | mode | like for like | first call ms | p50 ms | p95 ms | text bytes | tokens | browser_use tokens | interactive found |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    for (const m of r.modes) {
      lines.push(`| ${r.page} | ${m.mode}${m.truncated ? ' (truncated)' : ''} | ${m.like_for_like ? 'yes' : 'no'} | ${m.first_ms} | ${m.p50_ms} | ${m.p95_ms} | ${m.text_bytes} | ${m.text_tokens} | ${m.browser_use_tokens ?? ''} | ${m.interactive_found} |`);
    }
  }
  lines.push('', '## Targets (whole page, limits raised, against Playwright)', '', '| page | time <= 1/2 | tokens <= 1/2 | time ratio | token ratio | Chromium AX interactive | missed by us | examples |', '|---|---|---|---:|---:|---:|---:|---|');
  for (const r of results) {
    const like = r.modes[1] as ModeResult;
    const pw = r.modes[3] as ModeResult;
    lines.push(`| ${r.page} | ${r.targets.time_at_most_half ? 'yes' : 'NO'} | ${r.targets.tokens_at_most_half ? 'yes' : 'NO'} | ${(like.p50_ms / pw.p50_ms).toFixed(2)} | ${(like.text_tokens / pw.text_tokens).toFixed(2)} | ${r.ax_interactive} | ${r.missing_vs_ax} | ${r.missing_examples.join('; ')} |`);
  }
  lines.push('');
  return lines.join('\n');
}

await main();
