// `npm run bench:cdp`: what the bridge's CDP endpoint (/cdp/<token>: bridge -> extension ->
// chrome.debugger) costs a CDP client, against Chromium's own DevTools endpoint, on the SAME Chromium
// (the harness: bridge + Chromium with the built extension; puppeteer launched it with a DevTools
// port) and the SAME tab, in one run, interleaved (ours, direct, ours, ...) so the machine's load hits
// both alike. Measures:
//   1. puppeteer-core: Runtime.evaluate latency (sequential) and throughput (10 in flight);
//   2. DOMSnapshot.captureSnapshot of a 10,000-element page, and Page.captureScreenshot;
//   3. one browser_use 0.13 Agent step's browser work (state + click, typing or navigate), bench/cdp_step.py;
//   4. client calls (Playwright evaluate/click/screenshot, puppeteer content()), bench/cdp-client-ratios.ts;
//   5. two browser_use 0.13 agents at once, front and background (bench/cdp-agents.ts, cdp-agents.{json,md});
//   and the hops of our path (client -> bridge, the emulator's agent link -> bridge, bridge ->
//   extension, and chrome.debugger inside the worker), to say where the added time goes.
// Writes bench/results/cdp.{json,md}. Percentiles: bench/stats.ts (nearest rank).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';

import { mintCdpClient } from '../bridge/agents/cdp/cdp-clients-file';
import { AgentClient } from '../bridge/client/agent-client';
import { decodeFromBridge } from '../bridge/client/decode-from-bridge';
import type { LinkEnd } from '../bridge/common/in-process-link';
import { cdpResultByHead } from '../bridge/src/cdp-result-head';
import { redactText } from '../extension/src/shared/redaction';
import { decodeMessage } from '../schemas/lib/wire';
import { REPO_ROOT } from '../test/harness/browser';
import { BU013_PYTHON, runBu013Python } from '../test/harness/bu013';
import { type Harness, startHarness } from '../test/harness/harness';
import { benchAgents } from './cdp-agents';
import { type ClientRatio, clientRatioRows, clientRatios } from './cdp-client-ratios';
import { traceHops, traceMarkdown, type TraceResult } from './cdp-hop-trace';
import { median, pct, r1, r2 } from './stats';

const num = (name: string, dflt: number): number => Number(process.env[name] ?? dflt);
const SEQ = num('BENCH_CDP_SEQ', 500);
const CONC_TOTAL = num('BENCH_CDP_CONC_TOTAL', 200);
const CONC_INFLIGHT = num('BENCH_CDP_CONC_INFLIGHT', 10);
const CONC_ROUNDS = num('BENCH_CDP_CONC_ROUNDS', 5);
const SNAP_RUNS = num('BENCH_CDP_SNAP_RUNS', 10);
const HOP_RUNS = num('BENCH_CDP_HOP_RUNS', 300);
const BU_RUNS = num('BENCH_CDP_BU_RUNS', 20);
const CLIENT_RUNS = num('BENCH_CDP_CLIENT_RUNS', 30);
const OUT = path.join(REPO_ROOT, 'bench', 'results');

const SIDES = ['ours', 'direct'] as const;
type Side = (typeof SIDES)[number];
type PerSide<T> = Record<Side, T>;

/** Small-command overhead over direct; client click and screenshot; browser_use steps; the snapshot against chrome.debugger's own time. */
const TARGETS = { added_eval_p50_ms: 0.5, client_ratio: 1.1, bu_step_ratio: 1.1, snapshot_to_worker_ratio: 1.1 };
const BU_KINDS = ['click', 'type', 'navigate'] as const;

/** 10,000 elements in the body: 2,000 list items of 4 children, a little style so layout has work. */
function tenThousandPage(): string {
  const items: string[] = [];
  for (let i = 0; i < 2000; i++)
    items.push(`<li class="r${i % 7}"><b>${i}</b> <a href="#i${i}">item ${i}</a> <span>note ${i}</span> <em>e</em></li>`);
  return `<style>.r0{color:#333}.r3{font-weight:bold}li{padding:2px}</style><ul id="list">${items.join('')}</ul>`;
}

const counterPage =
  '<h1>Counter</h1><nav><a href="#a">Alpha</a> <a href="#b">Beta</a></nav>' +
  `<button onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">` +
  'Increment</button><p>Count: <span id="n">0</span></p><input placeholder="search"><select><option>one</option></select>';

interface Pct {
  n: number;
  p50: number;
  p90: number;
  p99: number;
}
const pcts = (xs: number[]): Pct => ({ n: xs.length, p50: r2(pct(xs, 50)), p90: r2(pct(xs, 90)), p99: r2(pct(xs, 99)) });

async function time<T>(f: () => Promise<T>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

/** This process's CPU (user + system, all its threads) per command, ms. */
let lastCpuPerCmd = NaN;

/**
 * n commands, `inflight` at a time; commands per second. Also notes this process's CPU per command
 * (lastCpuPerCmd): for ours it holds the bridge, the emulator and the client; for direct the client only.
 */
async function throughput(s: CDPSession, total: number, inflight: number): Promise<number> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (next < total) {
        next++;
        await s.send('Runtime.evaluate', { expression: '1' });
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  lastCpuPerCmd = (cpu.user + cpu.system) / 1000 / total;
  return (total / ms) * 1000;
}

/** Runs `f` for each side in turn, `runs` times (ours, direct, ours, ...); the times per side. */
async function interleaved(runs: number, f: (side: Side) => Promise<unknown>): Promise<PerSide<number[]>> {
  const t: PerSide<number[]> = { ours: [], direct: [] };
  for (let i = 0; i < runs; i++) for (const side of SIDES) t[side].push(await time(() => f(side)));
  return t;
}

async function serviceWorker(h: Harness) {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
  const w = await target.worker();
  if (!w) throw new Error('no extension service worker');
  return w;
}

interface BuStep {
  state: number;
  click: number;
  step: number;
}
interface BuOut {
  browser_use: string | null;
  configs: Record<
    string,
    { profile: Record<string, unknown>; samples: PerSide<BuStep[]>; by_kind?: Record<string, PerSide<BuStep[]> | undefined> }
  >;
}

/** Runs bench/cdp_step.py (async: the bridge answering it lives in this process's event loop). */
async function runBrowserUse(sides: PerSide<string>, url: string): Promise<BuOut> {
  if (!fs.existsSync(BU013_PYTHON))
    throw new Error(`No browser_use 0.13 venv at ${BU013_PYTHON}: run \`node scripts/python-envs.mjs bu013\`.`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdpbench-'));
  const argsFile = path.join(dir, 'args.json');
  const outFile = path.join(dir, 'out.json');
  const noWaits = { minimum_wait_page_load_time: 0, wait_for_network_idle_page_load_time: 0, wait_between_actions: 0 };
  fs.writeFileSync(argsFile, JSON.stringify({ sides, url, runs: BU_RUNS, kinds: BU_KINDS, configs: { default: {}, no_waits: noWaits } }));
  try {
    const { code, output } = await runBu013Python([path.join(REPO_ROOT, 'bench', 'cdp_step.py'), argsFile, outFile], {
      configDir: dir,
      timeoutMs: 900_000,
      cwd: REPO_ROOT,
      logLevel: 'warning',
    });
    if (code !== 0 || !fs.existsSync(outFile)) {
      const tail = output.split('\n').slice(-40).join('\n');
      throw new Error(`bench/cdp_step.py failed (exit ${code}):\n${tail.replace(/\/cdp\/[A-Za-z0-9_-]{16,}/g, '/cdp/<token>')}`);
    }
    return JSON.parse(fs.readFileSync(outFile, 'utf-8')) as BuOut;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What one large cdp_result costs on its way, step by step, timed here in Node on the real
 * result (median of SNAP_RUNS each): the extension's privacy filter (every string through redactText,
 * as BridgeConnection.send's scrubStrings does; run here on Node's V8, the worker's is the same engine),
 * its JSON.stringify, the bridge's validation of what the extension sent (peer.ts decodeMessage), the
 * agent client's decode (decode-from-bridge.ts), and the emulator's JSON.stringify of the CDP answer.
 */
function largeResultCosts(result: Record<string, unknown>, tabId: number): Record<string, number> {
  const message = { type: 'cdp_result', original_command_id: 'bench-1', tab_id: tabId, result };
  const text = JSON.stringify(message);
  // The worker walks a snapshot's string table only (cdp-send-options.ts): every string of the page is there.
  const scrub = (v: unknown): void => {
    const strings = (v as { strings?: unknown } | null)?.strings;
    if (!Array.isArray(strings)) return;
    for (let i = 0; i < strings.length; i++)
      if (typeof strings[i] === 'string') strings[i] = redactText(strings[i] as string, { cards: true });
  };
  const med = (f: () => unknown, fresh?: () => unknown): number => {
    const xs: number[] = [];
    for (let i = 0; i <= SNAP_RUNS; i++) {
      fresh?.();
      const t0 = performance.now();
      f();
      if (i > 0) xs.push(performance.now() - t0);
    }
    return r1(median(xs));
  };
  let copy: unknown = null;
  const decoded = decodeMessage(text, 'bridge');
  if (!decoded.ok) throw new Error(`the bridge would refuse the snapshot result: ${decoded.error.message}`);
  return {
    result_bytes: text.length,
    extension_privacy_filter_ms: med(
      () => scrub(copy),
      () => (copy = JSON.parse(JSON.stringify(result))),
    ),
    extension_json_stringify_ms: med(() => JSON.stringify(message)),
    bridge_decode_from_extension_ms: med(() => cdpResultByHead(text)),
    bridge_full_decode_not_done_ms: med(() => decodeMessage(text, 'bridge')),
    agent_client_decode_ms: med(() => decodeFromBridge(text)),
    emulator_json_stringify_reply_ms: med(() => JSON.stringify({ id: 1, sessionId: 'S', result })),
  };
}

/** One line per section on stderr, so a long run shows where it is. */
const progress = (what: string) => process.stderr.write(`bench:cdp ${new Date().toISOString().slice(11, 19)} ${what}\n`);

const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const h = await startHarness();
  const browsers: Browser[] = [];
  try {
    const evalUrl = h.fixtures.html('/bench-cdp-eval', '<p>eval</p>', 'CDP bench');
    const bigUrl = h.fixtures.html('/bench-cdp-10k', tenThousandPage(), '10k elements');
    const stepUrl = h.fixtures.html('/bench-cdp-step', counterPage, 'Counter');
    const client = mintCdpClient(h.configDir, { name: 'bench', maxTabs: 4 });
    const ourBase = client.url(h.bridge.port);
    const version = (await (await fetch(`${ourBase}/json/version`)).json()) as { webSocketDebuggerUrl: string; Browser: string };
    const directWs = h.launched.browser.wsEndpoint();
    // puppeteer drops a path prefix from browserURL (docs/CDP-CLIENTS.md): both sides connect by ws URL.
    const connect = async (ws: string) => {
      const b = await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: null, protocolTimeout: 120_000 });
      browsers.push(b);
      return b;
    };
    const ours = await connect(version.webSocketDebuggerUrl);
    const direct = await connect(directWs);
    const chromium = await direct.version();

    // One tab, leased by our client (opened through our endpoint), seen by both.
    const ourPage = await ours.newPage();
    await ourPage.goto(evalUrl, { waitUntil: 'load' });
    const directTarget = await direct.waitForTarget((t) => t.url() === evalUrl && t.type() === 'page');
    const directPage = await directTarget.page();
    if (!directPage) throw new Error('the direct connection does not see the tab opened through ours');
    const pages: PerSide<Page> = { ours: ourPage, direct: directPage };
    // page.createCDPSession() = Target.attachToTarget {flatten}: a new session on the same tab, on both.
    const sess: PerSide<CDPSession> = { ours: await ourPage.createCDPSession(), direct: await directPage.createCDPSession() };
    const eval1 = (side: Side) => sess[side].send('Runtime.evaluate', { expression: '1' });
    const check = await sess.ours.send('Runtime.evaluate', { expression: 'location.href', returnByValue: true });
    if (check.result.value !== evalUrl) throw new Error(`ours evaluates in ${String(check.result.value)}, not the bench page`);

    const versionAfter = (await (await fetch(`${ourBase}/json/version`)).json()) as { Browser: string };
    const worker = await serviceWorker(h);
    /** chrome.debugger.sendCommand timed inside the service worker; also the JSON.stringify of its result. */
    const inWorkerOn = (tabId: number, method: string, params: Record<string, unknown>) =>
      worker.evaluate(
        `(async () => { const t0 = performance.now();
          const r = await chrome.debugger.sendCommand({ tabId: ${tabId} }, ${JSON.stringify(method)}, ${JSON.stringify(params)});
          const t1 = performance.now(); JSON.stringify(r); return [t1 - t0, performance.now() - t1]; })()`,
      ) as Promise<[number, number]>;

    progress('1. Runtime.evaluate');
    // 1. Runtime.evaluate, sequential, then throughput.
    await interleaved(30, eval1); // warm-up
    const seq = await interleaved(SEQ, eval1);
    const tput: PerSide<number[]> = { ours: [], direct: [] };
    const cpuPerCmd: PerSide<number[]> = { ours: [], direct: [] };
    for (let i = 0; i < CONC_ROUNDS; i++)
      for (const side of SIDES) {
        tput[side].push(await throughput(sess[side], CONC_TOTAL, CONC_INFLIGHT));
        cpuPerCmd[side].push(lastCpuPerCmd);
      }

    progress('4. client calls');
    // 4 (run here, on the pages of section 1): client calls as a user makes them.
    const clients: ClientRatio[] = await clientRatios({
      ourHttp: ourBase,
      directHttp: `http://${new URL(directWs).host}`,
      url: stepUrl,
      runs: CLIENT_RUNS,
      puppeteer: pages,
    });

    progress('hops');
    // Hops of our path, all in one interleaved loop so each sees the same load (see the md). A plain
    // agent session holds a second tab on the same page: the emulator's own path minus the CDP socket.
    const agent = await h.connectAgent();
    // The emulator's own road since it runs in process: the same client over an in-process link.
    const link = (h.bridge as { connectInProcessAgent?: () => LinkEnd }).connectInProcessAgent?.bind(h.bridge);
    const inProc = link ? await AgentClient.connect({ url: h.bridge.agentUrl, secret: h.secrets.agent_secret, inProcess: link }) : null;
    // Each agent opens a tab of its own (the active tab may be our client's, in its own window) and attaches it.
    const ownAttached = async (who: AgentClient, url: string): Promise<{ tabId: number; page: Page }> => {
      const opened = await who.call('open_tab', { url });
      const tabId = opened.outcome_details?.new_tab_id ?? opened.tab_id;
      if (opened.status !== 'success' || tabId === undefined) throw new Error(`open_tab: ${JSON.stringify(opened.error_info)}`);
      const attach = await who.call('cdp_attach', {}, { tabId });
      if (attach.status !== 'success') throw new Error(`cdp_attach: ${JSON.stringify(attach.error_info)}`);
      const page = await (await h.launched.browser.waitForTarget((t) => t.url() === url && t.type() === 'page')).page();
      if (!page) throw new Error(`no page for ${url}`);
      return { tabId, page };
    };
    const agentOwn = await ownAttached(agent, h.fixtures.html('/bench-cdp-eval-agent', '<p>eval</p>', 'CDP bench'));
    const agentPage = agentOwn.page;
    const agentTab = agentOwn.tabId;
    // The in-process client holds a third tab on the page: the full path over the link, A/B with the socket in one loop.
    const linkOwn = inProc ? await ownAttached(inProc, h.fixtures.html('/bench-cdp-eval-link', '<p>eval</p>', 'CDP bench')) : null;
    const linkPage = linkOwn?.page ?? null;
    const linkTab = linkOwn?.tabId;
    const agentSend = async (method: string, params: Record<string, unknown>, tabId: number, timeoutMs = 30_000) => {
      const r = await agent.cdp({ tabId, method, params, timeoutMs });
      if (tabId === agentTab && r.error_info) throw new Error(`cdp_command ${method}: ${JSON.stringify(r.error_info)}`);
      return r;
    };
    const inWorker = (method: string, params: Record<string, unknown>) => inWorkerOn(agentTab, method, params);
    const hopT: Record<string, number[]> = {
      ours: [],
      direct: [],
      front_ours: [],
      front_direct: [],
      agent_refused: [],
      agent_full: [],
      link_refused: [],
      link_full: [],
      worker: [],
    };
    const ev = { expression: '1' };
    for (let i = 0; i < HOP_RUNS; i++) {
      hopT['ours']?.push(await time(() => eval1('ours')));
      hopT['direct']?.push(await time(() => eval1('direct')));
      // front: a command the bridge's emulator answers itself (no extension).
      hopT['front_ours']?.push(await time(() => sess.ours.send('Target.getTargetInfo')));
      hopT['front_direct']?.push(await time(() => sess.direct.send('Target.getTargetInfo')));
      hopT['agent_refused']?.push(
        await time(async () => {
          const r = await agentSend('Runtime.evaluate', ev, 2_000_000_000);
          if (r.error_info?.error_code !== 'TAB_NOT_LEASED')
            throw new Error(`expected TAB_NOT_LEASED, got ${JSON.stringify(r.error_info)}`);
        }),
      );
      hopT['agent_full']?.push(await time(() => agentSend('Runtime.evaluate', ev, agentTab)));
      if (inProc) {
        hopT['link_refused']?.push(await time(() => inProc.cdp({ tabId: 2_000_000_000, method: 'Runtime.evaluate', params: ev })));
        if (linkTab !== undefined)
          hopT['link_full']?.push(await time(() => inProc.cdpText({ tabId: linkTab, method: 'Runtime.evaluate', params: ev })));
      }
      hopT['worker']?.push((await inWorker('Runtime.evaluate', ev))[0]);
    }
    progress('hop trace');
    // Where each 0.1 ms goes: timestamps at every hop of the same command (bench/cdp-hop-trace.ts).
    const traceEval = await traceHops(sess.ours, worker, HOP_RUNS);
    // 2. DOMSnapshot and screenshot on a 10,000-element page (the same tab, in front again: a
    // background tab's screenshot waits for a frame).
    await pages.direct.bringToFront();
    await pages.ours.goto(bigUrl, { waitUntil: 'load' });
    const count = await sess.direct.send('Runtime.evaluate', {
      expression: "document.getElementsByTagName('*').length",
      returnByValue: true,
    });
    const elements = Number(count.result.value);
    const snapshot = (side: Side) => sess[side].send('DOMSnapshot.captureSnapshot', { computedStyles: [] });
    // chrome.debugger's own time for the same command on the same tab, in the worker (the floor of any relay on it).
    const ourTab = (await worker.evaluate(
      `(async () => (await chrome.tabs.query({})).find((t) => t.url === ${JSON.stringify(bigUrl)})?.id ?? -1)()`,
    )) as number;
    const snapBytes = JSON.stringify(await snapshot('ours')).length;
    const snapBytesDirect = JSON.stringify(await snapshot('direct')).length;
    if (snapBytes !== snapBytesDirect) process.stderr.write(`note: snapshot sizes differ: ours ${snapBytes}, direct ${snapBytesDirect}\n`);
    progress('2. DOMSnapshot, screenshot');
    const snap = await interleaved(SNAP_RUNS, snapshot);
    progress(`2. the snapshot in the worker (tab ${ourTab})`);
    const snapWorker: number[] = [];
    for (let i = 0; i < SNAP_RUNS; i++)
      snapWorker.push((await inWorkerOn(ourTab, 'DOMSnapshot.captureSnapshot', { computedStyles: [] }))[0]);
    const shot = (side: Side) => sess[side].send('Page.captureScreenshot', { format: 'png' });
    progress('2. screenshots');
    const shotBytes = (await shot('ours')).data.length;
    await shot('direct');
    const shots = await interleaved(SNAP_RUNS, shot);
    progress('2. the snapshot, hop trace');
    const traceSnap = await traceHops(sess.ours, worker, SNAP_RUNS, {
      method: 'DOMSnapshot.captureSnapshot',
      params: { computedStyles: [] },
    });
    for (const s of SIDES) await sess[s].detach().catch(() => undefined);
    await pages.ours.close().catch(() => undefined);
    for (const b of browsers.splice(0)) await b.disconnect().catch(() => undefined);

    progress('throughput of the parts');
    // Throughput of each part, same shape as section 1 (CONC_TOTAL commands, CONC_INFLIGHT in flight).
    const hopTput: Record<string, number[]> = { agent_cdp_send: [], chrome_debugger_in_worker: [] };
    for (let round = 0; round < CONC_ROUNDS; round++) {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONC_INFLIGHT }, async () => {
          while (next < CONC_TOTAL) {
            next++;
            await agentSend('Runtime.evaluate', ev, agentTab);
          }
        }),
      );
      hopTput['agent_cdp_send']?.push((CONC_TOTAL / (performance.now() - t0)) * 1000);
      hopTput['chrome_debugger_in_worker']?.push(
        (await worker.evaluate(
          `(async () => { let next = 0; const t0 = performance.now();
            await Promise.all(Array.from({ length: ${CONC_INFLIGHT} }, async () => { while (next < ${CONC_TOTAL}) { next++;
              await chrome.debugger.sendCommand({ tabId: ${agentTab} }, 'Runtime.evaluate', { expression: '1' }); } }));
            return ${CONC_TOTAL} / (performance.now() - t0) * 1000; })()`,
        )) as number,
      );
    }

    // The same split for the 10,000-element snapshot, on the agent's tab, interleaved with Chromium's
    // own endpoint on that tab (a session of the harness's puppeteer connection).
    await agentPage.goto(bigUrl, { waitUntil: 'load' });
    const agentDirect = await agentPage.createCDPSession();
    const snapParams = { computedStyles: [] };
    let snapResult: Record<string, unknown> = {};
    const split: Record<string, number[]> = { agent: [], worker: [], worker_stringify: [], direct_same_tab: [] };
    for (let i = 0; i <= SNAP_RUNS; i++) {
      const t0 = performance.now();
      const r = await agentSend('DOMSnapshot.captureSnapshot', snapParams, agentTab, 120_000);
      const agentMs = performance.now() - t0;
      snapResult = r.result ?? {};
      const [w, ws] = await inWorker('DOMSnapshot.captureSnapshot', snapParams);
      const d = await time(() => agentDirect.send('DOMSnapshot.captureSnapshot', snapParams));
      if (i === 0) continue; // warm-up
      split['agent']?.push(agentMs);
      split['worker']?.push(w);
      split['worker_stringify']?.push(ws);
      split['direct_same_tab']?.push(d);
    }
    await agentDirect.detach().catch(() => undefined);
    const inProcess = largeResultCosts(snapResult, agentTab);
    await agent.call('cdp_detach', {}, { tabId: agentTab });
    await agent.close();
    await inProc?.close();
    await linkPage?.close().catch(() => undefined);
    await agentPage.close().catch(() => undefined);

    progress('3. browser_use steps');
    // 3. browser_use 0.13: one step's browser work per endpoint (its own BrowserSession and tab each).
    const directHttp = `http://${new URL(directWs).host}`;
    const bu = await runBrowserUse({ ours: ourBase, direct: directHttp }, stepUrl);

    const loadAfter = loadavg();
    const hop = (xs: number[]) => pcts(xs);
    const ratio = (a: number, b: number) => r2(a / b);
    const snapMed = { ours: r1(median(snap.ours)), direct: r1(median(snap.direct)) };
    const snapWorkerMed = r1(median(snapWorker));
    const shotMed = { ours: r1(median(shots.ours)), direct: r1(median(shots.direct)) };
    const tputMed = { ours: Math.round(median(tput.ours)), direct: Math.round(median(tput.direct)) };
    const seqP = { ours: pcts(seq.ours), direct: pcts(seq.direct) };
    const addedP50 = r2(pct(seq.ours, 50) - pct(seq.direct, 50));
    const buRows = Object.entries(bu.configs)
      .flatMap(([config, c]) =>
        BU_KINDS.flatMap((kind) => {
          const samples = c.by_kind?.[kind] ?? (kind === 'click' ? c.samples : undefined);
          return samples ? [{ config, kind, profile: c.profile, samples }] : [];
        }),
      )
      .map(({ config, kind, profile, samples: c }) => {
        const m = (side: Side, k: keyof BuStep) => r1(median(c[side].map((x) => x[k])));
        const row = {
          config,
          kind,
          profile,
          runs: c.ours.length,
          ours: { state: m('ours', 'state'), click: m('ours', 'click'), step: m('ours', 'step') },
          direct: { state: m('direct', 'state'), click: m('direct', 'click'), step: m('direct', 'step') },
          ratio: 0,
          samples: c,
        };
        row.ratio = ratio(row.ours.step, row.direct.step);
        return row;
      });
    const hops = {
      ours_runtime_evaluate: hop(hopT['ours'] ?? []),
      direct_runtime_evaluate: hop(hopT['direct'] ?? []),
      front_cdp_socket_and_emulator: hop(hopT['front_ours'] ?? []),
      front_direct_same_command: hop(hopT['front_direct'] ?? []),
      agent_socket_and_gateway: hop(hopT['agent_refused'] ?? []),
      ...(inProc ? { agent_link_and_gateway: hop(hopT['link_refused'] ?? []), agent_link_cdp_full: hop(hopT['link_full'] ?? []) } : {}),
      agent_cdp_send_full: hop(hopT['agent_full'] ?? []),
      chrome_debugger_in_worker: hop(hopT['worker'] ?? []),
    };
    const snapshotSplit = {
      direct_same_tab_ms: r1(median(split['direct_same_tab'] ?? [])),
      chrome_debugger_in_worker_ms: r1(median(split['worker'] ?? [])),
      worker_json_stringify_ms: r1(median(split['worker_stringify'] ?? [])),
      agent_cdp_send_full_ms: r1(median(split['agent'] ?? [])),
      ...inProcess,
    };
    const ext = r2(hops.agent_cdp_send_full.p50 - hops.agent_socket_and_gateway.p50 - hops.chrome_debugger_in_worker.p50);
    const meta = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} cores, load average before ${loadBefore}, after ${loadAfter}`,
      chromium,
      // /json/version before any tab is attached answers the documented fallback (discovery.ts); after, the tab's Chrome.
      endpoint_reports_before_attach: version.Browser,
      endpoint_reports_after_attach: versionAfter.Browser,
      puppeteer_core: (
        JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'puppeteer-core', 'package.json'), 'utf-8')) as {
          version: string;
        }
      ).version,
      browser_use: bu.browser_use,
      session: 'page.createCDPSession() (Target.attachToTarget flatten) on the same tab, both sides',
    };
    const result = {
      meta,
      targets: TARGETS,
      runtime_evaluate: {
        sequential: seqP,
        added_p50_ms: addedP50,
        met: addedP50 <= TARGETS.added_eval_p50_ms,
        throughput_cmd_per_s: { ...tputMed, total: CONC_TOTAL, in_flight: CONC_INFLIGHT, rounds: CONC_ROUNDS },
        bench_process_cpu_ms_per_cmd: { ours: r2(median(cpuPerCmd.ours)), direct: r2(median(cpuPerCmd.direct)) },
      },
      dom_snapshot: {
        elements,
        bytes: snapBytes,
        runs: SNAP_RUNS,
        median_ms: snapMed,
        ratio: ratio(snapMed.ours, snapMed.direct),
        worker_median_ms: snapWorkerMed,
        ratio_to_worker: ratio(snapMed.ours, snapWorkerMed),
        met: ratio(snapMed.ours, snapWorkerMed) <= TARGETS.snapshot_to_worker_ratio,
        samples: { ...snap, worker: snapWorker },
      },
      screenshot: {
        png_base64_chars: shotBytes,
        runs: SNAP_RUNS,
        median_ms: shotMed,
        ratio: ratio(shotMed.ours, shotMed.direct),
        samples: shots,
      },
      browser_use_step: buRows,
      client_calls: clients,
      hops: { ...hops, bridge_to_extension_and_worker_p50_ms: ext },
      hop_throughput_cmd_per_s: {
        agent_cdp_send: Math.round(median(hopTput['agent_cdp_send'] ?? [])),
        chrome_debugger_in_worker: Math.round(median(hopTput['chrome_debugger_in_worker'] ?? [])),
      },
      snapshot_split: snapshotSplit,
      hop_trace: { runtime_evaluate: traceEval, dom_snapshot: traceSnap },
    };
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'cdp.json'), `${JSON.stringify(result, null, 2)}\n`);
    const md = render(result);
    fs.writeFileSync(path.join(OUT, 'cdp.md'), md);
    process.stdout.write(md);
    // Several agents at once, front and background step times: bench/cdp-agents.ts writes cdp-agents.{json,md}.
    await benchAgents(h);
  } finally {
    for (const b of browsers) await b.disconnect().catch(() => undefined);
    await h.close();
  }
}

type Result = {
  meta: Record<string, unknown> & { date: string; machine: string; chromium: string };
  runtime_evaluate: {
    sequential: PerSide<Pct>;
    added_p50_ms: number;
    met: boolean;
    throughput_cmd_per_s: PerSide<number> & { total: number; in_flight: number; rounds: number };
    bench_process_cpu_ms_per_cmd: PerSide<number>;
  };
  dom_snapshot: {
    elements: number;
    bytes: number;
    runs: number;
    median_ms: PerSide<number>;
    ratio: number;
    worker_median_ms: number;
    ratio_to_worker: number;
    met: boolean;
  };
  client_calls: ClientRatio[];
  screenshot: { png_base64_chars: number; runs: number; median_ms: PerSide<number>; ratio: number };
  browser_use_step: {
    config: string;
    kind: string;
    profile: Record<string, unknown>;
    runs: number;
    ours: Omit<BuStep, never>;
    direct: Omit<BuStep, never>;
    ratio: number;
  }[];
  hops: Record<string, Pct | number>;
  snapshot_split: Record<string, number>;
  hop_trace: { runtime_evaluate: TraceResult; dom_snapshot: TraceResult };
  hop_throughput_cmd_per_s: Record<string, number>;
};

function render(r: Result): string {
  const e = r.runtime_evaluate;
  const s = r.dom_snapshot;
  const met = (ok: boolean) => (ok ? 'met' : '**NOT met**');
  const buDefault = r.browser_use_step.find((b) => b.config === 'default');
  const lines = [
    "# CDP endpoint benchmark: the bridge's /cdp/<token> vs Chromium's own DevTools endpoint",
    '',
    `Generated by \`npm run bench:cdp\` on ${r.meta.date}; ${r.meta.machine}; ${r.meta.chromium} (headless, the harness's), ` +
      `puppeteer-core ${String(r.meta['puppeteer_core'])}, browser_use ${String(r.meta['browser_use'])}.`,
    'Both sides in ONE run on the SAME Chromium and, for sections 1 and 2, the SAME tab: "ours" = puppeteer connected to the ' +
      "bridge's CDP endpoint (browserWSEndpoint from `/cdp/<token>/json/version`; client -> bridge -> extension -> " +
      'chrome.debugger), which opened the tab (`browser.newPage()`, so our client holds it); "direct" = puppeteer connected to ' +
      "Chromium's own `--remote-debugging-port` endpoint (the one the harness launched it with), finding that tab by URL. " +
      `Each side sends on a \`page.createCDPSession()\` session (Target.attachToTarget flatten; \`page._client()\` and ` +
      '`page.target().createCDPSession()` also work on both). Sides interleaved command by command (ours, direct, ours, ...). ' +
      'Times are round trips at the client, ms; percentiles by nearest rank (bench/stats.ts). ' +
      `Our /json/version says \`${String(r.meta['endpoint_reports_before_attach'])}\` before any tab is attached (the fallback of ` +
      `bridge/agents/cdp/discovery.ts) and \`${String(r.meta['endpoint_reports_after_attach'])}\` after.`,
    '',
    '## 1. Runtime.evaluate {expression: "1"}',
    '',
    '| side | n | p50 ms | p90 ms | p99 ms | throughput, cmd/s (median of rounds) |',
    '|---|---:|---:|---:|---:|---:|',
    ...(['ours', 'direct'] as const).map(
      (side) =>
        `| ${side} | ${e.sequential[side].n} | ${e.sequential[side].p50} | ${e.sequential[side].p90} | ${e.sequential[side].p99} | ${e.throughput_cmd_per_s[side]} |`,
    ),
    '',
    `Added p50: **${e.added_p50_ms} ms** (target at most ${TARGETS.added_eval_p50_ms} ms: ${met(e.met)}). Throughput: ${e.throughput_cmd_per_s.total} commands, ` +
      `${e.throughput_cmd_per_s.in_flight} in flight at a time, ${e.throughput_cmd_per_s.rounds} rounds per side, interleaved. ` +
      `CPU of this Node process per command during those rounds (it runs the bridge, the emulator and both clients): ours ` +
      `${e.bench_process_cpu_ms_per_cmd.ours} ms, direct ${e.bench_process_cpu_ms_per_cmd.direct} ms.`,
    '',
    `## 2. DOMSnapshot.captureSnapshot {computedStyles: []} and Page.captureScreenshot, ${s.elements}-element page`,
    '',
    '| command | ours median ms | direct median ms | ours / direct | size |',
    '|---|---:|---:|---:|---|',
    `| DOMSnapshot.captureSnapshot | ${s.median_ms.ours} | ${s.median_ms.direct} | ${s.ratio} | ${(s.bytes / 1e6).toFixed(2)} MB of JSON |`,
    `| Page.captureScreenshot (png) | ${r.screenshot.median_ms.ours} | ${r.screenshot.median_ms.direct} | ${r.screenshot.ratio} | ` +
      `${(r.screenshot.png_base64_chars / 1e3).toFixed(0)} k base64 chars |`,
    '',
    `${s.runs} runs each after one warm-up. chrome.debugger's own time for the same snapshot on the same tab, timed in the ` +
      `service worker (${s.runs} runs after the interleaved ones): ${s.worker_median_ms} ms, so ours is ${s.ratio_to_worker}x of it ` +
      `(target at most ${TARGETS.snapshot_to_worker_ratio}x: ${met(s.met)}).`,
    '',
    '## 3. browser_use 0.13 Agent step (state + one action: click, typing, navigate)',
    '',
    '| config | action | side | state ms | action ms | step ms | ours / direct |',
    '|---|---|---|---:|---:|---:|---:|',
    ...r.browser_use_step.flatMap((b) => [
      `| ${b.config} | ${b.kind} | ours | ${b.ours.state} | ${b.ours.click} | ${b.ours.step} | ${b.ratio} |`,
      `| ${b.config} | ${b.kind} | direct | ${b.direct.state} | ${b.direct.click} | ${b.direct.step} | |`,
    ]),
    '',
    `Medians of ${buDefault?.runs ?? '?'} steps per side after one uncounted step, sides alternating step by step. ` +
      "bench/cdp_step.py: each side is its own `BrowserSession(cdp_url=...)` (ours: the bridge's `/cdp/<token>` URL, direct: " +
      "Chromium's `http://127.0.0.1:PORT`) with its own new tab on a counter page; a step = `get_browser_state_summary()` " +
      '(DOM, accessibility tree, screenshot) + one registry action (what the Agent runs per step, without the model): ' +
      "`click` {index} on the Increment button, `input` {index, text: 'hello world'} into the text field, `navigate` to the page " +
      'again; each run takes one step of each, sides alternating. "default" = browser_use\'s own waits (minimum_wait_page_load_time ' +
      '0.25 s, wait_for_network_idle_page_load_time 0.5 s, wait_between_actions 0.1 s, as an Agent runs); "no_waits" = those ' +
      'set to 0, so the step is CDP work only (the harder comparison). ' +
      `Target ours at most ${TARGETS.bu_step_ratio}x direct per step: ` +
      `${r.browser_use_step.map((b) => `${b.config} ${b.kind} ${met(b.ratio <= TARGETS.bu_step_ratio)}`).join(', ')}.`,
    '',
    '## 4. Client calls (Playwright connectOverCDP, puppeteer), same tab both sides',
    '',
    ...clientRatioRows(r.client_calls),
    '',
    'Medians, sides alternating call by call after one warm-up each (bench/cdp-client-ratios.ts); puppeteer on the section 1 page, ' +
      'Playwright on the counter page, each side through the same WebSocket proxy (bench/cdp-proxy.ts), which keeps the ' +
      "extension's service worker out of the direct client's view: Playwright attaches every service worker and enables Network " +
      "there, so each frame of our relay's socket became two events to that client (before 2026-12-07 this cost our side). " +
      `Target click and screenshot at most ${TARGETS.client_ratio}x: ` +
      `${r.client_calls
        .filter((c) => /click|screenshot/.test(c.call))
        .map((c) => `${c.call.replace(/^Playwright /, '')} ${met(c.ratio <= TARGETS.client_ratio)}`)
        .join(', ')}.`,
    '',
    '## Where our time goes: the hops of one command',
    '',
    `One loop, ${String((r.hops['ours_runtime_evaluate'] as Pct | undefined)?.n ?? '?')} iterations, each running every row once in turn, so all rows ` +
      'see the same load. The agent rows use a plain agent client (bridge/client/agent-client.ts, what the emulator itself uses ' +
      'for every CDP connection) holding a second tab on the same page.',
    '',
    '| hop | what is timed | n | p50 ms | p90 ms | p99 ms |',
    '|---|---|---:|---:|---:|---:|',
    hopRow(r, 'ours_runtime_evaluate', 'Runtime.evaluate through our endpoint (puppeteer), in this loop'),
    hopRow(r, 'direct_runtime_evaluate', "Runtime.evaluate through Chromium's endpoint, in this loop"),
    hopRow(
      r,
      'front_cdp_socket_and_emulator',
      "client <-> bridge: `Target.getTargetInfo` on the page session, answered by the bridge's emulator (ours)",
    ),
    hopRow(r, 'front_direct_same_command', 'the same command direct (Chromium answers)'),
    hopRow(
      r,
      'agent_socket_and_gateway',
      'an agent client (the emulator uses one, over /agent) <-> bridge: `cdp_command` to a tab not held, refused by the bridge',
    ),
    hopRow(
      r,
      'agent_link_and_gateway',
      'the same refused command over the in-process link the emulator now uses (no loopback socket): link <-> gateway',
    ),
    hopRow(
      r,
      'agent_cdp_send_full',
      'agent client `cdp_command` Runtime.evaluate on a tab it attached: agent socket -> bridge -> extension socket -> worker -> chrome.debugger and back',
    ),
    hopRow(
      r,
      'agent_link_cdp_full',
      "the same full command over the in-process link, as the emulator sends it (AgentClient.cdpText), its own tab: the link's A/B",
    ),
    hopRow(r, 'chrome_debugger_in_worker', '`chrome.debugger.sendCommand` Runtime.evaluate timed inside the service worker'),
    '',
    `Bridge -> extension socket + the worker's own handling (full cdp_command p50 - agent hop p50 - chrome.debugger p50): ` +
      `${r.hops.bridge_to_extension_and_worker_p50_ms} ms.`,
    '',
    `Throughput of the parts (same shape as section 1, median of rounds): agent client cdp_command ${r.hop_throughput_cmd_per_s['agent_cdp_send']} cmd/s; ` +
      `chrome.debugger.sendCommand inside the worker ${r.hop_throughput_cmd_per_s['chrome_debugger_in_worker']} cmd/s (ours ` +
      `${r.runtime_evaluate.throughput_cmd_per_s.ours}, direct ${r.runtime_evaluate.throughput_cmd_per_s.direct}).`,
    '',
    `### The 10,000-element DOMSnapshot.captureSnapshot, split (medians, ms; ${(Number(r.snapshot_split['result_bytes']) / 1e6).toFixed(2)} MB action_result)`,
    '',
    '| part | ms | where |',
    '|---|---:|---|',
    ...SPLIT_ROWS.map(([key, where]) => `| ${key} | ${r.snapshot_split[key] ?? '-'} | ${where} |`),
    '',
    '## Where each 0.1 ms goes: the hop trace',
    '',
    'Timestamps at every hop of one command through our endpoint (bench/cdp-hop-trace.ts: marks in the bridge, ' +
      'bridge/common/cdp-trace.ts, and in the service worker, extension/src/shared/cdp-trace.ts; bench-only, off by default), ' +
      'commands one at a time on the section 1 session, p50 of each hop over the runs. The two socket rows cross from the ' +
      "bridge's clock to the worker's (both performance.timeOrigin + performance.now(), same machine; a skew moves time " +
      'between them, so their sum, measured on one clock each, is given too).',
    '',
    '### Runtime.evaluate {expression: "1"}',
    '',
    ...traceMarkdown(r.hop_trace.runtime_evaluate),
    '',
    `### DOMSnapshot.captureSnapshot, ${r.dom_snapshot.elements}-element page`,
    '',
    ...traceMarkdown(r.hop_trace.dom_snapshot),
    '',
    ...analysis(r),
  ];
  return lines.join('\n');
}

/** The targets missed, with this run's numbers, and where the time goes. */
function analysis(r: Result): string[] {
  const e = r.runtime_evaluate;
  const sp = (k: string) => r.snapshot_split[k] ?? NaN;
  const te = (k: string) => r.hop_trace.runtime_evaluate.hops[k]?.p50 ?? NaN;
  const ts = (k: string) => r.hop_trace.dom_snapshot.hops[k]?.p50 ?? NaN;
  const sum = (get: (k: string) => number, keys: string[]) => r2(keys.reduce((a, k) => a + get(k), 0));
  const BRIDGE = ['emulator_in', 'agent_link_to_gateway', 'gateway_lease', 'bridge_decode', 'bridge_to_emulator', 'emulator_reply'];
  const WORKER = ['worker_decode', 'worker_checks', 'worker_answer', 'worker_stringify', 'worker_ws_send'];
  return [
    '## Reading it: targets and where the time goes',
    '',
    `- **Runtime.evaluate added p50 ${e.added_p50_ms} ms (target ${TARGETS.added_eval_p50_ms} ms: ${e.met ? 'met' : 'NOT met'}).** ` +
      `The hop trace: chrome.debugger.sendCommand in the worker ${te('chrome_debugger')} ms (Chromium's own endpoint answers the ` +
      `whole command in ${e.sequential.direct.p50} ms p50); the extension's WebSocket both ways ` +
      `${r.hop_trace.runtime_evaluate.extension_sockets_both_ways.p50} ms (from the bridge's send, through Chromium's network service, to the ` +
      "worker's process and back: each way a hop between processes that Chromium's own endpoint, whose socket lives in the browser " +
      `process, does not make); the client's socket to the bridge both ways ${sum(te, ['client_to_bridge', 'bridge_to_client'])} ms ` +
      `(direct has the same one); the bridge's own work ${sum(te, BRIDGE)} ms (emulator, in-process link, gateway, the sends; no ` +
      `parse of the result); the worker's own work ${sum(te, WORKER)} ms (decode and schema check of the command, every check, ` +
      'the answer, JSON, ws.send; the clock in the worker counts in steps of 0.1 ms). chrome.debugger and the extension socket ' +
      'are the platform: an extension reaches the debugger only through chrome.debugger, and the bridge only over a WebSocket. ' +
      'What is ours is the bridge and worker work, well under the 0.5 ms; the rest of the gap is those two hops, and at this ' +
      'load every hop between processes waits for a core.',
    `- **Throughput** at ${e.throughput_cmd_per_s.in_flight} in flight: ours ${e.throughput_cmd_per_s.ours} cmd/s ` +
      `(${r2((e.throughput_cmd_per_s.ours * e.sequential.ours.p50) / 1000)}x its sequential 1 / p50), direct ` +
      `${e.throughput_cmd_per_s.direct} (${r2((e.throughput_cmd_per_s.direct * e.sequential.direct.p50) / 1000)}x); a plain agent ` +
      `client's cdp_command ${r.hop_throughput_cmd_per_s['agent_cdp_send']} cmd/s; chrome.debugger inside the worker ` +
      `${r.hop_throughput_cmd_per_s['chrome_debugger_in_worker']} cmd/s, so it is not the limit. This process spent ` +
      `${e.bench_process_cpu_ms_per_cmd.ours} ms of CPU per command through ours against ${e.bench_process_cpu_ms_per_cmd.direct} ms ` +
      "direct (the bridge, the emulator and its agent client run here; the worker's share is on top, in Chromium), with 2 cores " +
      'shared by everything: the limit is most likely that CPU work per command, not a queue (a cdp_command is not queued behind ' +
      'other actions, agent-gateway.ts, and the worker runs each as it arrives).',
    `- **DOMSnapshot ${r.dom_snapshot.ratio}x direct, ${r.dom_snapshot.ratio_to_worker}x of chrome.debugger's own time (target ` +
      `${TARGETS.snapshot_to_worker_ratio}x: ${r.dom_snapshot.met ? 'met' : 'NOT met'}).** The hop trace of the same command: ` +
      `chrome.debugger ${ts('chrome_debugger')} ms; then the worker's privacy filter ${ts('worker_answer')} ms (it walks the ` +
      `snapshot's string table only: ${sp('extension_privacy_filter_ms')} ms in Node on this result), JSON.stringify ` +
      `${ts('worker_stringify')} ms and ws.send ${ts('worker_ws_send')} ms (chrome.debugger hands the worker an object, so one ` +
      `stringify is the least), the socket to the bridge ${ts('socket_to_bridge')} ms, the bridge reads the envelope ` +
      `(${ts('bridge_decode')} ms; the full parse and check it no longer does would cost ${sp('bridge_full_decode_not_done_ms')} ms ` +
      `in Node), hands the text to the emulator (${ts('bridge_to_emulator')} ms) and writes the reply (${ts('emulator_reply')} ms: ` +
      `the string to UTF-8 and the socket), and the client's socket and puppeteer's parse (${ts('bridge_to_client')} ms, which ` +
      "the client pays on Chromium's endpoint too; here it shares one Node process with the bridge). chrome.debugger alone " +
      `takes ${sp('chrome_debugger_in_worker_ms')} ms for this ${(r.dom_snapshot.bytes / 1e6).toFixed(1)} MB result against ` +
      `${sp('direct_same_tab_ms')} ms through Chromium's own socket on the same tab ` +
      `(${r2(sp('chrome_debugger_in_worker_ms') / sp('direct_same_tab_ms'))}x): Chrome hands an extension the result as a JS object, ` +
      "not the JSON text: the browser process parses the protocol answer into a value tree and sends it over IPC to the worker's " +
      'process, which builds the object. So no relay on chrome.debugger gets near direct on large results.',
    `- **Page.captureScreenshot ${r.screenshot.ratio}x** (Playwright's page.screenshot() in section 4 includes its own ` +
      'work on both sides): before Chrome captures, nothing is added; after, the worker reads the boxes of card numbers only ' +
      'from the frames that told it they draw or may draw one (cdp/card-frames.ts; none on this page once the tab was read ' +
      "in full), and decodes and repaints only when a card shows, so the client's image never shows digits its text reads " +
      'mask. The result itself is one base64 string, not walked by the filter.',
    `- **browser_use step**: ${r.browser_use_step.map((b) => `${b.config} ${b.kind} ${b.ratio}x`).join(', ')} ` +
      `(target ${TARGETS.bu_step_ratio}x: ${r.browser_use_step.every((b) => b.ratio <= TARGETS.bu_step_ratio) ? 'met' : '**NOT met**'}). Ours adds ` +
      `${r.browser_use_step.map((b) => `${r1(b.ours.step - b.direct.step)} ms (${b.config} ${b.kind}: state ${r1(b.ours.state - b.direct.state)}, action ${r1(b.ours.click - b.direct.click)})`).join(', ')} ` +
      "per step. A click is mostly browser_use's own ~0.8 s (the same on both); typing sends a few CDP commands per character " +
      '(key events, then reads of the value) and a navigation waits on several round trips, so both carry the per-command overhead ' +
      'of section 1 many times over; the state (DOMSnapshot, accessibility tree, screenshot, several Runtime.evaluate) carries ' +
      "sections 1 and 2. The medians move by several percent between runs at this load. Each side's tab is brought to the front before its step: both tabs share one " +
      "window, and in a background tab browser_use 0.13's click took about 5 s longer on EITHER endpoint (0.8 s vs 5.8 s, measured " +
      'while building this bench), which would measure tab visibility, not the endpoint.',
    '',
    '## Rerun',
    '',
    '    npm run bench:cdp        # builds, then node --import tsx bench/cdp.ts; needs .venvs/bu013 (node scripts/python-envs.mjs bu013)',
    '',
    'Knobs (environment): BENCH_CDP_SEQ (500), BENCH_CDP_CONC_TOTAL (200), BENCH_CDP_CONC_INFLIGHT (10), BENCH_CDP_CONC_ROUNDS (5), ' +
      'BENCH_CDP_SNAP_RUNS (10), BENCH_CDP_HOP_RUNS (300), BENCH_CDP_BU_RUNS (20), BENCH_CDP_CLIENT_RUNS (30). Raw samples: bench/results/cdp.json.',
    '',
  ];
}

const SPLIT_ROWS: [string, string][] = [
  ['direct_same_tab_ms', "the same command through Chromium's own endpoint on the same tab (the reference)"],
  ['chrome_debugger_in_worker_ms', 'chrome.debugger.sendCommand timed in the service worker (Chrome + the copy into the worker)'],
  ['worker_json_stringify_ms', 'JSON.stringify of that result in the worker'],
  ['extension_privacy_filter_ms', "redactText over the snapshot's string table (what the worker's filter walks now), timed in Node"],
  ['extension_json_stringify_ms', 'JSON.stringify of the action_result, Node'],
  ['bridge_decode_from_extension_ms', "the bridge reads the cdp_result's envelope (cdp-result-head.ts; the result is not parsed), Node"],
  ['bridge_full_decode_not_done_ms', 'what the full JSON.parse + schema check of it (peer.ts decodeMessage) would cost: no longer done'],
  ['agent_client_decode_ms', "the emulator's AgentClient decode (decode-from-bridge.ts), Node"],
  ['emulator_json_stringify_reply_ms', "the emulator's JSON.stringify of the CDP answer to the client, Node"],
  ['agent_cdp_send_full_ms', 'an agent client cdp_command of the snapshot, end to end (no CDP socket, no emulator)'],
];

function hopRow(r: Result, key: string, what: string): string {
  const h = r.hops[key];
  return typeof h === 'object' ? `| ${key} | ${what} | ${h.n} | ${h.p50} | ${h.p90} | ${h.p99} |` : `| ${key} | ${what} | - | - | - | - |`;
}

// `--render`: cdp.md again from cdp.json (after a change of the text; the numbers stay the run's).
if (process.argv.includes('--render'))
  fs.writeFileSync(path.join(OUT, 'cdp.md'), render(JSON.parse(fs.readFileSync(path.join(OUT, 'cdp.json'), 'utf-8')) as Result));
else
  main().catch((e: unknown) => {
    const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
    process.stderr.write(`bench:cdp failed: ${msg.replace(/\/cdp\/[A-Za-z0-9_-]{16,}/g, '/cdp/<token>')}\n`);
    process.exit(1);
  });
