// CDP recon: runs real CDP clients through the recording proxy (cdp-recorder.ts) against a plain
// Chromium, and summarizes what each one needs from a browser endpoint. docs/CDP-CLIENTS.md is written
// from its output. By hand:
//   node scripts/python-envs.mjs bu013 && npx tsx test/harness/cdp-recon.ts [outDir [client...]]
// writes <outDir>/<client>.json (every message) and prints the summaries.
import fs from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

import { REPO_ROOT } from './browser';
import { runBu013ShopTask } from './bu013';
import { launchCdpChromium } from './cdp-chromium';
import { type Entry, startCdpRecorder, type WsEntry } from './cdp-recorder';
import { FixtureServer } from './fixture-server';
import { ScriptedLlm } from './scripted-llm';

export const SHOP_DIR = path.join(REPO_ROOT, 'python-shim-spec', 'tests', 'fixtures');

export type Client = 'browser_use-0.13.14' | 'playwright-core' | 'puppeteer-core';

/** Runs `client` through a recorder in front of a fresh Chromium; returns the log. */
export async function recordClient(client: Client, fixtures: FixtureServer): Promise<Entry[]> {
  const browser = await launchCdpChromium();
  const recorder = await startCdpRecorder(browser.httpUrl);
  const shopUrl = fixtures.url('/shop/');
  try {
    if (client === 'browser_use-0.13.14') {
      const llm = await new ScriptedLlm('shop013').start();
      try {
        const r = await runBu013ShopTask({ cdpUrl: recorder.url, llmBaseUrl: llm.baseUrl, shopUrl });
        if (!r.success) throw new Error(`browser_use run failed: ${r.error ?? r.final_result}\n${r.output.slice(-3000)}`);
      } finally {
        await llm.close();
      }
    } else if (client === 'playwright-core') {
      const b = await chromium.connectOverCDP(recorder.url);
      const context = b.contexts()[0];
      if (!context) throw new Error('connectOverCDP gave no default context');
      const page = await context.newPage();
      await page.goto(`${shopUrl}index.html`);
      await page.close();
      await b.close(); // over CDP: disconnects, leaves the browser running
    } else {
      const b = await puppeteer.connect({ browserURL: recorder.url, defaultViewport: null });
      const page = await b.newPage();
      await page.goto(`${shopUrl}index.html`);
      await page.close();
      await b.disconnect();
    }
    await new Promise((r) => setTimeout(r, 300));
    return recorder.log;
  } finally {
    await recorder.close();
    await browser.close();
  }
}

function shape(v: unknown): string {
  if (v === undefined) return '';
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

/** A readable summary of one client's log. */
export function summarize(log: Entry[]): string {
  const out: string[] = [];
  for (const e of log) if (e.kind === 'http') out.push(`HTTP ${e.method} ${e.path} -> ${e.status} ${shape(e.headers)}`);
  const ws = log.filter((e): e is WsEntry => e.kind !== 'http');
  for (const e of ws) if (e.kind === 'open') out.push(`WS open #${e.conn} ${e.path} ${shape(e.params)}`);
  out.push('', '-- browser-level traffic (no sessionId), in order --');
  for (const e of ws) {
    if (e.sessionId || e.kind === 'open' || e.kind === 'close') continue;
    if (e.kind === 'command') out.push(`${e.t}ms > ${e.method} ${shape(e.params)}`);
    else if (e.kind === 'result') out.push(`${e.t}ms < ${e.method} = ${shape(e.result)}`);
    else if (e.kind === 'error') out.push(`${e.t}ms < ${e.method} ERROR ${shape(e.error)}`);
    else out.push(`${e.t}ms < event ${e.method} ${shape(e.params)}`);
  }
  out.push('', '-- session-level methods (count, errors) --');
  const counts = new Map<string, { n: number; errors: string[] }>();
  for (const e of ws) {
    if (!e.sessionId) continue;
    if (e.kind === 'command' && e.method) {
      const c = counts.get(e.method) ?? { n: 0, errors: [] };
      c.n++;
      counts.set(e.method, c);
    }
    if (e.kind === 'error' && e.method) counts.get(e.method)?.errors.push(`${e.error?.code} ${e.error?.message}`);
  }
  for (const [m, c] of [...counts].sort())
    out.push(`${m} x${c.n}${c.errors.length ? ` errors: ${[...new Set(c.errors)].join(' | ')}` : ''}`);
  out.push('', '-- session-level events (count) --');
  const events = new Map<string, number>();
  for (const e of ws) if (e.sessionId && e.kind === 'event' && e.method) events.set(e.method, (events.get(e.method) ?? 0) + 1);
  out.push(
    [...events]
      .sort()
      .map(([m, n]) => `${m} x${n}`)
      .join(', '),
  );
  return out.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const outDir = path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'bench', 'tmp', 'cdp-recon'));
  const only = process.argv.slice(3) as Client[];
  fs.mkdirSync(outDir, { recursive: true });
  const fixtures = await new FixtureServer(SHOP_DIR).start();
  try {
    for (const client of only.length ? only : (['browser_use-0.13.14', 'playwright-core', 'puppeteer-core'] as Client[])) {
      const started = Date.now();
      const log = await recordClient(client, fixtures);
      fs.writeFileSync(path.join(outDir, `${client}.json`), JSON.stringify(log, null, 1));
      const text = summarize(log);
      fs.writeFileSync(path.join(outDir, `${client}.txt`), text + '\n');
      process.stdout.write(`==== ${client} (${((Date.now() - started) / 1000).toFixed(1)} s, ${log.length} messages)\n${text}\n\n`);
    }
  } finally {
    await fixtures.close();
  }
}
