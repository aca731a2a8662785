// Real CDP clients (Playwright connectOverCDP, puppeteer connect, chrome-devtools-mcp over the MCP
// SDK) driven through one list of scenario steps against any CDP endpoint: Chromium's own
// --remote-debugging-port, or the bridge's /cdp/<token> endpoint. Each scenario returns a record of
// what happened, step by step (value or error, and time), and never throws, so one run shows every
// step that works and every one that does not. Also: hostile HTTP/WS probes, a plain Chromium
// launcher, and a logging WebSocket proxy that records every CDP message between a client and the
// browser (what docs/CDP-CLIENTS-PW-PPTR.md was written from).
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';
import puppeteer, { type Browser as PptrBrowser, type Page as PptrPage } from 'puppeteer-core';
import WebSocket, { WebSocketServer } from 'ws';

import { CHROMIUM_PATH, REPO_ROOT } from './browser';
import { removeProfile } from './cdp-chromium';

/** Where a CDP client connects: the HTTP base (serves /json/version) and/or a browser ws URL. */
export interface CdpEndpoint {
  httpBase?: string;
  wsUrl?: string;
}

/** Fixture URLs the scenarios open (test/fixtures/pages/cdp served by a FixtureServer). */
export interface CdpFixtures {
  /** form.html: button, input, key handler, delayed element, same- and cross-origin iframes. */
  formUrl: string;
  /** late.html: content that appears 600 ms after load. */
  lateUrl: string;
}

export interface StepRecord {
  step: string;
  ok: boolean;
  ms: number;
  value?: unknown;
  error?: string;
}

export interface ScenarioRecord {
  client: 'playwright' | 'puppeteer' | 'chrome-devtools-mcp';
  via: 'http' | 'ws';
  url: string;
  steps: StepRecord[];
  totalMs: number;
}

export const CDP_FIXTURE_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'pages');
export const CHROME_DEVTOOLS_MCP_BIN = path.join(
  REPO_ROOT,
  'node_modules',
  'chrome-devtools-mcp',
  'build',
  'src',
  'bin',
  'chrome-devtools-mcp.js',
);

const STEP_TIMEOUT_MS = 15_000;
/** A whole scenario's steps, so it returns within a 60 s test timeout even when every step hangs. */
const SCENARIO_BUDGET_MS = 40_000;
const CLOSE_TIMEOUT_MS = 8_000;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The bridge's endpoint carries its secret in the path (/cdp/<token>); client errors quote URLs, so
 * every text a record or log keeps goes through this. Fixture paths (/cdp/form.html) do not match.
 */
export function redactToken(text: string): string {
  return text.replace(/\/cdp\/[A-Za-z0-9_-]{16,}/g, '/cdp/<token>');
}

/**
 * Runs steps in order, recording each; a step that throws is recorded and later steps still run.
 * The whole scenario has a budget, so a broken endpoint (every step timing out) still returns its
 * record within a test's timeout: once the budget is spent, steps are recorded as not run, except
 * the closing step (`always`), which runs with its own short timeout so no connection is left open.
 */
class StepRunner {
  readonly steps: StepRecord[] = [];
  private readonly started = Date.now();

  /** `toRecord` picks what goes into the record when the step returns a live object (a page). */
  async run<T>(
    step: string,
    fn: () => Promise<T>,
    toRecord: (v: T) => unknown = (v) => v,
    opts: { always?: boolean } = {},
  ): Promise<T | undefined> {
    const t0 = Date.now();
    const left = SCENARIO_BUDGET_MS - (t0 - this.started);
    if (left <= 0 && !opts.always) {
      this.steps.push({ step, ok: false, ms: 0, error: `not run: the scenario's ${SCENARIO_BUDGET_MS} ms budget was spent` });
      return undefined;
    }
    const limit = opts.always ? CLOSE_TIMEOUT_MS : Math.min(STEP_TIMEOUT_MS, left);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`step "${step}" took more than ${limit} ms`)), limit);
      });
      const value = await Promise.race([fn(), timeout]);
      this.steps.push({ step, ok: true, ms: Date.now() - t0, value: toRecord(value) });
      return value;
    } catch (err) {
      const message = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
      this.steps.push({ step, ok: false, ms: Date.now() - t0, error: redactToken(message) });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  record(client: ScenarioRecord['client'], via: ScenarioRecord['via'], url: string): ScenarioRecord {
    return { client, via, url: redactToken(url), steps: this.steps, totalMs: Date.now() - this.started };
  }
}

/** The value a step returned; throws with the step's error (or absence) in plain words. */
export function stepValue<T = unknown>(rec: ScenarioRecord, step: string): T {
  const s = rec.steps.find((x) => x.step === step);
  if (!s) throw new Error(`${rec.client} (${rec.via}) never ran step "${step}"; steps run: ${rec.steps.map((x) => x.step).join(', ')}`);
  if (!s.ok) throw new Error(`${rec.client} (${rec.via}) step "${step}" failed: ${s.error}`);
  return s.value as T;
}

/** One line per step, for logs and reports. */
export function formatRecord(rec: ScenarioRecord): string {
  const lines = rec.steps.map((s) => `  ${s.ok ? 'ok  ' : 'FAIL'} ${s.step} (${s.ms} ms)${s.ok ? '' : `: ${s.error}`}`);
  return `${rec.client} via ${rec.via} (${rec.totalMs} ms)\n${lines.join('\n')}`;
}

function isPng(bytes: Uint8Array): boolean {
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

function endpointUrl(endpoint: CdpEndpoint, via: 'http' | 'ws'): string {
  const url = via === 'http' ? endpoint.httpBase : endpoint.wsUrl;
  if (!url) throw new Error(`the endpoint has no ${via === 'http' ? 'httpBase' : 'wsUrl'} to connect with`);
  return url;
}

/** Is the browser still there (the client's close/disconnect must not close the person's Chrome)? */
export async function browserStillUp(endpoint: CdpEndpoint): Promise<{ alive: boolean; pageUrls: string[] }> {
  if (endpoint.httpBase) {
    const version = await fetch(`${endpoint.httpBase}/json/version`).catch(() => null);
    const list = await fetch(`${endpoint.httpBase}/json/list`).catch(() => null);
    const pages = list?.ok ? ((await list.json()) as { type: string; url: string }[]) : [];
    return { alive: version?.ok === true, pageUrls: pages.filter((p) => p.type === 'page').map((p) => p.url) };
  }
  const ws = new WebSocket(endpointUrl(endpoint, 'ws'), { perMessageDeflate: false });
  try {
    const answer = await new Promise<{ result?: { targetInfos?: { type: string; url: string }[] } }>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => ws.send(JSON.stringify({ id: 1, method: 'Target.getTargets' })));
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as { id?: number; result?: { targetInfos?: { type: string; url: string }[] } };
        if (msg.id === 1) resolve(msg);
      });
    });
    const infos = answer.result?.targetInfos ?? [];
    return { alive: true, pageUrls: infos.filter((t) => t.type === 'page').map((t) => t.url) };
  } catch {
    return { alive: false, pageUrls: [] };
  } finally {
    ws.close();
  }
}

// ---- Playwright -----------------------------------------------------------------------------------

/** Playwright 1.65 `chromium.connectOverCDP` through the whole list of steps. */
export async function playwrightScenario(endpoint: CdpEndpoint, fixtures: CdpFixtures, via: 'http' | 'ws'): Promise<ScenarioRecord> {
  const r = new StepRunner();
  const url = endpointUrl(endpoint, via);
  const browser = await r.run(
    'connect',
    async () => chromium.connectOverCDP(url, { timeout: STEP_TIMEOUT_MS }),
    (b) => ({
      version: b.version(),
      contexts: b.contexts().length,
    }),
  );
  if (!browser) return r.record('playwright', via, url);
  // connectOverCDP's first context is the browser's default one (the person's profile); a new
  // page there is an ordinary tab, where browser.newPage() would create a new browser context.
  const context = browser.contexts()[0];
  const page = await r.run(
    'page',
    async () => {
      if (!context) throw new Error('connectOverCDP gave no default browser context');
      const existing = context.pages()[0];
      const p = existing ?? (await context.newPage());
      p.setDefaultTimeout(STEP_TIMEOUT_MS);
      return { reused: existing !== undefined, pagesSeen: context.pages().length, page: p };
    },
    ({ page: _, ...rest }) => rest,
  );
  const p = page?.page;
  if (p && context) {
    await r.run('goto', async () => {
      const res = await p.goto(fixtures.formUrl, { waitUntil: 'load' });
      return { status: res?.status() ?? null, title: await p.title(), url: p.url() };
    });
    await r.run('click', async () => {
      await p.click('#go');
      return p.textContent('#status');
    });
    await r.run('fill', async () => {
      await p.fill('#name', 'Ada Lovelace');
      return p.inputValue('#name');
    });
    await r.run('press', async () => {
      await p.press('#name', 'Enter');
      return p.textContent('#keyed');
    });
    await r.run('evaluate', async () => p.evaluate(() => ({ title: document.title, sum: 1 + 2, href: location.href })));
    await r.run('waitForSelector', async () => {
      const absentBefore = (await p.$('#late')) === null;
      await p.click('#arm');
      const el = await p.waitForSelector('#late', { timeout: 5_000 });
      return { absentBefore, text: await el?.textContent() };
    });
    for (const name of ['same', 'cross'] as const) {
      await r.run(`${name}-origin frame`, async () => {
        const f = p.frame({ name });
        if (!f)
          throw new Error(
            `no frame named "${name}" among ${p
              .frames()
              .map((x) => x.url())
              .join(', ')}`,
          );
        const text = await f.textContent('#frame-text');
        await f.click('#frame-btn');
        const status = await f.textContent('#frame-status');
        return { url: f.url(), crossOrigin: new URL(f.url()).origin !== new URL(p.url()).origin, text, status };
      });
    }
    const second = await r.run(
      'new page',
      async () => {
        const p2 = await context.newPage();
        p2.setDefaultTimeout(STEP_TIMEOUT_MS);
        await p2.goto(fixtures.lateUrl, { waitUntil: 'load' });
        const el = await p2.waitForSelector('#late-content', { timeout: 5_000 });
        return { page: p2, title: await p2.title(), text: await el?.textContent(), pages: context.pages().length };
      },
      ({ page: _, ...rest }) => rest,
    );
    const p2 = second?.page;
    await r.run('screenshot', async () => {
      await p.bringToFront();
      const bytes = await p.screenshot({ type: 'png' });
      return { bytes: bytes.length, png: isPng(bytes) };
    });
    await r.run('ariaSnapshot', async () => p.locator('body').ariaSnapshot());
    await r.run('page close', async () => {
      if (!p2) throw new Error('no second page to close (the "new page" step failed)');
      await p2.close();
      return { closed: p2.isClosed(), pages: context.pages().length };
    });
  }
  await r.run(
    'browser close',
    async () => {
      await browser.close();
      return browserStillUp(endpoint);
    },
    undefined,
    { always: true },
  );
  return r.record('playwright', via, url);
}

// ---- puppeteer ------------------------------------------------------------------------------------

async function textOf(page: PptrPage | import('puppeteer-core').Frame, selector: string): Promise<string | null> {
  return page.$eval(selector, (e) => e.textContent);
}

/** puppeteer-core 24 `puppeteer.connect` (browserURL or browserWSEndpoint) through the same steps. */
export async function puppeteerScenario(endpoint: CdpEndpoint, fixtures: CdpFixtures, via: 'http' | 'ws'): Promise<ScenarioRecord> {
  const r = new StepRunner();
  const url = endpointUrl(endpoint, via);
  // defaultViewport null: leave the person's window size alone (puppeteer otherwise emulates 800x600).
  const browser: PptrBrowser | undefined = await r.run(
    'connect',
    async () =>
      puppeteer.connect({
        ...(via === 'http' ? { browserURL: url } : { browserWSEndpoint: url }),
        defaultViewport: null,
        protocolTimeout: STEP_TIMEOUT_MS,
      }),
    (b) => ({ connected: b.connected }),
  );
  if (!browser) return r.record('puppeteer', via, url);
  const page = await r.run(
    'page',
    async () => {
      const pages = await browser.pages();
      const existing = pages[0];
      const p = existing ?? (await browser.newPage());
      p.setDefaultTimeout(STEP_TIMEOUT_MS);
      return { reused: existing !== undefined, pagesSeen: pages.length, page: p };
    },
    ({ page: _, ...rest }) => rest,
  );
  const p = page?.page;
  if (p) {
    await r.run('goto', async () => {
      const res = await p.goto(fixtures.formUrl, { waitUntil: 'load' });
      return { status: res?.status() ?? null, title: await p.title(), url: p.url() };
    });
    await r.run('click', async () => {
      await p.click('#go');
      return textOf(p, '#status');
    });
    await r.run('fill', async () => {
      await p.locator('#name').fill('Ada Lovelace');
      return p.$eval('#name', (e) => (e as HTMLInputElement).value);
    });
    await r.run('press', async () => {
      await p.focus('#name');
      await p.keyboard.press('Enter');
      return textOf(p, '#keyed');
    });
    await r.run('evaluate', async () => p.evaluate(() => ({ title: document.title, sum: 1 + 2, href: location.href })));
    await r.run('waitForSelector', async () => {
      const absentBefore = (await p.$('#late')) === null;
      await p.click('#arm');
      const el = await p.waitForSelector('#late', { timeout: 5_000 });
      return { absentBefore, text: await el?.evaluate((e) => e.textContent) };
    });
    await r.run('same-origin frame', async () => {
      // page.frames(): every frame of the page's frame tree, out-of-process ones included.
      const f = p.frames().find((x) => x.url().includes('frame.html?same'));
      if (!f)
        throw new Error(
          `no same-origin frame among ${p
            .frames()
            .map((x) => x.url())
            .join(', ')}`,
        );
      const text = await textOf(f, '#frame-text');
      await f.click('#frame-btn');
      return {
        url: f.url(),
        crossOrigin: new URL(f.url()).origin !== new URL(p.url()).origin,
        text,
        status: await textOf(f, '#frame-status'),
      };
    });
    await r.run('cross-origin frame', async () => {
      // ElementHandle.contentFrame(): the iframe element's frame, here in another renderer process.
      const handle = await p.$('iframe#cross');
      const f = await handle?.contentFrame();
      if (!f) throw new Error('iframe#cross has no content frame');
      await f.waitForSelector('#frame-text');
      const text = await textOf(f, '#frame-text');
      await f.click('#frame-btn');
      return {
        url: f.url(),
        crossOrigin: new URL(f.url()).origin !== new URL(p.url()).origin,
        text,
        status: await textOf(f, '#frame-status'),
      };
    });
    const second = await r.run(
      'new page',
      async () => {
        const p2 = await browser.newPage();
        p2.setDefaultTimeout(STEP_TIMEOUT_MS);
        await p2.goto(fixtures.lateUrl, { waitUntil: 'load' });
        const el = await p2.waitForSelector('#late-content', { timeout: 5_000 });
        return { page: p2, title: await p2.title(), text: await el?.evaluate((e) => e.textContent), pages: (await browser.pages()).length };
      },
      ({ page: _, ...rest }) => rest,
    );
    const p2 = second?.page;
    await r.run('screenshot', async () => {
      await p.bringToFront();
      const bytes = await p.screenshot({ type: 'png' });
      return { bytes: bytes.length, png: isPng(bytes) };
    });
    await r.run('accessibility snapshot', async () => p.accessibility.snapshot());
    await r.run('page close', async () => {
      if (!p2) throw new Error('no second page to close (the "new page" step failed)');
      await p2.close();
      return { closed: p2.isClosed(), pages: (await browser.pages()).length };
    });
  }
  await r.run(
    'disconnect',
    async () => {
      await browser.disconnect();
      return browserStillUp(endpoint);
    },
    undefined,
    { always: true },
  );
  return r.record('puppeteer', via, url);
}

// ---- chrome-devtools-mcp --------------------------------------------------------------------------

export interface McpToolCall {
  tool: string;
  args: Record<string, unknown>;
  isError: boolean;
  text: string;
}

function toolText(r: Awaited<ReturnType<Client['callTool']>>): string {
  const content = (r.content ?? []) as { type: string; text?: string }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

/**
 * chrome-devtools-mcp (the Chrome DevTools team's MCP server, puppeteer inside) started over stdio
 * by the official MCP SDK client, as an MCP client config would run it, with --browserUrl (http) or
 * --wsEndpoint (ws). Calls list_pages, navigate_page to the form fixture, take_snapshot.
 */
export async function chromeDevtoolsMcpScenario(endpoint: CdpEndpoint, fixtures: CdpFixtures, via: 'http' | 'ws'): Promise<ScenarioRecord> {
  const r = new StepRunner();
  const url = endpointUrl(endpoint, via);
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      CHROME_DEVTOOLS_MCP_BIN,
      via === 'http' ? '--browserUrl' : '--wsEndpoint',
      url,
      // No data leaves the machine: no usage statistics, no CrUX look-ups.
      '--no-usage-statistics',
      '--no-performance-crux',
    ],
    // No update check either: it would spawn a detached process that asks the npm registry for the
    // latest version and writes ~/.cache/chrome-devtools-mcp.
    env: {
      PATH: process.env['PATH'] ?? '',
      CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
      CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
      HOME: os.tmpdir(),
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => stderr.push(String(d)));
  const client = new Client({ name: 'cdp-clients-test', version: '1.0.0' });
  const connected = await r.run('connect', async () => {
    await client.connect(transport);
    return client.getServerVersion() ?? null;
  });
  if (connected !== undefined) {
    const call = async (tool: string, args: Record<string, unknown> = {}): Promise<McpToolCall> => {
      const res = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: STEP_TIMEOUT_MS });
      const out = { tool, args, isError: res.isError === true, text: toolText(res) };
      if (out.isError) throw new Error(`${tool} answered an error: ${out.text.slice(0, 400)}`);
      return out;
    };
    await r.run('tools', async () => (await client.listTools()).tools.map((t) => t.name));
    const listed = await r.run('list_pages', async () => call('list_pages'));
    // With --pageIdRouting (the default) page tools take the pageId list_pages printed.
    const pageId = /^(\d+):/m.exec(listed?.text ?? '')?.[1];
    const pageArgs = pageId !== undefined ? { pageId: Number(pageId) } : {};
    await r.run('navigate_page', async () => call('navigate_page', { ...pageArgs, type: 'url', url: fixtures.formUrl }));
    await r.run('take_snapshot', async () => call('take_snapshot', pageArgs));
  }
  await r.run(
    'close',
    async () => {
      await client.close();
      return browserStillUp(endpoint);
    },
    undefined,
    { always: true },
  );
  const rec = r.record('chrome-devtools-mcp', via, url);
  const failed = rec.steps.find((s) => !s.ok);
  if (failed && stderr.length) failed.error = redactToken(`${failed.error}; server stderr: ${stderr.join('').slice(-600)}`);
  return rec;
}

// ---- hostile probes -------------------------------------------------------------------------------

export interface ProbeResult {
  probe: string;
  /** HTTP status, or 101 when a WebSocket upgrade was accepted; null when the connection failed. */
  status: number | null;
  error?: string;
}

function rawRequest(target: string, headers: Record<string, string>, upgrade: boolean): Promise<ProbeResult['status']> {
  const u = new URL(target.replace(/^ws/, 'http'));
  return new Promise((resolve) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: `${u.pathname}${u.search}`,
      method: 'GET',
      setHost: !('Host' in headers),
      headers: upgrade
        ? {
            Connection: 'Upgrade',
            Upgrade: 'websocket',
            'Sec-WebSocket-Version': '13',
            'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'),
            ...headers,
          }
        : headers,
      timeout: 5_000,
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 101);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end();
  });
}

/**
 * Requests a page on another site could make, or a client without the token: each answered with
 * its status. `token`, when given, is the secret path segment of httpBase/wsUrl (the bridge's
 * /cdp/<token>); the no-token and wrong-token probes are skipped without one (plain Chromium).
 */
export async function hostileProbes(endpoint: CdpEndpoint & { token?: string }): Promise<ProbeResult[]> {
  const out: ProbeResult[] = [];
  const probe = async (name: string, target: string, headers: Record<string, string>, upgrade: boolean): Promise<void> => {
    out.push({ probe: name, status: await rawRequest(target, headers, upgrade) });
  };
  const swapToken = (u: string, to: string): string => {
    if (!endpoint.token) return u;
    return u.replace(`/${endpoint.token}`, to);
  };
  const wrong = `/${crypto.randomBytes(24).toString('base64url')}`;
  const version = endpoint.httpBase ? `${endpoint.httpBase}/json/version` : undefined;
  if (version) {
    await probe('http baseline', version, {}, false);
    if (endpoint.token) {
      await probe('http no token', swapToken(version, ''), {}, false);
      await probe('http wrong token', swapToken(version, wrong), {}, false);
    }
    await probe('http Origin header', version, { Origin: 'https://evil.example' }, false);
    await probe('http foreign Host', version, { Host: 'evil.example' }, false);
  }
  if (endpoint.wsUrl) {
    await probe('ws baseline', endpoint.wsUrl, {}, true);
    if (endpoint.token) {
      await probe('ws no token', swapToken(endpoint.wsUrl, ''), {}, true);
      await probe('ws wrong token', swapToken(endpoint.wsUrl, wrong), {}, true);
    }
    await probe('ws Origin header', endpoint.wsUrl, { Origin: 'https://evil.example' }, true);
    await probe('ws foreign Host', endpoint.wsUrl, { Host: 'evil.example' }, true);
  }
  return out;
}

// ---- plain Chromium -------------------------------------------------------------------------------

export interface PlainChromium {
  endpoint: Required<CdpEndpoint>;
  process: ChildProcess;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with --remote-debugging-port=0 and a temp profile: the reference endpoint. */
export async function launchPlainChromium(): Promise<PlainChromium> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-'));
  const child = spawn(
    CHROMIUM_PATH,
    [
      '--headless',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // On by default on desktop; said here because the cross-origin frame case depends on it.
      '--site-per-process',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const wsUrl = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools URL in 20 s: ${err.slice(-500)}`)), 20_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += String(d);
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before listening: ${err.slice(-500)}`)));
  });
  const httpBase = `http://${new URL(wsUrl).host}`;
  return {
    endpoint: { httpBase, wsUrl },
    process: child,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await removeProfile(profile);
    },
  };
}

// ---- logging proxy --------------------------------------------------------------------------------

export interface CdpLogEntry {
  /** Connection number (each client WebSocket), 0 for HTTP requests. */
  conn: number;
  t: number;
  kind: 'http' | 'open' | 'close' | 'send' | 'recv';
  path?: string;
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  /** Size of the WebSocket message as sent, before long strings were shortened for the log. */
  bytes?: number;
  msg?: { id?: number; method?: string; sessionId?: string; params?: unknown; result?: unknown; error?: unknown };
}

export interface LoggingProxy {
  endpoint: Required<CdpEndpoint>;
  log: CdpLogEntry[];
  close(): Promise<void>;
}

/** Long strings (screenshots, scripts) shortened so the log stays readable. */
function shorten(v: unknown): unknown {
  if (typeof v === 'string') return v.length > 160 ? `${v.slice(0, 80)}…<${v.length} chars>` : v;
  if (Array.isArray(v)) return v.map(shorten);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x)]));
  return v;
}

/**
 * A proxy in front of a real CDP endpoint: HTTP /json* passed through with ws URLs rewritten to the
 * proxy, WebSockets piped both ways, every message logged in order.
 */
export async function startLoggingProxy(upstream: Required<CdpEndpoint>): Promise<LoggingProxy> {
  const log: CdpLogEntry[] = [];
  const t0 = Date.now();
  const up = new URL(upstream.httpBase);
  let conns = 0;
  let self = '';
  const rewrite = (s: string): string => s.split(`${up.host}/`).join(`${self}/`);
  const server = http.createServer((req, res) => {
    void (async () => {
      const r = await fetch(`${upstream.httpBase}${req.url ?? '/'}`, { method: req.method });
      const body = rewrite(await r.text());
      log.push({ conn: 0, t: Date.now() - t0, kind: 'http', path: redactToken(req.url ?? ''), status: r.status, headers: req.headers });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    })().catch((err: unknown) => {
      res.writeHead(502).end(String(err));
    });
  });
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (client) => {
      const conn = ++conns;
      log.push({ conn, t: Date.now() - t0, kind: 'open', path: redactToken(req.url ?? ''), headers: req.headers });
      const browser = new WebSocket(`ws://${up.host}${req.url ?? '/'}`, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
      const pending: string[] = [];
      const entry = (kind: 'send' | 'recv', data: string): void => {
        const msg = JSON.parse(data) as CdpLogEntry['msg'];
        log.push({ conn, t: Date.now() - t0, kind, bytes: Buffer.byteLength(data), msg: shorten(msg) as CdpLogEntry['msg'] });
      };
      client.on('message', (data) => {
        const s = String(data);
        entry('send', s);
        if (browser.readyState === WebSocket.OPEN) browser.send(s);
        else pending.push(s);
      });
      browser.on('open', () => pending.splice(0).forEach((s) => browser.send(s)));
      browser.on('message', (data) => {
        const s = String(data);
        entry('recv', s);
        if (client.readyState === WebSocket.OPEN) client.send(s);
      });
      const end = (who: string) => () => {
        if (!log.some((e) => e.conn === conn && e.kind === 'close')) log.push({ conn, t: Date.now() - t0, kind: 'close', path: who });
        client.close();
        browser.close();
      };
      client.on('close', end('client closed'));
      browser.on('close', end('browser closed'));
      browser.on('error', end('browser error'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const wsPath = new URL(upstream.wsUrl).pathname;
  return {
    endpoint: { httpBase: `http://${self}`, wsUrl: `ws://${self}${wsPath}` },
    log,
    async close() {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Browser-level commands (no sessionId) a client sent, each method once, in first-use order. */
export function browserLevelMethods(log: readonly CdpLogEntry[]): string[] {
  const seen: string[] = [];
  for (const e of log) {
    const method = e.msg?.method;
    if (e.kind === 'send' && method && !e.msg?.sessionId && !seen.includes(method)) seen.push(method);
  }
  return seen;
}

/**
 * For each browser-level `command` the client sent: did an `event` for the same target (matched by
 * the answer's targetId) reach the client before the answer? Chromium sends Target.attachedToTarget
 * before answering Target.createTarget, and Playwright depends on it.
 */
export function eventsBeforeAnswers(log: readonly CdpLogEntry[], command: string, event: string): boolean[] {
  const out: boolean[] = [];
  for (const [i, e] of log.entries()) {
    if (e.kind !== 'send' || e.msg?.method !== command || e.msg.sessionId) continue;
    const answerAt = log.findIndex(
      (a, j) => j > i && a.conn === e.conn && a.kind === 'recv' && a.msg?.id === e.msg?.id && !a.msg?.sessionId,
    );
    const answer = log[answerAt]?.msg?.result as { targetId?: string } | undefined;
    const before = log.slice(i + 1, answerAt < 0 ? undefined : answerAt);
    out.push(
      answerAt >= 0 &&
        before.some(
          (b) =>
            b.conn === e.conn &&
            b.msg?.method === event &&
            (b.msg.params as { targetInfo?: { targetId?: string } })?.targetInfo?.targetId === answer?.targetId,
        ),
    );
  }
  return out;
}

/**
 * One line per browser-level message (no sessionId) plus the Target.* events on any session, as in
 * docs/CDP-CLIENTS-PW-PPTR.md section 2. To re-record against any endpoint (Chromium or the bridge):
 *   const proxy = await startLoggingProxy(endpoint);
 *   await playwrightScenario(proxy.endpoint, fixtures, 'http');
 *   console.log(formatBrowserLevelLog(proxy.log));
 */
export function formatBrowserLevelLog(log: readonly CdpLogEntry[]): string {
  const methods = new Map<string, string>();
  const lines: string[] = [];
  const brief = (v: unknown): string => JSON.stringify(v ?? {}).slice(0, 300);
  for (const e of log) {
    const m = e.msg;
    if (e.kind === 'http') lines.push(`HTTP GET ${e.path} -> ${e.status} (User-Agent: ${String(e.headers?.['user-agent'])})`);
    else if (e.kind === 'open') lines.push(`[${e.conn}] WebSocket ${e.path} (User-Agent: ${String(e.headers?.['user-agent'])})`);
    else if (e.kind === 'close') lines.push(`[${e.conn}] closed: ${e.path}`);
    else if (m && e.kind === 'send' && m.id !== undefined) {
      methods.set(`${e.conn}:${m.id}`, m.method ?? '?');
      if (!m.sessionId) lines.push(`[${e.conn}] -> #${m.id} ${m.method} ${brief(m.params)}`);
    } else if (m && e.kind === 'recv' && m.id !== undefined && !m.sessionId) {
      const answer = m.error ? `ERROR ${brief(m.error)}` : brief(m.result);
      lines.push(`[${e.conn}] <- #${m.id} (${methods.get(`${e.conn}:${m.id}`) ?? '?'}) ${answer}`);
    } else if (m && e.kind === 'recv' && m.method && (!m.sessionId || m.method.startsWith('Target.'))) {
      lines.push(`[${e.conn}] <- ev ${m.method}${m.sessionId ? ` (on session ${m.sessionId.slice(0, 6)})` : ''} ${brief(m.params)}`);
    }
  }
  return lines.join('\n');
}

// ---- what chrome.debugger allows ------------------------------------------------------------------

/** A throwaway MV3 extension whose worker records chrome.debugger events (for probeChromeDebugger). */
const PROBE_MANIFEST = {
  manifest_version: 3,
  name: 'cdp probe',
  version: '1.0',
  permissions: ['debugger', 'tabs'],
  background: { service_worker: 'sw.js' },
};
const PROBE_WORKER = `self.events = [];
chrome.debugger.onEvent.addListener((source, method, params) => {
  self.events.push({ sessionId: source.sessionId, method, sid: params && params.sessionId,
    type: params && params.targetInfo && params.targetInfo.type, waiting: params && params.waitingForDebugger });
});
chrome.debugger.onDetach.addListener((source, reason) => self.events.push({ method: 'onDetach', reason }));`;
/** Runs in the extension's worker: attaches to the tab at formUrl and tries each command in turn. */
const PROBE_SCRIPT = `async (formUrl) => {
    const tabs = await chrome.tabs.query({});
    const tab = tabs.find((t) => t.url === formUrl);
    const target = { tabId: tab.id };
    await chrome.debugger.attach(target, '1.3');
    const results = {};
    const send = async (label, method, params = {}, t = target) => {
      try { const r = await chrome.debugger.sendCommand(t , method, params); results[label] = 'ok ' + JSON.stringify(r).slice(0, 160); return r; }
      catch (e) { results[label] = 'ERR ' + String(e.message).slice(0, 160); return undefined; }
    };
    const ft = await send('Page.getFrameTree', 'Page.getFrameTree');
    const frameId = ft?.frameTree.frame.id ?? '';
    const me = await send('Target.getTargetInfo {}', 'Target.getTargetInfo');
    for (const [m, p] of [
      ['Browser.getVersion', {}], ['Target.getBrowserContexts', {}], ['Target.setDiscoverTargets', { discover: true }], ['Target.getTargets', {}],
      ['Target.getDevToolsTarget', { targetId: me?.targetInfo.targetId }],
      ['Browser.setDownloadBehavior', { behavior: 'default' }], ['Browser.getWindowForTarget', {}],
      ['Page.enable', {}], ['Log.enable', {}], ['Page.setLifecycleEventsEnabled', { enabled: true }], ['Runtime.enable', {}],
      ['Page.addScriptToEvaluateOnNewDocument', { source: '', worldName: 'probe_world' }], ['Network.enable', {}],
      ['Emulation.setFocusEmulationEnabled', { enabled: true }], ['Page.setFontFamilies', { fontFamilies: { standard: 'Arial' } }],
      ['Emulation.setEmulatedMedia', { media: '', features: [{ name: 'prefers-color-scheme', value: 'light' }] }], ['Inspector.enable', {}],
      ['Runtime.runIfWaitingForDebugger', {}], ['Page.createIsolatedWorld', { frameId, worldName: 'probe_world', grantUniveralAccess: true }],
      ['Audits.enable', {}], ['Performance.enable', {}], ['WebMCP.enable', {}], ['Autofill.enable', {}], ['Autofill.setAddresses', { addresses: [] }],
      ['Debugger.enable', {}], ['Debugger.disable', {}], ['Profiler.enable', {}], ['CSS.enable', {}], ['DOM.enable', {}], ['Storage.getStorageKey', { frameId }],
      ['Network.setAttachDebugStack', { enabled: true }], ['Page.bringToFront', {}], ['Page.getLayoutMetrics', {}], ['Accessibility.getFullAXTree', {}],
      ['Page.captureScreenshot', { format: 'png' }], ['Input.dispatchMouseEvent', { type: 'mouseMoved', x: 1, y: 1 }],
      ['Runtime.addBinding', { name: 'probeBinding' }], ['Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }],
    ]) await send(m, m, p);
    await new Promise((r) => setTimeout(r, 500));
    const child = self.events.find((e) => e.method === 'Target.attachedToTarget' && e.type === 'iframe');
    if (child?.sid) {
      await send('child Runtime.evaluate', 'Runtime.evaluate', { expression: 'location.href', returnByValue: true }, { ...target, sessionId: child.sid });
      await send('child Runtime.runIfWaitingForDebugger', 'Runtime.runIfWaitingForDebugger', {}, { ...target, sessionId: child.sid });
      await send('child Target.setAutoAttach', 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, { ...target, sessionId: child.sid });
    }
    // A second attach to the same tab from the same extension.
    try { await chrome.debugger.attach(target, '1.3'); results['second chrome.debugger.attach'] = 'ok'; } catch (e) { results['second chrome.debugger.attach'] = 'ERR ' + String(e.message); }
    await send('Target.attachToTarget (own page)', 'Target.attachToTarget', { targetId: me?.targetInfo.targetId, flatten: true });
    const tabsBeforeCreate0 = (await chrome.tabs.query({})).length;
    const created = await send('Target.createTarget', 'Target.createTarget', { url: 'about:blank' });
    await new Promise((r) => setTimeout(r, 300));
    const tabsBefore = (await chrome.tabs.query({})).length;
    await send('Target.activateTarget (created)', 'Target.activateTarget', { targetId: created?.targetId });
    await send('Target.closeTarget (created)', 'Target.closeTarget', { targetId: created?.targetId });
    await new Promise((r) => setTimeout(r, 300));
    results['tabs before/after createTarget'] = tabsBeforeCreate0 + ' / ' + tabsBefore;
    results['tabs before/after closeTarget'] = tabsBefore + ' / ' + (await chrome.tabs.query({})).length;
    await send('Target.attachToBrowserTarget', 'Target.attachToBrowserTarget');
    await send('Target.exposeDevToolsProtocol', 'Target.exposeDevToolsProtocol', { targetId: me?.targetInfo.targetId });
    await send('Target.createBrowserContext', 'Target.createBrowserContext');
    await send('Target.autoAttachRelated', 'Target.autoAttachRelated', { targetId: me?.targetInfo.targetId, waitForDebuggerOnStart: false });
    await send('Target.detachFromTarget (child)', 'Target.detachFromTarget', { sessionId: child?.sid });
    await send('Page.navigate file', 'Page.navigate', { url: 'file:///etc/hostname' });
    await new Promise((r) => setTimeout(r, 500));
    results['tab url after file navigation'] = (await chrome.tabs.get(tab.id)).url;
    await send('Page.navigate chrome://', 'Page.navigate', { url: 'chrome://settings' });
    await new Promise((r) => setTimeout(r, 300));
    results['onDetach after chrome:// navigation'] = JSON.stringify(self.events.filter((e) => e.method === 'onDetach'));
    await send('Page.close', 'Page.close');
    await send('Browser.close', 'Browser.close');
    const events = self.events;
    return { results, me, events: events.filter((e) => String(e.method).startsWith('Target.') || e.method === 'onDetach').slice(0, 20), eventCount: events.length };
  }`;

export interface ChromeDebuggerProbe {
  /** Per command: "ok <answer>" or "ERR <Chrome's error>"; plus a few observations (tab counts, urls). */
  results: Record<string, string>;
  events: unknown[];
}

/**
 * What an extension can and cannot send through chrome.debugger to a tab showing `formUrl` (the
 * form fixture, with its cross-origin frame): every browser-level method the CDP clients use, their
 * page setup lists, a child (OOPIF) session, a second attach, navigations to file: and chrome: URLs.
 * Measured in Debian's Chromium with a throwaway extension; docs/CDP-CLIENTS-PW-PPTR.md section 5
 * quotes the answers.
 */
export async function probeChromeDebugger(formUrl: string): Promise<ChromeDebuggerProbe> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-dbgprobe-'));
  const ext = path.join(dir, 'extension');
  fs.mkdirSync(ext);
  fs.writeFileSync(path.join(ext, 'manifest.json'), JSON.stringify(PROBE_MANIFEST));
  fs.writeFileSync(path.join(ext, 'sw.js'), PROBE_WORKER);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    userDataDir: path.join(dir, 'profile'),
    ignoreDefaultArgs: ['--disable-extensions'],
    args: ['--no-sandbox', '--disable-gpu', '--site-per-process', `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
  });
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.goto(formUrl, { waitUntil: 'load' });
    const worker = await (await browser.waitForTarget((t) => t.type() === 'service_worker', { timeout: 10_000 })).worker();
    if (!worker) throw new Error('the probe extension has no service worker');
    // A string, not a function: the test runner's transpiler would add helpers the worker lacks.
    return (await worker.evaluate(`(${PROBE_SCRIPT})(${JSON.stringify(formUrl)})`)) as ChromeDebuggerProbe;
  } finally {
    await browser.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}
