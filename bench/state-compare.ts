// Did a change to the walk change any answer? Takes the first state after a fresh load of every
// bench page (bench/pages.ts), whole page (viewport_expansion -1, limits raised) and the default
// viewport state, with two built extensions, and compares them field by field. Not a CI test: it
// prints the differences and exits 1 when there is one that is not run-to-run noise.
//   node --import tsx bench/state-compare.ts --old DIR [--new DIR] [--pages a,b] [--out FILE]
// --old: the extension built from the commit to compare with (e.g. a copy of dist/extension made
// before the change); --new: default dist/extension. Noise: the old build is asked a second time
// (another fresh load); a field that differs between its two runs is reported as noise, not as a
// change (the news page's ad frames answer or not by timing). Ignored everywhere: timings_ms,
// state_id, tab_id, Chrome's frame ids (they differ per browser), is_new and a frame's waited_ms.
import fs from 'node:fs';
import path from 'node:path';

import type { CDPSession, Page } from 'puppeteer-core';

import type { GetStateParams, SimplifiedState } from '../schemas/generated/protocol';
import { BUILT_EXTENSION } from '../test/harness/browser';
import { type Harness, startHarness } from '../test/harness/harness';
import { navigateToBenchPage } from './navigate';
import { BENCH_PAGES, serveBenchPages, startBenchSites } from './pages';

const WHOLE: GetStateParams = { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 };
const MODES: { key: string; params: GetStateParams }[] = [
  { key: 'whole', params: WHOLE },
  { key: 'viewport', params: {} },
];
const IGNORED = new Set(['timings_ms', 'state_id', 'tab_id', 'is_new', 'waited_ms']);

function parseArgs(argv: string[]) {
  let oldDir: string | undefined;
  let newDir = BUILT_EXTENSION;
  let pages = BENCH_PAGES;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    if (a === '--old') oldDir = path.resolve(v());
    else if (a === '--new') newDir = path.resolve(v());
    else if (a === '--out') out = path.resolve(v());
    else if (a === '--pages') {
      const keys = v().split(',');
      pages = BENCH_PAGES.filter((p) => keys.includes(p.key));
    } else throw new Error(`unknown argument ${a}; see the header of bench/state-compare.ts`);
  }
  if (!oldDir) throw new Error('--old DIR is required: a built extension folder from the commit to compare with');
  // Pages with frames that freeze their renderer last: a frozen ad renderer is shared by later
  // frames of that ad site in the same browser (news-saved's ads were then all unreachable in
  // whichever browser had visited news-ads more often).
  pages = [...pages.filter((p) => !p.badFrames), ...pages.filter((p) => p.badFrames)];
  return { oldDir, newDir, pages, out };
}

/** The state without the values that differ run to run; Chrome's frame ids replaced by their order. */
function normalise(s: SimplifiedState): unknown {
  const frameIds = new Map<number, number>();
  for (const [i, f] of (s.frames ?? []).entries()) frameIds.set(f.frame_id, i);
  const walk = (v: unknown, key: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, ''));
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (IGNORED.has(k)) continue;
        o[k] = walk(x, k);
      }
      return o;
    }
    if ((key === 'frame_id' || key === 'parent_frame_id') && typeof v === 'number') return `frame#${frameIds.get(v) ?? '?'}`;
    return v;
  };
  return walk(s, '');
}

/** Paths where a and b differ (each value shortened), at most `max`. */
function diff(a: unknown, b: unknown, at: string, out: string[], max = 200): void {
  if (out.length >= max) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${at}.length: ${a.length} != ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) diff(a[i], b[i], `${at}[${i}]`, out, max);
    return;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`, out, max);
    return;
  }
  if (a !== b) out.push(`${at}: ${JSON.stringify(a)?.slice(0, 80)} != ${JSON.stringify(b)?.slice(0, 80)}`);
}

/** Path with array indexes dropped, to match noise by field. */
const field = (d: string) => d.split(':')[0]?.replace(/\[\d+\]/g, '[]') ?? d;

interface Build {
  h: Harness;
  agent?: Awaited<ReturnType<Harness['connectAgent']>>;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sites = await startBenchSites();
  const served = serveBenchPages(sites, args.pages);
  const builds: Build[] = [];
  const report: Record<string, unknown> = {};
  let changed = 0;
  try {
    for (const dir of [args.oldDir, args.newDir]) builds.push({ h: await startHarness({ extensionDir: dir }) });
    const [oldB, newB] = builds as [Build, Build];
    const start = sites.main.set('/bench/start', { kind: 'page', body: '<!doctype html><title>start</title><p>start</p>' });
    // A fresh tab (and agent session, which takes the active tab) per state, as bench/snapshot.ts
    // does: leaving a page whose frames block their renderer can stall a navigation for minutes.
    const take = async (b: Build, url: string, spec: (typeof BENCH_PAGES)[number], params: GetStateParams) => {
      const tab: Page = await b.h.openPage(start);
      const cdp: CDPSession = await tab.createCDPSession();
      await b.agent?.close().catch(() => undefined);
      b.agent = await b.h.connectAgent();
      await navigateToBenchPage(tab, cdp, url, spec);
      const r = await b.agent.call('get_state', params, { timeoutMs: 120_000 });
      const s = r.new_simplified_state;
      if (r.status !== 'success' || !s) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
      if (!spec.badFrames) await tab.close().catch(() => undefined);
      return s;
    };
    for (const spec of args.pages) {
      const url = served.get(spec.key) as string;
      for (const mode of MODES) {
        const a1 = await take(oldB, url, spec, mode.params);
        const b = await take(newB, url, spec, mode.params);
        const a2 = await take(oldB, url, spec, mode.params);
        const [na1, nb, na2] = [normalise(a1), normalise(b), normalise(a2)];
        const changes: string[] = [];
        const noise: string[] = [];
        diff(na1, nb, '', changes, 100_000);
        diff(na1, na2, '', noise, 100_000);
        const noisy = new Set(noise.map(field));
        const real = changes.filter((d) => !noisy.has(field(d)));
        const asNoise = changes.length - real.length;
        changed += real.length;
        report[`${spec.key}/${mode.key}`] = {
          elements: [a1.actionable_elements.length, b.actionable_elements.length],
          texts: [a1.text_context?.length ?? 0, b.text_context?.length ?? 0],
          changes: real.slice(0, 50),
          changes_count: real.length,
          noise_fields: [...noisy].slice(0, 20),
          differences_in_noise_fields: asNoise,
        };
        process.stdout.write(
          `${spec.key} ${mode.key}: ${a1.actionable_elements.length} elements, ${a1.text_context?.length ?? 0} texts; ` +
            `${real.length === 0 ? 'same' : `${real.length} CHANGED`}` +
            `${noisy.size ? ` (old vs old: ${noise.length} differences in ${noisy.size} fields, ${asNoise} of old vs new there)` : ''}\n`,
        );
        for (const d of real.slice(0, 10)) process.stdout.write(`    ${d}\n`);
        // Child frames answer or not by timing: their statuses per run say whether a difference is theirs.
        const statuses = (x: SimplifiedState) =>
          JSON.stringify(
            (x.frames ?? [])
              .filter((f) => f.parent_frame_id !== null)
              .map((f) => f.status[0])
              .join(''),
          );
        if (a1.frames?.length || b.frames?.length)
          process.stdout.write(`    child frame statuses old ${statuses(a1)} new ${statuses(b)} old again ${statuses(a2)}\n`);
      }
    }
  } finally {
    for (const b of builds) await b.h.close().catch(() => undefined);
    await sites.close();
  }
  if (args.out) fs.writeFileSync(args.out, `${JSON.stringify({ date: new Date().toISOString(), ...args, report }, null, 2)}\n`);
  process.stdout.write(changed === 0 ? 'no answer changed\n' : `${changed} differences that are not run-to-run noise\n`);
  process.exitCode = changed === 0 ? 0 : 1;
}

await main();
