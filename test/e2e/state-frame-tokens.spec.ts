// Whole-page states put each child frame's elements under the right iframe, state after state.
// From the second state on, the worker matches a child frame to its iframe by the token the child
// sent with its own snapshot (kept from the parent's earlier walk: walk.ts frameTokenOf) instead of
// asking it again. These cases change which document sits in which iframe between states (frames
// navigated, iframes laid out anew, an iframe replaced by a new one) and check every state against
// the page itself: elements in the iframe's box, in document order, under the frame that shows them.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { ActionableElement, GetStateParams, SimplifiedState } from '../../schemas/generated/protocol';
import { FixtureServer } from '../harness/fixture-server';
import { type AgentPage, type Harness, useAgentPage } from '../harness/harness';

const WHOLE: GetStateParams = { viewport_expansion: -1 };

let h: Harness;
let page: Page;
let t: AgentPage;
let other: FixtureServer;

const state = () => t.state(WHOLE);

/**
 * Every frame's document has loaded (the content scripts are there: content.js comes at document_idle,
 * at the latest right after load). Each child document tells the top page on load (LOAD_REPORT,
 * TOP_LISTENS), which marks its iframe: puppeteer's own evaluate in a cross-site frame just
 * navigated or created sometimes never answers, which failed this wait now and then.
 */
async function framesLoaded(n: number): Promise<void> {
  await page.waitForFunction(
    (count: number) => {
      const fs = [...document.querySelectorAll('iframe')];
      return fs.length === count && fs.every((f) => f.dataset['loaded'] === f.src);
    },
    { timeout: 20_000 },
    n,
  );
  await new Promise((r) => setTimeout(r, 300));
}

/** In each child document: tell the top page it has loaded. */
const LOAD_REPORT = `<script>addEventListener('load', () => parent.postMessage({ loaded: location.href }, '*'));</script>`;
/** In the top page: mark the iframe whose document said it has loaded. */
const TOP_LISTENS = `<script>addEventListener('message', (e) => {
  for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source && e.data?.loaded) f.dataset.loaded = e.data.loaded;
});</script>`;

/** The button named name, and the box of the iframe (by id) it must lie in. */
async function inIframe(s: SimplifiedState, name: string, iframeId: string): Promise<ActionableElement> {
  const el = s.actionable_elements.find((e) => e.name === name);
  expect(el, `${name} in ${JSON.stringify(s.actionable_elements.map((e) => e.name))}`).to.not.equal(undefined);
  const box = await page.$eval(`#${iframeId}`, (f) => {
    const r = f.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  });
  const b = (el as ActionableElement).bounds as { x: number; y: number; width: number; height: number };
  expect(b.x, `${name} x within #${iframeId}`).to.be.within(Math.floor(box.x), Math.ceil(box.x + box.w));
  expect(b.y, `${name} y within #${iframeId}`).to.be.within(Math.floor(box.y), Math.ceil(box.y + box.h));
  return el as ActionableElement;
}

describe('e2e: whole-page states match child frames to their iframes across states', function () {
  this.timeout(90_000);
  useAgentPage((started) => ({ h, page } = t = started));
  before(async () => {
    other = await new FixtureServer(undefined, 'localhost').start(0);
  });
  after(async () => {
    await other?.close();
  });

  it('keeps each frame under its iframe when frames navigate, move and are replaced', async () => {
    const docA = other.html('/a', `<button style="margin:4px">A button</button>${LOAD_REPORT}`);
    const docB = other.html('/b', `<button style="margin:4px">B button</button>${LOAD_REPORT}`);
    await page.goto(
      h.fixtures.html(
        '/tokens',
        `<style>body{margin:0;display:flex;flex-direction:column} iframe{border:0;width:200px;height:60px}</style>${TOP_LISTENS}
        <button>Top first</button>
        <iframe id="one" src="${docA}"></iframe>
        <iframe id="two" src="${docB}" style="margin-left:150px"></iframe>
        <button>Top last</button>`,
      ),
      { waitUntil: 'load' },
    );
    await framesLoaded(2);
    const order = (s: SimplifiedState) => s.actionable_elements.map((e) => e.name);

    // Two states in a row: the second one matches the frames by the tokens they kept.
    for (let i = 0; i < 2; i++) {
      const s = await state();
      expect(order(s)).to.deep.equal(['Top first', 'A button', 'B button', 'Top last']);
      const a = await inIframe(s, 'A button', 'one');
      const b = await inIframe(s, 'B button', 'two');
      expect(a.frame_id).to.not.equal(b.frame_id);
      expect(s.frames?.filter((f) => f.status !== 'ok')).to.deep.equal([]);
    }

    // The iframes swap places on screen (their documents stay): offsets follow the elements.
    await page.evaluate(() => {
      (document.getElementById('one') as HTMLElement).style.cssText = 'order:3;margin-left:300px';
      (document.getElementById('two') as HTMLElement).style.cssText = 'order:1;margin-left:0';
    });
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 2; i++) {
      const s = await state();
      // Document order is the DOM's, whatever the layout.
      expect(order(s)).to.deep.equal(['Top first', 'A button', 'B button', 'Top last']);
      await inIframe(s, 'A button', 'one');
      await inIframe(s, 'B button', 'two');
    }

    // Each frame navigates to the other's document: new documents, which hold no token yet.
    await page.evaluate(
      (a: string, b: string) => {
        (document.getElementById('one') as HTMLIFrameElement).src = b;
        (document.getElementById('two') as HTMLIFrameElement).src = a;
      },
      docA,
      docB,
    );
    await framesLoaded(2);
    for (let i = 0; i < 2; i++) {
      const s = await state();
      expect(order(s)).to.deep.equal(['Top first', 'B button', 'A button', 'Top last']);
      await inIframe(s, 'B button', 'one');
      await inIframe(s, 'A button', 'two');
    }

    // The first iframe is replaced by a new element showing A, put after the second one.
    await page.evaluate((a: string) => {
      document.getElementById('one')?.remove();
      const f = document.createElement('iframe');
      f.id = 'three';
      f.src = a;
      f.style.cssText = 'margin-left:80px';
      document.getElementById('two')?.after(f);
    }, docA);
    await framesLoaded(2);
    for (let i = 0; i < 2; i++) {
      const s = await state();
      expect(order(s)).to.deep.equal(['Top first', 'A button', 'A button', 'Top last']);
      const [x, y] = s.actionable_elements.filter((e) => e.name === 'A button') as [ActionableElement, ActionableElement];
      const boxOf = (id: string) => page.$eval(`#${id}`, (f) => f.getBoundingClientRect().top);
      // The first A is the one in #two (DOM order), the second the new iframe's.
      expect(x.bounds!.y).to.be.within(Math.floor(await boxOf('two')), Math.floor(await boxOf('two')) + 60);
      expect(y.bounds!.y).to.be.within(Math.floor(await boxOf('three')), Math.floor(await boxOf('three')) + 60);
      expect(x.frame_id).to.not.equal(y.frame_id);
    }
  });
});
