// `npm run bench:cdp`, several agents at once: does an agent whose tab is not in front step as fast as
// the one in front? Chrome throttles a tab hidden behind another tab of its window (no animation frames,
// no rendering, timers slowed: https://developer.chrome.com/blog/background_tabs/), but not
// the active tab of a window without focus. Two parts, on the harness's Chromium (headless=new, as the
// tests run; part 1 also in a plain headful Chromium when there is a DISPLAY):
//   1. what Chrome throttles, on its own endpoint: a screenshot, an animation frame, a 10 ms timer and a
//      navigation to load, in a tab in front, a tab behind it in the same window, and the active tab of
//      a second window that does not have focus;
//   2. two browser_use 0.13 sessions stepping at once over two CDP URLs of ours (bench/cdp_agents.py),
//      per-step times of each: "same window" (both tabs moved into the person's window, one in front:
//      where every client's page opened before each client had a window of its own) and "own windows"
//      (where the endpoint opens them now: bridge/agents/cdp/own-window.ts).
// Writes bench/results/cdp-agents.{json,md}. Standalone: node --import tsx bench/cdp-agents.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';

import { mintCdpClient } from '../bridge/agents/cdp/cdp-clients-file';
import { REPO_ROOT } from '../test/harness/browser';
import { BU013_PYTHON, runBu013Python } from '../test/harness/bu013';
import { launchCdpChromium } from '../test/harness/cdp-chromium';
import { type Harness, startHarness } from '../test/harness/harness';
import { median, r1, r2 } from './stats';

const THROTTLE_RUNS = Number(process.env['BENCH_CDP_THROTTLE_RUNS'] ?? 5);
const AGENT_STEPS = Number(process.env['BENCH_CDP_AGENT_STEPS'] ?? 8);
const OUT = path.join(REPO_ROOT, 'bench', 'results');
/** A probe that does not come back in this long counts as this long (a hidden tab may never paint). */
const PROBE_CAP_MS = 10_000;
/** The target: the agent not in front steps within this factor of the one in front. */
const TARGET_RATIO = 1.3;

const PLACES = ['front', 'behind', 'own_window'] as const;
type Place = (typeof PLACES)[number];
const PROBES = ['screenshot', 'animation_frame', 'timer_10ms', 'navigate_load'] as const;
type Probe = (typeof PROBES)[number];

const counterPage =
  "<h1>Counter</h1><button onclick=\"document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)\">" +
  'Increment</button><p>Count: <span id="n">0</span></p><input placeholder="search">';

const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function capped(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((r) => (timer = setTimeout(r, PROBE_CAP_MS)));
  await Promise.race([f().catch(() => undefined), cap]);
  clearTimeout(timer);
  return Math.min(performance.now() - t0, PROBE_CAP_MS);
}

interface Placed {
  page: Page;
  cdp: CDPSession;
  url: string;
}

type Throttling = { visibility: Record<Place, string>; median_ms: Record<Place, Record<Probe, number>> };

/** Part 1: the probes in each place, on Chromium's own endpoint (the harness's, or a plain headful Chromium). */
async function throttling(h: Harness, browser: Browser, mode: string): Promise<Throttling> {
  const url = (p: Place) => h.fixtures.html(`/bench-throttle-${mode}-${p}`, '<p>probe</p>', `probe ${p}`);
  const place = async (p: Place): Promise<Placed> => {
    let page: Page;
    if (p === 'own_window') {
      // A second window that does not take focus: what open_tab new_window makes (chrome.windows.create focused: false).
      const root = await browser.target().createCDPSession();
      await root.send('Target.createTarget', { url: url(p), newWindow: true, background: true });
      await root.detach();
      const target = await browser.waitForTarget((t) => t.url() === url(p));
      const got = await target.page();
      if (!got) throw new Error('no page for the own-window probe');
      page = got;
    } else {
      page = await browser.newPage();
      await page.goto(url(p), { waitUntil: 'load' });
    }
    return { page, cdp: await page.createCDPSession(), url: url(p) };
  };
  const placed = {} as Record<Place, Placed>;
  for (const p of PLACES) placed[p] = await place(p);
  await placed.front.page.bringToFront(); // "behind" is now hidden behind it, in the same window
  const visibility = {} as Record<Place, string>;
  for (const p of PLACES) visibility[p] = await placed[p].page.evaluate(() => `${document.visibilityState}, focus ${document.hasFocus()}`);
  const evalAwait = (cdp: CDPSession, expression: string) => cdp.send('Runtime.evaluate', { expression, awaitPromise: true });
  const probe: Record<Probe, (x: Placed, i: number) => Promise<unknown>> = {
    screenshot: (x) => x.cdp.send('Page.captureScreenshot', { format: 'png' }),
    animation_frame: (x) => evalAwait(x.cdp, 'new Promise((r) => requestAnimationFrame(() => r(1)))'),
    timer_10ms: (x) => evalAwait(x.cdp, 'new Promise((r) => setTimeout(r, 10))'),
    navigate_load: (x, i) => x.page.goto(`${x.url}?n=${i}`, { waitUntil: 'load' }),
  };
  const samples = Object.fromEntries(PLACES.map((p) => [p, Object.fromEntries(PROBES.map((k) => [k, [] as number[]]))])) as Record<
    Place,
    Record<Probe, number[]>
  >;
  // Interleaved run by run, so the machine's load hits every place alike.
  for (let i = 0; i < THROTTLE_RUNS; i++)
    for (const k of PROBES) for (const p of PLACES) samples[p][k].push(await capped(() => probe[k](placed[p], i)));
  for (const p of PLACES) await placed[p].page.close().catch(() => undefined);
  const median_ms = Object.fromEntries(
    PLACES.map((p) => [p, Object.fromEntries(PROBES.map((k) => [k, r1(median(samples[p][k]))]))]),
  ) as Record<Place, Record<Probe, number>>;
  return { visibility, median_ms };
}

interface Step {
  state: number;
  click: number;
  step: number;
}
type Agent = 'front' | 'behind';
interface LayoutResult {
  layout: 'same_window' | 'own_windows';
  placement: Record<Agent, { window_id: number; active: boolean; visibility: string }>;
  median_step_ms: Record<Agent, number>;
  ratio_behind_to_front: number;
  wall_ms: number;
  samples: Record<Agent, Step[]>;
}

/** Runs the service worker's chrome.* call (the bench places tabs as the person would drag them). */
async function inWorker<T>(h: Harness, f: (arg: string) => Promise<T>, arg: string): Promise<T> {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
  const w = await target.worker();
  if (!w) throw new Error('no extension service worker');
  return w.evaluate(f, arg);
}

const AGENTS = ['front', 'behind'] as const;

/**
 * Part 2, one layout: two browser_use sessions on two of our CDP URLs, stepping at once, one Python
 * process each (bench/cdp_agents.py says why).
 */
async function throttlingHeadful(h: Harness): Promise<Throttling> {
  const chromium = await launchCdpChromium({ headless: false });
  try {
    const browser = await puppeteer.connect({ browserWSEndpoint: chromium.wsUrl, defaultViewport: null });
    try {
      return await throttling(h, browser, 'headful');
    } finally {
      await browser.disconnect();
    }
  } finally {
    await chromium.close();
  }
}

async function agentsAtOnce(h: Harness, layout: LayoutResult['layout']): Promise<LayoutResult> {
  if (!fs.existsSync(BU013_PYTHON))
    throw new Error(`No browser_use 0.13 venv at ${BU013_PYTHON}: run \`node scripts/python-envs.mjs bu013\`.`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdpagents-'));
  const go = path.join(dir, 'go');
  const f = (a: Agent, name: string) => path.join(dir, a, name);
  const urls = {} as Record<Agent, string>;
  for (const a of AGENTS) {
    urls[a] = h.fixtures.html(`/bench-agents-${layout}-${a}`, counterPage, `Counter ${a}`);
    const cdpUrl = mintCdpClient(h.configDir, { name: `bench-${a}-${layout}`, maxTabs: 2 }).url(h.bridge.port);
    fs.mkdirSync(path.join(dir, a));
    fs.writeFileSync(f(a, 'args.json'), JSON.stringify({ cdp_url: cdpUrl, url: urls[a], runs: AGENT_STEPS, ready: f(a, 'ready'), go }));
  }
  let placement: LayoutResult['placement'] | null = null;
  const place = async (): Promise<void> => {
    while (!AGENTS.every((a) => fs.existsSync(f(a, 'ready')))) await new Promise((r) => setTimeout(r, 50));
    const arg = JSON.stringify({ urls, same: layout === 'same_window' });
    const tabs = await inWorker(
      h,
      async (a) => {
        const { urls: u, same } = JSON.parse(a) as { urls: Record<Agent, string>; same: boolean };
        const all = await chrome.tabs.query({});
        // No named inner function: tsx would wrap it in a helper the worker does not have.
        const [front, behind] = [u.front, u.behind].map((x) => all.find((t) => t.url === x));
        if (front?.id === undefined || behind?.id === undefined) throw new Error('the agents did not open their pages');
        if (same) {
          // Both into the person's window (the one the harness started with), the front agent's tab active.
          const person = Math.min(...all.map((t) => t.windowId));
          await chrome.tabs.move([front.id, behind.id], { windowId: person, index: -1 });
          await chrome.tabs.update(front.id, { active: true });
        }
        return Promise.all([front.id, behind.id].map((id) => chrome.tabs.get(id)));
      },
      arg,
    );
    const direct = (u: string) => h.launched.browser.waitForTarget((t) => t.url() === u).then((t) => t.page());
    const vis = async (u: string) => (await direct(u))?.evaluate(() => `${document.visibilityState}, focus ${document.hasFocus()}`);
    const [front, behind] = tabs;
    placement = {
      front: { window_id: front?.windowId ?? -1, active: front?.active === true, visibility: (await vis(urls.front)) ?? '?' },
      behind: { window_id: behind?.windowId ?? -1, active: behind?.active === true, visibility: (await vis(urls.behind)) ?? '?' },
    };
    fs.writeFileSync(go, 'go');
  };
  try {
    const runs = AGENTS.map((a) =>
      runBu013Python([path.join(REPO_ROOT, 'bench', 'cdp_agents.py'), f(a, 'args.json'), f(a, 'out.json')], {
        configDir: path.join(dir, a),
        timeoutMs: 900_000,
        cwd: path.join(REPO_ROOT, 'bench'),
        logLevel: 'warning',
      }),
    );
    const placed = place();
    const done = await Promise.all(runs);
    const out = {} as Record<Agent, { samples: Step[]; wall_ms: number }>;
    for (const [i, a] of AGENTS.entries()) {
      const { code, output } = done[i] ?? { code: null, output: '' };
      if (code !== 0 || !fs.existsSync(f(a, 'out.json'))) {
        const tail = output.split('\n').slice(-40).join('\n');
        throw new Error(`bench/cdp_agents.py (${a}) failed (exit ${code}):\n${tail.replace(/\/cdp\/[A-Za-z0-9_-]{16,}/g, '/cdp/<token>')}`);
      }
      out[a] = JSON.parse(fs.readFileSync(f(a, 'out.json'), 'utf-8')) as { samples: Step[]; wall_ms: number };
    }
    await placed;
    const med = (a: Agent) => r1(median(out[a].samples.map((s) => s.step)));
    if (!placement) throw new Error('the tabs were never placed');
    return {
      layout,
      placement,
      median_step_ms: { front: med('front'), behind: med('behind') },
      ratio_behind_to_front: r2(med('behind') / med('front')),
      wall_ms: r1(Math.max(out.front.wall_ms, out.behind.wall_ms)),
      samples: { front: out.front.samples, behind: out.behind.samples },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface AgentsBench {
  meta: Record<string, string>;
  throttling: Throttling;
  /** The same probes in a plain headful Chromium, when there is a display (DISPLAY; e.g. xvfb-run). */
  throttling_headful: Throttling | null;
  agents: LayoutResult[];
}

/** Both parts on a running harness; writes bench/results/cdp-agents.{json,md} and returns the numbers. */
export async function benchAgents(h: Harness): Promise<AgentsBench> {
  const loadBefore = loadavg();
  const throttle = await throttling(h, h.launched.browser, 'headless');
  process.stderr.write(`cdp-agents: throttling ${JSON.stringify(throttle)}\n`);
  const headful = process.env['DISPLAY'] ? await throttlingHeadful(h) : null;
  const agents = [await agentsAtOnce(h, 'same_window'), await agentsAtOnce(h, 'own_windows')];
  const r: AgentsBench = {
    meta: {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} cores, load average before ${loadBefore}, after ${loadavg()}`,
      chromium: await h.launched.browser.version(),
      mode: 'headless=new (the harness)',
    },
    throttling: throttle,
    throttling_headful: headful,
    agents,
  };
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'cdp-agents.json'), `${JSON.stringify(r, null, 2)}\n`);
  fs.writeFileSync(path.join(OUT, 'cdp-agents.md'), report(r));
  return r;
}

const throttleRows = (t: Throttling): string[] => [
  ...PROBES.map((k) => `| ${k} | ${t.median_ms.front[k]} | ${t.median_ms.behind[k]} | ${t.median_ms.own_window[k]} |`),
  `| document.visibilityState, hasFocus() | ${t.visibility.front} | ${t.visibility.behind} | ${t.visibility.own_window} |`,
];

function report(r: AgentsBench): string {
  const t = r.throttling;
  const own = r.agents.find((a) => a.layout === 'own_windows');
  return [
    '# Several agents at once: what Chrome throttles, and two browser_use 0.13 agents over our CDP endpoint',
    '',
    `${r.meta['date']}; ${r.meta['machine']}; ${r.meta['chromium']}, ${r.meta['mode']}.`,
    '',
    `## 1. What Chrome throttles (its own endpoint, medians of ${THROTTLE_RUNS}, ms; a probe that never answered counts ${PROBE_CAP_MS})`,
    '',
    '| probe | tab in front | tab behind it, same window | active tab of a second, unfocused window |',
    '|---|---:|---:|---:|',
    ...throttleRows(t),
    ...(r.throttling_headful
      ? [
          `| **headful** (plain Chromium on DISPLAY ${process.env['DISPLAY'] ?? '?'}, no window manager) | | | |`,
          ...throttleRows(r.throttling_headful),
        ]
      : []),
    '',
    'screenshot = `Page.captureScreenshot` png; animation_frame = `Runtime.evaluate` awaiting a `requestAnimationFrame`; ' +
      'timer_10ms = awaiting `setTimeout(r, 10)`; navigate_load = `page.goto(url, {waitUntil: "load"})`.',
    '',
    `## 2. Two browser_use 0.13 sessions stepping at once, each over its own CDP URL of ours (${AGENT_STEPS} steps each)`,
    '',
    '| layout | front agent: median step ms | other agent: median step ms | other / front | both agents, wall ms | where the tabs were |',
    '|---|---:|---:|---:|---:|---|',
    ...r.agents.map(
      (a) =>
        `| ${a.layout} | ${a.median_step_ms.front} | ${a.median_step_ms.behind} | **${a.ratio_behind_to_front}** | ${a.wall_ms} | ` +
        `front: window ${a.placement.front.window_id}, ${a.placement.front.visibility}; other: window ${a.placement.behind.window_id}, ` +
        `${a.placement.behind.active ? 'active' : 'not active'}, ${a.placement.behind.visibility} |`,
    ),
    '',
    'Per-step times (ms):',
    '',
    ...r.agents.map(
      (a) =>
        `- ${a.layout}: front ${a.samples.front.map((x) => Math.round(x.step)).join(', ')}; other ` +
        `${a.samples.behind.map((x) => Math.round(x.step)).join(', ')}`,
    ),
    '',
    "A step is bench/cdp_step.py's (`get_browser_state_summary()` with screenshot + one click by index on a counter page); both " +
      'sessions step at the same time, one Python process each (in one process bubus serializes them), after one uncounted ' +
      'step each. same_window: both tabs moved into the ' +
      "person's window with the front agent's tab active (where every client's page opened before each client got a window of " +
      "its own); own_windows: where our endpoint opens them now (each client's first page in a new window without focus). " +
      `Target: the other agent within ${TARGET_RATIO}x of the one in front: ${own && own.ratio_behind_to_front <= TARGET_RATIO ? 'met' : '**NOT met**'}.`,
    '',
    `Headful: ${r.throttling_headful ? 'rows above, on Linux X11 (xvfb-run)' : 'not measured (no DISPLAY; run under xvfb-run)'}. ` +
      'In a headful Chrome a window fully covered by another may be ' +
      'marked occluded and hidden (Windows and macOS track native window occlusion), which throttles its active tab like a ' +
      "background tab, as does minimising it (Chrome's documented behaviour, not measured here).",
    '',
    'Rerun: `npm run bench:cdp` (part of it), or `node --import tsx bench/cdp-agents.ts` alone (under `xvfb-run -a` for the headful rows). Knobs: BENCH_CDP_THROTTLE_RUNS ' +
      `(5), BENCH_CDP_AGENT_STEPS (8). Raw samples: bench/results/cdp-agents.json.`,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const h = await startHarness();
  try {
    const r = await benchAgents(h);
    process.stdout.write(`${JSON.stringify({ throttling: r.throttling, agents: r.agents.map(({ samples: _s, ...a }) => a) }, null, 2)}\n`);
  } finally {
    await h.close();
  }
}
