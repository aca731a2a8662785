// Agents that recover from a rotated secret and stop on a wrong one. The agent secret may change
// under a running agent (the bridge's secrets.json deleted and made again, then the bridge
// restarted): the client reads the secret again once and comes back with the new one. A secret
// the bridge refuses also after that re-read ends the client with one line that says what to check,
// with no retry loop (retrying the same secret cannot help). Real bridges on loopback, restarted on
// the same port; the test counts the connection attempts each one receives.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { AgentClient, type BridgeClientError } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import { newSecret, type Secrets, SECRETS_FILE } from '../../bridge/common/secrets';
import type { BridgeServer } from '../../bridge/src/server';
import { REPO_ROOT } from '../harness/browser';

const REFUSED_LINE =
  /^The bridge at \S+ refused this agent's secret[.:][^\n]* Check BROWSER_USE_EXT_AGENT_SECRET or the bridge's secrets\.json \(run `browser-use-ext bridge --print-pairing`\), then start the agent again\.$/;

/** Counts the WebSocket upgrades a bridge receives (its HTTP server is private: the test looks in). */
function countUpgrades(b: BridgeServer, counter: { n: number }): void {
  (b as unknown as { http: http.Server }).http.on('upgrade', () => counter.n++);
}

describe('agents recover from a rotated secret and stop on a wrong one', function () {
  this.timeout(60_000);
  let dir: string;
  let bridge: BridgeServer | null = null;
  let port = 0;
  const attempts = { n: 0 };
  const saved = { dir: process.env['BROWSER_USE_EXT_CONFIG_DIR'], secret: process.env['BROWSER_USE_EXT_AGENT_SECRET'] };
  const clients: AgentClient[] = [];

  const writeSecrets = (s: Secrets) => fs.writeFileSync(path.join(dir, SECRETS_FILE), JSON.stringify(s), { mode: 0o600 });
  const startBridge = async (secrets: Secrets) => {
    bridge = createBridge({ port, secrets, configDir: dir, logger: createLogger('silent') });
    await bridge.start();
    port = bridge.port;
    countUpgrades(bridge, attempts);
    return bridge;
  };
  const agentUrl = () => `ws://127.0.0.1:${port}/agent`;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-secret-'));
    // The client reads the secret the way an installed agent does: the config dir's secrets.json.
    process.env['BROWSER_USE_EXT_CONFIG_DIR'] = dir;
    delete process.env['BROWSER_USE_EXT_AGENT_SECRET'];
    port = 0;
    attempts.n = 0;
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    await bridge?.close();
    bridge = null;
    for (const [k, v] of [
      ['BROWSER_USE_EXT_CONFIG_DIR', saved.dir],
      ['BROWSER_USE_EXT_AGENT_SECRET', saved.secret],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a connected agent comes back with the new secret after secrets.json was rotated and the bridge restarted', async () => {
    const first: Secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
    writeSecrets(first);
    await startBridge(first);
    const client = await AgentClient.connect({ url: agentUrl(), reconnectMaxDelayMs: 200 });
    clients.push(client);
    const sessionBefore = client.sessionId;

    await bridge?.close();
    const rotated: Secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
    writeSecrets(rotated);
    const back = new Promise<void>((resolve, reject) => {
      client.once('reconnected', () => resolve());
      client.once('ended', (e: BridgeClientError) => reject(e));
    });
    await startBridge(rotated);
    await back;
    expect(client.ended).to.equal(null);
    // The new bridge lists the agent's session as connected.
    const status = await (await fetch(`http://127.0.0.1:${port}/status`)).text();
    expect(client.sessionId).to.be.a('string');
    expect(status).to.contain(client.sessionId ?? '-');
    expect(sessionBefore).to.be.a('string');
  });

  it('a refused secret that did not change ends the agent with one line and no retry loop', async () => {
    const first: Secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
    writeSecrets(first);
    await startBridge(first);
    const client = await AgentClient.connect({ url: agentUrl(), reconnectMaxDelayMs: 200 });
    clients.push(client);

    await bridge?.close();
    // The bridge comes back with other secrets; the file the agent reads still has the old one.
    const ended = new Promise<BridgeClientError>((resolve) => client.once('ended', resolve));
    await startBridge({ extension_secret: newSecret(), agent_secret: newSecret() });
    const e = await ended;
    expect(e.code).to.equal('UNAUTHORIZED');
    expect(e.message).to.match(REFUSED_LINE);
    expect(e.message).to.contain(
      "Check BROWSER_USE_EXT_AGENT_SECRET or the bridge's secrets.json (run `browser-use-ext bridge --print-pairing`)",
    );
    expect(e.message).not.to.contain('\n');
    const seen = attempts.n;
    await new Promise((r) => setTimeout(r, 1500)); // seven reconnect periods of 200 ms
    expect(attempts.n, 'no further connection attempts').to.equal(seen);
    // Every later call fails at once with the same line.
    let later = '';
    await client.call('list_tabs', {}).catch((err: unknown) => (later = (err as Error).message));
    expect(later).to.equal(e.message);
  });

  it('an agent started with a wrong secret exits with the one line (browser-use-ext agent), after one connection', async () => {
    const secrets: Secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
    writeSecrets(secrets);
    await startBridge(secrets);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'bridge/cli/main.ts'), 'agent', '--bridge-url', agentUrl()],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, BROWSER_USE_EXT_AGENT_SECRET: newSecret(), OPENAI_API_KEY: 'sk-test' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).to.equal(1);
    const lines = err.trim().split('\n');
    expect(lines, err).to.have.length(1);
    expect(lines[0]).to.match(REFUSED_LINE);
    expect(attempts.n, 'the secret did not change on the re-read: no second try').to.equal(1);
  });
});
