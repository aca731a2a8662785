// Several browsers on one bridge, as a person with a work and a personal profile has them: more
// Chromium instances beside the harness's own, each with its own profile folder and the same built
// extension, paired with the harness's bridge the way startHarness pairs the first (the pairing
// secret in config.json). One can be killed and started again on the same profile (a crash and a
// restart: the extension keeps its browser id in that profile's storage), and each tells what it
// has open from its own side (chrome.tabs in its extension's worker): the ground truth a test checks
// the bridge's account against, since tab ids of two browsers may well be the same numbers.
import fs from 'node:fs';

import type { Browser, Page, WebWorker } from 'puppeteer-core';

import type { BrowserInfo } from '../../schemas/generated/protocol';
import { prepareProfile, type ProfileDirs, startChromium } from './browser';
import type { Harness } from './harness';
import { until } from './until';

/** One tab as the browser itself reports it (chrome.tabs.Tab, the fields a test compares). */
export interface OwnTab {
  id: number;
  windowId: number;
  url: string;
  active: boolean;
}

/** An agent session in /status, with the browser it works in (its name). */
export interface StatusSession {
  session_id: string;
  connected: boolean;
  client: { name: string } | null;
  browser?: string;
  tabs: { tab_id: number; url: string | null }[];
}

/** The parts of /status a test of several browsers reads. */
export interface BridgeStatus {
  extension: unknown;
  browsers?: BrowserInfo[];
  sessions: StatusSession[];
}

/** The bridge's /status over HTTP, as a person or a script reads it. */
export async function readStatus(h: Harness): Promise<BridgeStatus> {
  return (await (await fetch(`http://127.0.0.1:${h.bridge.port}/status`)).json()) as BridgeStatus;
}

/** /status.browsers; throws naming the missing contract point when the bridge has no such list. */
export async function statusBrowsers(h: Harness): Promise<BrowserInfo[]> {
  const s = await readStatus(h);
  if (!Array.isArray(s.browsers))
    throw new Error(`contract: /status has no "browsers" list (the bridge knows one browser only): ${JSON.stringify(s)}`);
  return s.browsers;
}

/** Waits until /status lists a browser `pick` chooses, and returns it. */
export function waitForBrowser(h: Harness, what: string, pick: (b: BrowserInfo[]) => BrowserInfo | undefined, capMs = 30_000) {
  return until(`/status to list ${what}`, capMs, async () => pick(await statusBrowsers(h)));
}

/** The extension's service worker in a browser (Chrome starts it again on demand: waited for). */
export async function extensionWorker(browser: Browser): Promise<WebWorker> {
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), {
    timeout: 15_000,
  });
  const worker = await target.worker();
  if (!worker) throw new Error('the extension has no service worker in this browser');
  // A worker that has just started may be evaluated before its extension APIs are bound.
  await until('the extension APIs in its service worker', 10_000, () =>
    worker.evaluate(() => typeof (globalThis as { chrome?: { tabs?: unknown } }).chrome?.tabs === 'object'),
  );
  return worker;
}

type ChromeTabs = { chrome: { tabs: { query(q: object): Promise<OwnTab[]> } } };
type ChromeSession = { chrome: { storage: { session: { get(k: string): Promise<Record<string, { state?: string }>> } } } };

/** Every tab this browser has open, from its own chrome.tabs (normal windows and popups alike). */
export async function tabsOf(browser: Browser): Promise<OwnTab[]> {
  const worker = await extensionWorker(browser);
  return worker.evaluate(async () =>
    (await (globalThis as unknown as ChromeTabs).chrome.tabs.query({})).map((t) => ({
      id: t.id,
      windowId: t.windowId,
      url: t.url,
      active: t.active,
    })),
  );
}

/** The connection state the extension shows its person (connected, not_paired, secret_refused, ...). */
export async function connectionStateOf(browser: Browser): Promise<string | undefined> {
  const worker = await extensionWorker(browser);
  return worker.evaluate(async () => {
    const got = await (globalThis as unknown as ChromeSession).chrome.storage.session.get('bux_connection');
    return got['bux_connection']?.state;
  });
}

/** Another Chromium with the built extension and a profile folder of its own, kept across restarts. */
export class ExtraBrowser {
  private constructor(
    private readonly dirs: ProfileDirs,
    private current: Browser | null,
  ) {}

  /** Launches it; `extensionSecret` is the pairing it ships with (another bridge's, or none: not paired). */
  static async launch(h: Harness, o: { extensionSecret?: string | null } = {}): Promise<ExtraBrowser> {
    const secret = o.extensionSecret === undefined ? h.secrets.extension_secret : o.extensionSecret;
    const dirs = prepareProfile({
      extensionBridgeUrl: h.bridge.extensionUrl,
      extensionConfig: secret === null ? {} : { extension_secret: secret },
    });
    try {
      return new ExtraBrowser(dirs, await startChromium(dirs));
    } catch (e) {
      fs.rmSync(dirs.root, { recursive: true, force: true });
      throw e;
    }
  }

  get browser(): Browser {
    if (!this.current) throw new Error('this browser is not running (killed and not started again)');
    return this.current;
  }

  get running(): boolean {
    return this.current !== null;
  }

  /** Kills its process at once, as a crash or the person's force-quit does: nothing is closed in order. */
  async kill(): Promise<void> {
    const browser = this.current;
    if (!browser) return;
    this.current = null;
    const proc = browser.process();
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
    browser.disconnect().catch(() => undefined);
  }

  /** Starts it again on the same profile folder (the same extension storage, so the same browser id). */
  async start(): Promise<void> {
    if (this.current) throw new Error('this browser is running already');
    this.current = await startChromium(this.dirs);
  }

  async close(): Promise<void> {
    await this.current?.close().catch(() => undefined);
    this.current = null;
    fs.rmSync(this.dirs.root, { recursive: true, force: true });
  }
}

/**
 * Another paired browser on the harness's bridge: launched, then waited for until /status lists a
 * connected browser that was not connected before (its BrowserInfo is returned beside it).
 */
export async function launchPairedBrowser(h: Harness): Promise<{ extra: ExtraBrowser; info: BrowserInfo }> {
  const before = new Set((await statusBrowsers(h)).filter((b) => b.connected).map((b) => b.browser_id));
  const extra = await ExtraBrowser.launch(h);
  try {
    const info = await waitForBrowser(h, 'a second connected browser', (list) =>
      list.find((b) => b.connected && !before.has(b.browser_id)),
    );
    return { extra, info };
  } catch (e) {
    await extra.close();
    throw e;
  }
}

/**
 * Opens a new normal window at url in this browser and returns its page, as a person does to start
 * using that browser. Headless Chromium reports window focus (chrome.windows.onFocusChanged) only when
 * a window is created: page.bringToFront() and chrome.windows.update({focused}) change no focus there,
 * so a new window is how a test makes a browser the one used last.
 */
export async function openWindow(browser: Browser, url: string): Promise<Page> {
  const cdp = await browser.target().createCDPSession();
  try {
    const { targetId } = await cdp.send('Target.createTarget', { url, newWindow: true });
    const target = await browser.waitForTarget((t) => (t as unknown as { _targetId: string })._targetId === targetId, { timeout: 15_000 });
    const page = await target.page();
    if (!page) throw new Error(`the new window at ${url} has no page`);
    await page.waitForFunction(() => document.readyState === 'complete', { timeout: 15_000 });
    return page;
  } finally {
    await cdp.detach();
  }
}
