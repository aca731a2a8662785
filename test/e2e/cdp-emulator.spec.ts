// Real Playwright and puppeteer, unchanged, through the CDP browser emulator, a real AgentClient and a
// real bridge, to a real Chromium. The extension's chrome.debugger relay is played by a stand-in that
// does what chrome.debugger does (one flat session per attached tab on Chromium's own endpoint, child
// sessions of frames and workers reported with their id), so these cases pin the emulation itself:
// the clients connect, drive a page with a cross-origin frame, open and close a page, and leave the
// browser and its tab open when they disconnect. The extension's own relay is checked with the same
// clients once it is wired to the endpoint.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import WebSocket, { WebSocketServer } from 'ws';

import { BrowserEmulator } from '../../bridge/agents/cdp/browser-emulator';
import { createBridge } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import type { ActionMessage, CdpCommandMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from '../bridge/raw-peer';
import { CHROMIUM_PATH } from '../harness/browser';
import { FixtureServer } from '../harness/fixture-server';

type Params = Record<string, unknown>;
interface CdpReply {
  id?: number;
  result?: Params;
  error?: { code: number; message: string };
  method?: string;
  params?: Params;
  sessionId?: string;
}

/** A flat CDP connection to Chromium's own browser endpoint. */
class ChromeLink {
  private nextId = 0;
  private readonly waiting = new Map<number, (m: CdpReply) => void>();
  onEvent: (method: string, params: Params, sessionId: string | undefined) => void = () => undefined;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as CdpReply;
      if (m.id !== undefined) {
        this.waiting.get(m.id)?.(m);
        this.waiting.delete(m.id);
      } else if (m.method) this.onEvent(m.method, m.params ?? {}, m.sessionId);
    });
  }
  static async open(url: string): Promise<ChromeLink> {
    const ws = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new ChromeLink(ws);
  }
  send(method: string, params: Params = {}, sessionId?: string): Promise<CdpReply> {
    const id = ++this.nextId;
    this.ws.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }
  async must(method: string, params: Params = {}): Promise<Params> {
    const r = await this.send(method, params);
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    return r.result ?? {};
  }
  close(): void {
    this.ws.close();
  }
}

/** Plays the extension: cdp_attach/cdp_detach, cdp_command, open_tab, close_tab, switch_tab over Chromium's endpoint. */
class ExtensionStandIn {
  private readonly tabs = new Map<number, string>();
  private nextTab = 1;
  private readonly sessionOfTab = new Map<number, string>();
  private readonly tabOfSession = new Map<string, number>();
  private readonly tabOfChild = new Map<string, number>();

  constructor(
    private readonly ext: RawPeer,
    private readonly chrome: ChromeLink,
  ) {
    chrome.onEvent = (method, params, sessionId) => this.onChromeEvent(method, params, sessionId);
    ext.ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as ProtocolMessage;
      if (m.type === 'action') void this.onAction(m);
      if (m.type === 'cdp_command') void this.onCommand(m);
    });
  }

  private async onCommand(m: CdpCommandMessage): Promise<void> {
    const r = await this.chrome.send(m.method, m.params ?? {}, m.session_id ?? this.sessionOfTab.get(m.tab_id));
    const base = { type: 'cdp_result', original_command_id: m.command_id, tab_id: m.tab_id } as const;
    if (!r.error) return this.ext.send({ ...base, result: r.result ?? {} });
    this.ext.send({
      ...base,
      error_info: {
        error_code: 'CDP_ERROR',
        message: `Chrome refused ${m.method}: ${r.error.message}`,
        component_origin: 'background_script',
        details: { cdp_error: r.error },
      },
    });
  }

  async init(): Promise<void> {
    const { targetInfos } = (await this.chrome.must('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    for (const t of targetInfos) if (t.type === 'page') this.tabs.set(this.nextTab++, t.targetId);
  }

  private onChromeEvent(method: string, params: Params, sessionId: string | undefined): void {
    if (!sessionId) {
      const tab = method === 'Target.detachedFromTarget' ? this.tabOfSession.get(String(params['sessionId'])) : undefined;
      if (tab === undefined) return;
      this.tabOfSession.delete(String(params['sessionId']));
      this.sessionOfTab.delete(tab);
      this.ext.send({ type: 'cdp_event', tab_id: tab, method: 'Inspector.detached', params: { reason: 'target_closed' } });
      return;
    }
    const own = this.tabOfSession.get(sessionId);
    const tab = own ?? this.tabOfChild.get(sessionId);
    if (tab === undefined) return;
    if (method === 'Target.attachedToTarget') this.tabOfChild.set(String(params['sessionId']), tab);
    this.ext.send({ type: 'cdp_event', tab_id: tab, method, params, ...(own === undefined ? { session_id: sessionId } : {}) });
  }

  private answer(m: ActionMessage, result: Params, tabId = m.tab_id): void {
    this.ext.send({
      type: 'action_result',
      original_action_id: m.action_id,
      action: m.action,
      ...(tabId !== undefined ? { tab_id: tabId } : {}),
      status: 'success',
      outcome_details: { message: 'done', result },
      new_simplified_state: null,
      error_info: null,
    });
  }

  private fail(m: ActionMessage, error_code: string, message: string, details?: Params): void {
    this.ext.send({
      type: 'action_result',
      original_action_id: m.action_id,
      action: m.action,
      status: 'error',
      outcome_details: null,
      new_simplified_state: null,
      error_info: { error_code, message, component_origin: 'background_script', ...(details ? { details } : {}) },
    });
  }

  private async onAction(m: ActionMessage): Promise<void> {
    const p = m.params as Params;
    const tab = m.tab_id ?? [...this.tabs.keys()][0] ?? -1;
    switch (m.action) {
      case 'cdp_attach': {
        const targetId = this.tabs.get(tab);
        if (!targetId) return this.fail(m, 'TAB_NOT_FOUND', `No tab ${tab}.`);
        if (!this.sessionOfTab.has(tab)) {
          const { sessionId } = (await this.chrome.must('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
          this.sessionOfTab.set(tab, sessionId);
          this.tabOfSession.set(sessionId, tab);
        }
        const { targetInfo } = (await this.chrome.must('Target.getTargetInfo', { targetId })) as {
          targetInfo: { url: string; title: string };
        };
        return this.answer(m, { tab_id: tab, target_id: targetId, url: targetInfo.url, title: targetInfo.title }, tab);
      }
      case 'cdp_detach': {
        const s = this.sessionOfTab.get(tab);
        if (s) await this.chrome.send('Target.detachFromTarget', { sessionId: s });
        return this.answer(m, { detached: s !== undefined });
      }
      case 'open_tab': {
        const { targetId } = (await this.chrome.must('Target.createTarget', {
          url: (p['url'] as string | undefined) ?? 'about:blank',
        })) as { targetId: string };
        const id = this.nextTab++;
        this.tabs.set(id, targetId);
        return this.answer(m, { tab_id: id }, id);
      }
      case 'close_tab': {
        const id = p['tab_id'] as number;
        await this.chrome.must('Target.closeTarget', { targetId: this.tabs.get(id) ?? '' });
        this.tabs.delete(id);
        return this.answer(m, { closed_tab_id: id, active_tab_id: null }, id);
      }
      case 'switch_tab':
        await this.chrome.must('Target.activateTarget', { targetId: this.tabs.get(p['tab_id'] as number) ?? '' });
        return this.answer(m, { tab_id: p['tab_id'] });
      default:
        return this.fail(m, 'UNSUPPORTED_ACTION', `The stand-in does not do ${m.action}.`);
    }
  }
}

describe('CDP browser emulator with real clients and a real Chromium (stand-in for the extension relay)', function () {
  this.timeout(90_000);
  let chrome: ChildProcess;
  let profile: string;
  let chromeWs: string;
  let fx: FixtureServer;
  let bridge: BridgeServer;
  let ext: RawPeer;
  let link: ChromeLink;
  let wss: WebSocketServer;
  let wsUrl: string;
  const emulators: BrowserEmulator[] = [];
  let pageUrl: string;

  before(async () => {
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdpem-'));
    const args = [
      '--headless',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
    ];
    chrome = spawn(CHROMIUM_PATH, [...args, '--site-per-process', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
    chromeWs = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools URL: ${err.slice(-400)}`)), 30_000);
      chrome.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    fx = await new FixtureServer().start();
    // The frame comes from the other loopback name: another site, so Chromium gives it its own process.
    fx.route('/frame.html', { body: '<!doctype html><p id="t">frame text</p>' });
    pageUrl = fx.route('/page.html', {
      body: `<!doctype html><title>Emulator fixture</title><button id="go" onclick="this.textContent='clicked'">go</button>
<iframe id="cross" src="http://localhost:${new URL(fx.origin).port}/frame.html"></iframe>`,
    });
  });
  after(async () => {
    await fx.close();
    chrome.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  beforeEach(async () => {
    bridge = createBridge({ port: 0, logger: createLogger('silent'), defaultTimeoutMs: 15_000 });
    await bridge.start();
    ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    link = await ChromeLink.open(chromeWs);
    await new ExtensionStandIn(ext, link).init();
    // The endpoint's part: one agent session and one emulator per CDP connection, commands held until start() ends.
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 256 * 1024 * 1024 });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (ws) => {
      const held: string[] = [];
      let em: BrowserEmulator | null = null;
      ws.on('message', (d: Buffer) => (em ? em.handle(d.toString()) : held.push(d.toString())));
      void AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret, clientName: 'cdp:e2e', maxTabs: 5 }).then(
        async (agent) => {
          const e = new BrowserEmulator({
            socket: { send: (t) => ws.readyState === WebSocket.OPEN && ws.send(t), close: (c, r) => ws.close(c, r) },
            agent,
            target: { kind: 'browser' },
            log: createLogger('silent'),
            downloadsDir: os.tmpdir(),
          });
          emulators.push(e);
          await e.start();
          em = e;
          for (const t of held.splice(0)) e.handle(t);
          ws.on('close', () => void e.dispose('client closed'));
        },
      );
    });
    wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/devtools/browser/e2e`;
  });
  afterEach(async () => {
    for (const e of emulators.splice(0)) await e.dispose('test over');
    wss.close();
    link.close();
    ext.close();
    await bridge.close();
  });

  const openPages = async (): Promise<string[]> => {
    const l = await ChromeLink.open(chromeWs);
    const { targetInfos } = (await l.must('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    l.close();
    return targetInfos.filter((t) => t.type === 'page').map((t) => t.url);
  };

  it("Playwright connectOverCDP drives the handed-over page and its cross-origin frame, opens and closes a page, and leaves the person's tab open", async () => {
    const browser = await chromium.connectOverCDP(wsUrl);
    const [context] = browser.contexts();
    const page = context?.pages()[0];
    if (!context || !page) throw new Error('no page handed over');
    await page.goto(pageUrl);
    await page.click('#go');
    expect(await page.textContent('#go')).to.equal('clicked');
    const frame = page.frames().find((f) => f.url().includes('localhost'));
    expect(await frame?.textContent('#t')).to.equal('frame text');
    const second = await context.newPage();
    expect(context.pages()).to.have.length(2);
    await second.close();
    expect(context.pages()).to.have.length(1);
    await browser.close();
    expect(await openPages()).to.include(pageUrl);
  });

  it('puppeteer connect (tab targets) drives the page and its cross-origin frame, opens and closes a page, and disconnects leaving the tab open', async () => {
    const browser = await puppeteer.connect({ browserWSEndpoint: wsUrl, defaultViewport: null });
    const [page] = await browser.pages();
    if (!page) throw new Error('no page handed over');
    await page.goto(pageUrl);
    await page.click('#go');
    expect(await page.$eval('#go', (b) => b.textContent)).to.equal('clicked');
    const frame = page.frames().find((f) => f.url().includes('localhost'));
    expect(await frame?.$eval('#t', (p) => p.textContent)).to.equal('frame text');
    const second = await browser.newPage();
    expect(await browser.pages()).to.have.length(2);
    await second.close();
    expect(await browser.pages()).to.have.length(1);
    await browser.disconnect();
    expect(await openPages()).to.include(pageUrl);
  });
});
