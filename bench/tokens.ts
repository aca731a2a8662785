// npm run bench:tokens — what an LLM reads per page, in tokens (gpt-tokenizer, o200k_base), for the
// token target (whole page <= 0.5x Playwright's tokens, bench/snapshot.ts). For each bench page
// (bench/pages.ts), in ONE headless Chromium with the built extension (test/harness):
//   ours:        renderAriaTree(state) (seed 001 / MCP snapshot text) of the whole-page state
//                (viewport_expansion -1, limits raised: the same scope Playwright covers) and of the
//                default viewport state;
//   playwright:  page.locator('body').ariaSnapshot() on the same tab (its YAML, as an LLM gets it);
//   playwright ai: ariaSnapshot({ mode: 'ai' }), Playwright's LLM form with [ref=...] (Playwright MCP's);
//   browser_use: renderBrowserUse(state) over the element list and text (browser_use 0.1.48's
//                clickable_elements_to_string line format; the state is taken without dom_tree because a
//                whole-page dom_tree of the 10k-row table misses the worker's budget on this machine).
// Not timed: token counts are deterministic, so one capture per page is enough.
// Writes bench/results/tokens.json and tokens.md. `TOKENS_CACHE=dir` keeps the captured states and
// YAML there and, with `--cached`, re-renders from them without a browser (to iterate on renderers).
import fs from 'node:fs';
import path from 'node:path';

import { countTokens } from 'gpt-tokenizer';
import { chromium } from 'playwright-core';

import type { GetStateParams, SimplifiedState } from '../schemas/generated/protocol';
import { renderAriaTree, renderBrowserUse, renderBrowsingContext } from '../schemas/lib/render';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { BENCH_PAGES, serveBenchPages, startBenchSites } from './pages';

// Pages with frames that never answer go last: after them, navigating the same tab stalls under load.
const PAGES = [...BENCH_PAGES.filter((p) => !p.badFrames), ...BENCH_PAGES.filter((p) => p.badFrames)];

const OUT = path.join(REPO_ROOT, 'bench', 'results');
const CACHE = process.env['TOKENS_CACHE'];
const FROM_CACHE = process.argv.includes('--cached');
const WHOLE: GetStateParams = { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 };
const VIEWPORT: GetStateParams = {};

interface Capture {
  page: string;
  title: string;
  whole: SimplifiedState;
  viewport: SimplifiedState;
  playwright_yaml: string;
  /** ariaSnapshot({ mode: 'ai' }): Playwright's LLM form (what Playwright MCP sends), with [ref=...]. */
  playwright_ai_yaml: string;
}

interface Row {
  page: string;
  title: string;
  elements_whole: number;
  playwright_tokens: number;
  playwright_ai_tokens: number;
  ours_whole_tokens: number;
  ours_whole_ratio: number;
  /** renderAriaTree with summarisation off: every element of the whole page listed with its ref. */
  ours_full_tokens: number;
  ours_full_ratio: number;
  browser_use_whole_tokens: number;
  browsing_context_whole_tokens: number;
  ours_viewport_tokens: number;
  browser_use_viewport_tokens: number;
  /** Refs of the whole state missing from the full listing (must be 0). */
  refs_missing_whole: number;
  /** On-screen elements of the whole state whose ref the summarised text lacks (must be 0). */
  refs_missing_on_screen: number;
  /** Elements of the viewport state whose ref its text lacks (must be 0). */
  refs_missing_viewport: number;
  /** The renderer's output before the token-saving changes (bench/results/tokens.baseline.json), when recorded. */
  before_whole_tokens?: number;
  before_viewport_tokens?: number;
}

async function capture(): Promise<Capture[]> {
  const sites = await startBenchSites();
  const h = await startHarness();
  const pw = await chromium.connectOverCDP(h.launched.browser.wsEndpoint());
  const out: Capture[] = [];
  try {
    const served = serveBenchPages(sites);
    const urls = PAGES.map((p) => served.get(p.key) as string);
    const tab = await h.openPage(h.fixtures.html('/bench/start', '<p>start</p>'));
    const agent = await h.connectAgent();
    let tabId: number | undefined;
    // Retried: on a loaded machine a huge page may miss the content script's answer budget once.
    const getState = async (params: GetStateParams): Promise<SimplifiedState> => {
      for (let attempt = 1; ; attempt++) {
        const r = await agent.call('get_state', params, { ...(tabId === undefined ? {} : { tabId }), timeoutMs: 180_000 });
        if (r.status === 'success' && r.new_simplified_state) {
          tabId = r.new_simplified_state.tab_id;
          return r.new_simplified_state;
        }
        if (attempt >= 4) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
        await new Promise((res) => setTimeout(res, 1000));
      }
    };
    const startUrl = tab.url();
    // Playwright's view of the same tab (it may list the tab a moment after connecting).
    let pwPage = pw
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url() === startUrl);
    for (let i = 0; !pwPage && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      pwPage = pw
        .contexts()
        .flatMap((c) => c.pages())
        .find((p) => p.url() === startUrl);
    }
    if (!pwPage)
      throw new Error(
        `Playwright does not see the tab at ${startUrl} (it sees ${pw
          .contexts()
          .flatMap((c) => c.pages())
          .map((p) => p.url())
          .join(', ')})`,
      );
    for (const [i, spec] of PAGES.entries()) {
      const url = urls[i] as string;
      // The news page's never-finishing ad frames can keep even DOMContentLoaded from being reported
      // under load: measure the page as it stands after 20 s rather than give up.
      await tab
        .goto(url, { waitUntil: spec.ready.until, timeout: 20_000 })
        .catch((e: unknown) => process.stdout.write(`${spec.key}: ${(e as Error).message}; measuring it as it stands\n`));
      if (spec.ready.until === 'domcontentloaded')
        await new Promise((r) => setTimeout(r, spec.ready.until === 'domcontentloaded' ? spec.ready.waitMs : 0));
      await tab.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await pwPage.waitForURL(url, { waitUntil: 'commit' });
      process.stdout.write(`${spec.key} ...\n`);
      const viewport = await getState(VIEWPORT);
      const whole = await getState(WHOLE);
      const playwright_yaml = await pwPage.locator('body').ariaSnapshot({ timeout: 180_000 });
      const playwright_ai_yaml = await pwPage.locator('body').ariaSnapshot({ mode: 'ai', timeout: 180_000 });
      out.push({ page: spec.key, title: spec.title, whole, viewport, playwright_yaml, playwright_ai_yaml });
      process.stdout.write(`captured ${spec.key}: ${whole.actionable_elements.length} elements\n`);
    }
  } finally {
    await pw.close().catch(() => undefined);
    await h.close();
    await sites.close();
  }
  return out;
}

function missingRefs(state: SimplifiedState, text: string): number {
  const shown = new Set<string>();
  for (const m of text.matchAll(/\[ref=([^\]]+)\]/g)) shown.add(m[1] as string);
  return state.actionable_elements.filter((e) => !shown.has(e.id)).length;
}

const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;

function measure(c: Capture, baseline: Map<string, { whole: number; viewport: number }>): Row {
  const whole = renderAriaTree(c.whole);
  const viewport = renderAriaTree(c.viewport);
  const pwTokens = countTokens(c.playwright_yaml);
  const wholeTokens = countTokens(whole);
  const full = renderAriaTree(c.whole, { summarize: false });
  const fullTokens = countTokens(full);
  const before = baseline.get(c.page);
  return {
    page: c.page,
    title: c.title,
    elements_whole: c.whole.actionable_elements.length,
    playwright_tokens: pwTokens,
    playwright_ai_tokens: countTokens(c.playwright_ai_yaml),
    ours_whole_tokens: wholeTokens,
    ours_whole_ratio: ratio(wholeTokens, pwTokens),
    ours_full_tokens: fullTokens,
    ours_full_ratio: ratio(fullTokens, pwTokens),
    browser_use_whole_tokens: countTokens(renderBrowserUse(c.whole)),
    browsing_context_whole_tokens: countTokens(renderBrowsingContext(c.whole)),
    ours_viewport_tokens: countTokens(viewport),
    browser_use_viewport_tokens: countTokens(renderBrowserUse(c.viewport)),
    refs_missing_whole: missingRefs(c.whole, full),
    refs_missing_on_screen: missingRefs(
      { ...c.whole, actionable_elements: c.whole.actionable_elements.filter((e) => e.is_in_viewport !== false) },
      whole,
    ),
    refs_missing_viewport: missingRefs(c.viewport, viewport),
    ...(before ? { before_whole_tokens: before.whole, before_viewport_tokens: before.viewport } : {}),
  };
}

function markdown(meta: Record<string, unknown>, rows: Row[]): string {
  const lines = [
    '# Tokens per page: our text renderings vs Playwright ariaSnapshot and browser_use',
    '',
    `Generated by \`npm run bench:tokens\` on ${meta['date']} (${meta['tokenizer']}; pages from bench/pages.ts; one headless Chromium ` +
      `with the built extension, Playwright over CDP on the same tab).`,
    'Whole page = `get_state` with `viewport_expansion: -1` and limits raised (the scope Playwright covers); viewport = the default ' +
      '`get_state`.',
    '"ours" = `renderAriaTree` (seed 001 text, also the MCP `browser_snapshot` text); "before" = the same renderer before the ' +
      'token-saving changes (bench/results/tokens.baseline.json).',
    '"full listing" = `renderAriaTree(state, { summarize: false })`: every element with its ref; "default" = what MCP and seed 001 ' +
      'send: long runs that are wholly off screen are summarised in one line that says how to list them (README "Text rendering"). ' +
      '"refs missing" counts elements whose ref the text lacks: in the full listing, among on-screen elements of the summarised text, ' +
      'and in the viewport text (all must be 0).',
    "\"Playwright\" = `locator('body').ariaSnapshot()` (no refs, the token target's yardstick); " +
      "\"Playwright ai\" = `ariaSnapshot({ mode: 'ai' })`, Playwright's LLM form with refs (like for like with our full listing).",
    '"browser_use" = `renderBrowserUse` over the element list and text (browser_use 0.1.48\'s `[N]<tag …/>` lines; the states are ' +
      'taken without dom_tree); "browsing_context" = seed 002\'s block.',
    '',
    '| page | elements | Playwright | Playwright ai mode (with refs) | ours whole (before) | ours whole, full listing | full / ' +
      'Playwright | full / Playwright ai | ours whole (default, summarised) | default / Playwright | browser_use whole | ' +
      'browsing_context whole | ours viewport (before) | ours viewport | browser_use viewport | refs missing (full; on screen; ' +
      'viewport) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.page} | ${r.elements_whole} | ${r.playwright_tokens} | ${r.playwright_ai_tokens} | ${r.before_whole_tokens ?? ''} | ` +
        `${r.ours_full_tokens} | ${r.ours_full_ratio.toFixed(2)} | ${ratio(r.ours_full_tokens, r.playwright_ai_tokens).toFixed(2)} | ` +
        `${r.ours_whole_tokens} | ${r.ours_whole_ratio.toFixed(2)}${r.ours_whole_ratio <= 0.5 ? '' : ' (over 0.5)'} | ` +
        `${r.browser_use_whole_tokens} | ${r.browsing_context_whole_tokens} | ${r.before_viewport_tokens ?? ''} | ` +
        `${r.ours_viewport_tokens} | ${r.browser_use_viewport_tokens} | ${r.refs_missing_whole}; ${r.refs_missing_on_screen}; ` +
        `${r.refs_missing_viewport} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  let captures: Capture[];
  if (FROM_CACHE) {
    if (!CACHE) throw new Error('--cached needs TOKENS_CACHE=<dir> (where a previous run kept its captures)');
    captures = PAGES.map((p) => JSON.parse(fs.readFileSync(path.join(CACHE, `${p.key}.json`), 'utf8')) as Capture);
  } else {
    captures = await capture();
    if (CACHE) {
      fs.mkdirSync(CACHE, { recursive: true });
      for (const c of captures) fs.writeFileSync(path.join(CACHE, `${c.page}.json`), JSON.stringify(c));
    }
  }
  const baselineFile = path.join(OUT, 'tokens.baseline.json');
  const baseline = new Map<string, { whole: number; viewport: number }>();
  if (fs.existsSync(baselineFile)) {
    const b = JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as { rows: Row[] };
    for (const r of b.rows) baseline.set(r.page, { whole: r.ours_whole_tokens, viewport: r.ours_viewport_tokens });
  }
  const rows = captures.map((c) => measure(c, baseline));
  for (const r of rows)
    process.stdout.write(
      `${r.page}: full ${r.ours_full_tokens} (${r.ours_full_ratio}), default ${r.ours_whole_tokens} / playwright ${r.playwright_tokens} ` +
        `= ${r.ours_whole_ratio}; viewport ${r.ours_viewport_tokens}; browser_use ${r.browser_use_whole_tokens}; refs missing ` +
        `${r.refs_missing_whole}\n`,
    );
  const meta = { date: new Date().toISOString(), tokenizer: 'gpt-tokenizer (o200k_base)', from_cache: FROM_CACHE };
  fs.mkdirSync(OUT, { recursive: true });
  const name = process.env['TOKENS_OUT'] ?? 'tokens';
  fs.writeFileSync(path.join(OUT, `${name}.json`), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  fs.writeFileSync(path.join(OUT, `${name}.md`), markdown(meta, rows));
  process.stdout.write(`wrote bench/results/${name}.json and ${name}.md\n`);
}

await main();
