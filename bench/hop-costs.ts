// Where a whole-page state's time goes, hop by hop (what moving less data would save: the cost per
// hop). Two sources, both on the very state the bench took:
// - the extension's own timings_ms (the content script's walk; the worker's clock around the top
//   frame request and the child frames) and the caller's clock around get_state: walk, content
//   script -> worker (serialize, Chrome's message channel, parse), child frames, worker assembly,
//   and worker -> agent (stringify, WebSocket, bridge parse + validation + relay, client parse);
// - the CPU cost of the JSON work on those bytes, measured here in Node (the same V8 as the worker,
//   the bridge and the TS client): JSON.parse, the bridge's full schema validation of the
//   action_result, JSON.stringify; and what a keyless row-per-element form of the same state would
//   weigh and cost to parse (the "compact wire form" question: does it pay?).
// bench/hops.ts (npm run bench:hops) splits worker -> agent further, with a timestamp at each hop
// (agent -> bridge, bridge in, the worker around the state, bridge out, bridge -> agent + parse).
import type { ActionResultMessage, SimplifiedState } from '../schemas/generated/protocol';
import { checkMessage } from '../schemas/lib/wire';
import { median, r1 } from './stats';
import { transportFor, type TransportRow } from './transport-floor';

export interface HopCosts {
  caller_p50_ms: number;
  walk_p50_ms: number;
  content_to_worker_p50_ms: number;
  child_frames_p50_ms: number;
  worker_assembly_p50_ms: number;
  worker_to_agent_p50_ms: number;
  json_bytes: number;
  elements: number;
  /** CPU on this state's bytes, p50 of 5, Node. */
  parse_ms: number;
  validate_ms: number;
  stringify_ms: number;
  compact_bytes: number;
  compact_parse_ms: number;
}

function timeIt(fn: () => unknown, runs = 5): number {
  fn(); // warm
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return r1(median(xs));
}

/** The same state with elements and text items as rows of values under one key list (no repeated keys, no defaults). */
export function compactForm(state: SimplifiedState): unknown {
  const table = <T extends object>(items: T[]) => {
    const keys = [...new Set(items.flatMap((i) => Object.keys(i)))];
    return { keys, rows: items.map((i) => keys.map((k) => (i as Record<string, unknown>)[k] ?? null)) };
  };
  return { ...state, actionable_elements: table(state.actionable_elements), text_context: table(state.text_context ?? []) };
}

export function hopCosts(states: SimplifiedState[], callerRuns: number[]): HopCosts | null {
  const last = states.at(-1);
  if (!last || states.length === 0) return null;
  const ts = states.map((s) => s.timings_ms ?? {});
  const at = (k: string) => ts.map((t) => Number((t as Record<string, number>)[k]));
  const walk = at('top_frame_walk');
  const fetched = at('frames_fetched');
  const child = at('child_frames');
  const total = at('total');
  const envelope: ActionResultMessage = {
    type: 'action_result',
    original_action_id: 'a-1',
    status: 'success',
    new_simplified_state: last,
  } as ActionResultMessage;
  const text = JSON.stringify(envelope);
  const compact = JSON.stringify(compactForm(last));
  const parseMs = timeIt(() => JSON.parse(text));
  return {
    caller_p50_ms: r1(median(callerRuns)),
    walk_p50_ms: r1(median(walk)),
    content_to_worker_p50_ms: r1(median(fetched.map((f, i) => f - (child[i] ?? 0) - (walk[i] ?? 0)))),
    child_frames_p50_ms: r1(median(child)),
    worker_assembly_p50_ms: r1(median(total.map((t, i) => t - (fetched[i] ?? 0)))),
    // The caller runs and the states are paired (the last run's state is the last of both).
    worker_to_agent_p50_ms: r1(median(callerRuns.slice(-total.length).map((c, i) => c - (total[i] ?? 0)))),
    json_bytes: Buffer.byteLength(text),
    elements: last.actionable_elements.length,
    parse_ms: parseMs,
    validate_ms: timeIt(() => checkMessage(JSON.parse(text), 'bridge')) - parseMs,
    stringify_ms: timeIt(() => JSON.stringify(envelope)),
    compact_bytes: Buffer.byteLength(compact),
    compact_parse_ms: timeIt(() => JSON.parse(compact)),
  };
}

export function hopCostsMarkdown(
  rows: { page: string; hops?: HopCosts | null; floor_ms?: number; playwright_ms?: number }[],
  transport: TransportRow[] = [],
): string[] {
  const L: string[] = [
    '## Where the whole-page time goes (ours, p50 ms)',
    '',
    "From the extension's timings_ms and the caller's clock (first six columns), and the JSON work on the state's own bytes measured in " +
      "Node, the same V8 as the worker, bridge and client (the rest). worker -> agent = the caller's time minus the worker's " +
      "timings_ms.total: the request on its way in (agent -> bridge -> worker -> the top frame's content script), the worker's work " +
      'after the state is built (the state kept for deltas, <1 ms; the activity drain is answered before the state), then the ' +
      "privacy scrub, JSON.stringify and WebSocket send in the worker, the bridge's parse and full validation, the relay of the same " +
      "bytes, and the client's parse. Timestamps at each hop on news-saved (495 KB, load average 5-10 on 2 cores, 12 states, the " +
      'range of the middle ones, ms): on the way in, the bridge 1-3, the worker before it asks the page (settings, tab lookup, ' +
      'policy) 1.5-3, to the content script 1-3; walk end -> the snapshot parsed in the worker 11-14 (sent as an object: as a JSON ' +
      'string it was 16-20); on the way out, worker scrub 1.3-1.8, stringify 2.5-3.6, ws.send 2-2.5, WebSocket to the bridge ' +
      '2.5-5.6, bridge parse + validation 3.8-4.2, relay 1.2-1.5, bridge -> client 0.4, client parse 2.6-2.7: about 25 ms in all ' +
      "around the state's own timings. The bridge runs in its own process, as deployed (BENCH_BRIDGE=inline puts it in the bench " +
      'process beside the agent, Playwright and puppeteer, as the test harness does); on 2 cores the column still moves most with ' +
      'load (22-72 ms on news-saved over seven states of one run at load average 1-2). ' +
      "Playwright's network inspection of our service worker is off in this bench (BENCH_PW_SW_NETWORK=1 keeps it on): with it on, " +
      'every WebSocket frame our worker sent was copied to Playwright in the bench process, and worker -> agent on news-saved was ' +
      '131 ms instead of 30 (load average 12-20). Compact: the same state with elements and text items as keyless rows (what a ' +
      'compact wire form would weigh).',
    '',
    '| page | elements | get_state | walk | content -> worker | child frames | worker assembly | worker -> agent | JSON bytes | parse | ' +
      'validate | stringify | compact bytes | compact parse | bytes alone: messaging + WebSocket | floor | floor + bytes alone + JSON ' +
      'work | 0.25x Playwright |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const h = r.hops;
    if (!h) continue;
    const moved = transportFor(transport, h.json_bytes);
    const bytesAlone = r1(moved.messaging + moved.websocket);
    // The JSON work a state cannot avoid on its way: stringify in the page and in the worker,
    // parse in the worker, the bridge (plus its validation) and the client.
    const jsonWork = 2 * h.stringify_ms + 3 * h.parse_ms + h.validate_ms;
    const least = r.floor_ms === undefined ? NaN : r1(r.floor_ms + bytesAlone + jsonWork);
    L.push(
      `| ${r.page} | ${h.elements} | ${h.caller_p50_ms} | ${h.walk_p50_ms} | ${h.content_to_worker_p50_ms} | ${h.child_frames_p50_ms} | ` +
        `${h.worker_assembly_p50_ms} | ${h.worker_to_agent_p50_ms} | ${h.json_bytes} | ${h.parse_ms} | ${r1(h.validate_ms)} | ` +
        `${h.stringify_ms} | ${h.compact_bytes} (${((h.compact_bytes / h.json_bytes) * 100).toFixed(0)}%) | ${h.compact_parse_ms} | ` +
        `${Number.isFinite(bytesAlone) ? `${moved.messaging} + ${moved.websocket}` : 'n/a'} | ${r.floor_ms ?? 'n/a'} | ` +
        `${Number.isFinite(least) ? least : 'n/a'} | ${r.playwright_ms === undefined ? 'n/a' : r1(r.playwright_ms / 4)} |`,
    );
  }
  if (transport.length) {
    L.push(
      '',
      'Moving bytes alone in this browser (bench/transport-floor.ts, p50): ' +
        transport
          .map((t) => `${(t.bytes / 1e6).toFixed(2)} MB: messaging ${t.messaging_p50_ms} ms, WebSocket ${t.websocket_p50_ms} ms`)
          .join('; ') +
        '. "floor + bytes alone + JSON work" is what a state of that size costs at the least on this path (a walk as cheap as the ' +
        'floor, then the bytes moved twice and the JSON work of four hops), before any of our own work.',
    );
  }
  return L;
}
