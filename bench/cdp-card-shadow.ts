// `npx tsx bench/cdp-card-shadow.ts`: what covering card numbers inside shadow roots costs a page full
// of web components that draws none (bench/pages-wc-todo.ts: TodoMVC and a catalogue of product cards,
// each a host with an open shadow root), through our CDP endpoint:
//   1. the notes its frame sends the worker (content/snapshot/card-push.ts), at load and while a client
//      types todos, toggles them and scrolls: a frame without cards sends no pending note;
//   2. the frame's card-box read inside the page (frameCardBoxes, as a capture asks it: fields only,
//      and whole), timed in the frame;
//   3. a todo list re-render (the page's own update(), every item a new host with a new root) with our
//      observers of the roots, timed in the page;
//   4. Page.captureScreenshot through ours and Chromium's own endpoint, interleaved;
//   5. the classic screenshot's masking (privacy.ts maskSecretFields on then off), timed in the frame.
// EXT_DIR=<built extension> (default dist/extension) and LABEL=before|after name the run (a build
// without the change measures "before"); BENCH_CARDS (1200), BENCH_SHOTS (10), BENCH_RENDERS (20),
// BENCH_READS (10: in-frame repeats of the card-box read and of the classic masking).
// Writes bench/results/cdp-card-shadow.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import puppeteer, { type Browser, type CDPSession } from 'puppeteer-core';

import { mintCdpClient } from '../bridge/agents/cdp/cdp-clients-file';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { wcTodoPage } from './pages-wc-todo';
import { pct, r2 } from './stats';

const CARDS = Number(process.env['BENCH_CARDS'] ?? 1200);
const SHOTS = Number(process.env['BENCH_SHOTS'] ?? 10);
const RENDERS = Number(process.env['BENCH_RENDERS'] ?? 20);
const READS = Number(process.env['BENCH_READS'] ?? 10);
const LABEL = process.env['LABEL'] ?? 'after';
const EXT_DIR = process.env['EXT_DIR'];
const OUT = process.env['BENCH_OUT'] ?? path.join(REPO_ROOT, 'bench', 'results', 'cdp-card-shadow.json');

const p = (xs: number[]) => ({ n: xs.length, min: r2(Math.min(...xs)), p50: r2(pct(xs, 50)), p90: r2(pct(xs, 90)) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const h = await startHarness(EXT_DIR ? { extensionDir: EXT_DIR } : {});
  const browsers: Browser[] = [];
  try {
    const url = h.fixtures.html('/bench-wc-todo', wcTodoPage(CARDS), 'WC todo');
    const worker = await (
      await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'))
    ).worker();
    if (!worker) throw new Error('no service worker');
    // Every card note a frame sends, as the worker receives it (card-frames.ts listens on the same channel).
    await worker.evaluate(`(() => {
      globalThis.__benchCardNotes = [];
      chrome.runtime.onMessage.addListener((m, sender) => {
        if (m && m.channel === 'bux-card') globalThis.__benchCardNotes.push({ url: sender.url, watch: m.watch, fields: m.fields, pending: m.pending });
        return false;
      });
    })()`);
    const notes = async () =>
      (
        (await worker.evaluate('globalThis.__benchCardNotes')) as { url: string; watch: boolean; fields: boolean; pending: boolean }[]
      ).filter((n) => n.url.startsWith(url));

    const client = mintCdpClient(h.configDir, { name: 'bench-card-shadow', maxTabs: 2 });
    const version = (await (await fetch(`${client.url(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const connect = async (ws: string) => {
      const b = await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: null, protocolTimeout: 120_000 });
      browsers.push(b);
      return b;
    };
    const ours = await connect(version.webSocketDebuggerUrl);
    const direct = await connect(h.launched.browser.wsEndpoint());
    const page = await ours.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await sleep(1500);
    const atLoad = await notes();

    // A client at work: types three todos (Enter re-renders the list: every item a new host and root),
    // toggles two, scrolls down the catalogue and back.
    for (const title of ['water plants', 'pay rent', 'book dentist']) {
      await page.type('pierce/.new-todo', title);
      await page.keyboard.press('Enter');
    }
    for (const i of [0, 1])
      await page.evaluate((n) => {
        const app = document.querySelector('todo-app')?.shadowRoot;
        const item = app?.querySelectorAll('todo-item')[n]?.shadowRoot?.querySelector<HTMLInputElement>('.toggle');
        item?.click();
      }, i);
    await page.evaluate(() => scrollTo(0, 3000));
    await sleep(200);
    await page.evaluate(() => scrollTo(0, 0));
    await sleep(500);
    const afterWork = await notes();

    // The todo list re-rendered by the page, timed in the page until its microtasks (our observers) ran.
    const renders = (await page.evaluate(async (n) => {
      const app = document.querySelector('todo-app') as unknown as { update: () => void };
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        app.update();
        await new Promise((r) => setTimeout(r, 0));
        out.push(performance.now() - t0);
      }
      return out;
    }, RENDERS)) as number[];
    await sleep(300);
    const afterRenders = await notes();

    // The frame's card-box read as a capture asks it, timed inside the frame.
    const readMs = (await worker.evaluate(`(async () => {
      const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(url)} });
      const [r] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: () => {
        const f = globalThis.__buxCardBoxes;
        if (typeof f !== 'function') return null;
        const t = (only) => { const xs = []; for (let i = 0; i < ${READS}; i++) { const t0 = performance.now(); f(only); xs.push(performance.now() - t0); } return xs; };
        // The classic screenshot's masking around its capture (privacy.ts maskSecretFields on, then off).
        const mask = globalThis.__buxMaskSecrets;
        const classic = [];
        if (typeof mask === 'function')
          for (let i = 0; i < ${READS}; i++) { const t0 = performance.now(); mask(true); mask(false); classic.push(performance.now() - t0); }
        return { fieldsOnly: t(true), whole: t(false), classic };
      } });
      return r.result;
    })()`)) as { fieldsOnly: number[]; whole: number[]; classic: number[] } | null;

    const directPage = await (await direct.waitForTarget((t) => t.url() === url && t.type() === 'page')).page();
    if (!directPage) throw new Error('the direct connection does not see the tab');
    const sess: Record<'ours' | 'direct', CDPSession> = {
      ours: await page.createCDPSession(),
      direct: await directPage.createCDPSession(),
    };
    const shots: Record<'ours' | 'direct', number[]> = { ours: [], direct: [] };
    for (let i = 0; i < SHOTS + 2; i++)
      for (const side of ['ours', 'direct'] as const) {
        const t0 = performance.now();
        await sess[side].send('Page.captureScreenshot', { format: 'png' });
        if (i >= 2) shots[side].push(performance.now() - t0);
      }
    const count = (ns: { pending: boolean }[]) => ({ notes: ns.length, pending: ns.filter((n) => n.pending).length });
    const out = {
      label: LABEL,
      at: new Date().toISOString(),
      loadavg: os.loadavg().map((x) => Math.round(x * 10) / 10),
      cards: CARDS,
      notes_at_load: { ...count(atLoad), last: atLoad.at(-1) ?? null },
      notes_while_typing_toggling_scrolling: count(afterWork.slice(atLoad.length)),
      notes_during_renders: count(afterRenders.slice(afterWork.length)),
      todo_render_ms: p(renders),
      frame_card_boxes_ms: readMs ? { fields_only: p(readMs.fieldsOnly), whole: p(readMs.whole) } : null,
      classic_mask_on_off_ms: readMs ? p(readMs.classic) : null,
      screenshot_ms: { ours: p(shots.ours), direct: p(shots.direct) },
    };
    const all = fs.existsSync(OUT) ? (JSON.parse(fs.readFileSync(OUT, 'utf8')) as Record<string, unknown>) : {};
    all[LABEL] = out;
    fs.writeFileSync(OUT, `${JSON.stringify(all, null, 2)}\n`);
    console.log(JSON.stringify(out, null, 2));
  } finally {
    for (const b of browsers) await b.disconnect().catch(() => undefined);
    await h.close();
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
