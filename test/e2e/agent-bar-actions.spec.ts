// The "Agent is controlling this tab" bar never gets between the agent and the page: a page button
// lying exactly under the bar's Stop button is clicked (the page counts the click, the result is
// success), trusted input on and off, even while a person's pointer rests on Stop, and so is one in
// an iframe under Stop, pointer resting or not (a trusted click there used to press Stop and report
// success); the page's own elementFromPoint / elementsFromPoint / caretRangeFromPoint never answer
// the bar's host, Stop included, unless a person's pointer is on the bar (then Stop takes it, so
// their click works); an agent's trusted hover under Stop leaves the page element hovered; and after
// trusted input the state, the bar and the page's hit tests all use the viewport as it really is
// (Chrome's debugging info bar takes 56 px of it); and keys for "the focused element" are never sent
// while the person has focused Stop (a real Enter pressed it and was reported as a key press).
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

/** Moves the keyboard focus onto the bar's Stop button, as a person pressing Tab would (DevTools
 * reaches into the closed shadow root). */
async function focusStop(page: Page): Promise<void> {
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
    await cdp.send('DOM.focus', { nodeId: stop });
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
const centre = (r: Rect) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });

/** What the page's own script gets from elementFromPoint at a point: 'host' for our bar, else the element's id or tag. */
const pageHit = (page: Page, at: { x: number; y: number }) =>
  page.evaluate(({ x, y }) => {
    const hit = document.elementFromPoint(x, y);
    if (!hit) return null;
    return hit.hasAttribute('data-browser-agent-ui') ? 'host' : hit.id || hit.localName;
  }, at);

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
    // The state describes the viewport as it is now, not as it was before the info bar.
    const now = (await o.call('get_state', {})).new_simplified_state as SimplifiedState;
    expect(now.viewport_dimensions, "the state's viewport is the page's").to.deep.equal({ width: after.w, height: after.h });
    const scrollY = await o.eval<number>('scrollY');
    expect(now.scroll_position?.y).to.equal(scrollY);
    expect(now.pixels_below).to.equal(Math.max(0, (now.page_size?.height ?? 0) - after.h - scrollY));
    // The bar sits at the real viewport's bottom, and the page's hit test under it (Stop included)
    // answers the page, at its new place too.
    const bar = await barRect(o.page);
    expect(after.h - bar.bottom, "12 px above the real viewport's bottom").to.be.closeTo(12, 1);
    expect(await pageHit(o.page, centre(await stopRect(o.page))), 'the page under Stop').to.not.equal('host');
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
      // The page's own hit test at that point answers its button, not our Stop.
      expect(await pageHit(o.page, centre(stop))).to.equal('under');
      // A person's pointer rests on Stop (so Stop takes the pointer) while the agent clicks: the
      // agent's click still goes to the page, never to Stop.
      await o.page.mouse.move(centre(stop).x, centre(stop).y);
      expect(await pageHit(o.page, centre(stop)), "Stop is armed under the person's pointer").to.equal('host');
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

  for (const trusted of [false, true]) {
    it(`a button in an iframe, under the bar's Stop, is clicked by index and Stop is not pressed (trusted input ${trusted ? 'on' : 'off'})`, async () => {
      await setSettings(h, { trusted_input: trusted });
      const o = await open(h, '<p>Frame under the bar</p>');
      await barRect(o.page);
      const stop = await stopRect(o.page);
      const c = centre(stop);
      // The frame fills the viewport; its button sits at Stop's place (fixed: the frame's viewport
      // is the page's), no larger than Stop.
      const inner = h.fixtures.html(
        '/bar-frame',
        `<button id="framed" aria-label="Framed" style="position:fixed;left:${c.x - 6}px;top:${c.y - 5}px;width:12px;height:10px;padding:0;border:0;min-width:0"
          onclick="parent.postMessage('framed-click:' + event.isTrusted, '*')"></button>`,
        'Frame',
      );
      await o.page.evaluate((src: string) => {
        const w = window as unknown as { got: string[] };
        w.got = [];
        addEventListener('message', (e) => w.got.push(String(e.data)));
        const f = document.createElement('iframe');
        f.src = src;
        f.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;border:0;z-index:5';
        document.body.append(f);
        return new Promise((done) => f.addEventListener('load', done));
      }, inner);
      // The page's own hit test at Stop's place answers its frame.
      expect(await pageHit(o.page, c)).to.equal('iframe');
      const s = (await o.call('get_state', {})).new_simplified_state as SimplifiedState;
      const framed = s.actionable_elements.find((e) => e.attributes['id'] === 'framed');
      expect(framed, 'the framed button is listed').to.not.equal(undefined);
      const r = await o.call('click', { index: framed!.index, timeout_ms: 2000 });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      await o.page.waitForFunction(() => (window as unknown as { got: string[] }).got.length > 0, { timeout: 5000 });
      expect(await o.eval('window.got')).to.deep.equal([`framed-click:${trusted}`]);
      // Stop was not pressed: the agent still holds the tab.
      expect((await o.call('get_state', {})).status).to.equal('success');
      expect(await barRect(o.page)).to.deep.include({ left: 12 });
      await o.page.close();
    });
  }

  for (const trusted of [false, true]) {
    it(`a button in a small iframe under Stop, while a person's pointer rests on Stop: the frame gets the click, Stop is not pressed (trusted input ${trusted ? 'on' : 'off'})`, async () => {
      await setSettings(h, { trusted_input: trusted });
      const o = await open(h, '<p>Small frame under the bar</p>');
      await barRect(o.page);
      const stop = await stopRect(o.page);
      const c = centre(stop);
      // A 16x12 frame at Stop's centre, its button filling it: the rest of Stop is the top page's,
      // where a person's pointer can rest (a pointer over a frame moves in the frame's document,
      // which the bar never hears).
      const inner = h.fixtures.html(
        '/bar-small-frame',
        `<body style="margin:0"><button id="framed" aria-label="Framed" style="display:block;width:16px;height:12px;padding:0;border:0;min-width:0"
          onclick="parent.postMessage('framed-click:' + event.isTrusted, '*')"></button></body>`,
        'Small frame',
      );
      await o.page.evaluate(
        (src: string, at: { x: number; y: number }) => {
          const w = window as unknown as { got: string[] };
          w.got = [];
          addEventListener('message', (e) => w.got.push(String(e.data)));
          const f = document.createElement('iframe');
          f.src = src;
          f.style.cssText = `position:fixed;left:${at.x - 8}px;top:${at.y - 6}px;width:16px;height:12px;border:0;z-index:5`;
          document.body.append(f);
          return new Promise((done) => f.addEventListener('load', done));
        },
        inner,
        c,
      );
      const s = (await o.call('get_state', {})).new_simplified_state as SimplifiedState;
      const framed = s.actionable_elements.find((e) => e.attributes['id'] === 'framed');
      expect(framed, 'the framed button is listed').to.not.equal(undefined);
      // The person's pointer on Stop, beside the frame: Stop takes the pointer (over the frame too).
      expect(stop.right - stop.left, 'Stop is wider than the frame').to.be.above(24);
      await o.page.mouse.move(stop.left + 3, c.y);
      expect(await pageHit(o.page, c), "Stop is armed under the person's pointer").to.equal('host');
      const r = await o.call('click', { index: framed!.index, timeout_ms: 2000 });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      await o.page.waitForFunction(() => (window as unknown as { got: string[] }).got.length > 0, { timeout: 5000 });
      expect(await o.eval('window.got')).to.deep.equal([`framed-click:${trusted}`]);
      // Stop was not pressed: the agent still holds the tab, and the bar is back.
      expect((await o.call('get_state', {})).status).to.equal('success');
      expect(await stopRect(o.page)).to.deep.equal(stop);
      await o.page.close();
    });
  }

  for (const trusted of [false, true]) {
    it(`keys for the focused element while the person has focused Stop are not sent: a typed error, Stop not pressed, the page sees no key (trusted input ${trusted ? 'on' : 'off'})`, async () => {
      await setSettings(h, { trusted_input: trusted });
      const o = await open(
        h,
        `<input id="field" aria-label="Field"><script>window.keys = []; addEventListener('keydown', (e) => keys.push(e.key + ':' + (e.target.id || e.target.localName)), true);</script>`,
      );
      await barRect(o.page);
      await focusStop(o.page);
      expect(await o.eval('document.activeElement.hasAttribute("data-browser-agent-ui")'), 'Stop has the focus').to.equal(true);
      for (const [action, params] of [
        ['press', { key: 'Enter' }],
        ['send_keys', { keys: 'Enter' }],
      ] as const) {
        const r = await o.call(action, params);
        expect(r.status, `${action}: ${JSON.stringify(r.outcome_details)}`).to.equal('error');
        expect(r.error_info?.error_code).to.equal('OPERATION_FAILED_IN_TARGET');
        expect(r.error_info?.message).to.match(/Stop button.*Click or focus the page element/);
      }
      expect(await o.eval('window.keys'), 'the page saw no key').to.deep.equal([]);
      // Stop was not pressed: the agent still holds the tab; with a target, keys go where asked.
      const s = (await o.call('get_state', {})).new_simplified_state as SimplifiedState;
      const field = s.actionable_elements.find((e) => e.attributes['id'] === 'field');
      const typed = await o.call('press', { index: field!.index, key: 'a' });
      expect(typed.status, JSON.stringify(typed.error_info)).to.equal('success');
      expect(await o.eval('window.keys')).to.deep.equal(['a:field']);
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

  it("trusted hover on an element under Stop: the page element is hovered, and stays so once the bar is back (the agent's move does not arm Stop)", async () => {
    await setSettings(h, { trusted_input: true });
    const o = await open(h, '<style>#hov{background:rgb(0,0,255)} #hov:hover{background:rgb(255,0,0)}</style><p>Hover under the bar</p>');
    await barRect(o.page);
    const stop = await stopRect(o.page);
    await o.page.evaluate((st: Rect) => {
      const b = document.createElement('button');
      b.id = 'hov';
      b.setAttribute('aria-label', 'Hover me');
      const w = Math.min(16, st.right - st.left - 4);
      const hh = Math.min(12, st.bottom - st.top - 4);
      b.style.cssText = `position:fixed;left:${(st.left + st.right - w) / 2}px;top:${(st.top + st.bottom - hh) / 2}px;width:${w}px;height:${hh}px;padding:0;border:0;min-width:0;z-index:5`;
      const w2 = window as unknown as { left: number };
      w2.left = 0;
      b.addEventListener('mouseleave', () => w2.left++);
      document.body.append(b);
    }, stop);
    await o.page.mouse.move(5, 5);
    const r = await o.ok('hover', { selector: '#hov' });
    expect(r['element_id']).to.be.a('string');
    // The bar comes back (it stepped aside while the agent's pointer went in) ...
    await barRect(o.page);
    await o.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    // ... and the page element under it is still the hovered one, as the page sees it.
    const seen = await o.page.evaluate(() => {
      const b = document.getElementById('hov')!;
      return { hover: b.matches(':hover'), bg: getComputedStyle(b).backgroundColor, left: (window as unknown as { left: number }).left };
    });
    expect(seen).to.deep.equal({ hover: true, bg: 'rgb(255, 0, 0)', left: 0 });
    expect(await pageHit(o.page, centre(stop)), "the page's hit test under Stop").to.equal('hov');
    expect((await o.call('get_state', {})).status, 'the agent still holds the tab').to.equal('success');
    await o.page.close();
  });

  it("the page's elementFromPoint / elementsFromPoint / caretRangeFromPoint never answer the bar, Stop included, until a person's pointer is on it", async () => {
    await setSettings(h, { trusted_input: false });
    const o = await open(
      h,
      `<p>Hit tests</p><div id="under" style="position:fixed;inset:0;z-index:1;font:20px/1 monospace;overflow:hidden;word-break:break-all">${'text '.repeat(2000)}</div>`,
    );
    await o.page.mouse.move(5, 5);
    const bar = await barRect(o.page);
    const stop = await stopRect(o.page);
    const sample = () =>
      o.page.evaluate((b: Rect) => {
        const host = document.querySelector('[data-browser-agent-ui="overlay"]')!;
        const under = document.getElementById('under')!;
        const out: { x: number; y: number; one: boolean; many: boolean; caret: boolean }[] = [];
        for (let y = b.top + 0.5; y < b.bottom; y += 2)
          for (let x = b.left + 0.5; x < b.right; x += 2) {
            const range = document.caretRangeFromPoint(x, y);
            out.push({
              x,
              y,
              one: document.elementFromPoint(x, y) === host,
              many: document.elementsFromPoint(x, y).includes(host),
              caret: !!range && under.contains(range.startContainer),
            });
          }
        return out;
      }, bar);
    const answers = await sample();
    const onStop = (p: { x: number; y: number }) => p.x >= stop.left && p.x <= stop.right && p.y >= stop.top && p.y <= stop.bottom;
    expect(answers.length, 'sampled the whole bar').to.be.above(100);
    expect(answers.filter(onStop).length, 'sampled Stop').to.be.above(10);
    const leaks = answers.filter((p) => p.one || p.many || !p.caret);
    expect(leaks, 'points where the page sees our bar instead of its own element or text').to.deep.equal([]);
    // A page's own (untrusted) pointer events over the bar do not arm Stop.
    const c = centre(stop);
    await o.page.evaluate(({ x, y }) => {
      document
        .getElementById('under')!
        .dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true, clientX: x, clientY: y }));
    }, c);
    expect(await pageHit(o.page, c)).to.equal('under');
    // A person's pointer on the bar: Stop takes the pointer (that is how their click presses it),
    // while the rest of the bar still lets the page under it be hovered; off the bar, the page again.
    await o.page.mouse.move(bar.left + 4, (bar.top + bar.bottom) / 2, { steps: 2 });
    expect(await o.eval("document.getElementById('under').matches(':hover')"), 'the page under the bar is hovered').to.equal(true);
    await o.page.mouse.move(c.x, c.y, { steps: 2 });
    expect(await pageHit(o.page, c), 'Stop under the pointer').to.equal('host');
    await o.page.mouse.move(5, 5, { steps: 2 });
    expect(await pageHit(o.page, c), 'the pointer left: the page again').to.equal('under');
    expect((await sample()).filter((p) => p.one || p.many || !p.caret)).to.deep.equal([]);
    await o.page.close();
  });
});
