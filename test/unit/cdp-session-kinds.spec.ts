// The CDP relay's session objects (bridge/agents/cdp: page-session, tab-session, browser-session,
// child-alias) each handle their own commands, and the browser model answers Target.* / Browser.*
// from one table whose methods are exactly the documented ones. A scripted agent stands in for the
// bridge; no sockets, so this runs in milliseconds. The full emulation is test/bridge/cdp-emulator.spec.ts.
import { expect } from 'chai';

import { BROWSER_METHODS } from '../../bridge/agents/cdp/browser-commands';
import { EMULATED_BROWSER_METHODS } from '../../bridge/agents/cdp/browser-methods';
import { BrowserModel } from '../../bridge/agents/cdp/browser-model';
import type { CdpCommand } from '../../bridge/agents/cdp/cdp-protocol';
import { CdpWriter } from '../../bridge/agents/cdp/cdp-writer';
import type { AgentClient, CallOptions } from '../../bridge/client/agent-client';
import type { Logger } from '../../bridge/common/log';
import type { ActionResultMessage } from '../../schemas/generated/protocol';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };
type Params = Record<string, unknown>;

function success(result: Params): ActionResultMessage {
  return {
    type: 'action_result',
    action: 'x',
    status: 'success',
    outcome_details: { message: 'ok', result },
  } as unknown as ActionResultMessage;
}

/** Tab 7 (target T7); every command to the tab (a cdp_command) answered {echo: method}; what was sent is kept. */
function setup(): { model: BrowserModel; sent: { action: string; params: Params; options: CallOptions }[]; out: Params[] } {
  const sent: { action: string; params: Params; options: CallOptions }[] = [];
  const agent = {
    sessionId: 's1',
    call: (action: string, params: Params, options: CallOptions) => {
      sent.push({ action, params, options });
      if (action === 'cdp_attach') return Promise.resolve(success({ tab_id: 7, target_id: 'T7', url: 'https://a.test/', title: 'A' }));
      return Promise.resolve(success({}));
    },
    cdp: (c: { tabId: number; method: string; params?: Params; sessionId?: string }) => {
      const params: Params = { method: c.method, params: c.params };
      if (c.sessionId !== undefined) params['session_id'] = c.sessionId;
      sent.push({ action: 'cdp_command', params, options: { tabId: c.tabId } });
      return Promise.resolve({ type: 'cdp_result', original_command_id: 'c1', tab_id: c.tabId, result: { echo: c.method } });
    },
    // The hot path over the in-process link: the same answer, as Chrome's result text.
    cdpText: (c: { tabId: number; method: string; params?: Params; sessionId?: string }) =>
      (agent as unknown as AgentClient).cdp(c).then((r) => ({ json: JSON.stringify(r.result) })),
  } as unknown as AgentClient;
  const out: Params[] = [];
  const writer = new CdpWriter({ send: (t) => out.push(JSON.parse(t) as Params), close: () => undefined }, quiet);
  return { model: new BrowserModel({ out: writer, agent, log: quiet, downloadsDir: '/nonexistent' }), sent, out };
}

const cmd = (id: number, method: string, sessionId?: string, params: Params = {}): CdpCommand => ({ id, method, params, sessionId });
const settle = () => new Promise((r) => setImmediate(r));

describe('CDP relay: one class per session kind, one method table', () => {
  it('the Target/Browser table has exactly the documented methods; an unknown or prototype name is not one of them', async () => {
    expect(Object.keys(BROWSER_METHODS).sort()).to.deep.equal(Object.keys(EMULATED_BROWSER_METHODS).sort());
    const { model, out } = setup();
    model.root.handle(cmd(1, 'constructor'));
    model.root.handle(cmd(2, 'Browser.close'));
    await settle();
    expect(out[0]).to.deep.equal({ id: 1, error: { code: -32601, message: "'constructor' wasn't found" } });
    expect((out[1]?.['error'] as { message: string }).message).to.match(/^'Browser.close' is not available through browser-use-ext/);
  });

  it('a page session sends its command to its tab once and answers under its own session id', async () => {
    const { model, sent, out } = setup();
    const attached = await model.attachTab(undefined);
    if (!attached.ok) throw new Error(attached.error.message);
    const page = model.attachSession(attached.tab, 'page', undefined);
    sent.length = 0;
    page.handle(cmd(5, 'Runtime.evaluate', page.id, { expression: '1' }));
    await settle();
    expect(sent).to.have.length(1);
    expect(sent[0]).to.deep.include({ action: 'cdp_command', params: { method: 'Runtime.evaluate', params: { expression: '1' } } });
    expect(sent[0]?.options.tabId).to.equal(7);
    expect(out.at(-1)).to.deep.equal({ id: 5, result: { echo: 'Runtime.evaluate' }, sessionId: page.id });
  });

  it("a tab session's auto-attach brings its page session, which then reaches the tab; a browser session answers Target.*", async () => {
    const { model, sent, out } = setup();
    const attached = await model.attachTab(undefined);
    if (!attached.ok) throw new Error(attached.error.message);
    const tab = model.attachSession(attached.tab, 'tab', undefined);
    out.length = 0;
    tab.handle(cmd(1, 'Target.setAutoAttach', tab.id, { autoAttach: true, flatten: true, waitForDebuggerOnStart: false }));
    const event = out[0] as { method: string; params: { sessionId: string; targetInfo: { targetId: string } }; sessionId: string };
    expect(event.method).to.equal('Target.attachedToTarget');
    expect(event.sessionId).to.equal(tab.id);
    expect(event.params.targetInfo.targetId).to.equal('T7');
    expect(out[1]).to.deep.equal({ id: 1, result: {}, sessionId: tab.id });
    const page = model.sessions.session(event.params.sessionId);
    expect(page?.kind).to.equal('page');
    sent.length = 0;
    page?.handle(cmd(2, 'DOM.enable', page.id));
    await settle();
    expect(sent.map((s) => s.params['method'])).to.deep.equal(['DOM.enable']);

    const browserSession = model.attachBrowser(undefined);
    model.sessions.session(browserSession)?.handle(cmd(3, 'Target.getTargets', browserSession));
    await settle();
    const infos = (out.at(-1)?.['result'] as { targetInfos: { targetId: string }[] }).targetInfos;
    expect(infos.map((i) => i.targetId)).to.deep.equal(['T7']);
  });

  it("a child alias sends to Chrome's child session in the tab under Chrome's id", async () => {
    const { model, sent } = setup();
    const attached = await model.attachTab(undefined);
    if (!attached.ok) throw new Error(attached.error.message);
    const page = model.attachSession(attached.tab, 'page', undefined);
    if (page.kind !== 'page') throw new Error('not a page session');
    const child = model.children.addChild('CHROME-CHILD', 7, null, { targetId: 'F1', type: 'iframe' });
    const alias = model.children.addAlias(child, page);
    sent.length = 0;
    alias.handle(cmd(9, 'Runtime.enable', alias.alias));
    await settle();
    expect(sent[0]?.params).to.deep.equal({ method: 'Runtime.enable', params: {}, session_id: 'CHROME-CHILD' });
  });
});
