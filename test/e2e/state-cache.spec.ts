// A state asked again on a page that has not changed is the last walk's answer given again
// (content/snapshot/walk-cache.ts); it must be exactly what a fresh walk would say. Each case here
// changes the page through one source of change a stale answer would miss (a class that hides a
// subtree, a sheet, a CSSOM rule, :hover, a label's text, an aria-* attribute, a resize, a value set
// from script, a scroll) and compares the kept path's state with a fresh walk's taken just before
// it (the isolated world's cold switch, reached through DevTools as a test can and a page cannot).
// The property test then does random actions on small versions of the bench pages.
// Around them: nothing of this is in a tab no agent holds (the page sees the browser's own functions,
// in every frame), it arms when the agent takes the tab, and the browser's own come back when the
// hold ends (the person's release, the agent gone).
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';

import { coldWalks, walkCount } from '../../bench/isolated-world';
import { articlePage, formPage, shadowPage, tablePage, todoHiddenMenusPage, wikiPage } from '../../bench/pages';
import { wcTodoPage } from '../../bench/pages-wc-todo';
import type { GetStateParams, SimplifiedState } from '../../schemas/generated/protocol';
import { type AgentPage, type Harness, useAgentPage } from '../harness/harness';
import { openPanel } from '../harness/panel';

let h: Harness;
let page: Page;
let t: AgentPage;

const WHOLE: GetStateParams = { viewport_expansion: -1 };
const VIEWPORT: GetStateParams = {};

const walks = () => walkCount(page);

/** What the two states must share: everything but the ids and timings of the ask itself. */
function comparable(s: SimplifiedState): Partial<SimplifiedState> {
  const { state_id: _id, timings_ms: _t, ...rest } = s;
  return rest;
}

/** A fresh walk's state (nothing kept, nothing left behind), then the ordinary state: they must be equal. */
async function expectKeptEqualsFresh(params: GetStateParams, why: string): Promise<SimplifiedState> {
  await coldWalks(page, true);
  let fresh: SimplifiedState;
  try {
    fresh = await t.state(params);
  } finally {
    await coldWalks(page, false);
  }
  const kept = await t.state(params);
  expect(comparable(kept), why).to.deep.equal(comparable(fresh));
  return kept;
}

async function open(path: string, body: string): Promise<void> {
  await page.goto(h.fixtures.html(path, body), { waitUntil: 'load' });
}

const names = (s: SimplifiedState) => s.actionable_elements.map((e) => e.name);

/** A page with a same-origin iframe: the kept state arms (or not) in every frame of the tab. */
async function openFramed(path: string, extra = ''): Promise<Frame> {
  const child = h.fixtures.html(`${path}/child`, '<button>Inside</button>');
  await open(path, `<button>Top</button>${extra}<iframe src="${child}"></iframe>`);
  const frame = page.frames().find((f) => f.url() === child);
  if (!frame) throw new Error('the child frame did not load');
  return frame;
}

/**
 * What a page can read of the functions and accessors the kept state would wrap, compared with a
 * fresh about:blank iframe's (the browser's own): lists each difference, and each that is not native.
 */
function nativeDiffs(frame: Frame | Page): Promise<string[]> {
  // A string, not a function: the test's compiler would name the inner arrows with a helper the page lacks.
  return frame.evaluate(`(() => {
    const WATCHED = [
      ['CSSStyleSheet', 'insertRule'],
      ['CSSStyleSheet', 'replaceSync'],
      ['CSSStyleRule', 'style'],
      ['Document', 'adoptedStyleSheets'],
      ['HTMLInputElement', 'value'],
      ['HTMLInputElement', 'checked'],
      ['HTMLSelectElement', 'selectedIndex'],
      ['Element', 'scrollTo'],
      ['Element', 'scrollTop'],
      ['Element', 'animate'],
      ['CustomElementRegistry', 'define'],
      ['HTMLElement', 'showPopover'],
    ];
    const fresh = document.createElement('iframe');
    document.body.append(fresh);
    const src = (f) => (typeof f === 'function' ? Function.prototype.toString.call(f) + '/' + f.length : String(f));
    const show = (w, ctor, name) => {
      const proto = w[ctor] && w[ctor].prototype;
      const d = proto && Object.getOwnPropertyDescriptor(proto, name);
      if (!d) return 'absent';
      return JSON.stringify([src(d.value), src(d.get), src(d.set), d.writable, d.enumerable, d.configurable]);
    };
    const out = [];
    for (const [ctor, name] of WATCHED) {
      const here = show(window, ctor, name);
      const there = show(fresh.contentWindow, ctor, name);
      if (here !== there) out.push(ctor + '.' + name + ' differs: ' + here + ' vs ' + there);
      else if (here !== 'absent' && !here.includes('[native code]')) out.push(ctor + '.' + name + ' is not native');
    }
    fresh.remove();
    return out;
  })()`) as Promise<string[]>;
}

/** Resolves once the wrappers of an armed frame are in place (the worker's message arrives on its own time). */
const armed = (frame: Frame | Page) =>
  frame.waitForFunction(() => !Function.prototype.toString.call(CSSStyleSheet.prototype.insertRule).includes('[native code]'), {
    timeout: 10_000,
  });
const disarmed = (frame: Frame | Page) =>
  frame.waitForFunction(() => Function.prototype.toString.call(CSSStyleSheet.prototype.insertRule).includes('[native code]'), {
    timeout: 10_000,
  });

describe('e2e: a kept state equals a fresh walk', function () {
  this.timeout(120_000);
  useAgentPage((started) => ({ h, page } = t = started));

  it("leaves every frame of a tab no agent holds untouched: the page sees the browser's own functions", async () => {
    const child = await openFramed('/cache-unheld');
    expect(await nativeDiffs(page), 'top frame').to.deep.equal([]);
    expect(await nativeDiffs(child), 'iframe').to.deep.equal([]);
  });

  it('arms every frame once an agent holds the tab, and a frame loaded later at once', async () => {
    // The page keeps the browser's own value setter before any wrapper exists, as React does per input.
    const keeps = `<input id="k" value="before"><script>window.keptSet = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set</script>`;
    const child = await openFramed('/cache-arm', keeps);
    await t.state(VIEWPORT); // the agent takes the tab
    await armed(page);
    await armed(child);
    await t.state(WHOLE);
    await page.evaluate(() => {
      const w = window as unknown as { keptSet: (this: HTMLInputElement, v: string) => void };
      w.keptSet.call(document.getElementById('k') as HTMLInputElement, 'after');
    });
    const s = await expectKeptEqualsFresh(WHOLE, 'a value set through a setter kept before arming');
    expect(s.actionable_elements.find((e) => e.current_value !== undefined)?.current_value).to.equal('after');
    // Documents loaded while the tab is held ask at their start: no change of the lease tells them.
    const later = await openFramed('/cache-arm-later');
    await armed(page);
    await armed(later);
    expect(await nativeDiffs(later)).to.not.deep.equal([]);
    await t.state(WHOLE);
    const before = await walks();
    await t.state(WHOLE);
    expect(await walks(), 'a repeated state on a held tab is the kept answer').to.equal(before);
  });

  it('gives the kept answer on an unchanged page, and walks again after a class toggle hides a subtree', async () => {
    await open(
      '/cache-class',
      `<style>.gone { display: none }</style><div id="menu"><button>Open</button><a href="#x">Link</a></div><button>Stay</button>`,
    );
    const first = await t.state(WHOLE);
    const before = await walks();
    const again = await t.state(WHOLE);
    expect(await walks(), 'an unchanged page is not walked again').to.equal(before);
    expect(comparable(again)).to.deep.equal(comparable(first));
    await page.evaluate(() => document.getElementById('menu')?.classList.add('gone'));
    const kept = await expectKeptEqualsFresh(WHOLE, 'class toggle');
    expect(names(kept)).to.deep.equal(['Stay']);
    expect(await walks(), 'the changed page is walked again').to.be.greaterThan(before);
  });

  it('sees a style sheet inserted, and a rule added through the CSSOM', async () => {
    await open('/cache-sheet', `<style id="s"></style><button class="a">Alpha</button><button class="b">Beta</button>`);
    await t.state(VIEWPORT);
    await page.evaluate(() => {
      const st = document.createElement('style');
      st.textContent = '.a { visibility: hidden }';
      document.head.append(st);
    });
    expect(names(await expectKeptEqualsFresh(VIEWPORT, 'sheet inserted'))).to.deep.equal(['Beta']);
    // No mutation, no event: only the main-world wrapper reports insertRule.
    await page.evaluate(() => (document.getElementById('s') as HTMLStyleElement).sheet?.insertRule('.b { display: none }'));
    expect(names(await expectKeptEqualsFresh(VIEWPORT, 'CSSOM rule'))).to.deep.equal([]);
  });

  it('sees a rule added through a function the page kept before the tab was armed (the wrappers never see that call)', async () => {
    await open('/cache-kept-insert', `<style id="s"></style><button class="a">Alpha</button><button class="b">Beta</button>`);
    await t.state(WHOLE); // the agent holds the tab
    await armed(page);
    expect(names(await t.state(WHOLE))).to.deep.equal(['Alpha', 'Beta']);
    const before = await walks();
    await t.state(WHOLE);
    expect(await walks(), 'the unchanged page gives the kept answer').to.equal(before);
    // Another world of the same page calls the browser's own insertRule: as a script that kept it
    // before the agent took the tab would, no wrapper of ours is on that path.
    const cdp = await page.createCDPSession();
    try {
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'kept' });
      await cdp.send('Runtime.evaluate', {
        contextId: executionContextId,
        expression: `document.getElementById('s').sheet.insertRule('.b { display: none }')`,
      });
    } finally {
      await cdp.detach();
    }
    expect(names(await expectKeptEqualsFresh(WHOLE, 'a rule added unseen'))).to.deep.equal(['Alpha']);
  });

  it('sees a :hover menu open', async () => {
    await open(
      '/cache-hover',
      `<style>#m ul { display: none } #m:hover ul { display: block }</style>
       <nav id="m" style="width:200px;height:40px"><span>Menu</span><ul><li><a href="#one">One</a></li></ul></nav>`,
    );
    await page.mouse.move(500, 500);
    expect(names(await t.state(VIEWPORT))).to.deep.equal([]);
    await page.mouse.move(20, 15);
    expect(names(await expectKeptEqualsFresh(VIEWPORT, ':hover'))).to.deep.equal(['One']);
  });

  it("sees a label's text change the name of its control, and an aria-* attribute change", async () => {
    await open('/cache-label', `<label for="q"><span id="t">Search</span></label><input id="q"><button id="b">Go</button>`);
    await t.state(WHOLE);
    await page.evaluate(() => ((document.getElementById('t') as HTMLElement).firstChild as Text).replaceData(0, 6, 'Find'));
    expect(names(await expectKeptEqualsFresh(WHOLE, 'label text'))).to.deep.equal(['Find', 'Go']);
    await page.evaluate(() => document.getElementById('b')?.setAttribute('aria-label', 'Submit the search'));
    expect(names(await expectKeptEqualsFresh(WHOLE, 'aria-label'))).to.deep.equal(['Find', 'Submit the search']);
    await page.evaluate(() => document.getElementById('b')?.setAttribute('aria-disabled', 'true'));
    const s = await expectKeptEqualsFresh(WHOLE, 'aria-disabled');
    expect(s.actionable_elements[1]?.states?.disabled).to.equal(true);
  });

  it('sees a resize move elements out of the viewport, and a value set from script', async () => {
    await open(
      '/cache-resize',
      `<div style="height:500px"><input id="v" value="old"></div><button>Below</button><div style="height:2000px"></div>`,
    );
    await page.setViewport({ width: 800, height: 700 });
    expect(names(await t.state(VIEWPORT))).to.include('Below');
    await page.setViewport({ width: 800, height: 300 });
    expect(names(await expectKeptEqualsFresh(VIEWPORT, 'resize'))).to.not.include('Below');
    await page.evaluate(() => {
      (document.getElementById('v') as HTMLInputElement).value = 'new';
    });
    const s = await expectKeptEqualsFresh(VIEWPORT, 'value from script');
    expect(s.actionable_elements[0]?.current_value).to.equal('new');
    await page.evaluate(() => window.scrollTo(0, 350));
    expect(names(await expectKeptEqualsFresh(VIEWPORT, 'scroll'))).to.deep.equal(['Below']);
  });

  it('equals a fresh walk after each of 48 random actions on the bench pages (seeded)', async () => {
    const rnd = mulberry32(39);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const pages: [string, string][] = [
      ['wiki', wikiPage(2, 3)],
      ['form', formPage(6)],
      ['shadow', shadowPage(30)],
      ['menus', todoHiddenMenusPage(3, 12, 6)],
      ['wc-todo', wcTodoPage(40, 6)],
      ['table', tablePage(120)],
      ['article', articlePage(12, 3)],
      ['form', formPage(4)],
    ];
    let step = 0;
    let reused = 0;
    for (const [key, html] of pages) {
      await open(`/cache-prop-${key}-${step}`, html);
      await page.setViewport({ width: 1000, height: 700 });
      // Links and forms stay on the page: the walk is what is compared, not navigation.
      await page.evaluate(() => {
        document.addEventListener('click', (e) => (e.target as Element).closest?.('a,[type=submit]') && e.preventDefault(), true);
        document.addEventListener('submit', (e) => e.preventDefault(), true);
      });
      for (let i = 0; i < 6; i++, step++) {
        const params = rnd() < 0.5 ? WHOLE : VIEWPORT;
        const s = await t.state(params);
        const action = pick(['click', 'type', 'toggle', 'scroll', 'resize', 'hover', 'text', 'same'] as const);
        const inView = s.actionable_elements.filter((e) => e.is_in_viewport && e.is_visible && e.bounds);
        const target = inView.length ? pick(inView) : undefined;
        const at = target?.bounds ? { x: target.bounds.x + target.bounds.width / 2, y: target.bounds.y + target.bounds.height / 2 } : null;
        const why = `${key} step ${step}: ${action}${target ? ` on ${target.role} "${target.name}"` : ''}`;
        if (action === 'click' && at) await page.mouse.click(at.x, at.y);
        else if (action === 'type') {
          const field = inView.find((e) => e.type === 'INPUT_FIELD' || e.type === 'TEXT_AREA');
          if (field?.bounds) {
            await page.mouse.click(field.bounds.x + 2, field.bounds.y + 2);
            await page.keyboard.type(`w${step}`);
          }
        } else if (action === 'toggle') {
          const n = Math.floor(rnd() * 1e6);
          await page.evaluate((k: number) => {
            const all = document.body.querySelectorAll('*');
            const el = all[k % all.length] as HTMLElement | undefined;
            if (el) el.hidden = !el.hidden;
          }, n);
        } else if (action === 'scroll') await page.evaluate((y: number) => window.scrollBy(0, y), Math.floor(rnd() * 1200) - 400);
        else if (action === 'resize')
          await page.setViewport({ width: 600 + Math.floor(rnd() * 600), height: 400 + Math.floor(rnd() * 500) });
        else if (action === 'hover' && at) await page.mouse.move(at.x, at.y);
        else if (action === 'text') {
          const n = Math.floor(rnd() * 1e6);
          await page.evaluate((k: number) => {
            const all = document.body.querySelectorAll('label, a, button, p, li, td, span');
            const el = all[k % all.length];
            if (el) el.append(' more');
          }, n);
        }
        // The page's own consequences of the action land first: hiding the focused element moves focus
        // at the next rendering step (focus fixup), which would otherwise fall between the two states.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const before = await walks();
        await expectKeptEqualsFresh(params, why);
        if (action === 'same' && (await walks()) === before) reused++;
      }
    }
    // Steps that changed nothing gave the kept answer (and it equalled the fresh walk's).
    expect(reused, 'unchanged steps answered without a walk').to.be.greaterThan(0);
  });

  it("gives the page the browser's own functions back when the person releases the tab, and when the agent goes", async () => {
    const child = await openFramed('/cache-release');
    await t.state(WHOLE);
    await armed(child);
    const panel = await openPanel(h.launched.browser);
    try {
      const sent = await panel.evaluate(
        (req) =>
          (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage(req),
        { bux: 'panel', op: 'release_tab', session_id: t.agent.hello!.session_id, tab_id: t.tabId },
      );
      expect(sent).to.deep.equal({ ok: true });
    } finally {
      await panel.close();
    }
    await disarmed(page);
    await disarmed(child);
    expect(await nativeDiffs(page), 'top frame after release').to.deep.equal([]);
    expect(await nativeDiffs(child), 'iframe after release').to.deep.equal([]);
    // The agent takes the tab again (the active tab), then goes.
    const again = await t.agent.call('get_state', {}, {});
    expect(again.new_simplified_state?.tab_id).to.equal(t.tabId);
    await armed(child);
    await t.agent.close();
    await disarmed(page);
    await disarmed(child);
    expect(await nativeDiffs(page), 'top frame after the agent left').to.deep.equal([]);
    expect(await nativeDiffs(child), 'iframe after the agent left').to.deep.equal([]);
  });
});

/** A small seeded PRNG (public domain, Tommy Ettinger): the same actions on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
