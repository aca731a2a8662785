// A frame whose kept answer the worker already holds crosses from its content script as "same as
// last" (its id and the fields read fresh: shared/frame-snapshot.ts FrameSame), and the worker
// rebuilds it from its copy (background/state/frame-hold.ts); a changed frame crosses as edits to
// that copy (shared/frame-patch.ts). The state must be exactly what a fresh walk gives; anything
// unsure (a new document, a worker that lost its copies, other parameters) sends the whole frame.
// Counted by the worker's test counters, read through DevTools as a test can and a page cannot.
import { expect } from 'chai';
import type { Frame, Page } from 'puppeteer-core';

import { coldWalks, isolatedEval, walkCount } from '../../bench/isolated-world';
import type { GetStateParams, SimplifiedState } from '../../schemas/generated/protocol';
import { type AgentPage, type Harness, useAgentPage } from '../harness/harness';
import { extensionWorker } from '../harness/more-browsers';
import { openPanel } from '../harness/panel';
import { countsBetween, stateCounts } from '../harness/state-counters';

let h: Harness;
let page: Page;
let t: AgentPage;

const WHOLE: GetStateParams = { viewport_expansion: -1 };
const VIEWPORT: GetStateParams = {};

/** A restarted worker, as far as held frames go: it forgets every frame it held (frame-hold.ts). */
async function forgetHeldFrames(): Promise<void> {
  await (
    await extensionWorker(h.launched.browser)
  ).evaluate(() => (globalThis as { __browserUseExtFrameHold?: { forget: () => void } }).__browserUseExtFrameHold?.forget());
}

/** What one state does: how many frames came whole, how many "same as last" and how many as edits. */
async function crossing(
  params: GetStateParams,
): Promise<{ state: SimplifiedState; whole: number; same: number; patched: number; tokensAsked: number }> {
  const before = await stateCounts(h);
  const state = await t.state(params);
  const d = countsBetween(before, await stateCounts(h));
  return { state, whole: d.whole, same: d.same, patched: d.patched, tokensAsked: d.tokens_asked };
}

function comparable(s: SimplifiedState): Partial<SimplifiedState> {
  const { state_id: _id, timings_ms: _t, ...rest } = s;
  return rest;
}

/** A fresh walk's state of the top frame (nothing kept, nothing left behind). */
async function freshState(params: GetStateParams): Promise<SimplifiedState> {
  await coldWalks(page, true);
  try {
    return await t.state(params);
  } finally {
    await coldWalks(page, false);
  }
}

const disarmed = (frame: Frame | Page) =>
  frame.waitForFunction(() => Function.prototype.toString.call(CSSStyleSheet.prototype.insertRule).includes('[native code]'), {
    timeout: 10_000,
  });
const armed = (frame: Frame | Page) =>
  frame.waitForFunction(() => !Function.prototype.toString.call(CSSStyleSheet.prototype.insertRule).includes('[native code]'), {
    timeout: 10_000,
  });

async function open(path: string, body: string): Promise<void> {
  await page.goto(h.fixtures.html(path, body), { waitUntil: 'load' });
}

const names = (s: SimplifiedState) => s.actionable_elements.map((e) => e.name);

describe('e2e: a frame crosses to the worker as "same as last", or as edits to the one it holds', function () {
  this.timeout(120_000);
  useAgentPage((started) => ({ h, page } = t = started));

  it('sends an unchanged page as "same as last", equal to a fresh walk; a change sends edits to it', async () => {
    await open(
      '/hops-same',
      `<style>.gone { display: none }</style><div id="menu"><button>Open</button><a href="#x">Link</a></div><button>Stay</button><input value="v">`,
    );
    await t.state(WHOLE); // the agent takes the tab
    await armed(page);
    const first = await crossing(WHOLE);
    expect(first.whole, 'the first kept answer crosses whole').to.equal(1);
    const fresh = await freshState(WHOLE);
    const again = await crossing(WHOLE);
    expect(again.same, 'the unchanged page crosses as "same as last"').to.equal(1);
    expect(again.whole).to.equal(0);
    expect(comparable(again.state), 'the rebuilt frame is what a fresh walk says').to.deep.equal(comparable(fresh));
    await page.evaluate(() => document.getElementById('menu')?.classList.add('gone'));
    const changedFresh = await freshState(WHOLE);
    const changed = await crossing(WHOLE);
    // The Stay button and the field moved up (same size): they cross as the held ones moved.
    expect(changed.patched, 'a changed page crosses as edits to the held frame').to.equal(1);
    expect(changed.whole + changed.same).to.equal(0);
    expect(names(changed.state)).to.deep.equal(['Stay', '']);
    expect(comparable(changed.state)).to.deep.equal(comparable(changedFresh));
    const settled = await crossing(WHOLE);
    expect(settled.same, 'and the next one is "same as last" again').to.equal(1);
    expect(comparable(settled.state)).to.deep.equal(comparable(changedFresh));
  });

  it('sends a changed page as edits to the held frame, equal to a fresh walk: a renamed item, an item inserted above the rest', async () => {
    const items = Array.from({ length: 40 }, (_, k) => `<li><a href="#i${k}">Item ${k}</a> <button>Act ${k}</button></li>`).join('');
    await open('/hops-patch', `<nav><a href="#home">Home</a></nav><ul id="list">${items}</ul><input value="v">`);
    await t.state(WHOLE);
    await armed(page);
    await t.state(WHOLE);
    expect((await crossing(WHOLE)).same, 'held and unchanged').to.equal(1);
    // One item renamed: that link crosses whole, the rest as references to the held frame.
    await page.evaluate(() => {
      const a = document.querySelector('a[href="#i3"]');
      if (a) a.textContent = 'Item three';
    });
    const renamedFresh = await freshState(WHOLE);
    const renamed = await crossing(WHOLE);
    expect(renamed.patched, 'the changed page crosses as edits').to.equal(1);
    expect(renamed.whole).to.equal(0);
    expect(comparable(renamed.state), 'the patched frame is what a fresh walk says').to.deep.equal(comparable(renamedFresh));
    expect(renamed.state.actionable_elements.map((e) => e.name)).to.include('Item three');
    // An item inserted at the top of the list: every element below it moves down, their parent
    // positions shift by two (the new link and button), and the new ones are marked new.
    await page.evaluate(() => {
      const li = document.createElement('li');
      li.innerHTML = '<a href="#new">Fresh item</a> <button>Fresh act</button>';
      document.getElementById('list')?.prepend(li);
    });
    const insertedFresh = await freshState(WHOLE);
    const inserted = await crossing(WHOLE);
    expect(inserted.patched, 'an insertion crosses as edits too').to.equal(1);
    expect(inserted.whole).to.equal(0);
    expect(comparable(inserted.state)).to.deep.equal(comparable(insertedFresh));
    const marked = inserted.state.actionable_elements.filter((e) => e.is_new === true).map((e) => e.name);
    expect(marked).to.deep.equal(['Fresh item', 'Fresh act']);
    // A worker that lost what it held gets the whole frame after a change, and edits again after the next one.
    await page.evaluate(() => document.querySelector('a[href="#home"]')?.setAttribute('title', 'Start'));
    await forgetHeldFrames();
    const forgotten = await crossing(WHOLE);
    expect(forgotten.whole, 'nothing held: the whole frame').to.equal(1);
    expect(forgotten.patched).to.equal(0);
    expect(comparable(forgotten.state)).to.deep.equal(comparable(await freshState(WHOLE)));
    await page.evaluate(() => document.getElementById('list')?.lastElementChild?.remove());
    const removedFresh = await freshState(WHOLE);
    const removed = await crossing(WHOLE);
    expect(removed.patched, 'held again: edits').to.equal(1);
    expect(comparable(removed.state)).to.deep.equal(comparable(removedFresh));
  });

  it('sends the whole frame for a new document, for a worker that lost what it held, and for other parameters', async () => {
    const body = `<button>One</button><button>Two</button>`;
    await open('/hops-doc', body);
    await t.state(WHOLE);
    await armed(page);
    await t.state(WHOLE);
    expect((await crossing(WHOLE)).same, 'held and unchanged').to.equal(1);
    // The same page loaded again: a new document, whatever its content.
    await open('/hops-doc', body);
    await armed(page);
    const navigated = await crossing(WHOLE);
    expect(navigated.whole, 'a new document sends its whole frame').to.equal(1);
    expect(navigated.same).to.equal(0);
    expect(names(navigated.state)).to.deep.equal(['One', 'Two']);
    expect((await crossing(WHOLE)).same).to.equal(1);
    // A restarted worker holds nothing.
    await forgetHeldFrames();
    const forgotten = await crossing(WHOLE);
    expect(forgotten.whole, 'a worker that lost what it held gets the whole frame').to.equal(1);
    expect(forgotten.same).to.equal(0);
    expect(comparable(forgotten.state)).to.deep.equal(comparable(await freshState(WHOLE)));
    expect((await crossing(WHOLE)).same).to.equal(1);
    // Other parameters: another kept answer, the first time whole.
    const viewport = await crossing(VIEWPORT);
    expect(viewport.whole, 'other parameters send the whole frame').to.equal(1);
    expect(viewport.same).to.equal(0);
    const fewer = await crossing({ ...WHOLE, max_elements: 1 });
    expect(fewer.whole, 'max_elements changed').to.equal(1);
    expect(names(fewer.state)).to.deep.equal(['One']);
    // The kept viewport answer again: its is_new flags now compare with the other parameters' list
    // (the walk's own elements otherwise): still "same as last", the flags listed with it.
    const flippedFresh = await freshState(VIEWPORT);
    const w0 = await walkCount(page);
    const flipped = await crossing(VIEWPORT);
    expect(flipped.same, 'is_new against another list').to.equal(1);
    expect(flipped.state.actionable_elements.map((e) => e.is_new === true)).to.deep.equal([false, true]);
    expect(comparable(flipped.state)).to.deep.equal(comparable(flippedFresh));
    const viewportAgain = await crossing(VIEWPORT);
    expect(
      await walkCount(page),
      `walked again: ${await isolatedEval<string>(page, 'String(window.__browserUseExtWalkCache?.why)')}`,
    ).to.equal(w0);
    expect(viewportAgain.same, 'the viewport state asked again').to.equal(1);
    expect(viewportAgain.state.actionable_elements.map((e) => e.is_new === true)).to.deep.equal([false, false]);
    expect(comparable(viewportAgain.state)).to.deep.equal(comparable(await freshState(VIEWPORT)));
  });

  it('sends the whole frame once the person released the tab (the page dropped what it kept), though the worker holds the frame', async () => {
    await open('/hops-release', `<button>One</button><button>Two</button>`);
    await t.state(WHOLE);
    await armed(page);
    await t.state(WHOLE);
    expect((await crossing(WHOLE)).same, 'held and unchanged').to.equal(1);
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
    // The agent takes the tab again: the first state is a whole frame (nothing kept page-side any more).
    const retaken = await crossing(WHOLE);
    expect(retaken.same, 'no "same as last" after the hold ended').to.equal(0);
    expect(retaken.whole).to.be.greaterThan(0);
    expect(names(retaken.state)).to.deep.equal(['One', 'Two']);
  });

  it("keeps a child iframe's answer the same way, and sends edits once it changed", async () => {
    const child = h.fixtures.html('/hops-frame/child', '<button id="in">Inside</button><button>Second</button>');
    await open('/hops-frame', `<button>Top</button><iframe src="${child}"></iframe>`);
    const frame = page.frames().find((f) => f.url() === child);
    if (!frame) throw new Error('the child frame did not load');
    await t.state(WHOLE);
    await armed(page);
    await armed(frame);
    const first = await crossing(WHOLE);
    const again = await crossing(WHOLE);
    expect(again.same, 'both frames "same as last"').to.equal(2);
    expect(again.whole).to.equal(0);
    expect(comparable(again.state)).to.deep.equal(comparable(first.state));
    expect(names(again.state)).to.deep.equal(['Top', 'Inside', 'Second']);
    await frame.evaluate(() => {
      const b = document.getElementById('in');
      if (b) b.textContent = 'Renamed';
    });
    const changed = await crossing(WHOLE);
    expect(changed.patched, 'the changed child sends edits to its held frame').to.equal(1);
    expect(changed.whole).to.equal(0);
    expect(changed.same, 'the unchanged top frame still "same as last"').to.equal(1);
    expect(names(changed.state)).to.deep.equal(['Top', 'Renamed', 'Second']);
    const viewport = await crossing(VIEWPORT);
    expect(viewport.same).to.equal(0);
    const viewportAgain = await crossing(VIEWPORT);
    expect(viewportAgain.same, 'the viewport state of both frames asked again').to.equal(2);
    // A viewport state does not prefetch the child: which iframe it sits under is known from before (same document).
    expect(viewportAgain.tokensAsked, 'the child is not asked its token again').to.equal(0);
    expect(names(viewportAgain.state)).to.deep.equal(['Top', 'Renamed', 'Second']);
    expect(comparable(viewportAgain.state)).to.deep.equal(comparable(viewport.state));
  });
});
