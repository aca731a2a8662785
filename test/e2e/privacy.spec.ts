// The privacy filter against the shapes secrets take on real pages, in Chromium with the built
// extension: a password field a "show password" button switched to text, passwords named only by
// autocomplete or name, a card typed into four boxes, card numbers written with &nbsp;, dots or split
// over inline elements, a GET form that puts the card number in the URL, and fetch/XHR bodies in
// api_activity. No secret may appear in any output an agent gets; ordinary numbers stay readable.
import { expect } from 'chai';

import type { ActionResultMessage, SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { open, type Opened, quietSettle } from './actions.helpers';

const PASSWORDS = ['hunter2-Sekret!', 'hunter3-Other!', 'Xy7-otherpass', 'Wordy-secret9', 'Early-Secret7'];
/** Card numbers on the fixture page (public test numbers), each written in another shape. */
const CARDS = {
  nbsp: '5555555555554444',
  dots: '6011111111111117',
  spans: '4000056655665556',
  getForm: '4111111111111111',
  fetchJson: '3530111333300000',
  xhrForm: '6011000990139424',
};
const CVCS = ['9731', '8642'];

/** The card's four groups with up to 14 other characters between them (</span> <span>, &nbsp;, %20, +). */
const cardPattern = (digits: string) => new RegExp((digits.match(/\d{4}/g) ?? []).join('[^0-9]{0,14}'));

function leaks(outputs: unknown[]): string[] {
  const text = JSON.stringify(outputs);
  const found = PASSWORDS.filter((p) => text.includes(p) || text.includes(encodeURIComponent(p)));
  for (const [shape, digits] of Object.entries(CARDS)) if (cardPattern(digits).test(text)) found.push(`card (${shape})`);
  // A CVC alone, not four digits inside a longer number: timings, tab ids and state ids are numbers
  // that hold any four digits now and then (a received_at of 1796628642117 is no leak).
  for (const cvc of CVCS) if (new RegExp(`(?<![0-9])${cvc}(?![0-9])`).test(text)) found.push(`cvc ${cvc}`);
  return found;
}

/** The strings of browser_use's tree as the Python shim prints them: text nodes in order. */
function treeTexts(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) treeTexts(n, out);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o['kind'] === 'text' && typeof o['text'] === 'string') out.push(o['text']);
    for (const v of Object.values(o)) if (v && typeof v === 'object') treeTexts(v, out);
  }
  return out;
}

const valueOf = (r: ActionResultMessage) => (r.outcome_details?.result as { value?: unknown } | undefined)?.value;

describe('e2e privacy: every shape of secret is masked in every output', function () {
  let h: Harness;
  useHarness((started) => (h = started), {
    fixturesDir: 'test/fixtures/pages',
    prepare: async (started) => {
      await quietSettle(started);
      started.fixtures.route('/privacy-api', { contentType: 'application/json', body: '{"ok":true}' });
    },
  });

  async function openShapes(): Promise<Opened> {
    const o = await open(h, '<p>placeholder</p>');
    await o.page.goto(h.fixtures.url('/privacy-shapes.html'), { waitUntil: 'load' });
    return o;
  }

  it('a password shown as text, a password named by autocomplete or name, and the fill echo stay hidden', async () => {
    const o = await openShapes();
    const outputs: unknown[] = [];
    const pw = await o.id('pw');
    outputs.push(await o.call('fill', { element_id: pw, value: PASSWORDS[0]! }));
    // The page's "show password" button switches the field to type=text.
    outputs.push(await o.call('click', { selector: '#show' }));
    expect(await o.eval('document.getElementById("pw").type')).to.equal('text');
    const st = await o.call('get_state', {});
    outputs.push(st);
    const s = st.new_simplified_state as SimplifiedState;
    for (const id of ['pw', 'ac', 'named', 'early']) {
      const el = s.actionable_elements.find((e) => e.attributes['id'] === id);
      expect(el?.redacted?.reason, id).to.equal('password');
      const v = await o.call('get', { selector: `#${id}`, what: 'value' });
      outputs.push(v);
      expect(v.error_info?.error_code, `${id}: ${JSON.stringify(v.error_info)}`).to.equal('NOT_PERMITTED');
      outputs.push(await o.call('get', { selector: `#${id}`, what: 'attribute', attribute: 'value' }));
    }
    outputs.push(await o.call('get', { selector: '#login', what: 'html' }));
    const refill = await o.call('fill', { selector: '#pw', value: PASSWORDS[1]! });
    expect(refill.status).to.equal('success');
    expect(refill.outcome_details?.message).to.match(/password, not shown/);
    outputs.push(refill);
    outputs.push(await o.call('get_state', { include_dom_tree: true }));
    outputs.push(await o.call('extract_content', {}));
    expect(leaks(outputs)).to.deep.equal([]);
    await o.page.close();
  });

  it('card numbers with &nbsp;, dots, split over spans or over four boxes never show; ordinary numbers do', async () => {
    const o = await openShapes();
    const outputs: unknown[] = [];
    for (const [i, id] of ['b1', 'b2', 'b3', 'b4'].entries()) {
      const r = await o.call('fill', { selector: `#${id}`, value: '4242' });
      expect(r.status).to.equal('success');
      expect(r.outcome_details?.message, `box ${i + 1}`).to.not.include('4242');
      expect((r.outcome_details?.result as { value?: string }).value, `box ${i + 1}`).to.equal(undefined);
    }
    // Four boxes no label names: the values together are a card number.
    for (const [i, id] of ['n1', 'n2', 'n3', 'n4'].entries())
      await o.call('fill', { selector: `#${id}`, value: ['5105', '1051', '0510', '5100'][i]! });
    const st = await o.call('get_state', {});
    outputs.push(st);
    const s = st.new_simplified_state as SimplifiedState;
    for (const id of ['b1', 'b2', 'b3', 'b4', 'n1', 'n2', 'n3', 'n4']) {
      const el = s.actionable_elements.find((e) => e.attributes['id'] === id);
      expect(el?.redacted?.reason, id).to.equal('payment_card');
      expect(valueOf(await o.call('get', { selector: `#${id}`, what: 'value' })), id).to.equal('[redacted:payment_card]');
    }
    const tree = await o.call('get_state', { include_dom_tree: true });
    outputs.push(tree);
    // The shim's prompt joins the tree's text nodes: the spans must not form the number there.
    const shimText = treeTexts(tree.new_simplified_state).join(' ');
    outputs.push(shimText);
    expect(shimText).to.include('Paid with');
    for (const sel of ['#nbsp', '#dots', '#spans', '#boxes', '#plainboxes', 'body']) {
      outputs.push(await o.call('get', { selector: sel, what: 'html' }));
      outputs.push(await o.call('get', { selector: sel, what: 'text' }));
    }
    for (const span of [1, 2, 3, 4]) {
      outputs.push(await o.call('get', { selector: `#spans span:nth-of-type(${span})`, what: 'html' }));
      // One span alone holds a part of the number: still masked, so four reads cannot rebuild it.
      const part = await o.call('get', { selector: `#spans span:nth-of-type(${span})`, what: 'text' });
      expect(valueOf(part), `span ${span}`).to.equal('[redacted:payment_card]');
    }
    const extracted = await o.call('extract_content', {});
    outputs.push(extracted);
    expect(leaks(outputs)).to.deep.equal([]);
    expect(JSON.stringify(outputs).includes('5105') && JSON.stringify(outputs).includes('5100')).to.equal(false);
    // Not everything is hidden: the cardholder's name under a "Credit card details" legend, an order
    // id, a phone number, a date and a price read as they are.
    expect(valueOf(await o.call('get', { selector: '#holder', what: 'value' }))).to.equal('Ada Lovelace');
    const plain = JSON.stringify([st, extracted]);
    for (const x of ['1234-5678-9012-3456', '+1 555 010 2233', '2026-11-26', '1,234.56']) expect(plain, x).to.include(x);
    await o.page.close();
  });

  it('fetch/XHR bodies in api_activity: passwords, card numbers and CVCs masked (JSON and form-encoded)', async () => {
    const o = await openShapes();
    await o.call('fill', { selector: '#pw', value: PASSWORDS[0]! });
    const click = await o.call('click', { selector: '#api' });
    expect(click.status).to.equal('success');
    await o.page.waitForNetworkIdle({ idleTime: 200 });
    const st = await o.call('get_state', {});
    const activity = [...(click.outcome_details?.api_activity ?? []), ...(st.outcome_details?.api_activity ?? [])];
    const bodies = activity.filter((a) => a.url.includes('/privacy-api')).map((a) => a.body);
    expect(bodies, JSON.stringify(activity)).to.have.length(2);
    expect(leaks([click, st])).to.deep.equal([]);
    // What is not secret stays readable, so the agent still sees what the page sent.
    expect(bodies.join('\n'))
      .to.include('"login":"ada"')
      .and.include('"password":"[redacted:password]"')
      .and.include('pass=[redacted:password]');
    await o.page.close();
  });

  it('a GET form that puts the card number in the URL: state url, get url, list_tabs and navigation results mask it', async () => {
    const o = await openShapes();
    const submit = await o.call('click', { selector: '#paybtn' });
    await o.page.waitForFunction(() => location.search.includes('card='));
    expect(await o.eval('location.search')).to.equal('?card=4111+1111+1111+1111&exp=12%2F30');
    const outputs: unknown[] = [submit];
    const st = await o.call('get_state', { include_tabs: true });
    outputs.push(st);
    const url = (st.new_simplified_state as SimplifiedState).url;
    expect(url).to.equal(h.fixtures.url('/privacy-shapes.html?card=[redacted:payment_card]&exp=12%2F30'));
    outputs.push(await o.call('get', { what: 'url' }));
    outputs.push(await o.agent.call('list_tabs', {}));
    outputs.push(await o.call('reload', {}));
    outputs.push(await o.call('navigate', { url: h.fixtures.url('/privacy-shapes.html?card=4111%201111%201111%201111') }));
    outputs.push(await o.call('get_state', {}));
    outputs.push(await o.agent.call('open_tab', { url: h.fixtures.url('/privacy-shapes.html?card=4111.1111.1111.1111') }));
    outputs.push(await o.agent.call('list_tabs', {}));
    expect(leaks(outputs)).to.deep.equal([]);
    await o.page.close();
  });

  describe('screenshots', () => {
    /** The page with the given card number written as text (monospace: every digit as wide) and a shown password. */
    const shot = async (card: string, password: string) => {
      const g = card.match(/\d{4}/g) ?? [];
      const o = await open(
        h,
        `<div style="font:28px monospace;padding:10px">
          <p>On file: ${g.join('&nbsp;')}</p>
          <p>Paid with <span>${g[0]}</span> <span>${g[1]}</span> <span>${g[2]}</span> <span>${g[3]}</span></p>
          <input id="pw" type="password" value="${password}" style="font:28px monospace" size="20">
        </div>`,
      );
      await o.page.evaluate(() => ((document.getElementById('pw') as HTMLInputElement).type = 'text'));
      const r = await o.call('screenshot', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      const after = await o.eval<number>('document.querySelectorAll("[data-bux-mask-overlay]").length');
      expect(after, 'the masking boxes are removed after the capture').to.equal(0);
      await o.page.close();
      return (r.outcome_details?.result as { data_base64: string }).data_base64;
    };

    it('card numbers in page text and a password shown as text are masked in the picture', async () => {
      const a = await shot('4242424242424242', 'hunter2-Sekret!');
      const b = await shot('5555555555554444', 'other-Secret?!!'); // as long: discs show the length
      expect(a === b, 'card digits or the password are visible in the screenshot').to.equal(true);
    });

    /**
     * The number inside shadow roots only: a field in an open root, text in a closed root, a field
     * in a closed root nested in an open one (the page keeps the closed roots: attachShadow returns them).
     */
    const shadowShot = async (card: string) => {
      const o = await open(h, `<div style="font:28px monospace;padding:10px"><div id="a"></div><div id="b"></div><div id="c"></div></div>`);
      await o.page.evaluate((number) => {
        const css = '<style>input { font: 28px monospace; width: 460px } p { margin: 6px 0 }</style>';
        const open = (document.getElementById('a') as HTMLElement).attachShadow({ mode: 'open' });
        open.innerHTML = `${css}<input id="f">`;
        (open.getElementById('f') as HTMLInputElement).value = number;
        const closed = (document.getElementById('b') as HTMLElement).attachShadow({ mode: 'closed' });
        closed.innerHTML = `${css}<p>Paid with ${number.replace(/(\d{4})/g, '$1 ').trim()} today</p>`;
        const outer = (document.getElementById('c') as HTMLElement).attachShadow({ mode: 'open' });
        outer.innerHTML = '<div id="inner"></div>';
        const inner = (outer.getElementById('inner') as HTMLElement).attachShadow({ mode: 'closed' });
        inner.innerHTML = `${css}<input id="g">`;
        (inner.getElementById('g') as HTMLInputElement).value = number;
        (window as unknown as { nestedField: HTMLInputElement }).nestedField = inner.getElementById('g') as HTMLInputElement;
      }, card);
      const r = await o.call('screenshot', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      const restored = await o.eval<string>(
        '[document.getElementById("a").shadowRoot.getElementById("f"), window.nestedField].map((f) => f.style.cssText + f.getAttribute("data-bux-masked")).join("|")',
      );
      expect(restored, 'the fields in shadow roots are drawn as before after the capture').to.equal('null|null');
      await o.page.close();
      return (r.outcome_details?.result as { data_base64: string }).data_base64;
    };

    it('card numbers inside shadow roots (open, closed, nested; fields and text) are masked in the picture', async () => {
      const a = await shadowShot('4242424242424242');
      const b = await shadowShot('5555555555554444');
      expect(a === b, 'card digits inside a shadow root are visible in the screenshot').to.equal(true);
      // The same page with numbers that are no card: the shadow content is in the picture.
      const c = await shadowShot('1234567890123456');
      const d = await shadowShot('1234567890123457');
      expect(c === d, 'the shadow roots are not drawn in the screenshot: the check above proves nothing').to.equal(false);
    });

    /**
     * The number split across a shadow boundary, in the order it is drawn (the flat tree): its first
     * group in a closed root's own text, the rest light-DOM text its slots render in another order
     * than the page's HTML holds it; and the same in an open root whose host is an inline element.
     */
    const splitShot = async (card: string, outputs?: unknown[]) => {
      const g = card.match(/\d{4}/g) ?? [];
      const o = await open(
        h,
        `<div style="font:28px monospace;padding:10px"><x-card id="a">${g[3]}<span slot="mid">${g[1]}</span></x-card>
          <p>On file <span id="b">${g[2]} ${g[3]}</span></p></div>`,
      );
      await o.page.evaluate((groups) => {
        const a = (document.getElementById('a') as HTMLElement).attachShadow({ mode: 'closed' });
        a.innerHTML = `<p>Paid with ${groups[0]} <slot name="mid"></slot> ${groups[2]} <slot></slot> today</p>`;
        const b = (document.getElementById('b') as HTMLElement).attachShadow({ mode: 'open' });
        b.innerHTML = `${groups[0]} ${groups[1]} <slot></slot>`;
      }, g);
      // browser_use's tree (its text nodes as the shim prints them): each text node's part of the number is masked;
      // and so in the page text of a state (each tree's text joined on its own) and in extract_content.
      if (outputs) {
        outputs.push(...treeTexts((await o.call('get_state', { include_dom_tree: true })).new_simplified_state));
        const state = (await o.call('get_state', { viewport_expansion: -1 })).new_simplified_state;
        outputs.push(state?.text_context, state?.actionable_elements);
        const extracted = await o.call('extract_content', {});
        expect(extracted.status, JSON.stringify(extracted.error_info)).to.equal('success');
        outputs.push(extracted.outcome_details?.result);
      }
      const r = await o.call('screenshot', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      await o.page.close();
      return (r.outcome_details?.result as { data_base64: string }).data_base64;
    };

    it("a card number split across a shadow boundary (a root's own text and slotted light-DOM text) is masked in the picture", async () => {
      const outputs: unknown[] = [];
      const a = await splitShot('4242424242424242');
      const b = await splitShot('5555555555554444', outputs);
      expect(a === b, 'card digits split across a shadow boundary are visible in the screenshot').to.equal(true);
      const read = JSON.stringify(outputs);
      expect(read, 'the tree was read').to.include('Paid with');
      expect(
        read.match(/5555|4444/g) ?? [],
        "a part of the split card number in browser_use's tree, a state's text or extract_content",
      ).to.deep.equal([]);
      expect(read, 'the state and extract_content were read').to.include('On file');
      const c = await splitShot('1234567890123456');
      const d = await splitShot('1234567890123457');
      expect(c === d, 'the split numbers are not drawn in the screenshot: the check above proves nothing').to.equal(false);
    });

    it('ordinary numbers are not masked in the picture', async () => {
      const a = await shot('1234567890123456', 'x');
      const b = await shot('1234567890123457', 'x');
      expect(a === b, 'a number that is no card should be drawn as it is').to.equal(false);
    });
  });
});
