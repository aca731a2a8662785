// The first state after a reload, build against build: what the top frame's walk costs when the
// content script is fresh (its code not yet optimised, nothing kept from a previous walk), which is
// what an agent pays on every page it opens. Not a timed test: it prints, and with --out writes a
// JSON of the runs. Each round reloads every page once per build and takes ONE whole-page state
// (viewport_expansion -1, limits raised) or, with --viewport, the default state; builds alternate
// within a round so drift hits each alike.
//   node --import tsx bench/cold-walk.ts [--pages a,b] [--runs N] [--ext DIR ...] [--viewport]
//                                        [--profile] [--save-profiles DIR] [--playwright] [--out FILE]
// --ext: a built extension folder (default dist/extension); give two to compare (the first is
// "old"). --profile: Chrome's sampling profiler (CDP Profiler.*) around each state; prints the
// content script's functions by self and inclusive time (DOM calls count in the function that
// makes them; a sample counts at most 0.3 ms, so time the thread was descheduled on a loaded
// machine does not land on one function); "content-script samples" is that capped time summed
// over the samples with the content script on the stack, a stand-in for its CPU time on a loaded
// machine, where wall-clock walk times vary 2-4x run to run. --playwright: after each of our states
// the page is reloaded again and Playwright's first ariaSnapshot of it is timed (over CDP, same tab),
// so the first-state ratio rests on as many samples as --runs, not bench:snapshot's single warm-up.
// "tab renderer CPU": CPU time of the busiest renderer during the state (SystemInfo.getProcessInfo,
// 10 ms steps on Linux), which a loaded machine inflates less than wall time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { type Browser as PwBrowser, chromium, type Page as PwPage } from 'playwright-core';
import type { CDPSession, Page } from 'puppeteer-core';

import type { GetStateParams } from '../schemas/generated/protocol';
import { BUILT_EXTENSION } from '../test/harness/browser';
import { type Harness, startHarness } from '../test/harness/harness';
import { navigateToBenchPage, playwrightPageAt } from './navigate';
import { BENCH_PAGES, serveBenchPages, startBenchSites } from './pages';
import { pct, r1 } from './stats';

const WHOLE: GetStateParams = { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 };

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}
interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

function parseArgs(argv: string[]) {
  let runs = 5;
  let pages = BENCH_PAGES.filter((p) => p.key !== 'news-ads');
  const exts: string[] = [];
  let profile = false;
  let viewport = false;
  let out: string | undefined;
  let saveProfiles: string | undefined;
  let playwright = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    if (a === '--runs') runs = Number(v());
    else if (a === '--pages') {
      const keys = v().split(',');
      pages = BENCH_PAGES.filter((p) => keys.includes(p.key));
    } else if (a === '--ext') exts.push(path.resolve(v()));
    else if (a === '--profile') profile = true;
    else if (a === '--viewport') viewport = true;
    else if (a === '--out') out = path.resolve(v());
    else if (a === '--save-profiles') saveProfiles = path.resolve(v());
    else if (a === '--playwright') playwright = true;
    else throw new Error(`unknown argument ${a}; see the header of bench/cold-walk.ts`);
  }
  if (exts.length === 0) exts.push(BUILT_EXTENSION);
  return { runs, pages, exts, profile, viewport, out, saveProfiles, playwright };
}

/** Self time per content-script function (ms), from one CPU profile; `lines`: sample counts per line of content.js. */
function selfTimes(p: Profile, into: Map<string, number>, lines: Map<number, number>): number {
  let inScript = 0;
  for (const n of p.nodes)
    if (n.callFrame.url.includes('content.js'))
      for (const t of n.positionTicks ?? []) lines.set(t.line, (lines.get(t.line) ?? 0) + t.ticks);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const n = byId.get(samples[i] as number);
    if (!n) continue;
    // Inclusive time of the content script's functions (each once per stack).
    const seen = new Set<string>();
    const ms = Math.min(deltas[i + 1] ?? 0, 300) / 1000;
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)?.callFrame;
      if (!f?.url.includes('content.js')) continue;
      const k = `[incl] ${f.functionName || '(anon)'}:${f.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      into.set(k, (into.get(k) ?? 0) + ms);
    }
    if (seen.size > 0) inScript += ms;
    const url = n.callFrame.url;
    const where = url.includes('content.js')
      ? `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber + 1}`
      : url
        ? `(page) ${path.basename(url)}`
        : n.callFrame.functionName;
    into.set(where, (into.get(where) ?? 0) + ms);
  }
  return inScript;
}

interface Build {
  dir: string;
  h: Harness;
  tab: Page;
  cdp: CDPSession;
  agent: Awaited<ReturnType<Harness['connectAgent']>>;
  /** The browser's own CDP session (SystemInfo: CPU time per process). */
  browserCdp: CDPSession;
  /** --playwright: Playwright over CDP on the same tab. */
  pw?: { browser: PwBrowser; page: PwPage };
  tabId?: number;
}

/** CPU seconds used so far by each renderer process, by pid (Chrome's SystemInfo.getProcessInfo). */
async function rendererCpu(cdp: CDPSession): Promise<Map<number, number>> {
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number; cpuTime: number }[] };
  return new Map(processInfo.filter((p) => p.type === 'renderer').map((p) => [p.id, p.cpuTime]));
}

/**
 * CPU ms the busiest renderer used between two readings: the tab's, which walks (the service
 * worker's renderer and the ad frames' use less). CPU time, not wall time: a process waiting for a
 * core on a loaded machine does not add to it.
 */
function busiestRendererMs(before: Map<number, number>, after: Map<number, number>): number {
  let most = 0;
  for (const [pid, t] of after) most = Math.max(most, (t - (before.get(pid) ?? 0)) * 1000);
  return most;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sites = await startBenchSites();
  const served = serveBenchPages(sites, args.pages);
  const builds: Build[] = [];
  const load = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const loadStart = load();
  try {
    for (const dir of args.exts) {
      const h = await startHarness({ extensionDir: dir });
      const tab = await h.openPage(
        sites.main.set('/bench/start', { kind: 'page', body: '<!doctype html><title>start</title><p>start</p>' }),
      );
      const cdp = await tab.createCDPSession();
      const agent = await h.connectAgent();
      const browserCdp = await h.launched.browser.target().createCDPSession();
      let pw: Build['pw'];
      if (args.playwright) {
        // As bench/snapshot.ts: Playwright does not inspect our service worker's network (no cost a user pays).
        process.env['PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK'] = '1';
        const browser = await chromium.connectOverCDP(h.launched.browser.wsEndpoint());
        pw = { browser, page: await playwrightPageAt(browser, tab.url()) };
      }
      builds.push({ dir, h, tab, cdp, agent, browserCdp, ...(pw ? { pw } : {}) });
    }
    const results: Record<
      string,
      Record<string, { walk: number[]; worker: number[]; total: number[]; cpu: number[]; renderer: number[] }>
    > = {};
    /** --playwright: page -> build -> Playwright's first ariaSnapshot after a reload, ms. */
    const playwrightFirst: Record<string, Record<string, number[]>> = {};
    // Per build (the profiles of two builds are not merged): function -> ms, content.js line -> samples.
    const prof = args.exts.map(() => new Map<string, number>());
    const lineTicks = args.exts.map(() => new Map<number, number>());
    for (const spec of args.pages) {
      const url = served.get(spec.key) as string;
      const pwFirst: Record<string, number[]> = (playwrightFirst[spec.key] = {});
      const perBuild = (results[spec.key] = {} as Record<
        string,
        { walk: number[]; worker: number[]; total: number[]; cpu: number[]; renderer: number[] }
      >);
      for (let run = 0; run < args.runs; run++) {
        for (let k = 0; k < builds.length; k++) {
          const b = builds[(k + run) % builds.length] as Build;
          await b.tab.bringToFront();
          await navigateToBenchPage(b.tab, b.cdp, url, spec);
          if (args.profile) {
            await b.cdp.send('Profiler.enable');
            await b.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
            await b.cdp.send('Profiler.start');
          }
          const cpuBefore = await rendererCpu(b.browserCdp);
          const t0 = performance.now();
          const r = await b.agent.call('get_state', args.viewport ? {} : WHOLE, {
            ...(b.tabId === undefined ? {} : { tabId: b.tabId }),
            timeoutMs: 120_000,
          });
          const total = performance.now() - t0;
          const renderer = busiestRendererMs(cpuBefore, await rendererCpu(b.browserCdp));
          let cpu = NaN;
          if (args.profile) {
            const { profile } = (await b.cdp.send('Profiler.stop')) as unknown as { profile: Profile };
            cpu = selfTimes(profile, prof[builds.indexOf(b)] as Map<string, number>, lineTicks[builds.indexOf(b)] as Map<number, number>);
            if (args.saveProfiles) {
              fs.mkdirSync(args.saveProfiles, { recursive: true });
              fs.writeFileSync(path.join(args.saveProfiles, `${spec.key}-${builds.indexOf(b)}-${run}.cpuprofile`), JSON.stringify(profile));
            }
          }
          const s = r.new_simplified_state;
          if (r.status !== 'success' || !s) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
          b.tabId = s.tab_id;
          const walk = s.timings_ms?.['top_frame_walk'] ?? NaN;
          const slot = (perBuild[b.dir] ??= { walk: [], worker: [], total: [], cpu: [], renderer: [] });
          slot.walk.push(r1(walk));
          slot.worker.push(r1(s.timings_ms?.['total'] ?? NaN));
          slot.total.push(r1(total));
          slot.cpu.push(r1(cpu));
          slot.renderer.push(r1(renderer));
          if (b.pw) {
            // Playwright's first ariaSnapshot after its own reload, in the same browser and tab.
            await navigateToBenchPage(b.tab, b.cdp, url, spec);
            const p0 = performance.now();
            await b.pw.page.locator('body').ariaSnapshot({ timeout: 120_000 });
            (pwFirst[b.dir] ??= []).push(r1(performance.now() - p0));
          }
        }
      }
      const line = builds
        .map((b, i) => {
          const x = perBuild[b.dir] as { walk: number[]; worker: number[]; total: number[]; cpu: number[]; renderer: number[] };
          return (
            `[${i}] walk p50 ${r1(pct(x.walk, 50))} min ${Math.min(...x.walk)} (${x.walk.join(' ')}) worker p50 ${r1(pct(x.worker, 50))} total p50 ${r1(pct(x.total, 50))} min ${Math.min(...x.total)}` +
            ` tab renderer CPU p50 ${r1(pct(x.renderer, 50))} (${x.renderer.join(' ')})` +
            (args.profile ? ` content-script samples p50 ${r1(pct(x.cpu, 50))} (${x.cpu.join(' ')})` : '') +
            (pwFirst[b.dir]
              ? ` Playwright first ariaSnapshot p50 ${r1(pct(pwFirst[b.dir] as number[], 50))} (${(pwFirst[b.dir] as number[]).join(' ')});` +
                ` our total / Playwright (p50s) ${(pct(x.total, 50) / pct(pwFirst[b.dir] as number[], 50)).toFixed(2)}`
              : '')
          );
        })
        .join('  ');
      process.stdout.write(`${spec.key}: ${line}\n`);
    }
    process.stdout.write(`load ${loadStart} -> ${load()}\n`);
    if (args.profile) {
      for (const [i, dir] of args.exts.entries()) {
        process.stdout.write(`\n[${i}] ${dir}, summed over ${args.runs} states per page:\n`);
        const top = [...(prof[i] as Map<string, number>).entries()].sort((a, b) => b[1] - a[1]).slice(0, 70);
        for (const [k, ms] of top) process.stdout.write(`${ms.toFixed(1).padStart(9)} ms  ${k}\n`);
        // The hottest lines of that build's content.js (samples of 0.1 ms).
        const src = fs.readFileSync(path.join(dir, 'content.js'), 'utf8').split('\n');
        for (const [line, ticks] of [...(lineTicks[i] as Map<number, number>).entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
          process.stdout.write(`${String(ticks).padStart(7)}  ${line}: ${(src[line - 1] ?? '').trim().slice(0, 120)}\n`);
      }
    }
    if (args.out) {
      const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
      fs.writeFileSync(
        args.out,
        `${JSON.stringify({ date: new Date().toISOString(), git, load_start: loadStart, load_end: load(), builds: args.exts, viewport: args.viewport, results, ...(args.playwright ? { playwright_first: playwrightFirst } : {}) }, null, 2)}\n`,
      );
    }
  } finally {
    for (const b of builds) {
      await b.pw?.browser.close().catch(() => undefined);
      await b.h.close().catch(() => undefined);
    }
    await sites.close();
  }
}

await main();
