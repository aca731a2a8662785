// npm run bench:accname — should the snapshot adopt dom-accessibility-api (WPT-tested accname) or
// keep its own accname 1.2 code? Measured in ONE headless Chromium on bench/pages.ts' 3,000-link
// article (and the form page), in the page, side by side, the same elements each time:
//   bare walk:   TreeWalker over every element reading computed style + box (what any snapshot pays),
//   ours:        extension/src/content/snapshot/{accname,roles}.ts name + role of every link/control,
//   dom-a11y:    dom-accessibility-api computeAccessibleName + getRole of the same elements,
//   whole state: our get_state of the whole page (viewport_expansion -1) through bridge + extension.
// Also: how often the two names differ on these pages. Writes bench/results/accname.{json,md}.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { build } from 'esbuild';
import puppeteer from 'puppeteer-core';

import { CHROMIUM_PATH, REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { articlePage, formPage } from './pages';
import { median, r1 } from './stats';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const OUT = path.join(REPO_ROOT, 'bench', 'results');

/** The accname/roles code on main before this change (BENCH_BASELINE_REF, default main), for "not materially slower". */
function baselineDir(): string | null {
  const ref = process.env['BENCH_BASELINE_REF'] ?? 'main';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-accname-base-'));
  try {
    // The ref's whole extension/src: accname.ts imports its neighbours (roles, privacy, shared/...).
    execSync(`git archive ${ref} extension/src | tar -x -C ${JSON.stringify(dir)}`, { cwd: REPO_ROOT });
    return path.join(dir, 'extension', 'src', 'content', 'snapshot');
  } catch {
    return null;
  }
}

async function bundle(base: string | null): Promise<string> {
  const baseImports = base
    ? `import * as baseName from ${JSON.stringify(path.join(base, 'accname.ts'))};
        import * as baseRole from ${JSON.stringify(path.join(base, 'roles.ts'))};`
    : 'const baseName = null, baseRole = null;';
  const out = await build({
    stdin: {
      contents: `import { accessibleName, LabelIndex } from './extension/src/content/snapshot/accname';
        import { roleOf } from './extension/src/content/snapshot/roles';
        import { computeAccessibleName, getRole } from 'dom-accessibility-api';
        ${baseImports}
        window.__bench = { accessibleName, LabelIndex, roleOf, computeAccessibleName, getRole, baseName, baseRole };`,
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome120',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

interface Timing {
  elements: number;
  bare_walk_ms: number;
  ours_ms: number;
  previous_ms: number | null;
  dom_a11y_ms: number;
  name_differs: number;
  examples: string[];
}

async function main(): Promise<void> {
  const code = await bundle(baselineDir());
  const pages: [string, string][] = [
    ['article-3k-links', articlePage()],
    ['form-50-groups', formPage()],
  ];
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
  const results: Record<string, Timing & { state_ms?: number; walk_ms?: number }> = {};
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    for (const [name, html] of pages) {
      await page.setContent(`<!doctype html><html><body>${html}</body></html>`);
      await page.addScriptTag({ content: code });
      const runs: Timing[] = [];
      for (let i = 0; i < RUNS; i++) {
        runs.push(
          await page.evaluate(() => {
            type Own = { accessibleName(e: Element, h?: unknown, l?: unknown): string; LabelIndex: new () => unknown };
            type B = Own & {
              roleOf(e: Element): string;
              computeAccessibleName(e: Element): string;
              getRole(e: Element): string | null;
              baseName: Own | null;
              baseRole: { roleOf(e: Element): string } | null;
            };
            const b = (window as unknown as { __bench: B }).__bench;
            const targets = [...document.querySelectorAll('a[href], button, input, select, textarea, [role]')];
            let t = performance.now();
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
            let sink = 0;
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const el = n as Element;
              sink += getComputedStyle(el).display.length + el.getBoundingClientRect().width;
            }
            const bare = performance.now() - t;
            t = performance.now();
            const labels = new b.LabelIndex();
            const ours = targets.map((el) => `${b.roleOf(el)}|${b.accessibleName(el, undefined, labels)}`);
            const oursMs = performance.now() - t;
            let previousMs: number | null = null;
            if (b.baseName && b.baseRole) {
              t = performance.now();
              const pl = new b.baseName.LabelIndex();
              for (const el of targets) sink += b.baseRole.roleOf(el).length + b.baseName.accessibleName(el, undefined, pl).length;
              previousMs = performance.now() - t;
            }
            t = performance.now();
            const theirs = targets.map((el) => `${b.getRole(el) ?? ''}|${b.computeAccessibleName(el)}`);
            const theirsMs = performance.now() - t;
            const differs: string[] = [];
            ours.forEach((o, i) => {
              if (o.split('|')[1] === theirs[i]!.split('|')[1]) return;
              differs.push(`${targets[i]!.outerHTML.slice(0, 80)} ours=${o} dom-a11y=${theirs[i]}`);
            });
            return {
              elements: targets.length + (sink < 0 ? 1 : 0),
              bare_walk_ms: bare,
              ours_ms: oursMs,
              previous_ms: previousMs,
              dom_a11y_ms: theirsMs,
              name_differs: differs.length,
              examples: differs.slice(0, 3),
            };
          }),
        );
      }
      const p50 = (k: 'bare_walk_ms' | 'ours_ms' | 'previous_ms' | 'dom_a11y_ms') => r1(median(runs.map((r) => r[k] as number)));
      results[name] = {
        ...runs[0]!,
        bare_walk_ms: p50('bare_walk_ms'),
        ours_ms: p50('ours_ms'),
        previous_ms: runs[0]!.previous_ms === null ? null : p50('previous_ms'),
        dom_a11y_ms: p50('dom_a11y_ms'),
      };
    }
  } finally {
    await browser.close();
  }
  // Whole-page state through the real bridge and extension, for the snapshot budget (<= 3x a bare walk).
  const h = await startHarness();
  try {
    for (const [name, html] of pages) {
      const url = h.fixtures.html(`/bench-accname-${name}`, html, name);
      await h.openPage(url);
      const agent = await h.connectAgent();
      const times: number[] = [];
      const walks: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const r = await agent.call('get_state', { viewport_expansion: -1, max_elements: 50_000, max_text_chars: 2_000_000 });
        times.push(performance.now() - t);
        const w = (r.new_simplified_state?.timings_ms as Record<string, number> | undefined)?.['top_frame_walk'];
        if (typeof w === 'number') walks.push(w);
      }
      await agent.close();
      results[name]!.state_ms = r1(median(times.slice(1)));
      if (walks.length) results[name]!.walk_ms = r1(median(walks));
    }
  } finally {
    await h.close();
  }
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  fs.mkdirSync(OUT, { recursive: true });
  const json = { date: new Date().toISOString(), load, runs: RUNS, results };
  fs.writeFileSync(path.join(OUT, 'accname.json'), `${JSON.stringify(json, null, 2)}\n`);
  const rows = Object.entries(results).map(([n, r]) =>
    [
      n,
      r.elements,
      r.bare_walk_ms,
      r.previous_ms ?? '-',
      r.ours_ms,
      r.dom_a11y_ms,
      `${r1(r.dom_a11y_ms / Math.max(0.1, r.ours_ms))}x`,
      r.walk_ms ?? '-',
      `${r1((r.walk_ms ?? 0) / Math.max(0.1, r.bare_walk_ms))}x`,
      r.state_ms ?? '-',
      r.name_differs,
    ].reduce((line: string, cell) => `${line} ${cell} |`, '|'),
  );
  const head = [
    'page',
    'named elements',
    'bare DOM walk ms',
    'previous own code (main) ms',
    'ours ms',
    'dom-accessibility-api ms',
    'dom-a11y / ours',
    'in-page walk ms (get_state)',
    'walk / bare walk',
    'whole get_state ms (bridge+validation incl.)',
    'names differ',
  ];
  const examples = JSON.stringify(Object.fromEntries(Object.entries(results).map(([n, r]) => [n, r.examples])));
  const md = [
    '# accname: own code vs dom-accessibility-api',
    '',
    `${new Date().toISOString()}, load average ${load} (2 shared cores), median of ${RUNS} runs, headless Chromium.`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows,
    '',
    `Examples of differing names: ${examples}`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(OUT, 'accname.md'), md);
  process.stdout.write(md);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
