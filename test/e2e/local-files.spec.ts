// Local files in the real browser: the unpacked extension has file access (Chrome grants it to
// --load-extension), so without a rule an agent could navigate to file:///.../secrets.json and read
// it. Agents are refused local files (NOT_PERMITTED, reason local_file) unless the person allowed
// the folder; a marker in the files must never reach any answer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { ActionResultMessage } from '../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../schemas/generated/registry';
import { type Harness, useHarness } from '../harness/harness';
import { openPanel } from '../harness/panel';
import { clearSettings, setSettings } from './worker-actions.helpers';

const MARKER = 'bux-local-marker-4b1f9e27';
const FOLDERS_KEY = 'local_file_folders';

describe('e2e: local files are refused to agents unless the person allows their folder', function () {
  this.timeout(120_000);
  let h: Harness;
  useHarness((started) => (h = started), { cleanup: (x) => clearSettings(x, [FOLDERS_KEY]) });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-local-'));
  const file = (rel: string) => pathToFileURL(path.join(dir, rel)).href;
  /** The allowed folder as written in the setting (the options page stores this form). */
  const allowedUrl = `${pathToFileURL(path.join(dir, 'allowed')).href}/`;
  let agent: AgentClient;
  let web: Page;
  let webTab: number;

  before(async () => {
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.mkdirSync(path.join(dir, 'allowed', '.hidden'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'outside', 'secrets.json'), JSON.stringify({ extension_secret: MARKER }));
    fs.writeFileSync(path.join(dir, 'allowed', '.hidden', 'x.txt'), MARKER);
    fs.writeFileSync(path.join(dir, 'allowed', 'page.html'), '<title>Allowed page</title><p>Readable local text</p><button>Go</button>');
    fs.writeFileSync(
      path.join(dir, 'allowed', 'late-framer.html'),
      `<title>Late framer</title><button id="add" onclick="document.body.insertAdjacentHTML('beforeend', '<iframe src=../outside/secrets.json></iframe>')">Add</button>`,
    );
    fs.writeFileSync(
      path.join(dir, 'allowed', 'framer.html'),
      '<title>Framer</title><p>A page in the folder</p><iframe src="../outside/secrets.json"></iframe>',
    );
    web = await h.openPage(h.fixtures.html('/local-web', '<p>A web page</p>', 'Web'));
    agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    expect(first.status, JSON.stringify(first.error_info)).to.equal('success');
    webTab = first.tab_id as number;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const answers: unknown[] = [];
  const call = async <A extends ActionName>(action: A, params: ActionParams<A>, tabId: number): Promise<ActionResultMessage> => {
    const r = await agent.call(action, params, { tabId });
    answers.push(r);
    return r;
  };
  const refused = (r: ActionResultMessage, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.outcome_details)}`).to.equal('error');
    expect(r.error_info?.error_code, `${what}: ${JSON.stringify(r.error_info)}`).to.equal('NOT_PERMITTED');
    expect(r.error_info?.details?.['reason'], what).to.equal('local_file');
    expect(r.error_info?.message, what).to.match(/Settings/);
  };
  const tabOf = async (url: string): Promise<number> => {
    const r = await call('list_tabs', {}, webTab);
    const tabs = (r.outcome_details?.result as { tabs: { tab_id: number; url: string }[] }).tabs;
    const t = tabs.find((x) => x.url === url);
    expect(t, `a tab at ${url} in ${JSON.stringify(tabs)}`).to.not.equal(undefined);
    return t!.tab_id;
  };

  it('refuses navigate, open_tab and view-source: to a local file, whatever its spelling', async () => {
    const secret = file('outside/secrets.json');
    for (const url of [secret, secret.replace('file:', 'FILE:'), `view-source:${secret}`, ` ${secret}`]) {
      refused(await call('navigate', { url }, webTab), `navigate ${url}`);
      expect(web.url(), 'the tab did not move').to.match(/^http:/);
    }
    const before = (await h.launched.browser.pages()).length;
    refused(await call('open_tab', { url: secret }, webTab), 'open_tab');
    expect((await h.launched.browser.pages()).length, 'no tab opened').to.equal(before);
  });

  it('a tab already showing a local file: reading, acting and screenshots are refused; listing its URL is not', async () => {
    const secret = file('outside/secrets.json');
    const page = await h.launched.browser.newPage();
    await page.goto(secret, { waitUntil: 'load' });
    await page.bringToFront();
    expect(await page.evaluate(() => document.body.innerText)).to.include(MARKER); // the file does load in the browser
    const tab = await tabOf(secret);
    for (const [action, params] of [
      ['get_state', {}],
      ['get_state', { include_screenshot: true }],
      ['extract_content', {}],
      ['screenshot', {}],
      ['get', { selector: 'body', what: 'text' }],
      ['get', { selector: 'pre', what: 'html' }],
      ['click', { selector: 'body' }],
      ['scroll', { direction: 'down' }],
      ['reload', {}],
    ] as const) {
      refused(await call(action, params as never, tab), `${action} ${JSON.stringify(params)}`);
    }
    // The same tab's page actions on the fast path (no settling): refused before any answer too.
    const fast = await agent.call('get', { selector: 'body', what: 'text' }, { tabId: tab, settle: { enabled: false } });
    answers.push(fast);
    refused(fast, 'get (fast path)');
    // Leaving the file is fine.
    const away = await call('navigate', { url: h.fixtures.html('/local-away', '<p>away</p>', 'Away') }, tab);
    expect(away.status, JSON.stringify(away.error_info)).to.equal('success');
    // go_back onto the file: the step happens, no state comes with it, and reads are refused again.
    const back = await call('go_back', {}, tab);
    expect(back.status, JSON.stringify(back.error_info)).to.equal('success');
    // puppeteer learns of the step from its own CDP events, which may come after our answer does.
    for (let i = 0; i < 50 && page.url() !== secret; i++) await new Promise((r) => setTimeout(r, 100));
    expect(page.url()).to.equal(secret);
    expect(back.new_simplified_state).to.equal(null);
    refused(await call('get_state', {}, tab), 'get_state after go_back');
    refused(await call('extract_content', {}, tab), 'extract_content after go_back');
    await page.close();
    expect(JSON.stringify(answers), 'the marker reached an answer').to.not.include(MARKER);
  });

  it('with a folder allowed: files inside work; outside, ../ and %2e%2e escapes, hidden files and a framed outside file do not', async () => {
    await setSettings(h, { [FOLDERS_KEY]: [allowedUrl] });
    const panel = await openPanel(h.launched.browser);
    await panel.waitForFunction(
      (want) => document.getElementById('policy-local-files')?.textContent?.includes(want),
      { timeout: 5000 },
      path.join(dir, 'allowed'),
    );
    expect(await panel.$eval('#policy-local-files', (e) => e.textContent)).to.match(/^Local files allowed in: /);
    await panel.close();

    const inside = await call('navigate', { url: file('allowed/page.html') }, webTab);
    expect(inside.status, JSON.stringify(inside.error_info)).to.equal('success');
    expect(inside.new_simplified_state?.title).to.equal('Allowed page');
    const st = await call('get_state', {}, webTab);
    expect(st.status, JSON.stringify(st.error_info)).to.equal('success');
    expect(JSON.stringify(st.new_simplified_state)).to.include('Readable local text');
    const text = await call('extract_content', {}, webTab);
    expect(text.status, JSON.stringify(text.error_info)).to.equal('success');
    const shot = await call('screenshot', {}, webTab);
    expect(shot.status, JSON.stringify(shot.error_info)).to.equal('success');

    for (const url of [
      file('outside/secrets.json'),
      `${allowedUrl}../outside/secrets.json`,
      `${allowedUrl}%2e%2e/outside/secrets.json`,
      `${allowedUrl}.%2E/outside/secrets.json`,
      `${allowedUrl}..%2foutside/secrets.json`,
      `${allowedUrl}.hidden/x.txt`,
    ]) {
      refused(await call('navigate', { url }, webTab), `navigate ${url}`);
      expect(web.url(), `${url} must not load`).to.equal(file('allowed/page.html'));
    }

    // A page in the folder framing a file from outside it: it loads, but nothing of it is read.
    const framer = await call('navigate', { url: file('allowed/framer.html') }, webTab);
    expect(framer.status, JSON.stringify(framer.error_info)).to.equal('success');
    expect(framer.new_simplified_state).to.equal(null);
    const framed = await call('get_state', {}, webTab);
    refused(framed, 'get_state of a page framing an outside file');
    expect(framed.error_info?.details?.['frame_url']).to.equal(file('outside/secrets.json'));
    refused(await call('extract_content', {}, webTab), 'extract_content of the framer');
    refused(await call('screenshot', {}, webTab), 'screenshot of the framer');

    // A page in the folder that frames an outside file only after an action: the action's state is withheld.
    const late = await call('navigate', { url: file('allowed/late-framer.html') }, webTab);
    expect(late.status, JSON.stringify(late.error_info)).to.equal('success');
    const add = late.new_simplified_state?.actionable_elements.find((e) => e.attributes['id'] === 'add');
    expect(add, 'the Add button').to.not.equal(undefined);
    const clicked = await call('click', { element_id: add!.id }, webTab);
    expect(clicked.status, JSON.stringify(clicked.error_info)).to.equal('success');
    expect(clicked.new_simplified_state, 'no state of a page framing an outside file').to.equal(null);
    refused(await call('get_state', {}, webTab), 'get_state after the frame was added');

    // The setting removed: the folder is closed again at once.
    await clearSettings(h, [FOLDERS_KEY]);
    await call('navigate', { url: h.fixtures.html('/local-web2', '<p>web</p>', 'Web2') }, webTab);
    refused(await call('navigate', { url: file('allowed/page.html') }, webTab), 'navigate after the setting was removed');
    expect(JSON.stringify(answers), 'the marker reached an answer').to.not.include(MARKER);
  });
});
