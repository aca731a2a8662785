// The real product: Chromium with the built extension, the CLI bridge in its own process, killed
// with SIGKILL while a click waits for the page to settle, restarted on the same port. The agent
// client re-sends the unanswered click with the same action_id; the page must see one click.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { AgentClient } from '../../bridge/client/agent-client';
import { SESSIONS_FILE } from '../../bridge/src/session-store';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';

const CLI = path.join(REPO_ROOT, 'bridge', 'cli', 'main.ts');

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

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
    const port = h.bridge.port;
    await h.bridge.close(); // the in-process bridge goes; the CLI bridge takes its port
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
});
