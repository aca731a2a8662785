// Seed 000 ("Action Protocol") end to end: a backend written from the seed alone (backends.ts)
// receives Snapshot / ActionResult WsMessages and sends ActionCommands, through
// `connect --dialect 000`, in real Chromium. The seed's example flow, then a shop task.
import path from 'node:path';

import { expect } from 'chai';

import { SeedConnector } from '../../bridge/agents/connectors/connector';
import { ConnectorManager } from '../../bridge/agents/connectors/connector-manager';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { Seed000Backend, type Seed000Node } from './backends';

const SHOP = path.join(REPO_ROOT, 'python-shim-spec/tests/fixtures/shop');

const find = (tree: Seed000Node[], role: string, name: string): Seed000Node => {
  const n = tree.find((x) => x.role === role && x.name === name);
  if (!n) throw new Error(`no ${role} "${name}" in ${JSON.stringify(tree)}`);
  return n;
};

describe('seed 000: a backend from the seed document drives the browser', function () {
  let h: Harness;
  let backend: Seed000Backend;
  let connector: SeedConnector;
  before(async function () {
    this.timeout(90_000);
    h = await startHarness({ fixturesDir: SHOP });
    h.fixtures.html(
      '/login',
      `<button style="display:none">Hidden</button>
       <button style="visibility:hidden">Invisible</button>
       <button onclick="document.getElementById('st').textContent = 'logged in'">Login</button>
       <input id="user" aria-label="User">
       <span style="cursor:pointer" onclick="this.textContent='picked'">Pick me</span>
       <div tabindex="0">Focusable box</div>
       <p id="st">anonymous</p>
       <div style="height:3000px"></div>
       <button>Far below</button>`,
      'Login',
    );
    await h.openPage(h.fixtures.url('/login'));
    backend = await new Seed000Backend().start();
    connector = new SeedConnector({
      dialect: '000',
      backendUrl: backend.url,
      bridgeUrl: h.bridge.agentUrl,
      secret: h.secrets.agent_secret,
      minDelayMs: 50,
    });
    await connector.start();
  });
  after(async () => {
    await connector?.stop();
    await backend?.close();
    await h?.close();
  });

  it('the example flow: the extension sends a Snapshot, the backend clicks ref 1, gets ActionResult success', async () => {
    const snap = (await backend.next('Snapshot')) as { tree: Seed000Node[] };
    const tree = snap.tree;
    expect(
      tree.map((n) => n.id),
      'DFS ids from 1',
    ).to.deep.equal(tree.map((_, i) => i + 1));
    const names = tree.map((n) => n.name);
    expect(names).to.include.members(['Login', 'User', 'Pick me', 'Focusable box']);
    // The agent's own bar (shown while the connector's agent holds the tab) is never listed.
    for (const excluded of ['Hidden', 'Invisible', 'Far below', 'Stop']) expect(names).not.to.include(excluded);
    const login = find(tree, 'button', 'Login');
    expect(login).to.include({ tag: 'BUTTON', id: 1 });
    expect(login.bounds.width).to.be.greaterThan(0);
    expect(Object.keys(login).sort()).to.deep.equal(['bounds', 'id', 'name', 'role', 'tag']);
    backend.command({ type: 'click_element', ref: login.id });
    expect(await backend.next('ActionResult')).to.deep.equal({ success: true, error: null, data: {} });
    const page = (await h.launched.browser.pages()).find((p) => p.url().endsWith('/login'));
    expect(await page?.$eval('#st', (e) => e.textContent)).to.equal('logged in');
  });

  it('type_text, scroll_to and errors for unknown refs and commands', async () => {
    let tree = ((await backend.next('Snapshot')) as { tree: Seed000Node[] }).tree;
    backend.command({ type: 'type_text', ref: find(tree, 'textbox', 'User').id, text: 'Hello World' });
    expect(await backend.next('ActionResult')).to.include({ success: true });
    const page = (await h.launched.browser.pages()).find((p) => p.url().endsWith('/login'));
    expect(await page?.$eval('#user', (e) => (e as HTMLInputElement).value)).to.equal('Hello World');
    await backend.next('Snapshot');
    backend.command({ type: 'scroll_to', x: 0, y: 500 });
    const scrolled = await backend.next('ActionResult');
    expect(scrolled).to.include({ success: true });
    expect(await page?.evaluate(() => window.scrollY)).to.equal(500);
    await backend.next('Snapshot');
    backend.command({ type: 'scroll_to', x: 0, y: 3000 });
    await backend.next('ActionResult');
    tree = ((await backend.next('Snapshot')) as { tree: Seed000Node[] }).tree;
    expect(
      tree.map((n) => n.name),
      'viewport only: after scrolling the far button is in, Login is out',
    )
      .to.include('Far below')
      .and.not.include('Login');
    backend.command({ type: 'click_element', ref: 99 });
    const bad = await backend.next('ActionResult');
    expect(bad['success']).to.equal(false);
    expect(bad['error']).to.match(/ref 99 is not in the latest Snapshot/);
    await backend.next('Snapshot');
    backend.command({ type: 'fly' });
    expect((await backend.next('ActionResult'))['error']).to.match(/Supported: navigate_to, click_element, type_text, scroll_to/);
  });

  it('a shop task: navigate_to, type_text, click_element until the stapler is in the cart', async () => {
    backend.command({ type: 'navigate_to', url: h.fixtures.url('/index.html') });
    expect(await backend.next('ActionResult')).to.include({ success: true });
    let tree = ((await backend.next('Snapshot')) as { tree: Seed000Node[] }).tree;
    backend.command({ type: 'type_text', ref: find(tree, 'textbox', 'Search products').id, text: 'stapler' });
    expect(await backend.next('ActionResult')).to.include({ success: true });
    tree = ((await backend.next('Snapshot')) as { tree: Seed000Node[] }).tree;
    backend.command({ type: 'click_element', ref: find(tree, 'button', 'Search').id });
    expect(await backend.next('ActionResult')).to.include({ success: true });
    tree = ((await backend.next('Snapshot')) as { tree: Seed000Node[] }).tree;
    backend.command({ type: 'click_element', ref: find(tree, 'button', 'Add Mini Stapler to cart').id });
    expect(await backend.next('ActionResult')).to.include({ success: true });
    tree = ((await backend.next('Snapshot')) as { tree: Seed000Node[] }).tree;
    backend.command({ type: 'click_element', ref: find(tree, 'link', 'Cart').id });
    expect(await backend.next('ActionResult')).to.include({ success: true });
    await backend.next('Snapshot');
    const page = (await h.launched.browser.pages()).find((p) => p.url().includes('/cart.html'));
    expect(await page?.$eval('#items', (e) => e.textContent)).to.contain('Mini Stapler');
  });

  it('the bridge-side ConnectorManager (for the panel setting) adds, lists and removes a connector', async () => {
    const other = await new Seed000Backend().start();
    const m = new ConnectorManager({ bridgeAgentUrl: h.bridge.agentUrl, agentSecret: h.secrets.agent_secret });
    try {
      await expectRejects(() => m.add('000', 'ws://192.0.2.1:9/'), /--allow-remote/);
      const info = await m.add('000', other.url);
      expect(info).to.include({ dialect: '000', url: other.url, client_name: `seed000-connector ${other.url}` });
      await other.next('Snapshot');
      await waitFor(() => m.list()[0]?.backend === 'connected');
      expect(m.list()[0]?.session_id).to.be.a('string');
      expect((h.bridge.status()['agents'] as { client: { name: string } }[]).map((a) => a.client.name)).to.include(info.client_name);
      expect(await m.remove(info.connector_id)).to.equal(true);
      expect(m.list()).to.deep.equal([]);
    } finally {
      await m.closeAll();
      await other.close();
    }
  });
});

async function waitFor(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function expectRejects(fn: () => Promise<unknown>, re: RegExp): Promise<void> {
  try {
    await fn();
  } catch (e) {
    expect((e as Error).message).to.match(re);
    return;
  }
  throw new Error('expected a rejection');
}
