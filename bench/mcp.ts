// `npm run bench:mcp`: our MCP server (stdio, the built CLI, through bridge + extension) against
// Playwright MCP (@playwright/mcp from npm, its own headless /usr/bin/chromium), both driven by the
// official SDK client on the same fixture pages, interleaved (ours, theirs, ours, ...), so the
// machine's load hits both alike. Measures, per page: tokens and time of a snapshot tool call, and
// the time and tokens of a click round trip (until the client holds the new snapshot).
// @playwright/mcp is installed into a temp dir (not a devDependency: it pins its own alpha
// playwright/playwright-core next to ours); no browser is downloaded (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer';

import { CHROMIUM_PATH, REPO_ROOT } from '../test/harness/browser';
import { startHarness } from '../test/harness/harness';
import { callTool, connectStdioClient } from '../test/harness/mcp-clients';
import { articlePage, formPage } from './pages';
import { pct, r1 } from './stats';

const PW_MCP_VERSION = process.env['BUX_PW_MCP_VERSION'] ?? '0.0.83';
const PW_DIR = process.env['BUX_PW_MCP_DIR'] ?? path.join(os.tmpdir(), `bux-pwmcp-${PW_MCP_VERSION}`);
const RUNS = Number(process.env['BUX_BENCH_RUNS'] ?? 7);
const OUT = path.join(REPO_ROOT, 'bench', 'results');

function ensurePlaywrightMcp(): string {
  const cli = path.join(PW_DIR, 'node_modules', '@playwright', 'mcp', 'cli.js');
  if (fs.existsSync(cli)) return cli;
  fs.mkdirSync(PW_DIR, { recursive: true });
  process.stderr.write(`installing @playwright/mcp@${PW_MCP_VERSION} into ${PW_DIR} (no browser download)...\n`);
  const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', PW_DIR, `@playwright/mcp@${PW_MCP_VERSION}`];
  const r = spawnSync('npm', args, {
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0 || !fs.existsSync(cli)) throw new Error(`npm install @playwright/mcp@${PW_MCP_VERSION} failed (exit ${r.status})`);
  return cli;
}

async function connectPlaywrightMcp(cli: string, cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--executable-path', CHROMIUM_PATH, '--headless', '--isolated', '--no-sandbox', '--viewport-size', '800x600'],
    cwd,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

/** Whole page with the element/text limits raised, so nothing is cut (like Playwright MCP). */
const WHOLE_PAGE = { viewport_expansion: -1, max_elements: 100_000, max_text_chars: 2_000_000 };

const clickPage =
  '<h1>Counter</h1><nav><a href="#a">Alpha</a> <a href="#b">Beta</a></nav>' +
  `<button onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">` +
  'Increment</button><p>Count: <span id="n">0</span></p>';

interface Sample {
  ms: number;
  tokens: number;
}
interface Row {
  page: string;
  what: string;
  side: string;
  p50_ms: number;
  p95_ms: number;
  tokens: number;
  note: string;
}

/** A row's numbers: p50 / p95 time to 0.1 ms and the p50 of the tokens (percentiles: bench/stats.ts, nearest rank). */
const numbersOf = (xs: Sample[]): Pick<Row, 'p50_ms' | 'p95_ms' | 'tokens'> => {
  const ms = xs.map((x) => x.ms);
  return {
    p50_ms: r1(pct(ms, 50)),
    p95_ms: r1(pct(ms, 95)),
    tokens: Math.round(
      pct(
        xs.map((x) => x.tokens),
        50,
      ),
    ),
  };
};

async function timed(f: () => Promise<{ text: string }>): Promise<Sample> {
  const t0 = performance.now();
  const r = await f();
  return { ms: performance.now() - t0, tokens: countTokens(r.text) };
}

function pwText(r: Awaited<ReturnType<Client['callTool']>>): { text: string; isError: boolean } {
  const content = (r.content ?? []) as { type: string; text?: string }[];
  return {
    text: content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n'),
    isError: r.isError === true,
  };
}

async function main(): Promise<void> {
  const cli = ensurePlaywrightMcp();
  const uptimeBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const procLoad = () => (fs.existsSync('/proc/loadavg') ? fs.readFileSync('/proc/loadavg', 'utf8').trim() : 'n/a');
  const procLoadBefore = procLoad();
  const h = await startHarness({ fixturesDir: path.join(REPO_ROOT, 'python-shim-spec', 'tests', 'fixtures', 'shop') });
  const pwCwd = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-pwmcp-run-'));
  const rows: Row[] = [];
  try {
    const pages: [string, string][] = [
      ['shop results (small)', h.fixtures.url('/results.html?q=stapler')],
      ['form (50 fieldsets)', h.fixtures.html('/bench-form', formPage(), 'Form')],
      ['article (3,000 links)', h.fixtures.html('/bench-article', articlePage(), 'Article')],
    ];
    const counter = h.fixtures.html('/bench-click', clickPage, 'Counter');
    await h.openPage(h.fixtures.url('/index.html'));
    const ours = await connectStdioClient({ agentUrl: h.bridge.agentUrl, agentSecret: h.secrets.agent_secret, name: 'bench' });
    const pw = await connectPlaywrightMcp(cli, pwCwd);
    const pwCall = async (name: string, args: Record<string, unknown> = {}) => {
      const r = pwText(await pw.callTool({ name, arguments: args }));
      if (r.isError) throw new Error(`Playwright MCP ${name} failed: ${r.text.slice(0, 300)}`);
      return r;
    };
    const ourCall = async (name: string, args: Record<string, unknown> = {}) => {
      const r = await callTool(ours, name, args);
      if (r.isError) throw new Error(`our ${name} failed: ${r.text.slice(0, 300)}`);
      return r;
    };

    // What the tool definitions cost: every request to the model carries them. Both sides measured
    // the same way: JSON.stringify of the tools array as the SDK client received it (test/mcp/tool-calls.spec.ts
    // holds ours to a budget below Playwright MCP's). The server instructions (sent once, at initialize) apart.
    const [ourTools, pwTools] = await Promise.all([ours.listTools(), pw.listTools()]);
    for (const [side, list, client] of [
      ['ours', ourTools.tools, ours],
      ['Playwright MCP', pwTools.tools, pw],
    ] as const) {
      const tokens = countTokens(JSON.stringify(list));
      const note = 'JSON.stringify(tools) as the SDK client receives it';
      rows.push({ page: '-', what: 'tools/list', side: `${side} (${list.length} tools)`, p50_ms: 0, p95_ms: 0, tokens, note });
      const instructions = client.getInstructions() ?? '';
      const inote = instructions ? 'initialize result, once per session' : 'none sent';
      rows.push({ page: '-', what: 'server instructions', side, p50_ms: 0, p95_ms: 0, tokens: countTokens(instructions), note: inote });
    }
    for (const [label, url] of pages) {
      await ourCall('browser_navigate', { url, snapshot: 'none' });
      await pwCall('browser_navigate', { url });
      const s: Record<string, Sample[]> = { vp: [], page: [], pw: [] };
      await ourCall('browser_snapshot');
      const whole = await ourCall('browser_snapshot', WHOLE_PAGE);
      if (whole.text.includes('# truncated')) throw new Error(`our whole-page snapshot of ${label} is truncated; raise the limits`);
      await pwCall('browser_snapshot'); // warm-up
      for (let i = 0; i < RUNS; i++) {
        s['vp']?.push(await timed(() => ourCall('browser_snapshot')));
        s['pw']?.push(await timed(() => pwCall('browser_snapshot')));
        s['page']?.push(await timed(() => ourCall('browser_snapshot', WHOLE_PAGE)));
      }
      const row = (what: string, side: string, xs: Sample[], note: string) =>
        rows.push({ page: label, what, side, ...numbersOf(xs), note });
      row('browser_snapshot', 'ours, viewport (default)', s['vp'] ?? [], 'what our snapshot returns by default');
      const wholeSide = 'ours, whole page (viewport_expansion -1, limits raised)';
      const summarised = whole.text.includes('more blocks like the above');
      const wholeNote = summarised
        ? 'long off-screen runs of like blocks summarised ("… N more blocks like the above"): not every element listed'
        : 'like for like with Playwright MCP';
      row('browser_snapshot', wholeSide, s['page'] ?? [], wholeNote);
      row('browser_snapshot', 'Playwright MCP (whole page)', s['pw'] ?? [], '');
    }

    // Click round trip: until the client holds the new page snapshot.
    await ourCall('browser_navigate', { url: counter, snapshot: 'none' });
    await pwCall('browser_navigate', { url: counter });
    const ourRef = /button "Increment" \[ref=([^\]]+)\]/.exec((await ourCall('browser_snapshot')).text)?.[1];
    const pwRef = /button "Increment" \[ref=([^\]]+)\]/.exec((await pwCall('browser_snapshot')).text)?.[1];
    if (!ourRef || !pwRef) throw new Error('no Increment button ref');
    const c: Record<string, Sample[]> = { ours: [], oursInc: [], pwClick: [], pwFull: [] };
    await ourCall('browser_click', { ref: ourRef });
    await pwCall('browser_click', { target: pwRef, element: 'Increment button' }); // warm-up
    for (let i = 0; i < RUNS; i++) {
      c['ours']?.push(await timed(() => ourCall('browser_click', { ref: ourRef })));
      c['pwClick']?.push(await timed(() => pwCall('browser_click', { target: pwRef, element: 'Increment button' })));
      c['oursInc']?.push(await timed(() => ourCall('browser_click', { ref: ourRef, snapshot: 'incremental' })));
      c['pwFull']?.push(
        await timed(async () => {
          const a = await pwCall('browser_click', { target: pwRef, element: 'Increment button' });
          const b = await pwCall('browser_snapshot');
          return { text: `${a.text}\n${b.text}` };
        }),
      );
    }
    const crow = (side: string, xs: Sample[], note: string) =>
      rows.push({ page: 'counter (click)', what: 'click round trip', side, ...numbersOf(xs), note });
    crow('ours, browser_click (outcome + full snapshot inline)', c['ours'] ?? [], 'settle: DOM quiet 100 ms');
    crow('ours, browser_click snapshot=incremental', c['oursInc'] ?? [], 'only the changed lines');
    const pwClickNote = 'its snapshot goes to a .yml file, not into the answer (0.0.83); settle 500 ms';
    crow('Playwright MCP, browser_click', c['pwClick'] ?? [], pwClickNote);
    crow('Playwright MCP, browser_click + browser_snapshot', c['pwFull'] ?? [], 'the model needs the new snapshot to continue');
    await ours.close();
    await pw.close();
  } finally {
    await h.close();
    fs.rmSync(pwCwd, { recursive: true, force: true });
  }
  const meta = {
    date: new Date().toISOString(),
    runs: RUNS,
    machine: `${os.cpus().length} cores, load average before ${uptimeBefore}, after ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
    proc_loadavg: { before: procLoadBefore, after: procLoad() },
    tokenizer: 'gpt-tokenizer (o200k_base), over the text content of the tool result (tools/list: over its JSON)',
    playwright_mcp: `@playwright/mcp@${PW_MCP_VERSION} --executable-path ${CHROMIUM_PATH} --headless --isolated`,
  };
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'mcp.json'), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  const md = [
    '# MCP benchmark: browser-use-ext MCP vs Playwright MCP',
    '',
    `Generated by \`npm run bench:mcp\` on ${meta.date}: ${RUNS} runs per row after one warm-up, ` +
      `interleaved (ours, Playwright, ours, ...); ${meta.machine} (/proc/loadavg before: ${meta.proc_loadavg.before}; after: ${meta.proc_loadavg.after}); tokens: ${meta.tokenizer}.`,
    'Both are driven by the official MCP SDK client over stdio. Ours: `dist/bridge/cli.js mcp` -> bridge -> extension in ' +
      `headless Chromium (the harness). Theirs: ${meta.playwright_mcp} (its own browser, same binary, viewport 800x600 like ` +
      "the harness's puppeteer default). Same fixture pages from the same local server. Time = tool call round trip at the client.",
    '',
    '| page | tool | side | p50 ms | p95 ms | tokens (p50) | note |',
    '|---|---|---|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.page} | ${r.what} | ${r.side} | ${r.p50_ms} | ${r.p95_ms} | ${r.tokens} | ${r.note} |`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(OUT, 'mcp.md'), md);
  process.stdout.write(md);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:mcp failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
