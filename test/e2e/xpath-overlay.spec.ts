// One xpath rule for both forms of a state while an agent holds the tab: the "Agent is controlling
// this tab" label is then in the page (a <div> appended to <body>), and real browser_use on
// Playwright has no such element, so it must not count as a sibling. elements[].xpath and the
// dom_tree (include_dom_tree) name every node the same way, and as browser_use names it.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { DomNode } from '../../schemas/generated/protocol';
import { type AgentPage, type Harness, useAgentPage } from '../harness/harness';

let h: Harness;
let page: Page;
let t: AgentPage;

const state = () => t.state({ include_dom_tree: true });

/** element_id -> xpath of every indexed node of the dom_tree. */
function treeXpaths(tree: DomNode | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (n: DomNode): void => {
    if (n.kind !== 'element') return;
    if (n.element_id !== undefined) out.set(n.element_id, n.xpath);
    n.children.forEach(walk);
  };
  if (tree) walk(tree);
  return out;
}

describe('e2e: xpaths with the agent overlay on the page', function () {
  this.timeout(60_000);
  useAgentPage((started) => ({ h, page } = t = started));

  it('elements[].xpath and the dom_tree name the same node the same way, leaving our overlay out of sibling counts', async () => {
    await page.goto(
      h.fixtures.html(
        '/xpaths',
        `
      <div id="only"><button>First</button></div>
      <p><a href="/a">Link</a></p>`,
      ),
      { waitUntil: 'load' },
    );
    await state(); // the agent now holds the tab: the overlay is shown
    await page.waitForSelector('[data-browser-agent-ui="overlay"]', { timeout: 20_000 });
    // A div the page adds after the overlay: its position must not count the overlay either.
    await page.evaluate(() => {
      const late = document.createElement('div');
      late.innerHTML = '<button>Late</button>';
      document.body.appendChild(late);
    });
    const ours = await page.evaluate(() => [...document.body.children].map((c) => c.getAttribute('data-browser-agent-ui') ?? c.localName));
    expect(ours, 'the overlay sits between the page divs').to.deep.equal(['div', 'p', 'overlay', 'div']);

    const s = await state();
    const fromTree = treeXpaths(s.dom_tree);
    const listed = s.actionable_elements.map((e) => [e.name, e.xpath, fromTree.get(e.id)]);
    expect(listed).to.deep.equal([
      ['First', 'html/body/div[1]/button', 'html/body/div[1]/button'],
      ['Link', 'html/body/p/a', 'html/body/p/a'],
      ['Late', 'html/body/div[2]/button', 'html/body/div[2]/button'],
    ]);
  });

  it('a lone page div is "div", not "div[1]", while the overlay is a second div under <body>', async () => {
    await page.goto(h.fixtures.html('/lone', '<div><button>Only</button></div>'), { waitUntil: 'load' });
    await state();
    await page.waitForSelector('[data-browser-agent-ui="overlay"]', { timeout: 20_000 });
    const s = await state();
    const e = s.actionable_elements.find((x) => x.name === 'Only');
    expect([e?.xpath, e && treeXpaths(s.dom_tree).get(e.id)]).to.deep.equal(['html/body/div/button', 'html/body/div/button']);
  });
});
