// How a task from the side panel ends, as the person reads it, in real Chromium with the built
// extension: `python -m browser_use_ext serve` running browser_use's real Agent (0.1.48), then the
// built-in agent, both answered by the one scripted LLM (test/harness/scripted-llm.ts).
// - Honest outcomes: green "done" only when the agent says it succeeded. browser_use's done with
//   success false ("I cannot find the form fields") and a run out of steps end "not completed", with
//   the agent's own words shown.
// - The session that holds a serve task's tab says in words which task it runs.
// - Stop does not log the last step a second time.
// - The built-in agent's steps read as words ("Type 'pen' into 'Search products'"), and when its task ends
//   the tab is the person's again: no overlay, no tab group.
// Needs a Python with browser-use 0.1.48: $BUX_BROWSER_USE_PYTHON, else the bu048 venv.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { openAiChat } from '../../bridge/agents/text-driver/llm';
import { serveTasks } from '../../bridge/agents/text-driver/task-runner';
import { AgentClient } from '../../bridge/client/agent-client';
import { type Harness, startHarness } from '../harness/harness';
import { artifactShot, openPanel } from '../harness/panel';
import { BROWSER_USE_PYTHON, SHIM_DIR, shimPythonEnv } from '../harness/python';
import { browserUseScript, browserUseStep, type ChatMsg, ScriptedLlm } from '../harness/scripted-llm';
import { idOf, keywordOf } from '../seeds/scripted-llm';

const PYTHON = BROWSER_USE_PYTHON;
const MAX_STEPS = 2;
const shot = (page: Page, name: string) => artifactShot('task-outcomes', page, name);

const badge = (panel: Page) =>
  panel.$eval('#task-state', (e) => ({ state: (e as HTMLElement).dataset['state'] ?? '', text: e.textContent ?? '', cls: e.className }));
const innerText = (panel: Page, sel: string) => panel.$eval(sel, (e) => (e as HTMLElement).innerText);

async function submitTask(panel: Page, task: string): Promise<string> {
  await panel.click('#task-input', { count: 3 });
  await panel.type('#task-input', task);
  const before = await panel.$eval('#current-task', (e) => (e as HTMLElement).dataset['taskId'] ?? '');
  await panel.click('#task-submit');
  await panel.waitForFunction(
    (b) => {
      const id = (document.getElementById('current-task') as HTMLElement).dataset['taskId'];
      return id && id !== b;
    },
    { timeout: 20_000 },
    before,
  );
  return panel.$eval('#current-task', (e) => (e as HTMLElement).dataset['taskId'] ?? '');
}

const waitEnded = (panel: Page, timeout = 120_000) =>
  panel.waitForFunction(
    () =>
      ['done', 'incomplete', 'failed', 'stopped'].includes((document.getElementById('task-state') as HTMLElement).dataset['state'] ?? ''),
    { timeout, polling: 250 },
  );

/** The shop tab as Chrome sees it (from the panel page's chrome.tabs): its tab group, -1 for none. */
const groupOf = (panel: Page, urlPart: string) =>
  panel.evaluate(async (u) => {
    const tabs = await (
      globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ url?: string; groupId: number }[]> } } }
    ).chrome.tabs.query({});
    return tabs.find((t) => t.url?.includes(u))?.groupId ?? null;
  }, urlPart);

const overlayShown = (page: Page) => page.evaluate(() => document.querySelector('[data-browser-agent-ui]')?.isConnected === true);

describe('e2e: how a task from the side panel ends (serve with the real Agent, then the built-in agent)', function () {
  this.timeout(300_000);
  let h: Harness;
  let llm: ScriptedLlm;
  let panel: Page;
  let shop: Page;
  let serve: { proc: ChildProcess; output: string[] } | null = null;
  let builtin: AgentClient | null = null;
  const diag = async () => `${await innerText(panel, '#current-task')}\n--- serve:\n${serve?.output.slice(-30).join('\n') ?? ''}`;

  before(async function () {
    if (!fs.existsSync(PYTHON) || spawnSync(PYTHON, ['-c', 'import browser_use']).status !== 0)
      throw new Error(`These tests run browser_use's real Agent: ${PYTHON} cannot import browser_use. Set BUX_BROWSER_USE_PYTHON.`);
    h = await startHarness({ fixturesDir: path.join(SHIM_DIR, 'tests', 'fixtures') });
    llm = await new ScriptedLlm(browserUseScript([browserUseStep('Wait', [{ wait: { seconds: 1 } }])])).start();
    shop = await h.openPage(h.fixtures.url('/shop/index.html'));
    for (const p of await h.launched.browser.pages()) if (p !== shop && p.url() === 'about:blank') await p.close();
    panel = await openPanel(h.launched.browser);
    await shop.bringToFront();
    const output: string[] = [];
    const proc = spawn(
      PYTHON,
      [
        '-m',
        'browser_use_ext',
        'serve',
        '--bridge-url',
        h.bridge.agentUrl,
        '--llm',
        'openai',
        '--model',
        'scripted',
        '--base-url',
        llm.baseUrl,
        '--api-key',
        'test',
        '--no-vision',
        '--max-steps',
        String(MAX_STEPS),
      ],
      {
        cwd: SHIM_DIR,
        env: shimPythonEnv(PYTHON, { BROWSER_USE_EXT_AGENT_SECRET: h.secrets.agent_secret }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    for (const s of [proc.stdout!, proc.stderr!]) readline.createInterface({ input: s }).on('line', (l) => output.push(l));
    serve = { proc, output };
    await panel
      .waitForFunction(
        () =>
          !(document.getElementById('task-submit') as HTMLButtonElement).disabled && document.getElementById('no-agent')?.hidden === true,
        {
          timeout: 120_000,
          polling: 500,
        },
      )
      .catch((e: unknown) => {
        throw new Error(`serve did not connect: ${String(e)}\n${output.join('\n')}`);
      });
  });
  after(async () => {
    serve?.proc.kill('SIGKILL');
    await builtin?.close();
    await llm?.close();
    await h?.close();
  });

  it('serve: a done with success false is "not completed" (never the green done), with the agent\'s words', async () => {
    llm.setScript(browserUseScript([browserUseStep('Give up', [{ done: { text: 'I cannot find the form fields', success: false } }])]));
    await submitTask(panel, 'Fill in the contact form');
    await waitEnded(panel);
    const b = await badge(panel);
    await shot(panel, '01-serve-not-completed');
    expect(b.state, await diag()).to.equal('incomplete');
    expect(b.text).to.equal('not completed');
    expect(b.cls).to.not.match(/\bdone\b/);
    expect(await innerText(panel, '#final-result')).to.equal('The agent said: I cannot find the form fields');
    // Not the green box of a task done: nothing about a task that failed its goal reads as success.
    expect(await panel.$eval('#final-result', (e) => getComputedStyle(e).backgroundColor)).to.not.equal('rgb(240, 250, 244)');
    // The answer once: not also in the thread above it.
    expect(await innerText(panel, '#task-log')).to.not.contain('I cannot find the form fields');
  });

  it('serve: a run that uses all its steps is "not completed" and says so', async () => {
    llm.setScript(browserUseScript([browserUseStep('Look around', [{ scroll_down: { amount: 100 } }])]));
    await submitTask(panel, 'Find the fax number');
    await waitEnded(panel);
    expect((await badge(panel)).state, await diag()).to.equal('incomplete');
    expect(await innerText(panel, '#final-result')).to.contain(`used all its ${MAX_STEPS} steps`);
  });

  it('serve: done with success true is done', async () => {
    llm.setScript(browserUseScript([browserUseStep('Answer', [{ done: { text: 'The shop sells staplers', success: true } }])]));
    await submitTask(panel, 'What does the shop sell?');
    await waitEnded(panel);
    expect((await badge(panel)).state, await diag()).to.equal('done');
    expect(await innerText(panel, '#final-result')).to.equal('Result: The shop sells staplers');
  });

  it("serve: the session holding the task's tab names the task in words; after Stop each step is logged once", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let reachedStep2: () => void = () => undefined;
    const atStep2 = new Promise<void>((r) => (reachedStep2 = r));
    llm.setScript(
      browserUseScript([
        browserUseStep('Scroll once', [{ scroll_down: { amount: 100 } }]),
        async () => {
          reachedStep2();
          await held;
          return browserUseStep('Scroll again', [{ scroll_down: { amount: 100 } }]);
        },
      ]),
    );
    try {
      await submitTask(panel, 'Stop me when I scroll');
      await atStep2;
      await panel.waitForFunction(() => document.querySelector('#agent-list .tabs button[data-tab-id]') !== null, { timeout: 20_000 });
      const holder = await panel.$eval(
        '#agent-list button[data-tab-id]',
        (b) => (b.closest('li[data-session-id]') as HTMLElement).innerText,
      );
      await shot(panel, '02-serve-task-session-named');
      // Named as the agent it is, with the task on its own line (not 'browser-use-ext serve, running "..."').
      expect(holder).to.contain('browser_use agent').and.contain('Running: Stop me when I scroll');
      expect(holder).to.not.contain('browser-use-ext serve, running');
      await panel.click('#task-stop');
      await panel.waitForFunction(() => (document.getElementById('task-state') as HTMLElement).dataset['state'] === 'stopped', {
        timeout: 15_000,
      });
    } finally {
      release();
    }
    // Give a late step report the time to arrive, then count.
    await new Promise((r) => setTimeout(r, 1500));
    const goals = await panel.$$eval('#task-log li.step .goal', (gs) => gs.map((g) => g.textContent ?? ''));
    await shot(panel, '03-serve-stopped');
    expect(
      goals.filter((g) => g.startsWith('Step 1 ')),
      goals.join('\n'),
    ).to.have.length(1);
  });

  it("the built-in agent: steps in words, an honest outcome, and the person's tab back (no overlay, no group)", async () => {
    // serve leaves (Ctrl+C): the built-in agent is the one that takes the next task.
    const exited = new Promise((r) => serve!.proc.once('exit', r));
    serve!.proc.kill('SIGINT');
    await exited;
    serve = null;
    await shop.goto(h.fixtures.url('/shop/index.html'));
    await shop.bringToFront();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let reachedStep2: () => void = () => undefined;
    const atStep2 = new Promise<void>((r) => (reachedStep2 = r));
    let call = 0;
    llm.setScript(async (messages: ChatMsg[]) => {
      const k = keywordOf(messages);
      if (++call === 1) {
        const last = messages[messages.length - 1]?.content ?? '';
        return `<tool_code>{"action": "type", "id": ${idOf(last, 'input', 'Search products')}, "value": "pen"}</tool_code>\n${k}`;
      }
      reachedStep2();
      await held;
      return `I looked everywhere.\n<tool_code>{"action": "done", "success": false, "text": "I cannot find the form fields"}</tool_code>\n${k}`;
    });
    builtin = await AgentClient.connect({
      url: h.bridge.agentUrl,
      secret: h.secrets.agent_secret,
      clientName: 'seed002-agent',
      capabilities: ['accepts_tasks'],
    });
    serveTasks({ client: builtin, llm: openAiChat({ baseUrl: llm.baseUrl, model: 'scripted' }), maxTabs: 3, maxSteps: 5 });
    await panel.waitForFunction(
      () =>
        [...(document.getElementById('task-runner') as HTMLSelectElement).selectedOptions].some((o) =>
          /built-in/i.test(o.textContent ?? ''),
        ),
      { timeout: 20_000 },
    );
    try {
      await submitTask(panel, 'Fill in the contact form');
      await atStep2;
      // While it works the tab is visibly the agent's: grouped, with the overlay.
      await shop.waitForFunction(() => document.querySelector('[data-browser-agent-ui]')?.isConnected === true, { timeout: 20_000 });
      expect(await groupOf(panel, '/shop/')).to.not.equal(-1);
      await panel.waitForFunction(() => document.querySelectorAll('#task-log li.step').length >= 1, { timeout: 20_000 });
      const goal = await panel.$eval('#task-log li.step .goal', (g) => ({ text: g.textContent ?? '', title: (g as HTMLElement).title }));
      await shot(panel, '04-builtin-step-in-words');
      expect(goal.text).to.equal("Step 1 · Type 'pen' into 'Search products'");
      expect(goal.title).to.equal(goal.text);
    } finally {
      release();
    }
    await waitEnded(panel, 30_000);
    expect((await badge(panel)).state).to.equal('incomplete');
    expect(await innerText(panel, '#final-result')).to.equal('The agent said: I cannot find the form fields');
    // The task ended: its session let go of the tab, so the overlay and the group went away.
    await shop.waitForFunction(() => document.querySelector('[data-browser-agent-ui]')?.isConnected !== true, { timeout: 10_000 });
    expect(await overlayShown(shop)).to.equal(false);
    await panel.waitForFunction(
      async () => {
        const tabs = await (
          globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ url?: string; groupId: number }[]> } } }
        ).chrome.tabs.query({});
        return tabs.find((t) => t.url?.includes('/shop/'))?.groupId === -1;
      },
      { timeout: 10_000 },
    );
    await shot(panel, '05-builtin-ended-tab-free');
  });
});
