// The size limit of the CDP endpoint on a real bridge (the CLI's wiring, the real browser emulator, a
// raw WebSocket CDP client) with a stand-in extension that answers every command and counts what
// reaches it: a command over the limit is answered with a CDP error naming it and the connection
// goes on; nothing is re-sent in a loop; a message too big to read closes with 1009 and a reason,
// quickly, with the bridge's memory bounded and /healthz answering throughout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import WebSocket from 'ws';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { createBridge } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import { CDP_MESSAGE_MAX_BYTES, MIB } from '../../bridge/common/message-limits';
import type { BridgeServer } from '../../bridge/src/server';
import type { ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from '../bridge/raw-peer';

type Reply = { id?: number; result?: Record<string, unknown>; error?: { code: number; message: string }; sessionId?: string };

/** The extension's side: tab 1 (target T1) attaches; every cdp_command is answered {} and counted by method. */
function standInExtension(ext: RawPeer): Map<string, number> {
  const sends = new Map<string, number>();
  ext.ws.on('message', (d: Buffer) => {
    const m = JSON.parse(d.toString()) as ProtocolMessage;
    if (m.type === 'cdp_command') {
      sends.set(m.method, (sends.get(m.method) ?? 0) + 1);
      ext.send({ type: 'cdp_result', original_command_id: m.command_id, tab_id: 1, result: {} });
      return;
    }
    if (m.type !== 'action') return;
    sends.set(m.action, (sends.get(m.action) ?? 0) + 1);
    const result = m.action === 'cdp_attach' ? { tab_id: 1, target_id: 'T1', url: 'https://example.com/', title: 'Example' } : {};
    ext.send({
      type: 'action_result',
      original_action_id: m.action_id,
      action: m.action,
      tab_id: 1,
      status: 'success',
      outcome_details: { message: 'done', result },
      new_simplified_state: null,
      error_info: null,
    });
  });
  return sends;
}

/** A raw CDP client on the page endpoint of tab 1: commands without sessionId go to the page. */
async function cdpClient(url: string): Promise<{ ws: WebSocket; reply: (id: number) => Promise<Reply> }> {
  const ws = new WebSocket(url, { maxPayload: 0 });
  const replies = new Map<number, Reply>();
  const waiters = new Map<number, (r: Reply) => void>();
  ws.on('message', (d: Buffer) => {
    const m = JSON.parse(d.toString()) as Reply;
    if (m.id === undefined) return;
    replies.set(m.id, m);
    waiters.get(m.id)?.(m);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    reply: (id) => {
      const got = replies.get(id);
      return got ? Promise.resolve(got) : new Promise((resolve) => waiters.set(id, resolve));
    },
  };
}

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms))]);

describe('CDP endpoint size limit (real bridge and emulator, stand-in extension)', function () {
  this.timeout(30_000);
  let dir: string;
  let bridge: BridgeServer;
  let ext: RawPeer;
  let sends: Map<string, number>;
  let pageUrl: string;
  let lines: string[];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-size-'));
    const { token } = mintCdpClient(dir, { name: 'big', maxTabs: 2 });
    lines = [];
    bridge = createBridge({ port: 0, configDir: dir, logger: createLogger('info', (l) => lines.push(l)), cdp: { pollMs: 100 } });
    await bridge.start();
    ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    sends = standInExtension(ext);
    pageUrl = `ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/page/T1`;
  });
  after(async () => {
    ext.ws.close();
    await bridge.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a 40 MB command is answered with a CDP error naming the limit, is never relayed or re-sent, and the next command is answered', async () => {
    const c = await cdpClient(pageUrl);
    const linesBefore = lines.length;
    const big = 'x'.repeat(40 * 1000 * 1000);
    c.ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: `'${big}'.length` } }));
    c.ws.send(JSON.stringify({ id: 2, method: 'Runtime.evaluate', params: { expression: '1 + 1' } }));
    const refused = await within(c.reply(1), 10_000, 'the 40 MB command');
    expect(refused.error?.code).to.equal(-32000);
    expect(refused.error?.message).to.include(`${CDP_MESSAGE_MAX_BYTES / MIB} MiB`);
    expect(refused.error?.message).to.match(/Runtime\.evaluate/);
    const next = await within(c.reply(2), 10_000, 'the command after it');
    expect(next.result).to.deep.equal({});
    // Nothing is re-sent behind the client's back: the small command reached the extension once, the big one never.
    await new Promise((r) => setTimeout(r, 1500));
    expect(sends.get('Runtime.evaluate')).to.equal(1);
    expect(lines.length - linesBefore, lines.slice(linesBefore).join('\n')).to.be.below(10);
    c.ws.close();
  });

  it('a 200 MB message closes the connection with 1009 and a reason at once; /healthz answers throughout and memory stays bounded', async () => {
    const c = await cdpClient(pageUrl);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    let slowestHealthz = 0;
    let probing = true;
    const probes = (async () => {
      while (probing) {
        const t = Date.now();
        const r = await fetch(`http://127.0.0.1:${bridge.port}/healthz`);
        expect(r.status).to.equal(200);
        slowestHealthz = Math.max(slowestHealthz, Date.now() - t);
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      c.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    c.ws.on('error', () => undefined);
    const started = Date.now();
    // 200 MB as fragments of one message, as a client streaming a body would send it (the test's own memory stays small).
    const chunk = Buffer.alloc(4 * MIB, 0x20);
    c.ws.send('{"id":1,"method":"Runtime.evaluate","params":{"expression":"', { fin: false });
    let sentMb = 0;
    for (let i = 0; i < 50 && c.ws.readyState === WebSocket.OPEN; i++) {
      c.ws.send(chunk, { fin: false, binary: false });
      sentMb += 4;
      while (c.ws.bufferedAmount > 8 * MIB && c.ws.readyState === WebSocket.OPEN) await new Promise((r) => setTimeout(r, 5));
    }
    if (c.ws.readyState === WebSocket.OPEN) c.ws.send('"}}', { fin: true });
    const { code, reason } = await within(closed, 10_000, 'the close of the 200 MB message');
    const tookMs = Date.now() - started;
    probing = false;
    await probes;
    clearInterval(sampler);
    const grewMb = Math.round((rssPeak - rssBefore) / MIB);
    console.log(
      `      200 MB attempt: closed ${code} after ${tookMs} ms and ${sentMb} MiB sent, slowest /healthz ${slowestHealthz} ms, RSS +${grewMb} MiB`,
    );
    expect(code).to.equal(1009);
    expect(reason).to.include(`${CDP_MESSAGE_MAX_BYTES / MIB} MiB`);
    // "At once" is measured in bytes, not wall time (a loaded CI machine starves the sender too): the
    // bridge closes soon after the limit, long before the client has sent its 200 MB.
    expect(sentMb).to.be.below(160);
    expect(tookMs).to.be.below(10_000);
    expect(slowestHealthz).to.be.below(1_000);
    expect(grewMb).to.be.below(300);
    // The endpoint still serves the next connection.
    const again = await cdpClient(pageUrl);
    again.ws.send(JSON.stringify({ id: 7, method: 'Runtime.evaluate', params: { expression: '2' } }));
    const r7 = await within(again.reply(7), 10_000, 'a command on a new connection');
    expect(r7.result, JSON.stringify(r7)).to.deep.equal({});
    again.ws.close();
  });

  it('the agent client never sends a frame over the limit: the call is answered with an error, the connection stays', async () => {
    const agent = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret, reconnectMaxDelayMs: 100 });
    expect((await agent.call('cdp_attach', {}, { tabId: 1 })).status).to.equal('success');
    const closes: number[] = [];
    agent.on('close', (code: number) => closes.push(code));
    const r = await agent.cdp({
      tabId: 1,
      method: 'Runtime.evaluate',
      params: { expression: 'x'.repeat(CDP_MESSAGE_MAX_BYTES + 2 * MIB) },
    });
    expect(r.result).to.equal(undefined);
    expect(r.error_info?.error_code).to.equal('MESSAGE_TOO_LARGE');
    expect(r.error_info?.message).to.include('MiB');
    const small = await agent.cdp({ tabId: 1, method: 'Runtime.evaluate', params: { expression: '3' } });
    expect(small.result, JSON.stringify(small.error_info)).to.deep.equal({});
    expect(closes).to.deep.equal([]);
    await agent.close();
  });

  it('an action the bridge keeps refusing (1009) is sent at most three times, then answered; no reconnect loop re-sends it', async () => {
    // A bridge with a smaller frame limit than the client's: the client cannot know, the bridge closes with 1009 each time.
    const small = createBridge({ port: 0, configDir: dir, logger: createLogger('silent'), maxPayloadBytes: 64 * 1024 });
    await small.start();
    const agent = await AgentClient.connect({ url: small.agentUrl, secret: small.secrets.agent_secret, reconnectMaxDelayMs: 50 });
    const closes: { code: number; reason: string }[] = [];
    agent.on('close', (code: number, reason: string) => closes.push({ code, reason }));
    try {
      const r = await within(
        agent.cdp({ tabId: 1, method: 'Runtime.evaluate', params: { expression: 'y'.repeat(100 * 1024) } }),
        10_000,
        'the refused command',
      );
      expect(r.result).to.equal(undefined);
      expect(r.error_info?.error_code).to.equal('EXTENSION_DISCONNECTED');
      expect(r.error_info?.details).to.deep.include({ reason: 'resend_limit', sends: 3 });
      expect(closes.map((c) => c.code)).to.deep.equal([1009, 1009, 1009]);
      expect(closes[0]?.reason).to.include('at most 0.1 MiB');
      await new Promise((res) => setTimeout(res, 300));
      expect(closes).to.have.length(3);
    } finally {
      await agent.close();
      await small.close();
    }
  });
});
