// Worker-side actions and the settle rule, through the whole loop (agent -> bridge -> extension ->
// page) in headless Chromium with the real built extension: navigation, tabs, screenshot, waits,
// evaluate consent, dialogs, fetch/XHR recording, settling and its caps, typed errors.
import net from 'node:net';

import { expect } from 'chai';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { ActionResultMessage, ListTabsResult, OpenTabResult, ScreenshotResult } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { clearSettings, debuggerAttached, idOf, ok, setSettings, stateOf } from './worker-actions.helpers';

/** Visible text of the state after an action. */
const pageText = (r: ActionResultMessage) => (stateOf(r).text_context ?? []).map((t) => t.text).join(' ');

const FAST_SETTLE = { quiet_ms: 60, dom_cap_ms: 800, network_cap_ms: 3000, no_change_timeout_ms: 0 };

describe('e2e: worker-side actions and settling', function () {
  let h: Harness;
  useHarness((started) => (h = started), {
    prepare: (started) => {
      started.fixtures.html('/plain', '<h1>Plain</h1><a id="next" href="/second">Second</a>', 'Plain');
      started.fixtures.html('/second', '<h1>Second</h1><button id="b">B</button>', 'Second');
      started.fixtures.route('/api/slow', { body: '{"answer":42}', contentType: 'application/json', delayMs: 700 });
    },
  });
  afterEach(async () => {
    await clearSettings(h, ['settle_options', 'dialog_policy', 'allow_evaluate']);
  });

  async function agentOn(path: string, html: string, title = 'Fixture'): Promise<{ agent: AgentClient; tabId: number }> {
    await h.openPage(h.fixtures.html(path, html, title));
    const agent = await h.connectAgent();
    const state = stateOf(await agent.call('get_state', {}));
    return { agent, tabId: state.tab_id as number };
  }

  describe('navigation', () => {
    it('navigate loads the URL and answers with the new page state', async () => {
      const { agent, tabId } = await agentOn('/nav-start', '<p>start</p>');
      const r = await agent.call('navigate', { url: h.fixtures.url('/second') }, { tabId });
      const d = ok(r);
      expect(d.navigation_occurred).to.equal(true);
      expect(d.settled).to.equal(true);
      expect(d.result).to.deep.equal({ url: h.fixtures.url('/second') });
      expect(stateOf(r).title).to.equal('Second');
      expect(d.timings_ms?.navigation).to.be.a('number');
    });

    it('navigate to an unreachable URL is NAVIGATION_FAILED with the net error', async () => {
      const { agent, tabId } = await agentOn('/nav-bad', '<p>start</p>');
      const closedPort = await new Promise<number>((resolve) => {
        const srv = net.createServer().listen(0, '127.0.0.1', () => {
          const port = (srv.address() as net.AddressInfo).port;
          srv.close(() => resolve(port));
        });
      });
      const r = await agent.call('navigate', { url: `http://127.0.0.1:${closedPort}/nothing` }, { tabId });
      expect(r.status).to.equal('error');
      expect(r.error_info?.error_code).to.equal('NAVIGATION_FAILED');
      expect(r.error_info?.details?.['net_error']).to.equal('net::ERR_CONNECTION_REFUSED');
      expect(r.error_info?.message).to.match(/Check the URL/);
    });

    it('go_back and go_forward move through history; reload keeps the URL', async () => {
      const { agent, tabId } = await agentOn('/hist', '<p>first</p>', 'First');
      ok(await agent.call('navigate', { url: h.fixtures.url('/second') }, { tabId }));
      const back = await agent.call('go_back', {}, { tabId });
      expect(ok(back).result).to.deep.equal({ url: h.fixtures.url('/hist') });
      expect(stateOf(back).title).to.equal('First');
      const fwd = await agent.call('go_forward', {}, { tabId });
      expect(stateOf(fwd).title).to.equal('Second');
      const rl = await agent.call('reload', {}, { tabId });
      expect(ok(rl).navigation_occurred).to.equal(true);
      expect(stateOf(rl).url).to.equal(h.fixtures.url('/second'));
    });

    it('a click on a link reports the navigation and the new page', async () => {
      const { agent, tabId } = await agentOn('/click-nav', '<a id="go" href="/second">Go</a>');
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const r = await agent.call('click', { element_id: idOf(s, 'go') }, { tabId });
      const d = ok(r);
      expect(d.navigation_occurred).to.equal(true);
      expect(d.settled).to.equal(true);
      expect(stateOf(r).url).to.equal(h.fixtures.url('/second'));
    });

    it('search opens the Google results URL browser_use uses (udm=14)', async () => {
      const { agent, tabId } = await agentOn('/search', '<p>s</p>');
      const r = await agent.call('search', { query: 'browser use & co' }, { tabId, timeoutMs: 8000 });
      const expected = 'https://www.google.com/search?q=browser%20use%20%26%20co&udm=14';
      if (r.status === 'error') {
        // No internet here: the failure names the URL it tried.
        expect(r.error_info?.error_code).to.equal('NAVIGATION_FAILED');
        expect(r.error_info?.details?.['url']).to.equal(expected);
      } else {
        expect((r.outcome_details?.result as { url: string }).url).to.match(/^https:\/\/(www|consent)\.google\./);
      }
    });

    it('wait_for_navigation with nothing happening is TIMEOUT within its own cap', async () => {
      const { agent, tabId } = await agentOn('/wfn', '<p>still</p>');
      const r = await agent.call('wait_for_navigation', { timeout_ms: 300 }, { tabId });
      expect(r.error_info?.error_code).to.equal('TIMEOUT');
      expect(r.error_info?.details?.['navigation_started']).to.equal(false);
    });
  });

  describe('tabs', () => {
    it('open_tab, list_tabs, switch_tab and close_tab', async () => {
      const { agent, tabId } = await agentOn('/tabs-home', '<p>home</p>', 'Home');
      const opened = await agent.call('open_tab', { url: h.fixtures.url('/second') }, { tabId });
      const newId = (ok(opened).result as OpenTabResult).tab_id;
      expect(newId).to.be.a('number').and.not.equal(tabId);
      expect(opened.outcome_details?.new_tab_id).to.equal(newId);
      expect(stateOf(opened).tab_id).to.equal(newId);
      expect(stateOf(opened).title).to.equal('Second');

      const listed = (ok(await agent.call('list_tabs', {}, { tabId: newId })).result as ListTabsResult).tabs;
      const mine = listed.filter((t) => t.tab_id === tabId || t.tab_id === newId);
      expect(mine.map((t) => [t.tab_id, t.title, t.active])).to.deep.equal([
        [tabId, 'Home', false],
        [newId, 'Second', true],
      ]);
      const indexes = listed.map((t) => t.index);
      expect(indexes, 'tab-strip order').to.deep.equal([...indexes].sort((a, b) => a - b));

      const sw = await agent.call('switch_tab', { tab_id: tabId }, { tabId: newId });
      expect(ok(sw).result).to.deep.equal({ tab_id: tabId });
      expect(stateOf(sw).title).to.equal('Home');
      const after = (ok(await agent.call('list_tabs', {}, { tabId })).result as ListTabsResult).tabs;
      expect(after.find((t) => t.tab_id === tabId)?.active).to.equal(true);

      const closed = await agent.call('close_tab', { tab_id: newId }, { tabId });
      expect((ok(closed).result as { closed_tab_id: number }).closed_tab_id).to.equal(newId);
      const final = (ok(await agent.call('list_tabs', {}, { tabId })).result as ListTabsResult).tabs;
      expect(final.map((t) => t.tab_id)).to.not.include(newId);
    });

    it('switch_tab to a closed tab is TAB_NOT_FOUND', async () => {
      const { agent, tabId } = await agentOn('/tabs-missing', '<p>x</p>');
      const r = await agent.call('switch_tab', { tab_id: 987654 }, { tabId });
      expect(r.error_info?.error_code).to.equal('TAB_NOT_FOUND');
      expect(r.error_info?.message).to.match(/List the tabs/);
    });

    it('a link with target=_blank reports the new tab id', async () => {
      const { agent, tabId } = await agentOn('/blank-link', '<a id="pop" href="/second" target="_blank">Pop</a>');
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const r = await agent.call('click', { element_id: idOf(s, 'pop') }, { tabId, timeoutMs: 8000 });
      const d = ok(r);
      expect(d.new_tab_id).to.be.a('number').and.not.equal(tabId);
      expect(d.navigation_occurred).to.equal(false);
      const tabs = (ok(await agent.call('list_tabs', {}, { tabId })).result as ListTabsResult).tabs;
      expect(tabs.map((t) => t.tab_id)).to.include(d.new_tab_id);
      await agent.call('close_tab', { tab_id: d.new_tab_id! }, { tabId });
    });
  });

  describe('screenshot, wait, evaluate, restricted pages', () => {
    it('screenshot is a PNG of the viewport size', async () => {
      const { agent, tabId } = await agentOn('/shot', '<h1 style="color:red">Shot</h1>');
      const r = await agent.call('screenshot', {}, { tabId });
      const shot = ok(r).result as ScreenshotResult;
      const bytes = Buffer.from(shot.data_base64, 'base64');
      expect([...bytes.subarray(0, 8)]).to.deep.equal([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      expect(shot.width).to.equal(bytes.readUInt32BE(16));
      expect(shot.height).to.equal(bytes.readUInt32BE(20));
      const vp = stateOf(r).viewport_dimensions;
      expect(shot.width).to.be.closeTo(vp?.width ?? -1, 1);
    });

    it("four screenshots in a row all succeed: past Chrome's two captures a second the next waits, not refused", async () => {
      const { agent, tabId } = await agentOn('/shots', '<h1>Shots</h1>');
      for (let i = 0; i < 4; i++) ok(await agent.call('screenshot', {}, { tabId }));
    });

    it('wait waits and is capped by the action timeout', async () => {
      const { agent, tabId } = await agentOn('/wait', '<p>w</p>');
      const r = await agent.call('wait', { ms: 5000 }, { tabId, timeoutMs: 1500 });
      const waited = (ok(r).result as { waited_ms: number }).waited_ms;
      expect(waited).to.be.below(1500).and.above(0);
      expect(r.outcome_details?.message).to.match(/raise timeout_ms/);
    });

    it('evaluate is NOT_PERMITTED until the person allows it, then runs in the page', async () => {
      const { agent, tabId } = await agentOn('/eval', '<p id="p">x</p><script>window.secretValue = 41</script>', 'Eval page');
      const refused = await agent.call('evaluate', { expression: 'window.secretValue + 1' }, { tabId });
      expect(refused.error_info?.error_code).to.equal('NOT_PERMITTED');
      expect(refused.error_info?.message).to.contain('"Let agents run their own scripts in pages"').and.not.contain('Allow evaluate');
      await setSettings(h, { allow_evaluate: true });
      const r = await agent.call('evaluate', { expression: 'window.secretValue + 1' }, { tabId });
      expect(ok(r).result).to.deep.equal({ value_json: '42', value_type: 'number' });
      const thrown = await agent.call('evaluate', { expression: 'nope.nope' }, { tabId });
      expect(thrown.error_info?.error_code).to.equal('OPERATION_FAILED_IN_TARGET');
      expect(thrown.error_info?.message).to.match(/ReferenceError/);
    });

    it('page actions on a chrome:// page are RESTRICTED_PAGE; navigate still leaves it', async () => {
      const page = await h.launched.browser.newPage();
      await page.goto('chrome://version');
      await page.bringToFront();
      const agent = await h.connectAgent();
      const tabs = (ok(await agent.call('list_tabs', {})).result as ListTabsResult).tabs;
      const tabId = tabs.find((t) => t.url.startsWith('chrome://version'))!.tab_id;
      const r = await agent.call('get_state', {}, { tabId });
      expect(r.error_info?.error_code).to.equal('RESTRICTED_PAGE');
      expect(r.error_info?.message).to.match(/Navigate the tab/);
      const nav = await agent.call('navigate', { url: h.fixtures.url('/second') }, { tabId });
      expect(stateOf(nav).title).to.equal('Second');
    });
  });

  describe('settling', () => {
    it('waits for a slow XHR the click started and reports it in api_activity', async () => {
      const { agent, tabId } = await agentOn(
        '/slow-xhr',
        `<button id="load" onclick="fetch('/api/slow', {method: 'POST', body: JSON.stringify({q: 'weather'})}).then(r => r.json()).then(j => { document.getElementById('out').textContent = 'answer ' + j.answer })">Load</button><p id="out">nothing yet</p>`,
      );
      await setSettings(h, { settle_options: FAST_SETTLE });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const r = await agent.call('click', { element_id: idOf(s, 'load') }, { tabId });
      const d = ok(r);
      expect(d.settled, JSON.stringify(d)).to.equal(true);
      expect(d.dom_changed, JSON.stringify(d)).to.equal(true);
      expect(d.timings_ms?.network_idle).to.be.greaterThan(300);
      expect(d.api_activity).to.deep.equal([
        { method: 'POST', url: h.fixtures.url('/api/slow'), kind: 'fetch', body: '{"q":"weather"}', status: 200 },
      ]);
      expect(pageText(r)).to.contain('answer 42');
      // "since the last state": the next state does not repeat it.
      const again = await agent.call('get_state', {}, { tabId });
      expect(again.outcome_details?.api_activity).to.equal(undefined);
    });

    it('records XHR too (method, URL, small body)', async () => {
      const { agent, tabId } = await agentOn(
        '/xhr',
        `<button id="x" onclick="const q = new XMLHttpRequest(); q.open('put', '/api/slow'); q.onload = () => document.body.append('done'); q.send('a=1')">X</button>`,
      );
      await setSettings(h, { settle_options: FAST_SETTLE });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const d = ok(await agent.call('click', { element_id: idOf(s, 'x') }, { tabId }));
      expect(d.api_activity).to.deep.equal([{ method: 'PUT', url: h.fixtures.url('/api/slow'), kind: 'xhr', body: 'a=1', status: 200 }]);
      expect(d.settled).to.equal(true);
    });

    it('a page that never stops mutating answers settled:false at the DOM cap', async () => {
      const { agent, tabId } = await agentOn(
        '/busy',
        `<button id="b">B</button><p id="t"></p><script>setInterval(() => { document.getElementById('t').textContent = String(Date.now()) }, 20)</script>`,
      );
      await setSettings(h, { settle_options: { ...FAST_SETTLE, dom_cap_ms: 600 } });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const d = ok(await agent.call('click', { element_id: idOf(s, 'b') }, { tabId }));
      expect(d.settled).to.equal(false);
      expect(d.dom_changed).to.equal(true);
      expect(d.timings_ms?.dom_quiet).to.be.within(550, 1500);
    });

    it('an action that changes nothing gets the no-change notice after the watch window', async () => {
      const { agent, tabId } = await agentOn('/inert', '<button id="inert">Does nothing</button>');
      await setSettings(h, { settle_options: { ...FAST_SETTLE, no_change_timeout_ms: 400 } });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const d = ok(await agent.call('click', { element_id: idOf(s, 'inert') }, { tabId }));
      expect(d.dom_changed).to.equal(false);
      expect(d.no_change_notice).to.equal('Action executed but no DOM change detected within 0.4 seconds.');
      expect(d.timings_ms?.no_change_watch).to.be.within(350, 1500);
    });

    it('a change that comes late (within the watch window) is waited for and shown', async () => {
      const { agent, tabId } = await agentOn(
        '/late',
        `<button id="late" onclick="setTimeout(() => document.body.append('arrived late'), 400)">Late</button>`,
      );
      await setSettings(h, { settle_options: { ...FAST_SETTLE, no_change_timeout_ms: 3000 } });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const r = await agent.call('click', { element_id: idOf(s, 'late') }, { tabId });
      const d = ok(r);
      expect(d.no_change_notice).to.equal(undefined);
      expect(d.dom_changed).to.equal(true);
      expect(pageText(r)).to.contain('arrived late');
    });

    it('wait_for_network_idle waits for requests in flight, and is TIMEOUT listing them when they outlast it', async () => {
      const { agent, tabId } = await agentOn(
        '/netidle',
        `<button id="go" onclick="fetch('/api/slow').then(() => document.body.append('back'))">Go</button>`,
      );
      await setSettings(h, { settle_options: { enabled: false } });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      ok(await agent.call('click', { element_id: idOf(s, 'go') }, { tabId }));
      const short = await agent.call('wait_for_network_idle', { idle_ms: 50, timeout_ms: 200 }, { tabId });
      expect(short.error_info?.error_code).to.equal('TIMEOUT');
      expect((short.error_info?.details?.['pending'] as { url: string }[]).map((p) => p.url)).to.deep.equal([h.fixtures.url('/api/slow')]);
      const r = await agent.call('wait_for_network_idle', { idle_ms: 50, timeout_ms: 3000 }, { tabId });
      expect((ok(r).result as { waited_ms: number }).waited_ms).to.be.within(50, 3000);
      expect(pageText(r)).to.contain('back');
    });

    it('settling off answers without waiting and without settle fields', async () => {
      const { agent, tabId } = await agentOn(
        '/off',
        `<button id="b" onclick="setTimeout(() => document.body.append('later'), 300)">B</button>`,
      );
      await setSettings(h, { settle_options: { enabled: false } });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const d = ok(await agent.call('click', { element_id: idOf(s, 'b') }, { tabId }));
      expect(d.settled).to.equal(undefined);
      expect(d.timings_ms?.dom_quiet).to.equal(undefined);
      expect(d.timings_ms?.total).to.be.below(300);
    });
    it('settling off: the new state (taken by the page with its action reply) shows the change, and iframes are still stitched in', async () => {
      h.fixtures.html('/off-inner', `<button id="deep">Deep</button>`, 'Inner');
      const { agent, tabId } = await agentOn(
        '/off2',
        `<button id="b" onclick="const n = document.createElement('button'); n.id = 'added'; n.textContent = 'Added now'; document.body.append(n)">B</button>`,
      );
      await setSettings(h, { settle_options: { enabled: false } });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const r = await agent.call('click', { element_id: idOf(s, 'b') }, { tabId });
      ok(r);
      expect(stateOf(r).actionable_elements.map((e) => e.attributes['id'])).to.include('added');
      // A page that gains an iframe after the last state: its elements are collected too.
      const { agent: a2, tabId: t2 } = await agentOn(
        '/off3',
        `<button id="mk" onclick="const f = document.createElement('iframe'); f.src = '/off-inner'; document.body.append(f)">Make frame</button>`,
      );
      const s2 = stateOf(await a2.call('get_state', {}, { tabId: t2 }));
      ok(await a2.call('click', { element_id: idOf(s2, 'mk') }, { tabId: t2 }));
      await new Promise((res) => setTimeout(res, 400));
      const r2 = await a2.call('click', { element_id: idOf(s2, 'mk') }, { tabId: t2 });
      const deep = stateOf(r2).actionable_elements.filter((e) => e.attributes['id'] === 'deep');
      expect(deep.length, JSON.stringify(stateOf(r2).frames)).to.be.at.least(1);
      expect(deep[0]!.id).to.match(/^f\d+e\d+$/);
    });
  });

  describe('routing', () => {
    it("an element id inside an iframe runs in that frame, and index targets go through the tab's index map", async () => {
      h.fixtures.html('/inner', `<button id="inner" onclick="this.textContent = 'inner clicked'">Inner</button>`, 'Inner');
      const { agent, tabId } = await agentOn(
        '/outer',
        `<button id="outer" onclick="this.textContent = 'outer clicked'">Outer</button><iframe src="/inner" style="width:300px;height:100px"></iframe>`,
      );
      await setSettings(h, { settle_options: FAST_SETTLE });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const inner = s.actionable_elements.find((e) => e.attributes['id'] === 'inner');
      expect(inner?.id).to.match(/^f\d+e\d+$/);
      const r = await agent.call('click', { element_id: inner!.id }, { tabId });
      expect(ok(r).dom_changed, 'settling ran in the iframe').to.equal(true);
      expect(stateOf(r).actionable_elements.find((e) => e.id === inner!.id)?.text_content).to.equal('inner clicked');
      const outer = s.actionable_elements.find((e) => e.attributes['id'] === 'outer')!;
      const byIndex = await agent.call('click', { index: outer.index }, { tabId });
      expect(stateOf(byIndex).actionable_elements.find((e) => e.id === outer.id)?.text_content).to.equal('outer clicked');
      const bad = await agent.call('click', { index: 999 }, { tabId });
      expect(bad.error_info?.error_code).to.equal('TARGET_ELEMENT_NOT_FOUND');
      expect(bad.error_info?.message).to.match(/get_state/);
    });
  });

  describe('trusted input', () => {
    it('with trusted_input on, click and press are real (isTrusted) input and the debugger is detached after', async () => {
      const { agent, tabId } = await agentOn(
        '/trusted',
        `<button id="t" onclick="document.getElementById('out').textContent = 'click trusted=' + event.isTrusted">T</button>
         <input id="i" onkeydown="document.getElementById('keys').textContent = 'key ' + event.key + ' trusted=' + event.isTrusted">
         <p id="out">-</p><p id="keys">-</p>`,
      );
      await setSettings(h, { trusted_input: true, settle_options: FAST_SETTLE });
      try {
        const s = stateOf(await agent.call('get_state', {}, { tabId }));
        const r = await agent.call('click', { element_id: idOf(s, 't') }, { tabId });
        expect(ok(r).message).to.match(/^Trusted click/);
        expect(pageText(r)).to.contain('click trusted=true');
        const k = await agent.call('press', { element_id: idOf(s, 'i'), key: 'x' }, { tabId });
        expect(ok(k).result).to.deep.equal({ keys: ['x'] });
        expect(pageText(k)).to.contain('key x trusted=true');
        expect(await debuggerAttached(h, tabId), 'the debugger is detached right after the action').to.equal(false);
      } finally {
        await clearSettings(h, ['trusted_input']);
      }
    });
  });

  describe('dialogs', () => {
    const PAGE = `
      <button id="alert" onclick="alert('Saved!'); document.getElementById('r').textContent = 'after alert'">Alert</button>
      <button id="confirm" onclick="document.getElementById('r').textContent = 'confirm=' + confirm('Delete it?')">Confirm</button>
      <button id="prompt" onclick="document.getElementById('r').textContent = 'prompt=' + prompt('Your name?', 'Ada')">Prompt</button>
      <p id="r">-</p>`;
    const resultText = (r: Awaited<ReturnType<AgentClient['call']>>) => pageText(r);

    it('alert, confirm and prompt never block and are reported (default policy: accept)', async () => {
      const { agent, tabId } = await agentOn('/dialogs', PAGE);
      await setSettings(h, { settle_options: FAST_SETTLE });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const a = await agent.call('click', { element_id: idOf(s, 'alert') }, { tabId });
      expect(ok(a).dialog).to.deep.equal({ kind: 'alert', message: 'Saved!', handled: 'accepted' });
      expect(resultText(a)).to.contain('after alert');
      const c = await agent.call('click', { element_id: idOf(s, 'confirm') }, { tabId });
      expect(ok(c).dialog).to.deep.equal({ kind: 'confirm', message: 'Delete it?', handled: 'accepted' });
      expect(resultText(c)).to.contain('confirm=true');
      const p = await agent.call('click', { element_id: idOf(s, 'prompt') }, { tabId });
      expect(ok(p).dialog).to.deep.equal({ kind: 'prompt', message: 'Your name?', handled: 'accepted', prompt_text: 'Ada' });
      expect(resultText(p)).to.contain('prompt=Ada');
    });

    it('the dialog policy can dismiss, or answer prompts with a given text', async () => {
      const { agent, tabId } = await agentOn('/dialogs2', PAGE);
      await setSettings(h, { settle_options: FAST_SETTLE, dialog_policy: { confirm: 'dismiss', prompt: 'dismiss' } });
      const s = stateOf(await agent.call('get_state', {}, { tabId }));
      const c = await agent.call('click', { element_id: idOf(s, 'confirm') }, { tabId });
      expect(ok(c).dialog?.handled).to.equal('dismissed');
      expect(resultText(c)).to.contain('confirm=false');
      const p = await agent.call('click', { element_id: idOf(s, 'prompt') }, { tabId });
      expect(ok(p).dialog).to.deep.include({ kind: 'prompt', handled: 'dismissed', prompt_text: null });
      expect(resultText(p)).to.contain('prompt=null');
      await setSettings(h, { dialog_policy: { prompt: 'accept', prompt_text: 'Grace' } });
      const p2 = await agent.call('click', { element_id: idOf(s, 'prompt') }, { tabId });
      expect(resultText(p2)).to.contain('prompt=Grace');
    });

    it('a beforeunload handler does not stop navigate', async () => {
      const { agent, tabId } = await agentOn(
        '/unload',
        `<p>leaving</p><script>window.addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'Unsaved changes' })</script>`,
      );
      const r = await agent.call('navigate', { url: h.fixtures.url('/second') }, { tabId, timeoutMs: 5000 });
      expect(stateOf(r).title).to.equal('Second');
    });
  });
});
