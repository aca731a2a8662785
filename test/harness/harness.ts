// The real setup, reusable by the test suite, benchmarks, the Python shim's tests and people:
// the bridge on a free port, a fixture HTTP server, and Chromium with the built extension that
// connects to the bridge. `connectAgent()` returns a typed agent client.
import type { Page } from 'puppeteer-core';
import { AgentClient } from '../../bridge/src/client/agent-client';
import { createLogger, type LogLevel } from '../../bridge/src/log';
import { BridgeServer } from '../../bridge/src/server';
import { launchWithExtension, type LaunchedBrowser } from './browser';
import { FixtureServer } from './fixture-server';

export interface HarnessOptions {
  /** Directory served by the fixture server besides inline routes. */
  fixturesDir?: string;
  logLevel?: LogLevel;
  bridgePort?: number;
  fixturesPort?: number;
}

export interface Harness {
  bridge: BridgeServer;
  fixtures: FixtureServer;
  launched: LaunchedBrowser;
  connectAgent(options?: { capabilities?: string[] }): Promise<AgentClient>;
  /** Opens a tab at url, brings it to the front (the default target of actions) and waits for load. */
  openPage(url: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const bridge = new BridgeServer({ port: options.bridgePort ?? 0, logger: createLogger(options.logLevel ?? (process.env['BUX_LOG'] as LogLevel | undefined) ?? 'warn') });
  await bridge.start();
  const fixtures = await new FixtureServer(options.fixturesDir).start(options.fixturesPort ?? 0);
  const extensionUp = bridge.waitForExtension(20_000);
  let launched: LaunchedBrowser;
  try {
    launched = await launchWithExtension({ extensionBridgeUrl: bridge.extensionUrl });
  } catch (e) {
    extensionUp.catch(() => undefined);
    await Promise.all([bridge.close(), fixtures.close()]);
    throw e;
  }
  try {
    await extensionUp;
  } catch (e) {
    await Promise.all([launched.close(), bridge.close(), fixtures.close()]);
    throw e;
  }
  const agents: AgentClient[] = [];
  return {
    bridge,
    fixtures,
    launched,
    async connectAgent(o = {}) {
      const agent = await AgentClient.connect({ url: bridge.agentUrl, capabilities: o.capabilities ?? [] });
      agents.push(agent);
      return agent;
    },
    async openPage(url: string) {
      const page = await launched.browser.newPage();
      await page.goto(url, { waitUntil: 'load' });
      await page.bringToFront();
      return page;
    },
    async close() {
      await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
      await launched.close();
      await Promise.all([bridge.close(), fixtures.close()]);
    },
  };
}
