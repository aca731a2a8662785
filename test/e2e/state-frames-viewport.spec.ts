// Viewport states of a page with child frames, asked again on an unchanged page (the news pages of
// bench/pages.ts: ad iframes in and out of view). A child frame outside the scope is not asked
// anything it already answered (which iframe it sits under: background/state/fetch.ts
// matchChildren), and the frames the last viewport state had in scope are asked together with the
// top frame instead of after it (fetch.ts framesInScopeBefore). Neither may change the state: the
// frames in scope are the ones the top frame's walk puts there, scrolled or not. Counted by the
// worker's test counters, read through DevTools as a test can and a page cannot.
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';

import type { GetStateParams, SimplifiedState } from '../../schemas/generated/protocol';
import { type AgentPage, type Harness, useAgentPage } from '../harness/harness';
import { countsBetween, type StateCounts, stateCounts } from '../harness/state-counters';

let h: Harness;
let page: Page;
let t: AgentPage;

const WHOLE: GetStateParams = { viewport_expansion: -1 };
const VIEWPORT: GetStateParams = {};

type Counts = Pick<StateCounts, 'tokens_asked' | 'viewport_prefetched' | 'viewport_prefetch_used'>;

/** One state and what it asked; waits past the content script's 200 ms token wait, so a token question sent late is counted too. */
async function asking(params: GetStateParams): Promise<{ state: SimplifiedState } & Counts> {
  const before = await stateCounts(h);
  const state = await t.state(params);
  await new Promise((r) => setTimeout(r, 400));
  const d = countsBetween(before, await stateCounts(h));
  return {
    state,
    tokens_asked: d.tokens_asked,
    viewport_prefetched: d.viewport_prefetched,
    viewport_prefetch_used: d.viewport_prefetch_used,
  };
}

const armed = (p: Frame | Page) =>
  p.waitForFunction(() => !Function.prototype.toString.call(CSSStyleSheet.prototype.insertRule).includes('[native code]'), {
    timeout: 10_000,
  });

const names = (s: SimplifiedState) => s.actionable_elements.map((e) => e.name);
/** What the state lists, without is_new (which compares with the document's previous state) and timings. */
const listed = (s: SimplifiedState) => ({
  elements: s.actionable_elements.map(({ is_new: _n, ...e }) => e),
  texts: s.text_context,
  frames: s.frames,
});

/** A top page with one iframe in view (Near) and one far below it (Far). */
async function openTwoFrames(): Promise<void> {
  const near = h.fixtures.html('/vp-frames/near', '<button>Near inside</button>');
  const far = h.fixtures.html('/vp-frames/far', '<button>Far inside</button>');
  await page.goto(
    h.fixtures.html(
      '/vp-frames',
      `<style>body{margin:0} iframe{display:block;border:0;width:300px;height:80px}</style><button>Top</button>` +
        `<iframe id="near" src="${near}"></iframe><div style="height:3000px"></div><iframe id="far" src="${far}"></iframe>` +
        `<button>Bottom</button>`,
    ),
    { waitUntil: 'load' },
  );
  await t.state(WHOLE); // the agent takes the tab
  await armed(page);
  for (const f of page.frames()) if (f !== page.mainFrame()) await armed(f);
  await t.state(WHOLE); // every child frame's iframe is known from here on
}

describe('e2e: viewport states of a page with child frames, asked again', function () {
  this.timeout(120_000);
  useAgentPage((started) => ({ h, page } = t = started));

  it('does not ask a child frame outside the viewport again which iframe it sits under', async () => {
    await openTwoFrames();
    const first = await asking(VIEWPORT);
    expect(names(first.state)).to.deep.equal(['Top', 'Near inside']);
    const again = await asking(VIEWPORT);
    expect(again.tokens_asked, 'the frame below the fold is not asked its token').to.equal(0);
    expect(names(again.state)).to.deep.equal(['Top', 'Near inside']);
    expect((again.state.frames ?? []).map((f) => f.status)).to.deep.equal(['ok', 'ok', 'outside_scope']);
    expect(listed(again.state)).to.deep.equal(listed(first.state));
  });

  it('asks the frames the last viewport state had in scope with the top frame; scrolled, the state is what the page shows', async () => {
    await openTwoFrames();
    const first = await asking(VIEWPORT);
    const again = await asking(VIEWPORT);
    expect(again.viewport_prefetched, 'the frame in view is asked with the ping').to.equal(1);
    expect(again.viewport_prefetch_used, 'and its answer is the one the state uses').to.equal(1);
    expect(listed(again.state)).to.deep.equal(listed(first.state));
    // Scrolled to the bottom: the frame asked ahead lies outside the scope now (its answer is not
    // used) and the frame that came into view is asked after the top frame.
    await page.evaluate(() => document.getElementById('far')?.scrollIntoView());
    const scrolled = await asking(VIEWPORT);
    expect(scrolled.viewport_prefetched).to.equal(1);
    expect(scrolled.viewport_prefetch_used, 'the frame that left the view is not in the state').to.equal(0);
    expect(names(scrolled.state)).to.deep.equal(['Far inside', 'Bottom']);
    expect((scrolled.state.frames ?? []).map((f) => f.status)).to.deep.equal(['ok', 'outside_scope', 'ok']);
    const scrolledAgain = await asking(VIEWPORT);
    expect(scrolledAgain.viewport_prefetch_used).to.equal(1);
    expect(listed(scrolledAgain.state)).to.deep.equal(listed(scrolled.state));
    // Back up: the same state as before the scroll.
    await page.evaluate(() => window.scrollTo(0, 0));
    const back = await asking(VIEWPORT);
    expect(back.viewport_prefetch_used).to.equal(0);
    expect(listed(back.state)).to.deep.equal(listed(first.state));
    // Another window size: what was asked ahead with the old top viewport is not used.
    await page.setViewport({ width: 700, height: 500 });
    const resized = await asking(VIEWPORT);
    expect(resized.viewport_prefetch_used).to.equal(0);
    expect(names(resized.state)).to.deep.equal(['Top', 'Near inside']);
  });

  it('marks what appeared in a frame while it was out of view as new when it comes back (an answer asked ahead and left out is no previous state)', async () => {
    await openTwoFrames();
    await asking(VIEWPORT);
    const again = await asking(VIEWPORT);
    expect(again.viewport_prefetch_used, 'the frame in view is asked ahead').to.equal(1);
    const near = page.frames().find((f) => f.url().endsWith('/vp-frames/near'));
    if (!near) throw new Error('the near frame did not load');
    // Scrolled away: the near frame is asked ahead (it was in scope) and walked, with the button
    // added meanwhile, but the state leaves it out; the agent never sees that button there.
    await page.evaluate(() => document.getElementById('far')?.scrollIntoView());
    await near.evaluate(() => {
      const b = document.createElement('button');
      b.textContent = 'Added while away';
      document.body.append(b);
    });
    const away = await asking(VIEWPORT);
    expect(away.viewport_prefetched, 'the frame that left the view was asked ahead').to.equal(1);
    expect(away.viewport_prefetch_used).to.equal(0);
    expect(names(away.state)).to.not.include('Added while away');
    await page.evaluate(() => window.scrollTo(0, 0));
    const back = await asking(VIEWPORT);
    const added = back.state.actionable_elements.find((e) => e.name === 'Added while away');
    expect(added, 'the button is listed once the frame is back in view').to.not.equal(undefined);
    expect(added?.is_new, 'new to the agent: its previous state of that frame did not list it').to.equal(true);
    expect(back.state.actionable_elements.find((e) => e.name === 'Near inside')?.is_new).to.equal(undefined);
    // And asked again, nothing is new any more (the state that listed it is the previous one now).
    const settled = await asking(VIEWPORT);
    expect(settled.state.actionable_elements.filter((e) => e.is_new === true).map((e) => e.name)).to.deep.equal([]);
  });
});
