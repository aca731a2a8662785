// Accessible names and roles (accname 1.2, html-aam, core-aam) of the content script's own
// computation (extension/src/content/snapshot/{accname,roles}.ts, bundled as the extension bundles
// it) in real Chromium, on cases written from the WPT accname/html-aam rules (accname.cases.ts).
// Oracle: the spec value of each case AND Chromium's own accessibility tree (CDP
// Accessibility.getPartialAXTree); where Chromium deviates from the spec the case records it and we
// follow the spec. A second part checks the same computation end to end through get_state.
import path from 'node:path';

import { expect } from 'chai';
import { build } from 'esbuild';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

import type { SimplifiedState } from '../../schemas/generated/protocol';
import { CHROMIUM_PATH, REPO_ROOT } from '../harness/browser';
import { FixtureServer } from '../harness/fixture-server';
import { type Harness, startHarness } from '../harness/harness';
import { NAME_CASES } from './accname.cases';
import { quietSettle } from './actions.helpers';

/** Chromium's internal role names (CDP) -> ARIA role names, where they differ. */
const CHROMIUM_ROLE: Record<string, string> = {
  image: 'img',
  none: 'presentation',
  LabelText: 'label',
  ListBoxOption: 'option',
  // <summary>: HTML-AAM maps it to a button where the platform has no disclosure role.
  DisclosureTriangle: 'button',
  MenuListPopup: 'listbox',
  DescriptionListTerm: 'term',
  DescriptionListDetail: 'definition',
  contentinfo: 'contentinfo',
  Section: 'region',
  sectionfooter: 'generic',
  sectionheader: 'generic',
  SectionFooter: 'generic',
  SectionHeader: 'generic',
  term: 'term',
  definition: 'definition',
};

async function bundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `import { accessibleName } from './accname'; import { roleOf } from './roles'; window.__bux = { accessibleName, roleOf };`,
      resolveDir: path.join(REPO_ROOT, 'extension/src/content/snapshot'),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome120',
  });
  return out.outputFiles[0]!.text;
}

async function chromiumName(page: Page): Promise<{ name: string; role: string }> {
  const cdp = await page.createCDPSession();
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: { nodeId: number } };
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#test' });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const node = nodes.find((n) => !n.ignored) ?? nodes[0];
    const role = String(node?.role?.value ?? '');
    // Trimmed, as WPT's harness trims the computed label (Chromium keeps an aria-label's outer spaces).
    return { name: String(node?.name?.value ?? '').trim(), role: CHROMIUM_ROLE[role] ?? role };
  } finally {
    await cdp.detach();
  }
}

describe('accessible names and roles (WPT-derived cases, Chromium as oracle)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let page: Page;
  let code: string;
  before(async () => {
    code = await bundle();
    browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
  });
  const tally = { cases: 0, spec: 0, chromium: 0 };
  after(async () => {
    await browser?.close();
    // The counts README "Names and roles" quotes.
    console.log(`      accname: ${tally.cases} cases; ours agrees with the spec on ${tally.spec}, with Chromium on ${tally.chromium}`);
  });

  for (const c of NAME_CASES) {
    it(c.title, async () => {
      await page.setContent(`<!doctype html><html><body>${c.html}</body></html>`);
      await page.addScriptTag({ content: code });
      const ours = await page.evaluate(() => {
        const el = document.getElementById('test') as Element;
        const w = window as unknown as { __bux: { accessibleName(e: Element): string; roleOf(e: Element): string } };
        return { name: w.__bux.accessibleName(el), role: w.__bux.roleOf(el) };
      });
      const chromium = await chromiumName(page);
      tally.cases++;
      if (ours.name === c.name) tally.spec++;
      if (ours.name === chromium.name) tally.chromium++;
      const expected = c.follow === 'chromium' ? (c.chromium as string) : c.name;
      expect(ours.name, `our name (spec: ${JSON.stringify(c.name)}, Chromium: ${JSON.stringify(chromium.name)})`).to.equal(expected);
      if (c.chromium === undefined) expect(chromium.name, 'Chromium agrees with the spec on this case').to.equal(c.name);
      else expect(chromium.name, 'Chromium still deviates as recorded').to.equal(c.chromium);
      if (c.role) {
        expect(ours.role, `our role (Chromium: ${chromium.role})`).to.equal(c.role);
        if (process.env['BUX_PRINT_ROLES']) console.log(`${c.role}\t${chromium.role}`);
        expect(chromium.role, 'Chromium role (mapped to ARIA names)').to.equal(c.role);
      }
    });
  }
});

describe('e2e: names, options, zero-size links and display:contents buttons in get_state', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await quietSettle(h);
  });
  after(async () => {
    await h?.close();
  });

  it('lists <option>s of a listbox select, a zero-size link with visible content, a display:contents button, self-labelled and decorated controls, named per spec', async () => {
    const url = h.fixtures.html(
      '/accname-state',
      `
      <style>.ic::before{content:"Edit"}</style>
      <select id="sel" size="3" aria-label="Colour"><option id="o1">Red</option><option id="o2" label="Grn">Green</option></select>
      <a id="zero" href="/x" style="display:inline-block;width:0;height:0"><span style="position:absolute">Float link</span></a>
      <div style="display:contents"><button id="contents" style="display:contents">Contents button</button></div>
      <button id="pseudo"><span class="ic"></span></button>
      <button id="pres" role="presentation">Conflict</button>
      <input type="image" id="img" src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==" style="width:20px;height:20px">
      <span id="nl">Name</span><input id="selfref" aria-labelledby="nl selfref" value="Ada">
      <button id="deco"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==" alt="" title="tip">Print</button>
      <label><input type="checkbox" id="withmenu"> Pick <span role="menu"><span role="menuitem">A</span></span> one</label>
      <span id="cl">Card</span><input id="selfcard" name="card-number" aria-labelledby="cl selfcard" value="4111111111111111">
      <span id="pl">Secret</span><input id="selfpw" type="password" aria-labelledby="pl selfpw" value="hunter2">`,
      'Names',
    );
    await h.openPage(url);
    const agent = await h.connectAgent();
    const r = await agent.call('get_state', { viewport_expansion: -1 });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    const s = r.new_simplified_state as SimplifiedState;
    const by = (id: string) => s.actionable_elements.find((e) => e.attributes['id'] === id);
    expect(by('o1'), 'option listed').to.deep.include({ role: 'option', name: 'Red' });
    expect(by('o2'), 'option listed').to.deep.include({ role: 'option', name: 'Grn' });
    expect(by('zero'), 'zero-size link with visible content listed').to.deep.include({ role: 'link', name: 'Float link' });
    expect(by('contents'), 'display:contents button listed').to.deep.include({ role: 'button', name: 'Contents button' });
    expect(by('pseudo')).to.deep.include({ name: 'Edit' });
    expect(by('pres')).to.deep.include({ role: 'button', name: 'Conflict' });
    expect(by('img')).to.deep.include({ role: 'button', name: 'Submit' });
    expect(by('selfref'), 'a textbox labelled by itself adds its value').to.deep.include({ role: 'textbox', name: 'Name Ada' });
    expect(by('deco'), "a decorative image's title is no part of the name").to.deep.include({ role: 'button', name: 'Print' });
    expect(by('withmenu'), 'a menu inside a label is not words of it').to.deep.include({ role: 'checkbox', name: 'Pick one' });
    // A secret field labelled by itself never puts its value in its name (Chromium would announce the password's bullets).
    expect(by('selfcard')?.name).to.equal('Card');
    expect(by('selfpw')?.name).to.equal('Secret');
    expect(JSON.stringify(s)).to.not.include('4111111111111111').and.not.include('hunter2');
    const click = await agent.call('click', { element_id: by('contents')!.id }, { tabId: s.tab_id });
    expect(click.status, JSON.stringify(click.error_info)).to.equal('success');
    await agent.close();
  });

  it('takes ::before/::after content from imported sheets, and from cross-origin sheets the worker fetches once, without cookies', async () => {
    // The pseudo-element selectors are read from the page's style sheets so that only the elements
    // they match have their generated content read. An @import was skipped (a same-origin page
    // lost "Go"), and a cross-origin sheet hides its rules from the page: the worker fetches the
    // page's own sheets (and what they import) and the names must stay the same as read from
    // every element.
    h.fixtures.route('/names-same.css', { body: '.go::before{content:"Go"}', contentType: 'text/css' });
    const same = h.fixtures.html(
      '/names-import',
      `<style>@import url("/names-same.css");</style><button id="a"><span class="go"></span> Run</button>`,
    );
    const cross = await new FixtureServer(undefined, '127.0.0.2').start(0);
    const fetchedBy = { page: [] as string[], worker: [] as { path: string; cookie: boolean }[] };
    const sheet = (body: string) => (req: import('node:http').IncomingMessage) => {
      const p = (req.url ?? '').split('?')[0] ?? '';
      if (req.headers['sec-fetch-dest'] === 'style') fetchedBy.page.push(p);
      else fetchedBy.worker.push({ path: p, cookie: 'cookie' in req.headers });
      return { body, contentType: 'text/css' };
    };
    cross.route('/site.css', sheet('@import url("/more.css") screen;\n.ic::before { content: "Edit" }\n.plain { color: red }'));
    cross.route('/more.css', sheet('.tail::after { content: "now" }'));
    const page = h.fixtures.html(
      '/names-cross',
      `<link rel="stylesheet" href="${cross.url('/site.css')}">
      <link rel="stylesheet" href="https://static.invalid:1/gone.css">
      <button id="b"><span class="ic"></span></button> <button id="c">Later <span class="tail"></span></button>
      <button id="d" class="plain">Plain</button>`,
    );
    const tab = await h.openPage(same);
    // The person is signed in on the sheets' site: the worker's fetch must still carry no cookie.
    await tab.setCookie({ name: 'sid', value: 'signed-in', domain: '127.0.0.2', path: '/' });
    const agent = await h.connectAgent();
    try {
      const names = async (ids: string[]) => {
        const r = await agent.call('get_state', { viewport_expansion: -1 });
        expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
        const els = r.new_simplified_state?.actionable_elements ?? [];
        return ids.map((id) => els.find((e) => e.attributes['id'] === id)?.name);
      };
      expect(await names(['a']), 'an imported same-origin sheet').to.deep.equal(['Go Run']);

      await tab.goto(page, { waitUntil: 'load' });
      // The first state asks for the sheet and reads every element meanwhile; a later one asks for
      // what it imports; once both are in, states use the fetched rules. Names never change.
      let states = 0;
      for (; states < 50 && fetchedBy.worker.length < 2; states++) {
        expect(await names(['b', 'c', 'd']), `state ${states + 1}`).to.deep.equal(['Edit', 'Later now', 'Plain']);
        await new Promise((r) => setTimeout(r, 100));
      }
      for (let i = 0; i < 3; i++)
        expect(await names(['b', 'c', 'd']), 'with the fetched rules').to.deep.equal(['Edit', 'Later now', 'Plain']);
      expect(fetchedBy.page.sort(), 'the page loaded both sheets').to.deep.equal(['/more.css', '/site.css']);
      expect(fetchedBy.worker.map((w) => w.path).sort(), `the worker fetched each sheet once, over ${states + 3} states`).to.deep.equal([
        '/more.css',
        '/site.css',
      ]);
      for (const w of fetchedBy.worker) expect(w.cookie, `the person's cookie went with the worker's fetch of ${w.path}`).to.equal(false);
    } finally {
      await agent.close();
      await cross.close();
    }
  });
});
