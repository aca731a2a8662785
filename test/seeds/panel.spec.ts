// Backends and the built-in agent in the side panel, from the person's side, in real Chromium with the built extension: the side panel page
// (chrome-extension://<id>/sidepanel/index.html in a popup window, as the side-panel e2e opens it)
// driven by puppeteer.
// 1. "Connect a backend": a seed 001 / seed 000 backend written from the seed documents alone
//    (backends.ts) is added by dialect + URL; remote and malformed URLs, and a backend that is not
//    running, show a specific error_code and what to do; the connector appears in the agent list,
//    drives the browser, survives a bridge restart (connectors.json) and is stopped by Disconnect
//    (agent list) or Remove.
// 2. The built-in seed 002 agent (`browser-use-ext agent`, no --goal) is picked under "Run with"
//    over an older task-accepting agent, runs a typed task against a scripted OpenAI-compatible
//    server, shows its steps, obeys "send command" and Stop.
// Panel PNGs go to test-artifacts/seeds-panel/.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { AgentClient } from '../../bridge/client/agent-client';
import { REPO_ROOT } from '../harness/browser';
import { freePort } from '../harness/free-port';
import { type Harness, startHarness } from '../harness/harness';
import { artifactShot, openPanel } from '../harness/panel';
import { Seed000Backend, Seed001Backend } from './backends';
import { type ChatMsg, idOf, keywordOf, ScriptedLlm } from './scripted-llm';

const SHOP = path.join(REPO_ROOT, 'python-shim-spec/tests/fixtures/shop');

const shot = (page: Page, name: string) => artifactShot('seeds-panel', page, name);

const text = (panel: Page, sel: string) => panel.$eval(sel, (e) => (e as HTMLElement).innerText);
const attrOf = (panel: Page, sel: string, key: string) => panel.$eval(sel, (e, k) => (e as HTMLElement).dataset[k] ?? '', key);

async function addBackend(panel: Page, dialect: '000' | '001', url: string): Promise<void> {
  await panel.select('#backend-dialect', dialect);
  await panel.$eval('#backend-url', (e) => ((e as HTMLInputElement).value = ''));
  await panel.type('#backend-url', url);
  await panel.$eval('#backend-result', (e) => {
    e.textContent = '';
    delete (e as HTMLElement).dataset['errorCode'];
  });
  await panel.click('#backend-connect');
}

async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const agentNames = (h: Harness) => (h.bridge.status()['agents'] as { client: { name: string } }[]).map((a) => a.client.name);

describe('seeds from the side panel: connect a backend (real Chromium)', function () {
  this.timeout(240_000);
  let h: Harness;
  let panel: Page;
  let cfg: string;
  const backends: { close(): Promise<void> }[] = [];
  const savedUrls = () => {
    const file = path.join(cfg, 'connectors.json');
    return fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { connectors: { url: string }[] }).connectors.map((c) => c.url)
      : [];
  };

  before(async () => {
    cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-seeds-panel-'));
    h = await startHarness({ fixturesDir: SHOP, bridgeOptions: { configDir: cfg } });
    const shop = await h.openPage(h.fixtures.url('/index.html'));
    for (const p of await h.launched.browser.pages()) if (p !== shop && p.url() === 'about:blank') await p.close();
    panel = await openPanel(h.launched.browser, { width: 420, height: 900 });
    await shop.bringToFront();
    await panel.waitForFunction(() => (document.getElementById('connection') as HTMLElement).dataset['state'] === 'connected', {
      timeout: 30_000,
    });
  });
  after(async () => {
    for (const b of backends) await b.close().catch(() => undefined);
    await h?.close();
    fs.rmSync(cfg, { recursive: true, force: true });
  });

  it('a remote URL is refused with BACKEND_NOT_LOOPBACK and the CLI command that allows it; a non-WebSocket URL cannot be added', async () => {
    await addBackend(panel, '001', 'ws://192.0.2.1:8080');
    await panel.waitForFunction(() => document.getElementById('backend-result')?.dataset['errorCode'] === 'BACKEND_NOT_LOOPBACK', {
      timeout: 15_000,
    });
    expect(await text(panel, '#backend-result'))
      .to.contain('only to backends on this machine')
      .and.to.contain('browser-use-ext connect --dialect 001 ws://192.0.2.1:8080 --allow-remote');
    await shot(panel, '01-remote-refused');
    // A URL that is not ws:// never reaches the bridge: Add stays off and the field says why (the
    // bridge's own BACKEND_URL_INVALID answer is tested in panel-wire.spec.ts).
    await addBackend(panel, '000', 'http://localhost:8080');
    expect(await panel.$eval('#backend-connect', (b) => (b as HTMLButtonElement).disabled)).to.equal(true);
    expect(await text(panel, '#backend-url-error')).to.contain('ws://localhost:8080');
    expect(await panel.$$('#backend-list li')).to.have.length(0);
    expect(agentNames(h).some((n) => n.includes('connector'))).to.equal(false);
    expect(savedUrls()).to.deep.equal([]);
  });

  let backend: Seed001Backend;
  let url = '';
  it('a backend that is not running shows BACKEND_UNREACHABLE; once it starts, the connector joins it, is in the agent list and drives the browser', async () => {
    const port = await freePort();
    url = `ws://127.0.0.1:${port}`;
    await addBackend(panel, '001', url);
    await panel.waitForSelector('#backend-list li[data-backend="retrying"] .why[data-error-code="BACKEND_UNREACHABLE"]', {
      timeout: 20_000,
    });
    expect(await text(panel, '#backend-list li .why'))
      .to.contain(url)
      .and.to.contain('Start the backend');
    await shot(panel, '02-backend-unreachable');
    backend = await new Seed001Backend().start(port);
    backends.push(backend);
    await backend.waitConnected();
    await panel.waitForSelector('#backend-list li[data-backend="connected"]', { timeout: 20_000 });
    // In the agent list, named by its hello.client, with its backend under it.
    await panel.waitForFunction(
      (u: string) =>
        [...document.querySelectorAll('#agent-list > li')].some(
          (li) => (li as HTMLElement).innerText.includes(`Backend ${u}`) && li.querySelector('.badge')?.textContent === 'connected',
        ),
      { timeout: 15_000 },
      url,
    );
    const snap = await backend.send({ type: 'snapshot' });
    expect(snap['success'], JSON.stringify(snap)).to.equal(true);
    expect(String(snap['data'])).to.match(/- (link|button|textbox) "[^"]*" \[ref=e1\]/);
    expect(savedUrls()).to.deep.equal([url]);
    await shot(panel, '03-backend-connected');
  });

  it('survives a bridge restart: the bridge dials the saved backend again', async () => {
    const before = await attrOf(panel, '#backend-list li', 'connectorId');
    await h.restartBridge();
    await panel.waitForFunction(
      (b: string) => {
        const li = document.querySelector('#backend-list li') as HTMLElement | null;
        return !!li && li.dataset['connectorId'] !== b && li.dataset['backend'] === 'connected';
      },
      { timeout: 30_000 },
      before,
    );
    await until(() => backend.clientCount === 1, 'the backend has one connection again');
    const snap = await backend.send({ type: 'snapshot' });
    expect(snap['success'], JSON.stringify(snap)).to.equal(true);
  });

  it('Disconnect in the agent list stops the connector and forgets it', async () => {
    const sid = await attrOf(panel, '#backend-list li', 'connectorId').then(() =>
      panel.evaluate(
        (u: string) =>
          [...document.querySelectorAll('#agent-list > li')]
            .find((li) => (li as HTMLElement).innerText.includes(`Backend ${u}`))
            ?.getAttribute('data-session-id') ?? '',
        url,
      ),
    );
    expect(sid).to.not.equal('');
    // The list re-renders on every agents/connectors change: click in the page, not on a held handle.
    await panel.$eval(`#agent-list button[data-session-id="${sid}"]`, (b) => (b as HTMLButtonElement).click());
    await until(() => backend.clientCount === 0, 'the backend link closed');
    await panel.waitForFunction(() => document.querySelectorAll('#backend-list li').length === 0, { timeout: 15_000 });
    await until(() => !agentNames(h).includes(`seed001-connector ${url}`), 'the session ended');
    expect(savedUrls()).to.deep.equal([]);
    // And it stays stopped: no redial.
    await new Promise((r) => setTimeout(r, 1500));
    expect(backend.clientCount).to.equal(0);
  });

  it('a seed 000 backend added in the panel gets its Snapshot; Remove stops it', async () => {
    const b0 = await new Seed000Backend().start();
    backends.push(b0);
    await addBackend(panel, '000', b0.url);
    const snap = await b0.next('Snapshot');
    expect((snap as { tree: unknown[] }).tree.length).to.be.greaterThan(0);
    await panel.waitForSelector('#backend-list li[data-backend="connected"]', { timeout: 15_000 });
    expect(await text(panel, '#backend-result')).to.contain('Added');
    await panel.$eval('#backend-list li button', (b) => (b as HTMLButtonElement).click());
    await until(() => b0.clientCount === 0, 'the seed 000 backend link closed');
    await panel.waitForFunction(() => document.querySelectorAll('#backend-list li').length === 0, { timeout: 15_000 });
    await until(() => !agentNames(h).some((n) => n.startsWith('seed000-connector')), 'the session ended');
    expect(savedUrls()).to.deep.equal([]);
  });
});

describe('seeds from the side panel: the built-in seed 002 agent as the task runner (real Chromium)', function () {
  this.timeout(240_000);
  let h: Harness;
  let panel: Page;
  let llm: ScriptedLlm;
  let child: ChildProcessWithoutNullStreams | null = null;
  let other: AgentClient;
  const otherTasks: unknown[] = [];
  let output = '';

  before(async () => {
    h = await startHarness({ fixturesDir: SHOP });
    const shop = await h.openPage(h.fixtures.url('/index.html'));
    for (const p of await h.launched.browser.pages()) if (p !== shop && p.url() === 'about:blank') await p.close();
    llm = await new ScriptedLlm(() => 'nothing').start();
    // An older task-accepting agent: without the person's pick the bridge would give it the task.
    other = await h.connectAgent({ capabilities: ['accepts_tasks'] });
    other.on('task', (m: unknown) => otherTasks.push(m));
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(REPO_ROOT, 'bridge/cli/main.ts'),
        'agent',
        '--base-url',
        llm.baseUrl,
        '--model',
        'scripted',
        '--bridge',
        h.bridge.agentUrl,
        '--max-steps',
        '40',
      ],
      {
        env: { ...process.env, BROWSER_USE_EXT_AGENT_SECRET: h.secrets.agent_secret, OPENAI_API_KEY: 'sk-test' },
      },
    );
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    panel = await openPanel(h.launched.browser, { width: 420, height: 900 });
    await shop.bringToFront();
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const gone = new Promise((r) => child?.once('exit', r));
      child.kill('SIGINT');
      await gone;
    }
    await other?.close();
    await llm?.close();
    await h?.close();
  });

  const said = (messages: ChatMsg[], t: string) => messages.some((m) => m.role === 'assistant' && m.content.startsWith(t));
  const slow = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('"Run with" lists the built-in agent as such; picked, it runs a typed task step by step, obeys "send command" and finishes', async () => {
    await panel.waitForFunction(
      () =>
        [...(document.getElementById('task-runner') as HTMLSelectElement).options].some((o) =>
          o.textContent?.startsWith('Built-in agent · '),
        ) && (document.getElementById('task-runner') as HTMLSelectElement).options.length === 2,
      { timeout: 30_000 },
    );
    const options = await panel.$$eval('#task-runner option', (os) =>
      os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent ?? '' })),
    );
    expect(options[0]?.text, 'the older agent comes first (the default)').to.not.contain('Built-in');
    const builtin = options.find((o) => o.text.startsWith('Built-in agent · '));
    await panel.select('#task-runner', builtin!.value);
    expect(
      await panel.evaluate(() =>
        (
          globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } } }
        ).chrome.storage.local
          .get('bux_task_runner')
          .then((v) => v['bux_task_runner']),
      ),
    ).to.equal('seed002-agent');
    llm.setScript(async (messages) => {
      const k = keywordOf(messages);
      const last = messages[messages.length - 1]?.content ?? '';
      if (last.includes('The person sent a command: only the blue one')) return `Found: Blue Ballpoint Pen (10 pack).\n${k}`;
      if (!said(messages, 'Typing'))
        return `Typing the query.\n<tool_code>{"action": "type", "id": ${idOf(last, 'input', 'Search products')}, "value": "pen"}</tool_code>\n${k}`;
      // Until the person's command arrives: keep working, slowly (a click into the search box).
      await slow(700);
      return `Checking the query.\n<tool_code>{"action": "type", "id": ${idOf(last, 'input', 'Search products')}, "value": ""}</tool_code>\n${k}`;
    });
    await panel.type('#task-input', 'Find a pen');
    await panel.click('#task-submit');
    await panel
      .waitForFunction(() => document.querySelectorAll('#task-log li.step').length >= 2, { timeout: 60_000, polling: 250 })
      .catch(async (e: unknown) => {
        throw new Error(`${String(e)}\nagent output: ${output}\nLLM requests: ${llm.requests.length}\npanel: ${await text(panel, 'body')}`);
      });
    const log = await text(panel, '#task-log');
    expect(log)
      .to.contain("Step 1 · Type 'pen' into 'Search products' · Typing the query.")
      .and.to.contain('Checking the query.')
      // The action in words, not its JSON.
      .and.not.contain('{"id":');
    await shot(panel, '10-builtin-running');
    await panel.type('#redirect-input', 'only the blue one');
    await panel.click('#redirect-send');
    await panel.waitForFunction(() => document.getElementById('task-state')?.textContent === 'done', { timeout: 60_000, polling: 250 });
    expect(await text(panel, '#final-result')).to.contain('Found: Blue Ballpoint Pen');
    expect(otherTasks, 'the task went to the agent the person picked').to.have.length(0);
    await shot(panel, '11-builtin-done');
  });

  it("Stop ends the built-in agent's task at once; the pick is kept for the next task", async () => {
    llm.setScript(async (messages) => {
      const k = keywordOf(messages);
      const last = messages[messages.length - 1]?.content ?? '';
      await slow(700);
      return `Looking.\n<tool_code>{"action": "type", "id": ${idOf(last, 'input', 'Search products')}, "value": ""}</tool_code>\n${k}`;
    });
    expect(await panel.$eval('#task-runner', (e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent ?? '')).to.match(
      /^Built-in agent · /,
    );
    await panel.type('#task-input', 'Keep looking');
    await panel.click('#task-submit');
    await panel.waitForFunction(
      () =>
        document.getElementById('current-prompt')?.textContent === 'Keep looking' &&
        document.querySelectorAll('#task-log li.step').length >= 1,
      { timeout: 60_000, polling: 250 },
    );
    const steps = llm.requests.length;
    await panel.click('#task-stop');
    await panel.waitForFunction(() => document.getElementById('task-state')?.textContent === 'stopped', { timeout: 15_000, polling: 250 });
    await slow(2000);
    expect(llm.requests.length - steps, 'no more than the step in flight after Stop').to.be.at.most(1);
    expect(otherTasks).to.have.length(0);
    expect(output).to.contain('stopped');
    await shot(panel, '12-builtin-stopped');
  });
});
