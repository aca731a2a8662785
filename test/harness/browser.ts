// Launches Debian's Chromium, headless, with the built extension loaded and pointed at a bridge.
// Recipe measured in ../shared/reference/e2e-recipe.md (variant B): --load-extension with
// puppeteer's default --disable-extensions removed. The extension is copied to a temp dir so the
// harness can write config.json (the bridge URL) next to the worker without touching dist/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const BUILT_EXTENSION = path.join(REPO_ROOT, 'dist', 'extension');
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export interface LaunchedBrowser {
  browser: Browser;
  extensionDir: string;
  profileDir: string;
  /** Where this browser's downloads land (the profile's download.default_directory). */
  downloadDir: string;
  close(): Promise<void>;
}

export interface LaunchOptions {
  extensionBridgeUrl: string;
  /** Extra values for the extension's config.json. */
  extensionConfig?: Record<string, unknown>;
  headless?: boolean;
  /** Another built extension to load (a bench comparing two builds in one run); default dist/extension. */
  extensionDir?: string;
}

/** Where one launched Chromium keeps its files: all under `root`, removed by close(). */
export interface ProfileDirs {
  root: string;
  extensionDir: string;
  profileDir: string;
  downloadDir: string;
}

/** A temp profile folder and a copy of the built extension with its config.json, ready to launch. */
export function prepareProfile(opts: LaunchOptions): ProfileDirs {
  const built = opts.extensionDir ?? BUILT_EXTENSION;
  if (!fs.existsSync(path.join(built, 'manifest.json'))) {
    throw new Error(`No built extension at ${built}. Run \`npm run build\` first.`);
  }
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-'));
  const extensionDir = path.join(root, 'extension');
  const profileDir = path.join(root, 'profile');
  fs.cpSync(built, extensionDir, { recursive: true });
  fs.writeFileSync(
    path.join(extensionDir, 'config.json'),
    JSON.stringify({ bridge_url: opts.extensionBridgeUrl, ...opts.extensionConfig }),
  );
  // Test-only: the profile's Downloads folder is a temp dir (as a person's Chrome setting would
  // name one), never the extension's doing: the extension leaves Chrome's folder alone.
  const downloadDir = path.join(root, 'downloads');
  fs.mkdirSync(path.join(profileDir, 'Default'), { recursive: true });
  fs.mkdirSync(downloadDir);
  fs.writeFileSync(
    path.join(profileDir, 'Default', 'Preferences'),
    JSON.stringify({ download: { default_directory: downloadDir, prompt_for_download: false, directory_upgrade: true } }),
  );
  return { root, extensionDir, profileDir, downloadDir };
}

/** Starts Chromium on a prepared profile (again after it was killed: the same folder is the same profile). */
export function startChromium(dirs: ProfileDirs, headless = true): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless,
    userDataDir: dirs.profileDir,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${dirs.extensionDir}`,
      `--load-extension=${dirs.extensionDir}`,
    ],
  });
}

export async function launchWithExtension(opts: LaunchOptions): Promise<LaunchedBrowser> {
  const dirs = prepareProfile(opts);
  const browser = await startChromium(dirs, opts.headless ?? true);
  return {
    browser,
    extensionDir: dirs.extensionDir,
    profileDir: dirs.profileDir,
    downloadDir: dirs.downloadDir,
    async close() {
      await browser.close().catch(() => undefined);
      fs.rmSync(dirs.root, { recursive: true, force: true });
    },
  };
}

/** Opens a tab at url, waits for its load and brings it to the front (the tab an agent's first state takes). */
export async function openTab(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.bringToFront();
  return page;
}
