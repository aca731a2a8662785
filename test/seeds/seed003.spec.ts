// Seed 003 ("Action Execution Step"): the executor contract in real Chromium. Input and output are
// checked against the seed's Interface Contracts literally; each of the seven tools runs once and
// each error_type is produced by the situation the seed names.
import { spawn } from 'node:child_process';
import path from 'node:path';

import { expect } from 'chai';

import { domSnapshot, executeStep, type Seed003Input, type Seed003Output } from '../../bridge/agents/step-executor/executor';
import type { AgentClient } from '../../bridge/client/agent-client';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';

const SHOP = path.join(REPO_ROOT, 'python-shim-spec/tests/fixtures/shop');
const ALL = ['navigate', 'click', 'type', 'search', 'scroll', 'press_key', 'wait'];

/** The seed's output schema, checked key by key and type by type. */
function expectSeedShape(o: Seed003Output): void {
  expect(Object.keys(o)).to.deep.equal(['action', 'args', 'status', 'error_type', 'message']);
  expect(Object.keys(o.args)).to.deep.equal(['url', 'role', 'name', 'text', 'direction', 'key', 'seconds']);
  expect(ALL).to.include(o.action);
  expect(['success', 'failure']).to.include(o.status);
  expect(['none', 'element_not_found', 'ambiguous_step', 'tool_limit', 'navigation_blocked', 'unknown']).to.include(o.error_type);
  expect(o.message).to.be.a('string').and.not.equal('');
  expect(o.error_type === 'none').to.equal(o.status === 'success');
}

describe('seed 003: the action execution step', function () {
  let h: Harness;
  let agent: AgentClient;
  before(async function () {
    this.timeout(90_000);
    h = await startHarness({ fixturesDir: SHOP });
    h.fixtures.html('/twins', '<button>Save</button><button>Save</button><div style="height:3000px"></div>', 'Twins');
    agent = await h.connectAgent();
  });
  after(async () => {
    await h?.close();
  });

  const input = async (plan_step: string, allowed_tools = ALL): Promise<Seed003Input> => {
    const snap = await domSnapshot(agent);
    return {
      main_goal: 'Buy a cheap stapler',
      plan_step,
      dom_snapshot: snap.dom_snapshot as unknown as Record<string, unknown>,
      url: snap.url,
      allowed_tools,
    };
  };

  it('dom_snapshot is an accessibility tree (role, name, children) of the page', async () => {
    await h.openPage(h.fixtures.url('/index.html'));
    const snap = await domSnapshot(agent);
    expect(snap.dom_snapshot).to.include({ role: 'WebArea', name: 'Paper & Co. office shop' });
    const roles = (snap.dom_snapshot.children ?? []).map((c) => `${c.role}:${c.name}`);
    expect(roles).to.include.members(['heading:Office supplies', 'textbox:Search products', 'button:Search', 'link:Cart']);
  });

  it("the seven tools on the fixture shop, each output exactly the seed's schema", async () => {
    const nav = await executeStep(agent, await input('Go to the shop'), { tool: 'navigate', args: { url: h.fixtures.url('/index.html') } });
    expectSeedShape(nav);
    expect(nav).to.deep.include({ action: 'navigate', status: 'success', error_type: 'none' });
    expect(nav.args.url).to.equal(h.fixtures.url('/index.html'));
    const click = await executeStep(agent, await input('Click the search box'), {
      tool: 'click',
      args: { role: 'textbox', name: 'Search products' },
    });
    expectSeedShape(click);
    expect(click.status, click.message).to.equal('success');
    expect(click.args).to.deep.equal({
      url: null,
      role: 'textbox',
      name: 'Search products',
      text: null,
      direction: null,
      key: null,
      seconds: null,
    });
    const typed = await executeStep(agent, await input('Type "stapler"'), { tool: 'type', args: { text: 'stapler' } });
    expectSeedShape(typed);
    expect(typed.status, typed.message).to.equal('success');
    const pressed = await executeStep(agent, await input('Press Enter to submit'), { tool: 'press_key', args: { key: 'Enter' } });
    expectSeedShape(pressed);
    expect(pressed.status, pressed.message).to.equal('success');
    expect((await domSnapshot(agent)).url).to.contain('results.html?q=stapler');
    const add = await executeStep(agent, await input('Add the Mini Stapler to the cart'), {
      tool: 'click',
      args: { role: 'button', name: 'Add Mini Stapler to cart' },
    });
    expect(add.status, add.message).to.equal('success');
    const scrolled = await executeStep(agent, await input('Scroll down'), { tool: 'scroll', args: { direction: 'down' } });
    expectSeedShape(scrolled);
    expect(scrolled.status).to.equal('success');
    const waited = await executeStep(agent, await input('Wait for the page'), { tool: 'wait', args: { seconds: 1 } });
    expectSeedShape(waited);
    expect(waited).to.deep.include({ status: 'success', message: 'Waited 1 s.' });
    expect(waited.args.seconds).to.equal(1);
    await executeStep(agent, await input('Go home'), { tool: 'navigate', args: { url: h.fixtures.url('/index.html') } });
    const searched = await executeStep(agent, await input('Search for pens'), { tool: 'search', args: { query: 'pen' } });
    expectSeedShape(searched);
    expect(searched).to.deep.include({ status: 'success', message: 'Searched the page for "pen".' });
    expect(searched.args.text).to.equal('pen');
    expect((await domSnapshot(agent)).url).to.contain('results.html?q=pen');
  });

  it('error_type: element_not_found, ambiguous_step, tool_limit, navigation_blocked', async () => {
    await agent.call('navigate', { url: h.fixtures.url('/twins') });
    const missing = await executeStep(agent, await input('Click Delete'), { tool: 'click', args: { role: 'button', name: 'Delete' } });
    expectSeedShape(missing);
    expect(missing).to.deep.include({ status: 'failure', error_type: 'element_not_found' });
    const twins = await executeStep(agent, await input('Click Save'), { tool: 'click', args: { role: 'button', name: 'Save' } });
    expect(twins).to.deep.include({ status: 'failure', error_type: 'ambiguous_step' });
    const limited = await executeStep(agent, await input('Wait', ['click']), { tool: 'wait', args: { seconds: 1 } });
    expect(limited).to.deep.include({ status: 'failure', error_type: 'tool_limit' });
    const unknownTool = await executeStep(agent, await input('Hover'), { tool: 'hover', args: {} });
    expect(unknownTool).to.deep.include({ status: 'failure', error_type: 'tool_limit' });
    const noFocus = await executeStep(agent, await input('Type hello'), { tool: 'type', args: { text: 'hello' } });
    expect(noFocus).to.deep.include({ status: 'failure', error_type: 'element_not_found' });
    const blocked = await executeStep(agent, await input('Open the closed port'), {
      tool: 'navigate',
      args: { url: 'http://127.0.0.1:1/' },
    });
    expectSeedShape(blocked);
    expect(blocked).to.deep.include({ status: 'failure', error_type: 'navigation_blocked' });
  });

  it("the seed's input as written (no tool): the tool comes from plan_step, by the CLI on stdin and by the call", async function () {
    this.timeout(90_000);
    await agent.call('navigate', { url: h.fixtures.url('/index.html') });
    // One step after another as an orchestrator sends them: the seed's input, no tool.
    const typedHere = await executeStep(agent, await input('Type "stapler" into the search box'));
    expectSeedShape(typedHere);
    expect(typedHere, typedHere.message).to.deep.include({ action: 'type', status: 'success', error_type: 'none' });
    expect(typedHere.args).to.deep.include({ text: 'stapler', role: 'textbox', name: 'Search products' });
    const pressed = await executeStep(agent, await input('Press Enter to submit the search'));
    expect(pressed, pressed.message).to.deep.include({ action: 'press_key', status: 'success' });
    expect((await domSnapshot(agent)).url).to.contain('results.html?q=stapler');
    const add = await executeStep(agent, await input('Click the "Add Mini Stapler to cart" button'));
    expectSeedShape(add);
    expect(add, add.message).to.deep.include({ action: 'click', status: 'success' });
    expect(add.args).to.deep.include({ role: 'button', name: 'Add Mini Stapler to cart' });
    const scrolled = await executeStep(agent, await input('Scroll down to see more results'));
    expect(scrolled).to.deep.include({ action: 'scroll', status: 'success' });
    const missing = await executeStep(agent, await input('Click the Checkout button'));
    expectSeedShape(missing);
    expect(missing).to.deep.include({ action: 'click', status: 'failure', error_type: 'element_not_found' });
    const vague = await executeStep(agent, await input('Find a good deal'));
    expect(vague).to.deep.include({ status: 'failure', error_type: 'ambiguous_step' });
    // `browser-use-ext seed003 < step.json` with exactly the seed's Input Schema, on a tab of its own
    // (dom_snapshot {}: the executor grounds the step in the page as it is).
    const page = await h.openPage(h.fixtures.url('/index.html'));
    const seedInput = {
      main_goal: 'Buy a cheap stapler',
      plan_step: 'Type "stapler" into the search box',
      dom_snapshot: {},
      url: page.url(),
      allowed_tools: ALL,
    };
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'bridge/cli/main.ts'), 'seed003', '--bridge', h.bridge.agentUrl],
      { env: { ...process.env, BROWSER_USE_EXT_AGENT_SECRET: h.secrets.agent_secret } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(JSON.stringify(seedInput));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code, stderr + stdout).to.equal(0);
    const typed = JSON.parse(stdout) as Seed003Output;
    expectSeedShape(typed);
    expect(typed).to.deep.include({ action: 'type', status: 'success', error_type: 'none' });
    expect(typed.args).to.deep.include({ text: 'stapler', role: 'textbox', name: 'Search products' });
    expect(await page.$eval('input[type="search"], input', (e) => (e as HTMLInputElement).value)).to.equal('stapler');
    await page.close();
  });

  it("navigating to chrome://settings (or any page outside the person's scope) is navigation_blocked, and the tab stays", async () => {
    await agent.call('navigate', { url: h.fixtures.url('/index.html') });
    for (const [step, tool] of [
      ['Open chrome://settings', undefined],
      ['Go to the settings', { tool: 'navigate', args: { url: 'chrome://settings' } }],
      ['Open chrome-extension settings', { tool: 'navigate', args: { url: 'view-source:https://example.com/' } }],
    ] as const) {
      const out = await executeStep(agent, await input(step), tool);
      expectSeedShape(out);
      expect(out, `${step}: ${out.message}`).to.deep.include({ action: 'navigate', status: 'failure', error_type: 'navigation_blocked' });
      expect((await domSnapshot(agent)).url).to.equal(h.fixtures.url('/index.html'));
    }
  });
});
