// The CDP endpoint on a real bridge (the CLI's wiring, real HTTP and WebSocket clients, a raw
// extension peer for the side panel's messages): Chrome-shaped discovery under /cdp/<token>, each
// WebSocket an agent session named cdp:<name> with the URL's tab limit, the hostile cases (no, wrong
// or revoked token, a browser Origin, a foreign Host, POST), the failure gate's summary, revocation
// closing live connections, and the token never showing in /status, logs or the panel's message.
// The browser emulation is a stand-in here (its own tests drive real Chromium).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import WebSocket from 'ws';

import { listCdpClients, mintCdpClient, revokeCdpClient, setCdpClientStopped } from '../../bridge/agents/cdp/cdp-clients-file';
import type { CdpEmulator, CdpEmulatorOptions } from '../../bridge/agents/cdp/cdp-endpoint';
import { createBridge } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { cli } from '../../bridge/common/cli-invocation';
import { createLogger } from '../../bridge/common/log';
import { sha256Hex } from '../../bridge/common/token-file';
import type { BridgeServer } from '../../bridge/src/server';
import type { CdpClientsMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stands in for bridge/agents/cdp/browser-emulator.ts: answers every command, remembers what it saw. */
class StandInEmulator implements CdpEmulator {
  static all: StandInEmulator[] = [];
  static startDelayMs = 0;
  /** What Browser.getVersion answers (the real emulator answers a placeholder until a tab is attached). */
  static product = 'Chrome/131.0.6778.85';
  readonly handled: string[] = [];
  disposed: string | null = null;
  started = false;
  constructor(readonly o: CdpEmulatorOptions) {
    StandInEmulator.all.push(this);
  }
  async start(): Promise<void> {
    await sleep(StandInEmulator.startDelayMs);
    this.started = true;
  }
  handle(text: string): void {
    if (!this.started) throw new Error('a command reached the emulator before start() finished');
    const m = JSON.parse(text) as { id: number; method: string };
    this.handled.push(m.method);
    const result =
      m.method === 'Browser.getVersion'
        ? {
            protocolVersion: '1.3',
            product: StandInEmulator.product,
            revision: '@abc',
            userAgent: 'Mozilla/5.0 Chrome/131',
            jsVersion: '13.1.201',
          }
        : {};
    this.o.socket.send(JSON.stringify({ id: m.id, result }));
  }
  async dispose(reason: string): Promise<void> {
    this.disposed = reason;
    await this.o.agent.close();
  }
  targets() {
    return [{ targetId: 'A1B2C3', tabId: 7, url: 'https://example.com/', title: 'Example Domain' }];
  }
  stats() {
    const last = this.handled.at(-1) ?? null;
    return { commands_per_s: this.handled.length / 10, last_method: last, tab_ids: [7], session_id: this.o.agent.sessionId };
  }
}

interface Client {
  ws: WebSocket;
  replies: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  call(method: string, id: number): Promise<Record<string, unknown>>;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const ws = new WebSocket(url, { headers });
  const replies: Record<string, unknown>[] = [];
  const waiters: { id: number; resolve: (m: Record<string, unknown>) => void }[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as Record<string, unknown>;
    replies.push(m);
    for (const w of waiters.filter((x) => x.id === m['id'])) w.resolve(m);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    replies,
    closed,
    call: (method, id) =>
      new Promise((resolve) => {
        waiters.push({ id, resolve });
        ws.send(JSON.stringify({ id, method }));
      }),
  };
}

/** The status and body of a refused (or accepted: null) upgrade. */
function upgradeRefusal(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | null> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve) => {
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('open', () => {
      resolve(null);
      ws.close();
    });
    ws.once('error', () => undefined);
  });
}

/** A raw HTTP request (fetch cannot set Host or Origin freely). */
function request(
  port: number,
  pathname: string,
  o: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; json: Record<string, unknown> | unknown[] | null } | null> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, method: o.method ?? 'GET', agent: false, headers: o.headers ?? {} },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          let parsed: Record<string, unknown> | unknown[] | null = null;
          try {
            parsed = JSON.parse(body) as Record<string, unknown>;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, body, json: parsed });
        });
      },
    );
    req.on('error', () => resolve(null)); // closed unanswered
    req.end();
  });
}

async function until(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('CDP endpoint (real bridge, real HTTP and WebSocket)', function () {
  this.timeout(30_000);
  let dir: string;
  let bridge: BridgeServer;
  let lines: string[];
  let token: string;
  let base: string;

  async function start(extra: Parameters<typeof createBridge>[0] = {}): Promise<void> {
    bridge = createBridge({
      port: 0,
      configDir: dir,
      logger: createLogger('debug', (l) => lines.push(l)),
      cdpEmulator: (o) => new StandInEmulator(o),
      cdp: { pollMs: 100 },
      ...extra,
    });
    await bridge.start();
    base = `http://127.0.0.1:${bridge.port}/cdp/${token}`;
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-endpoint-'));
    lines = [];
    StandInEmulator.all = [];
    StandInEmulator.startDelayMs = 0;
    StandInEmulator.product = 'Chrome/131.0.6778.85';
    token = mintCdpClient(dir, { name: 'pw', maxTabs: 4 }).token;
  });
  afterEach(async () => {
    await bridge.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers /json/version and /json/list as Chrome does, with URLs built from the request's Host", async () => {
    await start();
    for (const p of ['/json/version', '/json/version/']) {
      const r = await request(bridge.port, `/cdp/${token}${p}`, { headers: { host: `localhost:${bridge.port}` } });
      expect(r?.status, p).to.equal(200);
      const v = r?.json as Record<string, string>;
      expect(Object.keys(v).sort()).to.deep.equal([
        'Browser',
        'Protocol-Version',
        'User-Agent',
        'V8-Version',
        'WebKit-Version',
        'webSocketDebuggerUrl',
      ]);
      expect(v['Protocol-Version']).to.equal('1.3');
      expect(v['Browser']).to.equal('Chrome/0.0.0.0'); // no tab has said which Chrome yet
      expect(v['webSocketDebuggerUrl']).to.match(new RegExp(`^ws://localhost:${bridge.port}/cdp/${token}/devtools/browser/[0-9a-f-]{36}$`));
    }
    for (const p of ['/json/list', '/json', '/json/']) expect((await request(bridge.port, `/cdp/${token}${p}`))?.json, p).to.deep.equal([]);
    // A client connects where /json/version says; its tabs then show in /json/list.
    const version = (await (await fetch(`${base}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const c = await connect(version.webSocketDebuggerUrl);
    expect((await c.call('Browser.getVersion', 1))['result']).to.include({ product: 'Chrome/131.0.6778.85' });
    const list = (await (await fetch(`${base}/json/list`)).json()) as Record<string, string>[];
    expect(list).to.deep.equal([
      {
        description: '',
        id: 'A1B2C3',
        title: 'Example Domain',
        type: 'page',
        url: 'https://example.com/',
        webSocketDebuggerUrl: `ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/page/A1B2C3`,
      },
    ]);
    // Once the browser described itself, /json/version says the same.
    const again = (await (await fetch(`${base}/json/version`)).json()) as Record<string, string>;
    expect(again).to.include({ Browser: 'Chrome/131.0.6778.85', 'User-Agent': 'Mozilla/5.0 Chrome/131', 'V8-Version': '13.1.201' });
    // A later client whose browser endpoint has no tab yet answers the placeholder; that does not undo it.
    StandInEmulator.product = 'Chrome/0.0.0.0';
    const later = await connect(version.webSocketDebuggerUrl);
    expect((await later.call('Browser.getVersion', 1))['result']).to.include({ product: 'Chrome/0.0.0.0' });
    expect(((await (await fetch(`${base}/json/version`)).json()) as Record<string, string>)['Browser']).to.equal('Chrome/131.0.6778.85');
    later.ws.close();
    c.ws.close();
    await c.closed;
  });

  it('each WebSocket is an agent session cdp:<name> with the URL tab limit; commands sent during start() arrive after it, in order', async () => {
    await start();
    StandInEmulator.startDelayMs = 300;
    const c = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/anything`);
    for (let i = 1; i <= 3; i++) c.ws.send(JSON.stringify({ id: i, method: `Test.m${i}` }));
    await until(() => c.replies.length === 3, 5000, 'three replies');
    const emu = StandInEmulator.all[0];
    expect(emu?.handled).to.deep.equal(['Test.m1', 'Test.m2', 'Test.m3']);
    expect(emu?.o.target).to.deep.equal({ kind: 'browser' });
    expect(emu?.o.downloadsDir).to.equal(path.join(dir, 'downloads', 'pw'));
    expect(fs.statSync(path.join(dir, 'downloads', 'pw')).isDirectory()).to.equal(true);
    const sessions = (bridge.status()['sessions'] as { client: { name: string }; max_tabs: number; session_id: string }[]).filter(
      (s) => s.client?.name === 'cdp:pw',
    );
    expect(sessions).to.have.length(1);
    expect(sessions[0]?.max_tabs).to.equal(4);
    expect(listCdpClients(dir)[0]?.last_used_at).to.be.a('string');
    // The bridge's own write (last use) keeps the file owner-only.
    if (process.platform !== 'win32') expect(fs.statSync(path.join(dir, 'cdp-clients.json')).mode & 0o777).to.equal(0o600);
    // A page endpoint names its target.
    StandInEmulator.startDelayMs = 0;
    const page = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/page/A1B2C3`);
    // The tab is held by the first connection, so the page endpoint is told which tab it is.
    expect(StandInEmulator.all[1]?.o.target).to.deep.equal({ kind: 'page', targetId: 'A1B2C3', tabId: 7 });
    page.ws.close();
    // The client going away ends the session.
    c.ws.close();
    await c.closed;
    await until(() => emu?.disposed !== null, 3000, 'dispose');
    expect(emu?.disposed).to.equal('client closed');
    await until(
      () =>
        !(bridge.status()['sessions'] as { client: { name: string } | null; connected: boolean }[]).some(
          (s) => s.client?.name === 'cdp:pw' && s.connected,
        ),
      3000,
      'the agent session to end',
    );
  });

  it('refuses no token, a wrong or revoked token, a browser Origin, a foreign Host and POST, saying what to do', async () => {
    await start();
    const revoked = mintCdpClient(dir, { name: 'old' }).token;
    revokeCdpClient(dir, 'old');
    const wrong = `cdp_${'A'.repeat(43)}`;
    const port = bridge.port;
    for (const p of ['/cdp/json/version', '/cdp/', `/cdp/${wrong}/json/version`, `/cdp/${revoked}/json/version`]) {
      const r = await request(port, p);
      expect(r?.status, p).to.equal(404);
      expect((r?.json as { error: string }).error).to.equal(`Unknown CDP URL. Make one with: ${cli('cdp-url --name NAME')}`);
    }
    for (const p of [`/cdp/${wrong}/devtools/browser/x`, `/cdp/${revoked}/devtools/browser/x`, '/cdp/devtools/browser/x']) {
      const r = await upgradeRefusal(`ws://127.0.0.1:${port}${p}`);
      expect(r?.status, p).to.equal(403);
      expect(r?.body).to.contain('browser-use-ext cdp-url --name NAME');
    }
    // A web page always sends an Origin; a DNS-rebound page sends its own Host.
    const origin = await request(port, `/cdp/${token}/json/version`, { headers: { origin: 'https://evil.example' } });
    expect(origin?.status).to.equal(403);
    expect(origin?.body).to.contain('browser Origin').and.not.to.contain(token);
    const host = await request(port, `/cdp/${token}/json/version`, { headers: { host: `evil.example:${port}` } });
    expect(host?.status).to.equal(403);
    expect(host?.body).to.contain('DNS-rebinding');
    expect(
      (await upgradeRefusal(`ws://127.0.0.1:${port}/cdp/${token}/devtools/browser/x`, { origin: 'https://evil.example' }))?.status,
    ).to.equal(403);
    expect(
      (await upgradeRefusal(`ws://127.0.0.1:${port}/cdp/${token}/devtools/browser/x`, { host: `evil.example:${port}` }))?.status,
    ).to.equal(403);
    expect(StandInEmulator.all).to.have.length(0);
    // With the right token: GET only; tab changes go over the WebSocket.
    const post = await request(port, `/cdp/${token}/json/version`, { method: 'POST' });
    expect(post?.status).to.equal(405);
    for (const [p, method] of [
      ['/json/new?about:blank', 'PUT'],
      ['/json/close/A1B2C3', 'GET'],
      ['/json/activate/A1B2C3', 'GET'],
    ] as const) {
      const r = await request(port, `/cdp/${token}${p}`, { method });
      expect(r?.status, p).to.equal(405);
      expect((r?.json as { error: string }).error).to.match(/Target\.(createTarget|closeTarget|activateTarget)/);
    }
    const unknown = await request(port, `/cdp/${token}/nothing`);
    expect(unknown?.status).to.equal(404);
    expect((await upgradeRefusal(`ws://127.0.0.1:${port}/cdp/${token}/json/version`))?.status).to.equal(404);
    for (const l of lines) expect(l).not.to.contain(token).and.not.to.contain(revoked);
  });

  it('serves loopback peers only, even on a bridge bound to every interface with --allow-remote', async function () {
    const lan = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4')?.address;
    if (!lan) this.skip();
    await start({ host: '0.0.0.0', allowRemote: true });
    const r = await fetch(`http://${lan}:${bridge.port}/cdp/${token}/json/version`);
    expect(r.status).to.equal(403);
    expect(((await r.json()) as { error: string }).error).to.contain('this machine only (loopback)');
    expect((await upgradeRefusal(`ws://${lan}:${bridge.port}/cdp/${token}/devtools/browser`))?.status).to.equal(403);
    expect((await fetch(`${base}/json/version`)).status).to.equal(200);
  });

  it('slows wrong tokens through the failure gate and summarises them, while the right token is answered at once', async () => {
    await start({ maxAuthFailures: 2, authFailureIntervalMs: 300, maxPendingAuthFailures: 50, authFailureLogWindowMs: 1500 });
    const wrongs = Array.from({ length: 8 }, (_, i) => `cdp_${String(i).repeat(43)}`);
    const started = Date.now();
    const answers = wrongs.map((w) => request(bridge.port, `/cdp/${w}/json/version`).then((r) => ({ r, at: Date.now() - started })));
    await sleep(50);
    const t0 = Date.now();
    const right = await request(bridge.port, `/cdp/${token}/json/version`);
    const rightMs = Date.now() - t0;
    expect(right?.status).to.equal(200);
    expect(rightMs).to.be.below(250);
    const done = await Promise.all(answers);
    // 2 at once, then one per 300 ms: the eighth is answered no sooner than ~1.8 s.
    expect(done.every((d) => d.r?.status === 404)).to.equal(true);
    expect(Math.max(...done.map((d) => d.at))).to.be.above(1500);
    await until(() => lines.some((l) => /CDP URL token: \d+ wrong tries in the last 2 s/.test(l)), 4000, 'the summary line');
    const warns = lines.filter((l) => / WARN /.test(l) && /cdp|CDP/.test(l));
    expect(warns).to.have.length(2); // the first in full, then one summary
    expect(warns[1], warns.join('\n')).to.match(/8 wrong tries .* answered \d+ \(at most 2 at once/);
    for (const l of lines) for (const w of [token, ...wrongs]) expect(l).not.to.contain(w);
  });

  it('tells the side panel (cdp_clients): on connect, on a new URL, with live stats; never a token or its hash', async () => {
    await start();
    const ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    const first = (await ext.next((m) => m.type === 'cdp_clients')) as CdpClientsMessage;
    expect(first.clients.map((c) => [c.name, c.max_tabs, c.connections.length])).to.deep.equal([['pw', 4, 0]]);
    // A URL made by the CLI while the bridge runs reaches the panel within a poll.
    const bu = mintCdpClient(dir, { name: 'bu', maxTabs: 2 }).token;
    const added = (await ext.next((m) => m.type === 'cdp_clients' && m.clients.length === 2)) as CdpClientsMessage;
    expect(added.clients.map((c) => c.name)).to.deep.equal(['pw', 'bu']);
    const c = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/x`);
    await c.call('Runtime.evaluate', 1);
    const busy = (await ext.next(
      (m) => m.type === 'cdp_clients' && m.clients[0]?.connections[0]?.last_method === 'Runtime.evaluate',
    )) as CdpClientsMessage;
    const conn = busy.clients[0]?.connections[0];
    expect(conn?.tab_ids).to.deep.equal([7]);
    expect(conn?.session_id).to.be.a('string');
    expect(conn?.commands_per_s).to.be.above(0);
    const status = bridge.status()['cdp_clients'] as Record<string, { max_tabs: number; connections: unknown[] }>;
    expect(status['pw']?.max_tabs).to.equal(4);
    expect(status['pw']?.connections).to.have.length(1);
    const seen = [
      JSON.stringify(ext.received),
      JSON.stringify(first),
      JSON.stringify(added),
      JSON.stringify(busy),
      JSON.stringify(bridge.status()),
      ...lines,
    ].join('\n');
    for (const t of [token, bu]) {
      expect(seen).not.to.contain(t);
      expect(seen).not.to.contain(sha256Hex(t));
    }
    // Stats are sent at most once a second.
    const count = () => ext.received.filter((m: ProtocolMessage) => m.type === 'cdp_clients').length;
    const before = count();
    for (let i = 2; i < 40; i++) await c.call('Runtime.evaluate', i);
    await sleep(600);
    expect(count() - before).to.be.at.most(2);
    c.ws.close();
    ext.close();
  });

  it('revoking in the side panel closes live connections (1008) and answers with the list; an unknown name names the existing ones', async () => {
    await start();
    const ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    await ext.next((m) => m.type === 'cdp_clients');
    const c = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/x`);
    await c.call('Page.enable', 1);
    ext.send({ type: 'cdp_client_control', request_id: 'r-unknown', op: 'revoke', name: 'nope' });
    const err = await ext.next((m) => m.type === 'error');
    expect(err.type === 'error' && err.error_info.error_code).to.equal('CONNECTOR_NOT_FOUND');
    expect(err.type === 'error' && err.error_info.message)
      .to.contain('"nope"')
      .and.to.contain('pw');
    ext.send({ type: 'cdp_client_control', request_id: 'r1', op: 'revoke', name: 'pw' });
    const reply = (await ext.next((m) => m.type === 'cdp_clients' && m.request_id === 'r1')) as CdpClientsMessage;
    expect(reply.clients).to.deep.equal([]);
    const closed = await c.closed;
    expect(closed.code).to.equal(1008);
    expect(closed.reason).to.contain('revoked');
    await until(() => StandInEmulator.all[0]?.disposed !== null, 3000, 'dispose');
    expect((await request(bridge.port, `/cdp/${token}/json/version`))?.status).to.equal(404);
    expect(listCdpClients(dir)).to.deep.equal([]);
    ext.close();
  });

  it("the person's Disconnect stops the URL: refused with the reason (HTTP and upgrade), across a restart, until Allow again or a new URL", async () => {
    await start();
    const ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    await ext.next((m) => m.type === 'cdp_clients');
    const c = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/x`);
    const second = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/y`);
    await c.call('Page.enable', 1);
    const sid = StandInEmulator.all[0]?.o.agent.sessionId ?? '';
    ext.send({ type: 'session_control', command: 'disconnect', session_id: sid });
    // The URL's other connection ends with the reason; the stopped one is the emulator's to answer.
    const closed = await second.closed;
    expect(closed.code).to.equal(1008);
    expect(closed.reason).to.contain('the person stopped');
    const listed = (await ext.next((m) => m.type === 'cdp_clients' && m.clients[0]?.stopped_at !== null)) as CdpClientsMessage;
    expect(listed.clients[0]?.stopped_at).to.be.a('string');
    const refusedAgain = async () => {
      const http = await request(bridge.port, `/cdp/${token}/json/version`);
      expect(http?.status).to.equal(403);
      const body = http?.json as { error: string; webSocketDebuggerUrl: string };
      expect(body.error)
        .to.contain('The person stopped the client of the CDP URL "pw"')
        .and.contain('until the person allows it again in the browser-use-ext side panel')
        .and.contain('browser-use-ext cdp-url --name pw');
      // The WebSocket (where browser_use goes whatever the status) ends at once with a reason clients print.
      const ws = await connect(body.webSocketDebuggerUrl);
      const end = await ws.closed;
      expect(end.code).to.equal(1008);
      expect(end.reason).to.contain('the person stopped this client: "Allow again" in the side panel, or make a new URL');
    };
    await refusedAgain();
    expect(listCdpClients(dir)[0]?.stopped_at).to.be.a('string');
    // The stopped connection itself ends too, a moment later (browser_use 0.13 goes on while its socket is open).
    const stoppedEnd = await c.closed;
    expect(stoppedEnd.code).to.equal(1008);
    expect(stoppedEnd.reason).to.contain('the person stopped this client');
    ext.close();
    // A restart keeps the mark: it lives in cdp-clients.json.
    await bridge.close();
    await start();
    await refusedAgain();
    const ext2 = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    await ext2.next((m) => m.type === 'cdp_clients');
    ext2.send({ type: 'cdp_client_control', request_id: 'a1', op: 'allow', name: 'pw' });
    const allowed = (await ext2.next((m) => m.type === 'cdp_clients' && m.request_id === 'a1')) as CdpClientsMessage;
    expect(allowed.clients[0]?.stopped_at).to.equal(null);
    const again = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/x`);
    expect((await again.call('Page.enable', 1))['result']).to.deep.equal({});
    again.ws.close();
    ext2.close();
    // Stopped again, then a new URL of the name: the new one works at once.
    setCdpClientStopped(dir, 'pw', new Date());
    expect((await request(bridge.port, `/cdp/${token}/json/version`))?.status).to.equal(403);
    const fresh = mintCdpClient(dir, { name: 'pw' }).token;
    expect((await request(bridge.port, `/cdp/${fresh}/json/version`))?.status).to.equal(200);
  });

  it('a URL revoked or replaced by the CLI disconnects its clients within a poll, without a restart', async () => {
    await start();
    const c = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/x`);
    const fresh = mintCdpClient(dir, { name: 'pw' }).token; // replaces it
    const closed = await c.closed;
    expect(closed.code).to.equal(1008);
    expect(closed.reason).to.contain('revoked or replaced');
    const c2 = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${fresh}/devtools/browser/x`);
    revokeCdpClient(dir, 'pw');
    expect((await c2.closed).code).to.equal(1008);
  });

  it('refuses the upgrade with the reason when the bridge cannot open an agent session for it (session cap)', async () => {
    await start({ maxAgentSessions: 1 });
    const other = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret, reconnect: false });
    // puppeteer's browserWSEndpoint as cdp-url prints it: no browser id.
    const r = await upgradeRefusal(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser`);
    expect(r?.status).to.equal(503);
    expect(r?.body).to.contain('could not open an agent session').and.to.contain('--max-agent-sessions');
    expect(StandInEmulator.all).to.have.length(0);
    await other.close();
    await until(() => (bridge.status()['sessions'] as unknown[]).length === 0, 3000, 'the other session to end');
    const c = await connect(`ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser`);
    expect(StandInEmulator.all[0]?.o.target).to.deep.equal({ kind: 'browser' });
    c.ws.close();
  });

  it('caps connections per URL with a refusal that says why', async () => {
    await start({ cdp: { pollMs: 100, maxConnectionsPerUrl: 2 } });
    const url = `ws://127.0.0.1:${bridge.port}/cdp/${token}/devtools/browser/x`;
    const a = await connect(url);
    const b = await connect(url);
    const third = await upgradeRefusal(url);
    expect(third?.status).to.equal(429);
    expect(third?.body).to.contain('already has 2 open connections, its cap is 2');
    a.ws.close();
    await a.closed;
    await until(() => StandInEmulator.all[0]?.disposed !== null, 3000, 'dispose');
    const d = await connect(url);
    d.ws.close();
    b.ws.close();
  });
});
