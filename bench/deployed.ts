// The setup as a person runs it, for benchmarks that time the agent's round trip: the bridge in its
// own process (the built CLI, `browser-use-ext bridge`), Chromium with the built extension, and the
// agent client in this process. The test harness (test/harness/harness.ts) runs the bridge inside
// the test process instead, which suits tests; in a benchmark that process also runs Playwright,
// puppeteer and the bench's own JSON work, and every state's 0.1-2 MB then waits on that one event
// loop twice (bridge and agent), a cost no deployment pays.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from 'puppeteer-core';

import { AgentClient } from '../bridge/client/agent-client';
import { loadOrCreateSecrets } from '../bridge/common/secrets';
import { type LaunchedBrowser, launchWithExtension, openTab, REPO_ROOT } from '../test/harness/browser';
import { freePort } from '../test/harness/free-port';

export interface DeployedSetup {
  launched: LaunchedBrowser;
  connectAgent(): Promise<AgentClient>;
  /** Opens a tab at url, brings it to the front (the default target of actions) and waits for load. */
  openPage(url: string): Promise<Page>;
  close(): Promise<void>;
}

const CLI = path.join(REPO_ROOT, 'dist', 'bridge', 'cli.js');

async function status(port: number): Promise<{ extension?: { connected?: boolean } } | null> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/status`);
    return r.ok ? ((await r.json()) as { extension?: { connected?: boolean } }) : null;
  } catch {
    return null;
  }
}

async function until(what: string, ms: number, check: () => Promise<boolean>, child: ChildProcess): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`the bridge process exited (code ${child.exitCode}) before ${what}`);
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen within ${ms / 1000} s`);
}

export async function startDeployedSetup(): Promise<DeployedSetup> {
  if (!fs.existsSync(CLI)) throw new Error(`No built bridge at ${CLI}. Run \`npm run build\` first.`);
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-bench-config-'));
  const { secrets } = loadOrCreateSecrets(configDir);
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'bridge', '--port', String(port), '--config-dir', configDir, '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stopChild = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stopChild); // a bench that throws still takes its bridge down
  let launched: LaunchedBrowser | undefined;
  try {
    await until('the bridge listening', 20_000, async () => (await status(port)) !== null, child);
    launched = await launchWithExtension({
      extensionBridgeUrl: `ws://127.0.0.1:${port}/extension`,
      extensionConfig: { extension_secret: secrets.extension_secret },
    });
    await until('the extension connecting to the bridge', 20_000, async () => (await status(port))?.extension?.connected === true, child);
  } catch (e) {
    await launched?.close();
    stopChild();
    fs.rmSync(configDir, { recursive: true, force: true });
    throw e;
  }
  const browser = launched;
  const agents: AgentClient[] = [];
  return {
    launched: browser,
    async connectAgent() {
      const agent = await AgentClient.connect({ url: `ws://127.0.0.1:${port}/agent`, secret: secrets.agent_secret, capabilities: [] });
      agents.push(agent);
      return agent;
    },
    openPage: (url: string) => openTab(browser.browser, url),
    async close() {
      await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
      await browser.close();
      const exited = new Promise((r) => child.once('exit', r));
      stopChild();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      process.removeListener('exit', stopChild);
      fs.rmSync(configDir, { recursive: true, force: true });
    },
  };
}
