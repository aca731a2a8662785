// Seed 002 ("Agent Command Protocol"): the text driver parses replies the way the seed says, runs
// the one command in real Chromium and answers with exactly what the seed says the agent receives;
// then the built-in agent (`browser-use-ext agent`) completes a fixture-shop task against a scripted
// OpenAI-compatible server.
import { spawn } from 'node:child_process';
import path from 'node:path';

import { expect } from 'chai';

import { runSeed002Agent } from '../../bridge/agents/text-driver/agent-loop';
import { Seed002Driver } from '../../bridge/agents/text-driver/driver';
import { openAiChat } from '../../bridge/agents/text-driver/llm';
import { parseReply } from '../../bridge/agents/text-driver/parse';
import { systemPrompt } from '../../bridge/agents/text-driver/prompt';
import type { ActionPort } from '../../bridge/client/action-port';
import { AgentClient } from '../../bridge/client/agent-client';
import { clearSettings, setSettings } from '../e2e/worker-actions.helpers';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { type ChatMsg, idOf, keywordOf, ScriptedLlm } from './scripted-llm';

const SHOP = path.join(REPO_ROOT, 'python-shim-spec/tests/fixtures/shop');

describe('seed 002: command format (parser)', () => {
  it('takes the one <tool_code> command, whitespace allowed', () => {
    expect(parseReply('Let me click.\n\n<tool_code> {"action": "click", "id": 12} </tool_code>\n\n[END:x]')).to.deep.equal({
      kind: 'command',
      command: { action: 'click', id: 12 },
    });
    expect(parseReply('<tool_code>{"action": "type", "id": 7, "value": "hello world"}</tool_code>')).to.deep.equal({
      kind: 'command',
      command: { action: 'type', id: 7, value: 'hello world' },
    });
  });
  it('accepts a legacy ```json block only when it has a "tool" property', () => {
    expect(parseReply('```json\n{"tool": "open_tab", "url": "https://a.example"}\n```')).to.deep.equal({
      kind: 'command',
      command: { action: 'open_tab', url: 'https://a.example' },
    });
    expect(parseReply('```json\n{"action": "click", "id": 3}\n```')).to.deep.equal({ kind: 'none' });
  });
  it('more than one command, invalid JSON or an unknown action is an error, not a guess', () => {
    const two = parseReply('<tool_code>{"action":"click","id":1}</tool_code><tool_code>{"action":"click","id":2}</tool_code>');
    expect(two.kind).to.equal('error');
    expect((two as { message: string }).message).to.match(/^2 commands in one response/);
    const mixed = parseReply('<tool_code>{"action":"click","id":1}</tool_code>\n```json\n{"tool":"click","id":2}\n```');
    expect(mixed.kind).to.equal('error');
    expect(parseReply('<tool_code>{"action": "click", id: 3}</tool_code>').kind).to.equal('error');
    expect((parseReply('<tool_code>{"action": "scroll"}</tool_code>') as { message: string }).message).to.contain(
      'Available: click, type, open_tab, open_tool',
    );
  });
  it("the system prompt carries the seed's sections", () => {
    const p = systemPrompt({
      goal: 'Find the top story',
      tools: [{ name: 'Hacker News', url: 'https://news.ycombinator.com' }],
      maxTabs: 3,
      keyword: '[END:k-1]',
    });
    for (const s of [
      '═══ COMMAND REFERENCE ═══',
      '═══ AVAILABLE TOOLS ═══',
      '═══ CONSTRAINTS ═══',
      '═══ YOUR GOAL ═══',
      '• Hacker News',
      '→ https://news.ycombinator.com',
      'You may control up to 3 tabs simultaneously.',
      'Find the top story',
      'IMPORTANT: End EVERY response with this exact keyword: [END:k-1]',
    ])
      expect(p).to.contain(s);
  });
});

describe('seed 002: driver and built-in agent in real Chromium', function () {
  let h: Harness;
  let llm: ScriptedLlm;
  before(async function () {
    this.timeout(90_000);
    h = await startHarness({ fixturesDir: SHOP });
    h.fixtures.html(
      '/api',
      `<input id="q" aria-label="Query" placeholder="Search...">
       <a href="/about?ref=nav">About Us</a>
       <button id="go" onclick="fetch('/api/search', {method: 'POST', body: JSON.stringify({query: document.getElementById('q').value})}).then(() => { document.getElementById('out').textContent = 'searched' })">Search</button>
       <button disabled aria-label="Submit">Submit</button>
       <p id="out"></p>`,
      'Api page',
    );
    h.fixtures.route('/api/search', { body: '{"ok":true}', contentType: 'application/json' });
    // A page that changes by itself: 1.5 s after load a button appears (no command causes it).
    h.fixtures.html(
      '/later',
      `<input aria-label="Query" placeholder="Search...">
       <p id="status">Loading results…</p>
       <script>setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Show results'; b.onclick = () => { document.getElementById('status').textContent = 'shown' }; document.body.append(b); document.getElementById('status').textContent = 'Results ready'; }, 1500)</script>`,
      'Later page',
    );
    // Changes itself 1, 2 and 3 s after load (one of them lands after the first observation however
    // slow the machine), noting when each happened.
    h.fixtures.html(
      '/ticks',
      `<p>Ticking</p>
       <script>window.ticks = []; for (const n of [1, 2, 3]) setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Tick ' + n; document.body.append(b); window.ticks.push(Date.now()); }, n * 1000)</script>`,
      'Ticks page',
    );
    h.fixtures.html('/silent', `<button onclick="window.n = (window.n || 0) + 1">Count silently</button>`, 'Silent page');
    await setSettings(h, {
      saved_tools: [
        { name: 'Paper Shop', url: h.fixtures.url('/index.html') },
        { name: 'Api Page', url: h.fixtures.url('/api') },
      ],
    });
    llm = await new ScriptedLlm(() => 'nothing').start();
  });
  after(async () => {
    await clearSettings(h, ['saved_tools']).catch(() => undefined);
    await llm?.close();
    await h?.close();
  });

  let agent: AgentClient;
  let driver: Seed002Driver;
  beforeEach(async () => {
    agent = await h.connectAgent({ maxTabs: 2 });
    driver = new Seed002Driver(agent, agent);
  });
  afterEach(async () => {
    await agent.close();
  });

  it('open_tool opens the saved tool in a background tab and the agent gets its <browsing_context>', async () => {
    const page = await h.openPage(h.fixtures.url('/cart.html'));
    const first = await driver.observe();
    expect(first).to.match(/^<browsing_context>\n\[Target Update\]\nURL: http:\/\/127\.0\.0\.1:\d+\/cart\.html\n\nInteractive Elements:\n/);
    const t = await driver.execute('<tool_code>{"action": "open_tool", "name": "api page"}</tool_code>');
    expect(t.error, t.text).to.equal(false);
    const blocks = t.text.split('</browsing_context>').filter((b) => b.includes('<browsing_context>'));
    expect(blocks.length, 'one block per target tab').to.equal(2);
    expect(t.text).to.contain('/api\n\nInteractive Elements:');
    expect(t.text).to.match(/<input id="\d+" type="text"|<input id="\d+" label="Query" placeholder="Search..." value="">/);
    expect(t.text, 'href without query string').to.match(/<a id="\d+" href="\/about" label="About Us">About Us<\/a>/);
    expect(t.text).to.match(/<button id="\d+" label="Submit" disabled="true">/);
    expect(
      await page.evaluate(() => document.visibilityState === 'visible' || document.hasFocus()),
      "the person's tab keeps focus",
    ).to.equal(true);
    const tabs = await agent.call('list_tabs', {});
    const active = (tabs.outcome_details?.result as { tabs: { url: string; active: boolean }[] }).tabs.find((x) => x.active);
    expect(active?.url).to.contain('/cart.html');
  });

  it("type and click with trusted input; the page's fetch shows in <api_activity>", async () => {
    await h.openPage(h.fixtures.url('/api'));
    const obs = await driver.observe();
    const typed = await driver.execute(
      `<tool_code>{"action": "type", "id": ${idOf(obs, 'input', 'Query')}, "value": "weather today"}</tool_code>`,
    );
    expect(typed.error, typed.text).to.equal(false);
    expect(typed.text).to.contain('value="weather today"');
    const clicked = await driver.execute(`<tool_code>{"action": "click", "id": ${idOf(typed.text, 'button', 'Search')}}</tool_code>`);
    expect(clicked.error, clicked.text).to.equal(false);
    expect(clicked.text).to.contain(
      '<api_activity>\n  <call method="POST" url="/api/search">\n    {"query":"weather today"}\n  </call>\n</api_activity>',
    );
  });

  it('System Error lines: unknown element id, unknown tool (listing the saved names), bad URL, two commands, invalid JSON', async () => {
    await h.openPage(h.fixtures.url('/api'));
    await driver.observe();
    expect((await driver.execute('<tool_code>{"action": "click", "id": 999}</tool_code>')).text.split('\n')[0]).to.equal(
      'System Error: Element ID 999 not found.',
    );
    expect((await driver.execute('<tool_code>{"action": "open_tool", "name": "Outlook"}</tool_code>')).text.split('\n')[0]).to.equal(
      'System Error: Tool "Outlook" not found. Available tools: "Paper Shop", "Api Page"',
    );
    expect((await driver.execute('<tool_code>{"action": "open_tab", "url": "notaurl://x y"}</tool_code>')).text.split('\n')[0]).to.match(
      /^System Error: Failed to open URL "notaurl:\/\/x y"\. /,
    );
    expect(
      (await driver.execute('<tool_code>{"action":"click","id":1}</tool_code> and <tool_code>{"action":"click","id":2}</tool_code>')).text,
    ).to.match(/^System Error: 2 commands in one response/);
    expect((await driver.execute('<tool_code>{"action": "click", "id": }</tool_code>')).text).to.match(
      /^System Error: Invalid JSON in <tool_code>/,
    );
  });

  it('the tab limit releases the oldest target and says which one', async () => {
    await h.openPage(h.fixtures.url('/cart.html'));
    await driver.observe();
    await driver.execute(`<tool_code>{"action": "open_tab", "url": "${h.fixtures.url('/index.html')}"}</tool_code>`);
    const t = await driver.execute(`<tool_code>{"action": "open_tab", "url": "${h.fixtures.url('/api')}"}</tool_code>`);
    expect(t.text.split('\n')[0]).to.match(/^System: Tab limit \(2\) reached\. Released tab: http:\/\/127\.0\.0\.1:\d+\/cart\.html$/);
    expect(driver.targetTabIds.length).to.equal(2);
    expect(t.text).not.to.contain('/cart.html\n\nInteractive');
  });

  it('the built-in agent loop completes a shop task through the scripted OpenAI-compatible server', async () => {
    await h.openPage(h.fixtures.url('/cart.html'));
    const script = (messages: ChatMsg[]): string => {
      const k = keywordOf(messages);
      const last = messages[messages.length - 1]?.content ?? '';
      const said = (t: string) => messages.some((m) => m.role === 'assistant' && m.content.startsWith(t));
      // The shop's own tab: the block whose URL line is the shop's index or results page.
      const shop = last.split('</browsing_context>').find((b) => /\nURL: \S+\/(index|results)\.html/.test(b)) ?? '';
      const say = (t: string, cmd?: object) => `${t}\n\n${cmd ? `<tool_code>${JSON.stringify(cmd)}</tool_code>\n\n` : ''}${k}`;
      if (!said('Opening the shop')) return say('Opening the shop.', { action: 'open_tool', name: 'paper shop' });
      if (/URL: \S+\/index\.html/.test(shop)) {
        if (/value="stapler"/.test(shop)) return say('Submitting.', { action: 'click', id: idOf(shop, 'button', 'Search') });
        return say('Typing the query.', { action: 'type', id: idOf(shop, 'input', 'Search products'), value: 'stapler' });
      }
      if (/URL: \S+\/results\.html/.test(shop)) {
        if (!said('Adding'))
          return say('Adding the Mini Stapler.', { action: 'click', id: idOf(shop, 'button', 'Add Mini Stapler to cart') });
        return say('Opening the cart.', { action: 'click', id: idOf(shop, 'a', 'Cart') });
      }
      return say('The Mini Stapler is in the cart.');
    };
    llm.setScript(script);
    const out = await runSeed002Agent({
      driver,
      llm: openAiChat({ baseUrl: llm.baseUrl, model: 'scripted' }),
      goal: 'Add the Mini Stapler to the cart.',
      tools: [{ name: 'Paper Shop', url: h.fixtures.url('/index.html') }],
      maxTabs: 2,
      keyword: '[END:shop-test-1]',
      maxSteps: 10,
      onStep: (s) =>
        process.env['SEED_DEBUG'] &&
        console.log(new Date().toISOString(), s.step, JSON.stringify(s.turn.command), s.turn.text.slice(0, 200)),
    });
    expect(out.status, JSON.stringify(llm.requests.map((r) => r.messages[r.messages.length - 1]?.content.slice(0, 300)))).to.equal('done');
    expect(out.final).to.equal('The Mini Stapler is in the cart.');
    expect(out.steps).to.equal(6);
    expect(llm.requests[0]?.messages[0]?.content).to.contain('═══ YOUR GOAL ═══\nAdd the Mini Stapler to the cart.');
    const cart = (await h.launched.browser.pages()).find((p) => p.url().includes('/cart.html') && p.url() !== '');
    await cart?.reload();
    expect(await cart?.$eval('#items', (e) => e.textContent)).to.contain('Mini Stapler');
  });

  it('a page that changes by itself: waitForChange delivers its <browsing_context> once; ids of unchanged elements stay the same', async function () {
    this.timeout(60_000);
    await h.openPage(h.fixtures.url('/later'));
    const first = await driver.observe();
    expect(first).not.to.contain('Show results');
    const queryId = idOf(first, 'input', 'Query');
    const update = await driver.waitForChange(AbortSignal.timeout(15_000));
    expect(update, 'a change within 15 s').to.be.a('string');
    expect(update).to.match(/^<browsing_context>\n\[Target Update\]\nURL: http:\/\/127\.0\.0\.1:\d+\/later\n/);
    expect(idOf(update as string, 'input', 'Query'), 'an element keeps its id').to.equal(queryId);
    const buttonId = idOf(update as string, 'button', 'Show results');
    expect(buttonId).to.be.greaterThan(queryId);
    // Nothing else changes: no update, however long one waits (the debounce does not invent one).
    expect(await driver.waitForChange(AbortSignal.timeout(3_000))).to.equal(null);
    const clicked = await driver.execute(`<tool_code>{"action": "click", "id": ${buttonId}}</tool_code>`);
    expect(clicked.error, clicked.text).to.equal(false);
    const page = (await h.launched.browser.pages()).find((p) => p.url().endsWith('/later'));
    expect(await page?.$eval('#status', (e) => e.textContent)).to.equal('shown');
  });

  it('a change the page makes by itself is pushed to the driver in under 300 ms, with no read of its own', async function () {
    this.timeout(60_000);
    let reads = 0;
    const port: ActionPort = {
      call: (action, params, options) => {
        reads++;
        return agent.call(action, params, options);
      },
    };
    const counted = new Seed002Driver(port, agent);
    await h.openPage(h.fixtures.url('/ticks'));
    const first = await counted.observe();
    const readsBefore = reads;
    const update = await counted.waitForChange(AbortSignal.timeout(10_000));
    const arrived = Date.now();
    expect(update, 'a pushed change').to.be.a('string');
    expect(reads, 'the driver read nothing while it waited').to.equal(readsBefore);
    const page = (await h.launched.browser.pages()).find((p) => p.url().endsWith('/ticks'));
    const ticks = (await page?.evaluate(() => (window as unknown as { ticks: number[] }).ticks)) ?? [];
    // The change the update shows: the newest tick it lists that the first observation did not.
    const shown = [1, 2, 3].filter((n) => (update as string).includes(`Tick ${n}<`) && !first.includes(`Tick ${n}<`));
    expect(shown.length, update as string).to.be.greaterThan(0);
    const changedAt = ticks[(shown[shown.length - 1] as number) - 1] as number;
    if (process.env['SEED_DEBUG']) console.log(`pushed ${arrived - changedAt} ms after the page changed`);
    expect(arrived - changedAt, `pushed ${arrived - changedAt} ms after the page changed`).to.be.below(300);
  });

  it("seed 002's 15 s notice reaches the agent by push once, not held for the next read", async function () {
    this.timeout(60_000);
    await h.openPage(h.fixtures.url('/silent'));
    const first = await driver.observe();
    const clicked = await driver.execute(`<tool_code>{"action": "click", "id": ${idOf(first, 'button', 'Count silently')}}</tool_code>`);
    expect(clicked.error, clicked.text).to.equal(false);
    expect(clicked.text, 'the click answers before the 15 s').not.to.contain('no DOM change');
    const t = Date.now();
    const notice = await driver.waitForChange(AbortSignal.timeout(25_000));
    expect(notice?.split('\n')[0]).to.equal('System: Action executed but no DOM change detected within 15 seconds.');
    expect(Date.now() - t, 'within the seed 15 s (and the action budget)').to.be.below(17_000);
    // Once: the next read does not repeat it.
    expect((await agent.call('get_state', {})).outcome_details?.no_change_notice).to.equal(undefined);
    expect(await driver.waitForChange(AbortSignal.timeout(500))).to.equal(null);
  });

  it('the built-in loop: a change while the LLM thinks aborts that answer and asks again with the new <browsing_context>', async function () {
    this.timeout(90_000);
    await h.openPage(h.fixtures.url('/later'));
    const updates: string[] = [];
    llm.setScript(async (messages, call) => {
      const k = keywordOf(messages);
      const last = messages[messages.length - 1]?.content ?? '';
      if (call === 1) {
        // A slow model: the page changes while it "thinks"; this answer must never be used.
        await new Promise((r) => setTimeout(r, 8_000));
        return `<tool_code>{"action": "type", "id": ${idOf(last, 'input', 'Query')}, "value": "stale"}</tool_code>\n${k}`;
      }
      if (!messages.some((m) => m.role === 'assistant'))
        return `<tool_code>{"action": "click", "id": ${idOf(last, 'button', 'Show results')}}</tool_code>\n${k}`;
      return `Shown.\n${k}`;
    });
    const out = await runSeed002Agent({
      driver,
      llm: openAiChat({ baseUrl: llm.baseUrl, model: 'scripted' }),
      goal: 'Show the results.',
      tools: [],
      maxTabs: 2,
      keyword: '[END:test-1]',
      maxSteps: 5,
      onUpdate: (t) => updates.push(t),
    });
    expect(out.status, JSON.stringify(llm.requests.map((r) => r.messages[r.messages.length - 1]?.content.slice(-400)))).to.equal('done');
    expect(updates.length, 'one update delivered').to.equal(1);
    expect(updates[0]).to.contain('label="Show results"');
    // The second request carries the first observation and the update, in one user turn.
    const second = llm.requests[1]?.messages ?? [];
    expect(second.map((m) => m.role)).to.deep.equal(['system', 'user']);
    expect(second[1]?.content).to.contain('</browsing_context>\n\n<browsing_context>');
    const page = (await h.launched.browser.pages()).find((p) => p.url().endsWith('/later'));
    expect(await page?.$eval('#status', (e) => e.textContent)).to.equal('shown');
    expect(await page?.$eval('input', (e) => (e as HTMLInputElement).value), 'the stale answer never ran').to.equal('');
  });

  it('`browser-use-ext agent --goal` runs the same loop from the command line', async function () {
    this.timeout(90_000);
    await h.openPage(h.fixtures.url('/index.html'));
    llm.setScript((messages) => {
      const k = keywordOf(messages);
      const last = messages[messages.length - 1]?.content ?? '';
      if (messages.length === 2)
        return `<tool_code>{"action": "type", "id": ${idOf(last, 'input', 'Search products')}, "value": "pen"}</tool_code>\n${k}`;
      if (messages.length === 4) return `<tool_code>{"action": "click", "id": ${idOf(last, 'button', 'Search')}}</tool_code>\n${k}`;
      return `Found: ${last.includes('Add Blue Ballpoint Pen (10 pack) to cart') ? 'Blue Ballpoint Pen' : 'nothing'}\n${k}`;
    });
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(REPO_ROOT, 'bridge/cli/main.ts'),
        'agent',
        '--goal',
        'Find a pen',
        '--base-url',
        llm.baseUrl,
        '--model',
        'scripted',
        '--bridge',
        h.bridge.agentUrl,
        '--max-steps',
        '5',
      ],
      {
        env: { ...process.env, BROWSER_USE_EXT_AGENT_SECRET: h.secrets.agent_secret, OPENAI_API_KEY: 'sk-test' },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code, out).to.equal(0);
    expect(out).to.contain('done: Found: Blue Ballpoint Pen');
    expect(llm.requests[0]?.authorization).to.equal('Bearer sk-test');
  });
});
