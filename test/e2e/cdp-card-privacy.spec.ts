// Card numbers through a CDP client, side by side with Chromium's own --remote-debugging-port: what
// the client itself typed reads back as typed on both (Playwright's fill() then inputValue()), a card
// number the page holds reads masked through ours only (also in a DOM snapshot), and our screenshots cover the digits the text
// masks (viewport, clip, full page with captureBeyondViewport, a raw Page.captureScreenshot without
// clip, a card field in a cross-origin frame) while Chromium's show them, which proves the pixel check
// can fail.
import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { CDP_FIXTURE_DIR, launchPlainChromium, type PlainChromium } from '../harness/cdp-clients';
import { FixtureServer } from '../harness/fixture-server';
import { type Harness, startHarness } from '../harness/harness';
import { coloursIn, decodePng, type Pixels } from '../harness/png';

const TYPED = '4242 4242 4242 4242';
const ON_PAGE = '4000 0566 5566 5556';
const IN_TEXT = '5105 1051 0510 5100';
const BELOW = '5555 5555 5555 4444';
const MASK = '#5f6368';
const MARKER = '[redacted:payment_card]';

const FRAMED = '3782 822463 10005';
/** The payment frame, on another site (localhost, the page is on 127.0.0.1): an out-of-process frame. */
const FRAME = `<style>body { margin: 4px; font: 20px monospace } input { font: 20px monospace; width: 300px; height: 30px }</style>
<input id="f" autocomplete="cc-number" value="${FRAMED}">`;

const pageWith = (frameUrl: string): string => `<style>
  body { margin: 8px; font: 20px monospace; background: #fff; color: #000 }
  input { font: 20px monospace; width: 420px; height: 36px; border: 1px solid #000; background: #fff; color: #000 }
</style>
<p><label>Card number <input id="cc" autocomplete="cc-number"></label></p>
<p><label>Saved card <input id="pre" autocomplete="cc-number"></label></p>
<p>Paid with <span id="text">${IN_TEXT}</span> today</p>
<iframe id="pay" src="${frameUrl}" style="width: 360px; height: 60px; border: 2px solid #000; padding: 3px"></iframe>
<div style="height: 2500px"></div>
<p>On file: <span id="below">${BELOW}</span></p>
<script>document.getElementById('pre').value = '${ON_PAGE}';</script>`;

type Side = 'chromium' | 'ours';
interface Setup {
  page: Page;
  /** A page with no card number on it (yet), for the cards that come by script (opened after the cases on page). */
  plainUrl: string;
  /** The payment frame's URL, on another site. */
  frameUrl: string;
  /** SHADOWED and SHADOW_LATE. */
  shadowUrl: string;
  shadowLateUrl: string;
  /** shadowFrameWith: a cross-site payment frame inside shadow roots. */
  shadowFrameUrl: string;
  side: Side;
}

/**
 * The page's own script adds the card (written in parts: a card number the client itself sent, in an
 * evaluate's arguments, would show as typed); far enough down that a scroll moves it.
 */
const PLAIN = `<style>body { margin: 8px; font: 20px monospace; background: #fff; color: #000 }
  input { font: 20px monospace; width: 420px; height: 36px; border: 1px solid #000; background: #fff; color: #000 }</style>
<script>function addCard() {
  const input = document.createElement('input');
  input.id = 'late';
  input.value = ['4000', '0566', '5566', '5556'].join(' ');
  document.getElementById('slot').append(input);
}
function addParts() {
  for (const group of ['5105', '1051', '0510', '5100']) {
    const span = document.createElement('span');
    span.textContent = group + ' ';
    document.getElementById('parts').append(span);
  }
}
function fillNote() {
  document.getElementById('note').value = '4000 0566 5566 5556';
}</script>
<p>Nothing to pay here <input id="note" aria-label="Note" style="width: 260px"></p><p>Paid with <span id="parts"></span></p><div id="slot" style="margin-top: 250px"></div><div style="height: 2500px"></div>`;

/** One line: it goes into a quoted string of the pages' scripts. */
const SHADOW_CSS =
  'input { font: 20px monospace; width: 420px; height: 36px; border: 1px solid #000; background: #fff; color: #000 } p { margin: 8px 0 }';

/**
 * Card numbers drawn only inside shadow roots, written by the page: a field in an open root, a field
 * in a closed root, a field in a closed root nested in an open one, text in an open root; and an
 * empty card field in an open root for the client to type into. The page keeps its closed roots'
 * fields (attachShadow returns the root) and tells where each is (shadowBox).
 */
const SHADOWED = `<style>body { margin: 8px; font: 20px monospace; background: #fff; color: #000 }</style>
<div id="open"></div><div id="closed"></div><div id="nested"></div><div id="text"></div><div id="typed"></div>
<x-card id="split">5100<span slot="mid">1051</span></x-card>
<script>
const css = '<style>${SHADOW_CSS}</style>';
const parts = (...g) => g.join(' ');
const els = {};
const open = document.getElementById('open').attachShadow({ mode: 'open' });
open.innerHTML = css + '<p><input id="f"></p>';
els.open = open.getElementById('f');
els.open.value = parts('4000', '0566', '5566', '5556');
const closed = document.getElementById('closed').attachShadow({ mode: 'closed' });
closed.innerHTML = css + '<p><input id="f"></p>';
els.closed = closed.getElementById('f');
els.closed.value = parts('5555', '5555', '5555', '4444');
const outer = document.getElementById('nested').attachShadow({ mode: 'open' });
outer.innerHTML = '<div id="inner"></div>';
const inner = outer.getElementById('inner').attachShadow({ mode: 'closed' });
inner.innerHTML = css + '<p><input id="f"></p>';
els.nested = inner.getElementById('f');
els.nested.value = parts('3782', '822463', '10005');
const text = document.getElementById('text').attachShadow({ mode: 'open' });
text.innerHTML = css + '<p>Paid with <span id="t">' + parts('5105', '1051', '0510', '5100') + '</span> today</p>';
els.text = text.getElementById('t');
const typed = document.getElementById('typed').attachShadow({ mode: 'open' });
typed.innerHTML = css + '<p><input id="cc-typed" autocomplete="cc-number"></p>';
els.typed = typed.getElementById('cc-typed');
// A card number split across a closed root's boundary: its first group and the space between the
// slots are the root's own text, the rest is light-DOM text the slots render in another order
// ("5100" then "1051" in the page's HTML, no card there; "5105 1051 0510 5100" on screen).
const split = document.getElementById('split').attachShadow({ mode: 'closed' });
split.innerHTML = css + '<p>Paid with <span id="t">' + parts('5105', '') + '<slot name="mid"></slot> 0510 <slot></slot></span> today</p>';
els.split = split.getElementById('t');
function shadowBox(name) {
  const r = els[name].getBoundingClientRect();
  return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height };
}
</script>`;

/**
 * A page without cards or text fields (its frame tells the worker nothing), whose script later draws
 * a card number inside shadow roots: a host added with a card field in its open root, a closed or an
 * open root attached to an element already in the page (the main-world hook's report), a card in text
 * inside a closed root nested in an added open one.
 */
const SHADOW_LATE = `<style>body { margin: 8px; font: 20px monospace; background: #fff; color: #000 }</style>
<p>Nothing to pay here</p><div id="slot"></div><div id="later"></div><div id="later-open"></div><div id="later-open-2"></div><late-card></late-card><div id="typed-later"></div><x-split id="split-later"></x-split>
<script>
const css = '<style>${SHADOW_CSS}</style>';
const parts = (...g) => g.join(' ');
const els = {};
// Half a card number in a root's own text, waiting for the light-DOM text its slot renders.
const splitLater = document.getElementById('split-later').attachShadow({ mode: 'open' });
splitLater.innerHTML = css + '<p>On file <span id="t">' + parts('4000', '0566', '') + '<slot></slot></span></p>';
function completeSplit() {
  document.getElementById('split-later').textContent = parts('5566', '5556');
  els.late = splitLater.getElementById('t');
}
function addOpenField() {
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = css + '<p><input id="f"></p>';
  els.late = root.getElementById('f');
  els.late.value = parts('4000', '0566', '5566', '5556');
  document.getElementById('slot').append(host);
}
function attachClosedText() {
  const root = document.getElementById('later').attachShadow({ mode: 'closed' });
  root.innerHTML = css + '<p>Paid with <span id="t">' + parts('5105', '1051', '0510', '5100') + '</span></p>';
  els.late = root.getElementById('t');
}
function attachOpenText() {
  // In place, no event: the main-world hook reports open roots as it reports closed ones, once for
  // the burst; the card checked is in the second root of the burst.
  for (const id of ['later-open', 'later-open-2']) {
    const root = document.getElementById(id).attachShadow({ mode: 'open' });
    root.innerHTML = css + '<p>Paid with <span id="t">' + parts('4000', '0566', '5566', '5556') + '</span></p>';
    els.late = root.getElementById('t');
  }
}
function addNestedText() {
  const host = document.createElement('div');
  const outer = host.attachShadow({ mode: 'open' });
  outer.innerHTML = '<div id="inner"></div>';
  const inner = outer.getElementById('inner').attachShadow({ mode: 'closed' });
  inner.innerHTML = css + '<p>On file <span id="t">' + parts('5555', '5555', '5555', '4444') + '</span></p>';
  els.late = inner.getElementById('t');
  document.getElementById('slot').append(host);
}
function addEmptyField() {
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'closed' });
  root.innerHTML = css + '<p><input id="f" aria-label="Note"></p>';
  els.late = root.getElementById('f');
  document.getElementById('slot').append(host);
}
function defineLateCard() {
  customElements.define('late-card', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML = css + '<p><input id="f"></p>';
      els.late = root.getElementById('f');
      els.late.value = parts('5105', '1051', '0510', '5100');
    }
  });
}
function typeIntoSilentRoot() {
  // An open root attached to an element already in the page: nothing reports it; the input event does.
  const root = document.getElementById('typed-later').attachShadow({ mode: 'open' });
  root.innerHTML = css + '<p><input id="f"></p>';
  els.late = root.getElementById('f');
  els.late.value = parts('4000', '0566', '5566', '5556');
  els.late.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertFromPaste' }));
}
function addSplitText() {
  // A host added with light-DOM text its open root renders among its own: the card is whole only on screen.
  const host = document.createElement('x-card');
  host.innerHTML = '5566 5556';
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = css + '<p>On file <span id="t">' + parts('4000', '0566', '') + '<slot></slot></span></p>';
  els.late = root.getElementById('t');
  document.getElementById('slot').append(host);
}
function fillSilently() {
  els.late.value = parts('4000', '0566', '5566', '5556');
}
function shadowBox(name) {
  const r = els[name].getBoundingClientRect();
  return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height };
}
</script>`;

/**
 * The payment frame inside a closed root nested in an open one: the frame is one of the page's
 * window.frames, yet no document query finds its element. A line of text outside it shows whether
 * the rest of the picture is drawn.
 */
const shadowFrameWith = (
  frameUrl: string,
): string => `<style>body { margin: 8px; font: 20px monospace; background: #fff; color: #000 }</style>
<p><span id="plain">Nothing else to pay here</span></p><div id="outer"></div>
<script>
const outer = document.getElementById('outer').attachShadow({ mode: 'open' });
outer.innerHTML = '<p>Pay below</p><div id="inner"></div>';
const inner = outer.getElementById('inner').attachShadow({ mode: 'closed' });
inner.innerHTML = '<iframe src="${frameUrl}" style="width: 360px; height: 60px; border: 2px solid #000; padding: 3px"></iframe>';
</script>`;

/** A box the page's shadowBox tells (an element in a closed root is out of a client's reach), shrunk like inner(). */
async function shadowInner(page: Page, name: string, by = 3): Promise<{ x: number; y: number; w: number; h: number }> {
  const b = await page.evaluate(
    (n) => (window as unknown as { shadowBox: (n: string) => { x: number; y: number; w: number; h: number } }).shadowBox(n),
    name,
  );
  return { x: b.x + by, y: b.y + by, w: b.w - 2 * by, h: b.h - 2 * by };
}

/**
 * Card numbers inside shadow roots: covered through ours in a screenshot of the page that has them
 * and in one taken right after the page's script drew them; Chromium's shows them (the check is real).
 */
function shadowCases(get: () => Setup): void {
  describe('card numbers inside shadow roots', () => {
    let opened: Page | undefined;
    before(async () => {
      opened = await get().page.context().newPage();
      await opened.goto(get().shadowUrl);
    });
    after(async () => {
      await opened?.close().catch(() => undefined);
    });

    it("in a field of an open, a closed and a nested closed root and in an open root's text: covered through ours; typed by the client: shown", async () => {
      const { side } = get();
      if (!opened) throw new Error('the before hook did not open the page');
      await opened.fill('#cc-typed', TYPED);
      const shot = await rawShot(opened);
      const at = async (name: string, by = 3) => regionColours(shot.img, shot.scale, await shadowInner(opened as Page, name, by));
      const typed = await at('typed');
      expect(typed.size, 'the card the client typed is drawn').to.be.greaterThan(1);
      // Every case read before the verdict, so a failure names each root that showed its card.
      const masked: Record<string, boolean> = {};
      for (const [name, by] of [
        ['open', 3],
        ['closed', 3],
        ['nested', 3],
        ['text', 1],
      ] as const) {
        const colours = await at(name, by);
        masked[name] = colours.size === 1 && colours.has(MASK);
        if (side === 'chromium') expect(colours.size, `Chromium draws the card in the ${name} shadow root`).to.be.greaterThan(1);
      }
      if (side === 'ours')
        expect(masked, 'the card in each shadow root is one mask').to.deep.equal({ open: true, closed: true, nested: true, text: true });
    });

    it("a card number split across a closed root's boundary (its own text and slotted light-DOM text, joined as drawn): covered through ours", async () => {
      const { side } = get();
      if (!opened) throw new Error('the before hook did not open the page');
      const shot = await rawShot(opened);
      const split = regionColours(shot.img, shot.scale, await shadowInner(opened, 'split', 1));
      if (side === 'ours') expect([...split], 'the card split across the shadow boundary is one mask').to.deep.equal([MASK]);
      else expect(split.size, 'Chromium draws the card split across the shadow boundary').to.be.greaterThan(1);
    });

    for (const [what, fn] of [
      ['a host with a card field in its open root, added by script', 'addOpenField'],
      ['a closed root attached by script to an element already in the page, with card text', 'attachClosedText'],
      ['an open root attached by script to an element already in the page, with card text', 'attachOpenText'],
      ['card text in a closed root nested in an open one, added by script', 'addNestedText'],
      ["a host with light-DOM text that completes the card its open root's text starts, added by script", 'addSplitText'],
      ["light-DOM text set by script in a host already in the page, completing the card its open root's text starts", 'completeSplit'],
    ] as const)
      it(`${what}, then a screenshot at once (a page without cards or fields before): covered through ours`, async () => {
        const { side } = get();
        // A fresh page in front: its frame told the worker of no card and no field.
        const fresh = await get().page.context().newPage();
        try {
          await fresh.goto(get().shadowLateUrl);
          expect((await rawShot(fresh)).img.width, 'a screenshot of the page without cards').to.be.greaterThan(0);
          await fresh.evaluate((name) => (window as unknown as Record<string, () => void>)[name]?.(), fn);
          const shot = await rawShot(fresh);
          const late = regionColours(shot.img, shot.scale, await shadowInner(fresh, 'late', fn === 'addOpenField' ? 3 : 1));
          if (side === 'ours') expect([...late], 'the card drawn by script in a shadow root is one mask').to.deep.equal([MASK]);
          else expect(late.size, 'Chromium draws the card drawn by script in a shadow root').to.be.greaterThan(1);
        } finally {
          await fresh.close().catch(() => undefined);
        }
      });

    it('a card number a script sets silently in an ordinary field inside a closed root (no event), then a screenshot: covered through ours', async () => {
      const { side } = get();
      const fresh = await get().page.context().newPage();
      try {
        await fresh.goto(get().shadowLateUrl);
        await fresh.evaluate(() => (window as unknown as { addEmptyField: () => void }).addEmptyField());
        // The frame has told the worker of its field by now (a note one frame after the change).
        await fresh.waitForTimeout(300);
        expect((await rawShot(fresh)).img.width, 'a screenshot of the page without cards').to.be.greaterThan(0);
        await fresh.evaluate(() => (window as unknown as { fillSilently: () => void }).fillSilently());
        const shot = await rawShot(fresh);
        const late = regionColours(shot.img, shot.scale, await shadowInner(fresh, 'late'));
        if (side === 'ours') expect([...late], 'the card number set silently in a closed root is one mask').to.deep.equal([MASK]);
        else expect(late.size, 'Chromium draws the card number set silently').to.be.greaterThan(1);
      } finally {
        await fresh.close().catch(() => undefined);
      }
    });

    it('a card field in a cross-site frame inside a closed root nested in an open one: covered through ours, the rest of the picture drawn', async () => {
      const { side } = get();
      const fresh = await get().page.context().newPage();
      try {
        await fresh.goto(get().shadowFrameUrl);
        const frame = fresh.frames().find((f) => f.url().includes('/card-frame'));
        if (!frame) throw new Error('the payment frame inside the shadow roots did not load');
        const fb = await frame.locator('#f').boundingBox();
        if (!fb) throw new Error('the payment frame has no field');
        const shot = await rawShot(fresh);
        const framed = regionColours(shot.img, shot.scale, { x: fb.x + 3, y: fb.y + 3, w: fb.width - 6, h: fb.height - 6 });
        const plain = regionColours(shot.img, shot.scale, await inner(fresh, '#plain', 1));
        if (side === 'ours') {
          expect([...framed], 'the card in the frame inside shadow roots is one mask').to.deep.equal([MASK]);
          // Not the whole picture painted over (what a frame whose place in the page is unknown gets).
          expect(plain.size, 'the text outside the frame is drawn').to.be.greaterThan(1);
        } else expect(framed.size, 'Chromium draws the card in the frame inside shadow roots').to.be.greaterThan(1);
      } finally {
        await fresh.close().catch(() => undefined);
      }
    });

    it('a card number the page types into a field of an open root attached to an element already in the page, then a screenshot at once: covered through ours', async () => {
      const { side } = get();
      const fresh = await get().page.context().newPage();
      try {
        await fresh.goto(get().shadowLateUrl);
        expect((await rawShot(fresh)).img.width, 'a screenshot of the page without cards').to.be.greaterThan(0);
        await fresh.evaluate(() => (window as unknown as { typeIntoSilentRoot: () => void }).typeIntoSilentRoot());
        const shot = await rawShot(fresh);
        const late = regionColours(shot.img, shot.scale, await shadowInner(fresh, 'late'));
        if (side === 'ours') expect([...late], 'the card typed into the field of an unreported root is one mask').to.deep.equal([MASK]);
        else expect(late.size, 'Chromium draws the card typed').to.be.greaterThan(1);
      } finally {
        await fresh.close().catch(() => undefined);
      }
    });

    it('a custom element already in the page, defined late (its constructor attaches a root with a card field), then a screenshot: covered through ours', async () => {
      const { side } = get();
      const fresh = await get().page.context().newPage();
      try {
        await fresh.goto(get().shadowLateUrl);
        // A text field first, so the worker reads this frame's fields at each capture (the upgrade itself is seen by no observer).
        await fresh.evaluate(() => (window as unknown as { addEmptyField: () => void }).addEmptyField());
        await fresh.waitForTimeout(300);
        expect((await rawShot(fresh)).img.width, 'a screenshot of the page without cards').to.be.greaterThan(0);
        await fresh.evaluate(() => (window as unknown as { defineLateCard: () => void }).defineLateCard());
        const shot = await rawShot(fresh);
        const late = regionColours(shot.img, shot.scale, await shadowInner(fresh, 'late'));
        if (side === 'ours') expect([...late], 'the card in the upgraded element is one mask').to.deep.equal([MASK]);
        else expect(late.size, 'Chromium draws the card in the upgraded element').to.be.greaterThan(1);
      } finally {
        await fresh.close().catch(() => undefined);
      }
    });
  });
}

/** The element's box in CSS px of the document, shrunk so anti-aliased edges and borders stay out. */
async function inner(page: Page, selector: string, by = 3): Promise<{ x: number; y: number; w: number; h: number }> {
  const b = await page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height };
  });
  return { x: b.x + by, y: b.y + by, w: b.w - 2 * by, h: b.h - 2 * by };
}

/** The colours of a document region in an image that starts at (ox, oy) CSS px, at the image's own scale. */
function regionColours(img: Pixels, scale: number, r: { x: number; y: number; w: number; h: number }, ox = 0, oy = 0): Set<string> {
  return coloursIn(img, { x: (r.x - ox) * scale, y: (r.y - oy) * scale, w: r.w * scale, h: r.h * scale });
}

/** A raw Page.captureScreenshot (PNG, the viewport) through a fresh CDP session, with the page's scroll offset. */
async function rawShot(page: Page): Promise<{ img: Pixels; scale: number }> {
  const session = await page.context().newCDPSession(page);
  try {
    const { data } = (await session.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
    const img = decodePng(Buffer.from(data, 'base64'));
    return { img, scale: img.width / (await page.evaluate(() => innerWidth)) };
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** The colours where the element is now, in a viewport image. */
async function shownColours(page: Page, shot: { img: Pixels; scale: number }, selector: string): Promise<Set<string>> {
  const scroll = await page.evaluate(() => ({ x: scrollX, y: scrollY }));
  return regionColours(shot.img, shot.scale, await inner(page, selector), scroll.x, scroll.y);
}

function cardCases(get: () => Setup): void {
  it("Playwright's fill() of a card number reads back as typed with inputValue()", async () => {
    const { page } = get();
    await page.fill('#cc', TYPED);
    expect(await page.inputValue('#cc')).to.equal(TYPED);
  });

  it('a card number the page holds reads masked through ours, in clear on Chromium', async () => {
    const { page, side } = get();
    const read = await page.inputValue('#pre');
    if (side === 'ours') expect(read).to.equal(MARKER);
    else expect(read).to.equal(ON_PAGE);
  });

  it("a DOM snapshot (DOMSnapshot.captureSnapshot, browser_use's read) masks the page's card numbers through ours, not the typed one", async () => {
    const { page, side } = get();
    const session = await page.context().newCDPSession(page);
    try {
      const snap = (await session.send('DOMSnapshot.captureSnapshot', { computedStyles: [] })) as { strings: string[] };
      const strings = snap.strings.join('\n');
      expect(strings, 'what the client typed').to.include(TYPED);
      if (side === 'ours') {
        expect(strings).to.not.include(ON_PAGE);
        expect(strings).to.not.include(IN_TEXT);
        expect(strings).to.include(MARKER);
      } else {
        expect(strings).to.include(ON_PAGE);
        expect(strings).to.include(IN_TEXT);
      }
    } finally {
      await session.detach().catch(() => undefined);
    }
  });

  it('a viewport screenshot covers the card digits through ours, not the ones the client typed; Chromium shows them', async () => {
    const { page, side } = get();
    const img = decodePng(await page.screenshot());
    const scale = img.width / (await page.evaluate(() => innerWidth));
    const pre = regionColours(img, scale, await inner(page, '#pre'));
    const text = regionColours(img, scale, await inner(page, '#text', 1));
    const typed = regionColours(img, scale, await inner(page, '#cc'));
    const fb = await page.frameLocator('#pay').locator('#f').boundingBox();
    if (!fb) throw new Error('the payment frame has no field');
    const framed = regionColours(img, scale, { x: fb.x + 3, y: fb.y + 3, w: fb.width - 6, h: fb.height - 6 });
    expect(typed.size, 'the typed card is drawn (more than one colour)').to.be.greaterThan(1);
    if (side === 'ours') {
      expect([...pre], 'the saved card field is one mask').to.deep.equal([MASK]);
      expect([...text], 'the card in the text is one mask').to.deep.equal([MASK]);
      expect([...framed], 'the card in the cross-origin frame is one mask').to.deep.equal([MASK]);
    } else {
      expect(pre.size, 'Chromium draws the saved card').to.be.greaterThan(1);
      expect(text.size, 'Chromium draws the card in the text').to.be.greaterThan(1);
      expect(framed.size, 'Chromium draws the card in the frame').to.be.greaterThan(1);
    }
  });

  it('a clipped screenshot of the card field and a full-page one (captureBeyondViewport) cover the digits through ours', async () => {
    const { page, side } = get();
    const pre = await inner(page, '#pre');
    const clipped = decodePng(await page.screenshot({ clip: { x: pre.x, y: pre.y, width: pre.w, height: pre.h } }));
    const clipScale = clipped.width / pre.w;
    const clippedColours = regionColours(clipped, clipScale, pre, pre.x, pre.y);
    const full = decodePng(await page.screenshot({ fullPage: true }));
    // Playwright's full page is the content without a classic scrollbar, at the device pixel ratio.
    const fullScale = await page.evaluate(() => devicePixelRatio);
    const below = regionColours(full, fullScale, await inner(page, '#below', 1));
    if (side === 'ours') {
      expect([...clippedColours], 'the clip is all mask').to.deep.equal([MASK]);
      expect([...below], 'the card below the fold is one mask').to.deep.equal([MASK]);
    } else {
      expect(clippedColours.size).to.be.greaterThan(1);
      expect(below.size).to.be.greaterThan(1);
    }
  });

  it('a raw Page.captureScreenshot without clip (JPEG) covers the digits through ours', async () => {
    const { page, side } = get();
    const session = await page.context().newCDPSession(page);
    try {
      const png = (await session.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
      const img = decodePng(Buffer.from(png.data, 'base64'));
      const scale = img.width / (await page.evaluate(() => innerWidth));
      const pre = regionColours(img, scale, await inner(page, '#pre'));
      if (side === 'ours') expect([...pre]).to.deep.equal([MASK]);
      else expect(pre.size).to.be.greaterThan(1);
      const jpeg = (await session.send('Page.captureScreenshot', { format: 'jpeg', quality: 90 })) as { data: string };
      expect(Buffer.from(jpeg.data, 'base64').subarray(0, 3).toString('hex'), 'still a JPEG').to.equal('ffd8ff');
    } finally {
      await session.detach().catch(() => undefined);
    }
  });

  it('a screencast frame (Page.startScreencast, PNG) covers the digits through ours', async () => {
    const { page, side } = get();
    const session = await page.context().newCDPSession(page);
    try {
      const frame = new Promise<{ data: string; sessionId: number }>((resolve) => session.once('Page.screencastFrame', resolve));
      await session.send('Page.startScreencast', { format: 'png', everyNthFrame: 1 });
      // A repaint makes Chrome send a frame even when nothing else changes.
      await page.evaluate(() => (document.body.style.background = '#fffffe'));
      const { data, sessionId } = await frame;
      await session.send('Page.screencastFrameAck', { sessionId });
      await session.send('Page.stopScreencast');
      const img = decodePng(Buffer.from(data, 'base64'));
      const scale = img.width / (await page.evaluate(() => innerWidth));
      const pre = regionColours(img, scale, await inner(page, '#pre', 4));
      if (side === 'ours') expect([...pre]).to.deep.equal([MASK]);
      else expect(pre.size).to.be.greaterThan(1);
    } finally {
      await session.detach().catch(() => undefined);
    }
  });
}

/**
 * Cards that come after the page loaded, on a page that had none: the screenshot right after must be
 * masked already (the worker learns of card frames from the frames themselves, not by asking them all).
 */
function lateCardCases(get: () => Setup): void {
  let opened: Page | undefined;
  const getPlain = () => {
    if (!opened) throw new Error('the before hook did not open the page without cards');
    return { plain: opened, side: get().side };
  };
  // A nested suite: its page opens after the cases on the card page ran (a page in the background is not
  // captured on either endpoint until brought to front).
  describe('cards that come after the page loaded', () => {
    before(async () => {
      opened = await get().page.context().newPage();
      await opened.goto(get().plainUrl);
    });
    after(async () => {
      await opened?.close().catch(() => undefined);
    });
    lateCases(getPlain, () => get().frameUrl);
  });
}

function lateCases(get: () => { plain: Page; side: Side }, frameUrl: () => string): void {
  it('a card field inserted by script, then a screenshot at once: covered through ours', async () => {
    const { plain, side } = get();
    const before = await rawShot(plain);
    expect(before.img.width, 'a screenshot of the page without cards').to.be.greaterThan(0);
    await plain.evaluate(() => (window as unknown as { addCard: () => void }).addCard());
    const shot = await rawShot(plain);
    const late = await shownColours(plain, shot, '#late');
    if (side === 'ours') expect([...late], 'the card inserted by script is one mask').to.deep.equal([MASK]);
    else expect(late.size, 'Chromium draws the card inserted by script').to.be.greaterThan(1);
  });

  it('the same card field scrolled to a new position is covered where it is now through ours', async () => {
    const { plain, side } = get();
    await plain.evaluate(() => scrollTo(0, 180));
    const shot = await rawShot(plain);
    const late = await shownColours(plain, shot, '#late');
    expect(await plain.evaluate(() => scrollY), 'the page scrolled').to.equal(180);
    if (side === 'ours') expect([...late], 'the card is one mask at its new position').to.deep.equal([MASK]);
    else expect(late.size).to.be.greaterThan(1);
  });

  it('a card field in a cross-site frame added by script, then a screenshot once it loaded: covered through ours', async () => {
    const { plain, side } = get();
    await plain.evaluate(
      (src) =>
        new Promise<void>((resolve) => {
          scrollTo(0, 0);
          const f = document.createElement('iframe');
          f.id = 'late-pay';
          f.src = src;
          f.style.cssText = 'width: 360px; height: 60px; border: 2px solid #000';
          f.onload = () => resolve();
          document.body.prepend(f);
        }),
      frameUrl(),
    );
    const shot = await rawShot(plain);
    const fb = await plain.frameLocator('#late-pay').locator('#f').boundingBox();
    if (!fb) throw new Error('the added frame has no field');
    const framed = regionColours(shot.img, shot.scale, { x: fb.x + 3, y: fb.y + 3, w: fb.width - 6, h: fb.height - 6 });
    if (side === 'ours') expect([...framed], 'the card in the added cross-site frame is one mask').to.deep.equal([MASK]);
    else expect(framed.size, 'Chromium draws the card in the added frame').to.be.greaterThan(1);
  });

  it("a card number a script sets as an ordinary text field's value (no event, no card field), then a screenshot: covered through ours", async () => {
    const { plain, side } = get();
    // A fresh copy of the page, in front: one that never drew a card, whose frames tell the worker of no card.
    const fresh = await plain.context().newPage();
    try {
      await fresh.goto(plain.url());
      expect((await rawShot(fresh)).img.width, 'a screenshot of the page without cards').to.be.greaterThan(0);
      await fresh.evaluate(() => (window as unknown as { fillNote: () => void }).fillNote());
      const shot = await rawShot(fresh);
      const note = regionColours(shot.img, shot.scale, await inner(fresh, '#note'));
      if (side === 'ours') expect([...note], 'the card number set silently is one mask').to.deep.equal([MASK]);
      else expect(note.size, 'Chromium draws the card number set silently').to.be.greaterThan(1);
    } finally {
      await fresh.close().catch(() => undefined);
    }
  });

  it('a card number the page writes in parts (a span per group), then a screenshot at once: covered through ours', async () => {
    const { plain, side } = get();
    // A fresh copy of the page, last (it comes to the front): one that never drew a card, whose frames the worker does not read.
    const fresh = await plain.context().newPage();
    try {
      await fresh.goto(plain.url());
      expect((await rawShot(fresh)).img.width, 'a screenshot of the page without cards').to.be.greaterThan(0);
      await fresh.evaluate(() => (window as unknown as { addParts: () => void }).addParts());
      const shot = await rawShot(fresh);
      const parts = regionColours(shot.img, shot.scale, await inner(fresh, '#parts', 1));
      if (side === 'ours') expect([...parts], 'the card written in parts is one mask').to.deep.equal([MASK]);
      else expect(parts.size, 'Chromium draws the card written in parts').to.be.greaterThan(1);
    } finally {
      await fresh.close().catch(() => undefined);
    }
  });
}

describe("card numbers through Chromium's own --remote-debugging-port (the reference)", function () {
  this.timeout(60_000);
  let chrome: PlainChromium | undefined;
  let fx: FixtureServer | undefined;
  let browser: Browser | undefined;
  let setup: Setup | undefined;

  before(async () => {
    fx = await new FixtureServer(CDP_FIXTURE_DIR).start();
    chrome = await launchPlainChromium();
    browser = await chromium.connectOverCDP(chrome.endpoint.wsUrl);
    const context = browser.contexts()[0];
    if (!context) throw new Error('no default context');
    const page = await context.newPage();
    const frameUrl = fx.html('/card-frame', FRAME, 'Pay').replace('127.0.0.1', 'localhost');
    await page.goto(fx.html('/card-privacy', pageWith(frameUrl), 'Card privacy'));
    setup = {
      page,
      side: 'chromium',
      plainUrl: fx.html('/no-card', PLAIN, 'No card'),
      frameUrl,
      shadowUrl: fx.html('/shadow-cards', SHADOWED, 'Shadow cards'),
      shadowLateUrl: fx.html('/shadow-late', SHADOW_LATE, 'Shadow late'),
      shadowFrameUrl: fx.html('/shadow-frame', shadowFrameWith(frameUrl), 'Shadow frame'),
    };
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await chrome?.close();
    await fx?.close();
  });

  const get = () => {
    if (!setup) throw new Error('the before hook did not open the page');
    return setup;
  };
  cardCases(get);
  lateCardCases(get);
  shadowCases(get);
});

describe('card numbers through the bridge CDP endpoint', function () {
  this.timeout(90_000);
  let h: Harness | undefined;
  let browser: Browser | undefined;
  let setup: Setup | undefined;

  before(async () => {
    h = await startHarness();
    const { url } = mintCdpClient(h.configDir, { name: 'card-privacy', maxTabs: 4 });
    const version = (await (await fetch(`${url(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    browser = await chromium.connectOverCDP(version.webSocketDebuggerUrl);
    const context = browser.contexts()[0];
    if (!context) throw new Error('no default context');
    const page = await context.newPage();
    const frameUrl = h.fixtures.html('/card-frame', FRAME, 'Pay').replace('127.0.0.1', 'localhost');
    await page.goto(h.fixtures.html('/card-privacy', pageWith(frameUrl), 'Card privacy'));
    setup = {
      page,
      side: 'ours',
      plainUrl: h.fixtures.html('/no-card', PLAIN, 'No card'),
      frameUrl,
      shadowUrl: h.fixtures.html('/shadow-cards', SHADOWED, 'Shadow cards'),
      shadowLateUrl: h.fixtures.html('/shadow-late', SHADOW_LATE, 'Shadow late'),
      shadowFrameUrl: h.fixtures.html('/shadow-frame', shadowFrameWith(frameUrl), 'Shadow frame'),
    };
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await h?.close();
  });

  const get = () => {
    if (!setup) throw new Error('the before hook did not open the page');
    return setup;
  };
  cardCases(get);
  lateCardCases(get);
  shadowCases(get);
});
