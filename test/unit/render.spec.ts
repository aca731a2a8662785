// The three text renderings of one state (schemas/lib/render), on one shared fixture whose dom_tree
// is the hand-built tree of the browser_use 0.1.48 reference (section 1.8): renderBrowserUse must
// print that section's output exactly, tabs, `*[N]*`, dropped attributes and ` />` included.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import type { SimplifiedState } from '../../schemas/generated/protocol';
import { renderAriaTree, renderBrowserUse, renderBrowsingContext } from '../../schemas/lib/render';
import { REPO_ROOT } from '../harness/browser';

const { state } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'render', 'state.json'), 'utf8')) as {
  state: SimplifiedState;
};

describe('text renderings of a state', () => {
  it('browser_use 0.1.48 clickable_elements_to_string, exactly as the reference prints it', () => {
    expect(renderBrowserUse(state)).to.equal(
      [
        'Welcome to the site',
        "[0]<a title='Home'>Home />",
        '*[1]*<button >Submit />',
        "[2]<input type='text' name='q' placeholder='Search' />",
        "[3]<div role='menu'>loose text />",
        '\t[4]<span >Item A />',
        "[5]<img alt='logo' />",
        '[6]<div  />',
      ].join('\n'),
    );
  });

  it('browser_use format without a dom_tree: from the element list and text_context', () => {
    const { dom_tree: _omit, ...flat } = state;
    expect(renderBrowserUse(flat)).to.equal(
      [
        'Welcome to the site',
        "[1]<a title='Home'>Home />",
        '*[2]*<button >Submit />',
        'Search',
        "[3]<input type='text' name='q' placeholder='Search' />",
        "[4]<div role='menu'>loose text />",
        '\t[5]<span >Item A />',
        'Results | 12 found',
        "[6]<input type='password' value='[redacted:password]' />",
        "[7]<input type='checkbox' />",
      ].join('\n'),
    );
  });

  it("seed 001's accessibility-tree text", () => {
    expect(renderAriaTree(state)).to.equal(
      [
        '- heading "Welcome to the site" [level=1]',
        '- link "Home" [ref=e1]',
        '- button "Submit" [disabled] [ref=e2]',
        '- textbox "Search" [active] [ref=e3]: shoes',
        '- menu "loose text" [ref=e4]',
        '  - menuitemcheckbox "Item A" [checked] [ref=e5]',
        '- row: Results | 12 found',
        '- textbox "Password" [ref=e6]: [redacted:password]',
        '- checkbox "Remember me" [ref=f4e1]',
        '# truncated: 3 more interactive elements in scope were not listed. To see more: scroll and take a new state.',
      ].join('\n'),
    );
  });

  it("seed 002's <browsing_context> block", () => {
    expect(renderBrowsingContext(state)).to.equal(
      [
        '<browsing_context>',
        '[Target Update]',
        'URL: https://shop.test/search?q=x',
        '',
        'Interactive Elements:',
        '<a id="1" href="/home" label="Home">Home</a>',
        '<button id="2" label="Submit" disabled="true">Submit</button>',
        '<input id="3" type="text" label="Search" placeholder="Search" value="shoes">',
        '<div id="4">loose text</div>',
        '<span id="5" label="Item A" checked="true">Item A</span>',
        '<input id="6" type="password" label="Password" value="[redacted:password]">',
        '<input id="7" type="checkbox" label="Remember me" checked="false">',
        '[Truncated: 3 more interactive elements in scope were not listed. To see more: scroll and take a new state.]',
        '</browsing_context>',
      ].join('\n'),
    );
  });
});

// Token economy of the accessibility-tree text (README "Text rendering").
describe('accessibility-tree text: token economy', () => {
  type El = SimplifiedState['actionable_elements'][number];
  const el = (index: number, role: string, name: string, xpath: string, onScreen: boolean | undefined, extra: Partial<El> = {}): El => ({
    id: `e${index}`,
    index,
    type: role === 'link' ? 'LINK' : role === 'radio' ? 'RADIO' : 'BUTTON',
    tag: role === 'link' ? 'a' : role === 'radio' ? 'input' : 'button',
    role,
    name,
    attributes: {},
    is_visible: true,
    available_operations: ['click'],
    ...(onScreen === undefined ? {} : { is_in_viewport: onScreen }),
    bounds: { x: 10, y: 30 * index, width: 80, height: 17 },
    xpath,
    ...extra,
  });
  const base = (elements: El[], text: SimplifiedState['text_context']): SimplifiedState =>
    ({
      ...state,
      actionable_elements: elements,
      text_context: text,
      truncation: undefined,
      scroll_position: { x: 0, y: 0 },
      page_size: { width: 800, height: 5000 },
    }) as SimplifiedState;
  const refsIn = (s: string) => [...s.matchAll(/\[ref=([^\]]+)\]/g)].map((m) => m[1]);

  it('prints a paragraph with its links inline, tail punctuation attached, and drops a label that repeats the control name', () => {
    const s = base(
      [
        el(1, 'link', 'topic 0', 'html/body/p[1]/a[1]', true),
        el(2, 'link', 'topic 1', 'html/body/p[1]/a[2]', true),
        el(3, 'link', 'next page', 'html/body/p[2]/a[1]', true),
        el(4, 'radio', 'Basic', 'html/body/form/label[1]/input', true),
      ],
      [
        { text: 'Intro', role: 'heading', level: 2, after_index: 0 },
        { text: 'alpha and beta', role: 'paragraph', after_index: 0 },
        { text: ', then gamma', role: 'paragraph', after_index: 1 },
        { text: '.', role: 'paragraph', after_index: 2 },
        { text: 'See the', role: 'paragraph', after_index: 2 },
        { text: 'Basic', role: 'label', after_index: 4 },
        { text: 'Rows | 2', role: 'row', after_index: 4 },
      ],
    );
    expect(renderAriaTree(s)).to.equal(
      [
        '- heading "Intro" [level=2]',
        'alpha and beta link "topic 0" [ref=e1], then gamma link "topic 1" [ref=e2].',
        'See the link "next page" [ref=e3]',
        '- radio "Basic" [ref=e4]',
        '- row: Rows | 2',
      ].join('\n'),
    );
  });

  it('prints a block (table row, list item, heading, paragraph, text container) as one line with its elements inline', () => {
    const s = base(
      [
        // Infobox row: <th>alpha zeta</th><td><a>gamma 0</a>, <a>kappa</a><sup><a>[1]</a></sup></td>
        el(1, 'link', 'gamma 0', 'html/body/table/tbody/tr[2]/td/a[1]', true),
        el(2, 'link', 'kappa', 'html/body/table/tbody/tr[2]/td/a[2]', true),
        el(3, 'link', '[1]', 'html/body/table/tbody/tr[2]/td/sup/a', true),
        // Data row: <td>1</td><td><a>Customer 1</a></td><td><a>Order 1</a></td><td>shipped</td>
        el(4, 'link', 'Customer 1', 'html/body/table/tbody/tr[3]/td[2]/a', true),
        el(5, 'link', 'Order 1', 'html/body/table/tbody/tr[3]/td[3]/a', true),
        // <h2>Intro<span>[<a>edit</a>]</span></h2>
        el(6, 'link', 'edit', 'html/body/h2/span/a', true),
        // <p>alpha <a>beta</a><sup><a>[2]</a></sup> gamma.</p>
        el(7, 'link', 'beta', 'html/body/p/a', true),
        el(8, 'link', '[2]', 'html/body/p/sup/a', true),
        // <li><a>^</a> <a>A study</a>. Retrieved 2000.</li>
        el(9, 'link', 'Jump up', 'html/body/ol/li[1]/a[1]', true),
        el(10, 'link', 'A study', 'html/body/ol/li[1]/a[2]', true),
        // <div>For other uses, see <a>Other</a>.</div>
        el(11, 'link', 'Other', 'html/body/div[2]/a', true),
        // <nav><a>Home</a><a>News</a></nav>: no text between, separate lines
        el(12, 'link', 'Home', 'html/body/nav/a[1]', true),
        el(13, 'link', 'News', 'html/body/nav/a[2]', true),
        // <li><div><input type=checkbox><label>Buy milk</label><button aria-label="Delete Buy milk"></div></li>
        el(14, 'checkbox', '', 'html/body/ul/li[1]/div/input', true, { type: 'CHECKBOX', tag: 'input' }),
        el(15, 'button', 'Delete Buy milk', 'html/body/ul/li[1]/div/button', true),
      ],
      [
        { text: 'alpha zeta', role: 'row', after_index: 0 },
        { text: ',', role: 'row', after_index: 1 },
        { text: '1', role: 'row', after_index: 3 },
        { text: 'shipped', role: 'row', after_index: 5 },
        { text: 'Intro [', role: 'heading', level: 2, after_index: 5 },
        { text: ']', role: 'heading', level: 2, after_index: 6 },
        { text: 'alpha', role: 'paragraph', after_index: 6 },
        { text: 'gamma.', role: 'paragraph', after_index: 8 },
        { text: '. Retrieved 2000.', role: 'listitem', after_index: 10 },
        { text: 'For other uses, see', after_index: 10 },
        { text: '.', after_index: 11 },
        { text: 'Buy milk', role: 'label', after_index: 14 },
      ],
    );
    expect(renderAriaTree(s).split('\n')).to.deep.equal([
      '- row: alpha zeta | link "gamma 0" [ref=e1], link "kappa" [ref=e2] link "[1]" [ref=e3]',
      '- row: 1 | link "Customer 1" [ref=e4] | link "Order 1" [ref=e5] | shipped',
      '- heading [level=2]: Intro [link "edit" [ref=e6]]',
      'alpha link "beta" [ref=e7] link "[2]" [ref=e8] gamma.',
      '- listitem: link "Jump up" [ref=e9] link "A study" [ref=e10]. Retrieved 2000.',
      'For other uses, see link "Other" [ref=e11].',
      '- link "Home" [ref=e12]',
      '- link "News" [ref=e13]',
      '- checkbox [ref=e14] Buy milk button "Delete Buy milk" [ref=e15]',
    ]);
  });

  it('keeps a line per element where the block is unknown (shadow DOM), the element has children, or its value ends the line', () => {
    const s = base(
      [
        el(1, 'button', 'Add', '', true),
        el(2, 'button', 'More', '', true),
        el(3, 'textbox', 'Qty', 'html/body/table/tr[1]/td[2]/input', true, { type: 'INPUT_FIELD', tag: 'input', current_value: '3' }),
        el(4, 'menu', 'Menu', 'html/body/table/tr[2]/td[1]/div', true),
        el(5, 'menuitem', 'Open', 'html/body/table/tr[2]/td[1]/div/a', true, { parent_index: 4 }),
      ],
      [
        { text: 'Card', role: 'heading', level: 3, after_index: 0 },
        { text: 'Quantity', role: 'row', after_index: 2 },
        { text: 'units', role: 'row', after_index: 3 },
      ],
    );
    expect(renderAriaTree(s).split('\n')).to.deep.equal([
      '- heading "Card" [level=3]',
      '- button "Add" [ref=e1]',
      '- button "More" [ref=e2]',
      '- row: Quantity | textbox "Qty" [ref=e3]: 3',
      '- row: units',
      '- menu "Menu" [ref=e4]',
      '  - menuitem "Open" [ref=e5]',
    ]);
  });

  it('never puts text of one document on the line of an element of another (an ad iframe after a caption)', () => {
    const s = base(
      [el(1, 'link', 'Offer', 'html/body/div/a', true, { id: 'f6e1', frame_id: 6 })],
      [
        { text: 'Advertisement', after_index: 0 },
        { text: 'today only', after_index: 1, frame_id: 6 },
        { text: 'More stories', after_index: 1 },
      ],
    );
    expect(renderAriaTree(s).split('\n')).to.deep.equal(['Advertisement', '- link "Offer" [ref=f6e1]', 'today only', 'More stories']);
  });

  it('summarises a later run of a shape already listed from its first repetition (the paragraphs of the next section)', () => {
    const elements: El[] = [];
    const text: SimplifiedState['text_context'] = [];
    for (let sec = 1; sec <= 2; sec++) {
      text.push({ text: `Section ${sec}`, role: 'heading', level: 2, after_index: elements.length });
      // A sidebar of 9 single links between sections breaks the run of paragraphs.
      if (sec === 2)
        for (let i = 0; i < 9; i++)
          elements.push(el(elements.length + 1, 'button', `Tool ${i}`, `html/body/aside/ul/li[${i + 1}]/button`, false));
      for (let p = 1; p <= 10; p++) {
        const n = elements.length + 1;
        text.push({ text: `Words ${n}`, role: 'paragraph', after_index: elements.length });
        elements.push(el(n, 'link', `topic ${n}`, `html/body/div[${sec}]/p[${p}]/a`, sec === 1 && p === 1));
      }
    }
    const out = renderAriaTree(base(elements, text)).split('\n');
    expect(out.filter((l) => l.startsWith('Words'))).to.have.length(3);
    expect(out.at(-1)).to.equal(
      '- … 10 more blocks like those listed earlier (10 links), off screen below: scroll down and take a new state to list them with refs',
    );
  });

  // A table: header on screen, 4 rows on screen, then 20 rows below the viewport (row text, link, button).
  const table = (): SimplifiedState => {
    const elements: El[] = [];
    const text: SimplifiedState['text_context'] = [{ text: 'Orders', role: 'heading', level: 1, after_index: 0 }];
    for (let r = 1; r <= 24; r++) {
      const on = r <= 4;
      text.push({ text: `${r} | Customer ${r}`, role: 'row', after_index: elements.length });
      elements.push(el(elements.length + 1, 'link', `Order ${r}`, `html/body/table/tbody/tr[${r}]/td[3]/a`, on));
      elements.push(el(elements.length + 1, 'button', `Cancel ${r}`, `html/body/table/tbody/tr[${r}]/td[4]/button`, on));
    }
    text.push({ text: 'End of orders', role: 'paragraph', after_index: elements.length });
    return base(elements, text);
  };

  it('summarises a long run of same-shaped rows once they are off screen, pointing at scroll', () => {
    const out = renderAriaTree(table());
    const lines = out.split('\n');
    expect(lines).to.have.length(1 + 4 + 1 + 1);
    expect(lines.slice(0, 2)).to.deep.equal([
      '- heading "Orders" [level=1]',
      '- row: 1 | Customer 1 | link "Order 1" [ref=e1] | button "Cancel 1" [ref=e2]',
    ]);
    expect(lines[4]).to.equal('- row: 4 | Customer 4 | link "Order 4" [ref=e7] | button "Cancel 4" [ref=e8]');
    expect(lines[5]).to.equal(
      '- … 20 more blocks like the above (20 links, 20 buttons), off screen below: scroll down and take a new state to list them with refs',
    );
    expect(lines[6]).to.equal('End of orders');
    // Every on-screen element keeps its ref; nothing off screen is listed without one.
    expect(refsIn(out)).to.deep.equal(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8']);
  });

  it('lists every element with its ref when summarising is off, or when on-screen facts are unknown', () => {
    const full = renderAriaTree(table(), { summarize: false });
    expect(refsIn(full)).to.have.length(48);
    expect(full).not.to.contain('more like the above');
    const unknown = table();
    unknown.actionable_elements = unknown.actionable_elements.map(({ is_in_viewport: _drop, ...e }) => e);
    expect(refsIn(renderAriaTree(unknown))).to.have.length(48);
  });

  it('keeps an on-screen repetition inside a run listed, and says "above" for what precedes the screen', () => {
    const s = table();
    // Scrolled: rows 1-20 above the viewport, 21-24 on screen.
    s.actionable_elements = s.actionable_elements.map((e) => ({ ...e, is_in_viewport: (e.index ?? 0) > 40 }));
    const out = renderAriaTree(s);
    expect(out).to.contain(
      '- … 17 more blocks like the above (17 links, 17 buttons), off screen above: scroll up and take a new state to list them with refs',
    );
    expect(refsIn(out)).to.deep.equal(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', ...Array.from({ length: 8 }, (_, i) => `e${41 + i}`)]);
  });

  it('does not summarise runs shorter than 8 repetitions', () => {
    const s = table();
    s.actionable_elements = s.actionable_elements.slice(0, 14);
    s.text_context = (s.text_context ?? []).filter((t) => t.after_index < 14);
    expect(refsIn(renderAriaTree(s))).to.have.length(14);
  });

  it('says an off-canvas run (outside the page at every scroll position) is revealed by the page, not by scrolling', () => {
    const links = Array.from({ length: 12 }, (_, i) =>
      el(i + 1, 'link', `drawer ${i}`, `html/body/nav/a[${i + 1}]`, false, { bounds: { x: -400, y: 20 * i, width: 100, height: 17 } }),
    );
    const out = renderAriaTree(base([el(13, 'button', 'Menu', 'html/body/button', true), ...links], []));
    expect(out.split('\n')).to.deep.equal([
      '- button "Menu" [ref=e13]',
      '- link "drawer 0" [ref=e1]',
      '- link "drawer 1" [ref=e2]',
      '- link "drawer 2" [ref=e3]',
      '- … 9 more blocks like the above (9 links), outside the page at every scroll position (off canvas): they are listed once something on the page, such as a menu button, reveals them',
    ]);
  });

  it('takes a short interruption (an ad between stories) into the run, but keeps headings', () => {
    const elements: El[] = [];
    const text: SimplifiedState['text_context'] = [];
    for (let r = 1; r <= 12; r++) {
      if (r === 6) text.push({ text: 'Advertisement', role: 'text', after_index: elements.length });
      if (r === 9) text.push({ text: 'More stories', role: 'heading', level: 2, after_index: elements.length });
      elements.push(el(elements.length + 1, 'link', `Story ${r}`, `html/body/main/article[${r}]/h3/a`, r === 1));
      elements.push(el(elements.length + 1, 'button', `Save story ${r}`, `html/body/main/article[${r}]/button`, r === 1));
    }
    const out = renderAriaTree(base(elements, text)).split('\n');
    expect(out).to.deep.equal([
      '- link "Story 1" [ref=e1]',
      '- button "Save story 1" [ref=e2]',
      '- link "Story 2" [ref=e3]',
      '- button "Save story 2" [ref=e4]',
      '- link "Story 3" [ref=e5]',
      '- button "Save story 3" [ref=e6]',
      '- … 11 more blocks like the above (5 links, 5 buttons), off screen below: scroll down and take a new state to list them with refs',
      '- heading "More stories" [level=2]',
      '- … 8 more blocks like the above (4 links, 4 buttons), off screen below: scroll down and take a new state to list them with refs',
    ]);
  });
});
