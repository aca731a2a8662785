// MCP clients drive the real browser through the bridge: the official SDK client over stdio (the
// built CLI, as an MCP client config runs it) and over Streamable HTTP (/mcp on the bridge), with
// real Chromium and the built extension (test/harness).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { expect } from 'chai';

import { McpTokenStore } from '../../bridge/agents/mcp/tokens';
import { clearSettings, setSettings } from '../e2e/worker-actions.helpers';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { callTool, connectHttpClient, connectStdioClient } from '../harness/mcp-clients';

const SHOP = path.join(REPO_ROOT, 'python-shim-spec', 'tests', 'fixtures', 'shop');

/** The ref of the first snapshot line matching `pattern`. */
function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  const ref = line && /\[ref=([^\]]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no line matching ${pattern} with a ref in:\n${snapshot}`);
  return ref;
}

/** A raw request to /mcp, so tests control every header (fetch cannot set Host or Origin). */
function rawMcp(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('mcp: MCP clients drive the real browser through the bridge', function () {
  this.timeout(120_000);
  let h: Harness;
  let tokenDir: string;
  let tokens: McpTokenStore;
  let tokenA: string;
  let tokenB: string;
  const clients: Client[] = [];

  before(async function () {
    this.timeout(90_000);
    tokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-mcp-tokens-'));
    tokens = new McpTokenStore(tokenDir);
    tokenA = tokens.add('client-a');
    tokenB = tokens.add('client-b');
    h = await startHarness({ fixturesDir: SHOP, bridgeOptions: { mcpTokens: tokens } });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await h?.close();
    fs.rmSync(tokenDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    // Sessions end with their clients (normal close): give the bridge a moment to see it.
    await new Promise((r) => setTimeout(r, 200));
  });

  const stdio = async (name: string) => {
    const c = await connectStdioClient({ agentUrl: h.bridge.agentUrl, agentSecret: h.secrets.agent_secret, name });
    clients.push(c);
    return c;
  };
  const stdioWith = async (name: string, secret: string) => {
    const c = await connectStdioClient({ agentUrl: h.bridge.agentUrl, agentSecret: secret, name });
    clients.push(c);
    return c;
  };
  const overHttp = async (name: string, token = tokenA) => {
    const c = await connectHttpClient({ port: h.bridge.port, token, name });
    clients.push(c);
    return c;
  };

  it('lists every tool, each input schema compiles in ajv strict mode (stdio and HTTP list the same)', async () => {
    const a = await stdio('list-stdio');
    const b = await overHttp('list-http');
    const [la, lb] = await Promise.all([a.listTools(), b.listTools()]);
    const names = la.tools.map((t) => t.name);
    expect(names).to.include.members([
      'browser_snapshot',
      'browser_click',
      'browser_double_click',
      'browser_hover',
      'browser_type',
      'browser_fill',
      'browser_fill_form',
      'browser_press_key',
      'browser_select_option',
      'browser_check',
      'browser_uncheck',
      'browser_drag',
      'browser_scroll',
      'browser_navigate',
      'browser_navigate_back',
      'browser_navigate_forward',
      'browser_reload',
      'browser_tabs',
      'browser_wait_for',
      'browser_take_screenshot',
      'browser_extract_text',
      'browser_evaluate',
    ]);
    expect(lb.tools).to.deep.equal(la.tools);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const t of la.tools) {
      expect(t.inputSchema.type, t.name).to.equal('object');
      expect(() => ajv.compile(t.inputSchema), t.name).not.to.throw();
    }
  });

  it('does a multi-step task on the fixture shop over stdio: search, add to cart, check the cart', async () => {
    await h.openPage(h.fixtures.url('/index.html'));
    const c = await stdio('shop-task');
    const first = await callTool(c, 'browser_snapshot');
    expect(first.isError, first.text).to.equal(false);
    expect(first.text).to.match(/Paper & Co\. office shop — http:\/\/127\.0\.0\.1:\d+\/index\.html/);
    const search = refOf(first.text, /textbox "Search products"/);
    const filled = await callTool(c, 'browser_fill', { element_id: search, value: 'stapler' });
    expect(filled.isError, filled.text).to.equal(false);
    expect(filled.text).to.match(/textbox "Search products" .*\[ref=[^\]]+\]: stapler/);
    const submitted = await callTool(c, 'browser_click', { role: 'button', name: 'Search', exact: true });
    expect(submitted.isError, submitted.text).to.equal(false);
    expect(submitted.text).to.match(/Outcome: navigated to http:\/\/127\.0\.0\.1:\d+\/results\.html\?q=stapler/);
    expect(submitted.text).to.contain('- heading "Results for \\"stapler\\"" [level=1]');
    const add = refOf(submitted.text, /button "Add Mini Stapler to cart"/);
    const added = await callTool(c, 'browser_click', { element_id: add });
    expect(added.isError, added.text).to.equal(false);
    expect(added.text).to.contain('Outcome: the page changed');
    expect(added.text).to.contain('Mini Stapler added to your cart.');
    const cart = await callTool(c, 'browser_navigate', { url: h.fixtures.url('/cart.html') });
    expect(cart.isError, cart.text).to.equal(false);
    expect(cart.text).to.match(/Your cart — http:\/\/127\.0\.0\.1:\d+\/cart\.html/);
    expect(cart.text).to.contain('Mini Stapler - $3.99');
    // Incremental: the base is the last snapshot of this tab and scope (here the one navigate returned).
    const base = await callTool(c, 'browser_snapshot', { incremental: true });
    expect(base.text).to.contain('(no change since the last snapshot)');
    const emptied = await callTool(c, 'browser_click', { role: 'button', name: 'Empty cart', snapshot: 'incremental' });
    expect(emptied.isError, emptied.text).to.equal(false);
    expect(emptied.text).to.contain('Snapshot (changes):');
    expect(emptied.text).to.contain('+ - listitem: Your cart is empty');
    expect(emptied.text).to.contain('- - listitem: Mini Stapler - $3.99');
    expect(emptied.text).not.to.contain('heading "Your cart"'); // unchanged lines are left out
    const unchanged = await callTool(c, 'browser_snapshot', { incremental: true });
    expect(unchanged.text).to.contain('(no change since the last snapshot)');
    const back = await callTool(c, 'browser_navigate_back');
    expect(back.isError, back.text).to.equal(false);
    expect(back.text).to.contain('results.html?q=stapler');
  });

  it('snapshots a subtree by ref, the whole page, and gives a tool error for a ref that is gone', async () => {
    const tall = h.fixtures.html(
      '/tall',
      '<nav aria-label="Main"><a href="#a">Alpha</a><a href="#b">Beta</a></nav>' +
        '<label>Country <select><option>France</option><option selected>Germany</option><option>Italy</option></select></label>' +
        '<div style="height:3000px"></div><button>Far below</button>',
      'Tall',
    );
    await h.openPage(tall);
    const c = await stdio('subtree');
    const viewport = await callTool(c, 'browser_snapshot');
    expect(viewport.text).not.to.contain('Far below');
    // A closed dropdown's options on its line (the state lists them nowhere), also for the element alone.
    expect(viewport.text, viewport.text).to.match(/combobox "Country" \[ref=(e\d+)\]: options "France", "Germany" \[selected\], "Italy"$/m);
    const country = refOf(viewport.text, /combobox "Country"/);
    const alone = await callTool(c, 'browser_snapshot', { ref: country });
    expect(alone.text).to.contain('options "France", "Germany" [selected], "Italy"');
    const whole = await callTool(c, 'browser_snapshot', { viewport_expansion: -1 });
    expect(whole.text).to.contain('button "Far below"');
    const nav = refOf(whole.text, /navigation "Main"|link "Alpha"/);
    const sub = await callTool(c, 'browser_snapshot', { ref: nav });
    expect(sub.isError, sub.text).to.equal(false);
    expect(sub.text).to.contain('Alpha');
    expect(sub.text).not.to.contain('Far below');
    const gone = await callTool(c, 'browser_snapshot', { ref: 'e99999' });
    expect(gone.isError).to.equal(true);
    expect(gone.text).to.match(/^Error TARGET_ELEMENT_NOT_FOUND: .*Take a browser_snapshot/);
    const stale = await callTool(c, 'browser_click', { element_id: 'e99999' });
    expect(stale.isError).to.equal(true);
    expect(stale.text).to.match(/^Error TARGET_ELEMENT_NOT_FOUND: /);
    // In the model's words: the tool and the field it knows, not the protocol's get_state and element_id.
    expect(stale.text)
      .to.contain('browser_snapshot')
      .and.to.contain('ref')
      .and.not.to.match(/get_state|element_id/);
  });

  it('reports dialogs, typed errors with what to do next, screenshots as images, page text, evaluate only when allowed', async () => {
    const page = h.fixtures.html(
      '/misc',
      '<button onclick="document.title = confirm(\'Really delete?\') ? \'yes\' : \'no\'">Delete</button><label>Qty <input type="number" id="q"></label><p>Plain text here.</p>',
      'Misc',
    );
    await h.openPage(page);
    const c = await overHttp('misc-http');
    const del = await callTool(c, 'browser_click', { role: 'button', name: 'Delete' });
    expect(del.isError, del.text).to.equal(false);
    expect(del.text).to.match(/confirm dialog "Really delete\?" was accepted by the person's dialog policy/);
    const bad = await callTool(c, 'browser_click', { role: 'button', name: 'Delete', selector: 'button' });
    expect(bad.isError).to.equal(true);
    expect(bad.text).to.equal('Error INVALID_MESSAGE: browser_click: give the element once, not `role` and `selector`.');
    const shot = await callTool(c, 'browser_take_screenshot');
    expect(shot.isError, shot.text).to.equal(false);
    expect(shot.images).to.have.length(1);
    expect(shot.images[0]?.mimeType).to.equal('image/png');
    expect(
      Buffer.from(shot.images[0]?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).to.equal('PNG');
    const txt = await callTool(c, 'browser_extract_text');
    expect(txt.text).to.contain('Plain text here.');
    const denied = await callTool(c, 'browser_evaluate', { expression: '1 + 1' });
    expect(denied.isError).to.equal(true);
    expect(denied.text).to.match(/^Error NOT_PERMITTED: /);
    await setSettings(h, { allow_evaluate: true });
    try {
      const ok = await callTool(c, 'browser_evaluate', { expression: 'document.title' });
      expect(ok.isError, ok.text).to.equal(false);
      expect(ok.text).to.contain('"value_json":"\\"yes\\""');
    } finally {
      await clearSettings(h, ['allow_evaluate']);
    }
    const waited = await callTool(c, 'browser_wait_for', { text: 'Plain text', timeout_ms: 2000 });
    expect(waited.isError, waited.text).to.equal(false);
    const timeout = await callTool(c, 'browser_wait_for', { text: 'Never shown', timeout_ms: 300 });
    expect(timeout.isError).to.equal(true);
    expect(timeout.text).to.match(/^Error TIMEOUT: /);
    const idle = await callTool(c, 'browser_wait_for', { network_idle: true, idle_ms: 100 });
    expect(idle.isError, idle.text).to.equal(false);
  });

  it('maps every action tool onto its action: type, press, select, check/uncheck, hover, double click, drag, scroll, waits, history, tabs', async () => {
    const log = "document.getElementById('log').textContent";
    const page = h.fixtures.html(
      '/tools',
      `<input aria-label="Name"><select aria-label="Colour"><option value="r">Red</option><option value="g">Green</option></select>
       <label><input type="checkbox"> Subscribe</label>
       <button onmouseover="${log}='hovered'">Hover me</button><button ondblclick="${log}='double'">Double me</button>
       <div id="src" draggable="true" ondragstart="event.dataTransfer.setData('text/plain','x')" style="width:80px;height:30px;background:#ccc">Drag me</div>
       <div id="dst" ondragover="event.preventDefault()" ondrop="event.preventDefault(); ${log}='dropped'" style="width:120px;height:60px;background:#eee">Drop here</div>
       <p id="log">nothing yet</p><div style="height:3000px"></div><p>Bottom</p>`,
      'Tools',
    );
    const other = h.fixtures.html('/tools-2', '<h1>Second page</h1>', 'Second');
    await h.openPage(page);
    const c = await stdio('every-tool');
    const ok = async (name: string, args: Record<string, unknown>, expected: RegExp) => {
      const r = await callTool(c, name, args);
      expect(r.isError, `${name}: ${r.text}`).to.equal(false);
      expect(r.text, name).to.match(expected);
      return r;
    };
    await ok('browser_type', { role: 'textbox', name: 'Name', text: 'Adam' }, /textbox "Name" .*: Adam/);
    await ok('browser_press_key', { role: 'textbox', name: 'Name', key: 'Backspace' }, /textbox "Name" .*: Ada\b/);
    await ok('browser_select_option', { role: 'combobox', name: 'Colour', labels: ['Green'] }, /"values":\["g"\]/);
    await ok('browser_check', { role: 'checkbox', name: 'Subscribe' }, /checkbox "Subscribe" \[checked\]/);
    const un = await ok('browser_uncheck', { role: 'checkbox', name: 'Subscribe' }, /checkbox "Subscribe"/);
    expect(un.text).not.to.contain('[checked]');
    await ok('browser_hover', { role: 'button', name: 'Hover me' }, /hovered/);
    await ok('browser_double_click', { role: 'button', name: 'Double me' }, /double/);
    await ok('browser_drag', { selector: '#src', to: { selector: '#dst' } }, /dropped/);
    await ok('browser_scroll', { direction: 'down', amount: 1500 }, /"moved":true/);
    await ok('browser_wait_for', { ms: 50 }, /"waited_ms":\d+/);
    await ok('browser_reload', {}, /^reload: loaded [^]*\nTab \d+: Tools — /);
    await ok('browser_navigate', { url: other }, /heading "Second page"/);
    await ok('browser_navigate_back', {}, /Tools — /);
    await ok('browser_navigate_forward', {}, /Second — /);
    const opened = await ok('browser_tabs', { action: 'new', url: page }, /"tab_id":\d+/);
    const newTab = Number(/"tab_id":(\d+)/.exec(opened.text)?.[1]);
    await ok('browser_tabs', { action: 'close', tab_id: newTab }, new RegExp(`"closed_tab_id":${newTab}`));
    const list = await ok('browser_tabs', { action: 'list' }, /\[yours\]/);
    expect(list.text).not.to.contain(`tab ${newTab} `);
  });

  it("takes Playwright MCP 0.0.83's exact argument shapes with refs from our snapshot, for every tool we share a name with", async () => {
    const log = "document.getElementById('log').textContent";
    const page = h.fixtures.html(
      '/pw-shapes',
      `<form onsubmit="event.preventDefault(); ${log}='submitted ' + this.q.value"><label>Query <input name="q"></label></form>
       <label>Size <select name="size" size="3"><option value="s">S</option><option value="m">M</option><option value="l">L</option></select></label>
       <label><input type="checkbox" id="news"> Newsletter</label><label>Email <input id="mail"></label>
       <button onclick="${log}='clicked ' + event.detail" ondblclick="${log}='double'">Submit</button>
       <button onmouseover="${log}='hovered'">Hover target</button>
       <div id="src" role="button" tabindex="0" draggable="true" ondragstart="event.dataTransfer.setData('text/plain','x')" style="width:80px;height:30px;background:#ccc">Card</div>
       <div id="dst" ondragover="event.preventDefault()" ondrop="event.preventDefault(); ${log}='dropped'" style="width:120px;height:60px;background:#eee">Done</div>
       <p id="log">nothing yet</p>`,
      'PW shapes',
    );
    const second = h.fixtures.html('/pw-shapes-2', '<h1>Second</h1>', 'Second');
    await h.openPage(page);
    const c = await stdio('playwright-shaped');
    const ok = async (name: string, args: Record<string, unknown>) => {
      const r = await callTool(c, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}: ${r.text}`).to.equal(false);
      return r.text;
    };
    const snap = await ok('browser_snapshot', {});
    // The select's options are on its line, the selected one first.
    expect(snap).to.match(/- listbox "Size" \[ref=[^\]]+\]: none selected \(options: S, M, L\)/);
    const ref = (p: RegExp) => refOf(snap, p);
    expect(await ok('browser_click', { element: 'Submit button', ref: ref(/button "Submit"/) })).to.contain('clicked 1');
    expect(await ok('browser_click', { element: 'Submit button', target: ref(/button "Submit"/), doubleClick: true })).to.contain('double');
    expect(await ok('browser_click', { element: 'Submit button', target: 'button[ondblclick]' })).to.contain('clicked');
    expect(await ok('browser_hover', { element: 'Hover target', target: ref(/button "Hover target"/) })).to.contain('hovered');
    const selected = await ok('browser_select_option', { element: 'Size', target: ref(/listbox "Size"/), values: ['M'] });
    expect(selected).to.match(/listbox "Size" [^\n]*\[ref=[^\]]+\]: M \(options: S, M, L\)/);
    const filled = await ok('browser_fill_form', {
      fields: [
        { name: 'Email', type: 'textbox', target: ref(/textbox "Email"/), value: 'a@b.c' },
        { name: 'Newsletter', type: 'checkbox', target: ref(/checkbox "Newsletter"/), value: 'true' },
        { name: 'Size', type: 'combobox', target: ref(/listbox "Size"/), value: 'L' },
      ],
    });
    expect(filled).to.match(/textbox "Email" \[ref=[^\]]+\]: a@b\.c/);
    expect(filled).to.match(/checkbox "Newsletter" \[checked\]/);
    expect(filled).to.match(/listbox "Size" [^\n]*\[ref=[^\]]+\]: L \(options/);
    expect(await ok('browser_type', { element: 'Query', target: ref(/textbox "Query"/), text: 'stapler', submit: true })).to.contain(
      'submitted stapler',
    );
    expect(await ok('browser_press_key', { key: 'ArrowLeft' })).to.match(/^Pressed ArrowLeft/);
    // Our element tools that Playwright MCP does not have take the same {element, ref} shape.
    expect(await ok('browser_fill', { element: 'Email', ref: ref(/textbox "Email"/), value: 'x@y.z' })).to.match(
      /textbox "Email" [^\n]*: x@y\.z/,
    );
    const unchecked = await ok('browser_uncheck', { element: 'Newsletter', ref: ref(/checkbox "Newsletter"/) });
    expect(unchecked).to.match(/checkbox "Newsletter"/);
    expect(unchecked).not.to.match(/checkbox "Newsletter" [^\n]*\[checked\]/);
    expect(await ok('browser_check', { element: 'Newsletter', ref: ref(/checkbox "Newsletter"/) })).to.match(
      /checkbox "Newsletter" [^\n]*\[checked\]/,
    );
    expect(await ok('browser_press_key', { element: 'Email', ref: ref(/textbox "Email"/), key: 'Backspace' })).to.match(
      /textbox "Email" [^\n]*: x@y\.$/m,
    );
    expect(await ok('browser_double_click', { element: 'Submit button', ref: ref(/button "Submit"/) })).to.contain('double');
    expect(await ok('browser_scroll', { element: 'Size', ref: ref(/listbox "Size"/), direction: 'down', amount: 10 })).not.to.match(
      /^Error/,
    );
    expect(
      await ok('browser_drag', {
        startElement: 'Card',
        startTarget: ref(/button "Card"/),
        endElement: 'Done column',
        endTarget: '#dst', // 0.0.83's target may be a selector
      }),
    ).to.contain('dropped');
    expect(await ok('browser_wait_for', { text: 'dropped' })).not.to.match(/^Error/);
    expect(await ok('browser_wait_for', { textGone: 'nothing yet' })).not.to.match(/^Error/);
    expect(await ok('browser_wait_for', { time: 0.1 })).to.match(/"waited_ms":\d+/);
    const shot = await callTool(c, 'browser_take_screenshot', { type: 'png', scale: 'css' });
    expect(shot.isError, shot.text).to.equal(false);
    expect(shot.images).to.have.length(1);
    await setSettings(h, { allow_evaluate: true });
    try {
      expect(await ok('browser_evaluate', { function: '() => document.title' })).to.contain('PW shapes');
    } finally {
      await clearSettings(h, ['allow_evaluate']);
    }
    expect(await ok('browser_navigate', { url: second })).to.contain('heading "Second"');
    expect(await ok('browser_navigate_back', {})).to.contain('PW shapes');
    const sub = await ok('browser_snapshot', { target: ref(/listbox "Size"/) });
    expect(sub).to.match(/listbox "Size"/);
    expect(sub).not.to.contain('Newsletter');
    const list = await ok('browser_tabs', { action: 'list' });
    const opened = await ok('browser_tabs', { action: 'new', url: second });
    const newTab = Number(/"tab_id":(\d+)/.exec(opened)?.[1]);
    const relisted = await ok('browser_tabs', { action: 'list' });
    const index = Number(new RegExp(`- \\[(\\d+)\\] tab ${newTab} `).exec(relisted)?.[1]);
    expect(list).not.to.contain(`tab ${newTab} `);
    expect(await ok('browser_tabs', { action: 'select', index })).to.contain(`Tab ${newTab}:`);
    expect(await ok('browser_tabs', { action: 'close', index })).to.contain(`"closed_tab_id":${newTab}`);
  });

  it("runs two clients at once on their own tabs (stdio + HTTP); another client's tab is refused; closing frees the tabs", async () => {
    await h.openPage(h.fixtures.url('/index.html'));
    const a = await stdio('claude-desktop');
    const b = await overHttp('cursor', tokenB);
    const snapA = await callTool(a, 'browser_snapshot');
    expect(snapA.isError, snapA.text).to.equal(false);
    const tabA = Number(/^Tab (\d+):/m.exec(snapA.text)?.[1]);
    const opened = await callTool(b, 'browser_tabs', { action: 'new', url: h.fixtures.url('/cart.html') });
    expect(opened.isError, opened.text).to.equal(false);
    const tabB = Number(/"tab_id":(\d+)/.exec(opened.text)?.[1]);
    expect(tabB).to.be.a('number').and.not.equal(tabA);
    // Both act at the same time, each on its own tab.
    const [ra, rb] = await Promise.all([
      callTool(a, 'browser_fill_form', { fields: [{ role: 'textbox', name: 'Search products', value: 'paper' }] }),
      callTool(b, 'browser_click', { role: 'button', name: 'Empty cart' }),
    ]);
    expect(ra.isError, ra.text).to.equal(false);
    expect(ra.text).to.contain('Filled 1 field(s)');
    expect(ra.text).to.contain(`Tab ${tabA}:`);
    expect(rb.isError, rb.text).to.equal(false);
    expect(rb.text).to.contain(`Tab ${tabB}:`);
    const refused = await callTool(a, 'browser_snapshot', { tab_id: tabB });
    expect(refused.isError).to.equal(true);
    expect(refused.text).to.match(/^Error TAB_NOT_LEASED: .*open_tab/);
    const list = await callTool(b, 'browser_tabs', { action: 'list' });
    expect(list.text).to.match(new RegExp(`tab ${tabB} \\[yours\\]`));
    expect(list.text).not.to.match(new RegExp(`tab ${tabA} \\[yours\\]`));
    const sessions = h.bridge.status()['sessions'] as { client: { name: string } | null; tabs: { tab_id: number }[] }[];
    const byName = (n: string) => sessions.find((s) => s.client?.name === n);
    expect(byName('mcp:claude-desktop')?.tabs.map((t) => t.tab_id)).to.deep.equal([tabA]);
    expect(byName('mcp:cursor [client-b]')?.tabs.map((t) => t.tab_id)).to.deep.equal([tabB]);
    // Disconnecting B (DELETE /mcp, as the SDK client's terminateSession) ends its bridge session: its tab is free for A.
    await (b.transport as StreamableHTTPClientTransport).terminateSession();
    await b.close();
    clients.splice(clients.indexOf(b), 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(byNameNow(h, 'mcp:cursor [client-b]')).to.equal(undefined);
    const taken = await callTool(a, 'browser_tabs', { action: 'select', tab_id: tabB });
    expect(taken.isError, taken.text).to.equal(false);
  });

  it('an HTTP client that closed without DELETE is gone within seconds with its tab freed; a live client idling as long keeps working', async () => {
    const live = await overHttp('stays', tokenA);
    const gone = await overHttp('goes-away', tokenB);
    const opened = await callTool(gone, 'browser_tabs', { action: 'new', url: h.fixtures.url('/cart.html') });
    expect(opened.isError, opened.text).to.equal(false);
    const tab = Number(/"tab_id":(\d+)/.exec(opened.text)?.[1]);
    expect(byNameNow(h, 'mcp:goes-away [client-b]')?.['connected']).to.equal(true);
    // What an SDK client does when its program ends: Client.close() aborts its streams and sends no DELETE.
    await gone.close();
    clients.splice(clients.indexOf(gone), 1);
    const closedAt = Date.now();
    while (byNameNow(h, 'mcp:goes-away [client-b]') !== undefined) {
      expect(Date.now() - closedAt, 'the closed client still holds its bridge session').to.be.below(12_000);
      await new Promise((r) => setTimeout(r, 250));
    }
    // The live client idled all that time (longer than the 5 s window) and still works, on the freed tab too.
    const taken = await callTool(live, 'browser_tabs', { action: 'select', tab_id: tab });
    expect(taken.isError, taken.text).to.equal(false);
  });

  it('refuses further calls once the person disconnected the client (close 4003), and the bridge session is gone', async () => {
    await h.openPage(h.fixtures.url('/index.html'));
    const c = await stdio('to-be-disconnected');
    expect((await callTool(c, 'browser_snapshot')).isError).to.equal(false);
    // What the side panel's disconnect does (h10: session_control disconnect -> close 4003).
    const agents = (
      h.bridge['agents'] as unknown as { agents: Set<{ client: { name: string } | null; close(code: number, reason: string): void }> }
    ).agents;
    const peer = [...agents].find((p) => p.client?.name === 'mcp:to-be-disconnected');
    expect(peer, 'the bridge peer of the MCP client').not.to.equal(undefined);
    peer?.close(4003, 'disconnected by the person in the extension side panel');
    await new Promise((r) => setTimeout(r, 300));
    const after = await callTool(c, 'browser_snapshot');
    expect(after.isError).to.equal(true);
    expect(after.text).to.match(/^Error NOT_PERMITTED: The person disconnected this MCP client/);
    await new Promise((r) => setTimeout(r, 300));
    expect(byNameNow(h, 'mcp:to-be-disconnected')?.['connected'] ?? false).to.equal(false);
  });

  it('answers tool errors that say what to do when the bridge is unreachable or the agent secret is wrong', async () => {
    const down = await connectStdioClient({ agentUrl: 'ws://127.0.0.1:9/agent', agentSecret: 'x'.repeat(43), name: 'no-bridge' });
    clients.push(down);
    const r = await callTool(down, 'browser_snapshot');
    expect(r.isError).to.equal(true);
    expect(r.text).to.equal(
      'Error COMMUNICATION_ERROR_WITH_TARGET: Cannot reach the browser-use-ext bridge at ws://127.0.0.1:9/agent: it is not running, or runs on another port. ' +
        // The stdio server runs dist/bridge/cli.js of this checkout: the command is typed with npx here.
        'Ask the person to start it (npx browser-use-ext bridge) with the extension paired, then call the tool again.',
    );
    const wrong = await stdioWith('wrong-secret', 'not-the-agent-secret-of-this-bridge-00');
    const w = await callTool(wrong, 'browser_snapshot');
    expect(w.isError).to.equal(true);
    expect(w.text).to.match(/^Error UNAUTHORIZED: .*--print-pairing/);
  });

  it('refuses a web page in the real browser: its requests to /mcp carry an Origin, even with a stolen token', async () => {
    const page = await h.openPage(h.fixtures.html('/evil-mcp', '<p>a page</p>', 'Evil'));
    const endpoint = h.bridge['httpServices'].get('/mcp') as unknown as { sessionCount: number };
    const before = endpoint.sessionCount;
    const script = `(async () => {
      const url = 'http://127.0.0.1:${h.bridge.port}/mcp';
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } } });
      const attempt = async (init) => { try { const r = await fetch(url, init); return 'status ' + r.status; } catch (e) { return 'blocked'; } };
      return {
        withToken: await attempt({ method: 'POST', headers: { authorization: 'Bearer ${tokenA}', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body }),
        simple: await attempt({ method: 'POST', headers: { 'content-type': 'text/plain' }, body }),
        noCors: await attempt({ method: 'POST', mode: 'no-cors', body }),
      };
    })()`;
    const outcome = (await page.evaluate(script)) as Record<string, string>;
    // The preflight (custom headers) and the simple request are answered 403 without CORS headers:
    // the page learns nothing; a no-cors request is opaque (status 0) and refused by the bridge too.
    expect(outcome['withToken']).to.equal('blocked');
    expect(outcome['simple']).to.equal('blocked');
    expect(outcome['noCors']).to.equal('status 0');
    expect(endpoint.sessionCount).to.equal(before);
    await page.close();
  });

  it('refuses a wrong or missing token, a browser Origin and a foreign Host; a revoked token stops working', async () => {
    const port = h.bridge.port;
    const init = { host: `127.0.0.1:${port}` };
    const ok = await rawMcp(port, { ...init, authorization: `Bearer ${tokenA}` });
    expect(ok.status).to.equal(200);
    const wrong = await rawMcp(port, { ...init, authorization: 'Bearer bux_mcp_not-a-real-token' });
    expect(wrong.status).to.equal(401);
    expect(wrong.body).to.contain('mcp-token add');
    expect((await rawMcp(port, init)).status).to.equal(401);
    const origin = await rawMcp(port, { ...init, authorization: `Bearer ${tokenA}`, origin: 'http://evil.example' });
    expect(origin.status).to.equal(403);
    expect(origin.body).to.contain('Origin');
    const host = await rawMcp(port, { host: `evil.example:${port}`, authorization: `Bearer ${tokenA}` });
    expect(host.status).to.equal(403);
    expect(host.body).to.contain('DNS-rebinding');
    let failed: unknown = null;
    await connectHttpClient({ port, token: 'bux_mcp_wrong', name: 'intruder' }).catch((e: unknown) => (failed = e));
    expect(String(failed)).to.match(/401|Unauthorized|bearer token/i);
    // Revocation takes effect at the next request, without a restart.
    const tmp = tokens.add('temporary');
    expect((await rawMcp(port, { ...init, authorization: `Bearer ${tmp}` })).status).to.equal(200);
    tokens.revoke('temporary');
    expect((await rawMcp(port, { ...init, authorization: `Bearer ${tmp}` })).status).to.equal(401);
    // A revoked token's open session ends at its next request, and its bridge session with it.
    const late = tokens.add('late');
    const lateClient = await overHttp('late-client', late);
    expect((await callTool(lateClient, 'browser_tabs', { action: 'list' })).isError).to.equal(false);
    expect(byNameNow(h, 'mcp:late-client [late]')).not.to.equal(undefined);
    tokens.revoke('late');
    let refused: unknown = null;
    await lateClient.callTool({ name: 'browser_tabs', arguments: { action: 'list' } }).catch((e: unknown) => (refused = e));
    expect(String(refused)).to.match(/401|bearer token/i);
    await new Promise((r) => setTimeout(r, 300));
    expect(byNameNow(h, 'mcp:late-client [late]')).to.equal(undefined);
    // None of the refused attempts became a bridge session.
    const names = (h.bridge.status()['sessions'] as { client: { name: string } | null }[]).map((s) => s.client?.name);
    expect(names.filter((n) => n?.includes('intruder'))).to.deep.equal([]);
  });
});

function byNameNow(h: Harness, name: string) {
  return (h.bridge.status()['sessions'] as { client: { name: string } | null; connected: boolean }[]).find((s) => s.client?.name === name);
}
