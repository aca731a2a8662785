// Unit tests of the bridge's small modules; the WebSocket is a sinon fake at the Peer seam.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import sinon from 'sinon';
import type { WebSocket } from 'ws';

import { bridgeProof, clientProof, hmacHex, proofsEqual } from '../../bridge/common/auth';
import { EXTENSION_ID } from '../../bridge/common/extension-id';
import { createLogger } from '../../bridge/common/log';
import { Lru } from '../../bridge/common/lru';
import { checkUpgrade, parseHostHeader } from '../../bridge/common/origin-check';
import { FailureGate } from '../../bridge/common/rate-limit';
import { configDir, loadOrCreateSecrets, readAgentSecret } from '../../bridge/common/secrets';
import { CLOSE, Peer } from '../../bridge/src/peer';
import { RECORDED_STATES, SessionRegistry } from '../../bridge/src/sessions';
import { TabQueues } from '../../bridge/src/tab-queue';
import { EXTENSION_ID as MANIFEST_EXTENSION_ID } from '../../extension/manifest.mjs';
import type { ActionResultMessage } from '../../schemas/generated/protocol';

function fakeSocket() {
  return { OPEN: 1, CONNECTING: 0, readyState: 1, send: sinon.spy(), close: sinon.spy() };
}

describe('bridge units', () => {
  describe('auth (the challenge-response handshake)', () => {
    it('computes HMAC-SHA256 hex keyed with the UTF-8 secret (RFC 4231 test case 2)', () => {
      expect(hmacHex('Jefe', 'what do ya want for nothing?')).to.equal('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    });

    it('builds the proofs from the contract strings', () => {
      expect(bridgeProof('s', 'CN')).to.equal(hmacHex('s', 'bridge:CN'));
      expect(clientProof('s', 'agent', 'N', 'CN')).to.equal(hmacHex('s', 'agent:N:CN'));
      expect(clientProof('s', 'extension', 'N', 'CN')).not.to.equal(clientProof('s', 'agent', 'N', 'CN'));
      expect(proofsEqual('ab', 'ab')).to.equal(true);
      expect(proofsEqual('ab', 'abc')).to.equal(false);
    });
  });

  describe('secrets', () => {
    let dir: string;
    beforeEach(() => (dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bux-unit-')), 'cfg')));
    afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

    it('creates secrets.json once with mode 0600 and keeps it', () => {
      const first = loadOrCreateSecrets(dir);
      expect(first.created).to.equal(true);
      expect(fs.statSync(first.file).mode & 0o777).to.equal(0o600);
      expect(first.secrets.agent_secret).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(first.secrets.agent_secret).not.to.equal(first.secrets.extension_secret);
      const again = loadOrCreateSecrets(dir);
      expect(again.created).to.equal(false);
      expect(again.secrets).to.deep.equal(first.secrets);
    });

    it('tightens a file readable by others to 0600', () => {
      const { file } = loadOrCreateSecrets(dir);
      fs.chmodSync(file, 0o644);
      expect(loadOrCreateSecrets(dir).fixedMode).to.equal(true);
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    });

    it('finds the config dir and the agent secret by the documented order', () => {
      expect(configDir({ BROWSER_USE_EXT_CONFIG_DIR: '/x/y' })).to.equal('/x/y');
      expect(configDir({ XDG_CONFIG_HOME: '/xdg' })).to.equal('/xdg/browser-use-ext');
      const { secrets } = loadOrCreateSecrets(dir);
      expect(readAgentSecret({ BROWSER_USE_EXT_CONFIG_DIR: dir })).to.equal(secrets.agent_secret);
      expect(readAgentSecret({ BROWSER_USE_EXT_CONFIG_DIR: dir, BROWSER_USE_EXT_AGENT_SECRET: 'from-env' })).to.equal('from-env');
    });

    it('explains how to recover from a broken file', () => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'secrets.json'), '{oops');
      expect(() => loadOrCreateSecrets(dir)).to.throw(/Delete it and restart the bridge/);
    });
  });

  describe('upgrade checks', () => {
    const policy = { port: 8765, extensionOrigins: [`chrome-extension://${EXTENSION_ID}`] };
    it('keeps the bridge extension id equal to the manifest one', () => {
      expect(EXTENSION_ID).to.equal(MANIFEST_EXTENSION_ID);
    });
    it('parses Host headers', () => {
      expect(parseHostHeader('[::1]:8765')).to.deep.equal({ name: '[::1]', port: 8765 });
      expect(parseHostHeader('LocalHost:1')).to.deep.equal({ name: 'localhost', port: 1 });
      expect(parseHostHeader('evil.example')).to.deep.equal({ name: 'evil.example', port: null });
    });
    it('decides per endpoint', () => {
      const ok = { ok: true };
      expect(checkUpgrade('agent', { host: '127.0.0.1:8765' }, policy)).to.deep.equal(ok);
      expect(checkUpgrade('agent', { host: '[::1]:8765' }, policy)).to.deep.equal(ok);
      expect(checkUpgrade('agent', { host: '127.0.0.1:8765', origin: 'http://127.0.0.1:8765' }, policy).ok).to.equal(false);
      expect(checkUpgrade('agent', {}, policy).ok).to.equal(false);
      expect(checkUpgrade('extension', { host: 'localhost:8765', origin: `chrome-extension://${EXTENSION_ID}` }, policy)).to.deep.equal(ok);
      expect(checkUpgrade('extension', { host: 'attacker.test:8765', origin: `chrome-extension://${EXTENSION_ID}` }, policy).ok).to.equal(
        false,
      );
      expect(checkUpgrade('agent', { host: '192.168.1.5:8765' }, { ...policy, extraHosts: ['192.168.1.5'] })).to.deep.equal(ok);
    });
  });

  it('answers wrong tries at once up to the burst, then one per interval; closes the excess and those past the deadline unanswered', async () => {
    const g = new FailureGate({ burst: 2, intervalMs: 100, maxPending: 2, windowMs: 50 });
    const t0 = Date.now();
    const at = (kind: string, deadline?: number) => {
      const t = g.fail(kind, { message: 'wrong', ...(deadline === undefined ? {} : { deadline }) });
      return t.outcome.then((o) => ({ o, ms: Date.now() - t0 }));
    };
    const tries = [at('agent'), at('agent'), at('agent'), at('agent'), at('agent'), at('extension')];
    const cancelled = g.fail('pairing', { message: 'wrong' });
    g.fail('pairing', { message: 'wrong' });
    const queued = g.fail('pairing', { message: 'wrong' });
    queued.cancel(); // its connection went away: it leaves the queue
    expect(g.pending('pairing')).to.equal(0);
    expect(await cancelled.outcome).to.equal('answer');
    expect(await at('pairing', Date.now() + 50)).to.include({ o: 'drop' }); // its slot would come after its deadline
    const r = await Promise.all(tries);
    expect(r.map((x) => x.o)).to.deep.equal(['answer', 'answer', 'answer', 'answer', 'drop', 'answer']);
    expect(r[1]?.ms).to.be.below(50);
    expect(r[2]?.ms).to.be.within(80, 180);
    expect(r[3]?.ms).to.be.within(180, 280);
    g.close();
  });

  it('LRU forgets the least recently used entry', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.has('a'), lru.has('b'), lru.has('c')]).to.deep.equal([true, false, true]);
  });

  it('tab queues run one task per tab at a time, tabs in parallel, and survive a failure', async () => {
    const q = new TabQueues<number>();
    const log: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      () =>
        new Promise<string>((resolve, reject) => {
          log.push(`start ${name}`);
          setTimeout(() => (log.push(`end ${name}`), fail ? reject(new Error(name)) : resolve(name)), ms);
        });
    const results = await Promise.allSettled([q.run(1, task('a1', 30, true)), q.run(1, task('a2', 1)), q.run(2, task('b1', 5))]);
    expect(results.map((r) => r.status)).to.deep.equal(['rejected', 'fulfilled', 'fulfilled']);
    expect(log).to.deep.equal(['start a1', 'start b1', 'end b1', 'end a1', 'start a2', 'end a2']);
  });

  describe('sessions and leases', () => {
    const peer = () => new Peer('p', 'agent', fakeSocket() as unknown as WebSocket, createLogger('silent'));
    it('leases each tab to one session and releases the oldest past max_tabs', () => {
      const reg = new SessionRegistry({ graceMs: 1000, resultCapacity: 4 });
      const a = reg.create(peer(), 2);
      const b = reg.create(peer(), 2);
      expect(reg.lease(a, 1, 'u1').released).to.deep.equal([]);
      expect(reg.lease(b, 1, null).ok).to.equal(false);
      reg.lease(a, 2, 'u2');
      a.currentTab = 1;
      expect(reg.lease(a, 3, 'u3').released).to.deep.equal([{ tabId: 1, url: 'u1' }]);
      expect(a.currentTab).to.equal(null);
      expect(reg.ownerOf(null, 1)).to.equal(null);
      expect([...a.tabs.keys()]).to.deep.equal([2, 3]);
      expect(reg.othersHoldTabs(b)).to.equal(true);
      reg.end(a);
      expect(reg.ownerOf(null, 2)).to.equal(null);
      expect(reg.find(a.token as string)).to.equal(null);
    });

    it('keys leases on (browser, tab): two browsers may both have tab 5, and a saved session keeps its browser', () => {
      const reg = new SessionRegistry({ graceMs: 1000, resultCapacity: 4 });
      const a = reg.create(peer(), 3);
      const b = reg.create(peer(), 3);
      reg.bind(a, 'browserAA');
      reg.bind(b, 'browserBB');
      expect(reg.lease(a, 5, 'https://a.test/').ok).to.equal(true);
      expect(reg.lease(b, 5, 'https://b.test/').ok, "the other browser's tab 5 is another tab").to.equal(true);
      expect(reg.ownerOf('browserAA', 5)).to.equal(a);
      expect(reg.ownerOf('browserBB', 5)).to.equal(b);
      expect(reg.othersHoldTabs(a), 'tabs of another browser do not count').to.equal(false);
      reg.release('browserBB', 5);
      expect(reg.ownerOf('browserAA', 5)).to.equal(a);
      const saved = reg.snapshot();
      expect(saved.map((x) => x.browser_id)).to.deep.equal(['browserAA', 'browserBB']);
      const again = new SessionRegistry({ graceMs: 1000, resultCapacity: 4 });
      again.restore(saved);
      expect(again.ownerOf('browserAA', 5)?.id).to.equal(a.id);
      expect(again.ownerOf('default', 5)).to.equal(null);
      again.clear();
    });

    it('keeps the page state of only the newest recorded results (bounded memory)', () => {
      const reg = new SessionRegistry({ graceMs: 1000, resultCapacity: 64 });
      const s = reg.create(peer(), 3);
      const state = { url: 'http://x/', title: 'T', tab_id: 1 } as unknown as NonNullable<ActionResultMessage['new_simplified_state']>;
      for (let i = 0; i < 40; i++)
        s.record(`a${i}`, {
          type: 'action_result',
          original_action_id: `a${i}`,
          status: 'success',
          outcome_details: { message: 'ok' },
          new_simplified_state: state,
          error_info: null,
        });
      const withState = Array.from({ length: 40 }, (_, i) => s.results.get(`a${i}`)?.new_simplified_state !== null);
      expect(withState.filter(Boolean)).to.have.length(RECORDED_STATES);
      expect(withState.slice(-RECORDED_STATES).every(Boolean)).to.equal(true);
      expect(s.results.get('a0')?.outcome_details?.message).to.equal('ok');
    });

    it('keeps a detached session for the grace period, then ends it', () => {
      const clock = sinon.useFakeTimers();
      try {
        const ended: string[] = [];
        const reg = new SessionRegistry({ graceMs: 1000, resultCapacity: 4 }, (s) => ended.push(s.id));
        const p = peer();
        const s = reg.create(p, 3);
        reg.detach(s, p);
        clock.tick(999);
        expect(reg.find(s.token as string)).to.equal(s);
        reg.attach(s, peer());
        clock.tick(5000);
        expect(ended).to.deep.equal([]);
        reg.detach(s, s.peer as Peer);
        clock.tick(1000);
        expect(ended).to.deep.equal([s.id]);
      } finally {
        clock.restore();
      }
    });
  });

  describe('Peer over a fake socket', () => {
    it('answers invalid messages with typed errors and closes 1008 past the budget', () => {
      const ws = fakeSocket();
      const p = new Peer('p', 'agent', ws as unknown as WebSocket, createLogger('silent'), 'addr', 2);
      for (let i = 0; i < 3; i++) expect(p.receive('{"type":"ping"}')).to.equal(null);
      const sent = ws.send.getCalls().map((c) => JSON.parse(c.args[0] as string) as { error_info: { error_code: string } });
      expect(sent.map((m) => m.error_info.error_code)).to.deep.equal([
        'INVALID_MESSAGE',
        'INVALID_MESSAGE',
        'INVALID_MESSAGE',
        'RATE_LIMITED',
      ]);
      expect(ws.close.calledOnceWith(CLOSE.policy)).to.equal(true);
    });

    it('closes with 1003 on non-JSON and refuses a message its role may not send', () => {
      const ws = fakeSocket();
      const p = new Peer('p', 'agent', ws as unknown as WebSocket, createLogger('silent'));
      expect(
        p.receive(
          '{"type":"hello_ack","protocol_version":1,"bridge":{"name":"x","version":"1"},"session_id":"s","extension_connected":true}',
        ),
      ).to.equal(null);
      expect(JSON.parse(ws.send.lastCall.args[0] as string).error_info.error_code).to.equal('UNAUTHORIZED');
      p.receive('nope');
      expect(ws.close.lastCall.args[0]).to.equal(CLOSE.unsupportedData);
    });

    it('never sends a message that fails its schema', () => {
      const ws = fakeSocket();
      const p = new Peer('p', 'agent', ws as unknown as WebSocket, createLogger('silent'));
      expect(p.send({ type: 'auth_challenge', nonce: 'short', bridge_proof: 'x' })).to.equal(false);
      expect(ws.send.called).to.equal(false);
    });
  });
});
