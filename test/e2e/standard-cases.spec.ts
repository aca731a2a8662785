// The last cases where the state and the actions differed from the references an agent is measured
// against: links inside an inline <svg> and focus targets with no size (Chromium's own accessibility
// tree of the same tab, CDP Accessibility.getFullAXTree, is the oracle), and select_option / type on
// an element of the wrong kind (Playwright on the same page, in the same run, is the reference).
// One harness and one Playwright browser for the file.
import { expect } from 'chai';
import { type Browser as PwBrowser, chromium } from 'playwright-core';
import type { Page } from 'puppeteer-core';

import type { ActionableElement } from '../../schemas/generated/protocol';
import { CHROMIUM_PATH } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { open, quietSettle } from './actions.helpers';

interface AxNode {
  role: string;
  name: string;
  focusable: boolean;
  ignored: boolean;
  backendDOMNodeId?: number;
}

/** Chromium's accessibility tree of the page's main frame, with each node's DOM id where it has one. */
async function axTree(page: Page): Promise<(AxNode & { domId: string | null })[]> {
  const cdp = await page.createCDPSession();
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const out: (AxNode & { domId: string | null })[] = [];
    for (const n of nodes) {
      let domId: string | null = null;
      if (n.backendDOMNodeId !== undefined) {
        const { node } = await cdp.send('DOM.describeNode', { backendNodeId: n.backendDOMNodeId });
        const attrs = node.attributes ?? [];
        const i = attrs.indexOf('id');
        domId = i >= 0 ? (attrs[i + 1] ?? null) : null;
      }
      out.push({
        role: String(n.role?.value ?? ''),
        name: String(n.name?.value ?? ''),
        focusable: (n.properties ?? []).some((p) => p.name === 'focusable' && p.value.value === true),
        ignored: n.ignored,
        domId,
      });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

describe('the standard: svg links, focus targets with no size, select and type on the wrong element', function () {
  this.timeout(90_000);
  let h: Harness;
  let pw: PwBrowser;
  before(async () => {
    h = await startHarness();
    await quietSettle(h);
    pw = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async () => {
    await pw?.close();
    await h?.close();
  });

  it('lists the links of an inline <svg> as Chromium does (named from <title>, text or aria-label), and a click follows one', async () => {
    h.fixtures.html('/svg-target', '<p>arrived</p>', 'Arrived');
    const o = await open(
      h,
      `<svg width="400" height="120" xmlns:xlink="http://www.w3.org/1999/xlink">
        <a id="s-title" href="/svg-target?t"><title>Opening hours</title><rect x="0" y="0" width="40" height="40"/></a>
        <a id="s-text" href="/svg-target"><text x="60" y="30">Contact us</text></a>
        <a id="s-aria" href="/svg-target?a" aria-label="Map of the site"><circle cx="220" cy="20" r="15"/></a>
        <a id="s-xlink" xlink:href="/svg-target?x"><text x="260" y="30">Old style</text></a>
        <a id="s-none"><text x="10" y="80">Not a link</text></a>
        <a id="s-hidden" href="/svg-target?h" style="display:none"><text x="10" y="100">Hidden</text></a>
      </svg>
      <svg width="16" height="16"><title>Decoration</title><path d="M0 0h16v16H0z"/></svg>`,
    );
    const links = o.state.actionable_elements.filter((e) => e.attributes['id']?.startsWith('s-'));
    const ax = await axTree(o.page);
    const axLinks = ax.filter((n) => !n.ignored && n.role === 'link' && n.domId?.startsWith('s-'));
    const pairs = (list: { id: string; name: string }[]) => list.map((x) => `${x.id}=${x.name}`).sort();
    expect(axLinks.length, "Chromium's tree lists the svg's links").to.equal(4);
    expect(pairs(links.map((e) => ({ id: e.attributes['id'] as string, name: e.name ?? '' }))), 'ours, as Chromium').to.deep.equal(
      pairs(axLinks.map((n) => ({ id: n.domId as string, name: n.name }))),
    );
    for (const e of links) expect(e, e.attributes['id']).to.deep.include({ role: 'link', type: 'LINK', is_visible: true });
    const text = links.find((e) => e.attributes['id'] === 's-text') as ActionableElement;
    expect(text.text_content).to.equal('Contact us');
    const click = await o.call('click', { element_id: text.id });
    expect(click.status, JSON.stringify(click.error_info)).to.equal('success');
    await o.page.waitForFunction(() => location.pathname === '/svg-target', { timeout: 10_000 });
  });

  it('lists a focusable empty <div tabindex=0> and an empty <a href title> with is_visible false, as Chromium keeps them', async () => {
    const o = await open(
      h,
      `<p>Text</p><div id="guard" tabindex="0"></div><a id="zero" href="#reached" title="Back to top"></a>
      <div id="aria-hidden" tabindex="0" aria-hidden="true"></div><div id="script-only" tabindex="-1"></div>
      <input id="honeypot" name="website" style="width:0;height:0;border:0;padding:0">
      <button id="b">Visible</button>`,
    );
    const ax = await axTree(o.page);
    const kept = (id: string) => ax.some((n) => n.domId === id && !n.ignored && n.focusable);
    expect(kept('guard') && kept('zero'), "Chromium's tree keeps both focus targets").to.equal(true);
    expect(kept('aria-hidden'), 'Chromium leaves an aria-hidden one out').to.equal(false);
    const by = (id: string) => o.state.actionable_elements.find((e) => e.attributes['id'] === id);
    expect(by('guard'), 'the empty focusable div is listed').to.deep.include({ role: 'generic', is_visible: false });
    expect(by('zero'), 'the empty link is listed, named by its title').to.deep.include({
      role: 'link',
      name: 'Back to top',
      is_visible: false,
    });
    expect(by('zero')?.available_operations, 'no click is offered: it has no point to click').to.not.include('click');
    expect(by('aria-hidden'), 'aria-hidden: not listed, as in Chromium').to.equal(undefined);
    expect(by('script-only'), 'tabindex=-1 is no tab stop').to.equal(undefined);
    // A zero-size text field is a trap for bots or a control its label operates, never a target.
    expect(by('honeypot')).to.equal(undefined);
    expect(by('b')).to.deep.include({ is_visible: true });
    // What an agent does with one: focus it and press Enter (a click has no point to land on).
    const zero = by('zero') as ActionableElement;
    expect((await o.ok('focus', { element_id: zero.id }))['focused']).to.equal(true);
    await o.ok('press', { element_id: zero.id, key: 'Enter' });
    await o.page.waitForFunction(() => location.hash === '#reached', { timeout: 10_000 });
  });

  it('select_option on an element that is not a select says what Playwright says, with details.reason not_a_select', async () => {
    const body = `<div id="d" tabindex="0">Choose a size</div><select id="s"><option>S</option><option>M</option></select>`;
    const o = await open(h, body);
    const id = await o.id('d');
    const e = await o.fails('select_option', { element_id: id, values: ['M'] }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(e.details).to.deep.include({ check: 'dropdown', reason: 'not_a_select' });
    const pwPage = await pw.newPage();
    try {
      await pwPage.goto(o.page.url());
      const theirs = await pwPage.selectOption('#d', 'M', { timeout: 5_000 }).then(
        () => 'selected',
        (err: Error) => err.message,
      );
      expect(theirs, 'Playwright').to.include('Element is not a <select> element');
    } finally {
      await pwPage.close();
    }
    expect(e.message.startsWith('Element is not a <select> element'), e.message).to.equal(true);
    expect(await o.eval('document.getElementById("s").value')).to.equal('S');
  });

  it('typing into an element that takes no text: Playwright types into nothing and succeeds; ours says NOT_FILLABLE', async () => {
    const body = `<div id="d" tabindex="0">Read only</div><input id="i">`;
    const o = await open(h, body);
    const pwPage = await pw.newPage();
    try {
      await pwPage.goto(o.page.url());
      await pwPage.locator('#d').pressSequentially('abc', { timeout: 5_000 });
      expect(
        await pwPage.evaluate(() => [document.getElementById('d')?.textContent, (document.getElementById('i') as HTMLInputElement).value]),
      ).to.deep.equal(['Read only', '']);
    } finally {
      await pwPage.close();
    }
    const id = await o.id('d');
    const e = await o.fails('type', { element_id: id, text: 'abc' }, 'NOT_FILLABLE');
    expect(e.message).to.match(/takes no typed text/);
    expect(await o.eval('document.getElementById("d").textContent')).to.equal('Read only');
  });
});
