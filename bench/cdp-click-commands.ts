// Which CDP commands one Playwright call sends, and how long each takes, through our endpoint and
// through Chromium's own, on the same tab: a logging WebSocket proxy sits in front of each side (the
// same extra hop on both), so a call's time splits into its commands' round trips, the ones it waits
// for one after another, and the events it got; the per-command floor of the same run (Runtime.evaluate's
// added p50) says what those round trips should cost. Run it on its own:
// `node --import tsx bench/cdp-click-commands.ts` (after `npm run build`); writes
// bench/results/cdp-click-commands.{json,md} (PROBE_TAG=x: cdp-click-commands.x.*; PROBE_SHOW_WORKER=1
// leaves the extension's service worker attached to the direct client, as the benches did before).
import fs from 'node:fs';
import path from 'node:path';

import { chromium, type Page as PwPage } from 'playwright-core';

import { mintCdpClient } from '../bridge/agents/cdp/cdp-clients-file';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { type Logged, loggingProxy } from './cdp-proxy';
import { median, r2 } from './stats';

/** One call's commands in order: method, round trip ms, and whether the client waited for an answer before sending it. */
function commands(log: Logged[]): { method: string; rtt: number; waited: boolean }[] {
  const out: { method: string; rtt: number; waited: boolean }[] = [];
  let lastAnswer = -Infinity;
  for (const s of log.filter((l) => l.dir === 'send')) {
    const answer = log.find((l) => l.dir === 'recv' && l.id === s.id && l.method === undefined);
    // Sent after an answer came (and none of its own was in flight): a round trip the call waits for.
    out.push({ method: s.method ?? '?', rtt: answer ? answer.at - s.at : NaN, waited: s.at >= lastAnswer });
    if (answer) lastAnswer = Math.max(lastAnswer, answer.at);
  }
  return out;
}

const SIDES = ['ours', 'direct'] as const;
type Side = (typeof SIDES)[number];

interface CallRow {
  call: string;
  median_ms: Record<Side, number>;
  commands: Record<Side, number>;
  waited_round_trips: Record<Side, number>;
  events: Record<Side, number>;
  per_method: { method: string; count: Record<Side, number>; median_rtt_ms: Record<Side, number> }[];
  chrome_debugger_in_worker_ms: number;
  /** Events the direct side's client got while ours ran the call (the extension worker's traffic, when it is not hidden). */
  direct_client_events_during_ours: number;
}

async function main(): Promise<void> {
  const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const h = await startHarness();
  const url = h.fixtures.html(
    '/click-probe',
    `<button onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">` +
      'Increment</button><p>Count: <span id="n">0</span></p>',
    'Counter',
  );
  const client = mintCdpClient(h.configDir, { name: 'probe', maxTabs: 4 });
  const ourBase = client.url(h.bridge.port);
  const ourWs = ((await (await fetch(`${ourBase}/json/version`)).json()) as { webSocketDebuggerUrl: string }).webSocketDebuggerUrl;
  const logs: Record<Side, Logged[]> = { ours: [], direct: [] };
  const on: Record<Side, { value: boolean }> = { ours: { value: false }, direct: { value: false } };
  const seen: Record<Side, { events: number }> = { ours: { events: 0 }, direct: { events: 0 } };
  const hide = process.env['PROBE_SHOW_WORKER'] === undefined;
  const proxies = [
    await loggingProxy(ourWs, logs.ours, on.ours, seen.ours, hide),
    await loggingProxy(h.launched.browser.wsEndpoint(), logs.direct, on.direct, seen.direct, hide),
  ];
  const ours = await chromium.connectOverCDP(proxies[0]?.url ?? '', { timeout: 60_000 });
  const direct = await chromium.connectOverCDP(proxies[1]?.url ?? '', { timeout: 60_000 });
  const rows: CallRow[] = [];
  let evalAdded = NaN;
  try {
    const ctx = ours.contexts()[0];
    if (!ctx) throw new Error('Playwright through our endpoint gave no default context');
    const ourPage = await ctx.newPage();
    await ourPage.goto(url, { waitUntil: 'load' });
    await ourPage.bringToFront();
    let directPage: PwPage | undefined;
    for (let i = 0; i < 100 && !directPage; i++) {
      directPage = direct
        .contexts()
        .flatMap((c) => c.pages())
        .find((p) => p.url() === url);
      if (!directPage) await new Promise((r) => setTimeout(r, 50));
    }
    if (!directPage) throw new Error("Playwright on Chromium's own endpoint does not see the tab");
    const pages: Record<Side, PwPage> = { ours: ourPage, direct: directPage };
    const sw = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
    const worker = await sw.worker();
    if (!worker) throw new Error('no extension service worker');
    const runs = Number(process.env['PROBE_RUNS'] ?? 15);

    // The per-command floor of this run: one small command's added p50 (ours - direct), interleaved.
    const sessions = { ours: await ctx.newCDPSession(ourPage), direct: await directPage.context().newCDPSession(directPage) };
    const evals: Record<Side, number[]> = { ours: [], direct: [] };
    for (let i = 0; i < 110; i++)
      for (const side of SIDES) {
        const t0 = performance.now();
        await sessions[side].send('Runtime.evaluate', { expression: '1' });
        if (i >= 10) evals[side].push(performance.now() - t0);
      }
    evalAdded = r2(median(evals.ours) - median(evals.direct));

    const calls: [string, (p: PwPage) => Promise<unknown>][] = [
      ["page.click('button')", (p) => p.click('button')],
      ['page.screenshot()', (p) => p.screenshot()],
    ];
    for (const [call, f] of calls) {
      const totals: Record<Side, number[]> = { ours: [], direct: [] };
      const waited: Record<Side, number[]> = { ours: [], direct: [] };
      const sent: Record<Side, number[]> = { ours: [], direct: [] };
      const events: Record<Side, number[]> = { ours: [], direct: [] };
      const perMethod: Record<Side, Map<string, number[]>> = { ours: new Map(), direct: new Map() };
      const inWorker: number[] = [];
      const directClientEvents: number[] = [];
      for (let i = 0; i <= runs; i++)
        for (const side of SIDES) {
          logs[side].length = 0;
          if (side === 'ours') await worker.evaluate('globalThis.__buxCdpTrace = []');
          const directEvents0 = seen.direct.events;
          on[side].value = true;
          const t0 = performance.now();
          await f(pages[side]);
          const ms = performance.now() - t0;
          on[side].value = false;
          if (side === 'ours' && i > 0) directClientEvents.push(seen.direct.events - directEvents0);
          const marks =
            side === 'ours'
              ? ((await worker.evaluate(
                  '(() => { const m = globalThis.__buxCdpTrace ?? []; globalThis.__buxCdpTrace = undefined; return m; })()',
                )) as [string, number][])
              : [];
          if (i === 0) continue; // warm-up
          totals[side].push(ms);
          const cs = commands(logs[side]);
          sent[side].push(cs.length);
          waited[side].push(cs.filter((c) => c.waited).length);
          events[side].push(logs[side].filter((l) => l.dir === 'recv' && l.method !== undefined).length);
          for (const c of cs) perMethod[side].set(c.method, [...(perMethod[side].get(c.method) ?? []), c.rtt]);
          // One session, answered in order: the k-th w_before with the k-th w_after.
          const at = (n: string) => marks.filter((m) => m[0] === n).map((m) => m[1]);
          const [before, after] = [at('w_before'), at('w_after')];
          after.forEach((a, k) => inWorker.push(a - (before[k] ?? NaN)));
        }
      const both = <T>(g: (side: Side) => T): Record<Side, T> => ({ ours: g('ours'), direct: g('direct') });
      const methods = [...new Set([...perMethod.ours.keys(), ...perMethod.direct.keys()])];
      rows.push({
        call,
        median_ms: both((s) => r2(median(totals[s]))),
        commands: both((s) => median(sent[s])),
        waited_round_trips: both((s) => median(waited[s])),
        events: both((s) => median(events[s])),
        per_method: methods.map((method) => ({
          method,
          count: both((s) => r2((perMethod[s].get(method)?.length ?? 0) / runs)),
          median_rtt_ms: both((s) => r2(median(perMethod[s].get(method) ?? []))),
        })),
        chrome_debugger_in_worker_ms: r2(median(inWorker.filter((x) => Number.isFinite(x)))),
        direct_client_events_during_ours: median(directClientEvents),
      });
    }
  } finally {
    await ours.close().catch(() => undefined);
    await direct.close().catch(() => undefined);
    for (const p of proxies) p.close();
    await h.close();
  }
  const loadAfter = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const out = path.join(
    REPO_ROOT,
    'bench',
    'results',
    `cdp-click-commands${process.env['PROBE_TAG'] ? `.${process.env['PROBE_TAG']}` : ''}`,
  );
  const json = {
    at: new Date().toISOString(),
    load: { before: loadBefore, after: loadAfter },
    extension_worker_hidden_from_direct_client: hide,
    runtime_evaluate_added_p50_ms: evalAdded,
    rows,
  };
  fs.writeFileSync(`${out}.json`, `${JSON.stringify(json, null, 2)}\n`);
  fs.writeFileSync(`${out}.md`, markdown(json));
  console.log(markdown(json));
}

function markdown(j: {
  at: string;
  load: { before: string; after: string };
  extension_worker_hidden_from_direct_client: boolean;
  runtime_evaluate_added_p50_ms: number;
  rows: CallRow[];
}): string {
  const lines = [
    "# Playwright's CDP commands per call, through our endpoint and Chromium's own",
    '',
    `Generated by \`node --import tsx bench/cdp-click-commands.ts\` on ${j.at}; 2 cores, /proc/loadavg before ${j.load.before}, after ${j.load.after}.`,
    "Same Chromium, same tab, Playwright connectOverCDP on both sides, calls interleaved (ours, direct, ...), one warm-up; each side's",
    'WebSocket passes a logging proxy (the same extra hop on both). "waited" = commands sent only after an answer came (the round',
    "trips the call waits for one after another); rtt = each command's round trip at the client. chrome.debugger = its own time",
    "per command timed in the service worker (bench-only trace). Floor = Runtime.evaluate's added p50 in this run (ours - direct).",
    `The extension's service worker ${j.extension_worker_hidden_from_direct_client ? 'is hidden from' : 'is left attached to (PROBE_SHOW_WORKER)'} the direct side's client.`,
    '',
    `Runtime.evaluate added p50 (the per-command floor of this run): **${j.runtime_evaluate_added_p50_ms} ms**.`,
    '',
  ];
  for (const r of j.rows) {
    const extra = r2(r.median_ms.ours - r.median_ms.direct);
    lines.push(
      `## ${r.call}`,
      '',
      `ours ${r.median_ms.ours} ms vs direct ${r.median_ms.direct} ms (${r2(r.median_ms.ours / r.median_ms.direct)}x, +${extra} ms); ` +
        `commands ${r.commands.ours} vs ${r.commands.direct}, waited round trips ${r.waited_round_trips.ours} vs ${r.waited_round_trips.direct}, ` +
        `events received ${r.events.ours} vs ${r.events.direct}; waited x floor = ${r2(r.waited_round_trips.ours * j.runtime_evaluate_added_p50_ms)} ms; ` +
        `chrome.debugger in the worker, median per command: ${r.chrome_debugger_in_worker_ms} ms; ` +
        `events the direct client got while ours ran: ${r.direct_client_events_during_ours}.`,
      '',
      '| method | per call, ours | per call, direct | rtt ours ms | rtt direct ms |',
      '|---|---:|---:|---:|---:|',
      ...r.per_method.map(
        (m) => `| ${m.method} | ${m.count.ours} | ${m.count.direct} | ${m.median_rtt_ms.ours} | ${m.median_rtt_ms.direct} |`,
      ),
      '',
    );
  }
  return lines.join('\n');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
