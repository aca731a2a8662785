// Seed translators at their unit seams (a fake bridge port, no browser): the parts the browser
// tests cannot reach cheaply — loopback refusal, ref replacement, id renumbering, task control.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { BackendUrlError, checkBackendUrl } from '../../bridge/agents/connectors/backend-link';
import { ConnectorManager } from '../../bridge/agents/connectors/connector-manager';
import { seed000Tree } from '../../bridge/agents/connectors/seed000';
import { Seed001Translator } from '../../bridge/agents/connectors/seed001';
import { errorTypeOf } from '../../bridge/agents/step-executor/executor';
import { selectTool } from '../../bridge/agents/step-executor/tool-selection';
import { Seed002Driver } from '../../bridge/agents/text-driver/driver';
import { serveTasks } from '../../bridge/agents/text-driver/task-runner';
import { connectCommand } from '../../bridge/cli/connect';
import { readStep } from '../../bridge/cli/step-executor';
import type { ActionableElement, ActionResultMessage, SimplifiedState, TaskProgressMessage } from '../../schemas/generated/protocol';

const el = (id: string, index: number, over: Partial<ActionableElement> = {}): ActionableElement => ({
  id,
  index,
  type: 'BUTTON',
  tag: 'button',
  role: 'button',
  name: `B${index}`,
  attributes: {},
  is_visible: true,
  is_in_viewport: true,
  available_operations: ['click'],
  bounds: { x: 0, y: 10 * index, width: 10, height: 10 },
  ...over,
});
const state = (els: ActionableElement[]): SimplifiedState => ({
  url: 'http://127.0.0.1/x',
  title: 'X',
  tab_id: 7,
  actionable_elements: els,
});

/** A fake bridge: list_tabs has one active tab; get_state returns the queued states in turn. */
class FakePort extends EventEmitter {
  calls: { action: string; params: unknown; tabId?: number }[] = [];
  states: SimplifiedState[] = [];
  progress: Omit<TaskProgressMessage, 'type'>[] = [];
  async call(action: string, params: unknown, options: { tabId?: number } = {}): Promise<ActionResultMessage> {
    this.calls.push({ action, params, ...(options.tabId === undefined ? {} : { tabId: options.tabId }) });
    const base = { type: 'action_result' as const, original_action_id: 'x', action, status: 'success' as const };
    if (action === 'list_tabs')
      return {
        ...base,
        outcome_details: { result: { tabs: [{ tab_id: 7, url: 'http://127.0.0.1/x', title: 'X', active: true, index: 0, window_id: 1 }] } },
      } as unknown as ActionResultMessage;
    if (action === 'get_state')
      return { ...base, new_simplified_state: this.states.shift() ?? state([]) } as unknown as ActionResultMessage;
    if (action === 'list_tools') return { ...base, outcome_details: { result: { tools: [] } } } as unknown as ActionResultMessage;
    return { ...base, outcome_details: { result: {} } } as unknown as ActionResultMessage;
  }
  sendTaskProgress(p: Omit<TaskProgressMessage, 'type'>): void {
    this.progress.push(p);
  }
}

describe('seeds: units', () => {
  it('backends must be loopback unless --allow-remote, and ws(s)://', async () => {
    expect(() => checkBackendUrl('ws://localhost:8080', false)).not.to.throw();
    expect(() => checkBackendUrl('ws://[::1]:8080', false)).not.to.throw();
    expect(() => checkBackendUrl('ws://10.0.0.5:8080', false)).to.throw(BackendUrlError, /--allow-remote/);
    expect(() => checkBackendUrl('ws://10.0.0.5:8080', true)).not.to.throw();
    expect(() => checkBackendUrl('http://localhost:8080', false)).to.throw(BackendUrlError, /not a WebSocket URL/);
    expect(await connectCommand(['--dialect', '001', 'ws://203.0.113.9:8080'])).to.equal(2);
    expect(await connectCommand(['--dialect', '002', 'ws://localhost:8080'])).to.equal(2);
  });

  it("seed 001: refs are replaced on every snapshot; a command goes to the last snapshot's tab", async () => {
    const port = new FakePort();
    const t = new Seed001Translator(port as never);
    port.states.push(state([el('e40', 1), el('e41', 2)]), state([el('e77', 1)]));
    const first = await t.handle({ id: 1, type: 'snapshot' });
    expect(first).to.deep.equal({ id: 1, success: true, data: '- button "B1" [ref=e1]\n- button "B2" [ref=e2]' });
    await t.handle({ id: 2, type: 'click', params: { ref: 'e2' } });
    expect(port.calls.at(-1)).to.deep.equal({ action: 'click', params: { element_id: 'e41' }, tabId: 7 });
    await t.handle({ id: 3, type: 'snapshot' });
    await t.handle({ id: 4, type: 'click', params: { ref: 'e1' } });
    expect(port.calls.at(-1)?.params).to.deep.equal({ element_id: 'e77' });
    const stale = await t.handle({ id: 5, type: 'click', params: { ref: 'e2' } });
    expect(stale).to.deep.include({ id: 5, success: false });
    expect(await t.handle({ id: 6, type: 'fill', params: { ref: 'e1' } })).to.deep.equal({
      id: 6,
      success: false,
      error: 'params.value is required (a string).',
    });
    expect(await t.handle({ type: 'ping' })).to.deep.equal({ type: 'pong' });
    expect(await t.handle('nope')).to.deep.include({ success: false });
  });

  it('seed 000: viewport-only visible elements, renumbered 1..n in document order', () => {
    const { tree, ids } = seed000Tree(
      state([
        el('e1', 1),
        el('e2', 2, { is_in_viewport: false }),
        el('e3', 3, { is_visible: false }),
        el('e4', 4, { name: '', text_content: 'Buy', tag: 'span', role: 'generic' }),
      ]),
    );
    expect(tree.map((n) => [n.id, n.name, n.tag, n.role])).to.deep.equal([
      [1, 'B1', 'BUTTON', 'button'],
      [2, 'Buy', 'SPAN', 'generic'],
    ]);
    expect([...ids.entries()]).to.deep.equal([
      [1, 'e1'],
      [2, 'e4'],
    ]);
  });

  it('seed 002 tasks: accepted, running, steps, and Stop ends the task as stopped', async () => {
    const port = new FakePort();
    let calls = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const llm = async (_m: unknown, signal?: AbortSignal) => {
      calls++;
      if (calls === 2) {
        await gate;
        if (signal?.aborted) throw new Error('aborted');
      }
      return '<tool_code>{"action": "open_tab", "url": "http://127.0.0.1/y"}</tool_code>';
    };
    serveTasks({ client: port as never, llm, maxTabs: 3, maxSteps: 10 });
    port.emit('task', {
      type: 'user_task_submission',
      task_id: 't1',
      user_prompt: 'do it',
      timestamp: new Date().toISOString(),
      context: { url: 'http://127.0.0.1/x', page_title: 'X', active_tab_id: 7 },
    });
    await new Promise((r) => setTimeout(r, 50));
    port.emit('task', {
      type: 'user_task_submission',
      task_id: 't2',
      user_prompt: 'another',
      timestamp: new Date().toISOString(),
      context: { url: 'http://127.0.0.1/x', page_title: 'X', active_tab_id: 7 },
    });
    port.emit('task_control', { type: 'task_control', task_id: 't1', command: 'stop' });
    release();
    await new Promise((r) => setTimeout(r, 50));
    expect(port.progress.map((p) => `${p.task_id}:${p.status}`)).to.deep.equal([
      't1:accepted',
      't1:running',
      't1:step',
      't2:failed',
      't1:stopped',
    ]);
  });

  it('seed 002: the 15-second notice, api activity and the tab-limit notice in what the agent receives', async () => {
    const port = new FakePort();
    const origCall = port.call.bind(port);
    port.call = async (action: string, params: unknown, options: { tabId?: number } = {}) => {
      const r = await origCall(action, params, options);
      if (action === 'click')
        return {
          ...r,
          outcome_details: {
            message: 'ok',
            result: {},
            no_change_notice: 'Action executed but no DOM change detected within 15 seconds.',
            api_activity: [{ method: 'POST', url: 'http://127.0.0.1/api/search', body: '{"query":"weather today"}' }],
          },
        } as unknown as ActionResultMessage;
      return r;
    };
    const driver = new Seed002Driver(port as never, port as never);
    port.states.push(state([el('e5', 1)]));
    expect(await driver.observe()).to.equal(
      '<browsing_context>\n[Target Update]\nURL: http://127.0.0.1/x\n\nInteractive Elements:\n<button id="1" label="B1"></button>\n</browsing_context>',
    );
    port.states.push(state([el('e5', 1)]));
    port.emit('tab_released', {
      type: 'tab_released',
      tab_id: 3,
      url: 'https://example.com',
      reason: 'tab_limit',
      max_tabs: 3,
      message: 'Tab limit (3) reached. Released tab: https://example.com',
    });
    const t = await driver.execute('<tool_code>{"action": "click", "id": 1}</tool_code>');
    expect(t.text.split('\n').slice(0, 2)).to.deep.equal([
      'System: Tab limit (3) reached. Released tab: https://example.com',
      'System: Action executed but no DOM change detected within 15 seconds.',
    ]);
    expect(t.text).to.contain(
      '</browsing_context>\n<api_activity>\n  <call method="POST" url="/api/search">\n    {"query":"weather today"}\n  </call>\n</api_activity>',
    );
    expect(port.calls.find((c) => c.action === 'click')?.params).to.deep.equal({ element_id: 'e5', trusted: true });
  });

  it("seed 002's 15 s notice reaches the agent once, whether a push brings it or the driver's own read finds it", async () => {
    const NOTICE = 'Action executed but no DOM change detected within 15 seconds.';
    // Push (the default): the driver asks for pushes and waits for them without reading the page itself.
    const port = new FakePort();
    const driver = new Seed002Driver(port as never, port as never);
    port.states = [state([el('e1', 1)])];
    await driver.observe();
    expect(port.calls.map((c) => c.params)).to.deep.equal([{ viewport_expansion: -1, max_elements: 500, max_text_chars: 0, watch: true }]);
    const waiting = driver.waitForChange(AbortSignal.timeout(5000));
    port.emit('state_update', {
      type: 'state_update',
      tab_id: 7,
      reason: 'no_change',
      state: state([el('e1', 1)]),
      no_change_notice: NOTICE,
    });
    expect(await waiting).to.equal(`System: ${NOTICE}`);
    expect(port.calls.length, 'no read of its own while waiting').to.equal(1);
    // A pushed change of the page: its block, once.
    const next = driver.waitForChange(AbortSignal.timeout(5000));
    port.emit('state_update', { type: 'state_update', tab_id: 7, reason: 'mutation', state: state([el('e1', 1), el('e2', 2)]) });
    expect(await next)
      .to.contain('<button id="2" label="B2">')
      .and.not.contain('System:');
    port.emit('state_update', { type: 'state_update', tab_id: 7, reason: 'mutation', state: state([el('e1', 1), el('e2', 2)]) });
    expect(await driver.waitForChange(AbortSignal.timeout(300)), 'the same rendering again is no news').to.equal(null);
    // Polling (push off): the notice rides on the driver's own get_state; it is delivered, not dropped.
    const polling = new FakePort();
    const polled = new Seed002Driver(polling as never, polling as never, { push: false });
    polling.states = [state([el('e1', 1)])];
    await polled.observe();
    const orig = polling.call.bind(polling);
    let reads = 0;
    polling.call = async (action: string, params: unknown, options: { tabId?: number } = {}) => {
      const r = await orig(action, params, options);
      if (action !== 'get_state' || ++reads > 1) return r;
      return { ...r, outcome_details: { message: 'State taken.', no_change_notice: NOTICE } } as unknown as ActionResultMessage;
    };
    polling.states = [state([el('e1', 1)]), state([el('e1', 1)])];
    expect(await polled.pollChanges()).to.equal(`System: ${NOTICE}`);
    expect(await polled.pollChanges()).to.equal(null);
  });

  it('seed 002 changes: delivered once the rendering held still for one poll; unchanged renderings never; ids stay with their elements', async () => {
    const port = new FakePort();
    const driver = new Seed002Driver(port as never, port as never);
    port.states = [state([el('e1', 1), el('e2', 2)])];
    const first = await driver.observe();
    expect(first).to.contain('<button id="1" label="B1">').and.to.contain('<button id="2" label="B2">');
    // Same rendering (a text change outside interactive elements is not in the block): nothing.
    port.states = [state([el('e1', 1), el('e2', 2)])];
    expect(await driver.pollChanges()).to.equal(null);
    // e1 went, e3 came: seen once -> not yet; seen again -> delivered, e2 keeps id 2, e3 gets 3.
    const next = () => state([el('e2', 1), el('e3', 2, { name: 'New' })]);
    port.states = [next()];
    expect(await driver.pollChanges()).to.equal(null);
    port.states = [next()];
    const update = await driver.pollChanges();
    expect(update).to.equal(
      '<browsing_context>\n[Target Update]\nURL: http://127.0.0.1/x\n\nInteractive Elements:\n<button id="2" label="B1"></button>\n<button id="3" label="New"></button>\n</browsing_context>',
    );
    // Delivered once.
    port.states = [next()];
    expect(await driver.pollChanges()).to.equal(null);
    // A page that never holds still is never delivered (no two equal polls in a row).
    for (let i = 0; i < 4; i++) {
      port.states = [state([el('e2', 1), el(`e${10 + i}`, 2)])];
      expect(await driver.pollChanges()).to.equal(null);
    }
    // The removed element's id answers "not found", never another element.
    port.states = [next()];
    const t = await driver.execute('<tool_code>{"action": "click", "id": 1}</tool_code>');
    expect(t.text.split('\n')[0]).to.equal('System Error: Element ID 1 not found.');
    expect(port.calls.some((c) => c.action === 'click')).to.equal(false);
  });

  it('bridge-run connectors: a remote or malformed URL is refused before anything starts; the saved list is read back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-conn-'));
    const file = path.join(dir, 'connectors.json');
    try {
      const m = new ConnectorManager({ bridgeAgentUrl: 'ws://127.0.0.1:9/agent', agentSecret: 'x', file });
      for (const [url, code] of [
        ['ws://192.0.2.1:8080', 'BACKEND_NOT_LOOPBACK'],
        ['http://localhost:8080', 'BACKEND_URL_INVALID'],
        ['localhost:8080', 'BACKEND_URL_INVALID'],
      ] as const) {
        try {
          await m.add('001', url);
          expect.fail(`${url} was accepted`);
        } catch (e) {
          expect(e).to.be.instanceOf(BackendUrlError);
          expect((e as BackendUrlError).code).to.equal(code);
        }
      }
      expect(m.list()).to.deep.equal([]);
      expect(fs.existsSync(file)).to.equal(false);
      // A saved remote URL (a hand-edited file) is not dialed either.
      fs.writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          connectors: [
            { dialect: '001', url: 'ws://192.0.2.1:8080' },
            { dialect: '999', url: 'ws://localhost:1' },
          ],
        }),
      );
      await m.restore();
      expect(m.list()).to.deep.equal([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('seed 003: error_type from our error codes', () => {
    expect(errorTypeOf('TARGET_ELEMENT_NOT_FOUND', 'click')).to.equal('element_not_found');
    expect(errorTypeOf('AMBIGUOUS_TARGET', 'click')).to.equal('ambiguous_step');
    expect(errorTypeOf('NAVIGATION_FAILED', 'navigate')).to.equal('navigation_blocked');
    expect(errorTypeOf('NOT_PERMITTED', 'navigate')).to.equal('navigation_blocked');
    expect(errorTypeOf('NOT_PERMITTED', 'click')).to.equal('tool_limit');
    expect(errorTypeOf('TIMEOUT', 'click')).to.equal('unknown');
    expect(errorTypeOf(undefined, 'click')).to.equal('unknown');
  });

  it("seed 003's Tool Selection: the tool and its arguments from plan_step, targets grounded in dom_snapshot", () => {
    const shop = {
      role: 'WebArea',
      name: 'Paper & Co. office shop',
      children: [
        { role: 'heading', name: 'Office supplies', level: 1 },
        { role: 'textbox', name: 'Search products' },
        { role: 'button', name: 'Search' },
        { role: 'link', name: 'Cart' },
        { role: 'button', name: 'Add Mini Stapler to cart' },
        { role: 'button', name: 'Save' },
        { role: 'button', name: 'Save' },
      ],
    };
    const pick = (step: string) => selectTool(step, shop);
    expect(pick('Go to https://shop.example/sale')).to.deep.equal({
      ok: true,
      call: { tool: 'navigate', args: { url: 'https://shop.example/sale' } },
    });
    expect(pick('Visit nike.com.')).to.deep.equal({ ok: true, call: { tool: 'navigate', args: { url: 'nike.com' } } });
    expect(pick('Open chrome://settings')).to.deep.equal({ ok: true, call: { tool: 'navigate', args: { url: 'chrome://settings' } } });
    expect(pick('Click the Cart link')).to.deep.equal({ ok: true, call: { tool: 'click', args: { role: 'link', name: 'Cart' } } });
    expect(pick('Press the "Add Mini Stapler to cart" button')).to.deep.equal({
      ok: true,
      call: { tool: 'click', args: { role: 'button', name: 'Add Mini Stapler to cart' } },
    });
    expect(pick('Click the search box')).to.deep.equal({
      ok: true,
      call: { tool: 'click', args: { role: 'textbox', name: 'Search products' } },
    });
    expect(pick('Open the cart')).to.deep.equal({ ok: true, call: { tool: 'click', args: { role: 'link', name: 'Cart' } } });
    expect(pick('Type "stapler" into the search box')).to.deep.equal({
      ok: true,
      call: { tool: 'type', args: { text: 'stapler', role: 'textbox', name: 'Search products' } },
    });
    expect(pick('Enter "hello"')).to.deep.equal({ ok: true, call: { tool: 'type', args: { text: 'hello' } } });
    expect(pick('Search for Nike shoes on sale')).to.deep.equal({
      ok: true,
      call: { tool: 'search', args: { query: 'Nike shoes on sale' } },
    });
    expect(pick('Search for pens on Google')).to.deep.equal({ ok: true, call: { tool: 'search', args: { query: 'pens' } } });
    expect(pick('Look up "running shoes"')).to.deep.equal({ ok: true, call: { tool: 'search', args: { query: 'running shoes' } } });
    expect(pick('Scroll down to the results')).to.deep.equal({ ok: true, call: { tool: 'scroll', args: { direction: 'down' } } });
    expect(pick('Scroll back up to the top')).to.deep.equal({ ok: true, call: { tool: 'scroll', args: { direction: 'up' } } });
    expect(pick('Press Enter to submit')).to.deep.equal({ ok: true, call: { tool: 'press_key', args: { key: 'Enter' } } });
    expect(pick('Press Escape to close the dialog')).to.deep.equal({ ok: true, call: { tool: 'press_key', args: { key: 'Escape' } } });
    expect(pick('Wait 3 seconds for the results')).to.deep.equal({ ok: true, call: { tool: 'wait', args: { seconds: 3 } } });
    expect(pick('Wait for the page to load')).to.deep.equal({ ok: true, call: { tool: 'wait', args: { seconds: 2 } } });
    // Fail fast: a target the snapshot lacks, a name two elements share, a step no trigger fits.
    expect(pick('Click Delete')).to.include({ ok: false, tool: 'click', errorType: 'element_not_found' });
    expect(pick('Click Save')).to.include({ ok: false, tool: 'click', errorType: 'ambiguous_step' });
    expect(pick('Find a good deal')).to.include({ ok: false, tool: '', errorType: 'ambiguous_step' });
    expect(pick('Go to the shop')).to.include({ ok: false, tool: 'navigate', errorType: 'ambiguous_step' });
  });

  it("seed003 stdin: the seed's input as written (no tool), or the {input, tool} wrapper", () => {
    const input = {
      main_goal: 'Find Nike shoes on sale',
      plan_step: 'Search for Nike shoes',
      dom_snapshot: {},
      url: 'https://www.google.com/',
      allowed_tools: ['search'],
    };
    expect(readStep(input)).to.deep.equal({ input });
    const tool = { tool: 'search', args: { query: 'Nike shoes' } };
    expect(readStep({ input, tool })).to.deep.equal({ input, tool });
    expect(readStep({ ...input, plan_step: '' })).to.match(/needs "plan_step"/);
    expect(readStep({ ...input, allowed_tools: 'search' })).to.match(/needs "allowed_tools"/);
    expect(readStep([])).to.match(/must be a JSON object/);
  });
});
