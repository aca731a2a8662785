// What moving N bytes costs on the two hops a page state takes inside the browser, with nothing
// else in the way: when a snapshot misses its target, a measured explanation of what stands in the
// way (e.g. the cost of Chrome's messaging). Measured from the extension's own service worker, in the bench's Chromium:
//   messaging: chrome.tabs.sendMessage to a content script (an isolated-world listener injected
//              for the purpose) that answers with a string of N bytes (no escapes): Chrome
//              serializes the answer, hands it across processes and the worker gets a string (no
//              JSON.parse counted). The snapshot answers with its object, which Chrome serializes
//              to JSON once and the worker receives parsed;
//   websocket: the worker's WebSocket sends N bytes to a loopback ws server in this process, until
//              that server's 'message' event (the worker -> bridge hop without the bridge's work).
import { WebSocketServer } from 'ws';

import type { Harness } from '../test/harness/harness';
import { median, r1 } from './stats';

export interface TransportRow {
  bytes: number;
  messaging_p50_ms: number;
  websocket_p50_ms: number;
}

// Plain JS strings for the worker (the bench runs through tsx, whose helpers do not exist there).
const INSTALL_ECHO = `(async (tabId) => {
  await chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', func: () => {
    if (globalThis.__buxBenchEcho) return;
    globalThis.__buxBenchEcho = true;
    chrome.runtime.onMessage.addListener((m, _s, reply) => {
      if (!m || m.channel !== 'bux-bench-echo') return false;
      reply({ ok: true, text: 'x'.repeat(m.bytes) });
      return false;
    });
  } });
  return true;
})`;

const TIME_MESSAGING = `(async (tabId, bytes, runs) => {
  const out = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const r = await chrome.tabs.sendMessage(tabId, { channel: 'bux-bench-echo', bytes }, { frameId: 0 });
    const ms = performance.now() - t0;
    if (!r || r.text.length !== bytes) throw new Error('echo answered ' + (r && r.text.length));
    if (i > 0) out.push(ms);
  }
  return out;
})`;

const TIME_WEBSOCKET = `(async (port, bytes, runs) => {
  const ws = new WebSocket('ws://127.0.0.1:' + port);
  await new Promise((res, rej) => { ws.onopen = res; ws.onerror = rej; });
  const text = 'x'.repeat(bytes);
  const starts = [];
  for (let i = 0; i <= runs; i++) {
    const got = new Promise((res) => (ws.onmessage = res));
    starts.push(performance.timeOrigin + performance.now());
    ws.send(text);
    await got;
  }
  ws.close();
  return starts;
})`;

/** pageUrl: a page open in the harness's browser (its tab runs the echo listener). */
export async function measureTransport(h: Pick<Harness, 'launched'>, pageUrl: string, sizes: number[], runs = 5): Promise<TransportRow[]> {
  const target = await h.launched.browser.waitForTarget((x) => x.type() === 'service_worker' && x.url().endsWith('/background.js'));
  const worker = await target.worker();
  if (!worker) throw new Error('no service worker');
  const tabId = (await worker.evaluate(
    `chrome.tabs.query({}).then((ts) => (ts.find((t) => t.url === ${JSON.stringify(pageUrl)}) || {}).id)`,
  )) as number | undefined;
  if (tabId === undefined) throw new Error(`no tab at ${pageUrl}`);
  await worker.evaluate(`${INSTALL_ECHO}(${tabId})`);
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const arrivals: number[] = [];
  wss.on('connection', (ws) =>
    ws.on('message', () => {
      arrivals.push(performance.timeOrigin + performance.now());
      ws.send('ok');
    }),
  );
  const rows: TransportRow[] = [];
  try {
    for (const bytes of sizes) {
      const messaging = (await worker.evaluate(`${TIME_MESSAGING}(${tabId}, ${bytes}, ${runs})`)) as number[];
      arrivals.length = 0;
      const starts = (await worker.evaluate(`${TIME_WEBSOCKET}(${port}, ${bytes}, ${runs})`)) as number[];
      // Worker and bench share the machine's clock (performance.timeOrigin + now on both sides).
      const ws = starts.slice(1).map((s, i) => (arrivals[i + 1] ?? NaN) - s);
      rows.push({ bytes, messaging_p50_ms: r1(median(messaging)), websocket_p50_ms: r1(median(ws)) });
    }
  } finally {
    await new Promise((r) => wss.close(r));
  }
  return rows;
}

/** Interpolated transport cost of `bytes` (ms) from the measured rows, per hop. */
export function transportFor(rows: TransportRow[], bytes: number): { messaging: number; websocket: number } {
  const per = (k: 'messaging_p50_ms' | 'websocket_p50_ms') => {
    const pts = rows.filter((r) => Number.isFinite(r[k]));
    if (pts.length === 0) return NaN;
    const hi = pts.find((r) => r.bytes >= bytes) ?? (pts.at(-1) as TransportRow);
    const lo = [...pts].reverse().find((r) => r.bytes <= bytes) ?? (pts[0] as TransportRow);
    if (hi.bytes === lo.bytes) return r1((hi[k] * bytes) / hi.bytes);
    return r1(lo[k] + ((hi[k] - lo[k]) * (bytes - lo.bytes)) / (hi.bytes - lo.bytes));
  };
  return { messaging: per('messaging_p50_ms'), websocket: per('websocket_p50_ms') };
}
