// An agent's first click on a tab it has just opened goes to the page, never to our bar. The bar is
// shown once the bridge names the new lease, which can be after the click chose its point and
// before its real (trusted) input goes in: the bar then came up under the pointer, armed itself on
// the agent's own mouse move, and the press landed on Stop (the page saw a trusted pointerdown and
// click on a DIV it never made, the tab was taken back, and the agent was told "Target tab closed"
// though the tab was open). Here a page button spans the bottom of the viewport, its centre on
// Stop's place, and each run is open_tab then click at once, through the seed 002 text driver.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { Seed002Driver } from '../../bridge/agents/text-driver/driver';
import type { AgentClient } from '../../bridge/client/agent-client';
import { type Harness, useHarness } from '../harness/harness';
import { idOf } from '../seeds/scripted-llm';

/** Open-then-click runs. Each is a new tab (seed 002 has no other way to a tab), ~0.9 s on a loaded
 * 2-core machine: CI runs 25 (the unfixed bar lost 2 of 10, so 25 clean runs do not pass by luck);
 * BUX_BAR_RUNS=100 is the full proof (measured: 100 of 100, 87 s). */
const RUNS = Number(process.env['BUX_BAR_RUNS'] ?? 25);

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The Stop button's box, read through DevTools (which sees into the bar's closed shadow root),
 * once the bar is painted. */
async function stopRect(page: Page): Promise<Rect> {
  await page.waitForFunction(
    () => {
      const host = document.querySelector('[data-browser-agent-ui="overlay"]');
      return !!host && host.getBoundingClientRect().width > 0 && getComputedStyle(host).visibility === 'visible';
    },
    { timeout: 10_000, polling: 20 },
  );
  const cdp = await page.createCDPSession();
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
    let stop: number | undefined;
    const walk = (n: DomNode, inBar: boolean) => {
      const attrs = n.attributes ?? [];
      const isBar = attrs.some((a, i) => i % 2 === 0 && a === 'data-browser-agent-ui' && attrs[i + 1] === 'overlay');
      if (inBar && n.nodeName === 'BUTTON') stop = n.nodeId;
      for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) walk(c, inBar || isBar);
    };
    walk(root, false);
    if (stop === undefined) throw new Error('no Stop button in the bar');
    const { model } = (await cdp.send('DOM.getBoxModel', { nodeId: stop })) as { model: { border: number[] } };
    const xs = [model.border[0]!, model.border[2]!, model.border[4]!];
    const ys = [model.border[1]!, model.border[5]!];
    return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
  } finally {
    await cdp.detach();
  }
}

interface DomNode {
  nodeId: number;
  nodeName: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

/**
 * A page whose button spans the bottom of the viewport from its left edge, its centre on Stop's
 * place (the bar is anchored to the viewport's bottom left, so the same distances hold in any
 * viewport, the debugging info bar's shorter one included). The page's own capture listeners write
 * what the pointer's press and click reached into the button's text, which the agent then reads.
 */
function widePage(h: Harness, stop: { x: number; fromBottom: number }): string {
  return h.fixtures.html(
    '/bar-wide',
    `<body style="margin:0;height:100vh">
      <button id="wide" style="position:fixed;left:0;bottom:0;width:${Math.round(2 * stop.x)}px;height:${Math.round(2 * stop.fromBottom)}px;margin:0"
        onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Wide</button>
      <script>
        const seen = [];
        for (const type of ['pointerdown', 'click'])
          addEventListener(type, (e) => {
            seen.push(type + ' ' + (e.target.id || e.target.localName) + (e.isTrusted ? '' : ' untrusted'));
            document.getElementById('wide').textContent = 'Wide: ' + seen.join(', ');
          }, true);
      </script>
    </body>`,
    'Wide button',
  );
}

describe('e2e: an agent clicking right after open_tab reaches the page, never our bar', function () {
  this.timeout(RUNS * 3_000 + 60_000);
  let h: Harness;
  let agent: AgentClient;
  let url: string;
  useHarness((started) => (h = started), {
    prepare: async (started) => {
      agent = await started.connectAgent({ maxTabs: 2 });
      // Where Stop sits for this agent's bar (its label names the agent): a tab the agent holds.
      const page = await started.openPage(started.fixtures.html('/bar-measure', '<p>measure</p>'));
      await page.setViewport(null);
      const held = await agent.call('get_state', {});
      if (held.status !== 'success') throw new Error(JSON.stringify(held.error_info));
      const s = await stopRect(page);
      const vh = await page.evaluate(() => innerHeight);
      url = widePage(started, { x: (s.left + s.right) / 2, fromBottom: vh - (s.top + s.bottom) / 2 });
      await page.close();
    },
  });

  it(`seed 002 driver: ${RUNS} runs of open_tab then click at the bar's spot, trusted: the page's button gets every click`, async () => {
    const driver = new Seed002Driver(agent, agent);
    const released: string[] = [];
    agent.on('tab_released', (m) => m.reason === 'released_by_user' && released.push(m.message));
    const misses: string[] = [];
    const t0 = Date.now();
    for (let run = 1; run <= RUNS; run++) {
      const opened = await driver.execute(`<tool_code>{"action": "open_tab", "url": "${url}"}</tool_code>`);
      expect(opened.error, opened.text).to.equal(false);
      const tabId = driver.targetTabIds.at(-1)!;
      const clicked = await driver.execute(`<tool_code>{"action": "click", "id": ${idOf(opened.text, 'button', 'Wide')}}</tool_code>`);
      const line = /<button id="\d+"[^>]*>(Wide[^<]*)<\/button>/.exec(clicked.text)?.[1] ?? '(no button in the reply)';
      if (clicked.error || line !== 'Wide: pointerdown wide, click wide' || /Target tab closed/.test(clicked.text))
        misses.push(`run ${run}: ${line} | ${clicked.text.split('\n')[0]}`);
      // The tab goes (the agent's own close), so the runs do not pile tabs up.
      const closed = await agent.call('close_tab', {}, { tabId });
      expect(closed.status, JSON.stringify(closed.error_info)).to.equal('success');
    }
    const ms = Date.now() - t0;
    console.log(`      ${RUNS} runs in ${ms} ms (${Math.round(ms / RUNS)} ms each), ${misses.length} misses`);
    expect(misses, 'every click reached the page button').to.deep.equal([]);
    expect(released, 'Stop was never pressed').to.deep.equal([]);
  });

  it("a tab the person takes back with the bar's Stop is not reported to the seed 002 agent as closed", async () => {
    const driver = new Seed002Driver(agent, agent);
    const opened = await driver.execute(`<tool_code>{"action": "open_tab", "url": "${url}"}</tool_code>`);
    expect(opened.error, opened.text).to.equal(false);
    const tabId = driver.targetTabIds.at(-1)!;
    const page = (await h.launched.browser.pages()).find((p) => p.url() === url);
    expect(page, 'the opened tab').to.not.equal(undefined);
    const gone = new Promise((resolve) => agent.once('tab_released', resolve));
    // A person's pointer moves onto Stop and clicks it.
    const stop = await stopRect(page!);
    await page!.mouse.click((stop.left + stop.right) / 2, (stop.top + stop.bottom) / 2);
    await gone;
    const next = await driver.observe();
    expect(next, next).to.not.contain('Target tab closed');
    expect(next).to.contain(`System: The person took tab ${tabId}`);
    expect((await h.launched.browser.pages()).includes(page!), 'the tab is still open').to.equal(true);
    await page!.close();
  });
});
