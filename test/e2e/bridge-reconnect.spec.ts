// The extension's reconnect when one try is never answered (real Chromium + built extension). While
// the bridge is away, something takes the extension's TCP connection on the bridge's port and never
// answers the WebSocket upgrade (a bridge process that accepted it and froze, or went away without
// the socket being reset), then the real bridge listens on that port again. Chrome keeps such a
// socket CONNECTING for up to 240 s, and a try "being opened" used to stop every retry, wake and
// alarm, so the extension stayed away. Now each try is bounded (bridge-connection.ts): the
// extension is back before the next backoff step, and its try log (globalThis.__buxBridgeTries,
// try-log.ts) says what happened to each try.
import net from 'node:net';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { type Harness, useHarness } from '../harness/harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TryLog {
  workerStarted: number;
  tries: { at: number; by: string; outcome: string; endMs?: number; nextMs?: number; fast?: boolean }[];
  wakesWhileTrying: number;
}

/** The worker's try log (try-log.ts), read through DevTools. */
async function tryLog(h: Harness): Promise<TryLog | null> {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
  const w = await target.worker();
  return (await w?.evaluate(() => (globalThis as { __buxBridgeTries?: unknown }).__buxBridgeTries ?? null)) as TryLog | null;
}

describe('e2e: reconnect when a try to the bridge is never answered', function () {
  this.timeout(90_000);
  let h: Harness;
  useHarness((started) => (h = started));

  it('logs each try and its outcome', async () => {
    const log = await tryLog(h);
    expect(log, 'globalThis.__buxBridgeTries in the worker').to.not.equal(null);
    const last = log?.tries.at(-1);
    expect(last?.outcome, JSON.stringify(log?.tries.slice(-5))).to.equal('connected');
  });

  it('is back at a bridge that listens again, although its earlier try was taken and never answered', async () => {
    const port = h.bridge.port;
    await h.bridge.close();
    // Something takes the connection and never answers: held open, neither accepted as WebSocket nor reset.
    const held: net.Socket[] = [];
    let upgradeAsked = false;
    const silent = net.createServer((s) => {
      held.push(s);
      s.on('data', (d) => (upgradeAsked ||= /^GET \/extension /.test(d.toString('latin1'))));
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => silent.listen(port, '127.0.0.1', r));
    try {
      const until = Date.now() + 10_000;
      while (!upgradeAsked && Date.now() < until) await sleep(20);
      expect(upgradeAsked, "the extension's WebSocket upgrade reached the silent listener").to.equal(true);
      // It stops listening at once (close's callback would wait for the held sockets, which stay open
      // and unanswered); the real bridge takes the port.
      silent.close();
      const next = createBridge({ port, secrets: h.secrets, logger: createLogger('warn') });
      const back = new Promise<number>((resolve) => next.once('extension-connected', () => resolve(Date.now())));
      await next.start();
      const listening = Date.now();
      h.bridge = next;
      // The design's bound: the try given up within its connect limit (2 s), then the next fast retry
      // (0.25 s), or at worst the next backoff step (the fast period has a 15 s budget). Not a timing
      // assert: the old code stayed away (Chrome's 240 s upgrade limit) however long this waited.
      const ms = await Promise.race([back.then((t) => t - listening), sleep(20_000).then(() => null)]);
      // The bridge counts the extension connected as it sends hello_ack; the worker logs it on receipt.
      let log = await tryLog(h);
      for (let i = 0; i < 50 && ms !== null && log?.tries.at(-1)?.outcome !== 'connected'; i++) {
        await sleep(100);
        log = await tryLog(h);
      }
      const tries = JSON.stringify(log?.tries.slice(-8));
      expect(ms, `the extension did not come back within 20 s of the bridge listening; its last tries: ${tries}`).to.not.equal(null);
      console.log(`      bridge listening -> extension connected: ${ms} ms`);
      const outcomes = log?.tries.map((t) => t.outcome) ?? [];
      expect(outcomes, tries).to.include('connect_timeout');
      expect(outcomes.at(-1), tries).to.equal('connected');
      const agent = await h.connectAgent();
      const r = await agent.call('list_tabs', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      await agent.close();
    } finally {
      for (const s of held) s.destroy();
      silent.close();
    }
  });
});
