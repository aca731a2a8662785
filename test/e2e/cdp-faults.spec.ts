// A CDP client through the bridge when things go wrong, in real Chromium with the built extension and
// real clients (puppeteer-core, playwright-core): the client vanishing mid-command, the extension's
// service worker restarting under a connected client, the person's Stop in the side panel, and
// commands reaching beyond what the client holds. What is asserted is what the person and the client
// rely on: the tab stays theirs and usable, Chrome's debugger leaves it, nothing hangs past its
// timeout, and every refusal says why.
import { spawn } from 'node:child_process';

import { expect } from 'chai';
import { chromium, type Page as PwPage } from 'playwright-core';
import type { Page } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { type Harness, useHarness } from '../harness/harness';
import { openPanel } from '../harness/panel';
import { until } from '../harness/until';
import { clearSettings, debuggerAttached, setSettings } from './worker-actions.helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Endpoint {
  /** http://127.0.0.1:P/cdp/<token> (Playwright connectOverCDP). */
  base: string;
  /** webSocketDebuggerUrl of /json/version (puppeteer browserWSEndpoint). */
  ws: string;
}

async function endpoint(h: Harness, name: string): Promise<Endpoint> {
  const { url } = mintCdpClient(h.configDir, { name, maxTabs: 3 });
  const base = url(h.bridge.port);
  const version = (await (await fetch(`${base}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  return { base, ws: version.webSocketDebuggerUrl };
}

interface SessionStatus {
  session_id: string;
  connected: boolean;
  client: { name: string } | null;
  tabs: { tab_id: number }[];
}

const sessions = (h: Harness) => h.bridge.status()['sessions'] as SessionStatus[];
const sessionOf = (h: Harness, clientName: string) => sessions(h).find((s) => s.client?.name === clientName);
/** Who holds the tab, by client name, or null. */
const holderOf = (h: Harness, tabId: number) => sessions(h).find((s) => s.tabs.some((t) => t.tab_id === tabId))?.client?.name ?? null;

/** Bridge log lines at ERROR level written while fn runs (the harness logs to stderr). */
async function errorLines<T>(fn: () => Promise<T>): Promise<{ value: T; errors: string[] }> {
  const errors: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    if (/ ERROR /.test(text)) errors.push(text.trim());
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), errors };
  } finally {
    process.stderr.write = write;
  }
}

/** Every text in the page, closed shadow roots included (the overlay lives in one). */
async function allText(page: Page): Promise<string> {
  const session = await page.createCDPSession();
  try {
    const { root } = await session.send('DOM.getDocument', { depth: -1, pierce: true });
    const out: string[] = [];
    type Node = { nodeType: number; nodeValue: string; children?: Node[]; shadowRoots?: Node[]; contentDocument?: Node };
    const walk = (n: Node) => {
      if (n.nodeType === 3) out.push(n.nodeValue);
      for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) walk(c);
    };
    walk(root as unknown as Node);
    return out.join(' ');
  } finally {
    await session.detach();
  }
}

// The worker restart first and alone in its browser: once puppeteer has opened a session on the
// worker (the settings and debugger helpers below do), a worker stopped from outside does not start
// again while that session lives.
describe('e2e: CDP faults: the service worker restarts under a connected client', function () {
  this.timeout(120_000);
  let h: Harness;
  useHarness((started) => (h = started));

  it('commands sent during the outage all answer within their timeout; the page is reported closed and the same tab comes back as a new page that works', async () => {
    const url = h.fixtures.html('/faults-restart', '<h1>Restart</h1>', 'Restart page');
    await h.openPage(url);
    const ep = await endpoint(h, 'restarter');
    const browser = await chromium.connectOverCDP(ep.base);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages().find((p) => p.url() === url);
      if (!page)
        throw new Error(
          `the handed-over tab is not among ${context
            .pages()
            .map((p) => p.url())
            .join(', ')}`,
        );
      expect(await page.evaluate(() => 1 + 1)).to.equal(2);
      // A raw CDP session on the same page: Playwright's page.evaluate words every protocol error as
      // "Execution context was destroyed", a CDPSession passes the endpoint's message through.
      const raw = await context.newCDPSession(page);
      expect(await raw.send('Runtime.evaluate', { expression: '20 + 1', returnByValue: true })).to.deep.include({
        result: { type: 'number', value: 21, description: '21' },
      });
      const closedAt = new Promise<number>((r) => page.once('close', () => r(Date.now())));
      const comesBack = context.waitForEvent('page', { predicate: (p) => p.url() === url, timeout: 20_000 });

      const cdp = await h.launched.browser.target().createCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets');
      const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'));
      if (!sw) throw new Error('no extension service worker target');
      const down = new Promise((r) => h.bridge.once('extension-disconnected', r));
      const stoppedAt = Date.now();
      // Stopped as Chrome stops an idle worker: its attachments' bookkeeping goes with it.
      await cdp.send('Target.closeTarget', { targetId: sw.targetId });
      await cdp.detach();

      // Commands sent while the worker is gone and coming back: each answers (a result or an error
      // that says why) within its budget, none hangs.
      const BUDGET_MS = 10_000;
      const one = async (after: number, via: 'page' | 'raw') => {
        await sleep(after);
        const t0 = Date.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const command =
          via === 'page'
            ? page.evaluate(() => 1 + 1)
            : raw.send('Runtime.evaluate', { expression: '1 + 1', returnByValue: true }).then((r) => r.result.value as unknown);
        const outcome = await Promise.race([
          command.then(
            (v) => ({ ok: true as const, value: v }),
            (e: unknown) => ({ ok: false as const, error: e instanceof Error ? e.message : String(e) }),
          ),
          new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), BUDGET_MS))),
        ]);
        clearTimeout(timer);
        return { via, sentAfterStopMs: t0 - stoppedAt, answeredInMs: Date.now() - t0, outcome };
      };
      const answers = await Promise.all([0, 100, 250, 500, 1000, 2000].flatMap((after) => [one(after, 'page'), one(after, 'raw')]));
      await down;
      console.log(
        `      outage answers (sent after stop ms -> answered in ms): ${answers.map((a) => `${a.via} ${a.sentAfterStopMs}->${a.answeredInMs}`).join(', ')}`,
      );
      console.log(
        `      outage outcomes: ${answers.map((a) => (a.outcome === 'hung' ? 'hung' : a.outcome.ok ? `ok ${String(a.outcome.value)}` : a.outcome.error.split('\n')[0])).join(' | ')}`,
      );
      const errors: string[] = [];
      for (const a of answers) {
        expect(a.outcome, `a command sent ${a.sentAfterStopMs} ms after the stop hung`).to.not.equal('hung');
        if (a.outcome !== 'hung' && !a.outcome.ok) errors.push(`${a.via}: ${a.outcome.error}`);
      }
      // Those that reached the restarted worker before the client heard its page was gone say why.
      expect(
        errors.some((e) => e.startsWith('raw:') && e.includes("the extension's service worker restarted")),
        errors.join('\n'),
      ).to.equal(true);

      const closed = await Promise.race([closedAt, sleep(15_000).then(() => -1)]);
      expect(closed, 'the old page was never reported closed').to.not.equal(-1);
      console.log(`      page reported closed ${closed - stoppedAt} ms after the worker stopped`);
      // The tab is still the client's: it comes back as a new page (its old session's domains and
      // scripts are gone with the old attachment, so it is a fresh page for the client).
      const again: PwPage = await comesBack;
      expect(await again.evaluate(() => document.title)).to.equal('Restart page');
      expect(await again.evaluate(() => 2 + 3)).to.equal(5);
      // And the client can go on in a page of its own.
      const other = await context.newPage();
      await other.goto(h.fixtures.html('/faults-restart-2', '<p>two</p>', 'Second'));
      expect(await other.title()).to.equal('Second');
    } finally {
      await browser.close();
    }
  });
});

describe('e2e: CDP faults', function () {
  this.timeout(120_000);
  let h: Harness;
  useHarness((started) => (h = started));

  it('the client vanishing mid-command: within 2 s the lease is released, the debugger leaves the tab, and another agent acts on the open tab; nothing logged at ERROR', async () => {
    const url = h.fixtures.html('/faults-vanish', '<h1>Vanish</h1>', 'Vanish page');
    const person = await h.openPage(url);
    const ep = await endpoint(h, 'vanisher');
    // A real client in its own process, killed as a crashed or interrupted program is (no close frame).
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import puppeteer from 'puppeteer-core';
         console.log('CONNECTING');
         const browser = await puppeteer.connect({ browserWSEndpoint: process.env.BUX_WS, defaultViewport: null });
         console.log('CONNECTED');
         const pages = await browser.pages();
         const page = pages.find((p) => p.url() === process.env.BUX_PAGE);
         if (!page) { console.log('NO PAGE among', pages.map((p) => p.url())); process.exit(1); }
         console.log('READY', await page.evaluate('1 + 1'));
         page.evaluate('new Promise(() => {})').catch(() => undefined);
         console.log('RUNNING');`,
      ],
      {
        cwd: process.cwd(),
        // puppeteer's protocol log (stderr) shows which command went unanswered should the client stall.
        env: { ...process.env, BUX_WS: ep.ws, BUX_PAGE: url, DEBUG: 'puppeteer:protocol:*' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (out += String(d)));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await until('the client process started its long command', 20_000, () => out.includes('RUNNING')).catch((e: Error) => {
        // The client's own output (its protocol log included) read when the wait ends, not when it starts.
        throw new Error(`${e.message}; the client (exit code ${String(child.exitCode)}) printed:\n${out.slice(-6000)}`);
      });
      const tabId = await until('the client holds a tab', 5000, () => sessionOf(h, 'cdp:vanisher')?.tabs[0]?.tab_id);
      // The long Runtime.evaluate is in flight in the bridge.
      await until('a command in flight', 5000, () => (h.bridge.status()['in_flight_actions'] as number) >= 1);
      expect(await debuggerAttached(h, tabId), 'attached while the client runs').to.equal(true);

      const { value: timings, errors } = await errorLines(async () => {
        const killedAt = Date.now();
        child.kill('SIGKILL');
        await exited;
        await until('the lease released', 5000, () => holderOf(h, tabId) !== 'cdp:vanisher');
        const released = Date.now() - killedAt;
        await until('the debugger left the tab', 5000, async () => !(await debuggerAttached(h, tabId)));
        const detached = Date.now() - killedAt;
        // Another agent leases the tab and acts on it.
        const agent = await h.connectAgent();
        const state = await until('another agent acts on the tab', 5000, async () => {
          const r = await agent.call('get_state', {}, { tabId });
          return r.status === 'success' ? r : null;
        });
        const actedOn = Date.now() - killedAt;
        expect(state.new_simplified_state?.title).to.equal('Vanish page');
        await agent.close();
        await sleep(500); // anything logged late about the dead connection
        return { released, detached, actedOn };
      });
      console.log(
        `      after the kill: lease released ${timings.released} ms, debugger gone ${timings.detached} ms, another agent acted ${timings.actedOn} ms`,
      );
      expect(timings.actedOn, 'another agent acted on the tab within 2 s of the kill').to.be.below(2000);
      expect(errors, 'bridge log lines at ERROR level').to.deep.equal([]);
      // The person's tab is open and works.
      expect(person.isClosed()).to.equal(false);
      expect(await person.evaluate(() => document.querySelector('h1')?.textContent)).to.equal('Vanish');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('the side panel\'s Stop ends a Playwright client within 1 s: its page is reported closed, the next command fails saying the person stopped it; the tab group names it "<name> (CDP client)", the page shows no bar', async () => {
    const url = h.fixtures.html('/faults-stop', '<h1>Stop me</h1>', 'Stop page');
    const person = await h.openPage(url);
    const ep = await endpoint(h, 'stopper');
    const browser = await chromium.connectOverCDP(ep.base);
    const panel = await openPanel(h.launched.browser);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages().find((p) => p.url() === url);
      if (!page) throw new Error('the handed-over tab is not among the pages');
      expect(await page.evaluate(() => 2 * 21)).to.equal(42);
      const session = await until('the client session', 5000, () => sessionOf(h, 'cdp:stopper'));
      const tabId = session.tabs[0]!.tab_id;

      // The person sees who controls the tab by the name they gave the URL: in the tab strip, not in
      // the page, where the client would read it as Chrome's own endpoint never shows it.
      const group = await until('the tab group', 10_000, () =>
        panel.evaluate(async (id) => {
          const tab = await chrome.tabs.get(id);
          return tab.groupId === -1 ? null : ((await chrome.tabGroups.get(tab.groupId)).title ?? null);
        }, tabId),
      );
      expect(group).to.equal('Agent: stopper (CDP client)');
      expect(await allText(person), 'our bar in the page').to.not.include('Agent is controlling this tab');

      const stop = `#agent-list > li[data-session-id="${session.session_id}"] .agent button`;
      await panel.waitForSelector(stop, { visible: true, timeout: 10_000 });
      const closedAt = new Promise<number>((r) => page.once('close', () => r(Date.now())));
      const clickedAt = Date.now();
      await panel.click(stop);
      const closed = await Promise.race([closedAt, sleep(5000).then(() => -1)]);
      expect(closed, 'the client never saw its page closed').to.not.equal(-1);
      console.log(`      Stop click -> the client sees its page closed: ${closed - clickedAt} ms`);
      expect(closed - clickedAt, 'the client saw the Stop within 1 s').to.be.below(1000);
      expect(page.isClosed()).to.equal(true);
      const next = await context.newPage().then(
        () => 'opened',
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      expect(next).to.contain('The person stopped this client in the browser; it no longer drives their browser');
      expect(next).to.contain('this URL is refused until the person allows it again in the browser-use-ext side panel');
      expect(holderOf(h, tabId), 'the tab is no longer held').to.equal(null);
      expect(person.isClosed(), 'the tab stays open for the person').to.equal(false);
      // Stop is final for the URL: the same client connecting again is refused, and Playwright prints why.
      const tAgain = Date.now();
      const again = await chromium.connectOverCDP(ep.ws, { timeout: 10_000 }).then(
        async (b) => (await b.close(), 'connected'),
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      console.log(`      reconnect refused in ${Date.now() - tAgain} ms`);
      expect(again).to.contain('the person stopped this client: "Allow again" in the side panel, or make a new URL');
      expect(holderOf(h, tabId), 'the tab was not handed back').to.equal(null);
    } finally {
      await panel.close();
      await browser.close();
    }
  });

  it("commands beyond the lease get a CDP error that says why: another agent's tab, the profile's cookies, a blocked site (which opens no tab)", async () => {
    // Another agent holds a tab on 127.0.0.1 with a cookie of its site.
    const theirs = await h.openPage(h.fixtures.html('/faults-theirs', '<p>theirs</p>', 'Theirs'));
    await theirs.evaluate(() => (document.cookie = 'theirs=secret-value; path=/'));
    const other = await h.connectAgent();
    const held = await other.call('get_state', {});
    expect(held.status, JSON.stringify(held.error_info)).to.equal('success');
    const info = await theirs.createCDPSession();
    const theirTarget = (await info.send('Target.getTargetInfo')).targetInfo.targetId;
    await info.detach();

    const ep = await endpoint(h, 'prober');
    const browser = await puppeteer.connect({ browserWSEndpoint: ep.ws, defaultViewport: null });
    try {
      // Its own tab on localhost, with a cookie of that site.
      const mine = await browser.newPage();
      await mine.goto(h.fixtures.url('/faults-theirs').replace('127.0.0.1', 'localhost'));
      await mine.evaluate(() => (document.cookie = 'mine=1; path=/'));
      const session = await browser.target().createCDPSession();
      const refusal = (p: Promise<unknown>) =>
        p.then(
          () => 'answered',
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        );

      expect(await refusal(session.send('Target.attachToTarget', { targetId: theirTarget, flatten: true }))).to.match(
        /No target with given id found.*held by another client or agent/,
      );
      // The cookies this client reads are those of its own pages, never the profile's.
      const cookies = await browser.cookies();
      expect(cookies.map((c) => c.name)).to.include('mine');
      expect(cookies.map((c) => c.name)).to.not.include('theirs');
      expect(await refusal(session.send('Storage.clearCookies'))).to.contain("browser-level cookies are the person's whole profile");
      const page = await mine.createCDPSession();
      expect(await refusal(page.send('Network.getAllCookies'))).to.contain("it reads the cookies of the person's whole profile");
      await page.detach();

      await setSettings(h, { blocked_domains: ['blocked.invalid'] });
      try {
        const before = (await h.launched.browser.pages()).length;
        const blocked = await refusal(session.send('Target.createTarget', { url: 'http://blocked.invalid/x' }));
        expect(blocked)
          .to.match(/blocked\.invalid/)
          .and.match(/block/i);
        await sleep(500);
        expect((await h.launched.browser.pages()).length, 'a blocked createTarget opened a tab').to.equal(before);
      } finally {
        await clearSettings(h, ['blocked_domains']);
      }
      const theirTab = held.tab_id as number;
      expect(
        sessions(h).find((s) => s.tabs.some((t) => t.tab_id === theirTab))?.session_id,
        "the other agent's tab stays its own",
      ).to.equal(other.sessionId);
    } finally {
      await browser.disconnect();
      await other.close();
    }
  });
});
