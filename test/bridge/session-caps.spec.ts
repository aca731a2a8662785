// Session caps over real ws and HTTP: the bridge's total agent-session cap, MCP's per-token and
// total caps with least-recently-used eviction, and MCP idle expiry. Each refusal is a typed
// TOO_MANY_SESSIONS whose message says how to see and end sessions and which flag raises the cap.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import sinon from 'sinon';

import { McpTokenStore } from '../../bridge/agents/mcp/tokens';
import { createBridge } from '../../bridge/cli/wire';
import { clientProof } from '../../bridge/common/auth';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import type { ErrorMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { RawPeer } from './raw-peer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  sessionId: string | null;
  body: string;
  req: http.ClientRequest;
}

/** One request to /mcp. stream: resolve at the response headers and keep the response open (an SSE GET). */
function mcp(
  port: number,
  token: string,
  o: { method?: string; sessionId?: string; body?: unknown; stream?: boolean } = {},
): Promise<Answer> {
  const text = o.body === undefined ? '' : JSON.stringify(o.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: o.method ?? 'POST',
        agent: false,
        headers: {
          host: `127.0.0.1:${port}`,
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...(text ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) } : {}),
          ...(o.sessionId ? { 'mcp-session-id': o.sessionId } : {}),
        },
      },
      (res) => {
        const sessionId = typeof res.headers['mcp-session-id'] === 'string' ? res.headers['mcp-session-id'] : null;
        if (o.stream) return resolve({ status: res.statusCode ?? 0, sessionId, body: '', req });
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, sessionId, body, req }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cap-test', version: '1' } },
};
const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };

describe('session caps (real ws and HTTP)', function () {
  this.timeout(30_000);
  let bridge: BridgeServer;
  let dir: string;
  let tokens: McpTokenStore;
  const peers: RawPeer[] = [];
  const open: http.ClientRequest[] = [];

  async function start(extra: Parameters<typeof createBridge>[0] = {}): Promise<void> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-caps-'));
    tokens = new McpTokenStore(dir);
    bridge = createBridge({ port: 0, logger: createLogger('silent'), mcpTokens: tokens, ...extra });
    await bridge.start();
  }

  async function session(token: string): Promise<string> {
    const a = await mcp(bridge.port, token, { body: initialize });
    expect(a.status, a.body).to.equal(200);
    if (!a.sessionId) throw new Error('no Mcp-Session-Id');
    return a.sessionId;
  }

  /** Keeps a request of the session open (an SSE stream), so the session is in use. */
  async function busy(token: string, sessionId: string): Promise<void> {
    const a = await mcp(bridge.port, token, { method: 'GET', sessionId, stream: true });
    expect(a.status).to.equal(200);
    open.push(a.req);
  }

  const alive = async (token: string, sessionId: string) => (await mcp(bridge.port, token, { sessionId, body: ping })).status;

  afterEach(async () => {
    for (const r of open.splice(0)) r.destroy();
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a new agent session past --max-agent-sessions with TOO_MANY_SESSIONS; a resume is never refused', async () => {
    await start({ maxAgentSessions: 3, sessionGraceMs: 30_000 });
    const secret = bridge.secrets.agent_secret;
    for (let i = 0; i < 3; i++) peers.push(await RawPeer.hello(bridge.agentUrl, 'agent', { secret, clientName: `agent-${i}` }));
    let refused: unknown = null;
    await RawPeer.hello(bridge.agentUrl, 'agent', { secret, clientName: 'one-too-many' }).catch((e: unknown) => (refused = e));
    const p = peers.find(() => true);
    // The refusal: typed, and it says what to do.
    const fourth = await RawPeer.open(bridge.agentUrl);
    peers.push(fourth);
    const err = await helloRaw(fourth, secret);
    expect(err?.error_info.error_code).to.equal('TOO_MANY_SESSIONS');
    expect(err?.error_info.message).to.match(/cap is 3/);
    expect(err?.error_info.message).to.contain('--max-agent-sessions');
    expect(err?.error_info.message).to.contain('/status');
    expect((await fourth.waitClose()).code).to.equal(1008);
    expect(refused, 'the agent client sees the refusal').not.to.equal(null);
    expect((bridge.status()['sessions'] as unknown[]).length).to.equal(3);
    // A dropped agent resumes its session at the cap.
    const token = p?.ack?.session_token;
    if (!p || !token) throw new Error('no session token');
    p.ws.terminate();
    await sleep(100);
    peers.push(await RawPeer.hello(bridge.agentUrl, 'agent', { secret, sessionToken: token, clientName: 'agent-0' }));
    expect(peers.at(-1)?.ack?.resumed).to.equal(true);
    // An agent that says goodbye frees its place at once.
    peers[1]?.ws.close(1000);
    await sleep(100);
    peers.push(await RawPeer.hello(bridge.agentUrl, 'agent', { secret, clientName: 'next' }));
  });

  it('a connection the bridge closes for breaking the protocol frees its place at once (a broken client cannot fill the cap)', async () => {
    await start({ maxAgentSessions: 2, sessionGraceMs: 30_000 });
    const secret = bridge.secrets.agent_secret;
    for (let i = 0; i < 5; i++) {
      const p = await RawPeer.hello(bridge.agentUrl, 'agent', { secret, clientName: `broken-${i}` });
      peers.push(p);
      p.ws.send('this is not JSON');
      expect((await p.waitClose()).code).to.equal(1003);
      await sleep(50);
    }
    expect((bridge.status()['sessions'] as unknown[]).length).to.equal(0);
    peers.push(await RawPeer.hello(bridge.agentUrl, 'agent', { secret, clientName: 'well-behaved' }));
  });

  it("MCP: a token's oldest idle session makes room for its next one; when all are busy the token is refused with TOO_MANY_SESSIONS", async () => {
    await start({ mcp: { maxSessionsPerToken: 2, maxSessions: 10 } });
    const a = tokens.add('client-a');
    const s1 = await session(a);
    const s2 = await session(a);
    const s3 = await session(a); // s1 was the least recently used: closed to make room
    expect(await alive(a, s1)).to.equal(404);
    expect(await alive(a, s2)).to.equal(200);
    expect(await alive(a, s3)).to.equal(200);
    await busy(a, s2);
    await busy(a, s3);
    const refused = await mcp(bridge.port, a, { body: initialize });
    expect(refused.status).to.equal(429);
    const body = JSON.parse(refused.body) as { error: { message: string; data: { error_code: string } } };
    expect(body.error.data.error_code).to.equal('TOO_MANY_SESSIONS');
    expect(body.error.message).to.contain('"client-a" already has 2 open MCP sessions');
    expect(body.error.message).to.contain('mcp-token revoke client-a');
    expect(body.error.message).to.contain('--mcp-sessions-per-token');
    // Another token is not affected by client-a's cap.
    const b = tokens.add('client-b');
    await session(b);
  });

  // The MCP idle rules on a fake clock: the endpoint's idle sweep (setInterval) and its ages (Date.now)
  // move only when the test says, so a busy machine cannot make a session look idler or fresher
  // than the test made it; HTTP and its own timers stay real.
  let clock: sinon.SinonFakeTimers | null = null;
  const fakeClock = () => (clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setInterval', 'clearInterval', 'Date'] }));
  const idle = async (ms: number) => clock?.tickAsync(ms);
  afterEach(() => {
    clock?.restore();
    clock = null;
  });

  it("MCP: past the total cap another token's session is taken only after idling evictIdleMs; otherwise TOO_MANY_SESSIONS", async () => {
    fakeClock();
    await start({ mcp: { maxSessionsPerToken: 5, maxSessions: 2, evictIdleMs: 400 } });
    const a = tokens.add('client-a');
    const b = tokens.add('client-b');
    const a1 = await session(a);
    const b1 = await session(b);
    const refused = await mcp(bridge.port, b, { body: initialize });
    expect(refused.status).to.equal(429);
    expect(refused.body).to.contain('TOO_MANY_SESSIONS');
    expect(refused.body).to.contain('--mcp-sessions N');
    await idle(500);
    expect(await alive(b, b1)).to.equal(200); // b1 is fresh again; a1 idled past 400 ms
    const b2 = await session(b);
    expect(await alive(a, a1)).to.equal(404);
    expect(await alive(b, b2)).to.equal(200);
  });

  it('MCP: a session without a request for idleMs is closed (its client initializes a new one)', async () => {
    fakeClock();
    await start({ mcp: { idleMs: 300 } });
    const a = tokens.add('client-a');
    const s1 = await session(a);
    const s2 = await session(a);
    await idle(200);
    expect(await alive(a, s2)).to.equal(200);
    await idle(250);
    expect(await alive(a, s1), 'idle 450 ms').to.equal(404);
    expect(await alive(a, s2), 'used 250 ms ago').to.equal(200);
  });
});

/** hello + auth_response with the right secret; the error the bridge answers with, or null. */
async function helloRaw(p: RawPeer, secret: string): Promise<ErrorMessage | null> {
  const cn = crypto.randomBytes(16).toString('base64');
  p.send({
    type: 'hello',
    role: 'agent',
    protocol_version: PROTOCOL_VERSION,
    client: { name: 'raw', version: '0' },
    capabilities: [],
    client_nonce: cn,
  });
  const ch = await p.next((m) => m.type === 'auth_challenge');
  if (ch.type !== 'auth_challenge') throw new Error('unexpected');
  p.send({ type: 'auth_response', proof: clientProof(secret, 'agent', ch.nonce, cn) });
  const answer = await p.next((m) => m.type === 'hello_ack' || m.type === 'error');
  return answer.type === 'error' ? answer : null;
}
