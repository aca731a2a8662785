// The extension's side panel page for e2e tests, and screenshots of it into test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';

import type { Page } from 'puppeteer-core';

import { EXTENSION_ID } from '../../bridge/common/extension-id';
import { type LaunchedBrowser, REPO_ROOT } from './browser';

export const PANEL_URL = `chrome-extension://${EXTENSION_ID}/sidepanel/index.html`;

/** The panel page in a popup window of its own: like the real side panel it is not a tab of the
 * person's window, so it never becomes the agent's "active tab" (list_tabs lists normal windows). */
export async function openPanel(browser: LaunchedBrowser['browser'], size = { width: 420, height: 820 }): Promise<Page> {
  const opener = await browser.newPage();
  await opener.goto(PANEL_URL, { waitUntil: 'load' });
  const target = browser.waitForTarget((t) => t.url() === PANEL_URL && t.type() === 'page' && t !== opener.target(), { timeout: 20_000 });
  await opener.evaluate(
    (u, s) =>
      (globalThis as unknown as { chrome: { windows: { create(o: unknown): Promise<unknown> } } }).chrome.windows.create({
        url: u,
        type: 'popup',
        ...s,
      }),
    PANEL_URL,
    size,
  );
  const panel = (await (await target).page()) as Page;
  await opener.close();
  await panel.setViewport(size);
  await panel.waitForSelector('#connection');
  return panel;
}

/** A full-page screenshot into test-artifacts/<dir>/<name>.png. */
export async function artifactShot(dir: string, page: Page, name: string): Promise<void> {
  const out = path.join(REPO_ROOT, 'test-artifacts', dir);
  fs.mkdirSync(out, { recursive: true });
  await page.screenshot({ path: path.join(out, `${name}.png`) as `${string}.png`, fullPage: true });
}
