// Where each 0.1 ms of one small CDP command through our endpoint goes: timestamps at every hop of
// the path (the bridge's marks, bridge/common/cdp-trace.ts; the service worker's marks,
// extension/src/shared/cdp-trace.ts; the client's clock around the call), both on the shared clock
// (performance.timeOrigin + performance.now(): the bench process runs the bridge and the client, the
// worker's clock is Chromium's, on the same machine). Commands run one at a time, so each one's marks
// are its own. The trace is bench-only and off by default (one null check per hook).
import type { CDPSession, WebWorker } from 'puppeteer-core';

import { setCdpTrace, takeCdpTrace } from '../bridge/common/cdp-trace';
import { median, pct, r2 } from './stats';

/** Hop names in path order, and what each covers. */
export const TRACE_HOPS: readonly (readonly [string, string])[] = [
  ['client_to_bridge', "the client's send (puppeteer's JSON) and the loopback WebSocket to the bridge's /cdp socket"],
  ['emulator_in', "the emulator: the client's frame parsed and routed to the tab's session"],
  ['agent_link_to_gateway', 'the agent client builds the cdp_command; the in-process link; the gateway parses and validates it'],
  ['gateway_lease', "the gateway: the session's lease on the tab, the command registered for its answer"],
  // One row from the bridge's send to the worker's receive: on a loaded machine the write wakes Chromium's
  // network service, which may take the core before ws.send returns, so a mark after the send says little.
  [
    'bridge_to_worker',
    "JSON.stringify of the cdp_command, ws.send, the extension WebSocket through Chromium's network service, the worker's wake-up (two clocks)",
  ],
  ['worker_decode', "the worker's JSON.parse and schema check of the command"],
  ['worker_checks', 'the attachment, scope, method allow list and person-policy checks (synchronous in the common case)'],
  ['chrome_debugger', "chrome.debugger.sendCommand: Chrome's own time (browser process, the page's renderer, back)"],
  ['worker_answer', 'the answer built, the promise turns, the privacy filter (skipped for text-free methods)'],
  ['worker_stringify', 'JSON.stringify of the cdp_result'],
  ['worker_ws_send', 'ws.send in the worker'],
  ['socket_to_bridge', "the worker's WebSocket back to the bridge (two clocks)"],
  ['bridge_decode', "the bridge's JSON.parse and schema check of the cdp_result"],
  ['bridge_to_emulator', 'the answer over the in-process link to the agent client, taken as text, its promise'],
  ['emulator_reply', "the emulator writes the reply with Chrome's result text (no parse) and ws.send"],
  ['bridge_to_client', "the loopback WebSocket to the client and puppeteer's parse of the reply"],
];

type Mark = readonly [string, number, string?];

const clock = () => performance.timeOrigin + performance.now();

/** The first mark named `name` at or after index `from`, and its index. */
function find(marks: readonly Mark[], name: string, from = 0): { i: number; at: number } | null {
  for (let i = from; i < marks.length; i++) if (marks[i]?.[0] === name) return { i, at: marks[i]?.[1] ?? NaN };
  return null;
}

/** The last mark named `name` before index `before`. */
function findLast(marks: readonly Mark[], name: string, before: number): number | null {
  for (let i = before - 1; i >= 0; i--) if (marks[i]?.[0] === name) return marks[i]?.[1] ?? null;
  return null;
}

export interface TraceResult {
  runs: number;
  total_p50_ms: number;
  /** Per hop: p50 and p90 ms. */
  hops: Record<string, { p50: number; p90: number }>;
  /** Sum of the hop p50s (close to total_p50_ms when the hops cover the path). */
  sum_p50_ms: number;
  /** Both extension socket hops together, on one clock each: (bridge receives - bridge sends) - (worker sent - worker received). */
  extension_sockets_both_ways: { p50: number; p90: number };
}

/**
 * runs `method` (Runtime.evaluate {expression: '1'} unless given) on `session` (a session of our
 * endpoint), one at a time, with both traces on; `worker` is the extension's service worker (its
 * trace is switched on there).
 */
export async function traceHops(
  session: CDPSession,
  worker: WebWorker,
  runs: number,
  command: { method: string; params: Record<string, unknown> } = { method: 'Runtime.evaluate', params: { expression: '1' } },
): Promise<TraceResult> {
  await worker.evaluate('globalThis.__buxCdpTrace = []');
  setCdpTrace(true);
  const rows: { client: [number, number]; bridge: Mark[] }[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      takeCdpTrace();
      const t0 = clock();
      await (session.send as (m: string, p: unknown) => Promise<unknown>)(command.method, command.params);
      const t1 = clock();
      rows.push({ client: [t0, t1], bridge: takeCdpTrace() });
    }
  } finally {
    setCdpTrace(false);
  }
  const workerMarks = (await worker.evaluate(
    '(() => { const m = globalThis.__buxCdpTrace ?? []; delete globalThis.__buxCdpTrace; return m; })()',
  )) as Mark[];
  // The worker's marks of a command: from its w_decoded, named with the id the bridge relayed it under.
  const startOf = new Map<string, number>();
  workerMarks.forEach(([name, , id], i) => {
    if (name === 'w_decoded' && id !== undefined) startOf.set(id, i);
  });
  const samples: Record<string, number[]> = Object.fromEntries(TRACE_HOPS.map(([k]) => [k, []]));
  const totals: number[] = [];
  const sockets: number[] = [];
  rows.forEach((row) => {
    const b = row.bridge;
    const relayId = b.find(([name]) => name === 'b_to_ext')?.[2];
    const start = relayId === undefined ? undefined : startOf.get(relayId);
    if (start === undefined) return;
    const w = workerMarks;
    const wIn = findLast(w, 'w_in', start);
    const wBefore = find(w, 'w_before', start);
    const wAfter = wBefore && find(w, 'w_after', wBefore.i);
    const wScrubbed = wAfter && find(w, 'w_scrubbed', wAfter.i);
    const wJson = wScrubbed && find(w, 'w_json', wScrubbed.i);
    const wSent = wJson && find(w, 'w_sent', wJson.i);
    const bIn = find(b, 'b_client_in');
    const bEmu = find(b, 'b_emu_send');
    const bGw = find(b, 'b_gw_in');
    const bTo = find(b, 'b_to_ext');
    const bDecoded = find(b, 'b_ext_decoded');
    const bFrame = bDecoded ? findLast(b, 'b_ext_frame', bDecoded.i) : null;
    const bAnswer = find(b, 'b_emu_answer');
    const bOut = bAnswer && find(b, 'b_client_out', bAnswer.i);
    const at = [
      row.client[0],
      bIn?.at,
      bEmu?.at,
      bGw?.at,
      bTo?.at,
      wIn,
      w[start]?.[1],
      wBefore?.at,
      wAfter?.at,
      wScrubbed?.at,
      wJson?.at,
      wSent?.at,
      bFrame,
      bDecoded?.at,
      bAnswer?.at,
      bOut?.at,
      row.client[1],
    ];
    if (at.some((x) => typeof x !== 'number')) return; // a mark missing: this run is left out
    const ts = at as number[];
    TRACE_HOPS.forEach(([k], j) => samples[k]?.push((ts[j + 1] ?? NaN) - (ts[j] ?? NaN)));
    totals.push(row.client[1] - row.client[0]);
    sockets.push((bFrame as number) - (bTo?.at ?? NaN) - ((wSent?.at ?? NaN) - (wIn as number)));
  });
  const hops = Object.fromEntries(
    TRACE_HOPS.map(([k]) => [k, { p50: r2(median(samples[k] ?? [])), p90: r2(pct(samples[k] ?? [], 90)) }]),
  ) as TraceResult['hops'];
  return {
    runs: totals.length,
    total_p50_ms: r2(median(totals)),
    hops,
    sum_p50_ms: r2(Object.values(hops).reduce((s, h) => s + h.p50, 0)),
    extension_sockets_both_ways: { p50: r2(median(sockets)), p90: r2(pct(sockets, 90)) },
  };
}

/** The table for cdp.md. */
export function traceMarkdown(t: TraceResult): string[] {
  return [
    '| hop | what | p50 ms | p90 ms |',
    '|---|---|---:|---:|',
    ...TRACE_HOPS.map(([k, what]) => `| ${k} | ${what} | ${t.hops[k]?.p50 ?? 'n/a'} | ${t.hops[k]?.p90 ?? 'n/a'} |`),
    `| **sum of p50s** | (the whole call: p50 ${t.total_p50_ms} ms over ${t.runs} runs) | ${t.sum_p50_ms} | |`,
    `| bridge_to_worker + socket_to_bridge | the same two hops, each side on its own clock | ` +
      `${t.extension_sockets_both_ways.p50} | ${t.extension_sockets_both_ways.p90} |`,
  ];
}
