// The Settings page as a person uses it, in real Chromium with the built extension
// (chrome-extension://<id>/options.html): at 360 px wide it needs no sideways scrolling, every
// placeholder fits its field, Save stays in view wherever the page is scrolled, the main text is
// plain words (protocol terms only under "For developers"), it passes axe with zero serious or
// critical violations in light and dark, it is usable by keyboard alone (Tab order follows the
// page, focus is visible, Enter saves, a wrong value is explained next to its field and gets the
// focus, "Saved" is announced by a status region), and every setting is stored as before.
// PNGs go to test-artifacts/settings-page/.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { EXTENSION_ID } from '../../bridge/common/extension-id';
import { describeViolations, seriousAxeViolations } from '../harness/axe';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { artifactShot } from '../harness/panel';

const OPTIONS_URL = `chrome-extension://${EXTENSION_ID}/options.html`;
const shot = (page: Page, name: string) => artifactShot('settings-page', page, name);
/** What the window shows (the Save bar where it sits), not the whole page. */
async function viewShot(page: Page, name: string): Promise<void> {
  const dir = path.join(REPO_ROOT, 'test-artifacts', 'settings-page');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) as `${string}.png` });
}

type Stored = Record<string, unknown>;
const stored = (page: Page, keys: string[]) =>
  page.evaluate(
    (k: string[]) =>
      (globalThis as unknown as { chrome: { storage: { local: { get(k: string[]): Promise<Stored> } } } }).chrome.storage.local.get(k),
    keys,
  );

/** Replaces a field's text the way a person does: select all, type. */
async function retype(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector, { clickCount: 3 });
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  if (text) await page.type(selector, text);
}

describe('Settings page (real Chromium)', function () {
  this.timeout(120_000);
  let h: Harness;
  let page: Page;

  before(async () => {
    h = await startHarness();
    page = await h.launched.browser.newPage();
    await page.setViewport({ width: 360, height: 740 });
    await page.goto(OPTIONS_URL);
    await page.waitForFunction(() => (document.getElementById('bridge-url') as HTMLInputElement).value !== '');
    await page.waitForFunction(() => document.getElementById('status')?.dataset['state'] === 'connected', { timeout: 30_000 });
  });
  after(async () => {
    await h?.close();
  });

  it('fits 360 px: no sideways scroll, every placeholder fits its field, Save in view at the top, middle and bottom', async () => {
    const layout = await page.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      const tooWide: string[] = [];
      for (const f of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) {
        const cs = getComputedStyle(f);
        ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = f.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        for (const line of f.placeholder.split('\n'))
          if (ctx.measureText(line).width > room) tooWide.push(`${f.id || f.name}: "${line}" ${ctx.measureText(line).width} > ${room}`);
      }
      const overflowing = [...document.querySelectorAll<HTMLElement>('input, textarea, select')]
        .filter((f) => f.scrollWidth > f.clientWidth + 1 && f.tagName !== 'SELECT')
        .map((f) => f.id);
      return {
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        tooWide,
        overflowing,
        placeholders: document.querySelectorAll('[placeholder]').length,
      };
    });
    expect(layout.pageOverflow, 'horizontal scroll at 360 px').to.be.at.most(0);
    expect(layout.tooWide, 'placeholders cut off').to.deep.equal([]);
    expect(layout.overflowing, 'fields whose text overflows').to.deep.equal([]);
    expect(layout.placeholders).to.be.greaterThan(0);
    for (const y of [0, 0.5, 1]) {
      const inView = await page.evaluate((f: number) => {
        window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) * f);
        const r = document.getElementById('save')!.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
      }, y);
      expect(inView, `Save in view scrolled to ${y * 100}%`).to.equal(true);
      await viewShot(page, `00-window-360-scrolled-${y * 100}`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '01-light-360-top');
  });

  it('plain words: no protocol term, error code or npx outside "For developers"; product name browser-use-ext', async () => {
    const main = await page.evaluate(() => {
      const copy = document.body.cloneNode(true) as HTMLElement;
      for (const d of copy.querySelectorAll('details.dev, script')) d.remove();
      return copy.textContent ?? '';
    });
    expect(main).to.not.match(/HMAC|NOT_PERMITTED|open_tool|outcome_details|evaluate|npx|seed|Browser Use Agent|`/);
    expect(await page.$eval('h1', (e) => e.textContent)).to.equal('browser-use-ext settings');
    expect(await page.title()).to.equal('browser-use-ext settings');
    expect(main).to.contain('browser-use-ext pair');
    // The worker's status lines write commands in backticks: shown as code, never as a backtick.
    await page.evaluate(() =>
      (globalThis as unknown as { chrome: { storage: { session: { set(v: unknown): Promise<void> } } } }).chrome.storage.session.set({
        bux_connection: {
          state: 'not_paired',
          url: 'ws://127.0.0.1:8765/extension',
          message: 'Not paired with a bridge yet.',
          next_step: 'Run `browser-use-ext pair` in a terminal and type the code it prints.',
          since: Date.now(),
        },
      }),
    );
    await page.waitForFunction(() => document.getElementById('status')?.dataset['state'] === 'not_paired');
    expect(await page.$eval('#status', (e) => e.textContent)).to.not.contain('`');
    expect(await page.$eval('#status code', (e) => e.textContent)).to.equal('browser-use-ext pair');
    // The terms are still there for developers, folded away.
    const dev = await page.$$eval('details.dev', (ds) => ds.map((d) => d.textContent ?? '').join(' '));
    expect(dev).to.contain('NOT_PERMITTED').and.to.contain('open_tool').and.to.contain('outcome_details.dialog');
    expect(await page.$$eval('details.dev', (ds) => ds.every((d) => !(d as HTMLDetailsElement).open))).to.equal(true);
  });

  it('axe: zero serious or critical violations, light and dark (developer details open)', async () => {
    await page.$$eval('details.dev', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    expect(describeViolations(await seriousAxeViolations(page)), 'light').to.equal('');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r = 255, g = 255, b = 255] = (bg.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b, `a dark background in dark mode, got ${bg}`).to.be.below(150);
    expect(describeViolations(await seriousAxeViolations(page)), 'dark').to.equal('');
    await shot(page, '02-dark-360-details-open');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await page.$$eval('details.dev', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = false)));
  });

  it('keyboard alone: Tab follows the page with a visible focus ring; Enter saves; a wrong value is explained next to its field', async () => {
    await page.reload();
    await page.waitForFunction(() => (document.getElementById('bridge-url') as HTMLInputElement).value !== '');
    // Tab through the page: the order is the order on screen, and the ring is visible at each stop.
    const stops: { id: string; outline: string }[] = [];
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const s = await page.evaluate(() => {
        const e = document.activeElement as HTMLElement;
        const cs = getComputedStyle(e);
        const id = e.id || `${e.tagName}:${[...document.querySelectorAll(e.tagName)].indexOf(e)}`;
        return { id, outline: `${cs.outlineStyle} ${cs.outlineWidth}` };
      });
      if (s.id.startsWith('BODY') || stops.some((x) => x.id === s.id)) break; // left the page, or wrapped around
      stops.push(s);
    }
    const ids = stops.map((s) => s.id);
    expect(ids.slice(0, 3)).to.deep.equal(['bridge-url', 'extension-secret', 'SUMMARY:0']);
    expect(ids).to.include.members([
      'max-tabs',
      'allow-evaluate',
      'allowed-domains',
      'local-folders',
      'upload-folders',
      'redact-pii',
      'add-tool',
      'save',
    ]);
    expect(ids.at(-1), 'Save is the last stop').to.equal('save');
    for (const s of stops) expect(s.outline, `focus ring on ${s.id}`).to.match(/^solid [1-9]/);

    // A wrong tab limit, Enter in the field: not saved, the error sits next to it and has the focus.
    const before = await stored(page, ['max_tabs_per_agent']);
    await retype(page, '#max-tabs', '0');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent?.startsWith('Not saved'));
    expect(await page.$eval('#max-tabs-error', (e) => e.textContent)).to.contain('1 to 100');
    expect(await page.$eval('#max-tabs', (e) => e.getAttribute('aria-invalid'))).to.equal('true');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('max-tabs');
    expect(await page.$eval('#max-tabs', (e) => e.getAttribute('aria-describedby'))).to.contain('max-tabs-error');
    expect(await page.$eval('#saved', (e) => e.getAttribute('role'))).to.equal('status');
    expect(await stored(page, ['max_tabs_per_agent'])).to.deep.equal(before);
    // Fixed and Enter again: saved, announced, stored.
    await retype(page, '#max-tabs', '3');
    expect(await page.$eval('#max-tabs-error', (e) => e.textContent), 'editing clears the stale error').to.equal('');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent === 'Saved.');
    expect(await stored(page, ['max_tabs_per_agent'])).to.deep.equal({ max_tabs_per_agent: 3 });
    // Enter on a checkbox saves too.
    await page.focus('#redact-pii');
    await page.keyboard.press('Space');
    await page.$eval('#saved', (e) => (e.textContent = ''));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent === 'Saved.');
    expect(await stored(page, ['redact_pii'])).to.deep.equal({ redact_pii: true });
    await page.keyboard.press('Space');
    // Ctrl+Enter saves from a text box.
    await page.click('#blocked-domains');
    await page.type('#blocked-domains', 'not a domain!');
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent?.startsWith('Not saved'));
    expect(await page.$eval('#blocked-domains-error', (e) => e.textContent)).to.contain('"not a domain!" is not a site name');
    await shot(page, '03-error-next-to-field');
    await retype(page, '#blocked-domains', '');
  });

  it('every setting is stored as before and shown again after a reload', async () => {
    await retype(page, '#max-tabs', '');
    await retype(page, '#allowed-domains', 'Example.com\n*.wikipedia.org');
    await retype(page, '#blocked-domains', 'mybank.com');
    await retype(page, '#local-folders', '/tmp/bux-settings-test/shared');
    for (const box of ['#allow-evaluate', '#trusted-input', '#redact-pii']) await page.click(box);
    await page.select('#dialog-confirm', 'dismiss');
    await page.select('#dialog-prompt', 'accept');
    await retype(page, '#dialog-prompt-text', 'yes please');
    await page.select('#dialog-beforeunload', 'dismiss');
    expect(await page.$eval('#agent-script-end', (e) => (e as HTMLSelectElement).value), 'reload by default').to.equal('reload');
    await page.select('#agent-script-end', 'keep');
    // Two tools with the same name (any case): refused next to the tools.
    await retype(page, 'input[name=tool-name]', 'Hacker News');
    await retype(page, 'input[name=tool-url]', 'https://news.ycombinator.com');
    await page.click('#add-tool');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name), 'Add tool focuses the new name').to.equal(
      'tool-name',
    );
    await page.keyboard.type('hacker news');
    await page.keyboard.press('Tab');
    await page.keyboard.type('https://example.org');
    await page.click('#save');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent?.startsWith('Not saved'));
    expect(await page.$eval('#tools-error', (e) => e.textContent)).to.contain('Two tools are named');
    await page.$eval('#tools-list li:last-child button', (b) => (b as HTMLButtonElement).click());
    await page.click('#save');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent === 'Saved.');
    const v = await stored(page, [
      'max_tabs_per_agent',
      'allowed_domains',
      'blocked_domains',
      'local_file_folders',
      'allow_evaluate',
      'trusted_input',
      'redact_pii',
      'dialog_policy',
      'agent_script_end',
      'saved_tools',
      'bridge_url',
    ]);
    expect(v).to.deep.equal({
      allowed_domains: ['example.com', '*.wikipedia.org'],
      blocked_domains: ['mybank.com'],
      local_file_folders: ['file:///tmp/bux-settings-test/shared/'],
      allow_evaluate: true,
      trusted_input: true,
      redact_pii: true,
      dialog_policy: { confirm: 'dismiss', prompt: 'accept', prompt_text: 'yes please', beforeunload: 'dismiss' },
      agent_script_end: 'keep',
      saved_tools: [{ name: 'Hacker News', url: 'https://news.ycombinator.com' }],
      bridge_url: h.bridge.extensionUrl,
    });
    await page.reload();
    await page.waitForSelector('#tools-list li');
    const shown = await page.evaluate(() => ({
      allowed: (document.getElementById('allowed-domains') as HTMLTextAreaElement).value,
      folders: (document.getElementById('local-folders') as HTMLTextAreaElement).value,
      evaluate: (document.getElementById('allow-evaluate') as HTMLInputElement).checked,
      confirm: (document.getElementById('dialog-confirm') as HTMLSelectElement).value,
      scriptEnd: (document.getElementById('agent-script-end') as HTMLSelectElement).value,
      tool: (document.querySelector('input[name=tool-name]') as HTMLInputElement).value,
      maxTabs: (document.getElementById('max-tabs') as HTMLInputElement).value,
    }));
    expect(shown).to.deep.equal({
      allowed: 'example.com\n*.wikipedia.org',
      folders: '/tmp/bux-settings-test/shared/',
      evaluate: true,
      confirm: 'dismiss',
      scriptEnd: 'keep',
      tool: 'Hacker News',
      maxTabs: '',
    });
    // Put the defaults back for whoever uses this browser next.
    await page.evaluate(() =>
      (globalThis as unknown as { chrome: { storage: { local: { remove(k: string[]): Promise<void> } } } }).chrome.storage.local.remove([
        'allowed_domains',
        'blocked_domains',
        'local_file_folders',
        'allow_evaluate',
        'trusted_input',
        'redact_pii',
        'dialog_policy',
        'agent_script_end',
        'saved_tools',
      ]),
    );
  });

  it('"Folders agents may upload from": a folder is refused when not a full path, saved, shown again after a reload, and removed', async () => {
    await retype(page, '#upload-folders', 'Uploads');
    // At 360 px, the field just above the Save bar and saved from the keyboard (Ctrl+Enter; the focus stays):
    // its reason, printed under its hint, comes into view above the bar instead of under it.
    await page.evaluate(() => {
      const field = document.getElementById('upload-folders')!.getBoundingClientRect();
      window.scrollBy(0, field.bottom - document.querySelector('.savebar')!.getBoundingClientRect().top + 4);
    });
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent?.startsWith('Not saved'));
    expect(await page.$eval('#upload-folders-error', (e) => e.textContent)).to.contain('"Uploads" is not a folder');
    const seen = await page.evaluate(() => {
      const r = document.getElementById('upload-folders-error')!.getBoundingClientRect();
      const field = document.getElementById('upload-folders')!.getBoundingClientRect();
      return { top: field.top, bottom: r.bottom, bar: document.querySelector('.savebar')!.getBoundingClientRect().top };
    });
    expect(seen.top, JSON.stringify(seen)).to.be.at.least(0);
    expect(seen.bottom, `the reason is above the Save bar: ${JSON.stringify(seen)}`).to.be.at.most(seen.bar);
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('upload-folders');
    await viewShot(page, '05-error-above-save-bar');
    expect((await stored(page, ['upload_folders']))['upload_folders'] ?? [], 'nothing saved').to.deep.equal([]);
    await retype(page, '#upload-folders', '/tmp/bux-settings-test/uploads');
    await page.click('#save');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent === 'Saved.');
    expect(await stored(page, ['upload_folders'])).to.deep.equal({ upload_folders: ['file:///tmp/bux-settings-test/uploads/'] });
    await page.reload();
    await page.waitForFunction(() => (document.getElementById('upload-folders') as HTMLTextAreaElement).value !== '');
    expect(await page.$eval('#upload-folders', (e) => (e as HTMLTextAreaElement).value)).to.equal('/tmp/bux-settings-test/uploads/');
    await retype(page, '#upload-folders', '');
    await page.click('#save');
    await page.waitForFunction(() => document.getElementById('saved')?.textContent === 'Saved.');
    expect(await stored(page, ['upload_folders'])).to.deep.equal({ upload_folders: [] });
  });
});
