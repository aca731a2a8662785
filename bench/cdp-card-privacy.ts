// `npx tsx bench/cdp-card-privacy.ts`: what card privacy costs a CDP client, on the harness's Chromium,
// ours (/cdp/<token>) against Chromium's own endpoint on the same tab, interleaved:
//   1. the privacy walk in the worker (scrubStrings) per message, for answers and events that carry no
//      page text (now sent without it: extension/src/background/cdp/cdp-send-options.ts) and for a
//      Runtime.evaluate answer (still walked), timed in this process with the worker's own code;
//   2. Runtime.evaluate and Input.dispatchMouseEvent round trips (p50, p90);
//   3. Page.captureScreenshot on a page without card text, on bench:cdp's 10,000-element page (no card:
//      no question to the frames once the worker has read the tab, background/cdp/card-frames.ts) and
//      with a card field (the card frames read, decode, paint, encode: capture-mask.ts).
// Writes bench/results/cdp-card-privacy.json (LABEL=before|after names the run: a build without the
// change measures "before").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import puppeteer, { type Browser, type CDPSession } from 'puppeteer-core';

import { mintCdpClient } from '../bridge/agents/cdp/cdp-clients-file';
import { scrubStrings } from '../extension/src/background/connection/bridge-connection';
import { REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { pct, r2 } from './stats';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 300);
const SHOTS = Number(process.env['BENCH_SHOTS'] ?? 20);
const LABEL = process.env['LABEL'] ?? 'after';
const OUT = process.env['BENCH_OUT'] ?? path.join(REPO_ROOT, 'bench', 'results', 'cdp-card-privacy.json');

/** bench/cdp.ts's page: 2,000 list items of 4 children, no card number. */
function tenThousandPage(): string {
  const items: string[] = [];
  for (let i = 0; i < 2000; i++)
    items.push(`<li class="r${i % 7}"><b>${i}</b> <a href="#i${i}">item ${i}</a> <span>note ${i}</span> <em>e</em></li>`);
  return `<style>.r0{color:#333}.r3{font-weight:bold}li{padding:2px}</style><ul id="list">${items.join('')}</ul>`;
}

type Side = 'ours' | 'direct';
const SIDES: Side[] = ['ours', 'direct'];
const p = (xs: number[]) => ({ n: xs.length, p50: r2(pct(xs, 50)), p90: r2(pct(xs, 90)) });

/** µs per scrubStrings of the message, as the worker's send does it. */
function walkMicros(message: unknown, n = 20_000): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) scrubStrings(structuredClone(message), 0, { cards: true });
  const withWalk = performance.now() - t0;
  const t1 = performance.now();
  for (let i = 0; i < n; i++) structuredClone(message);
  const cloneOnly = performance.now() - t1;
  return r2(((withWalk - cloneOnly) / n) * 1000);
}

async function main(): Promise<void> {
  const walk = {
    'Input.dispatchMouseEvent answer {}': walkMicros({ type: 'cdp_result', original_command_id: 'c1', tab_id: 5, result: {} }),
    'Page.lifecycleEvent event': walkMicros({
      type: 'cdp_event',
      tab_id: 5,
      method: 'Page.lifecycleEvent',
      session_id: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
      params: {
        frameId: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
        loaderId: '0F1E2D3C4B5A69788796A5B4C3D2E1F0',
        name: 'load',
        timestamp: 1234.5,
      },
    }),
    'Runtime.evaluate answer (walked)': walkMicros({
      type: 'cdp_result',
      original_command_id: 'c1',
      tab_id: 5,
      result: {
        result: { type: 'string', value: 'Some page text of a paragraph, 120 characters long, with a date 2026-12-06 and a price 12.50' },
      },
    }),
  };

  const h = await startHarness();
  const browsers: Browser[] = [];
  try {
    const plainUrl = h.fixtures.html('/bench-card-plain', '<h1>Plain</h1><p>No card here.</p><input id="q" value="search">', 'Plain');
    const cardUrl = h.fixtures.html(
      '/bench-card-field',
      '<h1>Pay</h1><input id="cc" autocomplete="cc-number" value="4000 0566 5566 5556" style="font:20px monospace;width:400px">',
      'Card',
    );
    const bigUrl = h.fixtures.html('/bench-card-10k', tenThousandPage(), '10k elements');
    const client = mintCdpClient(h.configDir, { name: 'bench-card', maxTabs: 2 });
    const version = (await (await fetch(`${client.url(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const connect = async (ws: string) => {
      const b = await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: null, protocolTimeout: 120_000 });
      browsers.push(b);
      return b;
    };
    const ours = await connect(version.webSocketDebuggerUrl);
    const direct = await connect(h.launched.browser.wsEndpoint());
    const ourPage = await ours.newPage();
    await ourPage.goto(plainUrl, { waitUntil: 'load' });
    const directPage = await (await direct.waitForTarget((t) => t.url() === plainUrl && t.type() === 'page')).page();
    if (!directPage) throw new Error('the direct connection does not see the tab');
    const sess: Record<Side, CDPSession> = { ours: await ourPage.createCDPSession(), direct: await directPage.createCDPSession() };
    const times = async (runs: number, f: (s: CDPSession) => Promise<unknown>) => {
      const t: Record<Side, number[]> = { ours: [], direct: [] };
      for (let i = 0; i < runs; i++)
        for (const side of SIDES) {
          const t0 = performance.now();
          await f(sess[side]);
          t[side].push(performance.now() - t0);
        }
      return { ours: p(t.ours), direct: p(t.direct) };
    };
    await times(30, (s) => s.send('Runtime.evaluate', { expression: '1' }));
    const evaluate = await times(RUNS, (s) => s.send('Runtime.evaluate', { expression: '1' }));
    let x = 0;
    const mouse = await times(RUNS, (s) => s.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 10 + (x++ % 50), y: 10 }));
    const shot = (s: CDPSession) => s.send('Page.captureScreenshot', { format: 'png' });
    await times(3, shot);
    const screenshotPlain = await times(SHOTS, shot);
    await ourPage.goto(bigUrl, { waitUntil: 'load' });
    await times(3, shot);
    const screenshotBig = await times(SHOTS, shot);
    await ourPage.goto(cardUrl, { waitUntil: 'load' });
    await times(3, shot);
    const screenshotCard = await times(SHOTS, shot);
    // The frames' question alone, timed inside the worker (what a screenshot adds on a page without card text).
    const worker = await (
      await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'))
    ).worker();
    const askMs = worker
      ? await worker.evaluate(
          `(async () => {
            const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(cardUrl)} });
            const out = { plain: [], card: [], big: [] };
            for (const [kind, url] of [['card', ${JSON.stringify(cardUrl)}], ['plain', ${JSON.stringify(plainUrl)}], ['big', ${JSON.stringify(bigUrl)}]]) {
              if (kind !== 'card') { await chrome.tabs.update(tab.id, { url }); await new Promise((r) => setTimeout(r, 1000)); }
              for (let i = 0; i < 20; i++) {
                const t0 = performance.now();
                await chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, func: () => globalThis.__buxCardBoxes?.() ?? null });
                out[kind].push(performance.now() - t0);
              }
            }
            return out;
          })()`,
        )
      : null;
    // Decode, paint, encode (capture-mask.ts paint) of a viewport-sized PNG, timed inside the worker.
    const paintMs = worker
      ? await worker.evaluate(
          `(async () => {
            const w = 780, h = 580, src = new OffscreenCanvas(w, h), g = src.getContext('2d');
            g.fillStyle = '#fff'; g.fillRect(0, 0, w, h); g.fillStyle = '#000'; g.font = '20px monospace';
            for (let y = 30; y < h; y += 30) g.fillText('Some page text 4000 0566 5566 5556 and more words here', 10, y);
            const bytes = new Uint8Array(await (await src.convertToBlob({ type: 'image/png' })).arrayBuffer());
            const out = [];
            for (let i = 0; i < 10; i++) {
              const t0 = performance.now();
              const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
              const c = new OffscreenCanvas(bmp.width, bmp.height), x = c.getContext('2d');
              x.drawImage(bmp, 0, 0); x.fillStyle = '#5f6368'; x.fillRect(100, 100, 300, 30); bmp.close();
              const blob = await c.convertToBlob({ type: 'image/png' });
              const b = new Uint8Array(await blob.arrayBuffer());
              let bin = ''; for (let k = 0; k < b.length; k += 0x8000) bin += String.fromCharCode(...b.subarray(k, k + 0x8000));
              btoa(bin);
              out.push(performance.now() - t0);
            }
            return out;
          })()`,
        )
      : null;
    const out = {
      label: LABEL,
      at: new Date().toISOString(),
      loadavg: os.loadavg().map((x) => Math.round(x * 10) / 10),
      walk_us_per_message: walk,
      round_trip_ms: { 'Runtime.evaluate': evaluate, 'Input.dispatchMouseEvent': mouse },
      screenshot_ms: { 'no card text': screenshotPlain, '10,000 elements, no card': screenshotBig, 'one card field': screenshotCard },
      frames_question_in_worker_ms: askMs
        ? {
            'no card text': p((askMs as { plain: number[] }).plain),
            'one card field': p((askMs as { card: number[] }).card),
            '10,000 elements': p((askMs as { big: number[] }).big),
          }
        : null,
      paint_in_worker_ms: paintMs ? p(paintMs as number[]) : null,
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
