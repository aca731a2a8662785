// Domains per client session over one chrome.debugger session (bridge/agents/cdp/domain-state.ts and
// session-domains.ts): a user's second session disabling a domain must not stop the first session's
// events, a second Runtime.enable gets the contexts there are, Fetch interception is shared without
// one session's disable ending another's, and a session that goes away turns off only what nobody
// needs. A scripted agent stands in for the bridge; no sockets. The browser side by side with
// Chromium's own endpoint is test/e2e/cdp-session-domains.spec.ts.
import { expect } from 'chai';

import { BrowserModel } from '../../bridge/agents/cdp/browser-model';
import type { CdpCommand } from '../../bridge/agents/cdp/cdp-protocol';
import type { PageSession } from '../../bridge/agents/cdp/cdp-sessions';
import { CdpWriter } from '../../bridge/agents/cdp/cdp-writer';
import { globMatches, TargetDomains } from '../../bridge/agents/cdp/domain-state';
import { EventRouter } from '../../bridge/agents/cdp/event-router';
import type { AgentClient } from '../../bridge/client/agent-client';
import type { Logger } from '../../bridge/common/log';
import type { ActionResultMessage } from '../../schemas/generated/protocol';

type Params = Record<string, unknown>;
const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };
const cmd = (id: number, method: string, sessionId: string, params: Params = {}): CdpCommand => ({ id, method, params, sessionId });
const settle = () => new Promise((r) => setImmediate(r));

describe('CDP relay: domains per client session', () => {
  describe('the bookkeeping (TargetDomains)', () => {
    const a = { name: 'a' };
    const b = { name: 'b' };

    it("a disable another session still needs is answered without Chrome; the last one's reaches Chrome", () => {
      const d = new TargetDomains();
      expect(d.plan(a, 'Network.enable', {}).kind).to.equal('forward');
      expect(d.plan(b, 'Network.enable', {}).kind).to.equal('forward');
      expect(d.plan(b, 'Network.disable', {})).to.deep.equal({ kind: 'answer', replay: [] });
      expect(d.plan(b, 'Network.disable', {})).to.deep.equal({ kind: 'answer', replay: [] });
      expect(d.plan(a, 'Network.disable', {}).kind).to.equal('forward');
    });

    it('an event of a tracked domain goes to the sessions that enabled it; other events to all', () => {
      const d = new TargetDomains();
      d.plan(a, 'Network.enable', {});
      d.plan(b, 'Page.enable', {});
      expect(d.recipients('Network.requestWillBeSent', {}, '{}', [a, b])).to.deep.equal([a]);
      expect(d.recipients('Page.loadEventFired', {}, '{}', [a, b])).to.deep.equal([b]);
      expect(d.recipients('Inspector.targetCrashed', {}, '{}', [a, b])).to.deep.equal([a, b]);
      expect(d.recipients('Runtime.bindingCalled', {}, '{}', [a, b]), 'addBinding needs no enable').to.deep.equal([a, b]);
      // Nobody enabled Log through the relay, yet Chrome sent it: as before, everyone gets it.
      expect(d.recipients('Log.entryAdded', {}, '{}', [a, b])).to.deep.equal([a, b]);
    });

    it('an enable Chrome refused is undone; lifecycle events go to the sessions that turned them on', () => {
      const d = new TargetDomains();
      const p = d.plan(a, 'CSS.enable', {});
      if (p.kind !== 'forward') throw new Error('forwarded');
      p.undo?.();
      expect(d.has('CSS', a)).to.equal(false);
      d.plan(a, 'Page.enable', {});
      d.plan(b, 'Page.enable', {});
      d.plan(a, 'Page.setLifecycleEventsEnabled', { enabled: true });
      d.plan(b, 'Page.setLifecycleEventsEnabled', { enabled: true });
      expect(d.plan(b, 'Page.setLifecycleEventsEnabled', { enabled: false }).kind).to.equal('answer');
      expect(d.recipients('Page.lifecycleEvent', {}, '{}', [a, b])).to.deep.equal([a]);
    });

    it("a second Runtime.enable is answered with the live contexts, not sent to Chrome's shared session", () => {
      const d = new TargetDomains();
      expect(d.plan(a, 'Runtime.enable', {}).kind).to.equal('forward');
      const c1 = JSON.stringify({ context: { id: 1, origin: 'https://a.test' } });
      const c2 = JSON.stringify({ context: { id: 2, origin: '' } });
      d.recipients('Runtime.executionContextCreated', JSON.parse(c1) as Params, c1, [a, b]);
      d.recipients('Runtime.executionContextCreated', JSON.parse(c2) as Params, c2, [a, b]);
      d.recipients('Runtime.executionContextDestroyed', { executionContextId: 2 }, '{}', [a, b]);
      expect(d.plan(b, 'Runtime.enable', {})).to.deep.equal({ kind: 'answer', replay: [c1] });
      expect(d.plan(b, 'Runtime.enable', {}), 'already on for b: nothing again').to.deep.equal({ kind: 'answer', replay: [] });
      expect(d.recipients('Runtime.consoleAPICalled', {}, '{}', [a, b])).to.deep.equal([a, b]);
      d.plan(a, 'Runtime.disable', {});
      expect(d.recipients('Runtime.consoleAPICalled', {}, '{}', [a, b])).to.deep.equal([b]);
    });

    it("Fetch: Chrome gets the union of patterns; a paused request goes to one matching session; a disable keeps the others'", () => {
      const d = new TargetDomains();
      expect(d.plan(a, 'Fetch.enable', { patterns: [{ urlPattern: '*/api/*' }] }).kind).to.equal('forward');
      const both = d.plan(b, 'Fetch.enable', { handleAuthRequests: true });
      expect(both).to.deep.include({ kind: 'send', method: 'Fetch.enable' });
      if (both.kind !== 'send') throw new Error('send');
      expect(both.params).to.deep.equal({ patterns: [{ urlPattern: '*/api/*' }, { urlPattern: '*' }], handleAuthRequests: true });
      const paused = (id: string, url: string) => ({ requestId: id, request: { url }, resourceType: 'Fetch' });
      expect(d.recipients('Fetch.requestPaused', paused('r1', 'https://x.test/api/1'), '{}', [a, b])).to.deep.equal([a]);
      expect(d.recipients('Fetch.requestPaused', paused('r2', 'https://x.test/page'), '{}', [a, b])).to.deep.equal([b]);
      expect(d.recipients('Fetch.authRequired', paused('r3', 'https://x.test/api/2'), '{}', [a, b]), 'only b handles auth').to.deep.equal([
        b,
      ]);
      // b handled r2; r3 is still b's: its disable narrows Chrome to a's patterns and lets r3 go.
      d.plan(b, 'Fetch.continueRequest', { requestId: 'r2' });
      expect(d.plan(b, 'Fetch.disable', {})).to.deep.equal({
        kind: 'send',
        method: 'Fetch.enable',
        params: { patterns: [{ urlPattern: '*/api/*' }], handleAuthRequests: false },
        after: [{ method: 'Fetch.continueRequest', params: { requestId: 'r3' } }],
      });
      expect(d.plan(a, 'Fetch.disable', {}).kind).to.equal('forward');
    });

    it('a session that goes away gives up its domains: Chrome is told to turn off only what nobody needs', () => {
      const d = new TargetDomains();
      d.plan(a, 'Network.enable', {});
      d.plan(a, 'Runtime.enable', {});
      d.plan(b, 'Runtime.enable', {});
      d.plan(a, 'Page.enable', {});
      d.plan(a, 'Page.setLifecycleEventsEnabled', { enabled: true });
      expect(d.drop(a)).to.deep.equal([
        { method: 'Network.disable', params: {} },
        { method: 'Page.disable', params: {} },
        { method: 'Page.setLifecycleEventsEnabled', params: { enabled: false } },
      ]);
      expect(d.has('Runtime', b)).to.equal(true);
    });

    it("matches URL patterns as Chrome does ('*', '?', '\\' escapes)", () => {
      expect(globMatches('*', 'https://a.test/')).to.equal(true);
      expect(globMatches('https://a.test/?', 'https://a.test/x')).to.equal(true);
      expect(globMatches('https://a.test/?', 'https://a.test/xy')).to.equal(false);
      expect(globMatches('*.png', 'https://a.test/x.png')).to.equal(true);
      expect(globMatches('*.png', 'https://a.test/xpng')).to.equal(false);
      expect(globMatches('*\\*', 'https://a.test/*')).to.equal(true);
      expect(globMatches('*\\*', 'https://a.test/a')).to.equal(false);
    });
  });

  describe('through the relay (page sessions on one tab)', () => {
    function setup() {
      const sent: { method: string; params: Params }[] = [];
      const agent = {
        sessionId: 's1',
        call: (action: string) =>
          Promise.resolve({
            type: 'action_result',
            action,
            status: 'success',
            outcome_details: {
              message: 'ok',
              result: action === 'cdp_attach' ? { tab_id: 7, target_id: 'T7', url: 'https://a.test/', title: 'A' } : {},
            },
          } as unknown as ActionResultMessage),
        cdpText: (c: { tabId: number; method: string; params?: Params }) => {
          sent.push({ method: c.method, params: c.params ?? {} });
          return Promise.resolve({ type: 'cdp_result', original_command_id: 'c1', tab_id: c.tabId, result: {} });
        },
      } as unknown as AgentClient;
      const out: Params[] = [];
      const writer = new CdpWriter({ send: (t) => out.push(JSON.parse(t) as Params), close: () => undefined }, quiet);
      const model = new BrowserModel({ out: writer, agent, log: quiet, downloadsDir: '/nonexistent' });
      const router = new EventRouter(model, quiet, () => true);
      const event = (method: string, params: Params) => router.route({ type: 'cdp_event', tab_id: 7, method, params });
      return { model, sent, out, event };
    }

    async function twoPages(model: BrowserModel): Promise<[PageSession, PageSession]> {
      const attached = await model.attachTab(undefined);
      if (!attached.ok) throw new Error(attached.error.message);
      const a = model.attachSession(attached.tab, 'page', undefined);
      const b = model.attachSession(attached.tab, 'page', undefined);
      if (a.kind !== 'page' || b.kind !== 'page') throw new Error('page sessions');
      return [a, b];
    }

    it("a second session's disable leaves the first its events; its own Runtime.enable gets the contexts; its detach turns off only its own", async () => {
      const { model, sent, out, event } = setup();
      const [a, b] = await twoPages(model);
      a.handle(cmd(1, 'Network.enable', a.id));
      a.handle(cmd(2, 'Runtime.enable', a.id));
      await settle();
      event('Runtime.executionContextCreated', { context: { id: 3, origin: 'https://a.test', name: '' } });
      b.handle(cmd(3, 'Network.enable', b.id));
      b.handle(cmd(4, 'Network.disable', b.id));
      b.handle(cmd(5, 'Runtime.disable', b.id));
      await settle();
      expect(sent.map((s) => s.method)).to.deep.equal(['Network.enable', 'Runtime.enable', 'Network.enable']);
      expect(out.filter((m) => m['id'] === 4 || m['id'] === 5)).to.deep.equal([
        { id: 4, result: {}, sessionId: b.id },
        { id: 5, result: {}, sessionId: b.id },
      ]);

      out.length = 0;
      event('Network.requestWillBeSent', { requestId: 'n1' });
      expect(out.map((m) => m['sessionId'])).to.deep.equal([a.id]);

      out.length = 0;
      b.handle(cmd(6, 'Runtime.enable', b.id));
      expect(out).to.deep.equal([
        {
          method: 'Runtime.executionContextCreated',
          params: { context: { id: 3, origin: 'https://a.test', name: '' } },
          sessionId: b.id,
        },
        { id: 6, result: {}, sessionId: b.id },
      ]);
      expect(sent.map((s) => s.method)).to.not.include('Runtime.disable');

      sent.length = 0;
      model.detachSession(a);
      await settle();
      expect(
        sent.map((s) => s.method),
        'b still has Runtime',
      ).to.deep.equal(['Network.disable']);
    });

    it("Fetch: a paused request reaches only the session whose patterns match; one session's disable keeps the other's interception", async () => {
      const { model, sent, out, event } = setup();
      const [a, b] = await twoPages(model);
      a.handle(cmd(1, 'Fetch.enable', a.id, { patterns: [{ urlPattern: '*' }], handleAuthRequests: true }));
      b.handle(cmd(2, 'Fetch.enable', b.id, { patterns: [{ urlPattern: '*/b-only/*' }] }));
      await settle();
      expect(sent.map((s) => s.params)).to.deep.equal([
        { patterns: [{ urlPattern: '*' }], handleAuthRequests: true },
        { patterns: [{ urlPattern: '*' }, { urlPattern: '*/b-only/*' }], handleAuthRequests: true },
      ]);
      out.length = 0;
      event('Fetch.requestPaused', { requestId: 'i1', request: { url: 'https://a.test/b-only/x' }, resourceType: 'XHR' });
      expect(
        out.map((m) => m['sessionId']),
        'a enabled first and matches',
      ).to.deep.equal([a.id]);
      sent.length = 0;
      out.length = 0;
      a.handle(cmd(3, 'Fetch.disable', a.id));
      await settle();
      expect(sent).to.deep.equal([
        { method: 'Fetch.enable', params: { patterns: [{ urlPattern: '*/b-only/*' }], handleAuthRequests: false } },
        { method: 'Fetch.continueRequest', params: { requestId: 'i1' } },
      ]);
      expect(out).to.deep.equal([{ id: 3, result: {}, sessionId: a.id }]);
    });

    it("a frame's child session: each client alias keeps its own domains; detaching one alias turns off only what nobody needs", async () => {
      const { model, sent, out } = setup();
      const [a, b] = await twoPages(model);
      const child = model.children.addChild('CHROME-CHILD', 7, null, { targetId: 'F1', type: 'iframe' });
      const aa = model.children.addAlias(child, a);
      const ba = model.children.addAlias(child, b);
      aa.handle(cmd(1, 'Network.enable', aa.alias));
      ba.handle(cmd(2, 'Network.enable', ba.alias));
      ba.handle(cmd(3, 'Log.enable', ba.alias));
      await settle();
      out.length = 0;
      const router = new EventRouter(model, quiet, () => true);
      router.route({ type: 'cdp_event', tab_id: 7, session_id: 'CHROME-CHILD', method: 'Log.entryAdded', params: {} });
      expect(out.map((m) => m['sessionId'])).to.deep.equal([ba.alias]);
      sent.length = 0;
      b.handle(cmd(4, 'Target.detachFromTarget', b.id, { sessionId: ba.alias }));
      await settle();
      expect(
        sent.map((s) => s.method),
        "a's alias still has Network",
      ).to.deep.equal(['Log.disable']);
    });
  });
});
