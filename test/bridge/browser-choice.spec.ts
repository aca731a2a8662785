// Agents choose one of the person's browsers by name: --browser beats $BROWSER_USE_EXT_BROWSER; the
// TypeScript client sends hello.browser_name and keeps the bridge's answer (hello_ack.browser/browsers,
// extension_status.browser); a CDP URL made for a browser keeps its name in cdp-clients.json, its
// session asks for that browser, and its /json/version names that browser's product and user agent;
// `browser-use-ext status` prints the bridge's browsers and sessions. The bridge here is a scripted
// stand-in that speaks the real handshake (the bridge's own choice of browser has its own tests).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import WebSocket, { WebSocketServer } from 'ws';

import { listCdpClients, mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { type CdpEmulator, type CdpEmulatorOptions, CdpEndpoint } from '../../bridge/agents/cdp/cdp-endpoint';
import { McpTokenStore } from '../../bridge/agents/mcp/tokens';
import { browserLine } from '../../bridge/cli/browser-line';
import { browserChoice } from '../../bridge/cli/shared-options';
import { renderStatus, statusCommand } from '../../bridge/cli/status';
import { AgentClient } from '../../bridge/client/agent-client';
import { bridgeProof, newNonce } from '../../bridge/common/auth';
import { cli } from '../../bridge/common/cli-invocation';
import { createLogger } from '../../bridge/common/log';
import type { BrowserInfo, HelloAckMessage, HelloMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';

const SECRET = 'browser-choice-test-secret-0123456789abcdef';
const UA = (v: string) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v} Safari/537.36`;
const WORK: BrowserInfo = {
  browser_id: 'work-profile-1',
  name: 'Work',
  brand: 'Google Chrome',
  connected: true,
  product: 'Chrome/144.0.7559.3',
  user_agent: UA('144.0.0.0'),
  last_focused_at: 1000,
};
const HOME: BrowserInfo = {
  browser_id: 'home-profile-2',
  name: 'Home',
  brand: 'Brave',
  connected: true,
  product: 'Chrome/143.0.7499.1',
  user_agent: UA('143.0.0.0'),
  last_focused_at: 2000,
};

/** A bridge stand-in: the agent handshake (its proof checked by the client), then hello_ack as `ack` says. */
async function fakeBridge(ack: (hello: HelloMessage) => Partial<HelloAckMessage>) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const hellos: HelloMessage[] = [];
  const sockets: WebSocket[] = [];
  wss.on('connection', (ws) => {
    sockets.push(ws);
    ws.once('message', (d) => {
      const hello = JSON.parse(d.toString()) as HelloMessage;
      hellos.push(hello);
      ws.send(JSON.stringify({ type: 'auth_challenge', nonce: newNonce(), bridge_proof: bridgeProof(SECRET, hello.client_nonce ?? '') }));
      ws.once('message', () => {
        const answer = ack(hello);
        ws.send(
          JSON.stringify({
            type: 'hello_ack',
            protocol_version: PROTOCOL_VERSION,
            bridge: { name: 'stand-in', version: '0' },
            session_id: `s${hellos.length}`,
            session_token: 'tok_0123456789abcdef',
            extension_connected: true,
            ...answer,
          }),
        );
      });
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/agent`,
    hellos,
    sockets,
    close: () => {
      for (const s of sockets) s.terminate();
      return new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

/** The bridge's rule as the stand-in plays it: the browser named (any case), else the one focused last. */
function choose(hello: HelloMessage): Partial<HelloAckMessage> {
  const all = [WORK, HOME];
  const named = hello.browser_name;
  const chosen = named === undefined ? HOME : all.find((b) => b.name.toLowerCase() === named.toLowerCase());
  return { browsers: all, ...(chosen ? { browser: chosen } : {}) };
}

describe('agents choose a browser by name', function () {
  this.timeout(30_000);

  it('--browser wins over $BROWSER_USE_EXT_BROWSER, a blank variable is unset, and a name no browser can have is one line', () => {
    const env = { BROWSER_USE_EXT_BROWSER: 'Home' };
    expect(browserChoice({ browser: 'Work' }, env)).to.deep.equal({ ok: true, name: 'Work' });
    expect(browserChoice({}, env)).to.deep.equal({ ok: true, name: 'Home' });
    expect(browserChoice({}, { BROWSER_USE_EXT_BROWSER: '  ' })).to.deep.equal({ ok: true, name: undefined });
    expect(browserChoice({}, {})).to.deep.equal({ ok: true, name: undefined });
    const empty = browserChoice({ browser: '' }, env);
    expect(empty.ok).to.equal(false);
    expect(!empty.ok && empty.line).to.match(/^--browser must be a browser's name as its side panel shows it .*, got ""\.$/);
    const long = browserChoice({}, { BROWSER_USE_EXT_BROWSER: 'x'.repeat(65) });
    expect(!long.ok && long.line).to.match(/^\$BROWSER_USE_EXT_BROWSER must be/);
    expect(browserChoice({ browser: 'Work\u0007' }, {}).ok).to.equal(false);
  });

  it('the client sends browser_name and keeps the chosen browser; another session of it works in the same one', async () => {
    const bridge = await fakeBridge(choose);
    try {
      const named = await AgentClient.connect({ url: bridge.url, secret: SECRET, browser: 'work', reconnect: false });
      expect(bridge.hellos[0]?.browser_name).to.equal('work');
      expect(named.browser?.name).to.equal('Work');
      expect(named.browsers.map((b) => b.name)).to.deep.equal(['Work', 'Home']);
      const task = await named.connectAnother({ clientName: 'task' });
      expect(bridge.hellos[1]?.browser_name).to.equal('Work');

      const unnamed = await AgentClient.connect({ url: bridge.url, secret: SECRET, reconnect: false });
      expect(bridge.hellos[2]).not.to.have.property('browser_name');
      expect(unnamed.browser?.name).to.equal('Home'); // the one the person used last, as the bridge said

      const missing = await AgentClient.connect({ url: bridge.url, secret: SECRET, browser: 'Personal', reconnect: false });
      expect(missing.browser).to.equal(undefined);
      // Bound later (the bridge's extension_status names the browser it now works in).
      const told = new Promise((r) => missing.once('extension_status', r));
      bridge.sockets[3]?.send(JSON.stringify({ type: 'extension_status', connected: true, message: 'back', browser: WORK }));
      await told;
      expect(missing.browser?.name).to.equal('Work');
      await Promise.all([named.close(), task.close(), unnamed.close(), missing.close()]);
    } finally {
      await bridge.close();
    }
  });

  it('an agent command says in one line which browser it works in, or which ones are connected', () => {
    expect(browserLine('work', WORK, [WORK, HOME])).to.equal(
      'Working in the browser "Work" (Google Chrome), as asked. Connected: "Work", "Home".',
    );
    expect(browserLine(undefined, HOME, [WORK, HOME])).to.match(/^Working in the browser "Home" \(Brave\), the one used last\./);
    expect(browserLine('Personal', undefined, [WORK, { ...HOME, connected: false }])).to.equal(
      'No browser named "Personal" is connected to the bridge. Connected: "Work". Name one of them (--browser / BROWSER_USE_EXT_BROWSER), ' +
        'or open the browser named "Personal" with the extension.',
    );
    expect(browserLine('Work', undefined, undefined)).to.equal(null); // a bridge that names no browsers
  });

  it('an MCP token made for a browser keeps its name; one made without has none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-mcp-browser-'));
    try {
      const store = new McpTokenStore(dir);
      const work = store.add('claude', 'Work');
      const any = store.add('cursor');
      expect(store.find(work)).to.include({ name: 'claude', browser: 'Work' });
      expect(store.find(any)).to.include({ name: 'cursor' }).and.not.to.have.property('browser');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('a CDP URL bound to a browser', () => {
    let dir: string;
    let server: http.Server;
    let endpoint: CdpEndpoint;
    let bridge: Awaited<ReturnType<typeof fakeBridge>>;
    let base: string;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-browser-'));
      bridge = await fakeBridge(choose);
      endpoint = new CdpEndpoint({
        configDir: dir,
        agentUrl: () => bridge.url,
        agentSecret: () => SECRET,
        checkHeaders: () => ({ ok: true }),
        sendToExtension: () => false,
        // The single extension's word of a bridge from before several browsers: must not be used here.
        extensionBrowser: () => ({ product: 'Chrome/1.0.0.0', user_agent: 'old' }),
        log: createLogger('silent'),
        emulator: (o: CdpEmulatorOptions): CdpEmulator => ({
          start: () => Promise.resolve(),
          handle: (text) => {
            const m = JSON.parse(text) as { id: number };
            o.socket.send(JSON.stringify({ id: m.id, result: { product: o.browser?.()?.product ?? 'none' } }));
          },
          dispose: () => o.agent.close(),
          targets: () => [],
          stats: () => ({ commands_per_s: 0, last_method: null, tab_ids: [], session_id: o.agent.sessionId }),
        }),
      });
      server = http.createServer((req, res) => endpoint.handle(req, res));
      server.on('upgrade', (req, socket, head) => endpoint.upgrade(req, socket, head));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await endpoint.close();
      await new Promise((r) => server.close(r));
      await bridge.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('keeps the name in cdp-clients.json (none for an unbound URL, as before) and asks for that browser', async () => {
      const work = mintCdpClient(dir, { name: 'bu013', browser: 'Work' });
      const any = mintCdpClient(dir, { name: 'pw' });
      const file = JSON.parse(fs.readFileSync(path.join(dir, 'cdp-clients.json'), 'utf8')) as { clients: Record<string, unknown>[] };
      expect(file.clients.map((c) => c['browser'])).to.deep.equal(['Work', undefined]);
      expect(listCdpClients(dir).map((r) => r.browser)).to.deep.equal(['Work', null]);

      // /json/version before any connection: the endpoint asks the bridge, as an agent does.
      const version = (await (await fetch(`${base}/cdp/${work.token}/json/version`)).json()) as Record<string, string>;
      expect(version['Browser']).to.equal(WORK.product);
      expect(version['User-Agent']).to.equal(WORK.user_agent);
      const unbound = (await (await fetch(`${base}/cdp/${any.token}/json/version`)).json()) as Record<string, string>;
      expect(unbound['Browser']).to.equal(HOME.product); // no --browser: the one the person used last

      const ws = new WebSocket(`${base.replace('http', 'ws')}/cdp/${work.token}/devtools/browser/x`);
      const answer = new Promise<Record<string, unknown>>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
      expect(((await answer)['result'] as { product: string }).product).to.equal(WORK.product);
      const sessionHello = bridge.hellos.find((h) => h.client.name === 'cdp:bu013');
      expect(sessionHello?.browser_name).to.equal('Work');
      ws.close();
    });
  });

  describe('browser-use-ext status', () => {
    const STATUS = {
      bridge: { version: '9.9.9' },
      extension: true,
      browsers: [
        { ...WORK, agents: 2, held_tabs: 3 },
        { ...HOME, connected: false, agents: 0, held_tabs: 0 },
      ],
      sessions: [
        { session_id: 'a1', connected: true, client: { name: 'browser-use', model: 'gpt-4o' }, tabs: [{ tab_id: 5 }], browser: 'Work' },
        { session_id: 'b2', connected: false, client: { name: 'cdp:pw' }, tabs: [] },
      ],
    };

    it('prints the browsers (name, brand, version, agents, held tabs) and each session with its browser', async () => {
      const srv = http.createServer((_req, res) => res.end(JSON.stringify(STATUS)));
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
      let out = '';
      let err = '';
      const io = { out: (s: string) => void (out += s), err: (s: string) => void (err += s) };
      try {
        expect(await statusCommand(['--bridge-url', url], io)).to.equal(0);
        expect(err).to.equal('');
        expect(out).to.equal(
          `Bridge 9.9.9 at ${url}\n\nBrowsers:\n` +
            `  NAME  BRAND          VERSION              AGENTS  HELD TABS  STATE\n` +
            `  Work  Google Chrome  Chrome/144.0.7559.3  2       3          connected\n` +
            `  Home  Brave          Chrome/143.0.7499.1  0       0          away\n` +
            `\nAgent sessions:\n` +
            `  SESSION  CLIENT                BROWSER     TABS  STATE\n` +
            `  a1       browser-use (gpt-4o)  Work        1     connected\n` +
            `  b2       cdp:pw                (none yet)  0     awaiting resume\n`,
        );
        out = '';
        expect(await statusCommand(['--json', '--bridge-url', url], io)).to.equal(0);
        expect(JSON.parse(out)).to.deep.equal(STATUS);
      } finally {
        await new Promise((r) => srv.close(r));
      }
      err = '';
      expect(await statusCommand(['--bridge-url', url], io)).to.equal(1);
      expect(err).to.equal(
        // In the form the CLI is typed where it runs (mocha, in a checkout: with npx).
        `No bridge answers at ${url}: start it with \`${cli('bridge')}\` (or name its address with --bridge-url).\n`,
      );
    });

    it('a bridge from before several browsers: says whether its one extension is connected', () => {
      const out = renderStatus({ bridge: { version: '1' }, extension: { connected: false }, sessions: [] }, 'http://h:1');
      expect(out).to.contain('no extension is connected (this bridge does not name browsers)');
      expect(out).to.contain('No agent sessions.');
    });
  });
});
