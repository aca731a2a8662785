// How fast agents get the browser back, in the real setup (Chromium + built extension + bridge):
//   - Chrome stops the service worker and no browser event follows (no page load, no click): the
//     offscreen wake document's port wakes it, and it is back at the bridge within 2 s (it used to
//     wait for the 30 s alarm: ~29 s measured);
//   - the bridge restarts (down 1 to 4.5 s, then on the same port): the extension is back within 1 s
//     of the new bridge listening (the old backoff, 0.25 s doubling, took up to 3.3 s).
// Each test prints its measured times.
import { expect } from 'chai';

import { pct } from '../../bench/stats';
import { createBridge } from '../../bridge/cli/wire';
import { EXTENSION_ID } from '../../bridge/common/extension-id';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import { type Harness, useHarness } from '../harness/harness';

const WORKER_BACK_MS = 2000;
const BRIDGE_BACK_MS = 1000;
const TRIES = 5;
const DOWN_MS = [1000, 1500, 2200, 3000, 4500];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stats = (xs: number[]) => ({ p50: pct(xs, 50), max: pct(xs, 100), all: xs });

/** Resolves with ms from now until the bridge sees the extension connect, or rejects after capMs. */
function connectedWithin(bridge: BridgeServer, capMs: number): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      bridge.off('extension-connected', on);
      reject(new Error(`the extension did not come back within ${capMs} ms`));
    }, capMs);
    const on = () => {
      clearTimeout(timer);
      resolve(Math.round(performance.now() - t0));
    };
    bridge.once('extension-connected', on);
  });
}

describe('e2e: agents get the browser back fast', function () {
  this.timeout(120_000);
  let h: Harness;
  useHarness((started) => (h = started));

  const offscreenTargets = () =>
    h.launched.browser.targets().filter((t) => t.url() === `chrome-extension://${EXTENSION_ID}/offscreen/index.html`);

  it(`a worker stopped with no browser event is back within ${WORKER_BACK_MS} ms, and the next action works`, async () => {
    await h.openPage(h.fixtures.html('/wake', '<p>still here</p>', 'Wake'));
    const agent = await h.connectAgent();
    expect((await agent.call('get_state', {})).status).to.equal('success');
    const cdp = await h.launched.browser.target().createCDPSession();
    const times: number[] = [];
    const [wakeDocument] = offscreenTargets();
    expect(wakeDocument, 'the offscreen wake document').to.not.equal(undefined);
    for (let i = 0; i < TRIES; i++) {
      const { targetInfos } = await cdp.send('Target.getTargets');
      const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${EXTENSION_ID}/`));
      expect(worker, 'the extension service worker target').to.not.equal(undefined);
      const down = new Promise((r) => h.bridge.once('extension-disconnected', r));
      // Stopped the way Chrome stops an idle worker; nothing else happens in the browser afterwards.
      await cdp.send('Target.closeTarget', { targetId: worker!.targetId });
      await down;
      const ms = await connectedWithin(h.bridge, 5000);
      times.push(ms);
      const r = await agent.call('get_state', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(r.new_simplified_state?.title).to.equal('Wake');
      // The wake document outlived the worker: the same one, never recreated.
      expect(offscreenTargets(), 'the same offscreen wake document').to.deep.equal([wakeDocument]);
      await sleep(600);
    }
    await cdp.detach();
    const s = stats(times);
    console.log(`      worker stopped -> back at the bridge (ms): ${JSON.stringify(s)}`);
    expect(s.max, JSON.stringify(s)).to.be.below(WORKER_BACK_MS);
  });

  it(`a bridge restarted on the same port (down 1-4.5 s) has the extension back within ${BRIDGE_BACK_MS} ms of listening`, async () => {
    const logger = createLogger('warn');
    const times: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const port = h.bridge.port;
      await h.bridge.close();
      // Down ~1 s, as a restart, and longer: the restart falls at different points of the retry schedule.
      await sleep(DOWN_MS[i] ?? 1000);
      const next = createBridge({ port, secrets: h.secrets, logger });
      // Listening for the extension before the bridge listens: nothing can be missed.
      const connectedAt = new Promise<number>((resolve) => next.once('extension-connected', () => resolve(performance.now())));
      await next.start();
      const listeningAt = performance.now();
      h.bridge = next;
      const ms = await Promise.race([connectedAt.then((t) => Math.round(t - listeningAt)), sleep(5000).then(() => 5000)]);
      times.push(ms);
      if (ms >= 5000) break; // not back within 5 s: the assertion below says so
      await next.waitForExtension(1000);
      const agent = await h.connectAgent();
      const r = await agent.call('list_tabs', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      await agent.close();
    }
    const s = stats(times);
    console.log(`      bridge listening again -> extension connected (ms): ${JSON.stringify(s)}`);
    expect(s.max, JSON.stringify(s)).to.be.below(BRIDGE_BACK_MS);
  });

  // Last: it closes every tab.
  it('wakes the worker with no tab open at all (the wake document is no tab)', async () => {
    for (const p of await h.launched.browser.pages()) await p.close();
    expect(await h.launched.browser.pages(), 'no tab left').to.deep.equal([]);
    const cdp = await h.launched.browser.target().createCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${EXTENSION_ID}/`));
    const down = new Promise((r) => h.bridge.once('extension-disconnected', r));
    await cdp.send('Target.closeTarget', { targetId: worker!.targetId });
    await down;
    const ms = await connectedWithin(h.bridge, 5000);
    console.log(`      no tab: worker stopped -> back at the bridge in ${ms} ms`);
    await cdp.detach();
    expect(ms).to.be.below(WORKER_BACK_MS);
  });
});
