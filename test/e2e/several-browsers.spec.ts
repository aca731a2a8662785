// Two browsers on one bridge, as a person with a work and a personal profile has them: two Chromium
// instances with their own profile folders and the built extension, both paired with one bridge. A
// is the second one (it can be killed and started again on its profile); B is the harness's own.
// What a person relies on: each agent works in the browser it named (or, naming none, the one they
// used last, and is told which), tabs of one browser never reach an agent of the other (checked from
// each browser's own chrome.tabs, since both number their tabs alike), Stop in one browser's panel
// stops that browser's agents only, one browser's crash leaves the other's agents undisturbed, and a
// profile that is not paired still gets no connection. Each failure names the point that broke.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { BrowserInfo, ExtensionStatusMessage } from '../../schemas/generated/protocol';
import { REPO_ROOT } from '../harness/browser';
import { type Bu013Result, runBu013ShopTask } from '../harness/bu013';
import { type ClassicReport, startClassicAgent } from '../harness/classic-agent';
import { FixtureServer } from '../harness/fixture-server';
import { type Harness, startHarness } from '../harness/harness';
import { BUILT_CLI, callTool, connectStdioClient } from '../harness/mcp-clients';
import {
  connectionStateOf,
  ExtraBrowser,
  launchPairedBrowser,
  openWindow,
  type OwnTab,
  readStatus,
  statusBrowsers,
  type StatusSession,
  tabsOf,
  waitForBrowser,
} from '../harness/more-browsers';
import { artifactShot, openPanel } from '../harness/panel';
import { ScriptedLlm } from '../harness/scripted-llm';
import { until } from '../harness/until';

const SHOP_FIXTURES = path.join(REPO_ROOT, 'python-shim-spec', 'tests', 'fixtures');

/** `browser-use-ext cdp-url --browser NAME` as a person runs it: the URL alone on stdout. */
async function mintCdpUrl(h: Harness, name: string, browser: string): Promise<string> {
  const args = [BUILT_CLI, 'cdp-url', '--name', name, '--tabs', '2', '--browser', browser, '--config-dir', h.configDir];
  const child = spawn(process.execPath, [...args, '--bridge-url', `http://127.0.0.1:${h.bridge.port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('close', r));
  expect(code, `contract: \`cdp-url --browser ${browser}\` mints a URL bound to that browser; it said:\n${err}`).to.equal(0);
  return out.trim();
}

/**
 * One fresh about:blank window in front of this browser, every other page closed: the tab its next
 * agent is handed (a new window, since that is what headless Chromium reports as focused).
 */
async function onlyFreshTab(browser: Browser): Promise<Page> {
  const page = await openWindow(browser, 'about:blank');
  for (const p of await browser.pages()) if (p !== page) await p.close();
  return page;
}

const nameOf = (b: BrowserInfo | undefined) => b?.name;

/** The agent opens a tab of its own at url (open_tab needs no tab in front); it must be in `browser`, by its own account. */
async function ownTab(agent: AgentClient, browser: Browser, url: string, who: string): Promise<number> {
  const r = await agent.call('open_tab', { url });
  expect(r.status, `${who}: open_tab ${JSON.stringify(r.error_info)}`).to.equal('success');
  const tabId = r.outcome_details?.new_tab_id ?? r.tab_id;
  expect((await tabsOf(browser)).find((t) => t.id === tabId)?.url, `${who}: tab ${tabId} in its browser's own chrome.tabs`).to.equal(url);
  return tabId!;
}

describe('e2e: several browsers on one bridge', function () {
  this.timeout(240_000);
  let h: Harness;
  let extraA: ExtraBrowser | undefined;
  let a: BrowserInfo;
  let b: BrowserInfo;
  const browserA = () => extraA!.browser;
  const browserB = () => h.launched.browser;
  const agents: AgentClient[] = [];
  let mcp: Client | undefined;
  let mcpSession: string | undefined;

  before(async function () {
    this.timeout(90_000);
    h = await startHarness();
    b = await waitForBrowser(h, 'the first browser (B) connected', (list) =>
      list.length === 1 && list[0]?.connected ? list[0] : undefined,
    );
    const second = await launchPairedBrowser(h);
    extraA = second.extra;
    a = second.info;
  });
  after(async () => {
    await mcp?.close().catch(() => undefined);
    await Promise.all(agents.map((x) => x.close().catch(() => undefined)));
    await extraA?.close();
    await h?.close();
  });

  async function agentIn(browser: string | undefined): Promise<AgentClient> {
    const agent = await h.connectAgent(browser === undefined ? {} : { browser });
    agents.push(agent);
    return agent;
  }

  it('lists both browsers in /status, each connected with its own id, name, brand and version', async () => {
    const list = await statusBrowsers(h);
    expect(list.map((x) => x.browser_id).sort(), 'contract: /status.browsers holds both browsers').to.deep.equal(
      [a.browser_id, b.browser_id].sort(),
    );
    for (const x of list) {
      expect(x.connected, `${x.name} connected`).to.equal(true);
      expect(x.brand, `contract: hello.browser.brand of ${x.name}`).to.be.a('string').and.not.equal('');
      expect(x.product, `contract: BrowserInfo.product of ${x.name}`).to.match(/^Chrome\/\d+\.\d+\.\d+\.\d+$/);
    }
    expect(a.name.toLowerCase(), 'contract: names are unique case-insensitively (the second gets "<name> 2")').to.not.equal(
      b.name.toLowerCase(),
    );
    // The old readers' field stays.
    const old = (await readStatus(h)).extension as { connected?: boolean } | undefined;
    expect(old?.connected, 'contract: /status.extension stays for old readers, connected when any browser is').to.equal(true);
  });

  it('a browser name that is not connected: the session opens, and each action fails BROWSER_NOT_CONNECTED listing the connected names', async () => {
    const agent = await agentIn('Nobody Here');
    expect(agent.hello?.browser, 'contract: hello_ack.browser is absent for a name no browser has').to.equal(undefined);
    const r = await agent.call('get_state', {}, { timeoutMs: 5000 });
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal('BROWSER_NOT_CONNECTED');
    const connected = r.error_info?.details?.['connected'];
    expect(connected, 'contract: details.connected lists the connected names').to.have.members([a.name, b.name]);
    const message = r.error_info?.message ?? '';
    for (const n of [a.name, b.name, 'Nobody Here']) expect(message, 'the message names each browser').to.contain(`"${n}"`);
    expect(message, 'the message says how to choose').to.match(/--browser|BROWSER_USE_EXT_BROWSER/);
    await agent.close();
  });

  it('an agent naming no browser works in the one the person used last, and hello_ack.browser says which', async () => {
    // Headless Chromium fires chrome.windows.onFocusChanged only for a new window (bringToFront fires
    // none), so the person "uses" a browser here by opening a window in it.
    const lastUsed = async (browser: Browser, which: BrowserInfo, other: BrowserInfo): Promise<void> => {
      const page = await openWindow(browser, h.fixtures.html(`/last-used-${which.name}`, `<p>${which.name}</p>`, 'Last used'));
      await waitForBrowser(
        h,
        `${which.name} as the browser used last (browser_update.focused_at after a window got focus)`,
        (list) => {
          const mine = list.find((x) => x.browser_id === which.browser_id);
          const theirs = list.find((x) => x.browser_id === other.browser_id);
          return (mine?.last_focused_at ?? 0) > (theirs?.last_focused_at ?? 0) ? mine : undefined;
        },
        10_000,
      );
      const agent = await agentIn(undefined);
      expect(nameOf(agent.hello?.browser), 'contract: hello_ack.browser is the browser used last').to.equal(which.name);
      expect(
        (agent.hello?.browsers ?? []).map((x) => x.name),
        'contract: hello_ack.browsers lists both',
      ).to.have.members([a.name, b.name]);
      const r = await agent.call('get_state', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      // Its tab is that browser's new window, by the browser's own account.
      const own = (await tabsOf(browser)).find((t) => t.id === r.tab_id);
      expect(own?.url, `tab ${r.tab_id} in ${which.name}'s own chrome.tabs`).to.equal(page.url());
      await agent.close();
      await page.close();
    };
    await lastUsed(browserB(), b, a);
    await lastUsed(browserA(), a, b);
  });

  it('browser_use 0.1.48 in A and browser_use 0.13 over a URL minted for B reach done at the same time; an MCP client picks A by name; nothing crosses', async () => {
    const shops = await Promise.all([0, 1, 2].map(() => new FixtureServer(SHOP_FIXTURES).start()));
    const [classicOrigin, cdpOrigin, mcpOrigin] = shops.map((s) => new URL(s.url('/')).origin) as [string, string, string];
    const llm = await new ScriptedLlm('shop013').start();
    let classic: ReturnType<typeof startClassicAgent> | undefined;
    let watching = true;
    let watcher: Promise<void> = Promise.resolve();
    const samples: { sessions: StatusSession[]; tabsA: OwnTab[]; tabsB: OwnTab[]; listed: { url: string }[] }[] = [];
    try {
      const cdpUrl = await mintCdpUrl(h, 'in-b', b.name);
      const version = (await (await fetch(`${cdpUrl}/json/version`)).json()) as { Browser?: string };
      expect(version.Browser, "contract: /json/version names the URL's browser's product").to.equal(b.product);
      // Whose is each session, and which browser /status says it works in.
      const whose = (s: StatusSession) =>
        s.client?.name === 'cdp:in-b'
          ? 'cdp'
          : s.client?.name === 'browser-use-ext-python'
            ? 'classic'
            : s.client?.name?.startsWith('mcp:in-a')
              ? 'mcp'
              : null;
      const holders = (sessions: StatusSession[]) =>
        new Set(
          sessions
            .filter((x) => x.tabs.length > 0)
            .map(whose)
            .filter((w) => w !== null),
        );
      watcher = (async () => {
        while (watching) {
          const [status, tabsA, tabsB, listed] = await Promise.all([
            readStatus(h),
            tabsOf(browserA()),
            tabsOf(browserB()),
            fetch(`${cdpUrl}/json/list`).then(async (r) => (await r.json()) as { url: string }[]),
          ]);
          samples.push({ sessions: status.sessions, tabsA, tabsB, listed });
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      // Each agent is handed the tab in front of its own browser: a fresh window in each. Then all three
      // start at once (Python imports and a Node process take seconds); each browser_use agent's model
      // pauses on the results page until all three hold tabs, so their work overlaps for sure.
      await Promise.all([onlyFreshTab(browserA()), onlyFreshTab(browserB())]);
      await llm.holdOn('results.html');
      const classicAgent = startClassicAgent(h, classicOrigin, { browserName: a.name });
      classic = classicAgent;
      const classicDone = classicAgent.done.then(
        (report) => ({ report, error: null }),
        (error: unknown) => ({ report: null as ClassicReport | null, error }),
      );
      const buOut = runBu013ShopTask({ cdpUrl, llmBaseUrl: llm.baseUrl, shopUrl: `${cdpOrigin}/shop/`, timeoutMs: 150_000 }).then(
        (r) => ({ r, error: null }),
        (error: unknown) => ({ r: null as Bu013Result | null, error }),
      );
      // The MCP client names A in other letters: names compare case-insensitively.
      const client = await connectStdioClient({
        agentUrl: h.bridge.agentUrl,
        agentSecret: h.secrets.agent_secret,
        name: 'in-a',
        browser: a.name.toUpperCase(),
      });
      mcp = client;
      await classicAgent.ready;
      classicAgent.go();
      await Promise.race([
        Promise.all([classicAgent.held, llm.waitHeld(120_000)]),
        classicDone.then((o) => {
          throw o.error ?? new Error('the classic agent ended before it reached the results page');
        }),
        buOut.then((o) => {
          throw o.error ?? new Error(`browser_use 0.13 ended before it reached the results page: ${o.r?.output.slice(-3000)}`);
        }),
      ]);
      const opened = await callTool(client, 'browser_tabs', { action: 'new', url: `${mcpOrigin}/shop/index.html` });
      expect(opened.isError, opened.text).to.equal(false);
      mcpSession = (await readStatus(h)).sessions.find((s) => s.client?.name?.startsWith('mcp:in-a'))?.session_id;
      await until('the three agents to hold tabs at once (sampled from /status)', 20_000, () =>
        samples.some((x) => holders(x.sessions).size === 3),
      );
      await llm.release();
      classicAgent.release();
      let othersDone = false;
      const both = Promise.all([buOut, classicDone]).finally(() => (othersDone = true));
      const mcpWork = (async () => {
        const calls = [
          await callTool(client, 'browser_navigate', { url: `${mcpOrigin}/shop/results.html?q=pen` }),
          await callTool(client, 'browser_click', { role: 'button', name: 'Add Blue Ballpoint Pen (10 pack) to cart', exact: true }),
          await callTool(client, 'browser_navigate', { url: `${mcpOrigin}/shop/cart.html` }),
        ];
        const reads = [await callTool(client, 'browser_extract_text')];
        while (!othersDone) {
          await new Promise((r) => setTimeout(r, 400));
          reads.push(await callTool(client, 'browser_extract_text'));
        }
        return { calls, reads };
      })();
      const [[cdpOut, classicOut], mcpOut] = await Promise.all([both, mcpWork]);
      watching = false;
      await watcher;

      // Each reached done, in its own shop.
      if (!cdpOut.r) throw cdpOut.error;
      const r = cdpOut.r;
      const why = `${r.error ?? ''}\n${r.output.slice(-4000)}`;
      expect(r.done, why).to.equal(true);
      expect(r.success, why).to.equal(true);
      expect(r.final_result, why).to.equal('Cart: Mini Stapler - $3.99');
      expect(
        r.urls_visited.every((u) => u.startsWith(`${cdpOrigin}/`) || u === 'about:blank'),
        r.urls_visited.join('\n'),
      ).to.equal(true);
      if (!classicOut.report) throw classicOut.error;
      expect(classicOut.report.final_result, classic.output.slice(-40).join('\n')).to.equal('Mini Stapler - $3.99');
      expect(classicOut.report.errors).to.deep.equal([]);
      const classicUrls = classicOut.report.urls.filter((u) => u !== 'about:blank');
      expect(classicUrls.length).to.be.above(2);
      expect(
        classicUrls.every((u) => u.startsWith(`${classicOrigin}/`)),
        classicUrls.join('\n'),
      ).to.equal(true);
      for (const c of mcpOut.calls) expect(c.isError, c.text).to.equal(false);
      for (const read of mcpOut.reads) expect(read.text).to.contain('Blue Ballpoint Pen (10 pack) - $2.49').and.not.contain('Stapler');

      const expected = {
        cdp: { origin: cdpOrigin, browser: b },
        classic: { origin: classicOrigin, browser: a },
        mcp: { origin: mcpOrigin, browser: a },
      };
      let together = 0;
      const holder = new Map<string, string>();
      for (const sample of samples) {
        // From each browser's own ground truth: no page of one browser's agents ever opened in the other.
        for (const t of sample.tabsA)
          expect(t.url.startsWith(`${cdpOrigin}/`), `A's own tab ${t.id} showed B's agent's page ${t.url}`).to.equal(false);
        for (const t of sample.tabsB)
          expect(
            t.url.startsWith(`${classicOrigin}/`) || t.url.startsWith(`${mcpOrigin}/`),
            `B's own tab ${t.id} showed an A agent's page ${t.url}`,
          ).to.equal(false);
        // The CDP client in B never saw a target of A.
        for (const t of sample.listed)
          expect(t.url === 'about:blank' || t.url.startsWith(`${cdpOrigin}/`), `/json/list of B's URL listed ${t.url}`).to.equal(true);
        const holding = new Set<string>();
        for (const s of sample.sessions) {
          const who = whose(s);
          if (!who) continue;
          expect(s.browser, `contract: /status names the browser of session ${who}`).to.equal(expected[who].browser.name);
          const own = who === 'cdp' ? sample.tabsB : sample.tabsA;
          for (const t of s.tabs) {
            holding.add(who);
            // No tab ever changed hands (tab ids are per browser: keyed with it).
            const key = `${s.browser ?? '?'}/${t.tab_id}`;
            expect(holder.get(key) ?? who, `tab ${key} changed hands`).to.equal(who);
            holder.set(key, who);
            if (t.url && t.url !== 'about:blank')
              expect(t.url.startsWith(`${expected[who].origin}/`), `/status: ${who} held ${t.url}`).to.equal(true);
            // The tab id it holds is a tab of its own browser showing its own pages (or still loading them).
            const mine = own.find((x) => x.id === t.tab_id);
            if (mine && mine.url !== 'about:blank')
              expect(
                mine.url.startsWith(`${expected[who].origin}/`),
                `${who} holds tab ${t.tab_id}: in its browser that is ${mine.url}`,
              ).to.equal(true);
          }
        }
        if (holding.size === 3) together++;
      }
      expect(together, 'the three agents never held tabs at the same time').to.be.above(0);
      // At the end, from the browsers themselves: each shop's pages are in its agent's browser only.
      const [finalA, finalB] = await Promise.all([tabsOf(browserA()), tabsOf(browserB())]);
      expect(finalA.map((t) => t.url)).to.include.members([`${classicOrigin}/shop/cart.html`, `${mcpOrigin}/shop/cart.html`]);
      expect(finalB.map((t) => t.url)).to.include(`${cdpOrigin}/shop/cart.html`);
      const shared = finalA.filter((t) => finalB.some((u) => u.id === t.id)).map((t) => t.id);
      console.log(
        `      ${samples.length} samples, ${together} with all three holding tabs; tab ids both browsers use: ${shared.join(', ') || 'none'}`,
      );
    } finally {
      watching = false;
      await watcher.catch(() => undefined);
      classic?.kill();
      await llm.close();
      await Promise.all(shops.map((s) => s.close()));
    }
  });

  it('a tab id of B named by an agent of A reaches no tab of B', async () => {
    const pageB = await openWindow(browserB(), h.fixtures.html('/b-only', '<p>B only</p>', 'B only'));
    const agentA = await agentIn(a.name);
    const idsA = new Set((await tabsOf(browserA())).map((t) => t.id));
    const tabB = (await tabsOf(browserB())).find((t) => t.url === pageB.url());
    expect(tabB, "the page in B's own chrome.tabs").to.not.equal(undefined);
    const r = await agentA.call('navigate', { url: h.fixtures.html('/from-a', '<p>from A</p>') }, { tabId: tabB!.id, timeoutMs: 5000 });
    if (!idsA.has(tabB!.id)) expect(r.status, `tab ${tabB!.id} is no tab of A`).to.equal('error');
    expect(pageB.url(), "B's tab is untouched").to.equal(h.fixtures.url('/b-only'));
    expect(
      (await tabsOf(browserB())).some((t) => t.url.includes('/from-a')),
      'nothing of A opened in B',
    ).to.equal(false);
    await agentA.close();
    await pageB.close();
  });

  it("Stop in A's panel stops A's agents only; B's agents go on", async () => {
    const agentA = await agentIn(a.name);
    await ownTab(agentA, browserA(), h.fixtures.html('/a-stop', '<p>A</p>', 'A stop'), "A's agent");
    const agentB = await agentIn(b.name);
    const tabB = await ownTab(agentB, browserB(), h.fixtures.html('/b-stop', '<p>B</p>', 'B stop'), "B's agent");
    const panel = await openPanel(browserA());
    try {
      const listed = () =>
        panel.evaluate(() => [...document.querySelectorAll<HTMLElement>('#agent-list > li')].map((li) => li.dataset['sessionId'] ?? ''));
      await until("A's panel to list A's agent", 15_000, async () => (await listed()).includes(agentA.sessionId!));
      expect(await listed(), "contract: A's panel lists only A's agents").to.not.include(agentB.sessionId);
      // One line names the other connected browser (agent_sessions.other_browsers).
      const escaped = b.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      await until(`A's panel to say "Also connected: ${b.name}"`, 10_000, () =>
        panel.evaluate((re) => new RegExp(re).test(document.body.innerText), `Also connected:[^\\n]*\\b${escaped}\\b`),
      );
      await artifactShot('several-browsers', panel, 'panel-two-browsers');
      // A's panel asking the bridge to stop B's agent (a forged request: the panel never shows it) changes nothing.
      await panel.evaluate(
        (sid) =>
          (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime
            .sendMessage({ bux: 'panel', op: 'disconnect_agent', session_id: sid })
            .catch(() => undefined),
        agentB.sessionId,
      );
      const aIds = [agentA.sessionId!, ...(mcpSession ? [mcpSession] : [])];
      // Each Disconnect is clicked in one step in the page: the list is drawn again whenever the bridge
      // sends agent_sessions (the first Disconnect does), which would detach a button found earlier.
      for (const sid of aIds)
        await until(`Disconnect of ${sid} in A's panel`, 10_000, () =>
          panel.evaluate((sel) => {
            const button = document.querySelector<HTMLButtonElement>(sel);
            button?.click();
            return button !== null;
          }, `#agent-list > li[data-session-id="${sid}"] .agent button`),
        );
      await until("A's agent to be ended by the person's Stop", 10_000, () => agentA.ended);
      expect(agentA.ended?.code).to.equal('NOT_PERMITTED');
      // Each Disconnect is its own request: the last one may still be on its way when the first agent ends.
      await until('every session of A to hold no tab', 10_000, async () => {
        const now = (await readStatus(h)).sessions;
        return aIds.every((sid) => (now.find((s) => s.session_id === sid)?.tabs ?? []).length === 0);
      });
      const sessions = (await readStatus(h)).sessions;
      if (mcp) {
        const read = await callTool(mcp, 'browser_extract_text').catch((e: unknown) => ({ isError: true, text: String(e) }));
        expect(read.isError, "A's MCP client is stopped too").to.equal(true);
      }
      // B's agent goes on, on the same tab.
      const again = await agentB.call('get_state', {}, { tabId: tabB });
      expect(again.status, `B's agent after Stop in A: ${JSON.stringify(again.error_info)}`).to.equal('success');
      expect(sessions.find((s) => s.session_id === agentB.sessionId)?.connected, "B's agent is still connected").to.equal(true);
    } finally {
      await panel.close();
    }
  });

  it("A's browser crashes and restarts: B is undisturbed, A's agents get the documented error while it is away and go on when it is back", async () => {
    const agentA = await agentIn(a.name);
    await ownTab(agentA, browserA(), h.fixtures.html('/a-restart', '<p>A</p>', 'A restart'), "A's agent");
    const agentB = await agentIn(b.name);
    const tabB = await ownTab(agentB, browserB(), h.fixtures.html('/b-restart', '<p>B</p>', 'B restart'), "B's agent");
    const heardA: ExtensionStatusMessage[] = [];
    const heardB: ExtensionStatusMessage[] = [];
    agentA.on('extension_status', (m: ExtensionStatusMessage) => heardA.push(m));
    agentB.on('extension_status', (m: ExtensionStatusMessage) => heardB.push(m));

    await extraA!.kill();
    await until("A's agent to hear extension_status {connected: false}", 15_000, () => heardA.some((m) => !m.connected));
    expect(nameOf(heardA[0]?.browser), 'contract: extension_status.browser names A').to.equal(a.name);
    const away = await statusBrowsers(h);
    expect(away.find((x) => x.browser_id === a.browser_id)?.connected, '/status: A is away').to.not.equal(true);
    expect(away.find((x) => x.browser_id === b.browser_id)?.connected, '/status: B stays connected').to.equal(true);
    const waited = await agentA.call('get_state', {}, { timeoutMs: 2000 });
    expect(waited.error_info?.error_code, JSON.stringify(waited.error_info)).to.be.oneOf([
      'NO_EXTENSION_CONNECTED',
      'EXTENSION_DISCONNECTED',
    ]);
    const duringB = await agentB.call('get_state', {}, { tabId: tabB });
    expect(duringB.status, `B's agent while A is away: ${JSON.stringify(duringB.error_info)}`).to.equal('success');

    await extraA!.start();
    const back = await waitForBrowser(h, 'A connected again with the same id', (list) =>
      list.find((x) => x.browser_id === a.browser_id && x.connected),
    );
    expect(back.name, 'A keeps its name across the restart').to.equal(a.name);
    await until("A's agent to hear extension_status {connected: true}", 15_000, () => heardA.some((m) => m.connected));
    // It goes on in A: its tabs died with the process; it opens a new one there.
    const url = h.fixtures.html('/a-again', '<p>A again</p>', 'A again');
    const againA = await ownTab(agentA, browserA(), url, "A's agent after A is back");
    expect(
      (await tabsOf(browserB())).some((t) => t.id === againA || t.url === url),
      'nothing of it in B',
    ).to.equal(false);
    // B heard nothing of it all, and its agent is on the same tab.
    expect(heardB, "B's agent hears nothing of A's restart").to.deep.equal([]);
    const afterB = await agentB.call('get_state', {}, { tabId: tabB });
    expect(afterB.status, `B's agent after A's restart: ${JSON.stringify(afterB.error_info)}`).to.equal('success');
  });

  it('a third profile that is not paired with this bridge is refused as before; the two browsers stay as they were', async () => {
    const before = await statusBrowsers(h);
    const third = await ExtraBrowser.launch(h, { extensionSecret: crypto.randomBytes(32).toString('base64url') });
    try {
      await until('the third profile to show "Pairing secret refused"', 30_000, async () =>
        (await connectionStateOf(third.browser)) === 'secret_refused' ? true : undefined,
      );
      const after = await statusBrowsers(h);
      expect(after.map((x) => [x.browser_id, x.name, x.connected])).to.deep.equal(before.map((x) => [x.browser_id, x.name, x.connected]));
    } finally {
      await third.close();
    }
  });
});
