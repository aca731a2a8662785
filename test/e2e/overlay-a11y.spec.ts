// The "Agent is controlling this tab" bar is for every person, screen reader users included, and
// still invisible to the agent. In real Chromium with the built extension:
// - what a screen reader gets is Chromium's accessibility tree (CDP Accessibility.queryAXTree /
//   getFullAXTree): the bar is a labelled region, its status line a polite live region, and Stop a
//   button named "Stop the agent"; a page's aria-hidden on the host does not stay;
// - Stop is reached with Tab and works with Enter, while the page's own hit test sees through it
//   (Stop takes the pointer only under a person's pointer: the keyboard needs none of that);
// - a person's mouse click on Stop stops the agent, the page under it gets no click;
// - the agent's own snapshot (get_state) never lists the bar or its words;
// - axe-core finds no serious or critical violation in the bar. axe cannot enter the closed shadow
//   root the real bar lives in, so it checks a copy: the same markup (AGENT_BAR_MARKUP) in an open
//   shadow root on a host with the real host's attributes.
import { expect } from 'chai';
import type { CDPSession, Page } from 'puppeteer-core';
import type { Protocol } from 'puppeteer-core';

import { AGENT_BAR_MARKUP } from '../../extension/src/content/agent-bar';
import { describeViolations, seriousAxeViolations } from '../harness/axe';
import { type Harness, useHarness } from '../harness/harness';
import { open, type Opened, quietSettle } from './actions.helpers';

type AXNode = Protocol.Accessibility.AXNode;

const PAGE = `<main><h1>Order 1042</h1><a id="before" href="#details">Order details</a><p>Three items, shipped on Monday.</p></main>`;

async function fullTree(cdp: CDPSession): Promise<AXNode[]> {
  return (await cdp.send('Accessibility.getFullAXTree')).nodes;
}

const prop = (n: AXNode, name: string) => n.properties?.find((p) => p.name === name)?.value.value as unknown;
const nameOf = (n: AXNode) => (n.name?.value as string | undefined) ?? '';
const roleOf = (n: AXNode) => (n.role?.value as string | undefined) ?? '';

/** The text under an AX node (its StaticText descendants). */
function textUnder(nodes: AXNode[], n: AXNode): string {
  const byId = new Map(nodes.map((x) => [x.nodeId, x]));
  const out: string[] = [];
  const walk = (x: AXNode) => {
    if (roleOf(x) === 'StaticText') out.push(nameOf(x));
    for (const c of x.childIds ?? []) {
      const child = byId.get(c);
      if (child) walk(child);
    }
  };
  walk(n);
  return out.join('');
}

async function barStatus(cdp: CDPSession): Promise<{ status: AXNode; text: string } | null> {
  const nodes = await fullTree(cdp);
  const status = nodes.find((n) => !n.ignored && roleOf(n) === 'status');
  return status ? { status, text: textUnder(nodes, status) } : null;
}

async function waitStatus(cdp: CDPSession, re: RegExp, ms = 10_000): Promise<{ status: AXNode; text: string }> {
  const end = Date.now() + ms;
  let last: { status: AXNode; text: string } | null = null;
  while (Date.now() < end) {
    last = await barStatus(cdp);
    if (last && re.test(last.text)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the bar's status never read ${String(re)}; last: ${JSON.stringify(last?.text ?? null)}`);
}

/** The centre of the bar's Stop button, found as assistive technology finds it (role and name). */
async function stopCentre(cdp: CDPSession): Promise<{ x: number; y: number }> {
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const [stop] = (
    await cdp.send('Accessibility.queryAXTree', { backendNodeId: root.backendNodeId, role: 'button', accessibleName: 'Stop the agent' })
  ).nodes.filter((n) => !n.ignored);
  expect(stop?.backendDOMNodeId, 'Stop in the accessibility tree').to.be.a('number');
  const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: stop!.backendDOMNodeId! });
  const q = model.border;
  return { x: (q[0]! + q[4]!) / 2, y: (q[1]! + q[5]!) / 2 };
}

/** Is our bar's host what the page's own elementFromPoint answers at this point? */
const pageSeesBar = (page: Page, at: { x: number; y: number }) =>
  page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.hasAttribute('data-browser-agent-ui') === true, at);

const waitBar = (page: Page) =>
  page.waitForFunction(() => document.querySelector('[data-browser-agent-ui="overlay"]')?.isConnected === true, { timeout: 10_000 });

describe('e2e: the agent bar is announced to people and hidden from the agent', function () {
  this.timeout(90_000);
  let h: Harness;
  let o: Opened;
  let cdp: CDPSession;
  useHarness((started) => (h = started), { prepare: quietSettle });

  before(async () => {
    o = await open(h, PAGE, 'Order 1042');
    await waitBar(o.page);
    cdp = await o.page.createCDPSession();
    await cdp.send('Accessibility.enable');
  });

  it('is in the accessibility tree: a region, a polite status that says the agent works, and a named Stop button', async () => {
    const { status, text } = await waitStatus(cdp, /Agent is controlling this tab/);
    expect(prop(status, 'live')).to.equal('polite');
    expect(prop(status, 'atomic')).to.equal(true);
    const nodes = await fullTree(cdp);
    const region = nodes.find((n) => !n.ignored && roleOf(n) === 'region');
    expect(region && nameOf(region), 'a region named for the product').to.equal('browser-use-ext agent');
    // The agent named as the side panel names it (shared/agent-names.ts), not by its raw program name.
    expect(text).to.equal('Agent is controlling this tab (TypeScript program)');
    // queryAXTree: what assistive technology finds when it asks for the button by role and name.
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const found = (
      await cdp.send('Accessibility.queryAXTree', { backendNodeId: root.backendNodeId, role: 'button', accessibleName: 'Stop the agent' })
    ).nodes;
    expect(
      found.filter((n) => !n.ignored),
      'Stop the agent, not hidden',
    ).to.have.length(1);
  });

  it('a page cannot hide the bar from screen readers with aria-hidden', async () => {
    await o.page.evaluate(() => document.querySelector('[data-browser-agent-ui="overlay"]')?.setAttribute('aria-hidden', 'true'));
    await o.page.waitForFunction(() => !document.querySelector('[data-browser-agent-ui="overlay"]')?.hasAttribute('aria-hidden'), {
      timeout: 2000,
    });
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const found = (
      await cdp.send('Accessibility.queryAXTree', { backendNodeId: root.backendNodeId, role: 'button', accessibleName: 'Stop the agent' })
    ).nodes;
    expect(found.filter((n) => !n.ignored)).to.have.length(1);
  });

  it("the agent's snapshot never lists the bar, its Stop button or its words", async () => {
    const r = await o.call('get_state', { viewport_expansion: -1 });
    expect(r.status).to.equal('success');
    const state = r.new_simplified_state!;
    expect(state.actionable_elements.map((e) => e.name)).to.include('Order details');
    const seen = JSON.stringify(state);
    expect(seen).to.not.contain('Stop the agent').and.to.not.contain('Agent is controlling').and.to.not.contain('browser-use-ext agent');
    expect(state.actionable_elements.filter((e) => /stop/i.test(`${e.name ?? ''} ${e.text_content ?? ''}`))).to.have.length(0);
  });

  it('axe-core finds no serious or critical violation in the bar (its markup, on a copy of the real host)', async () => {
    await o.page.evaluate((markup) => {
      const real = document.querySelector('[data-browser-agent-ui="overlay"]') as HTMLElement;
      const copy = document.createElement('div');
      // The real host's attributes (style, popover, no aria-hidden), but an open shadow root axe can read.
      for (const a of [...real.attributes]) if (a.name !== 'data-browser-agent-ui') copy.setAttribute(a.name, a.value);
      copy.id = 'bar-copy';
      copy.style.setProperty('bottom', '80px', 'important');
      copy.attachShadow({ mode: 'open' }).innerHTML = markup;
      for (const sel of ['.label', '.status'])
        (copy.shadowRoot!.querySelector(sel) as HTMLElement).textContent = 'Agent is controlling this tab (python, running a task)';
      document.body.appendChild(copy);
      if (copy.hasAttribute('popover')) copy.showPopover();
    }, AGENT_BAR_MARKUP);
    try {
      const violations = await seriousAxeViolations(o.page, '#bar-copy');
      expect(violations, describeViolations(violations)).to.deep.equal([]);
    } finally {
      await o.page.evaluate(() => document.getElementById('bar-copy')?.remove());
    }
  });

  it('stays one line at 360 px with a long agent name: the name ends in an ellipsis, Stop stays whole and in view', async () => {
    const before = o.page.viewport();
    await o.page.setViewport({ width: 360, height: 640 });
    try {
      const m = await o.page.evaluate((markup) => {
        const real = document.querySelector('[data-browser-agent-ui="overlay"]') as HTMLElement;
        const copy = document.createElement('div');
        for (const a of [...real.attributes]) if (a.name !== 'data-browser-agent-ui') copy.setAttribute(a.name, a.value);
        copy.id = 'bar-copy';
        const root = copy.attachShadow({ mode: 'open' });
        root.innerHTML = markup;
        (root.querySelector('.label') as HTMLElement).textContent =
          'claude-desktop-on-the-workstation-in-the-back-office (MCP client) · running a task';
        document.body.appendChild(copy);
        if (copy.hasAttribute('popover')) copy.showPopover();
        const label = root.querySelector('.label') as HTMLElement;
        const stop = (root.querySelector('button') as HTMLElement).getBoundingClientRect();
        const out = {
          barHeight: (root.querySelector('.bar') as HTMLElement).getBoundingClientRect().height,
          cut: label.scrollWidth > label.clientWidth,
          stopRight: stop.right,
          stopHeight: stop.height,
          width: document.documentElement.clientWidth,
        };
        copy.remove();
        return out;
      }, AGENT_BAR_MARKUP);
      expect(m.cut, 'the long name is cut with an ellipsis').to.equal(true);
      expect(m.barHeight, 'one line').to.be.below(2 * m.stopHeight);
      expect(m.stopRight, 'Stop inside the window').to.be.at.most(m.width);
    } finally {
      if (before) await o.page.setViewport(before);
    }
  });

  it("Stop is reached with Tab and works with Enter, while the page's hit test sees through it", async () => {
    await o.page.mouse.move(5, 5);
    expect(await pageSeesBar(o.page, await stopCentre(cdp)), "the page's elementFromPoint over Stop").to.equal(false);
    await o.page.focus('#before');
    let onStop = false;
    for (let i = 0; i < 10 && !onStop; i++) {
      await o.page.keyboard.press('Tab');
      const nodes = await fullTree(cdp);
      onStop = nodes.some((n) => roleOf(n) === 'button' && nameOf(n) === 'Stop the agent' && prop(n, 'focused') === true);
    }
    expect(onStop, 'Tab reaches Stop').to.equal(true);
    const released = new Promise<string>((r) => o.agent.once('tab_released', (m: { reason: string }) => r(m.reason)));
    await o.page.keyboard.press('Enter');
    // The overlay's Stop takes the tab back from the agent: the bar goes.
    await o.page.waitForFunction(() => !document.querySelector('[data-browser-agent-ui="overlay"]')?.isConnected, { timeout: 10_000 });
    expect(await released).to.equal('released_by_user');
  });

  it("a person's mouse click on Stop stops the agent; the page under Stop gets no click", async () => {
    const p = await open(
      h,
      `${PAGE}<div id="floor" style="position:fixed;left:0;bottom:0;width:100%;height:160px;z-index:3;background:#eee"></div>`,
      'Order 1043',
    );
    await p.page.evaluate(() => {
      const w = window as unknown as { floorClicks: number };
      w.floorClicks = 0;
      document.getElementById('floor')!.addEventListener('click', () => w.floorClicks++);
    });
    await waitBar(p.page);
    const pcdp = await p.page.createCDPSession();
    try {
      await pcdp.send('Accessibility.enable');
      await waitStatus(pcdp, /Agent is controlling this tab/);
      const at = await stopCentre(pcdp);
      await p.page.mouse.move(5, 5);
      expect(await pageSeesBar(p.page, at), 'the page sees its own element under Stop').to.equal(false);
      const released = new Promise<string>((r) => p.agent.once('tab_released', (m: { reason: string }) => r(m.reason)));
      // The person's hand: the pointer travels to Stop and clicks it.
      await p.page.mouse.move(at.x, at.y, { steps: 5 });
      await p.page.mouse.click(at.x, at.y);
      expect(await released).to.equal('released_by_user');
      await p.page.waitForFunction(() => !document.querySelector('[data-browser-agent-ui="overlay"]')?.isConnected, { timeout: 10_000 });
      expect(await p.eval('window.floorClicks'), 'the click was on Stop, not the page').to.equal(0);
    } finally {
      await pcdp.detach();
    }
  });
});
