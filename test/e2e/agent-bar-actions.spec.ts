// The "Agent is controlling this tab" bar never gets between the agent and the page: a page button
// lying exactly under the bar's Stop button is clicked (the page counts the click, the result is
// success), trusted input on and off; the page's own elementFromPoint / elementsFromPoint never
// answer the bar's host except exactly over Stop; and a trusted-input session leaves the viewport
// as it found it.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { open, quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Waits for the bar's host to be painted; returns its box (its content is in a closed shadow root). */
async function barRect(page: Page): Promise<Rect> {
  await page.waitForFunction(
    () => {
      const host = document.querySelector('[data-browser-agent-ui="overlay"]');
      const r = host?.getBoundingClientRect();
      return !!r && r.width > 0 && r.height > 0 && getComputedStyle(host!).visibility === 'visible';
    },
    { timeout: 10_000, polling: 20 },
  );
  return page.evaluate(() => {
    const r = document.querySelector('[data-browser-agent-ui="overlay"]')!.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
}

/** The Stop button's box, read through DevTools (which sees into closed shadow roots). */
async function stopRect(page: Page): Promise<Rect> {
  const cdp = await page.createCDPSession();
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
    const found: number[] = [];
    const walk = (n: DomNode, inBar: boolean) => {
      const attrs = n.attributes ?? [];
      const isBar = attrs.some((a, i) => i % 2 === 0 && a === 'data-browser-agent-ui' && attrs[i + 1] === 'overlay');
      if (inBar && n.nodeName === 'BUTTON') found.push(n.nodeId);
      for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) walk(c, inBar || isBar);
    };
    walk(root, false);
    expect(found, 'one Stop button in the bar').to.have.length(1);
    const { model } = (await cdp.send('DOM.getBoxModel', { nodeId: found[0]! })) as { model: { border: number[] } };
    const xs = [model.border[0]!, model.border[2]!, model.border[4]!, model.border[6]!];
    const ys = [model.border[1]!, model.border[3]!, model.border[5]!, model.border[7]!];
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

const viewport = (page: Page) => page.evaluate(() => ({ w: window.innerWidth, h: window.innerHeight }));

describe('e2e: the agent bar never gets between the agent and the page', function () {
  this.timeout(90_000);
  let h: Harness;
  useHarness((started) => (h = started), {
    prepare: quietSettle,
    cleanup: (started) => clearSettings(started, ['trusted_input']),
  });

  // First in this file: Chrome's info bar, once shown, stays for the rest of the browser's session.
  it('trusted input: an element listed in view near the bottom is still clicked when the debugging info bar shortens the viewport', async () => {
    await setSettings(h, { trusted_input: true });
    const o = await open(
      h,
      `<div style="height:calc(100vh - 40px)">tall</div><button id="low" style="margin-left:400px"
        onclick="window.lowClicks=(window.lowClicks||0)+1;(window.during=window.during||[]).push(innerHeight)">Low</button><div style="height:2000px"></div>`,
    );
    // The window's own viewport, as a person's Chrome has it (the harness emulates a fixed 800x600
    // one, which no info bar can shorten).
    await o.page.setViewport(null);
    const before = await viewport(o.page);
    const s = (await o.call('get_state', {})).new_simplified_state as SimplifiedState;
    const low = s.actionable_elements.find((e) => e.attributes['id'] === 'low');
    expect(low, 'listed').to.not.equal(undefined);
    expect(low!.is_in_viewport, 'listed in view').to.not.equal(false);
    for (let i = 1; i <= 3; i++) {
      const r = await o.call('click', { index: low!.index });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(await o.eval('window.lowClicks')).to.equal(i);
    }
    const after = await viewport(o.page);
    console.log(
      `      viewport height before ${before.h}, at each trusted click ${JSON.stringify(await o.eval('window.during'))}, after ${after.h}`,
    );
    await o.page.close();
  });

  for (const trusted of [false, true]) {
    it(`a button exactly under the bar's Stop is clicked by index: the page counts it, success (trusted input ${trusted ? 'on' : 'off'})`, async () => {
      await setSettings(h, { trusted_input: trusted });
      const o = await open(h, '<p>Button under the bar</p>');
      await o.page.setViewport(null);
      // With trusted input on, Chrome's debugging info bar (shown from the first trusted action on)
      // shortens the viewport and moves the bar: measure where Stop is once it is up.
      if (trusted) await o.ok('hover', { selector: 'p' });
      await barRect(o.page);
      const stop = await stopRect(o.page);
      const before = await viewport(o.page);
      // A button no larger than Stop, centred on it: no point of it is outside Stop, and being
      // fixed no scrolling moves it out from under the bar.
      await o.page.evaluate((s: Rect) => {
        const b = document.createElement('button');
        b.id = 'under';
        b.setAttribute('aria-label', 'Under Stop');
        const w = Math.min(16, s.right - s.left - 4);
        const hh = Math.min(12, s.bottom - s.top - 4);
        b.style.cssText = `position:fixed;left:${(s.left + s.right - w) / 2}px;top:${(s.top + s.bottom - hh) / 2}px;width:${w}px;height:${hh}px;padding:0;border:0;min-width:0;z-index:5`;
        b.onclick = (e) => {
          const w2 = window as unknown as { clicks?: number; trustedClicks?: number };
          w2.clicks = (w2.clicks ?? 0) + 1;
          if (e.isTrusted) w2.trustedClicks = (w2.trustedClicks ?? 0) + 1;
        };
        document.body.append(b);
      }, stop);
      const s = (await o.call('get_state', {})).new_simplified_state as SimplifiedState;
      const under = s.actionable_elements.find((e) => e.attributes['id'] === 'under');
      expect(under, 'the button is listed').to.not.equal(undefined);
      const r = await o.call('click', { index: under!.index, timeout_ms: 2000 });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(await o.eval('window.clicks ?? 0'), 'the page got the click').to.equal(1);
      expect(await o.eval('window.trustedClicks ?? 0'), 'a real click when trusted input is on').to.equal(trusted ? 1 : 0);
      if (trusted) expect(r.outcome_details!.message).to.match(/^Trusted click/);
      // Stop was not pressed: the agent still holds the tab, and the bar is back where it was.
      const back = await stopRect(o.page);
      await barRect(o.page);
      expect(back).to.deep.equal(stop);
      expect((await o.call('get_state', {})).status).to.equal('success');
      // The viewport is as the action found it (no lingering "is being debugged" bar).
      const after = await viewport(o.page);
      console.log(`      viewport before ${before.w}x${before.h}, after ${after.w}x${after.h} (trusted ${trusted})`);
      expect(after).to.deep.equal(before);
      await o.page.close();
    });
  }

  it('a trusted click just above the bar: the bar is out of the way while the click goes in (it could move up under it), and only then', async () => {
    await setSettings(h, { trusted_input: true });
    const o = await open(h, '<button id="far" style="position:fixed;left:10px;top:10px">Far</button>');
    const bar = await barRect(o.page);
    await o.page.evaluate((b: Rect) => {
      const near = document.createElement('button');
      near.id = 'near';
      near.textContent = 'Near';
      near.style.cssText = `position:fixed;left:${b.left}px;top:${b.top - 40}px;height:30px;width:${b.right - b.left}px`;
      document.body.append(near);
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      for (const el of document.querySelectorAll('button'))
        el.addEventListener('click', () => {
          const host = document.querySelector('[data-browser-agent-ui="overlay"]')!;
          seen.push(`${el.id}:${getComputedStyle(host).visibility}`);
        });
    }, bar);
    await o.ok('click', { selector: '#near' });
    // The bar is back for the person right after (well within a second).
    const t = Date.now();
    await barRect(o.page);
    expect(Date.now() - t).to.be.below(1000);
    await o.ok('click', { selector: '#far' });
    expect(await o.eval('window.seen')).to.deep.equal(['near:hidden', 'far:visible']);
    await o.page.close();
  });

  it("the page's elementFromPoint / elementsFromPoint never answer the bar's host, except exactly over Stop", async () => {
    await setSettings(h, { trusted_input: false });
    const o = await open(h, '<p>Hit tests</p><div id="under" style="position:fixed;inset:0;z-index:1"></div>');
    const bar = await barRect(o.page);
    const stop = await stopRect(o.page);
    const answers = await o.page.evaluate((b: Rect) => {
      const host = document.querySelector('[data-browser-agent-ui="overlay"]');
      const out: { x: number; y: number; one: boolean; many: boolean }[] = [];
      for (let y = b.top + 0.5; y < b.bottom; y += 2)
        for (let x = b.left + 0.5; x < b.right; x += 2)
          out.push({ x, y, one: document.elementFromPoint(x, y) === host, many: document.elementsFromPoint(x, y).includes(host!) });
      return out;
    }, bar);
    const onStop = (p: { x: number; y: number }) => p.x >= stop.left && p.x <= stop.right && p.y >= stop.top && p.y <= stop.bottom;
    const leaks = answers.filter((p) => (p.one || p.many) && !onStop(p));
    expect(answers.length, 'sampled the whole bar').to.be.above(100);
    expect(leaks, 'points off Stop where the page hit test sees our host').to.deep.equal([]);
    // Over Stop the host is what a real pointer hits: that is how the person presses it.
    expect(answers.some((p) => p.one && onStop(p))).to.equal(true);
    await o.page.close();
  });
});
