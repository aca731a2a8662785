// The fault suite (the reliability run behind docs/RELIABILITY.md): the real bridge (the built CLI, as a child process so a crash
// is an exit and memory is its own RSS), real Chromium with the built extension, several agents
// acting at once, each on its own tab, and faults injected while they act:
//   - the service worker stopped while idle and mid-action (CDP Target.closeTarget, what Chrome does
//     to an idle MV3 worker), then woken by a browser event (a navigation, as a person browsing), and
//     stopped with no browser event at all (the extension must wake itself);
//   - the bridge killed (SIGTERM and SIGKILL) and started again on the same port, while clicks wait
//     for their page to settle (a click re-sent by the client must never run twice);
//   - an agent's tab closed or navigated under it mid-action; a tab navigated or closed while
//     wait_for runs on it (must never be success);
//   - pages that fight back: alert loops, endless DOM mutation, a huge DOM, a navigation loop,
//     stopPropagation/preventDefault on every event, a page forging the agent's own UI marker;
//   - fuzzed frames on /agent and fuzzed handshakes on /extension.
// Counted: lost results (a call with no answer), duplicated actions (the page's own click counter
// above what the agent was told), false successes, leaked secrets (the bridge's secrets, a password
// the page shows in clear after declaring it a password, a card number, in any answer), crashes (the
// bridge exiting on its own), reconnect times, bridge RSS at intervals. `npm run soak` runs it long and writes
// docs/RELIABILITY.md; test/soak/fault-suite.spec.ts runs it short inside `npm test`.
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from 'puppeteer-core';
import WebSocket from 'ws';

import { pct } from '../../bench/stats';
import { AgentClient } from '../../bridge/client/agent-client';
import { loadOrCreateSecrets, type Secrets } from '../../bridge/common/secrets';
import type { ActionResultMessage, ExtensionStatusMessage } from '../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../schemas/generated/registry';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { type LaunchedBrowser, launchWithExtension, REPO_ROOT } from '../harness/browser';
import { FixtureServer } from '../harness/fixture-server';
import { freePort } from '../harness/free-port';

export interface SoakOptions {
  /** Agent actions in total (all agents together). */
  actions: number;
  agents: number;
  /** A fault every this many actions (cycling through the kinds). */
  faultEvery: number;
  /** Bridge restarts happen only in the first this fraction of the run (the rest measures memory). */
  restartPhase: number;
  fuzzAgentFrames: number;
  fuzzHandshakes: number;
  /** Bridge RSS sampled every this many actions. */
  sampleEvery: number;
  /** Each fight_back fault visits every hostile page (short runs), else the next one. */
  fightAll?: boolean;
  log?: (line: string) => void;
}

export interface SoakReport {
  options: Omit<SoakOptions, 'log'>;
  actions: number;
  answered: number;
  lost: number;
  lostDetails: string[];
  falseSuccess: number;
  falseSuccessDetails: string[];
  /** Clicks the page counted beyond those the agents were told happened or might have happened. */
  duplicated: number;
  clicks: { success: number; unknown: number; counted: number };
  /** Answers that carried a secret (the bridge's secrets, the page's password, a card number). */
  leaked: number;
  leakDetails: string[];
  crashes: number;
  errorsByCode: Record<string, number>;
  /** The first message seen per error code, with the action that got it. */
  errorExamples: Record<string, string>;
  faults: Record<string, number>;
  reconnectMs: { worker: number[]; workerSilent: number[]; bridge: number[] };
  /**
   * Reconnects slower than SLOW_RECONNECT_MS, each with the worker's own log of its tries since the
   * fault (try-log.ts, globalThis.__buxBridgeTries): when each began, how far it got, how it ended, the
   * delay chosen next. A slow reconnect then says why instead of only how long.
   */
  slowReconnects: { fault: string; ms: number; tries: string }[];
  fuzz: { agentFrames: number; untypedReplies: number; handshakes: number; handshakeAccepted: number };
  fightBack: Record<string, string>;
  memory: { actions: number; rssMb: number; bridgeGeneration: number }[];
  durationMs: number;
  load: string;
  machine: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A reconnect this slow has the worker's try log put into the report (slowReconnects). */
const SLOW_RECONNECT_MS = 3000;

/** The p-th percentile by nearest rank (bench/stats.ts, the rule every bench uses), or null for no samples. */
export function percentile(values: number[], p: number): number | null {
  return values.length ? pct(values, p) : null;
}

/** The bridge as a person runs it: the built CLI in its own process. */
class BridgeProcess {
  child: ChildProcess | null = null;
  generation = 0;
  crashes = 0;
  private expectingExit = false;
  readonly stderr: string[] = [];

  constructor(
    readonly port: number,
    readonly configDir: string,
  ) {}

  async start(): Promise<void> {
    this.expectingExit = false;
    this.generation++;
    const child = spawn(
      process.execPath,
      [
        path.join(REPO_ROOT, 'dist', 'bridge', 'cli.js'),
        'bridge',
        '--port',
        String(this.port),
        '--config-dir',
        this.configDir,
        '--log-level',
        'warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child = child;
    child.stderr?.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) if (line.trim()) this.stderr.push(line);
      if (this.stderr.length > 2000) this.stderr.splice(0, 1000);
    });
    child.once('exit', (code, signal) => {
      if (!this.expectingExit) {
        this.crashes++;
        this.stderr.push(`bridge exited on its own: code ${code} signal ${signal}`);
      }
    });
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      try {
        const r = await fetch(`http://127.0.0.1:${this.port}/healthz`);
        if (r.ok) return;
      } catch {
        /* not up yet */
      }
      await sleep(25);
    }
    throw new Error('bridge did not start within 20 s');
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectingExit = true;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(signal);
    await Promise.race([exited, sleep(5000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }

  rssMb(): number | null {
    const pid = this.child?.pid;
    if (!pid) return null;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Math.round((Number(m[1]) / 1024) * 10) / 10 : null;
    } catch {
      return null;
    }
  }

  async status(): Promise<{ extension: { connected: boolean } }> {
    return (await (await fetch(`http://127.0.0.1:${this.port}/status`)).json()) as { extension: { connected: boolean } };
  }
}

/** What the soak app shows and sends that must never reach an agent (checked in every answer). */
const PAGE_PASSWORD = 'soak-Pw-7f3K9q';
const PAGE_CARD = '4111 1111 1111 1111';
const CARD_SHAPE = /4111\D{0,3}1111\D{0,3}1111\D{0,3}1111/;

// Each agent's tab shows the app at ?agent=<i>. "Add one" counts into localStorage (it survives the
// reloads, navigations and tab closes the faults cause), which is how duplicated clicks are counted,
// and posts a request that takes 300 ms, so a click is still settling when the bridge is killed. The
// password field turns into a text field after load, as a show-password button does.
const APP = `<h1>Soak app</h1>
<p id="counter">Counter: 0</p>
<button id="add">Add one</button>
<label>Name <input id="name"></label>
<label>Note <input id="note"></label>
<label><input type="checkbox" id="agree"> Agree</label>
<label>Password <input type="password" id="pw" value="${PAGE_PASSWORD}"></label>
<p>Card on file: ${PAGE_CARD}</p>
<div style="height:1500px">tall</div>
<script>
window.n = 0;
const agent = new URLSearchParams(location.search).get('agent');
document.getElementById('add').addEventListener('click', () => {
  const k = 'hits-' + agent;
  localStorage.setItem(k, String(Number(localStorage.getItem(k) || 0) + 1));
  document.getElementById('counter').textContent = 'Counter: ' + (++window.n);
  fetch('/soak/slow', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: '${PAGE_PASSWORD}', card: '${PAGE_CARD}' }) }).catch(() => {});
});
setTimeout(() => { document.getElementById('pw').type = 'text'; }, 50);
</script>`;

/** Error codes after which a click may or may not have reached the page (the agent is told so). */
const OUTCOME_MAYBE = new Set([
  'EXTENSION_DISCONNECTED',
  'TIMEOUT',
  'COMMUNICATION_ERROR_WITH_TARGET',
  'NAVIGATED_AWAY',
  'OPERATION_FAILED_IN_TARGET',
  'EXTENSION_INTERNAL_ERROR',
  'TAB_NOT_FOUND',
]);

const FIGHT_BACK: Record<string, string> = {
  alert_loop: `<p>alerts</p><button>Press me</button><script>setInterval(() => alert('again'), 200);</script>`,
  mutation_storm:
    `<p id="x">storm</p><button>Press me</button><script>setInterval(() => { const d = document.createElement('div'); ` +
    'd.textContent = Math.random(); document.body.appendChild(d); ' +
    'if (document.body.children.length > 400) document.body.removeChild(document.body.children[3]); }, 1);</script>',
  huge_dom:
    `<button>Press me</button><div id="big"></div><script>const b = document.getElementById('big'); let h = ''; ` +
    `for (let i = 0; i < 20000; i++) h += '<div><span>row ' + i + '</span><a href="#r' + i + '">link ' + i + '</a></div>'; ` +
    'b.innerHTML = h;</script>',
  navigation_loop: `<p>loop</p><button>Press me</button><script>setTimeout(() => location.reload(), 300);</script>`,
  // A page forging the agent's own UI marker on a transparent cover over its button: a click must
  // not be reported as success while the cover takes it.
  impersonator:
    `<button onclick="document.title='pressed'">Press me</button>` +
    '<div data-browser-agent-ui style="position:fixed;inset:0;z-index:2147483647;background:transparent"></div>',
  event_blocker:
    `<p>blocker</p><button onclick="document.title='clicked'">Press me</button><input id="i"><script>` +
    "for (const t of ['click','mousedown','mouseup','pointerdown','pointerup','keydown','keyup','keypress','input','change'," +
    "'focus','blur','submit','beforeinput']) " +
    'window.addEventListener(t, (e) => { e.stopImmediatePropagation(); e.preventDefault(); }, true);</script>',
};

type Outcome = { kind: 'answered'; result: ActionResultMessage } | { kind: 'lost'; why: string };

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const log = o.log ?? (() => undefined);
  const started = Date.now();
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-soak-'));
  const secrets: Secrets = loadOrCreateSecrets(configDir).secrets;
  const port = await freePort();
  const bridge = new BridgeProcess(port, configDir);
  const report: SoakReport = {
    options: {
      actions: o.actions,
      agents: o.agents,
      faultEvery: o.faultEvery,
      restartPhase: o.restartPhase,
      fuzzAgentFrames: o.fuzzAgentFrames,
      fuzzHandshakes: o.fuzzHandshakes,
      sampleEvery: o.sampleEvery,
      fightAll: o.fightAll === true,
    },
    actions: 0,
    answered: 0,
    lost: 0,
    lostDetails: [],
    falseSuccess: 0,
    falseSuccessDetails: [],
    duplicated: 0,
    clicks: { success: 0, unknown: 0, counted: 0 },
    leaked: 0,
    leakDetails: [],
    crashes: 0,
    errorsByCode: {},
    errorExamples: {},
    faults: {},
    reconnectMs: { worker: [], workerSilent: [], bridge: [] },
    slowReconnects: [],
    fuzz: { agentFrames: 0, untypedReplies: 0, handshakes: 0, handshakeAccepted: 0 },
    fightBack: {},
    memory: [],
    durationMs: 0,
    load: '',
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`,
  };
  const fixtures = await new FixtureServer().start(0);
  let launched: LaunchedBrowser | null = null;
  const agents: AgentClient[] = [];
  try {
    await bridge.start();
    const appBase = fixtures.html('/soak/app', APP, 'Soak app');
    const appUrl = (agent: number) => `${appBase}?agent=${agent}`;
    fixtures.route('/soak/slow', { body: '{}', contentType: 'application/json', delayMs: 300 });
    const leaks: [string, RegExp | string][] = [
      ['agent secret', secrets.agent_secret],
      ['extension secret', secrets.extension_secret],
      ['page password', PAGE_PASSWORD],
      ['card number', CARD_SHAPE],
    ];
    const waitUrl = fixtures.html('/soak/wait', '<p>waiting page</p>', 'Wait');
    const elsewhere = fixtures.html('/soak/elsewhere', '<p>elsewhere</p>', 'Elsewhere');
    const fight = Object.fromEntries(Object.entries(FIGHT_BACK).map(([k, body]) => [k, fixtures.html(`/soak/fight/${k}`, body, k)]));
    launched = await launchWithExtension({
      extensionBridgeUrl: `ws://127.0.0.1:${port}/extension`,
      extensionConfig: { extension_secret: secrets.extension_secret },
    });
    const browser = launched.browser;
    await waitFor(async () => (await bridge.status()).extension.connected, 20_000, 'the extension to connect');
    // Dialogs of the alert-loop page are the extension's to handle; puppeteer must not block on them.
    const connectAgent = () =>
      AgentClient.connect({ url: `ws://127.0.0.1:${port}/agent`, secret: secrets.agent_secret, callTimeoutMs: 20_000 });
    for (let i = 0; i < o.agents + 1; i++) agents.push(await connectAgent());
    const probe = agents[o.agents] as AgentClient;
    const workers = agents.slice(0, o.agents);

    /** Every call: answered (success or typed error) or lost (no answer: client timeout/rejection). */
    const call = async <A extends ActionName>(
      agent: AgentClient,
      action: A,
      params: ActionParams<A>,
      opts: { tabId?: number; timeoutMs?: number } = {},
    ): Promise<Outcome> => {
      report.actions++;
      try {
        const result = await agent.call(action, params, {
          timeoutMs: opts.timeoutMs ?? 15_000,
          ...(opts.tabId === undefined ? {} : { tabId: opts.tabId }),
        });
        report.answered++;
        const text = JSON.stringify(result);
        for (const [what, secret] of leaks) {
          if (typeof secret === 'string' ? !text.includes(secret) : !secret.test(text)) continue;
          report.leaked++;
          if (report.leakDetails.length < 20) report.leakDetails.push(`${what} in the answer to ${action} (${result.status})`);
        }
        if (result.status === 'error') {
          const code = result.error_info?.error_code ?? 'UNKNOWN';
          report.errorsByCode[code] = (report.errorsByCode[code] ?? 0) + 1;
          report.errorExamples[code] ??= `${action}: ${result.error_info?.message ?? ''}`;
        }
        return { kind: 'answered', result };
      } catch (e) {
        const why = `${action}: ${e instanceof Error ? e.message : String(e)}`;
        report.lost++;
        if (report.lostDetails.length < 20) report.lostDetails.push(why);
        return { kind: 'lost', why };
      }
    };
    const falseSuccess = (why: string) => {
      report.falseSuccess++;
      if (report.falseSuccessDetails.length < 20) report.falseSuccessDetails.push(why);
    };

    // Each worker agent gets its own tab (open_tab leases it and makes it current), and a new one when
    // a fault closed it.
    const tabOf = new Map<AgentClient, number>();
    const openAppTab = async (a: AgentClient, idx: number) => {
      const r = await call(a, 'open_tab', { url: appUrl(idx) });
      if (r.kind === 'answered' && r.result.status === 'success')
        tabOf.set(a, (r.result.outcome_details?.result as { tab_id: number }).tab_id);
    };
    for (const [i, a] of workers.entries()) await openAppTab(a, i);
    const clicks = workers.map(() => ({ success: 0, unknown: 0 }));
    // Faults that reload or close an agent's tab, per agent: a field read back after one of them is
    // empty because the page reloaded, which says nothing about the fill or type before it.
    const disturbed = workers.map(() => 0);

    // Reconnect timing: extension_status connected=true at an agent, from the moment the worker was
    // stopped (the extension may come back before any browser event: its offscreen document wakes it).
    let wakeAt: number | null = null;
    let wakeKind: 'worker' | 'workerSilent' | null = null;
    const first = workers[0] as AgentClient;
    first.on('extension_status', (m: ExtensionStatusMessage) => {
      if (!m.connected || wakeAt === null || wakeKind === null) return;
      report.reconnectMs[wakeKind].push(Date.now() - wakeAt);
      wakeAt = null;
      wakeKind = null;
    });
    const extensionBack = () =>
      waitFor(
        async () => (await bridge.status().catch(() => ({ extension: { connected: false } }))).extension.connected,
        45_000,
        'the extension to come back',
      );

    const pageFor = async (url: string): Promise<Page | undefined> => (await browser.pages()).find((p) => p.url() === url);
    /** The worker's try log since `from` (Date.now()), as JSON, or why it could not be read. */
    const triesSince = async (from: number): Promise<string> => {
      try {
        const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), {
          timeout: 5000,
        });
        const w = await target.worker();
        const log = (await w?.evaluate(() => (globalThis as { __buxBridgeTries?: unknown }).__buxBridgeTries ?? null)) as {
          workerStarted: number;
          tries: { at: number }[];
          wakesWhileTrying: number;
        } | null;
        if (!log) return 'no try log in the worker';
        return JSON.stringify({ ...log, tries: log.tries.filter((t) => t.at >= from - 1000) });
      } catch (e) {
        return `try log unreadable: ${e instanceof Error ? e.message : String(e)}`;
      }
    };
    const stopWorker = async () => {
      const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), {
        timeout: 10_000,
      });
      const w = await target.worker();
      await w?.close();
    };
    /**
     * Stops the worker and times its return; browserEvent: a person opens a page 200 ms later (the
     * event that used to be the only quick wake), else nothing happens in the browser.
     */
    const stopAndTime = async (browserEvent: boolean) => {
      const stoppedAt = Date.now();
      wakeAt = stoppedAt;
      wakeKind = browserEvent ? 'worker' : 'workerSilent';
      try {
        await stopWorker();
        if (browserEvent) {
          await sleep(200);
          const p = await browser.newPage();
          await p.goto(elsewhere, { waitUntil: 'domcontentloaded' }).catch(() => undefined);
          await p.close().catch(() => undefined);
        }
        await extensionBack();
        const ms = Date.now() - stoppedAt;
        if (ms > SLOW_RECONNECT_MS)
          report.slowReconnects.push({ fault: browserEvent ? 'worker_stopped' : 'worker_silent', ms, tries: await triesSince(stoppedAt) });
        await waitFor(async () => wakeAt === null, 10_000, 'extension_status connected at the agent');
      } finally {
        wakeAt = null;
        wakeKind = null;
      }
    };

    /** A worker agent's tab as puppeteer sees it (the app page of that agent, wherever it is). */
    const agentPage = async (idx: number): Promise<Page | undefined> => {
      const url = appUrl(idx);
      return (await browser.pages()).find((p) => p.url() === url);
    };
    const faults = [
      'worker_idle',
      'bridge_kill',
      'agent_tab_navigated',
      'wait_for_navigated',
      'worker_silent',
      'worker_mid_action',
      'agent_tab_closed',
      'fight_back',
      'bridge_restart',
      'wait_for_tab_closed',
      'wait_for_timeout',
    ] as const;
    let faultIndex = 0;
    let fightIndex = 0;
    let stopping = false;
    let faultChain: Promise<void> = Promise.resolve();
    let done = 0;

    const runFault = async (kind: (typeof faults)[number]) => {
      // The memory phase runs on one bridge process.
      if ((kind === 'bridge_restart' || kind === 'bridge_kill') && done > o.actions * o.restartPhase) return;
      report.faults[kind] = (report.faults[kind] ?? 0) + 1;
      log(`fault ${kind} at ${done} agent actions`);
      switch (kind) {
        case 'worker_idle':
          await stopAndTime(true);
          return;
        case 'worker_silent':
          // No browser event follows: the extension must notice and wake its worker by itself.
          await stopAndTime(false);
          return;
        case 'agent_tab_closed':
        case 'agent_tab_navigated': {
          const victim = crypto.randomInt(workers.length);
          disturbed[victim] = (disturbed[victim] ?? 0) + 1;
          const page = await agentPage(victim);
          if (kind === 'agent_tab_closed') await page?.close().catch(() => undefined);
          else await page?.evaluate(() => location.reload()).catch(() => undefined);
          return;
        }
        case 'worker_mid_action': {
          const r = await call(probe, 'open_tab', { url: waitUrl });
          const tab = r.kind === 'answered' ? (r.result.outcome_details?.result as { tab_id?: number } | undefined)?.tab_id : undefined;
          if (tab === undefined) return;
          const pending = call(probe, 'wait_for', { text: 'never there', timeout_ms: 6000 }, { tabId: tab });
          await sleep(400);
          await stopAndTime(true);
          const out = await pending;
          if (out.kind === 'answered' && out.result.status === 'success')
            falseSuccess('wait_for succeeded although the worker stopped and the text never appeared');
          await call(probe, 'close_tab', {}, { tabId: tab });
          return;
        }
        case 'wait_for_navigated':
        case 'wait_for_tab_closed':
        case 'wait_for_timeout': {
          const r = await call(probe, 'open_tab', { url: waitUrl });
          const tab = r.kind === 'answered' ? (r.result.outcome_details?.result as { tab_id?: number } | undefined)?.tab_id : undefined;
          if (tab === undefined) return;
          const pending = call(
            probe,
            'wait_for',
            { text: 'never there', timeout_ms: kind === 'wait_for_timeout' ? 500 : 6000 },
            { tabId: tab },
          );
          await sleep(400);
          const page = await pageFor(waitUrl);
          if (kind === 'wait_for_navigated') await page?.evaluate((u) => void (location.href = u), elsewhere).catch(() => undefined);
          if (kind === 'wait_for_tab_closed') await page?.close().catch(() => undefined);
          const out = await pending;
          if (out.kind === 'answered' && out.result.status === 'success')
            falseSuccess(`wait_for reported success for a condition never met (${kind}): ${out.result.outcome_details?.message ?? ''}`);
          if (kind !== 'wait_for_tab_closed') await call(probe, 'close_tab', {}, { tabId: tab });
          return;
        }
        case 'bridge_restart':
        case 'bridge_kill': {
          const down = Date.now();
          await bridge.stop(kind === 'bridge_kill' ? 'SIGKILL' : 'SIGTERM');
          await sleep(200);
          await bridge.start();
          const t = Date.now();
          await extensionBack();
          const ms = Date.now() - t;
          report.reconnectMs.bridge.push(ms);
          if (ms > SLOW_RECONNECT_MS) report.slowReconnects.push({ fault: kind, ms, tries: await triesSince(down) });
          return;
        }
        case 'fight_back':
          for (let i = 0; i < (o.fightAll ? Object.keys(fight).length : 1); i++) await fightBack();
          return;
      }
    };
    const fightBack = async () => {
      const names = Object.keys(fight);
      const name = names[fightIndex++ % names.length] as string;
      const r = await call(probe, 'open_tab', { url: fight[name] as string }, { timeoutMs: 20_000 });
      const tab = r.kind === 'answered' ? (r.result.outcome_details?.result as { tab_id?: number } | undefined)?.tab_id : undefined;
      if (tab === undefined) {
        report.fightBack[name] = `open_tab: ${r.kind === 'answered' ? (r.result.error_info?.error_code ?? 'no tab id') : 'lost'}`;
        return;
      }
      const seen: string[] = [];
      for (const [action, params] of [
        ['get_state', {}],
        ['click', { role: 'button', name: 'Press me', timeout_ms: 2000 }],
        ['extract_content', { max_chars: 5000 }],
        ['wait_for', { text: 'never there', timeout_ms: 800 }],
      ] as const) {
        const out = await call(probe, action as ActionName, params as never, { tabId: tab, timeoutMs: 20_000 });
        seen.push(
          `${action}: ${out.kind === 'lost' ? 'LOST' : out.result.status === 'success' ? 'success' : out.result.error_info?.error_code}`,
        );
        if (action === 'wait_for' && out.kind === 'answered' && out.result.status === 'success')
          falseSuccess(`wait_for success on ${name}`);
        if (name === 'impersonator' && action === 'click' && out.kind === 'answered' && out.result.status === 'success') {
          const title = await (await pageFor(fight[name] as string))?.title().catch(() => undefined);
          if (title !== 'pressed') falseSuccess('click reported success on a button under a cover forging the agent UI marker');
        }
      }
      report.fightBack[name] = seen.join(', ');
      await call(probe, 'close_tab', {}, { tabId: tab });
      return;
    };

    const fuzzer = fuzz(port, secrets, o, report);

    // The agents' work: a fixed cycle of actions on their own tab, checking what can be checked.
    const work = async (a: AgentClient, idx: number) => {
      let n = 0;
      while (!stopping && done < o.actions) {
        const tabId = tabOf.get(a); // a new one after a fault closed the last
        n++;
        done++;
        if (done % o.sampleEvery === 0) {
          const rss = bridge.rssMb();
          if (rss !== null) report.memory.push({ actions: done, rssMb: rss, bridgeGeneration: bridge.generation });
        }
        if (done % o.faultEvery === 0) {
          const kind = faults[faultIndex++ % faults.length] as (typeof faults)[number];
          faultChain = faultChain.then(() => runFault(kind)).catch((e: unknown) => log(`fault ${kind} failed: ${String(e)}`));
        }
        const value = `agent${idx}-${n}`;
        let out: Outcome | null = null;
        switch (n % 8) {
          case 0:
            out = await call(a, 'get_state', {}, withTab(tabId));
            break;
          case 1: {
            out = await call(a, 'click', { role: 'button', name: 'Add one' }, withTab(tabId));
            const tally = clicks[idx] as { success: number; unknown: number };
            if (out.kind === 'lost') tally.unknown++;
            else if (out.result.status === 'success') tally.success++;
            else if (OUTCOME_MAYBE.has(out.result.error_info?.error_code ?? '')) tally.unknown++;
            break;
          }
          case 2: {
            const before = disturbed[idx];
            const filled = (out = await call(a, 'fill', { selector: '#name', value }, withTab(tabId)));
            if (filled.kind === 'answered' && filled.result.status === 'success') {
              const read = await call(a, 'get', { selector: '#name', what: 'value' }, withTab(tabId));
              const got =
                read.kind === 'answered' && read.result.status === 'success'
                  ? (read.result.outcome_details?.result as { value?: unknown }).value
                  : undefined;
              if (read.kind === 'answered' && read.result.status === 'success' && got !== value && disturbed[idx] === before)
                falseSuccess(`fill "${value}" succeeded but the field reads ${JSON.stringify(got)}`);
            }
            break;
          }
          case 3:
            out = await call(a, 'check', { selector: '#agree' }, withTab(tabId));
            break;
          case 4:
            out = await call(a, 'wait_for', { text: 'Soak app', timeout_ms: 3000 }, withTab(tabId));
            break;
          case 5:
            out = await call(a, 'extract_content', { max_chars: 2000 }, withTab(tabId));
            break;
          case 6:
            out = await call(a, 'scroll', { direction: 'down' }, withTab(tabId));
            break;
          case 7: {
            // Typed key by key into an emptied field: success means every character went in.
            const before = disturbed[idx];
            const cleared = (out = await call(a, 'fill', { selector: '#note', value: '' }, withTab(tabId)));
            if (cleared.kind === 'lost' || cleared.result.status !== 'success') break;
            const text = `typed ${value}`;
            const typed = (out = await call(a, 'type', { selector: '#note', text }, withTab(tabId)));
            if (typed.kind === 'lost' || typed.result.status !== 'success' || typed.result.outcome_details?.navigation_occurred) break;
            const read = await call(a, 'get', { selector: '#note', what: 'value' }, withTab(tabId));
            const got =
              read.kind === 'answered' && read.result.status === 'success'
                ? (read.result.outcome_details?.result as { value?: unknown }).value
                : undefined;
            if (read.kind === 'answered' && read.result.status === 'success' && got !== text && disturbed[idx] === before)
              falseSuccess(`type "${text}" succeeded but the field reads ${JSON.stringify(got)}`);
            break;
          }
        }
        if (out?.kind === 'answered' && out.result.error_info?.error_code === 'TAB_NOT_FOUND') await openAppTab(a, idx);
      }
    };
    await Promise.all(workers.map((a, i) => work(a, i)));
    stopping = true;
    await faultChain;
    await fuzzer;
    // The page's own count of "Add one" clicks per agent, against what each agent was told.
    const counter = await browser.newPage();
    await counter.goto(elsewhere, { waitUntil: 'domcontentloaded' });
    const counted = await counter.evaluate((n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push(Number(localStorage.getItem(`hits-${i}`) ?? 0));
      return out;
    }, workers.length);
    await counter.close().catch(() => undefined);
    for (const [i, tally] of clicks.entries()) {
      const hits = counted[i] ?? 0;
      report.clicks.success += tally.success;
      report.clicks.unknown += tally.unknown;
      report.clicks.counted += hits;
      if (hits > tally.success + tally.unknown) report.duplicated += hits - tally.success - tally.unknown;
      if (hits < tally.success) falseSuccess(`agent ${i}: ${tally.success} clicks reported success, the page counted ${hits}`);
    }
    const rss = bridge.rssMb();
    if (rss !== null) report.memory.push({ actions: done, rssMb: rss, bridgeGeneration: bridge.generation });
  } finally {
    report.crashes = bridge.crashes;
    report.durationMs = Date.now() - started;
    report.load = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ');
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
    await launched?.close().catch(() => undefined);
    await bridge.stop().catch(() => undefined);
    await fixtures.close().catch(() => undefined);
    fs.rmSync(configDir, { recursive: true, force: true });
  }
  return report;
}

const withTab = (tabId: number | undefined) => (tabId === undefined ? {} : { tabId });

async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await probe().catch(() => false)) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Fuzzed frames on an authenticated /agent connection and fuzzed handshakes on /extension. */
async function fuzz(port: number, secrets: Secrets, o: SoakOptions, report: SoakReport): Promise<void> {
  const rnd = (n: number) => crypto.randomInt(n);
  const junk = (): string => {
    const pick = rnd(8);
    const base: Record<string, unknown> = { type: 'action', action_id: `f${rnd(1e9)}`, action: 'click', params: { element_id: 'e1' } };
    switch (pick) {
      case 0:
        return crypto.randomBytes(rnd(64) + 1).toString('latin1');
      case 1:
        return JSON.stringify({ ...base, action: ['nope', 'get_state', '__proto__', 'constructor'][rnd(4)] });
      case 2:
        return JSON.stringify({ ...base, params: { element_id: rnd(2) ? 42 : null, index: 'x' } });
      case 3:
        return JSON.stringify({ type: ['hello', 'auth_response', 'action_result', 'extension_status', 'pong'][rnd(5)], x: 'y' });
      case 4:
        return JSON.stringify({ ...base, timeout_ms: -rnd(1000) });
      case 5:
        return JSON.stringify({ ...base, tab_id: rnd(2) ? 1e12 : -1 });
      case 6:
        return '{"type":"action","action_id":' + '['.repeat(rnd(200) + 1);
      default:
        return JSON.stringify({ ...base, params: { selector: 'x'.repeat(rnd(20000)) }, __proto__: { polluted: true } });
    }
  };
  const { clientProof, bridgeProof } = await import('../../bridge/common/auth');
  const handshake = (ws: WebSocket, role: 'agent' | 'extension', secret: string) =>
    new Promise<boolean>((resolve) => {
      const cn = crypto.randomBytes(16).toString('base64');
      const timer = setTimeout(() => resolve(false), 12_000);
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as { type: string; nonce?: string; bridge_proof?: string };
        if (m.type === 'auth_challenge' && m.nonce) {
          if (m.bridge_proof !== bridgeProof(secret, cn) && secret !== 'wrong') return resolve(false);
          ws.send(JSON.stringify({ type: 'auth_response', proof: clientProof(secret, role, m.nonce, cn) }));
        } else if (m.type === 'hello_ack') {
          clearTimeout(timer);
          resolve(true);
        } else if (m.type === 'error') {
          clearTimeout(timer);
          resolve(false);
        }
      });
      ws.once('close', () => resolve(false));
      ws.send(
        JSON.stringify({
          type: 'hello',
          role,
          protocol_version: PROTOCOL_VERSION,
          client: { name: 'fuzz', version: '0' },
          capabilities: [],
          client_nonce: cn,
        }),
      );
    });
  const open = (p: string, headers: Record<string, string> = {}) =>
    new Promise<WebSocket | null>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${p}`, { headers });
      ws.once('open', () => resolve(ws));
      ws.once('error', () => resolve(null));
      ws.once('unexpected-response', () => resolve(null));
    });

  // Both endpoints at once: wrong proofs are answered slowly on purpose (rate-limit.ts).
  await Promise.all([fuzzAgent(), fuzzExtension()]);

  /** /agent: authenticated connections sending junk; every reply must be a typed protocol message. */
  async function fuzzAgent(): Promise<void> {
    let sent = 0;
    // A bridge that stops taking fuzzing connections for a minute (restarting, or refusing new
    // sessions) ends the fuzzing rather than the run: the tables report the frames sent.
    let refusedSince: number | null = null;
    while (sent < o.fuzzAgentFrames) {
      if (refusedSince !== null && Date.now() - refusedSince > 60_000) break;
      const ws = await open('/agent');
      if (!ws || !(await handshake(ws, 'agent', secrets.agent_secret))) {
        ws?.terminate();
        refusedSince ??= Date.now();
        await sleep(200); // the bridge may be restarting
        continue;
      }
      refusedSince = null;
      ws.on('message', (d) => {
        try {
          const m = JSON.parse(d.toString()) as { type?: string; error_info?: { error_code?: string } };
          if (typeof m.type !== 'string' || (m.type === 'error' && typeof m.error_info?.error_code !== 'string'))
            report.fuzz.untypedReplies++;
        } catch {
          report.fuzz.untypedReplies++;
        }
      });
      for (let i = 0; i < 15 && sent < o.fuzzAgentFrames && ws.readyState === WebSocket.OPEN; i++) {
        ws.send(junk());
        sent++;
        report.fuzz.agentFrames++;
        await sleep(2);
      }
      await sleep(50);
      ws.close(1000);
    }
  }

  /** /extension: forged Origins (refused at the upgrade) and wrong secrets with the right Origin. */
  async function fuzzExtension(): Promise<void> {
    const origin = 'chrome-extension://hlpljhaoajogiafnlkgfmcioikalboec';
    const batch: Promise<void>[] = [];
    for (let i = 0; i < o.fuzzHandshakes; i++) {
      batch.push(
        (async () => {
          report.fuzz.handshakes++;
          const forged = rnd(2) === 0;
          const ws = await open(
            '/extension',
            forged
              ? { Origin: ['http://evil.example', 'null', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop'][rnd(3)] as string }
              : { Origin: origin },
          );
          if (!ws) return;
          if (await handshake(ws, 'extension', 'wrong')) report.fuzz.handshakeAccepted++;
          ws.terminate();
        })(),
      );
      if (batch.length >= 50) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
  }
}

/** docs/RELIABILITY.md */
export function renderReport(r: SoakReport): string {
  const p = (xs: number[], q: number) => {
    const v = percentile(xs, q);
    return v === null ? 'n/a' : `${v} ms`;
  };
  const gens = [...new Set(r.memory.map((m) => m.bridgeGeneration))];
  const lastGen = gens[gens.length - 1];
  const last = r.memory.filter((m) => m.bridgeGeneration === lastGen);
  const warm = last.slice(Math.floor(last.length * 0.2));
  const base = warm[0]?.rssMb ?? null;
  const peak = warm.length ? Math.max(...warm.map((m) => m.rssMb)) : null;
  const growth = base !== null && peak !== null ? Math.round(((peak - base) / base) * 1000) / 10 : null;
  const lines = [
    '# Reliability: the fault suite',
    '',
    'Written by `npm run soak` (test/soak/fault-suite.ts; a short variant runs in `npm test` as',
    'test/soak/fault-suite.spec.ts). The real bridge (built CLI, own process), real Chromium with the built',
    'extension, agents acting at once on their own tabs while faults are injected: the service worker stopped',
    'idle and mid-action (then woken by a page load) and with no browser event at all, the bridge killed',
    "(SIGTERM and SIGKILL) and restarted on the same port while clicks settle, agents' tabs closed and reloaded",
    'under them, tabs navigated and closed under wait_for, pages that fight back (one forges the agent UI',
    'marker), fuzzed frames and handshakes.',
    '',
    `Machine: ${r.machine}; load average at the end: ${r.load}. Duration ${(r.durationMs / 1000).toFixed(1)} s.`,
    `Options: ${JSON.stringify(r.options)}`,
    '',
    '| measure | result | target |',
    '|---|---|---|',
    `| actions (answered) | ${r.actions} (${r.answered}) | |`,
    `| lost results | ${r.lost} | 0 |`,
    `| duplicated actions (page-counted clicks beyond those reported done or outcome-unknown) | ${r.duplicated} | 0 |`,
    `| false successes | ${r.falseSuccess} | 0 |`,
    `| leaked secrets (bridge secrets, the page's password, a card number, in any answer) | ${r.leaked} | 0 |`,
    `| clicks: reported done / outcome unknown / counted by the page | ${r.clicks.success} / ${r.clicks.unknown} / ${r.clicks.counted} | |`,
    `| bridge crashes | ${r.crashes} | 0 |`,
    `| worker stopped, a page opened 200 ms later -> extension back (p50 / p95, n=${r.reconnectMs.worker.length}) | ` +
      `${p(r.reconnectMs.worker, 50)} / ${p(r.reconnectMs.worker, 95)} | p95 <= 2000 ms |`,
    `| worker stopped with no browser event -> extension back (p50 / max, n=${r.reconnectMs.workerSilent.length}) | ` +
      `${p(r.reconnectMs.workerSilent, 50)} / ${p(r.reconnectMs.workerSilent, 100)} | max <= 2000 ms |`,
    `| bridge restart -> extension back (p50 / p95, n=${r.reconnectMs.bridge.length}) | ` +
      `${p(r.reconnectMs.bridge, 50)} / ${p(r.reconnectMs.bridge, 95)} | |`,
    `| bridge RSS after warm-up, last bridge process (first -> peak) | ${base ?? 'n/a'} -> ${peak ?? 'n/a'} MB ` +
      `(${growth ?? 'n/a'} %) | within 10 % |`,
    `| bridge RSS range after warm-up, last bridge process (min - max) | ` +
      `${warm.length ? Math.min(...warm.map((m) => m.rssMb)) : 'n/a'} - ${peak ?? 'n/a'} MB | |`,
    `| bridge RSS when the agents had stopped, same process | ${last.at(-1)?.rssMb ?? 'n/a'} MB | at most the first |`,
    `| fuzzed /agent frames (untyped replies) | ${r.fuzz.agentFrames} (${r.fuzz.untypedReplies}) | 0 untyped |`,
    `| fuzzed /extension handshakes (accepted) | ${r.fuzz.handshakes} (${r.fuzz.handshakeAccepted}) | 0 accepted |`,
    '',
    `Faults injected: ${
      Object.entries(r.faults)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }.`,
    `Typed errors seen (expected under faults): ${
      Object.entries(r.errorsByCode)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }.`,
    '',
    'Pages that fight back (each action answered, or LOST):',
    '',
    ...Object.entries(r.fightBack).map(([k, v]) => `- ${k}: ${v}`),
    '',
    'Bridge RSS at intervals (actions: MB, bridge process generation):',
    '',
    r.memory.map((m) => `${m.actions}: ${m.rssMb} (g${m.bridgeGeneration})`).join(', '),
    '',
  ];
  if (r.lostDetails.length) lines.push('Lost:', '', ...r.lostDetails.map((d) => `- ${d}`), '');
  if (r.falseSuccessDetails.length) lines.push('False successes:', '', ...r.falseSuccessDetails.map((d) => `- ${d}`), '');
  if (r.leakDetails.length) lines.push('Leaks:', '', ...r.leakDetails.map((d) => `- ${d}`), '');
  lines.push(
    'RSS includes heap V8 has not returned to the system yet, so it swings with garbage collection; the',
    "growth row compares the first sample after warm-up (20 % of the last process's samples) with the peak. The",
    'unit-level check (bench-free, test/unit/bridge-units.spec.ts "keeps the page state of only the newest',
    'recorded results") bounds what a session retains.',
    '',
  );
  lines.push(
    'Worker reconnects are measured from the moment the worker is stopped to `extension_status` connected at',
    'an agent, with a page opened 200 ms after the stop or with no browser event at all (the offscreen',
    'document wakes the worker); bridge reconnects from the new bridge answering /healthz to the extension',
    'connected at the bridge.',
    'A click is "outcome unknown" when its answer says the extension or page went away mid-action',
    '(EXTENSION_DISCONNECTED, TIMEOUT, NAVIGATED_AWAY, TAB_NOT_FOUND, ...) or no answer came; the page may',
    'have counted it once. A duplicate is a count above done + unknown: a click that ran twice.',
    '',
  );
  return lines.join('\n');
}
