// The snapshot as an agent gets it: real Chromium, the real extension, through the bridge.
// One agent and one tab for the whole file (the bridge leases the tab to the session); each test
// navigates that tab to its fixture and asserts exact element lists, names, roles and states.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { ActionableElement, DomElementNode, DomNode, GetStateParams, SimplifiedState } from '../../schemas/generated/protocol';
import { renderAriaTree, renderBrowserUse, renderBrowsingContext } from '../../schemas/lib/render';
import { FixtureServer } from '../harness/fixture-server';
import { type AgentPage, type Harness, useAgentPage } from '../harness/harness';
import { until } from '../harness/until';

let h: Harness;
let agent: AgentClient;
let page: Page;
let t: AgentPage;
let other: FixtureServer;

async function open(path: string, body: string, title = 'Fixture'): Promise<void> {
  await page.goto(h.fixtures.html(path, body, title), { waitUntil: 'load' });
}

const state = (params: GetStateParams = {}) => t.state(params);

/** Resolves once the frame at url runs scripts again (an evaluate waits for its main thread), then lets its late replies arrive. */
async function busyFrameAnswers(p: Page, url: string): Promise<void> {
  const frame = p.frames().find((f) => f.url() === url);
  if (!frame) throw new Error(`no frame at ${url}`);
  await frame.evaluate(() => 1);
  await new Promise((r) => setTimeout(r, 200));
}

const roleName = (s: SimplifiedState) => s.actionable_elements.map((e) => [e.role, e.name]);
const byName = (s: SimplifiedState, name: string): ActionableElement => {
  const found = s.actionable_elements.find((e) => e.name === name);
  expect(found, `element named ${name} in ${JSON.stringify(roleName(s))}`).to.not.equal(undefined);
  return found as ActionableElement;
};

describe('e2e: snapshot (get_state)', function () {
  this.timeout(60_000);
  useAgentPage((started) => ({ h, agent, page } = t = started));
  before(async () => {
    other = await new FixtureServer(undefined, 'localhost').start(0);
  });
  after(async () => {
    await other?.close();
  });

  it('names every kind of label per accname and gives implicit roles per HTML-AAM', async () => {
    await open(
      '/labels',
      `
      <label for="a">Full name</label><input id="a">
      <label>Email <input type="email"></label>
      <input aria-label="Search the site" type="search">
      <span id="q1">Quantity</span><span id="q2">(kg)</span><input type="number" aria-labelledby="q1 q2">
      <span id="hid" hidden>Secret label</span><input aria-labelledby="hid">
      <input title="Zip code">
      <input placeholder="Phone">
      <button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Close dialog"></button>
      <input type="submit" value="Send">
      <input type="reset">
      <input type="image" alt="Go" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <a href="/x">Read <b>more</b></a>
      <button aria-label="Menu">☰</button>
      <select aria-label="Size"><option>S</option><option selected>M</option></select>
      <textarea aria-label="Notes"></textarea>
      <label class="toggle"><input type="checkbox" style="opacity:0;position:absolute"> Dark mode</label>`,
    );
    const s = await state();
    expect(roleName(s)).to.deep.equal([
      ['textbox', 'Full name'],
      ['textbox', 'Email'],
      ['searchbox', 'Search the site'],
      ['spinbutton', 'Quantity (kg)'],
      ['textbox', 'Secret label'],
      ['textbox', 'Zip code'],
      ['textbox', 'Phone'],
      ['button', 'Close dialog'],
      ['button', 'Send'],
      ['button', 'Reset'],
      ['button', 'Go'],
      ['link', 'Read more'],
      ['button', 'Menu'],
      ['combobox', 'Size'],
      ['textbox', 'Notes'],
      ['checkbox', 'Dark mode'],
    ]);
    expect(s.actionable_elements.map((e) => e.index)).to.deep.equal(s.actionable_elements.map((_, i) => i + 1));
    expect(s.actionable_elements.map((e) => e.id)).to.deep.equal(
      s.actionable_elements.map((_, i) => `e${i + 1}`),
      'first state numbers refs from 1 in DFS order',
    );
    const toggle = byName(s, 'Dark mode');
    expect(toggle.tag, 'the label operates the hidden checkbox, so the label is listed').to.equal('label');
    expect(toggle.type).to.equal('CHECKBOX');
    expect(toggle.states).to.deep.equal({ checked: false });
    expect(byName(s, 'Size').current_value).to.equal('M');
    expect(byName(s, 'Full name').xpath).to.equal('html/body/input[1]');
    expect(byName(s, 'Email').xpath).to.equal('html/body/label[2]/input');
    expect(s.focused_element).to.equal(null);
    await page.focus('input[type=email]');
    const focused = await state();
    expect(focused.active_element_id).to.equal(byName(s, 'Email').id);
    expect(byName(focused, 'Email').states).to.deep.equal({ focused: true });
    expect(focused.focused_element).to.deep.equal({ tag: 'input', element_id: byName(s, 'Email').id, name: 'Email', frame_id: 0 });
  });

  it('reads ARIA widgets: roles, states and types', async () => {
    await open(
      '/aria',
      `
      <div role="tablist"><div role="tab" aria-selected="true" tabindex="0">Home</div><div role="tab" aria-selected="false" tabindex="-1">Settings</div></div>
      <div role="switch" aria-checked="true" tabindex="0">Wi-Fi</div>
      <div role="checkbox" aria-checked="mixed" tabindex="0">All</div>
      <div role="button" aria-pressed="true" tabindex="0">Bold</div>
      <div role="combobox" aria-expanded="false" aria-label="Country" tabindex="0">Choose</div>
      <ul role="listbox" aria-label="Fruit"><li role="option" aria-selected="true">Apple</li><li role="option">Pear</li></ul>
      <div role="slider" aria-valuenow="5" aria-label="Volume" tabindex="0">5</div>
      <div role="menuitem" tabindex="0">Open</div>
      <div role="treeitem" aria-expanded="true" tabindex="0">Docs</div>
      <div tabindex="0">Focusable panel</div>
      <div contenteditable="true">Edit me</div>
      <div aria-disabled="true" role="button" tabindex="0">Later</div>`,
    );
    const s = await state();
    expect(s.actionable_elements.map((e) => [e.role, e.name, e.type, e.states ?? {}])).to.deep.equal([
      ['tab', 'Home', 'TAB', { selected: true }],
      ['tab', 'Settings', 'TAB', { selected: false }],
      ['switch', 'Wi-Fi', 'CHECKBOX', { checked: true }],
      ['checkbox', 'All', 'CHECKBOX', { checked: 'mixed' }],
      ['button', 'Bold', 'BUTTON', { pressed: true }],
      ['combobox', 'Country', 'SELECT', { expanded: false }],
      ['listbox', 'Fruit', 'SELECT', {}],
      ['option', 'Apple', 'OPTION', { selected: true }],
      ['option', 'Pear', 'OPTION', {}],
      ['slider', 'Volume', 'SLIDER', {}],
      ['menuitem', 'Open', 'MENU_ITEM', {}],
      ['treeitem', 'Docs', 'OTHER', { expanded: true }],
      ['generic', '', 'OTHER', {}],
      ['textbox', '', 'CONTENT_EDITABLE', {}],
      ['button', 'Later', 'BUTTON', { disabled: true }],
    ]);
    const tab2 = s.actionable_elements[1] as ActionableElement;
    expect(tab2.attributes['role']).to.equal('tab');
    expect(s.actionable_elements[12]?.text_content).to.equal('Focusable panel');
    expect(s.actionable_elements[13]?.text_content).to.equal('Edit me');
    expect(s.actionable_elements[14]?.available_operations).to.not.include('click');
  });

  it('leaves out hidden elements, keeps disabled ones, flags covered ones and scopes to the viewport', async () => {
    await open(
      '/hidden',
      `
      <style>body{margin:0} .cover{position:fixed;left:0;top:300px;width:400px;height:60px;background:#fff}</style>
      <button>Visible</button>
      <button style="display:none">None</button>
      <button style="visibility:hidden">Invisible</button>
      <button style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero</button>
      <div inert><button>Inert</button></div>
      <details><summary>More</summary><button>In closed details</button></details>
      <button disabled>Disabled</button>
      <div style="position:absolute;top:310px;left:10px"><button>Covered</button></div>
      <div class="cover"></div>
      <div style="position:absolute;top:2000px"><button>Far below</button><p>Below text</p></div>
      <div style="height:4000px"></div>`,
    );
    const s = await state();
    expect(s.actionable_elements.map((e) => e.name)).to.deep.equal(['Visible', 'More', 'Disabled', 'Covered']);
    expect(byName(s, 'Disabled').states).to.deep.equal({ disabled: true });
    expect(byName(s, 'Covered').is_top_element).to.equal(false);
    expect(byName(s, 'Visible').is_top_element).to.equal(true);
    expect(byName(s, 'More').states).to.deep.equal({ expanded: false });
    expect(s.text_context?.map((t) => t.text)).to.not.include('Below text');
    expect(s.pixels_above).to.equal(0);
    expect(s.pixels_below).to.be.greaterThan(1400);
    expect(s.viewport_expansion).to.equal(0);
    const all = await state({ viewport_expansion: -1 });
    expect(all.actionable_elements.map((e) => e.name)).to.deep.equal(['Visible', 'More', 'Disabled', 'Covered', 'Far below']);
    const far = byName(all, 'Far below');
    expect(far.is_in_viewport).to.equal(false);
    expect(far.bounds?.y).to.be.greaterThan(1900);
    expect(all.text_context?.map((t) => t.text)).to.include('Below text');
    const expanded = await state({ viewport_expansion: 1500 });
    expect(expanded.actionable_elements.map((e) => e.name)).to.include('Far below');
    await page.evaluate(() => window.scrollTo(0, 1800));
    const scrolled = await state();
    expect(scrolled.actionable_elements.map((e) => e.name)).to.deep.equal(['Far below']);
    expect(scrolled.pixels_above).to.equal(1800);
    expect(scrolled.scroll_position).to.deep.equal({ x: 0, y: 1800 });
  });

  it('lists cursor:pointer elements unless the pointer is inherited, onclick elements, and nests interactive elements', async () => {
    await open(
      '/pointer',
      `
      <style>.card{cursor:pointer;border:1px solid #ccc;padding:4px}</style>
      <div class="card" id="card">Product card <span>with inner text</span> <button>Add to cart</button></div>
      <a href="/p"><div style="cursor:pointer">Link body</div></a>
      <ul><li style="cursor:pointer">Pick me</li><li>Plain</li></ul>
      <div onclick="void 0">No pointer, no role, but onclick</div>
      <div>Plain div</div>
      <img alt="logo" width="20" height="20" onclick="void 0" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">`,
    );
    const s = await state();
    expect(s.actionable_elements.map((e) => [e.tag, e.role, e.text_content ?? e.name, e.parent_index ?? null])).to.deep.equal([
      ['div', 'generic', 'Product card with inner text', null],
      ['button', 'button', 'Add to cart', 1],
      ['a', 'link', 'Link body', null],
      ['li', 'listitem', 'Pick me', null],
      ['div', 'generic', 'No pointer, no role, but onclick', null],
      ['img', 'img', 'logo', null],
    ]);
    const img = s.actionable_elements[5];
    expect([img?.type, img?.available_operations]).to.deep.equal(['IMAGE', ['click', 'read_text', 'get_attributes']]);
  });

  it('indexes rendered labels in the dom_tree as buildDomTree.js does (hit-tested, attributes only for candidates) without listing them', async () => {
    await open(
      '/labels-tree',
      `
      <label id="plain" title="t">Remember me <input type="checkbox" name="remember"></label>
      <label for="far" aria-="" style="display:inline-block;width:20px;height:10px"></label>
      <div style="position:relative"><label id="covered">Covered <input name="c"></label>
        <div style="position:absolute;inset:0;background:#fff"></div></div>
      <input id="far">`,
    );
    const s = await state({ include_dom_tree: true });
    expect(s.actionable_elements.map((e) => e.tag)).to.deep.equal(['input', 'input', 'input']);
    const labels: DomElementNode[] = [];
    const walk = (n: DomNode): void => {
      if (n.kind !== 'element') return;
      if (n.tag === 'label') labels.push(n);
      n.children.forEach(walk);
    };
    walk(s.dom_tree as DomNode);
    expect(labels.map((l) => [l.xpath, l.attributes, l.is_interactive, l.is_visible, l.is_top_element, l.is_in_viewport])).to.deep.equal([
      ['html/body/label[1]', {}, true, true, true, true],
      ['html/body/label[2]', { for: 'far', 'aria-': '', style: 'display:inline-block;width:20px;height:10px' }, true, true, true, true],
      // Covered: not top, so buildDomTree.js neither asks whether it is interactive nor where it is.
      ['html/body/div/label', {}, false, true, false, false],
    ]);
  });

  it('stitches same- and cross-origin iframes under their iframe with frame-carrying ids', async () => {
    const inner = h.fixtures.html('/inner', '<button>Same-origin button</button><p>Inner text</p>');
    const cross = other.html(
      '/cross',
      '<label>Cross field <input value="x1"></label><iframe src="about:blank" style="display:none"></iframe>',
    );
    await open(
      '/frames',
      `
      <style>body{margin:0} iframe{border:0;display:block}</style>
      <button>Top before</button>
      <iframe id="same" src="${inner}" style="width:300px;height:80px"></iframe>
      <iframe id="cross" src="${cross}" style="width:300px;height:80px;margin-left:50px"></iframe>
      <button>Top after</button>`,
    );
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => (f as HTMLIFrameElement).dataset['x'] !== 'y'));
    await new Promise((r) => setTimeout(r, 300));
    const s = await state();
    expect(s.actionable_elements.map((e) => [e.index, e.name])).to.deep.equal([
      [1, 'Top before'],
      [2, 'Same-origin button'],
      [3, 'Cross field'],
      [4, 'Top after'],
    ]);
    const [top, same, crossEl] = s.actionable_elements as [ActionableElement, ActionableElement, ActionableElement];
    expect(top.id).to.equal('e1');
    expect(top.frame_id, 'top-frame elements carry no frame_id').to.equal(undefined);
    expect(same.id).to.match(/^f\d+e1$/);
    expect(crossEl.id).to.match(/^f\d+e1$/);
    expect(same.frame_id).to.be.greaterThan(0);
    expect(crossEl.frame_id).to.not.equal(same.frame_id);
    expect(crossEl.current_value).to.equal('x1');
    expect(same.xpath).to.equal('html/body/button');
    // Bounds are relative to the top viewport: the iframe's offset is added.
    const frameTop = await page.$eval('#cross', (f) => f.getBoundingClientRect().top);
    expect(crossEl.bounds!.y).to.be.greaterThanOrEqual(frameTop);
    expect(crossEl.bounds!.x).to.be.greaterThanOrEqual(50);
    expect(s.frames?.filter((f) => f.status === 'ok').map((f) => f.url)).to.deep.equal([h.fixtures.url('/frames'), inner, cross]);
    expect(s.text_context?.find((t) => t.text === 'Inner text')?.frame_id).to.equal(same.frame_id);
    const r = await agent.call('get_state', { include_dom_tree: true }, { tabId: t.tabId });
    const again = r.new_simplified_state as SimplifiedState;
    expect(again.actionable_elements.map((e) => e.id)).to.deep.equal(
      s.actionable_elements.map((e) => e.id),
      'ids are stable across states',
    );
    // dom_tree: each iframe document hangs under its iframe element, from its <html>.
    const iframes: DomElementNode[] = [];
    const walk = (n: DomNode): void => {
      if (n.kind !== 'element') return;
      if (n.tag === 'iframe' && n.frame_id !== undefined) iframes.push(n);
      n.children.forEach(walk);
    };
    walk(again.dom_tree as DomNode);
    expect(iframes.map((f) => [f.frame_id, f.children[0]?.kind === 'element' ? f.children[0].xpath : null])).to.deep.equal([
      [same.frame_id, 'html'],
      [crossEl.frame_id, 'html'],
    ]);
    expect(renderBrowserUse(again)).to.equal(
      [
        '[0]<button >Top before />',
        '[1]<button >Same-origin button />',
        'Inner text',
        '[2]<label >Cross field />',
        "\t[3]<input value='x1' />",
        '[4]<button >Top after />',
      ].join('\n'),
    );
  });

  it('leaves out a frame that does not answer within the frame budget, and says which and why', async () => {
    // One ad's page is stuck in a script for 5 s (told to spin by a message), so its content script
    // cannot reply; one ad never finishes loading; ten more lie below the fold (viewport scope:
    // nothing is waited for there). The busy ad lives on its own site (127.0.0.2): frames of one
    // site share a renderer thread, and the other ads must still answer.
    const blocker = await new FixtureServer(undefined, '127.0.0.2').start(0);
    const busy = blocker.html(
      '/busy-ad',
      `<button>Busy ad</button><script>
      addEventListener('message', (e) => { if (e.data === 'spin') { const end = Date.now() + 5000; while (Date.now() < end); } });</script>`,
    );
    const ad = other.html('/ok-ad', '<a href="/buy">Buy now</a>');
    other.route('/loading-ad', { body: '<p>late</p>', contentType: 'text/html', delayMs: 20_000 });
    await open(
      '/news',
      `
      <style>body{margin:0} iframe{border:0;display:block;width:300px;height:120px}</style>
      <button>Top story</button>
      <iframe id="busy" src="${busy}"></iframe>
      <iframe id="ad" src="${ad}"></iframe>
      <div id="late"></div>
      <div style="height:3000px"></div>
      ${Array.from({ length: 10 }, (_, i) => `<iframe src="${ad}?n=${i}"></iframe>`).join('')}`,
    );
    await page.evaluate((u) => {
      const f = document.createElement('iframe');
      f.src = u;
      document.getElementById('late')?.append(f);
      (document.getElementById('busy') as HTMLIFrameElement).contentWindow?.postMessage('spin', '*');
    }, other.url('/loading-ad'));
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    const s = await state();
    const ms = performance.now() - t0;
    expect(s.actionable_elements.map((e) => e.name)).to.deep.equal(['Top story', 'Buy now']);
    const busyInfo = (s.frames ?? []).find((f) => f.url === busy);
    expect(busyInfo?.status).to.equal('unreachable');
    expect(busyInfo?.reason).to.equal('timeout');
    expect(busyInfo?.frame_id, 'the one frame that did not answer is named').to.be.greaterThan(0);
    expect(busyInfo?.waited_ms).to.be.within(200, 700);
    expect(busyInfo?.message).to.match(/did not answer within 250 ms/);
    expect((s.frames ?? []).filter((f) => f.status === 'outside_scope')).to.have.length(10);
    // The budget (250 ms) plus a walk, not the 5 s the frame is stuck (generous for a loaded CI machine).
    expect(ms).to.be.below(2500);
    // The next state does not pay the budget again for a frame that still owes the last one an
    // answer (frame-liveness.ts): it is left out at once, and says so.
    const again = await state();
    const owed = (again.frames ?? []).find((f) => f.url === busy);
    expect(owed?.status).to.equal('unreachable');
    expect(owed?.reason).to.equal('timeout');
    expect(owed?.waited_ms, 'not waited for a second time').to.equal(0);
    expect(owed?.message).to.match(/has not answered a request sent \d+\.\d s ago/);
    expect(again.actionable_elements.map((e) => e.name)).to.deep.equal(['Top story', 'Buy now']);
    // Once its script ends, the frame answers the pending request and is asked normally again.
    await busyFrameAnswers(page, busy);
    const back = await state();
    expect((back.frames ?? []).find((f) => f.url === busy)?.status).to.equal('ok');
    expect(back.actionable_elements.map((e) => e.name)).to.deep.equal(['Top story', 'Busy ad', 'Buy now']);
    // Whole page: the child frames' snapshots are asked while the top frame walks (state/fetch.ts
    // prefetchFrames) and still land under their own iframe, in document order.
    const whole = await state({ viewport_expansion: -1 });
    expect(whole.actionable_elements.map((e) => e.name)).to.deep.equal(['Top story', 'Busy ad', ...Array<string>(11).fill('Buy now')]);
    expect((whole.frames ?? []).filter((f) => f.url.startsWith(ad)).map((f) => f.status)).to.deep.equal(Array<string>(11).fill('ok'));
    await blocker.close();
  });

  it('reads a frame that was still loading once it has loaded, though states in between left it out at once', async () => {
    // The ad's body does not end until the test says: its document has only the document_start
    // script (content.js comes at document_idle), so it cannot answer. States do not ask such a
    // document again (frame-liveness.ts) until its DOMContentLoaded or load says it may answer now.
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    const stalled = other.route('/stalled-ad', {
      body: '<!doctype html><title>Ad</title><body><a href="/early">Early offer</a>',
      contentType: 'text/html',
      finish: { when: released, tail: '<a href="/late">Late offer</a></body>' },
    });
    // Its load event waits for the ad: only DOMContentLoaded comes.
    await page.goto(h.fixtures.html('/stalled', `<button>Top story</button><iframe src="${stalled}"></iframe>`), {
      waitUntil: 'domcontentloaded',
    });
    await until('the ad document committed', 10_000, () => page.frames().some((f) => f.url() === stalled));
    for (let i = 0; i < 3; i++) {
      const s = await state({ viewport_expansion: -1 });
      expect(s.actionable_elements.map((e) => e.name)).to.deep.equal(['Top story']);
      const ad = (s.frames ?? []).find((f) => f.url === stalled);
      expect(ad?.status).to.equal('unreachable');
      expect(ad?.reason).to.equal('not_scriptable');
    }
    release();
    let names: (string | undefined)[] = [];
    await until('the loaded ad in the state', 10_000, async () => {
      names = (await state({ viewport_expansion: -1 })).actionable_elements.map((e) => e.name);
      return names.length === 3;
    });
    expect(names).to.deep.equal(['Top story', 'Early offer', 'Late offer']);
  });

  it('walks open and closed shadow roots (shadow children first, xpath relative to the root)', async () => {
    await open(
      '/shadow',
      `
      <div id="open-host"></div><div id="closed-host"><span slot="s">Slotted <a href="/s">slotted link</a></span></div>
      <script>
        const o = document.getElementById('open-host').attachShadow({ mode: 'open' });
        o.innerHTML = '<div><button>Open shadow</button><input aria-label="Shadow input"></div>';
        const c = document.getElementById('closed-host').attachShadow({ mode: 'closed' });
        c.innerHTML = '<nav><button>Closed shadow</button></nav><slot name="s"></slot><inner-x></inner-x>';
        const n = c.querySelector('inner-x').attachShadow({ mode: 'closed' });
        n.innerHTML = '<button>Nested closed</button>';
      </script>`,
    );
    const s = await state();
    expect(s.actionable_elements.map((e) => [e.name, e.in_shadow_root ?? false, e.xpath])).to.deep.equal([
      ['Open shadow', true, 'button'],
      ['Shadow input', true, 'input'],
      ['Closed shadow', true, 'button'],
      ['Nested closed', true, ''],
      ['slotted link', false, 'html/body/div[2]/span/a'],
    ]);
    // Acting inside a closed root: the host must not count as covering its own content.
    const closed = s.actionable_elements.find((e) => e.name === 'Nested closed');
    const r = await agent.call('click', { element_id: closed!.id }, { tabId: t.tabId });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
  });

  it('finds a closed shadow root attached between two states, even when the page redefines ShadowRoot.prototype.mode', async () => {
    // Hosts found without a closed root are remembered between states (reaching a closed root costs
    // an extension call per div and span), until the page attaches one: the next state must find it.
    await open(
      '/late-closed',
      `<div id="a"><p>Plain</p></div><span id="b"></span><section id="c"></section>
      <script>
        window.attachLate = (id, label) => {
          const root = document.getElementById(id).attachShadow({ mode: 'closed' });
          root.innerHTML = '<button>' + label + '</button>';
          return typeof root.querySelector === 'function' && root.mode;
        };
      </script>`,
    );
    const names = async () => (await state({ viewport_expansion: -1 })).actionable_elements.map((e) => e.name);
    expect(await names()).to.deep.equal([]);
    expect(await names(), 'a second state, from what the first remembered').to.deep.equal([]);
    expect(
      await page.evaluate(() => (window as unknown as { attachLate(id: string, l: string): string }).attachLate('a', 'Late A')),
    ).to.equal('closed');
    expect(await names()).to.deep.equal(['Late A']);
    // A page that makes every root claim to be open must not hide the next closed one.
    await page.evaluate(`Object.defineProperty(ShadowRoot.prototype, 'mode', { get() { return 'open'; }, configurable: true }), true`);
    await page.evaluate(() => (window as unknown as { attachLate(id: string, l: string): string }).attachLate('b', 'Late B'));
    expect(await names()).to.deep.equal(['Late A', 'Late B']);
    // attachShadow still answers as the browser's own: its errors, its result.
    // (A string: the test runner's compiler would wrap named functions in a helper the page lacks.)
    const errors = await page.evaluate(`(() => {
      const out = [];
      const attempt = (el, init) => {
        try {
          el.attachShadow(init);
          out.push('none');
        } catch (e) {
          out.push(e.name);
        }
      };
      attempt(document.createElement('a'), { mode: 'open' });
      attempt(document.createElement('section'), { mode: 'bad' });
      attempt(document.getElementById('a'), { mode: 'open' });
      return out;
    })()`);
    expect(errors).to.deep.equal(['NotSupportedError', 'TypeError', 'NotSupportedError']);
  });

  it('skips off-screen shadow hosts in viewport scope yet lists what they show in the viewport (fixed, slotted, ::part, nested, popover, overflow)', async () => {
    // Each host below lies wholly outside the viewport; the ones named in \`shown\` paint a control
    // inside it (escaping their host's box), which the viewport state must list exactly as the
    // whole-page state does. x-plain shows nothing in the viewport (the walk may skip it).
    await open(
      '/host-prune',
      `
      <style>
        body{margin:0} .clip{display:block;position:relative;overflow:hidden;height:40px}
        .far{position:absolute;left:0;top:3000px;width:260px}
        .docfixed{position:fixed;top:70px;left:300px} x-part::part(p){position:fixed;top:100px;left:300px}
      </style>
      <button>Top</button><x-contents style="display:contents"></x-contents><x-near class="clip"></x-near>
      <x-over style="display:block;position:absolute;top:-500px;left:0;width:200px;height:20px"></x-over>
      <div class="far">
        <x-sheetfixed class="clip"></x-sheetfixed><x-inlinefixed class="clip"></x-inlinefixed>
        <x-slot class="clip"><button slot="s" class="docfixed">Slotted fixed</button></x-slot>
        <x-part class="clip"></x-part><x-static style="display:block;height:40px;overflow:hidden"></x-static>
        <x-outer class="clip"></x-outer><x-pop class="clip"></x-pop><x-plain class="clip"></x-plain>
      </div>
      <div style="height:5000px"></div>
      <script>
        const def = (name, html, css) => customElements.define(name, class extends HTMLElement {
          constructor() {
            super();
            const r = this.attachShadow({ mode: 'open' });
            if (css) { const s = new CSSStyleSheet(); s.replaceSync(css); r.adoptedStyleSheets = [s]; }
            r.innerHTML = html;
          }
        });
        def('x-contents', '<button>Contents host</button>');
        def('x-near', '<button>Near shadow</button>');
        def('x-over', '<div style="height:640px"></div><button>Overflowing</button>');
        def('x-sheetfixed', '<button class="f">Fixed by shadow sheet</button>', '.f{position:fixed;top:10px;left:300px}');
        def('x-inlinefixed', '<button style="position:fixed;top:40px;left:300px">Inline fixed</button>');
        def('x-slot', '<slot name="s"></slot>');
        def('x-part', '<button part="p">Part fixed</button>');
        def('x-static', '<button style="position:absolute;top:-2870px;left:300px">Escaped absolute</button>');
        def('x-inner', '<button>Nested fixed</button>', 'button{position:fixed;top:160px;left:300px}');
        def('x-outer', '<x-inner></x-inner>');
        def('x-pop', '<div popover><button>In popover</button></div>');
        def('x-plain', '<button>Far in shadow</button>');
        document.querySelector('x-pop').shadowRoot.querySelector('[popover]').showPopover();
      </script>`,
    );
    const shown = [
      'Top',
      'Contents host',
      'Near shadow',
      'Overflowing',
      'Fixed by shadow sheet',
      'Inline fixed',
      'Slotted fixed',
      'Part fixed',
      'Escaped absolute',
      'Nested fixed',
      'In popover',
    ];
    const vp = await state();
    const whole = await state({ viewport_expansion: -1 });
    expect(whole.actionable_elements.filter((e) => e.is_in_viewport).map((e) => e.name)).to.have.members(shown);
    expect(vp.actionable_elements.map((e) => e.name)).to.deep.equal(
      whole.actionable_elements.filter((e) => e.is_in_viewport).map((e) => e.name),
    );
    expect(byName(whole, 'Far in shadow').is_in_viewport).to.equal(false);
  });

  it("gives every listed element browser_use's xpath (narrow, wide and row-windowed parents, both scopes) and its shown attributes in order", async () => {
    // The walk counts same-tag siblings while it visits them; first-of-tag elements, rows of a
    // row-windowed table body and the walk's root are worked out from the DOM. All must agree with
    // buildDomTree.js's getXPathTree, computed here in the page from scratch.
    const wide = Array.from({ length: 9 }, (_, i) => `<span>w${i}</span><a id="w${i}" href="#w${i}">wide ${i}</a>`).join('');
    const distinct = ['b', 'i', 'em', 'strong', 'small', 'mark', 'code', 'kbd', 'var'].map((t) => `<${t}>${t}</${t}>`).join('');
    const rows = Array.from({ length: 80 }, (_, i) => `<tr><td>r${i}</td><td><a id="r${i}" href="#r${i}">row ${i}</a></td></tr>`).join('');
    await open(
      '/xpaths',
      `
      <div><button id="only">only</button></div>
      <div><button id="first" title="t" name="n" type="button">first</button><i>x</i><button id="second">second</button></div>
      <section>${distinct}<button id="late">late unique</button></section>
      <p>${wide}</p>
      <ul>${Array.from({ length: 3 }, (_, i) => `<li><a id="li${i}" href="#li${i}">item ${i}</a></li>`).join('')}</ul>
      <table><tbody>${rows}</tbody></table>
      <script>
        // Two attributes of one qualified name: the element's attribute list decides order and value.
        document.getElementById('first').setAttributeNS('urn:x', 'title', 'again');
      </script>`,
    );
    // A string, not a function: the test runner's transpiler would add helpers the page lacks.
    const reference = `(() => {
      const xp = (el) => {
        const segs = [];
        for (let cur = el; cur; ) {
          const parent = cur.parentNode;
          const same = parent instanceof Element ? [...parent.children].filter((c) => c.localName === cur.localName) : [cur];
          segs.unshift(same.length > 1 ? cur.localName + '[' + (same.indexOf(cur) + 1) + ']' : cur.localName);
          cur = parent instanceof Element ? parent : null;
        }
        return segs.join('/');
      };
      return Object.fromEntries([...document.querySelectorAll('[id]')].map((e) => [e.id, xp(e)]));
    })()`;
    const want = (await page.evaluate(reference)) as Record<string, string>;
    const check = (s: SimplifiedState) => {
      const got = s.actionable_elements.filter((e) => e.attributes['id']).map((e) => [e.attributes['id'], e.xpath]);
      expect(got.length).to.be.greaterThan(5);
      expect(got).to.deep.equal(got.map(([id]) => [id, want[id as string]]));
    };
    const all = await state({ viewport_expansion: -1 });
    check(all);
    expect(all.actionable_elements.map((e) => e.attributes['id'])).to.include.members([
      'only',
      'first',
      'second',
      'late',
      'w0',
      'w8',
      'li2',
      'r0',
      'r79',
    ]);
    const first = all.actionable_elements.find((e) => e.attributes['id'] === 'first') as ActionableElement;
    expect(Object.entries(first.attributes)).to.deep.equal([
      ['id', 'first'],
      ['title', 'again'],
      ['name', 'n'],
      ['type', 'button'],
    ]);
    check(await state());
    await page.evaluate(() => document.getElementById('r40')!.scrollIntoView({ block: 'start' }));
    const mid = await state();
    expect(mid.actionable_elements[0]?.attributes['id']).to.equal('r40');
    check(mid);
  });

  it('keeps refs stable across re-renders, marks new elements and rejects stale refs', async () => {
    await open(
      '/spa',
      `
      <nav><button id="keep">Keep</button></nav>
      <main id="app"></main>
      <script>
        let n = 0;
        function render() {
          n++;
          document.getElementById('app').innerHTML = '<h2>Page ' + n + '</h2><button onclick="render()">Next</button><a href="#i' + n + '">Item ' + n + '</a>';
        }
        render();
      </script>`,
    );
    const s1 = await state();
    expect(s1.actionable_elements.map((e) => [e.id, e.name, e.is_new ?? false])).to.deep.equal([
      ['e1', 'Keep', false],
      ['e2', 'Next', false],
      ['e3', 'Item 1', false],
    ]);
    const r = await agent.call('click', { element_id: 'e2' }, { tabId: t.tabId });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    const s2 = r.new_simplified_state as SimplifiedState;
    expect(s2.actionable_elements.map((e) => [e.id, e.name, e.is_new ?? false])).to.deep.equal([
      ['e1', 'Keep', false],
      ['e4', 'Next', true],
      ['e5', 'Item 2', true],
    ]);
    const stale = await agent.call('click', { element_id: 'e3' }, { tabId: t.tabId });
    expect(stale.status).to.equal('error');
    expect(stale.error_info?.error_code).to.equal('TARGET_ELEMENT_NOT_FOUND');
    expect(stale.error_info?.details?.['reason']).to.equal('stale');
    expect(stale.error_info?.message).to.match(/stale/i);
    expect(await page.$eval('h2', (el) => el.textContent), 'a stale ref never resolves to another element').to.equal('Page 2');
    const s3 = await state();
    expect(s3.actionable_elements.map((e) => [e.id, e.is_new ?? false])).to.deep.equal([
      ['e1', false],
      ['e4', false],
      ['e5', false],
    ]);
    // index targets the latest state's element (an index names an element of the last state taken): index 2 is "Next" (e4).
    const byIndex = await agent.call('click', { index: 2 }, { tabId: t.tabId });
    expect(byIndex.status, JSON.stringify(byIndex.error_info)).to.equal('success');
    expect(await page.$eval('h2', (el) => el.textContent)).to.equal('Page 3');
  });

  it('keeps a 5,000-row table bounded: viewport rows by default, everything on request, truncation reported', async () => {
    await open(
      '/table',
      `<table><tbody id="tb"></tbody></table><script>
      const rows = [];
      for (let i = 1; i <= 5000; i++) rows.push('<tr><td>Row ' + i + '</td><td><a href="/r/' + i + '">Open ' + i + '</a></td><td><button>Delete ' + i + '</button></td></tr>');
      document.getElementById('tb').innerHTML = rows.join('');
    </script>`,
    );
    const s = await state();
    const n = s.actionable_elements.length;
    expect(n).to.be.within(20, 80);
    expect(s.actionable_elements[0]?.name).to.equal('Open 1');
    expect(s.actionable_elements[1]?.name).to.equal('Delete 1');
    expect(s.truncation).to.equal(undefined);
    await page.evaluate(() => document.querySelectorAll('tr')[2499]!.scrollIntoView({ block: 'start' }));
    const mid = await state();
    expect(mid.actionable_elements[0]?.name).to.equal('Open 2500');
    expect(mid.actionable_elements.length).to.be.within(20, 80);
    expect(mid.text_context?.[0]).to.deep.equal({ text: 'Row 2500', role: 'row', after_index: 0 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const all = await state({ viewport_expansion: -1, max_elements: 20000, max_text_chars: 200000 });
    expect(all.actionable_elements.length).to.equal(10000);
    expect(all.actionable_elements[9999]?.name).to.equal('Delete 5000');
    expect(all.actionable_elements[9999]?.xpath).to.equal('html/body/table/tbody/tr[5000]/td[3]/button');
    expect(all.text_context?.length).to.equal(5000);
    const capped = await state({ viewport_expansion: -1 });
    expect(capped.actionable_elements.length).to.equal(1500);
    expect(capped.truncation?.elements_cut).to.equal(true);
    expect(capped.truncation?.elements_omitted).to.equal(8500);
    expect(capped.truncation?.message).to.match(/max_elements/);
  });

  it('never lets password values leave the page and redacts card, one-time-code and (on request) PII', async () => {
    await open(
      '/private',
      `
      <label>Password <input type="password" value="hunter2-secret"></label>
      <label>Card <input autocomplete="cc-number" value="4111111111111111"></label>
      <label>Code <input autocomplete="one-time-code" value="934512"></label>
      <label>Empty card <input autocomplete="cc-csc"></label>
      <label>Note <input value="mail ada@example.org or +1 (555) 010-2233"></label>
      <p>Contact bob@example.com</p>`,
    );
    const s = await state({ include_dom_tree: true });
    const raw = JSON.stringify(s);
    for (const secret of ['hunter2-secret', '4111111111111111', '934512']) expect(raw, secret).to.not.include(secret);
    expect(s.actionable_elements.map((e) => [e.name, e.current_value ?? null, e.redacted ?? null])).to.deep.equal([
      ['Password', null, { reason: 'password', has_value: true }],
      ['Card', null, { reason: 'payment_card', has_value: true }],
      ['Code', null, { reason: 'one_time_code', has_value: true }],
      ['Empty card', null, { reason: 'payment_card', has_value: false }],
      ['Note', 'mail ada@example.org or +1 (555) 010-2233', null],
    ]);
    expect(byName(s, 'Password').attributes['value']).to.equal('[redacted:password]');
    expect(renderAriaTree(s)).to.include('- textbox "Password" [ref=e1]: [redacted:password]');
    const shown = await state({ redact_card_and_otp: false, redact_pii: true });
    expect(JSON.stringify(shown)).to.not.include('hunter2-secret');
    expect(byName(shown, 'Card').current_value).to.equal('4111111111111111');
    expect(byName(shown, 'Note').current_value).to.equal('mail [email] or [phone]');
    expect(byName(shown, 'Note').redacted).to.deep.equal({ reason: 'pii', has_value: true, kinds: ['email', 'phone'] });
    expect(shown.text_context?.find((t) => t.text.startsWith('Contact'))).to.deep.equal({
      text: 'Contact [email]',
      role: 'paragraph',
      after_index: 5,
      redacted: true,
    });
  });

  // The walk answers most elements by tag before the full rules (privacy.ts: only fields and
  // elements with autocomplete can be secret; classify.ts: disabled/readonly/required are form
  // control properties; whitespace with nothing to collapse is kept as is): each case here sits on
  // the other side of one of those shortcuts and must still get the full rule's answer.
  it('gives elements beside the shortcuts the full answer: autocomplete on a non-field, ARIA states, whitespace to collapse', async () => {
    await open(
      '/shortcuts',
      `
      <label>Expiry month <select autocomplete="cc-exp-month"><option>01</option><option selected>02</option></select></label>
      <div role="textbox" contenteditable="true" autocomplete="one-time-code" aria-label="Code box">123456</div>
      <div role="checkbox" tabindex="0" aria-checked="false" aria-disabled="true" aria-readonly="true" aria-required="true">Agree</div>
      <fieldset disabled><button>In a disabled fieldset</button><input aria-label="Read only" readonly required></fieldset>
      <p>Tab\tonly</p><p>Line\nbreak only</p><p>Non&nbsp;breaking only</p><p>Two  spaces only</p>
      <a href="#x">Link\twith&nbsp;tab</a>`,
    );
    const s = await state({ viewport_expansion: -1 });
    expect(s.actionable_elements.map((e) => [e.role, e.name, e.states ?? {}, e.current_value ?? null, e.redacted ?? null])).to.deep.equal([
      ['combobox', 'Expiry month', {}, null, { reason: 'payment_card', has_value: true }],
      ['textbox', 'Code box', {}, null, { reason: 'one_time_code', has_value: false }],
      ['checkbox', 'Agree', { checked: false, disabled: true, readonly: true, required: true }, null, null],
      ['button', 'In a disabled fieldset', { disabled: true }, null, null],
      ['textbox', 'Read only', { disabled: true, readonly: true, required: true }, '', null],
      ['link', 'Link with\u00a0tab', {}, null, null],
    ]);
    expect(byName(s, 'Link with\u00a0tab').text_content).to.equal('Link with tab');
    expect(s.text_context?.map((x) => x.text)).to.include.members(['Tab only', 'Line break only', 'Non breaking only', 'Two spaces only']);
  });

  it("keeps a closed dropdown's options out of the state (its line shows the selected one); a list box keeps its options", async () => {
    await open(
      '/closed-select',
      `<p>Pick a size</p>
      <select aria-label="Size"><option value="a">Alpha</option><option value="b" selected>Beta</option><option value="c">Gamma</option></select>
      <div style="cursor:pointer" onclick="">Wrap <select aria-label="Inner"><option>Delta</option><option>Epsilon</option></select></div>
      <select aria-label="Colour" size="3"><option>Red</option><option selected>Green</option></select>`,
    );
    for (const params of [{ viewport_expansion: -1 }, {}] as GetStateParams[]) {
      const s = await state(params);
      const seen =
        JSON.stringify({ elements: s.actionable_elements, text: s.text_context ?? [] }) + renderAriaTree(s) + renderBrowserUse(s);
      for (const hidden of ['Alpha', 'Gamma', 'Epsilon'])
        expect(seen, `${hidden} (an option of a closed dropdown) in the state with ${JSON.stringify(params)}`).to.not.include(hidden);
      const size = byName(s, 'Size');
      expect(size.current_value).to.equal('b');
      expect(size.text_content, 'the dropdown shows its selected option').to.equal('Beta');
      expect(byName(s, 'Inner').text_content).to.equal('Delta');
      expect(roleName(s).filter(([role]) => role === 'option')).to.deep.equal([
        ['option', 'Red'],
        ['option', 'Green'],
      ]);
      expect(renderAriaTree(s)).to.include('- combobox "Size" [ref=');
    }
  });

  it('renders one state three ways and builds the dom_tree browser_use needs', async () => {
    await open(
      '/render',
      `<h1>Sign in</h1><p>Welcome back</p><form>
      <label>Email <input name="email" placeholder="you@example.org" value="ada@example.org"></label>
      <button type="submit" aria-label="Sign in now">Sign in</button>
      <a href="/help?x=1">Help</a></form>`,
      'Sign in',
    );
    const s = await state({ include_dom_tree: true });
    expect(renderAriaTree(s)).to.equal(
      [
        '- heading "Sign in" [level=1]',
        'Welcome back',
        '- textbox "Email" [ref=e1]: ada@example.org',
        '- button "Sign in now" [ref=e2]',
        '- link "Help" [ref=e3]',
      ].join('\n'),
    );
    expect(renderBrowsingContext(s)).to.equal(
      [
        '<browsing_context>',
        '[Target Update]',
        `URL: ${h.fixtures.url('/render')}`,
        '',
        'Interactive Elements:',
        '<input id="1" label="Email" placeholder="you@example.org" value="ada@example.org">',
        '<button id="2" type="submit" label="Sign in now">Sign in</button>',
        '<a id="3" href="/help" label="Help">Help</a>',
        '</browsing_context>',
      ].join('\n'),
    );
    expect(renderBrowserUse(s)).to.equal(
      [
        'Sign in',
        'Welcome back',
        '[0]<label >Email />',
        "\t[1]<input name='email' placeholder='you@example.org' value='ada@example.org' />",
        "[2]<button type='submit' aria-label='Sign in now'>Sign in />",
        '[3]<a >Help />',
      ].join('\n'),
    );
    const tree = s.dom_tree;
    expect(tree && tree.kind === 'element' && tree.tag).to.equal('body');
    expect(tree && tree.kind === 'element' && tree.xpath).to.equal('/body');
  });
});
