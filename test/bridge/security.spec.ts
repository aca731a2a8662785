// Every refusal of the bridge over real `ws` on port 0: pairing, browser Origins,
// DNS rebinding, oversize and malformed traffic, handshake abuse. Secrets never leak.
import crypto from 'node:crypto';
import http from 'node:http';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { bridgeProof, clientProof } from '../../bridge/common/auth';
import { createLogger } from '../../bridge/common/log';
import { type BridgeOptions, BridgeServer } from '../../bridge/src/server';
import type { ErrorMessage } from '../../schemas/generated/protocol';
import { EXTENSION_ORIGIN, RawPeer } from './raw-peer';

const isError = (m: { type: string }): m is ErrorMessage => m.type === 'error';
const nonce = () => crypto.randomBytes(16).toString('base64');
const hello = (role: 'agent' | 'extension', clientNonce: string) => ({
  type: 'hello',
  role,
  protocol_version: 1,
  client: { name: 'test', version: '0' },
  capabilities: [],
  client_nonce: clientNonce,
});

describe('bridge security (real ws)', () => {
  let bridge: BridgeServer;
  let logLines: string[];
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);

  async function startBridge(extra: Partial<BridgeOptions> = {}): Promise<void> {
    logLines = [];
    bridge = createBridge({ port: 0, logger: createLogger('debug', (l) => logLines.push(l)), ...extra });
    await bridge.start();
  }

  /** Handshake with a given secret; returns the refusal error (or null when accepted) and the close code. */
  async function tryHandshake(role: 'agent' | 'extension', secret: string): Promise<{ error: ErrorMessage | null; close: number | null }> {
    const url = role === 'agent' ? bridge.agentUrl : bridge.extensionUrl;
    const p = track(await RawPeer.open(url, role === 'extension' ? { Origin: EXTENSION_ORIGIN } : {}));
    const cn = nonce();
    p.send(hello(role, cn));
    const first = await p.next((m) => m.type === 'auth_challenge' || m.type === 'error');
    if (first.type === 'error') return { error: first, close: (await p.waitClose()).code };
    if (first.type !== 'auth_challenge') throw new Error('unexpected');
    p.send({ type: 'auth_response', proof: clientProof(secret, role, first.nonce, cn) });
    const answer = await p.next((m) => m.type === 'hello_ack' || m.type === 'error');
    if (answer.type === 'hello_ack') return { error: null, close: null };
    return { error: answer as ErrorMessage, close: (await p.waitClose()).code };
  }

  beforeEach(() => startBridge());
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  describe('pairing', () => {
    it('accepts the right secrets and proves itself first with bridge_proof', async () => {
      const p = track(await RawPeer.open(bridge.agentUrl));
      const cn = nonce();
      p.send(hello('agent', cn));
      const challenge = await p.next((m) => m.type === 'auth_challenge');
      if (challenge.type !== 'auth_challenge') throw new Error('unexpected');
      expect(challenge.bridge_proof).to.equal(bridgeProof(bridge.secrets.agent_secret, cn));
      expect(Buffer.from(challenge.nonce, 'base64')).to.have.length(32);
      expect((await tryHandshake('extension', bridge.secrets.extension_secret)).error).to.equal(null);
    });

    it('refuses a wrong agent secret with UNAUTHORIZED and close 4001 (secret refused)', async () => {
      const r = await tryHandshake('agent', 'not-the-secret-at-all-000000');
      expect(r.error?.error_info.error_code).to.equal('UNAUTHORIZED');
      expect(r.error?.error_info.message).to.match(/BROWSER_USE_EXT_AGENT_SECRET/);
      expect(r.close).to.equal(4001);
    });

    it('refuses the extension secret on the agent endpoint and vice versa', async () => {
      expect((await tryHandshake('agent', bridge.secrets.extension_secret)).error?.error_info.error_code).to.equal('UNAUTHORIZED');
      const ext = await tryHandshake('extension', bridge.secrets.agent_secret);
      expect(ext.error?.error_info.error_code).to.equal('UNAUTHORIZED');
      expect(ext.error?.error_info.message).to.match(/options page/);
    });

    it('refuses anything but auth_response while the challenge is open', async () => {
      const p = track(await RawPeer.open(bridge.agentUrl));
      p.send(hello('agent', nonce()));
      await p.next((m) => m.type === 'auth_challenge');
      p.send({ type: 'action', action_id: 'sneak', action: 'get_state', params: {} });
      expect(((await p.next(isError)) as ErrorMessage).error_info.error_code).to.equal('UNAUTHORIZED');
      expect((await p.waitClose()).code).to.equal(1008);
    });

    it('closes a connection that does not finish the handshake in time', async () => {
      await bridge.close();
      await startBridge({ handshakeTimeoutMs: 150 });
      const p = track(await RawPeer.open(bridge.agentUrl));
      p.send(hello('agent', nonce()));
      expect((await p.waitClose()).code).to.equal(1008);
    });

    it('never refuses the right secret because someone else guessed wrong', async () => {
      await bridge.close();
      await startBridge({ maxAuthFailures: 2, authFailureIntervalMs: 60_000 });
      for (let i = 0; i < 2; i++)
        expect((await tryHandshake('agent', `wrong-secret-wrong-secret-${i}`)).error?.error_info.error_code).to.equal('UNAUTHORIZED');
      const t = Date.now();
      expect((await tryHandshake('agent', bridge.secrets.agent_secret)).error).to.equal(null);
      expect((await tryHandshake('extension', bridge.secrets.extension_secret)).error).to.equal(null);
      expect(Date.now() - t).to.be.below(1000);
    });

    it('answers failing proofs late once past the burst, from any 127.x.y.z address, and logs the first at once, the rest in one summary', async () => {
      await bridge.close();
      await startBridge({ maxAuthFailures: 2, authFailureIntervalMs: 400, handshakeTimeoutMs: 5000, authFailureLogWindowMs: 1500 });
      const guess = async (localAddress: string) => {
        const p = track(await RawPeer.open(bridge.agentUrl, {}, { localAddress }));
        const cn = nonce();
        p.send(hello('agent', cn));
        const ch = await p.next((m) => m.type === 'auth_challenge');
        if (ch.type !== 'auth_challenge') throw new Error('unexpected');
        const t = Date.now();
        p.send({ type: 'auth_response', proof: clientProof('wrong-secret-wrong-secret', 'agent', ch.nonce, cn) });
        const answer = await p.next(isError);
        return { code: (answer as ErrorMessage).error_info.error_code, ms: Date.now() - t };
      };
      const answers = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map(guess));
      expect(answers.map((a) => a.code)).to.deep.equal(['UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED']);
      const delays = answers.map((a) => a.ms).sort((a, b) => a - b);
      expect(delays[1]).to.be.below(300);
      expect(delays[2]).to.be.at.least(300);
      expect(delays[3]).to.be.at.least(700);
      // The right secret in the middle of all that is answered at once.
      expect((await tryHandshake('agent', bridge.secrets.agent_secret)).error).to.equal(null);
      // One WARN line for the first wrong proof (the person with a stale secret sees why at once),
      // then one summary per window instead of a line per guess (a flood wrote 4,000 lines in 15 s).
      expect(logLines.filter((l) => / WARN {2}handshake refused: wrong proof/.test(l))).to.have.length(1);
      await new Promise((r) => setTimeout(r, 1600));
      const summary = logLines.filter((l) => / WARN {2}agent secret: 4 wrong tries in the last 2 s/.test(l));
      expect(summary).to.have.length(1);
      expect(summary[0]).to.contain('answered 4');
      for (const w of logLines.filter((l) => / WARN /.test(l))) expect(w).not.to.contain(bridge.secrets.agent_secret);
    });

    it('takes one proof per connection: a second hello after a wrong proof is ignored', async () => {
      await bridge.close();
      await startBridge({ maxAuthFailures: 0, authFailureIntervalMs: 300 });
      const p = track(await RawPeer.open(bridge.agentUrl));
      const cn = nonce();
      p.send(hello('agent', cn));
      const ch = await p.next((m) => m.type === 'auth_challenge');
      if (ch.type !== 'auth_challenge') throw new Error('unexpected');
      p.send({ type: 'auth_response', proof: clientProof('wrong-secret-wrong-secret', 'agent', ch.nonce, cn) });
      p.send(hello('agent', nonce()));
      expect((await p.waitClose()).code, '4001: secret refused').to.equal(4001);
      expect(p.received.filter((m) => m.type === 'auth_challenge')).to.have.length(0); // the first one was taken by next()
    });

    it('never puts a secret or a session token in logs, errors or /status', async () => {
      await tryHandshake('agent', 'wrong-secret-wrong-secret-1');
      await tryHandshake('extension', 'wrong-secret-wrong-secret-2');
      const agent = track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret }));
      track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
      const status = await (await fetch(`http://127.0.0.1:${bridge.port}/status`)).text();
      const token = agent.ack?.session_token;
      expect(token).to.be.a('string');
      const everything = [status, ...logLines, ...peers.flatMap((p) => p.received.map((m) => JSON.stringify(m)))].join('\n');
      for (const secret of [bridge.secrets.agent_secret, bridge.secrets.extension_secret, token as string])
        expect(everything).not.to.contain(secret);
      expect(logLines.join('\n')).to.contain('handshake refused');
      expect(JSON.parse(status).sessions).to.have.length(1);
    });
  });

  describe('upgrade checks (403 before any WebSocket)', () => {
    const origins = ['http://localhost:3000', 'https://evil.example', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'null'];
    for (const origin of origins) {
      it(`refuses browser Origin ${origin} on /agent`, async () => {
        expect(await RawPeer.refusedStatus(bridge.agentUrl, { Origin: origin })).to.equal(403);
      });
    }

    it('refuses /extension without our extension Origin', async () => {
      expect(await RawPeer.refusedStatus(bridge.extensionUrl, {})).to.equal(403);
      expect(await RawPeer.refusedStatus(bridge.extensionUrl, { Origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' })).to.equal(
        403,
      );
      expect(await RawPeer.refusedStatus(bridge.extensionUrl, { Origin: 'http://127.0.0.1:8000' })).to.equal(403);
      expect(await RawPeer.refusedStatus(bridge.extensionUrl, { Origin: EXTENSION_ORIGIN })).to.equal(null);
    });

    it('accepts another extension id only when configured (store build)', async () => {
      await bridge.close();
      const store = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
      await startBridge({ extensionOrigins: [store] });
      expect(await RawPeer.refusedStatus(bridge.extensionUrl, { Origin: store })).to.equal(null);
      expect(await RawPeer.refusedStatus(bridge.extensionUrl, { Origin: EXTENSION_ORIGIN })).to.equal(403);
    });

    it('refuses a rebinding Host on both endpoints and on /status', async () => {
      const port = bridge.port;
      for (const host of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost', `127.0.0.1.nip.io:${port}`]) {
        expect(await RawPeer.refusedStatus(bridge.agentUrl, { Host: host }), host).to.equal(403);
        expect(await RawPeer.refusedStatus(bridge.extensionUrl, { Host: host, Origin: EXTENSION_ORIGIN }), host).to.equal(403);
      }
      expect(await RawPeer.refusedStatus(bridge.agentUrl, { Host: `localhost:${port}` })).to.equal(null);
      const res = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/status', headers: { Host: `evil.example:${port}` } }, (r) => resolve(r.statusCode ?? 0))
          .on('error', reject);
      });
      expect(res).to.equal(403);
    });

    it('refuses to start on a non-loopback interface without allowRemote', async () => {
      const b = createBridge({ host: '0.0.0.0', port: 0, logger: createLogger('silent') });
      let error: unknown;
      await b.start().catch((e: unknown) => (error = e));
      expect(String(error)).to.match(/loopback only/);
    });
  });

  describe('malformed traffic', () => {
    it('closes an oversize frame with 1009', async () => {
      await bridge.close();
      await startBridge({ maxPayloadBytes: 1024 });
      const agent = track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret }));
      agent.sendText(JSON.stringify({ type: 'ping', sent_at: 1, pad: 'x'.repeat(4096) }));
      expect((await agent.waitClose()).code).to.equal(1009);
    });

    it('closes with 1008 and RATE_LIMITED once a connection spends its bad-message budget', async () => {
      await bridge.close();
      await startBridge({ badMessageBudget: 3 });
      const agent = track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret }));
      for (let i = 0; i < 4; i++) agent.send({ type: 'ping' });
      expect((await agent.waitClose()).code).to.equal(1008);
      const codes = agent.received.filter(isError).map((e) => e.error_info.error_code);
      expect(codes.filter((c) => c === 'INVALID_MESSAGE')).to.have.length(4);
      expect(codes).to.include('RATE_LIMITED');
    });

    it('closes a binary frame with 1003', async () => {
      const agent = track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret }));
      agent.ws.send(Buffer.from([1, 2, 3]));
      expect((await agent.waitClose()).code).to.equal(1003);
    });
  });
});
