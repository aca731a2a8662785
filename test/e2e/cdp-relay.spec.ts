// The worker's half of the CDP endpoint, driven by an agent client as the bridge's CDP service does:
// cdp_attach a tab, DevTools commands relayed as is (cdp_command, answered by cdp_result), its events back as cdp_event
// (child sessions of a cross-origin iframe included), commands that reach beyond the tab refused,
// Chrome's errors passed through, the attachment ended by cdp_detach and by the end of the lease.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { ActionResultMessage, CdpEventMessage, CdpResultMessage, SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { openPanel } from '../harness/panel';
import { clearSettings, debuggerAttached, setSettings } from './worker-actions.helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An agent holding one attached tab, and the cdp_events it received. */
interface Attached {
  agent: AgentClient;
  tabId: number;
  page: Page;
  events: CdpEventMessage[];
  attach: ActionResultMessage;
  send(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<CdpResultMessage>;
  /** A command that must succeed; Chrome's result. */
  ok(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<Record<string, unknown>>;
  event(method: string, pred?: (e: CdpEventMessage) => boolean, capMs?: number): Promise<CdpEventMessage>;
}

async function attached(h: Harness, url: string): Promise<Attached> {
  const page = await h.openPage(url);
  const agent = await h.connectAgent();
  const events: CdpEventMessage[] = [];
  agent.on('cdp_event', (e: CdpEventMessage) => events.push(e));
  // No tab_id: the browser's active tab (openPage brought it to the front) is handed over, as on any first action.
  const attach = await agent.call('cdp_attach', {});
  expect(attach.status, JSON.stringify(attach.error_info)).to.equal('success');
  const tabId = attach.tab_id as number;
  const a: Attached = {
    agent,
    tabId,
    page,
    events,
    attach,
    send: (method, params, sessionId) => agent.cdp({ tabId, method, ...(params ? { params } : {}), ...(sessionId ? { sessionId } : {}) }),
    async ok(method, params, sessionId) {
      const r = await a.send(method, params, sessionId);
      expect(r.error_info, `${method}: ${JSON.stringify(r.error_info)}`).to.equal(undefined);
      return r.result as Record<string, unknown>;
    },
    async event(method, pred = () => true, capMs = 5000) {
      const end = Date.now() + capMs;
      for (;;) {
        const e = events.find((x) => x.method === method && pred(x));
        if (e) return e;
        if (Date.now() > end) throw new Error(`no ${method} event within ${capMs} ms; got ${events.map((x) => x.method).join(', ')}`);
        await sleep(20);
      }
    },
  };
  return a;
}

async function worker(h: Harness) {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
  const w = await target.worker();
  if (!w) throw new Error('no extension service worker');
  return w;
}

const refusal = (r: ActionResultMessage | CdpResultMessage) => {
  if (r.type === 'cdp_result') expect(r.result, JSON.stringify(r.result)).to.equal(undefined);
  else expect(r.status, JSON.stringify(r.outcome_details)).to.equal('error');
  return r.error_info!;
};

describe('e2e: the CDP relay in the service worker', function () {
  this.timeout(60_000);
  let h: Harness;
  useHarness((started) => (h = started));

  // First: once puppeteer has opened a session on the worker (the settings helpers do), a worker
  // stopped from outside does not start again while that session lives.
  it('a restarted worker tells the client its attachment is gone (Inspector.detached, worker_restarted), and cdp_attach works again', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-restart', '<p>x</p>', 'restart'));
    const cdp = await h.launched.browser.target().createCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'));
    const down = new Promise((r) => h.bridge.once('extension-disconnected', r));
    // Stopped as Chrome stops a worker (the attachment's bookkeeping lived in it).
    await cdp.send('Target.closeTarget', { targetId: sw!.targetId });
    await down;
    await cdp.detach();
    const gone = await a.event('Inspector.detached', () => true, 10_000);
    expect(gone).to.deep.include({ tab_id: a.tabId, params: { reason: 'worker_restarted' } });
    const again = await a.agent.call('cdp_attach', {}, { tabId: a.tabId });
    expect(again.status, JSON.stringify(again.error_info)).to.equal('success');
    expect(await a.ok('Runtime.evaluate', { expression: '1+1' })).to.deep.include({
      result: { type: 'number', value: 2, description: '2' },
    });
    await a.agent.close();
  });

  it('cdp_attach answers the tab and its target; Runtime.evaluate runs; Page.navigate brings Page.loadEventFired as cdp_event', async () => {
    const url = h.fixtures.html('/cdp-one', '<p>one</p>', 'CDP one');
    const a = await attached(h, url);
    const session = await a.page.createCDPSession();
    const { targetInfo } = await session.send('Target.getTargetInfo');
    await session.detach();
    expect(a.attach.outcome_details?.result).to.deep.equal({ tab_id: a.tabId, target_id: targetInfo.targetId, url, title: 'CDP one' });
    expect(await a.ok('Runtime.evaluate', { expression: '1+1' })).to.deep.equal({ result: { type: 'number', value: 2, description: '2' } });

    // Attaching again answers the same.
    const again = await a.agent.call('cdp_attach', {}, { tabId: a.tabId });
    expect(again.outcome_details?.result).to.deep.equal(a.attach.outcome_details?.result);

    await a.ok('Page.enable');
    const next = h.fixtures.html('/cdp-two', '<p>two</p>', 'CDP two');
    const nav = await a.ok('Page.navigate', { url: next });
    expect(nav['frameId']).to.equal(targetInfo.targetId);
    const loaded = await a.event('Page.loadEventFired');
    expect(loaded.tab_id).to.equal(a.tabId);
    expect(loaded.session_id).to.equal(undefined);
    expect(loaded.params).to.have.property('timestamp');
    // Read by waitForFunction, which outlives the navigation: the relay's load event can reach the test
    // before puppeteer's own view of the tab has its new execution context.
    await a.page.waitForFunction((u: string) => location.href === u, { timeout: 5000 }, next);
    await a.agent.close();
  });

  it('a cross-origin iframe: Target.setAutoAttach flatten reports its child session, and commands run in it', async () => {
    h.fixtures.html('/cdp-child', '<p id="t">text of the child frame</p>', 'child');
    // localhost and 127.0.0.1 are two sites: the frame runs in its own process (site isolation).
    const childUrl = h.fixtures.url('/cdp-child').replace('127.0.0.1', 'localhost');
    const a = await attached(h, h.fixtures.html('/cdp-parent', `<iframe src="${childUrl}"></iframe>`, 'parent'));
    await a.ok('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
    const att = await a.event('Target.attachedToTarget');
    const p = att.params as { sessionId: string; targetInfo: { type: string; url: string } };
    expect(p.targetInfo).to.include({ type: 'iframe', url: childUrl });
    expect(p.sessionId).to.match(/^[0-9A-F]{32}$/);
    const inFrame = await a.ok('Runtime.evaluate', { expression: 'document.body.innerText', returnByValue: true }, p.sessionId);
    expect(inFrame['result']).to.deep.equal({ type: 'string', value: 'text of the child frame' });
    // The child session's own events carry its session id.
    await a.ok('Runtime.enable', {}, p.sessionId);
    const ctx = await a.event('Runtime.executionContextCreated', (e) => e.session_id === p.sessionId);
    expect(ctx.tab_id).to.equal(a.tabId);
    // A session id Chrome does not know is Chrome's error.
    const bogus = refusal(await a.send('Runtime.evaluate', { expression: '1' }, 'B'.repeat(32)));
    expect(bogus.error_code).to.equal('CDP_ERROR');
    expect(bogus.details?.['cdp_error']).to.deep.equal({ code: -32001, message: 'Session with given id not found.' });
    await a.agent.close();
  });

  it("an answer over the bridge's frame limit is answered MESSAGE_TOO_LARGE, and the extension's connection stays up for the next command", async () => {
    const a = await attached(h, h.fixtures.html('/cdp-big-answer', '<p>x</p>', 'big answer'));
    const big = refusal(await a.send('Runtime.evaluate', { expression: "'x'.repeat(34 * 1024 * 1024)", returnByValue: true }));
    expect(big.error_code).to.equal('MESSAGE_TOO_LARGE');
    expect(big.message).to.match(/over the 33 MiB the bridge carries/);
    expect(await a.ok('Runtime.evaluate', { expression: '6 * 7', returnByValue: true })).to.deep.include({
      result: { type: 'number', value: 42, description: '42' },
    });
    await a.agent.close();
  });

  it('an execution context is reached only by an id Chrome announced to the client: a guessed one is unknown', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-contexts', '<p>x</p>', 'contexts'));
    // Before Runtime.enable the client was shown no context: every small id (where Chrome's are) is refused.
    for (let id = 1; id <= 12; id++) {
      const r = refusal(await a.send('Runtime.evaluate', { expression: '1', contextId: id }));
      expect(r.details?.['cdp_error'], `context ${id}`).to.deep.equal({ code: -32000, message: 'Cannot find context with specified id' });
    }
    await a.ok('Runtime.enable');
    // The page's main world (the extension's content script world is announced too, and refused: it
    // runs with the extension's origin).
    type Ctx = { id: number; origin: string; auxData?: { isDefault?: boolean } };
    const created = await a.event('Runtime.executionContextCreated', (e) => (e.params['context'] as Ctx).auxData?.isDefault === true);
    const id = (created.params['context'] as Ctx).id;
    const ours = a.events.find(
      (e) => e.method === 'Runtime.executionContextCreated' && (e.params['context'] as Ctx).origin.startsWith('chrome-extension:'),
    );
    if (ours) {
      const r = refusal(
        await a.send('Runtime.evaluate', { expression: 'chrome.runtime.id', contextId: (ours.params['context'] as Ctx).id }),
      );
      expect(r.details).to.include({ reason: 'privileged_page' });
    }
    expect(await a.ok('Runtime.evaluate', { expression: '6 * 7', contextId: id, returnByValue: true })).to.deep.include({
      result: { type: 'number', value: 42, description: '42' },
    });
    await a.agent.close();
  });

  it('commands of one tab are not queued behind each other: a quick one answers while a slow one runs', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-parallel', '<p>x</p>', 'parallel'));
    const order: string[] = [];
    const slow = a
      .ok('Runtime.evaluate', { expression: 'new Promise((r) => setTimeout(() => r("slow"), 1500))', awaitPromise: true })
      .then((r) => (order.push('slow'), r));
    await sleep(100);
    const t0 = performance.now();
    const quick = await a.ok('Runtime.evaluate', { expression: '"quick"' });
    const quickMs = performance.now() - t0;
    order.push('quick');
    expect(quick['result']).to.deep.include({ value: 'quick' });
    expect((await slow)['result']).to.deep.include({ value: 'slow' });
    expect(order).to.deep.equal(['quick', 'slow']);
    expect(quickMs, 'the quick command did not wait for the slow one').to.be.below(1000);
    await a.agent.close();
  });

  it("Chrome's error comes back as CDP_ERROR with its code and message", async () => {
    const a = await attached(h, h.fixtures.html('/cdp-err', '<p>x</p>', 'err'));
    const e = refusal(await a.send('DOM.describeNode', { nodeId: 987654 }));
    expect(e.error_code).to.equal('CDP_ERROR');
    expect(e.details?.['cdp_error']).to.deep.equal({ code: -32000, message: 'Could not find node with given id' });
    const bad = refusal(await a.send('Runtime.evaluate', {}));
    expect(bad.details?.['cdp_error']).to.deep.include({ code: -32602, message: 'Invalid parameters' });
    expect((bad.details?.['cdp_error'] as { data: string }).data).to.match(/expression/);
    await a.agent.close();
  });

  it('commands that reach beyond the tab are refused before Chrome runs them', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-refused', '<p>x</p>', 'refused'));
    const tabsBefore = (await h.launched.browser.pages()).length;
    const created = refusal(await a.send('Target.createTarget', { url: 'about:blank' }));
    expect(created.error_code).to.equal('NOT_PERMITTED');
    expect(created.details).to.include({ reason: 'cdp_method_refused', method: 'Target.createTarget' });
    await sleep(300);
    expect((await h.launched.browser.pages()).length, 'no tab was opened').to.equal(tabsBefore);

    const cookies = refusal(await a.send('Storage.getCookies'));
    expect(cookies.details).to.include({ reason: 'cdp_method_refused' });
    expect(cookies.message).to.match(/^Storage\.getCookies is refused: it reads the cookies of the person's whole profile/);
    for (const m of ['Network.getAllCookies', 'Browser.getVersion', 'SystemInfo.getInfo', 'Target.getTargets', 'Page.setDownloadBehavior'])
      expect(refusal(await a.send(m)).details, m).to.include({ reason: 'cdp_method_refused', method: m });

    // A cookie of another site: refused, and not written.
    const planted = refusal(await a.send('Network.setCookie', { name: 'planted', value: '1', url: 'http://example.com/' }));
    expect(planted.details).to.include({ reason: 'cdp_method_refused', method: 'Network.setCookie' });
    const readOther = refusal(await a.send('Network.getCookies', { urls: ['http://example.com/'] }));
    expect(readOther.details).to.include({ reason: 'cdp_method_refused' });
    // The tab's own site: allowed.
    await a.ok('Network.setCookie', { name: 'own', value: '1', url: h.fixtures.url('/') });
    const own = await a.ok('Network.getCookies', { urls: [h.fixtures.url('/')] });
    expect((own['cookies'] as { name: string }[]).map((c) => c.name)).to.include('own');
    await a.agent.close();
  });

  it('a command not on the allow list is refused with its reason and the doc section, and Chrome never runs it', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-allow', '<p>x</p>', 'allow'));
    // The service workers of every site of the profile: the old refusal list let this through.
    const sw = refusal(await a.send('ServiceWorker.enable'));
    expect(sw.error_code).to.equal('NOT_PERMITTED');
    expect(sw.details).to.include({ reason: 'cdp_method_refused', method: 'ServiceWorker.enable', section: 'in-a-tab-serviceworker' });
    expect(sw.message).to.match(/service workers of every site.*docs\/CDP-METHODS\.md#in-a-tab-serviceworker$/);
    await sleep(300);
    expect(a.events.map((e) => e.method)).not.to.include('ServiceWorker.workerRegistrationUpdated');
    // A method of a newer protocol is refused until it is reviewed.
    const unknown = refusal(await a.send('Page.someFutureMethod'));
    expect(unknown.details).to.include({ reason: 'cdp_method_refused', section: 'in-a-tab-not-reviewed' });
    expect(unknown.message).to.include('docs/CDP-METHODS.md#in-a-tab-not-reviewed');
    // Another tab's target is not described; the tab's own is.
    expect(refusal(await a.send('Target.getTargetInfo', { targetId: 'ANOTHER' })).details).to.include({ reason: 'cdp_method_refused' });
    expect(((await a.ok('Target.getTargetInfo')) as { targetInfo: { type: string } }).targetInfo.type).to.equal('page');
    await a.agent.close();
  });

  it("a Page.navigate the person's settings forbid is refused before it happens, as navigate's is", async () => {
    const url = h.fixtures.html('/cdp-policy', '<p>x</p>', 'policy');
    const a = await attached(h, url);
    const blocked = h.fixtures.url('/cdp-policy').replace('127.0.0.1', 'localhost');
    // A history entry on the site about to be blocked.
    await a.page.goto(blocked);
    await a.page.goBack();
    const { entries } = (await a.ok('Page.getNavigationHistory')) as { entries: { id: number; url: string }[] };
    const blockedEntry = entries.find((e) => e.url === blocked)!;
    await setSettings(h, { blocked_domains: ['localhost'] });
    try {
      const back = refusal(await a.send('Page.navigateToHistoryEntry', { entryId: blockedEntry.id }));
      expect(back.details).to.deep.include({ reason: 'domain_policy', url: blocked });
      const r = refusal(await a.send('Page.navigate', { url: blocked }));
      const navigate = refusal(await a.agent.call('navigate', { url: blocked }, { tabId: a.tabId }));
      expect(r.error_code).to.equal('NOT_PERMITTED');
      expect(r.details).to.deep.include({ reason: 'domain_policy', url: blocked });
      // The same verdict in the same words, each naming what was refused.
      expect(r.message.replace('"Page.navigate"', '"navigate"')).to.equal(navigate.message);
      const file = refusal(await a.send('Page.navigate', { url: 'file:///etc/hosts' }));
      expect(file.details).to.include({ reason: 'local_file' });
      await sleep(300);
      expect(a.page.url(), 'the page did not change').to.equal(url);
    } finally {
      await clearSettings(h, ['blocked_domains']);
    }
    await a.agent.close();
  });

  it('page text is still scrubbed of card numbers; protocol ids pass unchanged', async () => {
    // The card is the page's: one the client's own expression held would come back as it sent it.
    const a = await attached(h, h.fixtures.html('/cdp-scrub', '<p id="t">card 4000056655665556</p>', 'scrub'));
    // A frame id is 32 hex digits, and about one in 600 holds a run of digits that passes Luhn
    // (this one did, in a CI run: puppeteer then lost its page). A Page.Frame carries it as `id`.
    const frameId = '1AC2B5B4248A38878154454676887FCA';
    const r = await a.ok('Runtime.evaluate', {
      expression: `({ requestId: "4242424242424242", text: document.getElementById("t").textContent, frame: { id: "${frameId}", loaderId: "L1", url: "x" },
        other: { id: "4242424242424242" } })`,
      returnByValue: true,
    });
    expect((r['result'] as { value: unknown }).value).to.deep.equal({
      requestId: '4242424242424242',
      text: 'card [redacted:payment_card]',
      frame: { id: frameId, loaderId: 'L1', url: 'x' },
      // Ungrouped and not named as a card: any id, kept as the page has it.
      other: { id: '4242424242424242' },
    });
    // The real frame tree of the tab passes whole.
    const tree = await a.ok('Page.getFrameTree', {});
    expect((tree['frameTree'] as { frame: { id: string } }).frame.id).to.match(/^[0-9A-F]{32}$/);
    await a.agent.close();
  });

  it('an order id reads as it is in get_state and Runtime.evaluate; a grouped card in a cc field stays masked', async () => {
    const a = await attached(
      h,
      h.fixtures.html(
        '/cdp-order-id',
        `<p id="o">Order 1234567812345670 shipped, parcel 4012888888881881</p>
        <label>Card number <input id="cc" autocomplete="cc-number" value="4111 1111 1111 1111"></label>`,
        'order',
      ),
    );
    const order = 'Order 1234567812345670 shipped, parcel 4012888888881881';
    const st = await a.agent.call('get_state', {}, { tabId: a.tabId });
    expect(st.status, JSON.stringify(st.error_info)).to.equal('success');
    const state = st.new_simplified_state as SimplifiedState;
    expect(JSON.stringify(state)).to.include(order).and.not.include('4111');
    expect(state.actionable_elements.find((e) => e.attributes['id'] === 'cc')?.redacted?.reason).to.equal('payment_card');
    const r = await a.ok('Runtime.evaluate', {
      expression: `({ text: document.getElementById('o').textContent, body: JSON.stringify({ id: '1234567812345670' }),
        cc: document.getElementById('cc').value })`,
      returnByValue: true,
    });
    expect((r['result'] as { value: unknown }).value).to.deep.equal({
      text: order,
      body: '{"id":"1234567812345670"}',
      cc: '[redacted:payment_card]',
    });
    await a.agent.close();
  });

  it('another agent session cannot send to the tab (TAB_NOT_LEASED)', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-lease', '<p>x</p>', 'lease'));
    const other = await h.connectAgent();
    const r = await other.cdp({ tabId: a.tabId, method: 'Runtime.evaluate', params: { expression: '1' } });
    expect(r.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    await other.close();
    await a.agent.close();
  });

  it('cdp_detach detaches; trusted input on an attached tab reuses the attachment and leaves it attached', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-detach', '<button id="b" onclick="document.title=\'clicked\'">b</button>', 'detach'));
    const clicked = await a.agent.call('click', { selector: '#b', trusted: true }, { tabId: a.tabId });
    expect(clicked.status, JSON.stringify(clicked.error_info)).to.equal('success');
    expect(await a.page.title()).to.equal('clicked');
    expect(await debuggerAttached(h, a.tabId), 'still attached after the trusted click').to.equal(true);
    await a.ok('Runtime.evaluate', { expression: '1' });

    const d = await a.agent.call('cdp_detach', {}, { tabId: a.tabId });
    expect(d.outcome_details?.result).to.deep.equal({ detached: true });
    expect(await debuggerAttached(h, a.tabId)).to.equal(false);
    const after = refusal(await a.send('Runtime.evaluate', { expression: '1' }));
    expect(after.details).to.include({ reason: 'not_attached' });
    expect((await a.agent.call('cdp_detach', {}, { tabId: a.tabId })).outcome_details?.result).to.deep.equal({ detached: false });
    await a.agent.close();
  });

  it("the person's release (side panel, the overlay's Stop) detaches the tab's debugger", async () => {
    const a = await attached(h, h.fixtures.html('/cdp-release', '<p>x</p>', 'release'));
    expect(await debuggerAttached(h, a.tabId)).to.equal(true);
    const panel = await openPanel(h.launched.browser);
    try {
      const sent = await panel.evaluate(
        (req) =>
          (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage(req),
        { bux: 'panel', op: 'release_tab', session_id: a.agent.hello!.session_id, tab_id: a.tabId },
      );
      expect(sent).to.deep.equal({ ok: true });
    } finally {
      await panel.close();
    }
    const end = Date.now() + 3000;
    while ((await debuggerAttached(h, a.tabId)) && Date.now() < end) await sleep(100);
    expect(await debuggerAttached(h, a.tabId), 'detached once the lease ended').to.equal(false);
    await a.agent.close();
  });

  it('DevTools or another debugger holding the tab: NOT_PERMITTED debugger_in_use; chrome:// pages: RESTRICTED_PAGE', async () => {
    const page = await h.openPage(h.fixtures.html('/cdp-busy', '<p>x</p>', 'busy'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const w = await worker(h);
    // Another debugger (as DevTools would): an attachment the relay did not make.
    await w.evaluate(
      (id) =>
        (globalThis as unknown as { chrome: { debugger: { attach(t: object, v: string): Promise<void> } } }).chrome.debugger.attach(
          { tabId: id },
          '1.3',
        ),
      tabId,
    );
    try {
      const r = refusal(await agent.call('cdp_attach', {}, { tabId }));
      expect(r.error_code).to.equal('NOT_PERMITTED');
      expect(r.details).to.include({ reason: 'debugger_in_use' });
      expect(r.message).to.match(/Close DevTools on that tab/);
    } finally {
      await w.evaluate(
        (id) =>
          (globalThis as unknown as { chrome: { debugger: { detach(t: object): Promise<void> } } }).chrome.debugger.detach({ tabId: id }),
        tabId,
      );
    }
    await page.goto('chrome://version');
    const restricted = refusal(await agent.call('cdp_attach', {}, { tabId }));
    expect(restricted.error_code).to.equal('RESTRICTED_PAGE');
    await agent.close();
  });

  it('the bridge gone for 10 s (every CDP connection runs through it): the debugger leaves the tab; a shorter drop keeps it', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-bridge-gone', '<p>x</p>', 'bridge gone'));
    await sleep(1000); // the bridge's lease update reaches the worker
    const restarting = h.restartBridge({ downMs: 14_000 });
    await sleep(5000);
    expect(await debuggerAttached(h, a.tabId), 'still attached 5 s into the drop').to.equal(true);
    await sleep(7500);
    expect(await debuggerAttached(h, a.tabId), 'detached once the bridge was gone 10 s').to.equal(false);
    await restarting;
    await a.agent.close();
  });

  it('measures the relay: p50 of 200 Runtime.evaluate round trips through the bridge vs chrome.debugger in the worker', async () => {
    const a = await attached(h, h.fixtures.html('/cdp-speed', '<p>x</p>', 'speed'));
    const relay: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await a.ok('Runtime.evaluate', { expression: '1' });
      relay.push(performance.now() - t0);
    }
    await a.ok('Runtime.evaluate', { expression: '1' });
    const w = await worker(h);
    // The same command, straight from the worker on the same attachment (no bridge, no WebSocket).
    const direct = await w.evaluate(async (id) => {
      const dbg = (globalThis as unknown as { chrome: { debugger: { sendCommand(t: object, m: string, p: object): Promise<unknown> } } })
        .chrome.debugger;
      const out: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await dbg.sendCommand({ tabId: id }, 'Runtime.evaluate', { expression: '1' });
        out.push(performance.now() - t0);
      }
      return out;
    }, a.tabId);
    const p50 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!.toFixed(2);
    console.log(`      Runtime.evaluate p50 (ms): through the relay ${p50(relay)}, chrome.debugger in the worker ${p50(direct)}`);
    await a.agent.close();
  });
});
