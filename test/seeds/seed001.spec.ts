// Seed 001 ("Extension Architecture") end to end: a backend written from the seed alone (backends.ts)
// drives real Chromium through `connect --dialect 001`: the connector dials the backend and is an
// agent session on the bridge. First the seed's literal command examples, then a shop task.
import { spawn } from 'node:child_process';
import path from 'node:path';

import { expect } from 'chai';

import { SeedConnector } from '../../bridge/agents/connectors/connector';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { Seed001Backend } from './backends';

const SHOP = path.join(REPO_ROOT, 'python-shim-spec/tests/fixtures/shop');

/** The ref of `<role> "<name>"... [ref=eN]` in a seed 001 text tree (its own line, or inline in a block's line). */
function refOf(tree: string, role: string, name: string): string {
  const phrase = `${role} ${JSON.stringify(name)}`;
  const line = tree.split('\n').find((l) => l.trim().startsWith(`- ${phrase}`) || l.includes(` ${phrase} `));
  const m = line ? /\[ref=(e\d+)\]/.exec(line.slice(line.indexOf(phrase))) : null;
  if (!m?.[1]) throw new Error(`no ${role} "${name}" in\n${tree}`);
  return m[1];
}

describe('seed 001: a backend from the seed document drives the browser', function () {
  let h: Harness;
  let backend: Seed001Backend;
  let connector: SeedConnector;
  before(async function () {
    this.timeout(90_000);
    h = await startHarness({ fixturesDir: SHOP });
    h.fixtures.html(
      '/form',
      `<h1>Sign in</h1>
       <label>Email <input id="email" value="old"></label>
       <label><input type="checkbox" id="agree"> I agree</label>
       <select id="size" aria-label="Size"><option value="s">Small</option><option value="option1">Large</option></select>
       <button id="submit" onclick="document.getElementById('out').textContent = 'sent ' + document.getElementById('email').value">Submit</button>
       <button id="dbl" ondblclick="this.textContent = 'double'">Twice</button>
       <button id="hov" onmouseover="this.textContent = 'hovered'">Hover me</button>
       <p id="out">idle</p>`,
      'Form',
    );
    backend = await new Seed001Backend().start();
    connector = new SeedConnector({
      dialect: '001',
      backendUrl: backend.url,
      bridgeUrl: h.bridge.agentUrl,
      secret: h.secrets.agent_secret,
      minDelayMs: 50,
      maxDelayMs: 200,
    });
    await connector.start();
    await backend.waitConnected();
  });
  after(async () => {
    await connector?.stop();
    await backend?.close();
    await h?.close();
  });

  it('is an agent session on the bridge named for the seed and the backend URL', () => {
    const agents = h.bridge.status()['agents'] as { client: { name: string } }[];
    expect(agents.map((a) => a.client.name)).to.include(`seed001-connector ${backend.url}`);
  });

  it('answers ping with pong (heartbeats)', async () => {
    expect(await backend.ping()).to.deep.equal({ type: 'pong' });
  });

  it("runs the seed's literal examples: snapshot, click, dblclick, fill, type, press, hover, focus, check, uncheck, select, get, is", async () => {
    await h.openPage(h.fixtures.url('/form'));
    const snap = await backend.send({ type: 'snapshot' });
    expect(snap['success'], JSON.stringify(snap)).to.equal(true);
    const tree = snap['data'] as string;
    expect(tree).to.match(/^- heading "Sign in" \[level=1\]/m);
    expect(tree).to.contain('- button "Submit" [ref=');
    expect(tree, "the agent's own bar is never in a snapshot").not.to.contain('Stop').and.not.to.contain('Agent is controlling');
    const refs = [...tree.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]);
    expect(refs, 'refs e1.. in order').to.deep.equal(refs.map((_, i) => `e${i + 1}`));
    const email = refOf(tree, 'textbox', 'Email');
    const submit = refOf(tree, 'button', 'Submit');

    expect(await backend.send({ type: 'fill', params: { ref: email, value: 'text' } })).to.include({ success: true });
    expect(await backend.send({ type: 'type', params: { ref: email, text: '@x.org', delay: 50 } })).to.include({ success: true });
    expect((await backend.send({ type: 'get', params: { what: 'value', ref: email } }))['data']).to.equal('text@x.org');
    expect(await backend.send({ type: 'click', params: { ref: submit } })).to.include({ success: true });
    expect((await backend.send({ type: 'get', params: { what: 'text', ref: refOf(tree, 'button', 'Submit') } }))['data']).to.equal(
      'Submit',
    );
    const page = (await h.launched.browser.pages()).find((p) => p.url().endsWith('/form'));
    expect(await page?.$eval('#out', (e) => e.textContent)).to.equal('sent text@x.org');

    expect(await backend.send({ type: 'dblclick', params: { ref: refOf(tree, 'button', 'Twice') } })).to.include({ success: true });
    expect(await page?.$eval('#dbl', (e) => e.textContent)).to.equal('double');
    expect(await backend.send({ type: 'hover', params: { ref: refOf(tree, 'button', 'Hover me') } })).to.include({ success: true });
    expect(await page?.$eval('#hov', (e) => e.textContent)).to.equal('hovered');

    const agree = refOf(tree, 'checkbox', 'I agree');
    expect(await backend.send({ type: 'check', params: { ref: agree } })).to.include({ success: true });
    expect((await backend.send({ type: 'is', params: { what: 'checked', ref: agree } }))['data']).to.equal(true);
    expect(await backend.send({ type: 'uncheck', params: { ref: agree } })).to.include({ success: true });
    expect((await backend.send({ type: 'is', params: { what: 'checked', ref: agree } }))['data']).to.equal(false);

    const size = refOf(tree, 'combobox', 'Size');
    expect(await backend.send({ type: 'select', params: { ref: size, value: 'option1' } })).to.include({ success: true });
    expect(await page?.$eval('#size', (e) => (e as HTMLSelectElement).value)).to.equal('option1');

    expect(await backend.send({ type: 'focus', params: { ref: email } })).to.include({ success: true });
    expect((await backend.send({ type: 'is', params: { what: 'focused', ref: email } }))['data']).to.equal(true);
    expect(await backend.send({ type: 'press', params: { key: 'Enter', ref: submit } })).to.include({ success: true });
    expect((await backend.send({ type: 'get', params: { what: 'title' } }))['data']).to.equal('Form');
    expect((await backend.send({ type: 'is', params: { what: 'visible', ref: submit } }))['data']).to.equal(true);
  });

  it('replaces refs on every snapshot and says what to do with an unknown ref', async () => {
    const r = await backend.send({ type: 'click', params: { ref: 'e999' } });
    expect(r['success']).to.equal(false);
    expect(r['error']).to.match(/Ref "e999" not found .*Take a new snapshot/);
    expect(r['id']).to.be.a('string');
    const bad = await backend.send({ type: 'explode' });
    expect(bad).to.include({ success: false });
    expect(bad['error']).to.contain('Supported: snapshot, click');
  });

  it('tab new|list|switch|close and open, routed to the tab of the last snapshot', async () => {
    const before = (await backend.send({ type: 'tab', params: { action: 'list' } }))['data'] as { tabId: number; url: string }[];
    const made = await backend.send({ type: 'tab', params: { action: 'new', url: h.fixtures.url('/index.html') } });
    expect(made['success'], JSON.stringify(made)).to.equal(true);
    const newId = (made['data'] as { tabId: number }).tabId;
    const list = (await backend.send({ type: 'tab', params: { action: 'list' } }))['data'] as {
      tabId: number;
      url: string;
      active: boolean;
    }[];
    expect(list.length).to.equal(before.length + 1);
    expect(list.find((t) => t.tabId === newId)?.url).to.contain('/index.html');
    const opened = await backend.send({ type: 'open', params: { url: h.fixtures.url('/cart.html') } });
    expect(opened['success'], JSON.stringify(opened)).to.equal(true);
    expect((await backend.send({ type: 'get', params: { what: 'url' } }))['data']).to.contain('/cart.html');
    const other = list.find((t) => t.tabId !== newId) as { tabId: number };
    expect(await backend.send({ type: 'tab', params: { action: 'switch', tabId: other.tabId } })).to.include({ success: true });
    expect(await backend.send({ type: 'tab', params: { action: 'close', tabId: newId } })).to.include({ success: true });
    const after = (await backend.send({ type: 'tab', params: { action: 'list' } }))['data'] as { tabId: number }[];
    expect(after.map((t) => t.tabId)).not.to.include(newId);
  });

  it('a shop task: search for staplers, add the cheapest to the cart, see it in the cart', async () => {
    expect(await backend.send({ type: 'open', params: { url: h.fixtures.url('/index.html') } })).to.include({ success: true });
    let tree = (await backend.send({ type: 'snapshot' }))['data'] as string;
    expect(await backend.send({ type: 'fill', params: { ref: refOf(tree, 'textbox', 'Search products'), value: 'stapler' } })).to.include({
      success: true,
    });
    expect(await backend.send({ type: 'press', params: { key: 'Enter', ref: refOf(tree, 'textbox', 'Search products') } })).to.include({
      success: true,
    });
    tree = (await backend.send({ type: 'snapshot' }))['data'] as string;
    expect(tree).to.contain('Add Mini Stapler to cart');
    expect(await backend.send({ type: 'click', params: { ref: refOf(tree, 'button', 'Add Mini Stapler to cart') } })).to.include({
      success: true,
    });
    tree = (await backend.send({ type: 'snapshot' }))['data'] as string;
    expect(tree).to.contain('Mini Stapler added to your cart.');
    expect(await backend.send({ type: 'click', params: { ref: refOf(tree, 'link', 'Cart') } })).to.include({ success: true });
    tree = (await backend.send({ type: 'snapshot' }))['data'] as string;
    expect(tree).to.contain('Mini Stapler - $3.99');
  });

  it('reconnects to the backend after the link drops, same bridge session', async () => {
    const sessionsBefore = (h.bridge.status()['agents'] as unknown[]).length;
    backend.dropClient();
    await new Promise((r) => setTimeout(r, 100));
    await backend.waitConnected();
    const snap = await backend.send({ type: 'snapshot' });
    expect(snap['success']).to.equal(true);
    expect((h.bridge.status()['agents'] as unknown[]).length).to.equal(sessionsBefore);
  });

  it('`browser-use-ext connect --dialect 001` from the command line: joins, serves, and Ctrl+C ends its session', async function () {
    this.timeout(60_000);
    const other = await new Seed001Backend().start();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(REPO_ROOT, 'bridge/cli/main.ts'),
        'connect',
        '--dialect',
        '001',
        other.url,
        '--bridge',
        h.bridge.agentUrl,
        '--log-level',
        'warn',
      ],
      { env: { ...process.env, BROWSER_USE_EXT_AGENT_SECRET: h.secrets.agent_secret } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await other.waitConnected();
      const names = () => (h.bridge.status()['agents'] as { client: { name: string } }[]).map((a) => a.client.name);
      expect(names()).to.include(`seed001-connector ${other.url}`);
      const tabs = await other.send({ type: 'tab', params: { action: 'list' } });
      expect(tabs['success'], out).to.equal(true);
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect(code, out).to.equal(0);
      expect(out).to.contain('connector stopped: SIGINT');
      await new Promise((r) => setTimeout(r, 200));
      expect(names()).not.to.include(`seed001-connector ${other.url}`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await other.close();
    }
  });
});
