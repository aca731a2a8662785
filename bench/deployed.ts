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
import { until } from '../test/harness/until';

export interface DeployedSetup {
  launched: LaunchedBrowser;
  connectAgent(): Promise<AgentClient>;
  /** Opens a tab at url, brings it to the front (the default target of actions) and waits for load. */
  openPage(url: string): Promise<Page>;
  close(): Promise<void>;
}

const CLI = path.join(REPO_ROOT, 'dist', 'bridge', 'cli.js');

/** The part of the bridge's /status read here. */
interface BridgeStatus {
  extension?: { connected?: boolean };
}

async function status(port: number): Promise<BridgeStatus | null> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/status`);
    return r.ok ? ((await r.json()) as BridgeStatus) : null;
  } catch {
    return null;
  }
}

/** The bridge's /status once check() holds for it; stops at once if the bridge process has exited. */
function untilStatus(what: string, port: number, check: (s: BridgeStatus) => boolean, child: ChildProcess): Promise<BridgeStatus> {
  return until(what, 20_000, async () => {
    if (child.exitCode !== null) throw new Error(`the bridge process exited (code ${child.exitCode}) before ${what}`);
    const s = await status(port);
    return s !== null && check(s) && s;
  });
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
    await untilStatus('the bridge listening', port, () => true, child);
    launched = await launchWithExtension({
      extensionBridgeUrl: `ws://127.0.0.1:${port}/extension`,
      extensionConfig: { extension_secret: secrets.extension_secret },
    });
    await untilStatus('the extension connecting to the bridge', port, (s) => s.extension?.connected === true, child);
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
