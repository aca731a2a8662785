// npm run bench:hops — where one whole-page get_state spends its time, hop by hop, measured with a
// timestamp at each hop (not derived): the bridge runs in this process (as in the test harness), and
// its WebSocket sockets are tapped from outside (a 'message' listener put before the bridge's own,
// and a wrapper around send) to stamp when the agent's action reaches the bridge and leaves it for
// the worker, and when the worker's action_result reaches the bridge and leaves it for the agent.
// With the state's own timings_ms (walk, content script -> worker, child frames, assembly) that
// splits a state into: agent -> bridge | bridge in | worker around the state (its reads before the
// walk, its scrub + stringify + send after, both WebSocket hops) | walk | content -> worker | child
// frames | worker assembly | bridge out (parse, validation, relay) | bridge -> agent + agent parse.
// The agent's parse is also timed alone on the very bytes it got: the TypeScript client's
// decodeFromBridge and the Python shim's json.loads (bu048 venv).
//
// Two builds side by side in one run, alternating per round so load hits both alike:
// HOPS_BEFORE_EXT=<a built dist/extension> is "before", this worktree's dist/extension "after"
// (without it, only "after"). Pages: --pages a,b (default news-saved, wiki-article, news-ads);
// rounds: --runs N (default 9); --include-tabs: each state with the tab list (written as
// hops-include-tabs.*); --since and --viewport: see below. Writes bench/results/hops.json and hops.md with the load.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { RawData, WebSocket, WebSocketServer } from 'ws';

import { decodeFromBridge } from '../bridge/client/decode-from-bridge';
import type { GetStateParams, SimplifiedState } from '../schemas/generated/protocol';
import { REPO_ROOT } from '../test/harness/browser';
import { type Harness, startHarness } from '../test/harness/harness';
import { CHANGE_FIELD, CHANGE_ITEM } from './page-edits';
import { BENCH_PAGES, serveBenchPages, startBenchSites } from './pages';
import { median, r1 } from './stats';

const WHOLE: GetStateParams = { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 };
/** --include-tabs: each state with the tab list, as a browser_use step asks for it. */
/** --viewport: the viewport state (get_state's defaults) instead of the whole page (written as hops-viewport*). */
const VIEWPORT = process.argv.includes('--viewport');
const SCOPE: GetStateParams = VIEWPORT ? {} : WHOLE;
const STATE: GetStateParams = process.argv.includes('--include-tabs') ? { ...SCOPE, include_tabs: true } : SCOPE;
const OUT = path.join(REPO_ROOT, 'bench', 'results');
/**
 * --since: each state asked as real agents ask (AgentClient.getState: since the client's last state
 * of the tab, the state_delta turned back into the whole state at the agent; written as hops-since.*).
 */
const SINCE = process.argv.includes('--since');
/**
 * --change item|field: before each timed state the page changes one item in view or one text field
 * (bench/page-edits.ts), so each state is the one after an action: a fresh walk whose frame crosses
 * as edits to the one the worker holds (written as hops-...-change-item / -change-field).
 */
const CHANGE = ((): 'item' | 'field' | null => {
  const i = process.argv.indexOf('--change');
  if (i < 0) return null;
  const v = process.argv[i + 1];
  if (v !== 'item' && v !== 'field') throw new Error('--change takes item or field');
  return v;
})();

/** The bridge's four stamps of the latest action (performance.now of this process). */
interface Stamps {
  actionIn?: number;
  actionOut?: number;
  resultIn?: number;
  resultOut?: number;
  /** The bytes the agent got. */
  text?: string;
}

/** Taps every socket of the harness's bridge (once each): stamps action and action_result frames. */
function tapBridge(h: Harness, stamps: Stamps): void {
  const wss = (h.bridge as unknown as { wss: WebSocketServer }).wss;
  for (const ws of wss.clients as Set<WebSocket & { __tapped?: boolean }>) {
    if (ws.__tapped) continue;
    ws.__tapped = true;
    ws.prependListener('message', (data: RawData) => {
      const head = data.toString('utf8', 0, 24);
      if (head.startsWith('{"type":"action"')) stamps.actionIn = performance.now();
      else if (head.startsWith('{"type":"action_result"')) stamps.resultIn = performance.now();
    });
    const send = ws.send.bind(ws) as (data: unknown, ...rest: unknown[]) => void;
    (ws as unknown as { send: (data: unknown, ...rest: unknown[]) => void }).send = (data: unknown, ...rest: unknown[]) => {
      if (typeof data === 'string' && data.startsWith('{"type":"action_result"')) {
        stamps.resultOut = performance.now();
        stamps.text = data;
      } else if (typeof data === 'string' && data.startsWith('{"type":"action"')) stamps.actionOut = performance.now();
      send(data, ...rest);
    };
  }
}

interface Sample {
  caller: number;
  agent_to_bridge: number;
  bridge_in: number;
  worker_around: number;
  walk: number;
  content_to_worker: number;
  child_frames: number;
  worker_assembly: number;
  bridge_out: number;
  bridge_to_agent_and_parse: number;
}

interface Variant {
  name: string;
  h: Harness;
  agent: Awaited<ReturnType<Harness['connectAgent']>>;
  tabId?: number;
  stamps: Stamps;
  tab: Awaited<ReturnType<Harness['openPage']>>;
}

async function takeState(v: Variant): Promise<{ sample: Sample; state: SimplifiedState; text: string }> {
  const s = v.stamps;
  delete s.actionIn;
  delete s.actionOut;
  delete s.resultIn;
  delete s.resultOut;
  const t0 = performance.now();
  const opts = { ...(v.tabId === undefined ? {} : { tabId: v.tabId }), timeoutMs: 120_000 };
  const r = SINCE ? await v.agent.getState(STATE, opts) : await v.agent.call('get_state', STATE, opts);
  const t1 = performance.now();
  if (r.status !== 'success' || !r.new_simplified_state) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
  const state = r.new_simplified_state;
  v.tabId = state.tab_id;
  const t = (state.timings_ms ?? {}) as Record<string, number>;
  const [walk, fetched, child, total] = [t['top_frame_walk'], t['frames_fetched'], t['child_frames'], t['total']].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  if (s.actionIn === undefined || s.actionOut === undefined || s.resultIn === undefined || s.resultOut === undefined || !s.text)
    throw new Error('the bridge taps missed a frame (is the bridge in this process?)');
  return {
    state,
    text: s.text,
    sample: {
      caller: t1 - t0,
      agent_to_bridge: s.actionIn - t0,
      bridge_in: s.actionOut - s.actionIn,
      worker_around: s.resultIn - s.actionOut - total,
      walk,
      content_to_worker: fetched - child - walk,
      child_frames: child,
      worker_assembly: total - fetched,
      bridge_out: s.resultOut - s.resultIn,
      bridge_to_agent_and_parse: t1 - s.resultOut,
    },
  };
}

function timeIt(fn: () => unknown, runs = 7): number {
  fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return r1(median(xs));
}

/** json.loads of the bytes in the browser_use 0.1.48 venv (the Python shim's one parse), p50 ms; null without the venv. */
function pythonParseMs(text: string): number | null {
  const python = path.join(process.env['BUX_VENVS_DIR'] ?? path.join(REPO_ROOT, '.venvs'), 'bu048', 'bin', 'python');
  if (!fs.existsSync(python)) return null;
  const file = path.join(os.tmpdir(), `bux-hops-${process.pid}.json`);
  fs.writeFileSync(file, text);
  try {
    const out = execFileSync(
      python,
      [
        '-c',
        'import json,sys,time,statistics\nt=open(sys.argv[1]).read()\nxs=[]\nfor _ in range(8):\n a=time.perf_counter();json.loads(t);' +
          'xs.append((time.perf_counter()-a)*1000)\nprint(statistics.median(xs[1:]))',
        file,
      ],
      { encoding: 'utf8' },
    );
    return r1(Number(out.trim()));
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const KEYS: (keyof Sample)[] = [
  'caller',
  'agent_to_bridge',
  'bridge_in',
  'worker_around',
  'walk',
  'content_to_worker',
  'child_frames',
  'worker_assembly',
  'bridge_out',
  'bridge_to_agent_and_parse',
];

interface Row {
  page: string;
  variant: string;
  runs: number;
  bytes: number;
  elements: number;
  p50: Record<keyof Sample, number>;
  ts_client_parse_ms: number;
  python_parse_ms: number | null;
}

function parseArgs(argv: string[]): { pages: string[]; runs: number } {
  let pages = ['news-saved', 'wiki-article', 'news-ads']; // the page with frames that never answer last
  let runs = 9;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--pages') pages = (argv[++i] ?? '').split(',');
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--include-tabs' || argv[i] === '--since' || argv[i] === '--viewport') continue;
    else if (argv[i] === '--change') i++;
    else
      throw new Error(
        `unknown argument ${argv[i]}; usage: npm run bench:hops -- [--pages a,b] [--runs N] [--include-tabs] [--since] [--viewport] [--change item|field]`,
      );
  }
  const unknown = pages.filter((k) => !BENCH_PAGES.some((p) => p.key === k));
  if (unknown.length) throw new Error(`unknown page(s) ${unknown.join(', ')}`);
  return { pages, runs };
}

async function main(): Promise<void> {
  const { pages, runs } = parseArgs(process.argv.slice(2));
  const loadStart = os.loadavg().map((l) => l.toFixed(2));
  const started = Date.now();
  const sites = await startBenchSites();
  const served = serveBenchPages(sites);
  const builds: { name: string; dir?: string }[] = [
    ...(process.env['HOPS_BEFORE_EXT'] ? [{ name: 'before', dir: process.env['HOPS_BEFORE_EXT'] }] : []),
    { name: 'after' },
  ];
  const variants: Variant[] = [];
  const rows: Row[] = [];
  try {
    for (const b of builds) {
      const h = await startHarness(b.dir === undefined ? {} : { extensionDir: b.dir });
      const tab = await h.openPage(h.fixtures.html('/bench/start', '<p>start</p>'));
      const agent = await h.connectAgent();
      const stamps: Stamps = {};
      tapBridge(h, stamps);
      variants.push({ name: b.name, h, agent, stamps, tab });
    }
    for (const key of pages) {
      const spec = BENCH_PAGES.find((p) => p.key === key);
      const url = served.get(key);
      if (!spec || !url) continue;
      for (const v of variants) {
        const ready = spec.ready;
        // A page whose ad frames never finish is measured as it stands after the wait.
        // Warm-up (the first state after load), and proof that the tab shows the page (a navigation
        // away from a page whose frames never finish can time out under load: tried again).
        for (let attempt = 1; ; attempt++) {
          await v.tab
            .goto(url, { waitUntil: ready.until, timeout: 30_000 })
            .catch((e: unknown) => process.stdout.write(`${key} ${v.name}: ${(e as Error).message}; measuring it as it stands\n`));
          if (ready.until === 'domcontentloaded') await new Promise((r) => setTimeout(r, ready.waitMs));
          const first = await takeState(v);
          if (first.state.url === url) break;
          if (attempt === 3) throw new Error(`${v.name}: the tab shows ${first.state.url}, not ${url}`);
        }
      }
      const samples = new Map<string, Sample[]>(variants.map((v) => [v.name, []]));
      const last = new Map<string, { state: SimplifiedState; text: string }>();
      for (let round = 0; round < runs; round++) {
        // A rotating order, so neither build always goes first after the other's work.
        const order = round % 2 === 0 ? variants : [...variants].reverse();
        for (const v of order) {
          if (CHANGE && !(await v.tab.evaluate(CHANGE === 'item' ? CHANGE_ITEM : CHANGE_FIELD)))
            throw new Error(`${key}: no ${CHANGE === 'item' ? 'list item, cell or paragraph in view' : 'text field'} to change`);
          const got = await takeState(v);
          samples.get(v.name)?.push(got.sample);
          last.set(v.name, got);
        }
      }
      for (const v of variants) {
        const xs = samples.get(v.name) ?? [];
        const got = last.get(v.name);
        if (!got) continue;
        const p50 = Object.fromEntries(KEYS.map((k) => [k, r1(median(xs.map((x) => x[k])))])) as Record<keyof Sample, number>;
        rows.push({
          page: key,
          variant: v.name,
          runs: xs.length,
          bytes: Buffer.byteLength(got.text),
          elements: got.state.actionable_elements.length,
          p50,
          ts_client_parse_ms: timeIt(() => decodeFromBridge(got.text)),
          python_parse_ms: pythonParseMs(got.text),
        });
        process.stdout.write(`${key} ${v.name}: ${JSON.stringify(p50)}\n`);
      }
    }
  } finally {
    for (const v of variants) await v.h.close();
    await sites.close();
  }
  const meta = {
    date: new Date().toISOString(),
    load_start: loadStart,
    load_end: os.loadavg().map((l) => l.toFixed(2)),
    cores: os.cpus().length,
    wall_s: Math.round((Date.now() - started) / 1000),
    runs,
    before: process.env['HOPS_BEFORE_EXT'] ?? null,
    include_tabs: STATE.include_tabs === true,
    since: SINCE,
    viewport: VIEWPORT,
    change: CHANGE,
  };
  fs.mkdirSync(OUT, { recursive: true });
  const name = `${STATE.include_tabs === true ? 'hops-include-tabs' : 'hops'}${VIEWPORT ? '-viewport' : ''}${SINCE ? '-since' : ''}${CHANGE ? `-change-${CHANGE}` : ''}`;
  fs.writeFileSync(path.join(OUT, `${name}.json`), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  fs.writeFileSync(path.join(OUT, `${name}.md`), markdown(meta, rows));
  process.stdout.write(`wrote bench/results/${name}.json and ${name}.md\n`);
}

function markdown(meta: Record<string, unknown>, rows: Row[]): string {
  const L = [
    '# Hops of a whole-page get_state, timestamped',
    '',
    `Generated by \`npm run bench:hops\` on ${String(meta['date'])}: ${String(meta['runs'])} rounds per page after a warm-up, builds ` +
      `alternating per round. Load average at start ${(meta['load_start'] as string[]).join(', ')}, at end ` +
      `${(meta['load_end'] as string[]).join(', ')} (${String(meta['cores'])} cores, shared with other engineers' Chromium); ` +
      `wall ${String(meta['wall_s'])} s.` +
      (meta['before'] ? ' "before" = the build before the worker read its settings beside the walk; "after" = this build.' : '') +
      (meta['include_tabs'] ? ' Each state with include_tabs (as a browser_use step asks for it).' : '') +
      (meta['viewport'] ? ' The viewport state (get_state without viewport_expansion) instead of the whole page.' : '') +
      (meta['since']
        ? " Each state asked as real agents ask (--since): the TS client's getState, since its last state of the tab; " +
          'an unchanged page answers a state_delta, turned back into the whole state at the agent (in "bridge -> agent + parse"); ' +
          'bytes = what crossed to the agent; TS / Python parse = of those bytes.'
        : '') +
      (meta['change']
        ? ` Before each state the page changed ${meta['change'] === 'item' ? 'the text of one item in view' : 'the value of one text field'} ` +
          '(bench/page-edits.ts): each state is a fresh walk, as after an action.'
        : ''),
    '',
    'p50 ms. The bridge runs in the bench process (its sockets are stamped from outside). agent -> bridge: the client sends, the ' +
      'bridge receives; bridge in: routing, lease check, journal, send to the worker; worker around the state: the WebSocket both ' +
      "ways and the worker's own work before the walk (tab lookup, policy) and after it (scrub, stringify, send), i.e. everything " +
      "between the bridge's two sends that the state's timings_ms.total does not cover; walk .. worker assembly: the state's own " +
      "timings_ms; bridge out: the bridge's one parse and validation of the answer and the relay of the same bytes; bridge -> agent + " +
      "agent parse: until the client's call resolves. TS parse / Python parse: the agent's one parse of those bytes alone (the TS " +
      "client's decodeFromBridge; json.loads in the browser_use 0.1.48 venv).",
    '',
    '| page | build | elements | bytes | get_state | agent -> bridge | bridge in | worker around the state | walk | content -> worker | ' +
      'child frames | worker assembly | bridge out | bridge -> agent + parse | TS parse | Python parse |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const p = r.p50;
    L.push(
      `| ${r.page} | ${r.variant} | ${r.elements} | ${r.bytes} | ${p.caller} | ${p.agent_to_bridge} | ${p.bridge_in} | ${p.worker_around} | ` +
        `${p.walk} | ${p.content_to_worker} | ${p.child_frames} | ${p.worker_assembly} | ${p.bridge_out} | ${p.bridge_to_agent_and_parse} | ` +
        `${r.ts_client_parse_ms} | ${r.python_parse_ms ?? 'n/a'} |`,
    );
  }
  L.push('');
  return L.join('\n');
}

await main();
