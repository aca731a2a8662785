// Forms, scrolling, reading and waiting: select_option / get_dropdown_options (browser_use's text),
// scroll / scroll_to / scroll_into_view / scroll_to_text, get, is, extract_content, wait_for.
import { expect } from 'chai';

import { FixtureServer } from '../harness/fixture-server';
import { type Harness, useHarness } from '../harness/harness';
import { EVENT_LOG, open, quietSettle } from './actions.helpers';

const SELECTS = `<select id="country"><option value="">Choose…</option><option value="de">Germany</option><option value="fr" disabled>France</option><option value="jp">日本 "Japan"</option></select>
  <select id="multi" multiple size="4"><option value="a">Alpha</option><option value="b">Beta</option><option value="c" label="Gamma label">Gamma</option></select>
  <div id="lb" role="listbox" aria-label="Fruit"><div role="option" data-value="apple" aria-selected="false" onclick="this.setAttribute('aria-selected','true')">Apple</div><div role="option" aria-selected="false" onclick="this.setAttribute('aria-selected','true')">Pear</div></div>`;

describe('e2e actions: forms, scrolling, reading, waiting', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: quietSettle });

  it("get_dropdown_options answers browser_use's exact text plus structured options", async () => {
    const o = await open(h, SELECTS);
    const r = await o.call('get_dropdown_options', { element_id: await o.id('country') });
    const result = r.outcome_details?.result as { options: unknown[]; formatted: string };
    const expected =
      '0: text="Choose\\u2026"\n1: text="Germany"\n2: text="France"\n3: text="\\u65e5\\u672c \\"Japan\\""\nUse the exact text string in select_dropdown_option';
    expect(result.formatted).to.equal(expected);
    expect(r.outcome_details?.message).to.equal(expected);
    expect(result.options[2]).to.deep.equal({ index: 2, text: 'France', value: 'fr', selected: false, disabled: true });
    const lb = await o.ok('get_dropdown_options', { role: 'listbox', name: 'Fruit' });
    expect((lb['options'] as { value: string }[]).map((x) => x.value)).to.deep.equal(['apple', 'Pear']);
    const notSelect = await o.fails('get_dropdown_options', { selector: '#multi option' }, 'AMBIGUOUS_TARGET');
    expect(notSelect.details).to.have.property('candidates');
  });

  it('select_option by label or value fires input and change; multiple selects take several', async () => {
    const o = await open(h, `${SELECTS}${EVENT_LOG.script}`);
    let r = await o.ok('select_option', { selector: '#country', labels: ['日本 "Japan"'] });
    expect(r).to.deep.include({ values: ['jp'], labels: ['日本 "Japan"'] });
    expect((await EVENT_LOG.read(o)).filter((e) => e === 'input:country' || e === 'change:country')).to.deep.equal([
      'input:country',
      'change:country',
    ]);
    r = await o.ok('select_option', { selector: '#country', values: ['de'] });
    expect(r['values']).to.deep.equal(['de']);
    r = await o.ok('select_option', { selector: '#multi', labels: ['alpha', 'Gamma label'] });
    expect(r['values']).to.deep.equal(['a', 'c']);
    r = await o.ok('select_option', { role: 'listbox', name: 'Fruit', labels: ['Pear'] });
    expect(r['values']).to.deep.equal(['Pear']);
    expect(await o.eval('document.querySelectorAll("#lb [aria-selected=true]").length')).to.equal(1);
  });

  it('select_option with a missing option is OPTION_NOT_FOUND listing the options; a disabled one is OPTION_DISABLED', async () => {
    const o = await open(h, SELECTS);
    const err = await o.fails('select_option', { selector: '#country', labels: ['Spain'] }, 'OPTION_NOT_FOUND');
    const d = err.details as { requested: string; options: { text: string; value: string }[] };
    expect(d.requested).to.equal('Spain');
    expect(d.options.map((x) => x.value)).to.deep.equal(['', 'de', 'fr', 'jp']);
    expect(err.message).to.match(/Germany/);
    await o.fails('select_option', { selector: '#country', values: ['fr'] }, 'OPTION_DISABLED');
    expect(await o.eval('document.getElementById("country").value')).to.equal('');
  });

  it('scroll by pages and pixels, of the page and of a scrollable element; scroll_to; reports the end', async () => {
    const o = await open(
      h,
      `<div style="height:5000px">tall</div><div id="box" style="height:100px;overflow:auto"><div style="height:1000px">inner</div></div>`,
    );
    const vh = await o.eval<number>('innerHeight');
    let r = await o.ok('scroll', {});
    expect(r).to.include({ scroll_y: vh, moved: true });
    const second = await o.call('scroll', {});
    expect(second.outcome_details?.message).to.equal('🔍  Scrolled down the page by one page');
    r = await o.ok('scroll', { direction: 'up', amount: 100 });
    expect(r['scroll_y']).to.equal(vh * 2 - 100);
    r = await o.ok('scroll_to', { x: 0, y: 0 });
    expect(r).to.deep.equal({ scroll_x: 0, scroll_y: 0 });
    r = await o.ok('scroll', { direction: 'up' });
    expect(r['moved']).to.equal(false);
    r = await o.ok('scroll', { selector: '#box', pages: 2 });
    expect(r).to.include({ scroll_y: 200, moved: true });
    expect(await o.eval('scrollY')).to.equal(0, 'scrolling an element leaves the page alone');
    const m = await o.call('scroll', { amount: 50 });
    expect(m.outcome_details?.message).to.equal('🔍  Scrolled down the page by 50 pixels');
  });

  it('scroll on an app-like page whose window cannot scroll scrolls the container under the viewport centre', async () => {
    const o = await open(
      h,
      `<style>html,body{height:100%;margin:0;overflow:hidden}</style><main id="app" style="height:100%;overflow-y:auto"><div style="height:4000px">feed</div></main>`,
    );
    const r = await o.ok('scroll', { amount: 300 });
    expect(r).to.include({ scroll_y: 300, moved: true });
    expect(r['element_id']).to.match(/^e\d+$/);
    expect(await o.eval('document.getElementById("app").scrollTop')).to.equal(300);
  });

  it('scroll_into_view and scroll_to_text (browser_use messages, not found is a success)', async () => {
    const o = await open(
      h,
      `<div style="height:3000px">top</div><p id="far">The <b>hidden treasure</b> is here</p><div style="height:3000px"></div>`,
    );
    let r = await o.ok('scroll_into_view', { selector: '#far' });
    expect(r['in_viewport']).to.equal(true);
    await o.ok('scroll_to', { y: 0 });
    const res = await o.call('scroll_to_text', { text: 'HIDDEN treasure' });
    expect(res.outcome_details?.message).to.equal('🔍  Scrolled to text: HIDDEN treasure');
    expect(
      await o.eval(
        '(() => { const r = document.getElementById("far").getBoundingClientRect(); return r.top > 0 && r.bottom < innerHeight; })()',
      ),
    ).to.equal(true);
    const miss = await o.call('scroll_to_text', { text: 'nowhere to be found' });
    expect(miss.status).to.equal('success');
    expect(miss.outcome_details?.message).to.equal("Text 'nowhere to be found' not found or not visible on page");
    r = miss.outcome_details?.result as Record<string, unknown>;
    expect(r['found']).to.equal(false);
  });

  it('get: text, value, attribute, html, title, url, count; password values are refused', async () => {
    const o = await open(
      h,
      `<p id="p" data-x="1">Hello <b>there</b></p><input id="i" value="v1"><input id="pw" type="password" value="secret"><li>a</li><li>b</li><li style="display:none">c</li>`,
      'Read me',
    );
    expect((await o.ok('get', { what: 'text', selector: '#p' }))['value']).to.equal('Hello there');
    expect((await o.ok('get', { what: 'value', element_id: await o.id('i') }))['value']).to.equal('v1');
    expect((await o.ok('get', { what: 'attribute', selector: '#p', attribute: 'data-x' }))['value']).to.equal('1');
    expect((await o.ok('get', { what: 'attribute', selector: '#p', attribute: 'nope' }))['value']).to.equal(null);
    expect((await o.ok('get', { what: 'html', selector: '#p' }))['value']).to.equal('<p id="p" data-x="1">Hello <b>there</b></p>');
    expect((await o.ok('get', { what: 'title' }))['value']).to.equal('Read me');
    expect((await o.ok('get', { what: 'url' }))['value']).to.equal(o.page.url());
    expect((await o.ok('get', { what: 'count', selector: 'li' }))['value']).to.equal(3);
    expect((await o.ok('get', { what: 'count', role: 'listitem' }))['value']).to.equal(2, 'role counts skip hidden elements');
    await o.fails('get', { what: 'value', selector: '#pw' }, 'NOT_PERMITTED');
    await o.fails('get', { what: 'text' }, 'INVALID_MESSAGE');
  });

  it('is: visible, enabled, checked, editable, focused', async () => {
    const o = await open(
      h,
      `<button id="b">b</button><button id="h" style="visibility:hidden">h</button><input id="d" disabled><input id="c" type="checkbox" checked><input id="ro" readonly><input id="t" autofocus>`,
    );
    const is = async (what: 'visible' | 'enabled' | 'checked' | 'editable' | 'focused', selector: string) =>
      (await o.ok('is', { what, selector }))['value'];
    expect(await is('visible', '#b')).to.equal(true);
    expect(await is('visible', '#h')).to.equal(false);
    expect(await is('visible', '#missing')).to.equal(false);
    expect(await is('enabled', '#d')).to.equal(false);
    expect(await is('enabled', '#b')).to.equal(true);
    expect(await is('checked', '#c')).to.equal(true);
    expect(await is('editable', '#ro')).to.equal(false);
    expect(await is('editable', '#t')).to.equal(true);
    await o.ok('focus', { selector: '#t' });
    expect(await is('focused', '#t')).to.equal(true);
    expect(await is('focused', '#b')).to.equal(false);
    await o.fails('is', { what: 'checked', selector: '#b' }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    await o.fails('is', { what: 'enabled', selector: '#missing' }, 'TARGET_ELEMENT_NOT_FOUND');
  });

  it('extract_content: markdown-ish text of the page and its iframe, hidden parts skipped, links kept or stripped', async () => {
    h.fixtures.html('/extract-inner', '<p>Frame says hi</p>');
    const o = await open(
      h,
      `<h1>Shop</h1><p>Welcome to <a href="/deals">our deals</a>.</p><ul><li>Apples</li><li>Pears</li></ul><div style="display:none">secret stuff</div><script>var x = "no"</script>
      <table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>3</td></tr></table><iframe src="/extract-inner" style="width:200px;height:80px"></iframe>`,
      'Shop page',
    );
    const inner = await o.page.waitForFrame((f) => f.url().endsWith('/extract-inner'));
    await inner.waitForSelector('p');
    const r = await o.ok('extract_content', {});
    const text = r['text'] as string;
    expect(text).to.match(/^# Shop page/);
    expect(text).to.include('# Shop');
    expect(text).to.include(`[our deals](${h.fixtures.url('/deals')})`);
    expect(text).to.include('- Apples\n- Pears');
    expect(text).to.include('| Tea | 3 |');
    expect(text).to.not.include('secret stuff');
    expect(text).to.not.include('var x');
    expect(text, text).to.include(`IFRAME ${h.fixtures.url('/extract-inner')}:\nFrame says hi`);
    const stripped = await o.ok('extract_content', { include_links: false });
    expect(stripped['text']).to.include('Welcome to our deals.');
    const cut = await o.ok('extract_content', { max_chars: 100 });
    expect(cut).to.include({ truncated: true });
    expect((cut['text'] as string).length).to.equal(100);
  });

  it('extract_content reaches cross-origin iframes too', async () => {
    const other = await new FixtureServer(undefined, 'localhost').start(0);
    try {
      const frameUrl = other.html('/cross-inner', '<p>Cross-origin frame says hi</p>');
      const o = await open(h, `<h1>Host</h1><iframe src="${frameUrl}" style="width:200px;height:80px"></iframe>`, 'Host page');
      const inner = await o.page.waitForFrame((f) => f.url() === frameUrl);
      await inner.waitForSelector('p');
      const r = await o.ok('extract_content', {});
      expect(r['text'], String(r['text'])).to.include(`IFRAME ${frameUrl}:\nCross-origin frame says hi`);
      expect(r['frames']).to.equal(2);
    } finally {
      await other.close();
    }
  });

  it('wait_for: text and elements appearing and going, TIMEOUT otherwise', async () => {
    const o = await open(
      h,
      `<div id="spinner">Loading…</div><script>setTimeout(() => { document.getElementById('spinner').remove(); document.body.insertAdjacentHTML('beforeend', '<p id="done">Results ready</p>'); }, 400)</script>`,
    );
    let r = await o.ok('wait_for', { text: 'results ready', timeout_ms: 5000 });
    expect(r['waited_ms']).to.be.a('number');
    r = await o.ok('wait_for', { selector: '#spinner', state: 'detached' });
    r = await o.ok('wait_for', { selector: '#done', state: 'visible' });
    expect(r['element_id']).to.match(/^e\d+$/);
    const err = await o.fails('wait_for', { role: 'button', name: 'Never', timeout_ms: 200 }, 'TIMEOUT');
    expect(err.message).to.match(/did not become visible within 200 ms/);
    await o.fails('wait_for', { timeout_ms: 100 }, 'INVALID_MESSAGE');
  });
});
