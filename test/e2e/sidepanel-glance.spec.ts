// The side panel read at a glance, at 360 px wide, in real Chromium with the built extension and
// real bridges: every state a person reaches (not paired, no agent, agents with their tabs, a
// running task with long step titles, the CDP clients, a pairing that does not connect) fits the
// width with no horizontal scrolling, shows commands as whole <code> boxes (never a backtick,
// never split mid-word), has no character that needs an emoji font, names agents in words with
// their model and tabs by title, passes axe-core with no serious or critical violation, and works
// from the keyboard alone. Agents here are AgentClient sessions that play the agent's part of the
// protocol (accept a task, report steps), so nothing but the panel is under test. PNGs go to
// test-artifacts/sidepanel-glance/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { createBridge } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import { loadOrCreateSecrets } from '../../bridge/common/secrets';
import type { BridgeServer } from '../../bridge/src/server';
import type { TaskControlMessage, UserTaskSubmissionMessage } from '../../schemas/generated/protocol';
import { describeViolations, seriousAxeViolations } from '../harness/axe';
import { type LaunchedBrowser, launchWithExtension, REPO_ROOT } from '../harness/browser';
import { FixtureServer } from '../harness/fixture-server';
import { artifactShot, openPanel } from '../harness/panel';
import { brokenCommands, panelLayout, unreadableText } from '../harness/panel-checks';

const SIZE = { width: 360, height: 800 };
const LONG_TITLE = 'Heavy Duty Stapler SX-200 with a remarkably long product name that goes on and on';
const LONG_MCP = 'claude-desktop-on-the-workstation-in-the-back-office';
const LONG_GOAL =
  'Open https://shop.example.com/catalogue/office-supplies/staplers/heavy-duty/sx-200?ref=side-panel-test&utm_source=browser-use-ext and compare ' +
  'Supercalifragilisticexpialidocious-stapler-with-an-unbreakable-name-that-is-longer-than-the-panel-is-wide against the others';

const shot = (page: Page, name: string) => artifactShot('sidepanel-glance', page, name);
const text = (panel: Page, sel: string) => panel.$eval(sel, (e) => (e as HTMLElement).innerText);
const visible = (panel: Page, sel: string) =>
  panel.$eval(sel, (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden').catch(() => false);

async function waitConn(panel: Page, state: string, timeout = 30_000): Promise<void> {
  await panel.waitForFunction((s) => (document.getElementById('connection') as HTMLElement).dataset['state'] === s, { timeout }, state);
}

/** The checks every state must pass, then a PNG of it. */
async function glance(panel: Page, name: string): Promise<void> {
  const layout = await panelLayout(panel);
  expect(layout.scrollWidth, `${name}: horizontal scrolling at ${SIZE.width} px\n${layout.wide.join('\n')}`).to.be.at.most(
    layout.clientWidth,
  );
  expect(await unreadableText(panel), `${name}: unreadable text`).to.deep.equal([]);
  expect(await brokenCommands(panel), `${name}: commands`).to.deep.equal([]);
  const axe = await seriousAxeViolations(panel);
  expect(axe, `${name}: axe\n${describeViolations(axe)}`).to.deep.equal([]);
  await shot(panel, name);
}

interface Focused {
  id: string;
  text: string;
  /** The focus ring a keyboard user sees. */
  ring: boolean;
}

/** Presses Tab until `done` matches the focused element (at most `max` times); every element focused on the way. */
async function tabUntil(panel: Page, done: (f: Focused) => boolean, max = 60, key = 'Tab'): Promise<Focused[]> {
  const seen: Focused[] = [];
  for (let i = 0; i < max; i++) {
    if (key === 'Shift+Tab') {
      await panel.keyboard.down('Shift');
      await panel.keyboard.press('Tab');
      await panel.keyboard.up('Shift');
    } else await panel.keyboard.press('Tab');
    const f = await panel.evaluate(() => {
      const e = document.activeElement as HTMLElement | null;
      if (!e || e === document.body) return { id: '', text: '', ring: false };
      const s = getComputedStyle(e);
      return {
        id: e.id || e.dataset['sessionId'] || e.dataset['tabId'] || e.className,
        text: (e.getAttribute('aria-label') ?? e.textContent ?? '').trim().slice(0, 80),
        ring: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1,
      };
    });
    seen.push(f);
    if (done(f)) return seen;
  }
  throw new Error(`Tab never reached the control; focused on the way: ${seen.map((f) => f.id || f.text).join(' > ')}`);
}

/** Waits for a condition of the test's own state (messages an agent received). */
async function until(cond: () => boolean, timeout = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeout) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The toolbar badge (chrome.action), once it reads `text` (the worker sets it a moment after the change). */
async function badgeReads(panel: Page, text: string): Promise<{ text: string; title: string }> {
  let seen = { text: '', title: '' };
  const t0 = Date.now();
  while (Date.now() - t0 < 10_000) {
    seen = await panel.evaluate(async () => ({ text: await chrome.action.getBadgeText({}), title: await chrome.action.getTitle({}) }));
    if (seen.text === text) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`badge reads ${JSON.stringify(seen)}, not "${text}"`);
}

/** With BUX_DOC_IMAGES=1: the README's pictures of the panel, at 360 and 1280 px, light and dark (docs/img/). */
async function docShots(panel: Page, name: string): Promise<void> {
  if (process.env['BUX_DOC_IMAGES'] !== '1') return;
  const dir = path.join(REPO_ROOT, 'docs', 'img');
  for (const scheme of ['light', 'dark'] as const) {
    await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    for (const width of [360, 1280]) {
      await panel.setViewport({ width, height: 800 });
      await panel.screenshot({ path: path.join(dir, `${name}-${width}-${scheme}.png`) as `${string}.png`, fullPage: true });
    }
  }
  await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await panel.setViewport(SIZE);
}

async function ctrlEnter(panel: Page): Promise<void> {
  await panel.keyboard.down('Control');
  await panel.keyboard.press('Enter');
  await panel.keyboard.up('Control');
}

/** The next Tab starts from the top of the page, as when the panel opens (a blur alone keeps
 * Chrome's starting point where the focus was). */
const focusTop = (panel: Page) =>
  panel.evaluate(() => {
    const start = document.createElement('span');
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
    start.remove();
  });

describe('e2e: the side panel at a glance (360 px, keyboard, axe; real Chromium, real bridges)', function () {
  this.timeout(240_000);
  const dirs: string[] = [];
  let a: BridgeServer;
  let b: BridgeServer | null = null;
  let launched: LaunchedBrowser;
  let fixtures: FixtureServer;
  let panel: Page;
  const agents: AgentClient[] = [];
  let builtin: AgentClient;
  const tasks: UserTaskSubmissionMessage[] = [];
  const controls: TaskControlMessage[] = [];

  const bridgeIn = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bux-glance-${name}-`));
    dirs.push(dir);
    return createBridge({ port: 0, configDir: dir, secrets: loadOrCreateSecrets(dir).secrets, logger: createLogger('silent') });
  };
  const agent = async (bridge: BridgeServer, clientName: string, model: string | undefined, takesTasks: boolean) => {
    const c = await AgentClient.connect({
      url: bridge.agentUrl,
      secret: bridge.secrets.agent_secret,
      clientName,
      ...(model ? { model } : {}),
      capabilities: takesTasks ? ['accepts_tasks'] : [],
      reconnect: false,
    });
    agents.push(c);
    return c;
  };

  before(async () => {
    a = bridgeIn('a');
    await a.start();
    fixtures = await new FixtureServer().start();
    // Page titles and agents' words may carry emoji: the panel shows the words only.
    fixtures.html('/item.html', '<h1>SX-200</h1><p>$24.99</p>', `\u{1F525} ${LONG_TITLE}`);
    fixtures.html('/start.html', '<h1>Start</h1>', 'Start page');
    // A fresh install: not paired.
    launched = await launchWithExtension({ extensionBridgeUrl: a.extensionUrl, extensionConfig: {} });
    for (const p of await launched.browser.pages()) if (p.url() === 'about:blank') await p.goto(fixtures.url('/start.html'));
    panel = await openPanel(launched.browser, SIZE);
    await panel.bringToFront();
  });
  after(async () => {
    for (const c of agents) await c.close().catch(() => undefined);
    await launched?.close();
    await a?.close();
    await b?.close();
    await fixtures?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('not paired: plain words, the command in a <code> box, and pairing works from the keyboard', async () => {
    await waitConn(panel, 'not_paired');
    expect(await text(panel, 'h1')).to.equal('browser-use-ext');
    expect(await panel.title()).to.equal('browser-use-ext');
    expect(await panel.$$eval('#conn-next code', (cs) => cs.map((c) => c.textContent))).to.deep.equal([
      'browser-use-ext pair',
      'browser-use-ext bridge --print-pairing',
    ]);
    expect(await text(panel, 'body')).to.not.contain('npx');
    // The toolbar icon says it too: never the look of a connected extension.
    expect((await badgeReads(panel, '!')).title).to.contain('not paired');
    await glance(panel, '01-not-paired');

    // Keyboard alone: Tab from the top reaches the code field, every stop shows a focus ring, Enter pairs.
    await focusTop(panel);
    const path1 = await tabUntil(panel, (f) => f.id === 'pair-code');
    expect(path1.map((f) => f.id)).to.include('open-settings');
    expect(
      path1.filter((f) => !f.ring),
      'focus ring',
    ).to.deep.equal([]);
    await panel.keyboard.type(a.pairing.create());
    await panel.keyboard.press('Enter');
    await waitConn(panel, 'connected');
    expect((await badgeReads(panel, '')).title).to.contain('connected, no agent at work');
  });

  it('connected, no agent: Run task is off with the reason, Ctrl+Enter keeps the typed task, the commands stay whole', async () => {
    await panel.waitForSelector('#no-agent:not([hidden])');
    expect(await panel.$eval('#task-submit', (b) => (b as HTMLButtonElement).disabled)).to.equal(true);
    expect(await text(panel, '#task-why')).to.contain('no agent that accepts tasks is connected');
    expect(await panel.$eval('#task-submit', (b) => b.getAttribute('aria-describedby'))).to.equal('task-why');
    expect(await panel.$$eval('#no-agent code.block', (cs) => cs.map((c) => c.textContent))).to.deep.equal([
      'python -m browser_use_ext serve --llm openai --model gpt-4o',
      'browser-use-ext agent --base-url https://api.openai.com/v1 --model gpt-4o-mini',
    ]);
    await focusTop(panel);
    await tabUntil(panel, (f) => f.id === 'task-input');
    await panel.keyboard.type('Find the cheapest stapler');
    await ctrlEnter(panel);
    await panel.waitForFunction(() => document.getElementById('task-why')?.classList.contains('tried') ?? false, { timeout: 5000 });
    expect(await panel.$eval('#task-input', (e) => (e as HTMLTextAreaElement).value)).to.equal('Find the cheapest stapler');
    expect(await visible(panel, '#current-task')).to.equal(false);
    await glance(panel, '02-no-agent');
  });

  it('a task sent as the last agent leaves: the notice shows commands as <code>, and the typed task stays', async () => {
    // The panel's list is a moment behind the bridge: it still shows an agent that accepts tasks.
    await panel.evaluate(() =>
      chrome.storage.session.set({
        bux_agents: [
          {
            session_id: 'gone-agent',
            client: { name: 'seed002-agent', version: '1.0.0', model: 'gpt-4o-mini' },
            capabilities: ['accepts_tasks'],
            connected: true,
            release_in_ms: null,
            tabs: [],
            task_ids: [],
            max_tabs: 10,
          },
        ],
        bux_agents_total: 1,
      }),
    );
    await panel.waitForFunction(() => !(document.getElementById('task-submit') as HTMLButtonElement).disabled, { timeout: 5000 });
    await panel.click('#task-submit');
    await panel.waitForFunction(() => document.getElementById('task-state')?.textContent === 'failed', { timeout: 15_000 });
    expect(await text(panel, '#final-result')).to.contain('The agent picked under "Run with" is no longer connected');
    expect(await panel.$eval('#task-input', (e) => (e as HTMLTextAreaElement).value)).to.equal('Find the cheapest stapler');

    // A panel that sends before its list caught up (no runner picked): the bridge finds no agent at all.
    const sent = await panel.evaluate(() =>
      chrome.runtime.sendMessage({ bux: 'panel', op: 'submit_task', prompt: 'Find a pen', use_element: false }),
    );
    expect(sent).to.have.property('ok', true);
    await panel.waitForFunction(
      () =>
        document.getElementById('current-prompt')?.textContent === 'Find a pen' &&
        document.getElementById('task-state')?.textContent === 'failed',
      { timeout: 15_000 },
    );
    const notice = await panel.$eval('#final-result', (l) => ({
      text: (l as HTMLElement).innerText,
      codes: [...l.querySelectorAll('code')].map((c) => c.textContent),
    }));
    expect(notice.text).to.contain('No agent that accepts tasks is connected').and.not.contain('`');
    expect(notice.codes).to.deep.equal([
      'python -m browser_use_ext serve --llm openai --model gpt-4o',
      'browser-use-ext agent --base-url https://api.openai.com/v1 --model gpt-4o-mini',
    ]);
    expect(await panel.$eval('#task-input', (e) => (e as HTMLTextAreaElement).value)).to.equal('Find the cheapest stapler');
    await panel.evaluate(() => chrome.storage.session.set({ bux_agents: [], bux_agents_total: 0 }));
    await panel.waitForSelector('#no-agent:not([hidden])');
    await glance(panel, '03-no-agent-task-failed');

    // Words from elsewhere (an agent's or a bridge's message) stay text, inside and outside backticks.
    const hostile = await panel.evaluate(async () => {
      const got = await chrome.storage.local.get('bux_tasks');
      const list = (got['bux_tasks'] as { log: { at: number; status: string; message: string }[] }[] | undefined) ?? [];
      const end = list[0]?.log[list[0].log.length - 1];
      if (end) end.message = 'Run `<img src=x onerror="document.title=1">` or <b>this</b>';
      await chrome.storage.local.set({ bux_tasks: list });
      await new Promise((r) => setTimeout(r, 300));
      const box = document.getElementById('final-result') as HTMLElement;
      return { imgs: box.querySelectorAll('img, b').length, code: box.querySelector('code')?.textContent ?? '' };
    });
    expect(hostile).to.deep.equal({ imgs: 0, code: '<img src=x onerror="document.title=1">' });
  });

  it('agents are named in words with their model, tabs by title; a long name never widens the panel', async () => {
    builtin = await agent(a, 'seed002-agent', 'gpt-4o-mini', true);
    builtin.on('task', (m: UserTaskSubmissionMessage) => tasks.push(m));
    builtin.on('task_control', (m: TaskControlMessage) => controls.push(m));
    await agent(a, 'browser-use-ext-python-serve', 'gpt-4o', true);
    const mcp = await agent(a, `mcp:${LONG_MCP}`, undefined, false);
    const opened = await mcp.call('open_tab', { url: fixtures.url('/item.html') });
    expect(opened.status, JSON.stringify(opened.error_info)).to.equal('success');
    await panel.waitForFunction(
      (t) => [...document.querySelectorAll('#agent-list .tabs li span')].some((s) => s.textContent?.startsWith(t)),
      { timeout: 15_000 },
      LONG_TITLE,
    );
    const names = await panel.$$eval('#agent-list .agent-name', (ns) => ns.map((n) => n.textContent));
    expect(names).to.deep.equal(['Built-in agent · gpt-4o-mini', 'browser_use agent · gpt-4o', `${LONG_MCP} (MCP client)`]);
    const options = await panel.$$eval('#task-runner option', (os) => os.map((o) => o.textContent));
    expect(options).to.deep.equal(['Built-in agent · gpt-4o-mini', 'browser_use agent · gpt-4o']);
    // The raw program name is only on the small details line.
    const details = await panel.$$eval('#agent-list .agent-details', (ds) => ds.map((d) => d.textContent ?? ''));
    expect(details.map((d) => d.split(' ')[0])).to.deep.equal(['version', 'browser-use-ext-python-serve', `mcp:${LONG_MCP}`]);
    expect(await text(panel, '#agent-list')).to.not.match(/seed/i);
    const tabText = await text(panel, '#agent-list');
    expect(tabText).to.contain(`${LONG_TITLE} (${new URL(fixtures.origin).host})`);
    const tabId = await panel.$eval('#agent-list .tabs button[data-tab-id]', (b) => (b as HTMLElement).dataset['tabId'] ?? '');
    expect(tabText).to.not.match(new RegExp(`\\b${tabId}\\b`));
    expect(await panel.$eval('#task-submit', (b) => (b as HTMLButtonElement).disabled)).to.equal(false);
    expect(await visible(panel, '#task-why')).to.equal(false);
    expect(await visible(panel, '#no-agent')).to.equal(false);
    await glance(panel, '04-agents');
  });

  it('one entry per agent: the session running a task sits under its agent, a CDP client with its address; Disconnect ends both', async () => {
    const real = await panel.evaluate(() => chrome.storage.session.get(['bux_agents', 'bux_agents_total', 'bux_cdp_clients']));
    const s = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
      session_id: id,
      client: { name, version: '1.0.0' },
      capabilities: [],
      connected: true,
      release_in_ms: null,
      tabs: [],
      task_ids: [],
      max_tabs: 10,
      ...extra,
    });
    const now = new Date().toISOString();
    const fake = {
      bux_agents: [
        s('serve-1', 'browser-use-ext-python-serve', {
          client: { name: 'browser-use-ext-python-serve', version: '1.0.0', model: 'gpt-4o' },
          capabilities: ['accepts_tasks'],
          task_ids: ['task-elsewhere'],
        }),
        s('serve-task', 'browser-use-ext-python', { parent_session_id: 'serve-1', tabs: [{ tab_id: 999_001, url: 'https://shop.test/' }] }),
        s('cdp-1', 'cdp:nightly', { tabs: [{ tab_id: 999_002, url: 'https://news.test/' }] }),
      ],
      bux_agents_total: 3,
      bux_cdp_clients: [
        {
          name: 'nightly',
          max_tabs: 3,
          created_at: now,
          last_used_at: now,
          connections: [{ session_id: 'cdp-1', tab_ids: [999_002], commands_per_s: 4 }],
        },
        { name: 'spare', max_tabs: 3, created_at: now, last_used_at: null, connections: [] },
      ],
    };
    await panel.evaluate((f) => chrome.storage.session.set(f), fake);
    try {
      await panel.waitForSelector('#agent-list > li[data-session-id="cdp-1"] li.cdp-client[data-cdp-name="nightly"]', { timeout: 5000 });
      expect(await panel.$$eval('#agent-list .agent-name', (ns) => ns.map((n) => n.textContent))).to.deep.equal([
        'browser_use agent · gpt-4o',
        'nightly (CDP client)',
      ]);
      const folded = '#agent-list > li[data-session-id="serve-1"]';
      expect(await panel.$eval(`${folded} .badge`, (b) => b.textContent)).to.equal('running a task');
      expect(await panel.$$eval(`${folded} .tabs button[data-tab-id]`, (bs) => bs.length)).to.equal(1);
      expect(await text(panel, '#agent-list > li[data-session-id="cdp-1"] .cdp-rate')).to.equal('4 commands/s');
      // An address nobody uses is a small line under the list; no second list of CDP clients.
      expect(await panel.$$eval('#cdp-list > li', (ls) => ls.map((l) => (l as HTMLElement).dataset['cdpName']))).to.deep.equal(['spare']);
      expect(await text(panel, 'body')).to.not.contain('Clients connected over CDP');
      // Agents at work, none taking tasks: no "start an agent" box, even with a task typed.
      expect((await badgeReads(panel, '2')).title).to.contain('2 agents at work');
      await panel.evaluate((f) => chrome.storage.session.set({ bux_agents: f.bux_agents.slice(2), bux_agents_total: 1 }), fake);
      await panel.type('#task-input', 'x');
      await panel.waitForFunction(() => document.querySelectorAll('#agent-list .agent-name').length === 1, { timeout: 5000 });
      expect(await visible(panel, '#no-agent')).to.equal(false);
      await glance(panel, '04b-cdp-agent');
      await panel.evaluate((f) => chrome.storage.session.set({ bux_agents: f.bux_agents, bux_agents_total: 3 }), fake);
      await panel.waitForFunction(() => document.querySelectorAll('#agent-list .agent-name').length === 2, { timeout: 5000 });
      // Disconnect on the folded entry ends the session running the task and the agent itself.
      await panel.evaluate(() => {
        const w = window as unknown as { sent: unknown[] };
        w.sent = [];
        chrome.runtime.sendMessage = ((m: unknown) => (w.sent.push(m), Promise.resolve({ ok: true }))) as typeof chrome.runtime.sendMessage;
      });
      await panel.click(`${folded} .agent button`);
      expect(await panel.evaluate(() => (window as unknown as { sent: unknown[] }).sent)).to.deep.equal([
        { bux: 'panel', op: 'disconnect_agent', session_id: 'serve-task' },
        { bux: 'panel', op: 'disconnect_agent', session_id: 'serve-1' },
      ]);
    } finally {
      await panel.reload();
      await panel.waitForSelector('#connection');
      await panel.evaluate((r) => chrome.storage.session.set(r), real);
      await panel.$eval('#task-input', (e) => ((e as HTMLTextAreaElement).value = ''));
    }
  });

  it('a running task with long step titles fits; typing, Ctrl+Enter, redirect and Stop work from the keyboard alone', async () => {
    builtin.on('task', (m: UserTaskSubmissionMessage) => {
      const task_id = m.task_id ?? '';
      builtin.sendTaskProgress({ task_id, status: 'accepted', message: 'Accepted by the built-in agent.' });
      builtin.sendTaskProgress({
        task_id,
        status: 'step',
        step: 1,
        message: LONG_GOAL,
        step_details: {
          evaluation_previous_goal:
            'Unknown - nothing happened yet on https://shop.example.com/a/very/long/path/that/has/no/spaces/at/all/in/it',
          next_goal: LONG_GOAL,
          actions: [
            {
              name: 'go_to_url',
              params: { url: 'https://shop.example.com/catalogue/office-supplies/staplers/heavy-duty/sx-200' },
              result: null,
            },
            { name: 'click_element', params: { index: 12 }, error: 'Element 12 is covered by a cookie banner' },
            { name: 'scroll_down', params: {}, result: '\u{1F50D} Scrolled down the page' },
          ],
        },
      });
    });
    await focusTop(panel);
    const order = await tabUntil(panel, (f) => f.id === 'task-input');
    expect(order.filter((f) => !f.ring)).to.deep.equal([]);
    // The task kept from before is still in the box: select it all and type over it.
    await panel.keyboard.down('Control');
    await panel.keyboard.press('KeyA');
    await panel.keyboard.up('Control');
    await panel.keyboard.type('Compare the staplers');
    await ctrlEnter(panel);
    await panel.waitForFunction(() => document.getElementById('current-prompt')?.textContent === 'Compare the staplers', {
      timeout: 15_000,
    });
    await panel.waitForFunction(() => (document.getElementById('task-log')?.textContent ?? '').includes('Supercalifragilistic'), {
      timeout: 15_000,
    });
    expect(tasks.map((t) => t.user_prompt)).to.deep.equal(['Compare the staplers']);
    // Accepted by an agent: now the box is emptied.
    await panel.waitForFunction(() => (document.getElementById('task-input') as HTMLTextAreaElement).value === '', { timeout: 5000 });
    // Steps in plain words, no raw action JSON, no plumbing line before step 1.
    const log1 = await text(panel, '#task-log');
    expect(log1)
      .to.contain('Open shop.example.com')
      .and.contain('Click element 12: failed: Element 12 is covered')
      .and.contain('Scroll down');
    expect(log1).to.not.contain('{').and.not.contain('click_element').and.not.contain('Accepted by the built-in agent');
    await glance(panel, '05-task-running');

    // Tab order follows the page top to bottom, through the task to the agents' buttons.
    await focusTop(panel);
    const all = await tabUntil(panel, (f) => f.text.startsWith('Release'));
    const ids = all.map((f) => f.id);
    const at = (id: string) => ids.indexOf(id);
    for (const id of ['open-settings', 'task-runner', 'task-input', 'task-submit', 'redirect-input', 'redirect-send', 'task-stop'])
      expect(at(id), `${id} in ${ids.join(' > ')}`).to.be.at.least(0);
    expect(at('open-settings')).to.be.below(at('task-input'));
    expect(at('task-input')).to.be.below(at('task-submit'));
    expect(at('task-submit')).to.be.below(at('redirect-input'));
    expect(at('redirect-send')).to.be.below(at('task-stop'));
    expect(all.filter((f) => f.text.startsWith('Disconnect')).length).to.equal(3);
    expect(all.filter((f) => !f.ring).map((f) => f.id)).to.deep.equal([]);

    // Redirect: Enter in its box sends it. Stop: Space on the button.
    await focusTop(panel);
    await tabUntil(panel, (f) => f.id === 'redirect-input');
    await panel.keyboard.type('Only the blue ones');
    await panel.keyboard.press('Enter');
    const id = tasks[0]?.task_id ?? '';
    await until(() => controls.length >= 1);
    // The agent takes the redirect at its next step: the thread shows it between the two steps.
    builtin.sendTaskProgress({
      task_id: id,
      status: 'step',
      step: 2,
      message: 'Filter the blue staplers',
      step_details: {
        next_goal: 'Filter the blue staplers',
        actions: [
          { name: 'click_element_by_index', params: { index: 4 }, description: "Click 'Blue'" },
          { name: 'input_text', params: { index: 7, text: 'stapler' }, description: "Type 'stapler' into Search" },
        ],
      },
    });
    await panel.waitForFunction(() => document.querySelectorAll('#task-log li.step').length === 2, { timeout: 10_000 });
    expect(await panel.$$eval('#task-log li', (ls) => ls.map((l) => l.className))).to.deep.equal(['step', 'you redirect', 'step']);
    await tabUntil(panel, (f) => f.id === 'task-stop');
    await panel.keyboard.press('Space');
    await until(() => controls.length >= 2);
    expect(controls.map((c) => [c.command, c.text ?? null])).to.deep.equal([
      ['redirect', 'Only the blue ones'],
      ['stop', null],
    ]);
    // The step that ran when Stop was pressed reports after it: the thread shows Stop after that step, the outcome once.
    builtin.sendTaskProgress({
      task_id: id,
      status: 'step',
      step: 3,
      message: 'Open the blue one',
      step_details: { next_goal: 'Open the blue one' },
    });
    builtin.sendTaskProgress({ task_id: id, status: 'stopped', message: 'Stopped by the person.' });
    await panel.waitForFunction(() => document.getElementById('task-state')?.textContent === 'stopped', { timeout: 10_000 });
    expect(await panel.$$eval('#task-log li', (ls) => ls.map((l) => l.className))).to.deep.equal([
      'step',
      'you redirect',
      'step',
      'step',
      'you stop',
    ]);
    expect(await text(panel, '#final-result')).to.equal('Stopped by the person.');
  });

  it('the CDP clients section fits, and Revoke with its confirm step works from the keyboard', async () => {
    const now = new Date().toISOString();
    await panel.evaluate(
      (n, t) =>
        chrome.storage.session.set({
          bux_cdp_clients: [
            {
              name: n,
              max_tabs: 3,
              created_at: t,
              last_used_at: t,
              connections: [
                {
                  session_id: 'cdp-1',
                  tab_ids: [],
                  commands_per_s: 12.5,
                  last_method: 'Runtime.callFunctionOnWithAVeryLongMethodNameForTesting',
                },
              ],
            },
          ],
        }),
      'nightly-regression-suite-for-the-checkout-flow',
      now,
    );
    await panel.waitForSelector('#cdp-list li .cdp-revoke');
    await glance(panel, '06-cdp-clients');
    await focusTop(panel);
    await tabUntil(panel, (f) => f.text.startsWith('Revoke nightly'));
    await panel.keyboard.press('Enter');
    await panel.waitForFunction(() => document.activeElement?.classList.contains('cdp-confirm-yes') ?? false, { timeout: 5000 });
    expect(await visible(panel, '#cdp-list .cdp-confirm')).to.equal(true);
    await glance(panel, '07-cdp-confirm');
    // Escape cancels and puts focus back on Revoke; Enter there and Enter on the confirm revokes.
    await panel.keyboard.press('Escape');
    await panel.waitForFunction(() => document.activeElement?.classList.contains('cdp-revoke') ?? false, { timeout: 5000 });
    expect(await visible(panel, '#cdp-list .cdp-confirm')).to.equal(false);
    await panel.keyboard.press('Enter');
    await panel.waitForFunction(() => document.activeElement?.classList.contains('cdp-confirm-yes') ?? false, { timeout: 5000 });
    await panel.keyboard.press('Enter');
    // This bridge never made that URL: it answers, and the panel says what happened either way.
    await panel.waitForFunction(
      () =>
        (document.getElementById('cdp-result')?.textContent ?? '') !== '' ||
        (document.querySelector('#cdp-list .cdp-error')?.textContent ?? '') !== '',
      { timeout: 20_000 },
    );
    await panel.evaluate(() => chrome.storage.session.set({ bux_cdp_clients: [] }));
  });

  it("after pairing elsewhere, only that bridge's agents are listed (none until it answers)", async () => {
    expect(await panel.$$eval('#agent-list .agent-name', (ns) => ns.length)).to.equal(3);
    b = bridgeIn('b');
    await b.start();
    const bUrl = b.extensionUrl;
    // Pair by pasting B's secret at an address where nothing answers yet: A's agents must go at once.
    await b.close();
    // Keyboard alone: "Pair with another bridge", the address, the secret behind its disclosure, Enter.
    await focusTop(panel);
    await tabUntil(panel, (f) => f.id === 'show-pair');
    expect(await text(panel, '#show-pair')).to.equal('Pair with another bridge');
    await panel.keyboard.press('Enter');
    await panel.waitForFunction(() => document.activeElement?.id === 'pair-code', { timeout: 5000 });
    await tabUntil(panel, (f) => f.id === 'pair-url', 1);
    await panel.keyboard.down('Control');
    await panel.keyboard.press('KeyA');
    await panel.keyboard.up('Control');
    await panel.keyboard.type(bUrl);
    await tabUntil(panel, (f) => f.text === 'Paste the extension secret instead', 1);
    await panel.keyboard.press('Space');
    await tabUntil(panel, (f) => f.id === 'pair-secret', 2);
    await panel.keyboard.type(loadOrCreateSecrets(dirs[1]).secrets.extension_secret);
    await panel.keyboard.press('Enter');
    await waitConn(panel, 'unreachable');
    expect((await badgeReads(panel, '!')).title).to.contain('not reachable');
    await panel.waitForFunction(() => document.querySelectorAll('#agent-list .agent-name').length === 0, { timeout: 5000 });
    expect(await visible(panel, '#agents-empty')).to.equal(true);
    expect(await text(panel, '#conn-details')).to.contain(bUrl);
    expect(await panel.$$eval('#conn-next code', (cs) => cs.map((c) => c.textContent))).to.deep.equal(['browser-use-ext bridge']);
    await glance(panel, '08-bridge-unreachable');

    // B comes up on that address with one agent: the panel lists it, and only it.
    b = createBridge({
      port: Number(new URL(bUrl).port),
      configDir: dirs[1],
      secrets: loadOrCreateSecrets(dirs[1]).secrets,
      logger: createLogger('silent'),
    });
    await b.start();
    await agent(b, 'browser-use-ext-python-serve', 'claude-3-5-sonnet-latest', true);
    await waitConn(panel, 'connected', 30_000);
    await panel.waitForFunction(() => document.querySelectorAll('#agent-list .agent-name').length === 1, { timeout: 15_000 });
    expect(await text(panel, '#agent-list .agent-name')).to.equal('browser_use agent · claude-3-5-sonnet-latest');
    await glance(panel, '09-paired-elsewhere');
  });
  // The README's pictures (docs/img/panel-conversation-*.png): a finished task's thread with steps and
  // a redirect, and agents of four kinds. Only with BUX_DOC_IMAGES=1: the states above are what CI checks.
  it('docs: the panel as a conversation, 360 and 1280 px, light and dark', async function () {
    if (process.env['BUX_DOC_IMAGES'] !== '1') this.skip();
    const tabs = await panel.evaluate(async () => (await chrome.tabs.query({})).map((t) => ({ id: t.id ?? -1, url: t.url ?? '' })));
    const shopTab = tabs.find((t) => t.url.includes('item.html')) ?? tabs[0]!;
    const startTab = tabs.find((t) => t.url.includes('start.html')) ?? tabs[0]!;
    const s = (id: string, name: string, model: string | null, extra: Record<string, unknown> = {}) => ({
      session_id: id,
      client: { name, version: '0.1.0', ...(model ? { model } : {}) },
      capabilities: [],
      connected: true,
      release_in_ms: null,
      tabs: [],
      task_ids: [],
      max_tabs: 10,
      ...extra,
    });
    const now = Date.now();
    const step = (n: number, goal: string, actions: { name: string; params: Record<string, unknown>; description?: string }[]) => ({
      at: now,
      status: 'step',
      message: goal,
      step: n,
      details: { next_goal: goal, actions: actions.map((a) => ({ ...a, result: null, error: null })) },
    });
    await panel.evaluate((scene) => Promise.all([chrome.storage.session.set(scene.session), chrome.storage.local.set(scene.local)]), {
      session: {
        bux_agents: [
          s('docs-serve', 'browser-use-ext-python-serve', 'gpt-4o', { capabilities: ['accepts_tasks'], task_ids: ['task-docs'] }),
          // serve's task session, named by serve after its task, linked to serve by the bridge.
          s('docs-serve-task', 'browser-use-ext serve, running "Find the cheapest stapler and add it…"', 'gpt-4o', {
            parent_session_id: 'docs-serve',
            tabs: [{ tab_id: shopTab.id, url: shopTab.url }],
          }),
          s('docs-builtin', 'seed002-agent', 'gpt-4o-mini', { capabilities: ['accepts_tasks'] }),
          s('docs-mcp', 'mcp:claude-desktop', null, { tabs: [{ tab_id: startTab.id, url: startTab.url }] }),
          s('docs-cdp', 'cdp:nightly-tests', null),
        ],
        bux_agents_total: 5,
        bux_cdp_clients: [
          {
            name: 'nightly-tests',
            max_tabs: 3,
            created_at: new Date(now - 3_600_000).toISOString(),
            last_used_at: new Date(now).toISOString(),
            connections: [{ session_id: 'docs-cdp', tab_ids: [], commands_per_s: 6.5, last_method: 'Runtime.evaluate' }],
          },
        ],
      },
      local: {
        bux_tasks: [
          {
            task_id: 'task-docs',
            prompt: 'Find the cheapest stapler and add it to the cart',
            url: shopTab.url,
            page_title: 'Shop',
            submitted_at: now,
            state: 'done',
            final_result: 'Added the Heavy Duty Stapler SX-200 ($24.99), the cheapest blue stapler, to the cart.',
            log: [
              { at: now, status: 'submitted', message: 'Sent to the bridge.' },
              { at: now, status: 'accepted', message: 'Accepted' },
              step(1, 'Search the shop for staplers', [
                { name: 'input_text', params: { index: 4, text: 'stapler' }, description: "Type 'stapler' into Search" },
                { name: 'click_element_by_index', params: { index: 5 }, description: "Click 'Search'" },
              ]),
              { at: now, status: 'redirect_sent', message: 'You: only blue ones' },
              step(2, 'Keep the blue staplers and sort by price', [
                { name: 'click_element_by_index', params: { index: 12 }, description: "Click 'Blue'" },
                { name: 'select_dropdown_option', params: { index: 14, text: 'Price: low to high' } },
              ]),
              step(3, 'Add the cheapest one to the cart', [
                { name: 'click_element_by_index', params: { index: 21 }, description: "Click 'Add to cart'" },
              ]),
              step(4, 'Report the result', [{ name: 'done', params: { text: 'Added', success: true }, description: 'Done' }]),
              { at: now, status: 'done', message: 'Done' },
            ],
          },
        ],
      },
    });
    await panel.waitForFunction(() => document.querySelectorAll('#agent-list .agent-name').length === 4, { timeout: 10_000 });
    await panel.waitForFunction(() => document.getElementById('task-state')?.textContent === 'done', { timeout: 10_000 });
    await glance(panel, '10-docs-conversation');
    await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    const axe = await seriousAxeViolations(panel);
    expect(axe, `dark: axe\n${describeViolations(axe)}`).to.deep.equal([]);
    await docShots(panel, 'panel-conversation');
  });
});
