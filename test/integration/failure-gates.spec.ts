// Floods of wrong guesses against a real bridge (real ws and HTTP on port 0): the gate bounds how
// many "wrong" answers anybody can collect per second, closes the excess unanswered (bounded fds),
// never delays the right secret, and logs one summary per window instead of one line per guess.
import crypto from 'node:crypto';
import http from 'node:http';

import { expect } from 'chai';
import WebSocket from 'ws';

import { McpTokenStore } from '../../bridge/agents/mcp/tokens';
import { createBridge } from '../../bridge/cli/wire';
import { clientProof } from '../../bridge/common/auth';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { EXTENSION_ORIGIN, RawPeer } from '../bridge/raw-peer';

const FLOOD = 2000;
const BURST = 10;
const INTERVAL_MS = 250; // 4 wrong answers per second per kind
const MAX_PENDING = 32;
const WINDOW_MS = 2000;
/** The most "wrong" answers a guesser may collect in 5 s: the burst plus the rate times 5 s (+1 for timer edges). */
const ALLOWED_IN_5S = BURST + 5000 / INTERVAL_MS + 1;

const nonce = () => crypto.randomBytes(16).toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Guess {
  ws: WebSocket;
  challenge: Promise<{ nonce: string; clientNonce: string }>;
  answeredAt: number | null;
  closedAt: number | null;
}

/** Opens a connection, says hello and waits for the challenge (no proof yet). */
function openGuess(url: string): Guess {
  const ws = new WebSocket(url);
  const g: Guess = { ws, challenge: null as never, answeredAt: null, closedAt: null };
  const clientNonce = nonce();
  g.challenge = new Promise((resolve, reject) => {
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          type: 'hello',
          role: 'agent',
          protocol_version: PROTOCOL_VERSION,
          client: { name: 'guesser', version: '0' },
          capabilities: [],
          client_nonce: clientNonce,
        }),
      ),
    );
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { type: string; nonce?: string; error_info?: { error_code: string } };
      if (m.type === 'auth_challenge' && m.nonce) resolve({ nonce: m.nonce, clientNonce });
      if (m.type === 'error' && m.error_info?.error_code === 'UNAUTHORIZED') g.answeredAt ??= Date.now();
    });
    ws.on('error', reject);
    ws.on('close', () => {
      g.closedAt = Date.now();
      reject(new Error('closed before the challenge'));
    });
  });
  return g;
}

function post(port: number, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; at: number } | null> {
  const text = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, at: Date.now() }));
      },
    );
    // Closed unanswered by the gate (or anything else that ends without an answer).
    req.on('error', () => resolve(null));
    req.end(text);
  });
}

describe('failure gates: floods of wrong guesses (real bridge)', function () {
  this.timeout(60_000);
  let bridge: BridgeServer;
  let lines: { at: number; line: string }[];

  async function start(extra: Parameters<typeof createBridge>[0] = {}): Promise<void> {
    lines = [];
    bridge = createBridge({
      port: 0,
      logger: createLogger('info', (line) => lines.push({ at: Date.now(), line })),
      maxAuthFailures: BURST,
      authFailureIntervalMs: INTERVAL_MS,
      maxPendingAuthFailures: MAX_PENDING,
      authFailureLogWindowMs: WINDOW_MS,
      handshakeTimeoutMs: 30_000,
      ...extra,
    });
    await bridge.start();
  }

  afterEach(async () => {
    await bridge.close();
  });

  const warnsBetween = (from: number, to: number) => lines.filter((l) => l.at >= from && l.at <= to && / WARN /.test(l.line));

  it(`answers at most burst + rate x 5 of ${FLOOD} concurrent wrong agent proofs within 5 s, closes the excess, lets the right secret in at once, and logs per window`, async () => {
    await start();
    const guesses = Array.from({ length: FLOOD }, () => openGuess(bridge.agentUrl));
    const challenges = await Promise.all(guesses.map((g) => g.challenge));
    const t0 = Date.now();
    guesses.forEach((g, i) => {
      const ch = challenges[i];
      if (!ch) throw new Error('no challenge');
      g.ws.send(
        JSON.stringify({ type: 'auth_response', proof: clientProof('wrong-secret-wrong-secret', 'agent', ch.nonce, ch.clientNonce) }),
      );
    });
    await sleep(500);
    // The right secret in the middle of the flood: answered at once.
    const before = Date.now();
    const right = await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret });
    const rightMs = Date.now() - before;
    right.close();
    await sleep(1500);
    // Connections the flood still holds: only those waiting for an answer (bounded), not one per guess.
    const stillOpen = guesses.filter((g) => g.ws.readyState === WebSocket.OPEN).length;
    await sleep(t0 + 5000 - Date.now());
    const answered = guesses.filter((g) => g.answeredAt !== null && g.answeredAt <= t0 + 5000).length;
    const warns = warnsBetween(t0, Date.now());
    for (const g of guesses) g.ws.terminate();
    console.log(
      `      flood: ${answered} answered "wrong" in 5 s, ${stillOpen} open after 2 s, right secret in ${rightMs} ms, ${warns.length} WARN lines`,
    );
    expect(rightMs, 'the right secret waits for nobody').to.be.below(1000);
    expect(answered).to.be.at.least(BURST);
    expect(answered, 'wrong answers collected in 5 s').to.be.at.most(ALLOWED_IN_5S);
    expect(stillOpen, 'connections still held after 2 s').to.be.at.most(MAX_PENDING + 2);
    // One line at once, then one summary per window: O(windows), not O(tries).
    expect(warns.length).to.be.at.most(2 * Math.ceil(5000 / WINDOW_MS) + 1);
    const summary = warns.find((w) => /agent secret: \d+ wrong tries in the last 2 s/.test(w.line));
    expect(summary?.line).to.match(/answered \d+ .* closed \d+ unanswered/);
    for (const w of warns) expect(w.line).not.to.contain(bridge.secrets.agent_secret);
  });

  it(`answers at most burst + rate x 5 of ${FLOOD} concurrent wrong pairing codes within 5 s; the right code pairs at once`, async () => {
    await start();
    const origin = { origin: EXTENSION_ORIGIN, host: `127.0.0.1:${bridge.port}` };
    const code = bridge.pairing.create();
    const t0 = Date.now();
    const flood = Array.from({ length: FLOOD }, (_, i) =>
      post(bridge.port, '/pair', { code: `WRNG-${String(i).padStart(4, '0')}` }, origin),
    );
    await sleep(500);
    const before = Date.now();
    const right = await post(bridge.port, '/pair', { code }, origin);
    const rightMs = Date.now() - before;
    const results = await Promise.all(flood);
    const answered = results.filter((r) => r !== null && r.status === 401 && r.at <= t0 + 5000).length;
    const other = results.filter((r) => r !== null && r.status !== 401);
    const warns = warnsBetween(t0, Date.now());
    console.log(`      pairing flood: ${answered} answered 401 in 5 s, right code in ${rightMs} ms, ${warns.length} WARN lines`);
    expect(right?.status).to.equal(200);
    expect(rightMs).to.be.below(1000);
    expect(
      other.map((r) => r?.status),
      'no 429 or other answer that says "wrong" early',
    ).to.deep.equal([]);
    expect(answered).to.be.at.most(ALLOWED_IN_5S);
    expect(warns.length).to.be.at.most(2 * Math.ceil((Date.now() - t0) / WINDOW_MS) + 1);
  });

  it('logs a flood of refused upgrades (browser Origin on /agent) once, then one summary per window', async () => {
    await start();
    const t0 = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 300 }, () => RawPeer.refusedStatus(bridge.agentUrl, { Origin: 'https://evil.example' })),
    );
    expect(statuses.every((s) => s === 403)).to.equal(true);
    await sleep(WINDOW_MS + 300);
    const warns = warnsBetween(t0, Date.now());
    expect(warns.map((w) => w.line.replace(/^\S+ /, '').slice(0, 60))).to.have.length(2);
    expect(warns[0]?.line).to.contain('refused connection');
    expect(warns[1]?.line).to.contain('refused connection to /agent: 299 more in the last 2 s');
  });

  it('answers wrong MCP tokens at the gate rate, never 429, and initializes with the right token at once', async () => {
    const dir = crypto.randomBytes(6).toString('hex');
    const tokens = new McpTokenStore(`/tmp/bux-gates-${dir}`);
    const token = tokens.add('client');
    bridge = createBridge({
      port: 0,
      logger: createLogger('info', (line) => lines.push({ at: Date.now(), line })),
      mcpTokens: tokens,
    });
    lines = [];
    await bridge.start();
    const headers = { host: `127.0.0.1:${bridge.port}`, accept: 'application/json, text/event-stream' };
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const t0 = Date.now();
    const flood = Array.from({ length: 500 }, (_, i) =>
      post(bridge.port, '/mcp', init, { ...headers, authorization: `Bearer bux_mcp_wrong${i}` }),
    );
    await sleep(300);
    const before = Date.now();
    const right = await post(bridge.port, '/mcp', init, { ...headers, authorization: `Bearer ${token}` });
    const rightMs = Date.now() - before;
    const results = await Promise.all(flood);
    const answered = results.filter((r) => r !== null && r.status === 401 && r.at <= t0 + 5000).length;
    console.log(`      mcp flood: ${answered} answered 401 in 5 s, right token in ${rightMs} ms`);
    expect(right?.status).to.equal(200);
    expect(rightMs).to.be.below(1000);
    expect(results.filter((r) => r !== null && r.status !== 401).map((r) => r?.status)).to.deep.equal([]);
    expect(answered).to.be.at.most(ALLOWED_IN_5S);
  });
});
