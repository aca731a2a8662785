// npm run bench:actions — click -> action_result with the new state, through agent -> bridge ->
// extension worker -> content script and back, beside puppeteer's own CDP click plus the same state
// extraction (the extension's page-side snapshot code, injected into the page) on the same tab of
// the same Chromium run. A bench, not a timed test: timings on a shared machine vary too much to assert.
//   modes:  settle off on both sides; settle on on both sides (the same rule: DOM quiet for
//           quiet_ms after the click, no request in flight, each capped); and on a button that
//           changes nothing, what the settle rule costs (settle on minus settle off, ours).
//   hops:   from the worker's wall-clock stamps (timings_ms.received_at/sent_at), a raw ping to
//           the bridge (agent <-> bridge) and a worker -> content script ping loop (page messaging).
// Writes bench/results/actions.json and bench/results/actions.md. BENCH_RUNS sets runs per series.
// BENCH_OUT=DIR writes there instead. BENCH_QUICK=1 is the quick check (same 40 runs per series: the
// whole bench takes about 40 s on an idle machine, 1-2 min under load, and its p50 ratios need
// those runs) that writes to bench/tmp/quick (git-ignored) so bench/results keeps the published run.
import fs from 'node:fs';
import path from 'node:path';

import { build } from 'esbuild';
import type { Page, WebWorker } from 'puppeteer-core';
import type { WebSocket } from 'ws';

import type { AgentClient } from '../bridge/client/agent-client';
import type { ActionResultMessage, OutcomeDetails, SimplifiedState } from '../schemas/generated/protocol';
import { REPO_ROOT } from '../test/harness/browser';
import { type Harness, startHarness } from '../test/harness/harness';
import { median, pct, r2 } from './stats';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 40);
const WARMUP = 5;
const QUICK = process.env['BENCH_QUICK'] === '1';
const OUT = process.env['BENCH_OUT']
  ? path.resolve(process.env['BENCH_OUT'])
  : path.join(REPO_ROOT, 'bench', QUICK ? 'tmp/quick' : 'results');
const SETTLE = { quiet_ms: 100, dom_cap_ms: 3000, network_cap_ms: 5000 };

const CONTROLS = `<button id="inc" onclick="document.getElementById('count').textContent = String(++window.n)">Add one</button>
  <button id="inert">Does nothing</button><p>Count: <span id="count">0</span></p><script>window.n = 0</script>`;
const SMALL = `<h1>Small</h1>${CONTROLS}<label>Name <input id="name"></label><a href="#x">A link</a>`;
function largePage(rows = 1500): string {
  const body: string[] = [`<h1>Large</h1>${CONTROLS}<table>`];
  for (let i = 0; i < rows; i++)
    body.push(
      `<tr><td>Row ${i} with some text to read</td><td><a href="#r${i}">Open ${i}</a></td><td><input name="q${i}" placeholder="Qty ` +
        `${i}"></td><td><button>Buy ${i}</button></td></tr>`,
    );
  body.push('</table>');
  return body.join('');
}

const now = () => performance.timeOrigin + performance.now();
/** The median to 0.01 ms (bench/stats.ts: nearest rank, so a measured run; a missing hop stamp is left out). */
const p50 = (xs: number[]) => r2(median(xs));

interface Series {
  side: 'ours' | 'puppeteer';
  page: 'small' | 'large';
  settle: 'off' | 'on';
  button: 'inc' | 'inert';
  runs_ms: number[];
  p50_ms: number;
  p95_ms: number;
  /** ours only: median per hop. */
  hops_p50_ms?: Record<string, number>;
}

async function serviceWorker(h: Harness): Promise<WebWorker> {
  const t = await h.launched.browser.waitForTarget((x) => x.type() === 'service_worker' && x.url().endsWith('/background.js'));
  const w = await t.worker();
  if (!w) throw new Error('no service worker');
  return w;
}

interface PortLike {
  postMessage(m: object): void;
  onMessage: { addListener(f: (m: { kind?: string }) => void): void };
  disconnect(): void;
}
type ChromeLike = {
  chrome: {
    storage: { local: { set(o: object): Promise<void> } };
    tabs: { sendMessage(tabId: number, m: object, o: object): Promise<unknown>; connect(tabId: number, o: object): PortLike };
  };
};

async function main(): Promise<void> {
  const wallStart = Date.now();
  const bundle = await build({
    entryPoints: [path.join(REPO_ROOT, 'bench', 'actions-page-snapshot.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    target: 'chrome120',
    logLevel: 'silent',
  });
  const snapshotJs = bundle.outputFiles[0]!.text;
  const h = await startHarness();
  const worker = await serviceWorker(h);
  const setSettle = (o: object) =>
    worker.evaluate((v) => (globalThis as unknown as ChromeLike).chrome.storage.local.set({ settle_options: v }), o);
  const agent: AgentClient = await h.connectAgent();
  const ws = (agent as unknown as { ws: WebSocket }).ws;
  const series: Series[] = [];
  const extra: Record<string, number> = {};
  try {
    // agent <-> bridge round trip: a ping the bridge answers itself.
    const pingRtts: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = now();
      await new Promise<void>((resolve) => {
        const on = (data: Buffer) => {
          if (String(data).includes('"pong"')) {
            ws.off('message', on);
            resolve();
          }
        };
        ws.on('message', on);
        agent.sendRaw({ type: 'ping', sent_at: Date.now() });
      });
      pingRtts.push(now() - t0);
    }
    extra['agent_bridge_rtt_p50'] = p50(pingRtts.slice(5));

    let page: Page | undefined;
    let tabIdOf: number | undefined;
    let listening = false;
    let pending = 0;
    for (const [pageName, html] of [
      ['small', SMALL],
      ['large', largePage()],
    ] as const) {
      const url = h.fixtures.html(`/bench-actions/${pageName}`, html, `Bench ${pageName}`);
      // One tab for the whole run (the session leases it on its first action): navigate it.
      if (!page) page = await h.openPage(url);
      else await agent.call('navigate', { url }, { tabId: tabIdOf! });
      const first = await agent.call('get_state', {}, tabIdOf === undefined ? {} : { tabId: tabIdOf });
      const state = first.new_simplified_state as SimplifiedState;
      const tabId = state.tab_id as number;
      tabIdOf = tabId;
      const idOf = (dom: string) => state.actionable_elements.find((e) => e.attributes['id'] === dom)!.id;
      extra[`${pageName}_listed_elements`] = state.actionable_elements.length;
      extra[`${pageName}_html_bytes`] = Buffer.byteLength(html);

      // worker -> content script -> worker round trip on the port page actions use (content-channel.ts), no page work.
      const portRtts = await worker.evaluate(async (id: number) => {
        const c = (globalThis as unknown as ChromeLike).chrome;
        const port = c.tabs.connect(id, { frameId: 0, name: 'bux-port' });
        let waiting: ((v: unknown) => void) | null = null;
        port.onMessage.addListener((m) => {
          if (m.kind !== 'answer' || !waiting) return;
          const w = waiting;
          waiting = null;
          w(null);
        });
        const out: number[] = [];
        for (let i = 0; i < 40; i++) {
          const t = performance.now();
          await new Promise((r) => {
            waiting = r;
            port.postMessage({ kind: 'request', id: i + 1, request: { channel: 'bux', kind: 'ping' } });
          });
          out.push(performance.now() - t);
        }
        port.disconnect();
        return out;
      }, tabId);
      extra[`${pageName}_worker_page_port_rtt_p50`] = p50(portRtts.slice(5));
      // The same on a one-off message channel (chrome.tabs.sendMessage: the fallback, and settle messages).
      const pageRtts = await worker.evaluate(async (id: number) => {
        const c = (globalThis as unknown as ChromeLike).chrome;
        const out: number[] = [];
        for (let i = 0; i < 40; i++) {
          const t = performance.now();
          await c.tabs.sendMessage(id, { channel: 'bux', kind: 'ping' }, { frameId: 0 });
          out.push(performance.now() - t);
        }
        return out;
      }, tabId);
      extra[`${pageName}_worker_page_rtt_p50`] = p50(pageRtts.slice(5));

      await page.addScriptTag({ content: snapshotJs });
      // Puppeteer's pending requests, for its side of the settle rule.
      if (!listening) {
        listening = true;
        page.on('request', () => pending++);
        page.on('requestfinished', () => pending--);
        page.on('requestfailed', () => pending--);
      }
      const pg = page;

      const runOurs = async (button: 'inc' | 'inert', settle: 'on' | 'off') => {
        await setSettle(settle === 'on' ? { ...SETTLE, no_change_timeout_ms: 0 } : { enabled: false });
        const ms: number[] = [];
        const hops: Record<string, number[]> = {
          agent_to_worker: [],
          worker_to_agent: [],
          bridge_to_worker_est: [],
          worker_to_page_and_page_work: [],
          page_work_est: [],
          settle: [],
          state: [],
          worker_other: [],
        };
        const elementId = idOf(button);
        for (let i = 0; i < WARMUP + RUNS; i++) {
          const t0 = now();
          const r: ActionResultMessage = await agent.call('click', { element_id: elementId }, { tabId });
          const t1 = now();
          if (r.status !== 'success') throw new Error(`click failed: ${JSON.stringify(r.error_info)}`);
          if (i < WARMUP) continue;
          ms.push(t1 - t0);
          const t = (r.outcome_details as OutcomeDetails).timings_ms!;
          const settleMs = (t.dom_quiet ?? 0) + (t.network_idle ?? 0);
          hops['agent_to_worker']!.push(t.received_at! - t0);
          hops['worker_to_agent']!.push(t1 - t.sent_at!);
          hops['bridge_to_worker_est']!.push(t.received_at! - t0 - extra['agent_bridge_rtt_p50']! / 2);
          hops['worker_to_page_and_page_work']!.push(t.action ?? 0);
          hops['page_work_est']!.push((t.action ?? 0) - extra[`${pageName}_worker_page_port_rtt_p50`]!);
          hops['settle']!.push(settleMs);
          hops['state']!.push(t.state ?? 0);
          hops['worker_other']!.push((t.total ?? 0) - (t.action ?? 0) - settleMs - (t.state ?? 0));
        }
        series.push({
          side: 'ours',
          page: pageName,
          settle,
          button,
          runs_ms: ms.map(r2),
          p50_ms: p50(ms),
          p95_ms: r2(pct(ms, 95)),
          hops_p50_ms: Object.fromEntries(Object.entries(hops).map(([k, v]) => [k, p50(v)])),
        });
      };

      const runPuppeteer = async (button: 'inc' | 'inert', settle: 'on' | 'off') => {
        const ms: number[] = [];
        for (let i = 0; i < WARMUP + RUNS; i++) {
          const t0 = now();
          if (settle === 'on') {
            await pg.evaluate(() => {
              const w = window as unknown as { __benchLast: number; __benchObs?: MutationObserver };
              w.__benchLast = performance.now();
              w.__benchObs?.disconnect();
              w.__benchObs = new MutationObserver(() => (w.__benchLast = performance.now()));
              w.__benchObs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
            });
          }
          await pg.click(`#${button}`);
          if (settle === 'on') {
            // A string, not a function: tsx would wrap named inner functions in a __name() helper the page lacks.
            const quiet = (q: number, cap: number) =>
              pg.evaluate(
                `new Promise((resolve) => { const start = performance.now(); const tick = () => { const n = performance.now(); if (n - ` +
                  `window.__benchLast >= ${q} || n - start >= ${cap}) resolve(); else setTimeout(tick, Math.max(1, ${q} - (n - ` +
                  `window.__benchLast))); }; tick(); })`,
              );
            await quiet(SETTLE.quiet_ms, SETTLE.dom_cap_ms);
            const capAt = performance.now() + SETTLE.network_cap_ms;
            while (pending > 0 && performance.now() < capAt) await new Promise((r) => setTimeout(r, 5));
          }
          type Snapshotting = { __buxBenchSnapshot: (p: object) => string };
          const json = await pg.evaluate(() => (window as unknown as Snapshotting).__buxBenchSnapshot({}));
          JSON.parse(json);
          const t1 = now();
          if (i >= WARMUP) ms.push(t1 - t0);
        }
        series.push({ side: 'puppeteer', page: pageName, settle, button, runs_ms: ms.map(r2), p50_ms: p50(ms), p95_ms: r2(pct(ms, 95)) });
      };

      for (const settle of ['off', 'on'] as const) {
        await runOurs('inc', settle);
        await runPuppeteer('inc', settle);
        await runOurs('inert', settle);
      }
    }
  } finally {
    await setSettle({}).catch(() => undefined);
    await h.close();
  }

  const find = (side: Series['side'], page: Series['page'], settle: Series['settle'], button: Series['button']) =>
    series.find((s) => s.side === side && s.page === page && s.settle === settle && s.button === button)!;
  const summary = (['small', 'large'] as const).map((pg) => {
    const oursOff = find('ours', pg, 'off', 'inc');
    const ppOff = find('puppeteer', pg, 'off', 'inc');
    const oursOn = find('ours', pg, 'on', 'inc');
    const ppOn = find('puppeteer', pg, 'on', 'inc');
    const inertOn = find('ours', pg, 'on', 'inert');
    const inertOff = find('ours', pg, 'off', 'inert');
    return {
      page: pg,
      settle_off: { ours_p50: oursOff.p50_ms, puppeteer_p50: ppOff.p50_ms, ratio: r2(oursOff.p50_ms / ppOff.p50_ms) },
      settle_on: { ours_p50: oursOn.p50_ms, puppeteer_p50: ppOn.p50_ms, ratio: r2(oursOn.p50_ms / ppOn.p50_ms) },
      settle_cost_on_inert_page_p50: r2(inertOn.p50_ms - inertOff.p50_ms),
      targets:
        pg === 'small' ? { within_1_2x_of_puppeteer: oursOff.p50_ms <= 1.2 * ppOff.p50_ms, under_5ms: oursOff.p50_ms < 5 } : undefined,
    };
  });
  const result = {
    generated_at: new Date().toISOString(),
    runs_per_series: RUNS,
    warmup: WARMUP,
    settle_rule: SETTLE,
    chromium: await h.launched.browser.version().catch(() => 'closed'),
    measured: extra,
    summary,
    series,
    wall_s: Math.round((Date.now() - wallStart) / 1000),
  };
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'actions.json'), JSON.stringify(result, null, 2) + '\n');
  fs.writeFileSync(path.join(OUT, 'actions.md'), markdown(result.summary, series, extra, result.wall_s));
  process.stdout.write(markdown(result.summary, series, extra, result.wall_s));
}

function markdown(
  summary: {
    page: string;
    settle_off: { ours_p50: number; puppeteer_p50: number; ratio: number };
    settle_on: { ours_p50: number; puppeteer_p50: number; ratio: number };
    settle_cost_on_inert_page_p50: number;
    targets?: { within_1_2x_of_puppeteer: boolean; under_5ms: boolean };
  }[],
  series: Series[],
  extra: Record<string, number>,
  wall: number,
): string {
  const lines = [
    '# bench:actions — click -> action_result with new state',
    '',
    `Runs per series: ${RUNS} (after ${WARMUP} warm-up). Settle rule: DOM quiet ${SETTLE.quiet_ms} ms (cap ${SETTLE.dom_cap_ms}), no ` +
      `fetch/XHR in flight (cap ${SETTLE.network_cap_ms}). Wall time ${wall} s.`,
    `Small page: ${extra['small_listed_elements']} listed elements; large page: ${extra['large_html_bytes']} bytes of HTML, ` +
      `${extra['large_listed_elements']} listed (viewport).`,
    '',
    '| page | settle | ours p50 / p95 (ms) | puppeteer click + same extraction p50 / p95 (ms) | ratio p50 |',
    '|---|---|---|---|---|',
  ];
  for (const s of summary) {
    for (const mode of ['off', 'on'] as const) {
      const o = series.find((x) => x.side === 'ours' && x.page === s.page && x.settle === mode && x.button === 'inc')!;
      const p = series.find((x) => x.side === 'puppeteer' && x.page === s.page && x.settle === mode && x.button === 'inc')!;
      lines.push(`| ${s.page} | ${mode} | ${o.p50_ms} / ${o.p95_ms} | ${p.p50_ms} / ${p.p95_ms} | ${r2(o.p50_ms / p.p50_ms)}x |`);
    }
  }
  lines.push(
    '',
    '## What the settle rule costs on a button that changes nothing (ours, p50)',
    '',
    '| page | settle off | settle on | cost |',
    '|---|---|---|---|',
  );
  for (const s of summary) {
    const off = series.find((x) => x.side === 'ours' && x.page === s.page && x.settle === 'off' && x.button === 'inert')!;
    const on = series.find((x) => x.side === 'ours' && x.page === s.page && x.settle === 'on' && x.button === 'inert')!;
    lines.push(`| ${s.page} | ${off.p50_ms} | ${on.p50_ms} | ${s.settle_cost_on_inert_page_p50} |`);
  }
  lines.push(
    '',
    'The no-change watch (default no_change_timeout_ms 15000) is off in these runs; with it on, a click that changes nothing waits the ' +
      'full window before answering with the seed 002 notice.',
  );
  lines.push(
    '',
    '## Hops (ours, p50 ms, click on the counter button)',
    '',
    `agent <-> bridge ping RTT p50: ${extra['agent_bridge_rtt_p50']} ms. Worker <-> content script ping RTT p50 on the port actions ` +
      `use: small ${extra['small_worker_page_port_rtt_p50']} ms, large ${extra['large_worker_page_port_rtt_p50']} ms ` +
      `(chrome.tabs.sendMessage: small ${extra['small_worker_page_rtt_p50']} ms, large ${extra['large_worker_page_rtt_p50']} ms).`,
    '',
  );
  const hopNames = [
    'agent_to_worker',
    'bridge_to_worker_est',
    'worker_to_page_and_page_work',
    'page_work_est',
    'settle',
    'state',
    'worker_other',
    'worker_to_agent',
  ];
  lines.push(`| page | settle | ${hopNames.join(' | ')} |`, `|---|---|${hopNames.map(() => '---').join('|')}|`);
  for (const s of series.filter((x) => x.side === 'ours' && x.button === 'inc'))
    lines.push(`| ${s.page} | ${s.settle} | ${hopNames.map((k) => s.hops_p50_ms?.[k] ?? '').join(' | ')} |`);
  lines.push(
    '',
    'agent_to_worker / worker_to_agent: agent send -> worker receive and worker send -> agent receive (wall clocks of one machine), ' +
      "each including the bridge's validation and relay; bridge_to_worker_est subtracts half the agent <-> bridge ping. " +
      'worker_to_page_and_page_work: the worker -> content script request including the page-side click (actionability checks and ' +
      'events) and, settle off, the snapshot of the page; page_work_est subtracts the port ping RTT. state: collecting ' +
      'new_simplified_state (page walk, frame stitching). worker_other: settings read, tab lookup, routing.',
  );
  for (const s of summary)
    if (s.targets)
      lines.push(
        '',
        `Targets (small page, settle off): p50 within 1.2x of puppeteer: ${s.targets.within_1_2x_of_puppeteer ? 'yes' : 'no'} ` +
          `(${s.settle_off.ratio}x); under 5 ms: ${s.targets.under_5ms ? 'yes' : 'no'} (${s.settle_off.ours_p50} ms).`,
      );
  return lines.join('\n') + '\n';
}

await main();
