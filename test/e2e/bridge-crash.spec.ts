// The real product: Chromium with the built extension, the CLI bridge in its own process, killed
// with SIGKILL while a click waits for the page to settle, restarted on the same port. The agent
// client re-sends the unanswered click with the same action_id; the page must see one click.
// A CDP client's tab is not held by its dead session after such a restart: the debugger leaves the
// tab within 10 s, and the client reconnecting with its URL gets the tab back.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';
import WebSocket from 'ws';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { AgentClient } from '../../bridge/client/agent-client';
import { SESSIONS_FILE } from '../../bridge/src/session-store';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { debuggerAttached } from './worker-actions.helpers';

const CLI = path.join(REPO_ROOT, 'bridge', 'cli', 'main.ts');

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A raw CDP client: one command at a time, answered by id. */
async function rawCdp(url: string): Promise<{ ws: WebSocket; send: (method: string) => Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(url);
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let id = 0;
  return {
    ws,
    send: (method) => {
      const mine = ++id;
      return new Promise((resolve) => {
        const on = (d: Buffer) => {
          const m = JSON.parse(d.toString()) as { id?: number; result?: Record<string, unknown> };
          if (m.id !== mine) return;
          ws.off('message', on);
          resolve(m.result ?? {});
        };
        ws.on('message', on);
        ws.send(JSON.stringify({ id: mine, method }));
      });
    },
  };
}

/** The tab sits in an agent's tab group: the extension got the bridge's lease of it (controlled-tabs.ts). */
async function inAgentGroup(h: Harness, tabId: number): Promise<boolean> {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
  const w = await target.worker();
  if (!w) throw new Error('no extension service worker');
  return w.evaluate(async (id) => {
    const tabs = (globalThis as unknown as { chrome: { tabs: { get(id: number): Promise<{ groupId: number }> } } }).chrome.tabs;
    return (await tabs.get(id)).groupId !== -1;
  }, tabId);
}

const pageTargets = (r: Record<string, unknown>) =>
  (r['targetInfos'] as { targetId: string; type: string }[]).filter((t) => t.type === 'page').map((t) => t.targetId);

describe('bridge killed mid-click (real Chromium, SIGKILL): the click runs once', function () {
  this.timeout(120_000);
  let h: Harness;
  let child: ChildProcess | null = null;
  let client: AgentClient | null = null;

  /** The CLI bridge on the harness's port and config dir (its secrets; sessions.json and the journal there). */
  const startCli = async (port: number) => {
    const c = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'bridge', '--port', String(port), '--config-dir', h.configDir, '--log-level', 'warn'],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    c.stdout?.on('data', (d) => (out += d));
    c.stderr?.on('data', () => undefined);
    child = c;
    await waitFor(() => out.includes('/agent'));
    // The extension reconnects by itself (same port, same secret).
    await waitFor(async () => {
      const status = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as { extension?: { connected?: boolean } };
      return status.extension?.connected === true;
    });
  };
  const kill = async () => {
    const c = child;
    if (!c) return;
    child = null;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };

  let inProcessClosed = false;
  /** The in-process bridge goes (once); the CLI bridge takes its port. */
  const takeOverPort = async (): Promise<number> => {
    const port = h.bridge.port;
    if (!inProcessClosed) await h.bridge.close();
    inProcessClosed = true;
    return port;
  };

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await kill();
    await h.close();
  });

  it('the re-sent click is answered "outcome unknown" and the page counts one click', async () => {
    // A click that starts a slow request: the extension waits for the page to settle (no fetch in flight).
    h.fixtures.route('/slow', { body: '{}', contentType: 'application/json', delayMs: 8000 });
    const url = h.fixtures.html(
      '/counter',
      `<button id="b" onclick="window.clicks = (window.clicks || 0) + 1; document.getElementById('n').textContent = String(window.clicks); fetch('/slow')">Count</button><p id="n">0</p>`,
    );
    const port = await takeOverPort();
    await startCli(port);
    const page = await h.openPage(url);
    client = await AgentClient.connect({ url: `ws://127.0.0.1:${port}/agent`, secret: h.secrets.agent_secret, reconnectMaxDelayMs: 300 });
    const session = client.sessionId as string;
    await waitFor(
      () =>
        fs.existsSync(path.join(h.configDir, SESSIONS_FILE)) &&
        fs.readFileSync(path.join(h.configDir, SESSIONS_FILE), 'utf8').includes(`"${session}"`),
    );

    const click = client.call('click', { selector: '#b' }, { actionId: 'count-1', timeoutMs: 30_000 });
    await waitFor(async () => (await page.evaluate(() => (window as unknown as { clicks?: number }).clicks ?? 0)) === 1, 10_000);
    await kill(); // the click happened; its answer is still waiting for the slow request

    await startCli(port);
    const r = await click;
    expect(client.hello?.resumed).to.equal(true);
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('EXTENSION_DISCONNECTED');
    expect(r.error_info?.details).to.deep.equal({ reason: 'outcome_unknown_after_bridge_restart' });
    await new Promise((res) => setTimeout(res, 1000));
    expect(await page.evaluate(() => (window as unknown as { clicks?: number }).clicks)).to.equal(1);
  });

  it("a CDP client's tab is free within 10 s of a restart after SIGKILL, and the client reconnecting with its URL gets it back", async () => {
    const port = await takeOverPort();
    const { url } = mintCdpClient(h.configDir, { name: 'crashy', maxTabs: 2 });
    if (!child) await startCli(port);
    const page = await h.openPage(h.fixtures.html('/held', '<title>Held</title><p>held by a CDP client</p>'));
    await page.bringToFront();
    const version = (await (await fetch(`${url(port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const first = await rawCdp(version.webSocketDebuggerUrl);
    const [held] = pageTargets(await first.send('Target.getTargets'));
    expect(held, 'the client got the active tab').to.be.a('string');
    const status = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as {
      sessions: { client: { name: string } | null; tabs: { tab_id: number }[] }[];
    };
    const tabId = status.sessions.find((s) => s.client?.name === 'cdp:crashy')?.tabs[0]?.tab_id as number;
    expect(await debuggerAttached(h, tabId)).to.equal(true);
    // The extension has the lease (the tab sits in the client's group), and an old bridge saved it,
    // as for a client that has worked a while.
    await waitFor(() => inAgentGroup(h, tabId), 10_000);

    await kill();
    await startCli(port);
    const restarted = Date.now();
    await waitFor(async () => !(await debuggerAttached(h, tabId)), 10_000);
    const freedMs = Date.now() - restarted;
    console.log(`      tab free ${freedMs} ms after the restarted bridge took the extension back`);

    const again = await rawCdp(version.webSocketDebuggerUrl);
    const asked = Date.now();
    expect(pageTargets(await again.send('Target.getTargets'))).to.deep.equal([held]);
    expect(Date.now() - asked).to.be.below(2_000);
    expect(await debuggerAttached(h, tabId)).to.equal(true);
    again.ws.close();
    first.ws.terminate();
  });
});
