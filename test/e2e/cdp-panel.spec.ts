// The side panel's CDP addresses (each under its client's agent entry, idle ones in a small list),
// in real Chromium with the built extension and a
// real BridgeServer: a test-only CDP service (the bridge's `services.cdp` slot) pushes real
// cdp_clients messages over the wire and records the cdp_client_control the panel sends. The CDP
// client itself is a real agent session named cdp:<name>, as the CDP endpoint makes it, holding a
// real tab. Screenshots go to test-artifacts/cdp-panel/.
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import WebSocket from 'ws';

import { listCdpClients, mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import type { CdpEmulatorFactory } from '../../bridge/agents/cdp/cdp-endpoint';
import { createBridge, createRelay } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import { loadOrCreateSecrets } from '../../bridge/common/secrets';
import type { BridgeServer } from '../../bridge/src/server';
import type { BridgeContext, CdpControlReply, CdpService } from '../../bridge/src/services';
import type {
  CdpClientControlMessage,
  CdpClientsMessage,
  TaskControlMessage,
  UserTaskSubmissionMessage,
} from '../../schemas/generated/protocol';
import { errorInfo } from '../../schemas/lib/errors';
import { type LaunchedBrowser, launchWithExtension } from '../harness/browser';
import { FixtureServer } from '../harness/fixture-server';
import { artifactShot, openPanel } from '../harness/panel';

type Client = CdpClientsMessage['clients'][number];

/** The bridge side of the panel's CDP section, and nothing else: what it publishes is what the test sets. */
class TestCdpService implements CdpService {
  readonly prefix = '/cdp/';
  readonly label = 'test CDP clients';
  clients: Client[] = [];
  readonly controls: CdpClientControlMessage[] = [];
  /** Names the bridge no longer knows although the panel still lists them (revoked from a terminal meanwhile). */
  readonly forgotten = new Set<string>();
  /** Called on revoke of a name, as the real service closes that client's connections. */
  onRevoke: (name: string) => void = () => undefined;

  constructor(private readonly ctx: BridgeContext) {}

  handle(_req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(404).end();
  }
  upgrade(_req: http.IncomingMessage, socket: Duplex): void {
    socket.destroy();
  }
  status(): unknown {
    return { clients: this.clients.length };
  }
  publish(): void {
    this.ctx.sendToExtension({ type: 'cdp_clients', clients: this.clients });
  }
  handleControl(c: CdpClientControlMessage): Promise<CdpControlReply> {
    this.controls.push(c);
    if (this.forgotten.has(c.name) || !this.clients.some((k) => k.name === c.name))
      return Promise.resolve({
        ok: false,
        error: errorInfo('CONNECTOR_NOT_FOUND', `No CDP URL is named "${c.name}": it was revoked already. Refresh the list.`, 'bridge'),
      });
    this.clients = this.clients.filter((k) => k.name !== c.name);
    this.onRevoke(c.name);
    return Promise.resolve({ ok: true, reply: { type: 'cdp_clients', request_id: c.request_id, clients: this.clients } });
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const WIDTH = 360;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const shot = (page: Page, name: string) => artifactShot('cdp-panel', page, name);
// A URL's row sits under its client's agent entry, or in the small idle list under the agents.
const row = (name: string) => `li.cdp-client[data-cdp-name="${name}"]`;
// textContent: the badge is upper-cased by CSS in innerText.
const text = (panel: Page, sel: string) => panel.$eval(sel, (e) => e.textContent ?? '');
const visible = (panel: Page, sel: string) =>
  panel.$eval(sel, (e) => {
    const r = (e as HTMLElement).getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  });

/** Nothing in the panel is wider than the panel: no horizontal scrolling at 360 px. */
async function noHorizontalScroll(panel: Page): Promise<void> {
  const m = await panel.evaluate(() => {
    const d = document.documentElement;
    const wide = [...document.querySelectorAll('#agents *')]
      .filter((e) => e.getBoundingClientRect().right > d.clientWidth + 0.5)
      .map((e) => `${e.tagName}.${e.className}`);
    return { scroll: d.scrollWidth, client: d.clientWidth, wide };
  });
  expect(m.client).to.equal(WIDTH);
  expect(m.scroll, JSON.stringify(m)).to.be.at.most(m.client);
  expect(m.wide, 'elements of the CDP section past the right edge').to.deep.equal([]);
}

describe('e2e: side panel, clients connected over CDP (real Chromium, real bridge)', function () {
  this.timeout(120_000);
  let configDir: string;
  let bridge: BridgeServer;
  let cdp: TestCdpService | null = null;
  let fixtures: FixtureServer;
  let launched: LaunchedBrowser;
  let panel: Page;
  let shop: Page;
  let agent: AgentClient | null = null;
  let shopTabId = -1;
  let bridgeClosed = false;

  before(async () => {
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-panel-'));
    const { secrets } = loadOrCreateSecrets(configDir);
    bridge = createRelay({
      port: 0,
      secrets,
      logger: createLogger('warn'),
      services: { cdp: (ctx) => (cdp = new TestCdpService(ctx)) },
    });
    await bridge.start();
    fixtures = await new FixtureServer().start();
    fixtures.html('/shop.html', '<h1>Staplers</h1><p>Mini Stapler $3.99</p>', 'Stapler Shop');
    const up = bridge.waitForExtension(20_000);
    launched = await launchWithExtension({
      extensionBridgeUrl: bridge.extensionUrl,
      extensionConfig: { extension_secret: secrets.extension_secret },
    });
    await up;
    shop = await launched.browser.newPage();
    await shop.goto(fixtures.url('/shop.html'), { waitUntil: 'load' });
    for (const p of await launched.browser.pages()) if (p !== shop && p.url() === 'about:blank') await p.close();
    panel = await openPanel(launched.browser, { width: WIDTH, height: 900 });
    await shop.bringToFront();
    // The panel window is the focused one here: name the person's tab, as a client's cdp_attach with tab_id does.
    shopTabId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, fixtures.url('/shop.html'));
  });
  after(async () => {
    await agent?.close().catch(() => undefined);
    await launched?.close();
    if (!bridgeClosed) await bridge?.close();
    await fixtures?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  it('with no URL: one line saying how to make one, a command that stays whole and fits at 360 px', async () => {
    // The bridge sent cdp_clients with no clients when the extension connected.
    await panel.waitForSelector('#cdp-empty', { visible: true, timeout: 10_000 });
    expect(await text(panel, '#cdp-empty')).to.contain('browser-use-ext cdp-url --name NAME');
    const cmd = await panel.$eval('#cdp-empty code.cmd', (e) => {
      const card = (document.getElementById('cdp') as HTMLElement).getBoundingClientRect();
      const r = e.getBoundingClientRect();
      return { text: e.textContent, lines: e.getClientRects().length, inside: r.left >= card.left && r.right <= card.right };
    });
    expect(cmd).to.deep.equal({ text: 'browser-use-ext cdp-url --name NAME', lines: 1, inside: true });
    expect(await panel.$$eval('li.cdp-client', (l) => l.length)).to.equal(0);
    expect(await visible(panel, '#cdp-bar-help')).to.equal(false);
    await noHorizontalScroll(panel);
    await shot(panel, '01-no-url');
  });

  it('one row per URL: name, up to N tabs, made / last used, and per connection its tabs by title and site, pace and last method', async () => {
    // A CDP client is an ordinary agent session named cdp:<name>; its first action leases the person's tab.
    agent = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret, clientName: 'cdp:scraper', maxTabs: 2 });
    const got = await agent.call('get_state', {}, { tabId: shopTabId });
    expect(got.status, JSON.stringify(got.error_info)).to.equal('success');
    const sessions = bridge.status()['sessions'] as { session_id: string; tabs: { tab_id: number }[] }[];
    expect(sessions.find((s) => s.session_id === agent?.sessionId)?.tabs.map((t) => t.tab_id)).to.deep.equal([shopTabId]);
    const svc = cdp!;
    svc.clients = [
      { name: 'ci-bot', max_tabs: 3, created_at: iso(2 * 86_400_000), last_used_at: iso(5 * 60_000), connections: [] },
      {
        name: 'scraper',
        max_tabs: 2,
        created_at: iso(10_000),
        last_used_at: null,
        connections: [
          { session_id: agent.sessionId, commands_per_s: 4.2, last_method: 'Network.getResponseBodyForInterception', tab_ids: [shopTabId] },
        ],
      },
    ];
    svc.publish();
    await panel.waitForFunction(
      () => (document.querySelector('li.cdp-client[data-cdp-name="scraper"] .cdp-tabs')?.textContent ?? '').includes('Stapler Shop'),
      {
        timeout: 10_000,
      },
    );
    // One list: the URL in use under its client's agent entry, the idle one as a small line under the agents.
    expect(await panel.$$eval('#cdp-list > li', (l) => l.map((e) => (e as HTMLElement).dataset['cdpName']))).to.deep.equal(['ci-bot']);
    expect(await panel.$$eval(`#agent-list > li[data-session-id="${agent.sessionId}"] ${row('scraper')}`, (l) => l.length)).to.equal(1);
    const ci = await text(panel, row('ci-bot'));
    expect(ci)
      .to.contain('ci-bot')
      .and.contain('not connected')
      .and.contain('up to 3 tabs')
      .and.contain('made 2 days ago')
      .and.contain('last used 5 min ago');
    const scraper = await text(panel, row('scraper'));
    expect(scraper).to.contain('1 connected').and.contain('up to 2 tabs').and.contain('made just now').and.contain('never used');
    const conn = await text(panel, `${row('scraper')} .cdp-conn`);
    expect(conn)
      .to.contain(`Stapler Shop (${new URL(fixtures.origin).host})`)
      .and.contain('4.2 commands/s')
      .and.contain('Network.getResponseBodyForInterception');
    // Tabs as the person knows them, never Chrome's tab id.
    expect(await text(panel, `${row('scraper')} .cdp-tabs`)).to.not.contain(String(shopTabId));
    // The compact line is one line.
    expect(await panel.$eval(`${row('scraper')} .cdp-conn`, (e) => e.getBoundingClientRect().height)).to.be.below(24);
    expect(await visible(panel, '#cdp-empty')).to.equal(false);
    expect(await text(panel, '#cdp-bar-help'))
      .to.contain('started debugging this browser')
      .and.contain('Cancel on that bar disconnects the client');
    await noHorizontalScroll(panel);
    await shot(panel, '02-rows');

    // Stats update in place (the bridge sends them up to once a second): the focused Revoke keeps its focus.
    await panel.focus(`${row('ci-bot')} .cdp-revoke`);
    for (const [rate, method] of [
      [7, 'Page.navigate'],
      [23.4, 'Runtime.evaluate'],
    ] as const) {
      const k = svc.clients[1]!.connections[0]!;
      k.commands_per_s = rate;
      k.last_method = method;
      svc.publish();
      await panel.waitForFunction(
        (sel, m) => (document.querySelector(sel)?.textContent ?? '').includes(m),
        { timeout: 5000 },
        `${row('scraper')} .cdp-conn`,
        method,
      );
    }
    expect(await text(panel, `${row('scraper')} .cdp-conn`))
      .to.contain('23 commands/s')
      .and.contain('Runtime.evaluate');
    expect(await panel.evaluate(() => document.activeElement?.closest('li')?.dataset['cdpName'])).to.equal('ci-bot');
    await shot(panel, '03-stats-updated');
  });

  it('the CDP client is listed among agents as "<name> (CDP client)"; its tab gets the tab group and no overlay', async () => {
    const sid = agent!.sessionId!;
    const agentRow = `#agent-list > li[data-session-id="${sid}"]`;
    await panel.waitForSelector(agentRow, { timeout: 10_000 });
    expect(await text(panel, `${agentRow} .agent-name`)).to.equal('scraper (CDP client)');
    // Its tab as the person knows it, as in the CDP section: title and site, not Chrome's tab id.
    await panel.waitForFunction(
      (sel) => (document.querySelector(sel)?.textContent ?? '').startsWith('Stapler Shop'),
      { timeout: 5000 },
      `${agentRow} .tabs li span`,
    );
    expect(await text(panel, `${agentRow} .tabs li span`)).to.equal(`Stapler Shop (${new URL(fixtures.origin).host})`);
    const group = await panel.waitForFunction(
      async (tabId: number) => {
        const tab = await chrome.tabs.get(tabId);
        return tab.groupId === -1 ? null : ((await chrome.tabGroups.get(tab.groupId)).title ?? '');
      },
      { timeout: 10_000 },
      shopTabId,
    );
    expect(await group.jsonValue())
      .to.be.a('string')
      .and.contain('scraper');
    // A CDP client reads the page whole: our bar would be in what it reads (Chrome's own endpoint has none).
    expect(await shop.$('[data-browser-agent-ui="overlay"]'), 'our bar in the page').to.equal(null);
    await shot(shop, '04-cdp-tab-no-overlay');
  });

  it('Revoke is reachable by keyboard, asks first, sends cdp_client_control with the name, and the row goes on the answer', async () => {
    const svc = cdp!;
    await panel.focus(`${row('ci-bot')} .cdp-revoke`);
    await panel.keyboard.press('Enter');
    await panel.waitForSelector(`${row('ci-bot')} .cdp-confirm`, { visible: true });
    expect(await panel.evaluate(() => document.activeElement?.className)).to.contain('cdp-confirm-yes');
    await shot(panel, '05-revoke-confirm');
    // Escape steps back: nothing sent.
    await panel.keyboard.press('Escape');
    await panel.waitForSelector(`${row('ci-bot')} .cdp-confirm`, { hidden: true });
    expect(await panel.evaluate(() => document.activeElement?.className)).to.contain('cdp-revoke');
    expect(svc.controls).to.deep.equal([]);

    await panel.keyboard.press('Enter');
    await panel.waitForSelector(`${row('ci-bot')} .cdp-confirm`, { visible: true });
    await panel.keyboard.press('Enter');
    await panel.waitForSelector(row('ci-bot'), { hidden: true, timeout: 10_000 });
    expect(svc.controls).to.have.length(1);
    const c = svc.controls[0]!;
    expect({ type: c.type, op: c.op, name: c.name }).to.deep.equal({ type: 'cdp_client_control', op: 'revoke', name: 'ci-bot' });
    expect(c.request_id).to.be.a('string').and.not.equal('');
    await panel.waitForFunction(() => (document.getElementById('cdp-result')?.textContent ?? '').includes('Revoked "ci-bot"'), {
      timeout: 5000,
    });
    expect(await panel.$$eval('li.cdp-client', (l) => l.map((e) => (e as HTMLElement).dataset['cdpName']))).to.deep.equal(['scraper']);
    await shot(panel, '06-revoked');
  });

  it('a Revoke the bridge refuses shows why in words, the code on a details line, and keeps the row', async () => {
    const svc = cdp!;
    svc.forgotten.add('scraper');
    await panel.click(`${row('scraper')} .cdp-revoke`);
    await panel.click(`${row('scraper')} .cdp-confirm-yes`);
    await panel.waitForFunction(
      (sel) => (document.querySelector(sel)?.textContent ?? '') !== '',
      { timeout: 10_000 },
      `${row('scraper')} .cdp-error`,
    );
    expect(await text(panel, `${row('scraper')} .cdp-error`)).to.equal(
      'Could not revoke "scraper": No CDP URL is named "scraper": it was revoked already. Refresh the list.',
    );
    expect(await text(panel, `${row('scraper')} .cdp-error-code`)).to.equal('Details: CONNECTOR_NOT_FOUND');
    expect(await visible(panel, row('scraper'))).to.equal(true);
    expect(svc.controls.map((c) => c.name)).to.deep.equal(['ci-bot', 'scraper']);
    await noHorizontalScroll(panel);
    await shot(panel, '07-revoke-refused');
    svc.forgotten.delete('scraper');
  });

  it("the agent list's Disconnect on a CDP client is the same control as for any agent and ends it at once", async () => {
    const sid = agent!.sessionId!;
    // An ordinary agent beside it, for the comparison.
    const other = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret, clientName: 'plain-agent' });
    try {
      await panel.waitForSelector(`#agent-list > li[data-session-id="${other.sessionId}"]`, { timeout: 10_000 });
      const control = (s: string) =>
        panel.$eval(`#agent-list > li[data-session-id="${s}"] .agent button`, (b) => ({
          text: b.textContent,
          className: b.className,
          title: (b as HTMLButtonElement).title,
        }));
      expect(await control(sid)).to.deep.equal(await control(other.sessionId!));
      const closed = new Promise<number>((resolve) => agent!.once('close', () => resolve(Date.now())));
      const t0 = Date.now();
      await panel.click(`#agent-list > li[data-session-id="${sid}"] .agent button`);
      const tClosed = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
      expect(tClosed, 'the CDP client was not disconnected').to.not.equal(-1);
      expect(tClosed - t0).to.be.below(2000);
      // Its tab is free: the session is gone, the overlay leaves the page.
      expect((bridge.status()['sessions'] as { session_id: string }[]).some((s) => s.session_id === sid)).to.equal(false);
      await shop.waitForFunction(() => !document.querySelector('[data-browser-agent-ui="overlay"]')?.isConnected, { timeout: 5000 });
      await panel.waitForSelector(`#agent-list > li[data-session-id="${sid}"]`, { hidden: true, timeout: 5000 });
      await shot(panel, '08-cdp-client-stopped');
    } finally {
      await other.close();
    }
  });

  it("a CDP client's tab has no Stop of ours in the page; Disconnect ends that client and leaves another agent's running task alone", async () => {
    // An agent running a task typed in the panel, in a tab of its own.
    const runner = await AgentClient.connect({
      url: bridge.agentUrl,
      secret: bridge.secrets.agent_secret,
      clientName: 'task-runner',
      capabilities: ['accepts_tasks'],
    });
    const controls: string[] = [];
    runner.on('task', (m: UserTaskSubmissionMessage) =>
      runner.sendTaskProgress({ task_id: m.task_id ?? '', status: 'running', message: 'Looking for staplers' }),
    );
    runner.on('task_control', (m: TaskControlMessage) => controls.push(m.command));
    const client = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret, clientName: 'cdp:tester' });
    try {
      await panel.waitForSelector('#runner-row:not([hidden])', { timeout: 10_000 });
      await panel.type('#task-input', 'Find the cheapest stapler');
      await panel.click('#task-submit');
      await panel.waitForFunction(() => document.getElementById('task-state')?.textContent === 'running', { timeout: 10_000 });
      expect((await client.call('get_state', {}, { tabId: shopTabId })).status).to.equal('success');
      const ended = new Promise<number>((resolve) => client.once('close', (code: number) => resolve(code)));
      const stop = `#agent-list > li[data-session-id="${client.sessionId}"] .agent button`;
      await panel.waitForSelector(stop, { visible: true, timeout: 10_000 });
      expect(await shop.$('[data-browser-agent-ui="overlay"]'), 'our bar in the page').to.equal(null);
      // Found and clicked in one step: the list is drawn again when the client's lease arrives, and a
      // button found before that is no longer in the panel when a separate click reaches for it.
      await panel.$eval(stop, (b) => (b as HTMLButtonElement).click());
      // The client's session ends (close code 4003): the bridge then refuses its URL until Allow again.
      expect(await Promise.race([ended, new Promise((r) => setTimeout(() => r('still connected'), 5000))])).to.equal(4003);
      const sessions = bridge.status()['sessions'] as { session_id: string }[];
      expect(
        sessions.some((s) => s.session_id === client.sessionId),
        'the CDP client still has its session',
      ).to.equal(false);
      await new Promise((res) => setTimeout(res, 1000));
      expect(controls, "the other agent's task was stopped").to.deep.equal([]);
      expect(await panel.$eval('#task-state', (e) => e.textContent)).to.equal('running');
    } finally {
      await client.close();
      await runner.close();
    }
  });

  it('off the bridge, the list says it may be out of date and Revoke says in words that it cannot reach the bridge', async () => {
    await panel.waitForSelector(row('scraper'), { visible: true });
    expect(await visible(panel, '#cdp-stale')).to.equal(false);
    await bridge.close();
    bridgeClosed = true;
    await panel.waitForSelector('#cdp-stale', { visible: true, timeout: 10_000 });
    await panel.click(`${row('scraper')} .cdp-revoke`);
    await panel.click(`${row('scraper')} .cdp-confirm-yes`);
    await panel.waitForFunction(
      (sel) => (document.querySelector(sel)?.textContent ?? '') !== '',
      { timeout: 20_000 },
      `${row('scraper')} .cdp-error`,
    );
    expect(await text(panel, `${row('scraper')} .cdp-error`)).to.equal(
      'Could not revoke "scraper": Not connected to the bridge; see the connection status above.',
    );
    await noHorizontalScroll(panel);
    await shot(panel, '09-off-the-bridge');
  });
});

// The same section fed by the bridge's real CDP endpoint (bridge/agents/cdp): a URL made with
// mintCdpClient, a DevTools client connecting over WebSocket, the endpoint's own cdp_clients and
// revoke. Only what drives the DevTools commands is a stand-in (the emulation is a separate part).
describe('e2e: side panel with the real CDP endpoint (real Chromium, real bridge)', function () {
  this.timeout(120_000);
  let configDir: string;
  let bridge: BridgeServer;
  let fixtures: FixtureServer;
  let launched: LaunchedBrowser;
  let panel: Page;
  let shopTabId = -1;
  const sockets: WebSocket[] = [];

  /** Answers every command with {} and holds the person's shop tab, as a client's first cdp_attach would. */
  const emulator: CdpEmulatorFactory = (o) => {
    const sent: number[] = [];
    let last: string | null = null;
    let tabs: number[] = [];
    return {
      async start() {
        const r = await o.agent.call('get_state', {}, { tabId: shopTabId });
        if (r.status === 'success') tabs = [shopTabId];
      },
      handle(text: string) {
        const m = JSON.parse(text) as { id: number; method: string };
        sent.push(Date.now());
        last = m.method;
        o.socket.send(JSON.stringify({ id: m.id, result: {} }));
      },
      dispose: () => Promise.resolve(),
      targets: () => [],
      stats: () => ({
        commands_per_s: sent.filter((t) => Date.now() - t < 10_000).length / 10,
        last_method: last,
        tab_ids: tabs,
        session_id: o.agent.sessionId,
      }),
    };
  };

  before(async () => {
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-panel-real-'));
    const { secrets } = loadOrCreateSecrets(configDir);
    bridge = createBridge({ port: 0, secrets, configDir, logger: createLogger('warn'), cdpEmulator: emulator });
    await bridge.start();
    fixtures = await new FixtureServer().start();
    fixtures.html('/shop.html', '<h1>Staplers</h1>', 'Stapler Shop');
    const up = bridge.waitForExtension(20_000);
    launched = await launchWithExtension({
      extensionBridgeUrl: bridge.extensionUrl,
      extensionConfig: { extension_secret: secrets.extension_secret },
    });
    await up;
    const shop = await launched.browser.newPage();
    await shop.goto(fixtures.url('/shop.html'), { waitUntil: 'load' });
    panel = await openPanel(launched.browser, { width: WIDTH, height: 900 });
    shopTabId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, fixtures.url('/shop.html'));
  });
  after(async () => {
    for (const ws of sockets) ws.terminate();
    await launched?.close();
    await bridge?.close();
    await fixtures?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  it('a URL made with cdp-url appears; its connected client shows its tab and last command; Revoke closes the client and removes the URL', async () => {
    const minted = mintCdpClient(configDir, { name: 'pw-tests', maxTabs: 2 });
    // The endpoint notices the new URL within its 1 s poll and tells the panel.
    await panel.waitForSelector(row('pw-tests'), { timeout: 10_000 });
    expect(await text(panel, row('pw-tests')))
      .to.contain('not connected')
      .and.contain('up to 2 tabs')
      .and.contain('never used');

    const ws = new WebSocket(minted.url(bridge.port).replace(/^http/, 'ws') + '/devtools/browser/panel-test');
    sockets.push(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    for (let id = 1; id <= 3; id++) ws.send(JSON.stringify({ id, method: id === 3 ? 'Runtime.evaluate' : 'Page.enable', params: {} }));
    await panel.waitForFunction(
      (sel) => {
        const t = document.querySelector(sel)?.textContent ?? '';
        return t.includes('Stapler Shop') && t.includes('Runtime.evaluate');
      },
      { timeout: 10_000 },
      `${row('pw-tests')} .cdp-conn`,
    );
    expect(await text(panel, row('pw-tests')))
      .to.contain('1 connected')
      .and.contain('last used just now');
    expect(await text(panel, `${row('pw-tests')} .cdp-conn`)).to.contain('0.3 commands/s');
    const sid = await panel.$eval(`${row('pw-tests')} .cdp-conn`, (e) => (e as HTMLElement).dataset['sessionId'] ?? '');
    expect(await text(panel, `#agent-list > li[data-session-id="${sid}"] .agent-name`)).to.equal('pw-tests (CDP client)');
    await noHorizontalScroll(panel);
    await shot(panel, '10-real-endpoint');

    await panel.click(`${row('pw-tests')} .cdp-revoke`);
    await panel.click(`${row('pw-tests')} .cdp-confirm-yes`);
    await panel.waitForSelector(row('pw-tests'), { hidden: true, timeout: 10_000 });
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the client stayed connected')), 5000))]);
    expect(listCdpClients(configDir).map((r) => r.name)).to.deep.equal([]);
    await panel.waitForSelector('#cdp-empty', { visible: true, timeout: 5000 });
    await shot(panel, '11-real-endpoint-revoked');
  });

  it('Disconnect on a CDP client stops its URL: the row says stopped, the same URL is refused with why, "Allow again" lets it back in', async () => {
    const minted = mintCdpClient(configDir, { name: 'bu-stop', maxTabs: 1 });
    const wsUrl = minted.url(bridge.port).replace(/^http/, 'ws') + '/devtools/browser/stop-test';
    /** Connects; the answer is the socket, or how the endpoint ended it at once (code and reason). */
    const open = async () => {
      const ws = new WebSocket(wsUrl);
      sockets.push(ws);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const ended = await Promise.race([
        new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, r) => resolve({ code, reason: r.toString() }))),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000)),
      ]);
      return ended ?? { ws };
    };
    const first = await open();
    expect('ws' in first, 'the new URL connects').to.equal(true);
    await panel.waitForSelector(`${row('bu-stop')} .cdp-conn[data-session-id]`, { timeout: 10_000 });
    const sid = await panel.$eval(`${row('bu-stop')} .cdp-conn`, (e) => (e as HTMLElement).dataset['sessionId'] ?? '');
    expect(await visible(panel, `${row('bu-stop')} .cdp-allow`)).to.equal(false);
    await panel.click(`#agent-list > li[data-session-id="${sid}"] .agent button`);
    await panel.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent === 'stopped',
      { timeout: 10_000 },
      `${row('bu-stop')} .badge`,
    );
    const refused = await open();
    expect('code' in refused && refused.code).to.equal(1008);
    expect('reason' in refused && refused.reason).to.contain('the person stopped this client: "Allow again" in the side panel');
    const http = await fetch(`${minted.url(bridge.port)}/json/version`);
    expect(http.status).to.equal(403);
    expect(((await http.json()) as { error: string }).error)
      .to.contain('The person stopped the client of the CDP URL "bu-stop"')
      .and.contain('"Allow again"')
      .and.contain('browser-use-ext cdp-url --name bu-stop');
    await noHorizontalScroll(panel);
    await shot(panel, '12-real-endpoint-stopped');
    await panel.click(`${row('bu-stop')} .cdp-allow`);
    await panel.waitForSelector(`${row('bu-stop')} .cdp-allow`, { hidden: true, timeout: 10_000 });
    expect(listCdpClients(configDir).find((r) => r.name === 'bu-stop')?.stopped_at).to.equal(null);
    const back = await open();
    expect('ws' in back, 'the URL connects again once allowed').to.equal(true);
    if ('ws' in back) back.ws.close();
  });
});
