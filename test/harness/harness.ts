// The real setup, reusable by the test suite, benchmarks, the Python shim's tests and people:
// the bridge on a free port, a fixture HTTP server, and Chromium with the built extension that
// connects to the bridge. `connectAgent()` returns a typed agent client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from 'puppeteer-core';

import { createBridge, type WiredBridgeOptions } from '../../bridge/cli/wire';
import { AgentClient, type AgentClientOptions } from '../../bridge/client/agent-client';
import { createLogger, type LogLevel } from '../../bridge/common/log';
import { loadOrCreateSecrets, type Secrets } from '../../bridge/common/secrets';
import type { BridgeServer } from '../../bridge/src/server';
import type { GetStateParams, SimplifiedState } from '../../schemas/generated/protocol';
import { type LaunchedBrowser, launchWithExtension, openTab } from './browser';
import { FixtureServer } from './fixture-server';

export interface HarnessOptions {
  /** Directory served by the fixture server besides inline routes. */
  fixturesDir?: string;
  logLevel?: LogLevel;
  bridgePort?: number;
  fixturesPort?: number;
  /** Extra BridgeServer options (timeouts, tab limit, ...). */
  bridgeOptions?: Omit<WiredBridgeOptions, 'port' | 'logger' | 'secrets'>;
  /** Another built extension to load (a bench comparing two builds in one run); default dist/extension. */
  extensionDir?: string;
}

export interface Harness {
  bridge: BridgeServer;
  fixtures: FixtureServer;
  launched: LaunchedBrowser;
  /** Temp config dir holding this run's fresh secrets.json (removed by close()). */
  configDir: string;
  secrets: Secrets;
  /** `browser`: the browser the agent works in, by the name the person gave it (hello.browser_name). */
  connectAgent(options?: { capabilities?: string[]; maxTabs?: number; browser?: string }): Promise<AgentClient>;
  /** Opens a tab at url, brings it to the front (the default target of actions) and waits for load. */
  openPage(url: string): Promise<Page>;
  /**
   * Stops the bridge (as its process exiting would: every connection closes, in-memory state goes)
   * and, with `start`, starts a new one on the same port with the same options and secrets, then
   * waits for the extension to reconnect to it. `bridge` names the new one. For the tests that a bridge restart is invisible to agents.
   */
  restartBridge(options?: { downMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // Fresh pairing secrets per run, in a temp config dir (never the user's real one).
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-config-'));
  const { secrets } = loadOrCreateSecrets(configDir);
  const logger = createLogger(options.logLevel ?? (process.env['BUX_LOG'] as LogLevel | undefined) ?? 'warn');
  // The CDP endpoint's URL list (cdp-url) lives in this run's config dir, never the person's.
  const bridge = createBridge({
    ...options.bridgeOptions,
    cdp: { configDir, ...options.bridgeOptions?.cdp },
    port: options.bridgePort ?? 0,
    secrets,
    logger,
  });
  await bridge.start();
  const removeConfig = () => fs.rmSync(configDir, { recursive: true, force: true });
  const fixtures = await new FixtureServer(options.fixturesDir).start(options.fixturesPort ?? 0);
  const extensionUp = bridge.waitForExtension(20_000);
  let launched: LaunchedBrowser;
  try {
    // The extension gets its pairing secret through config.json, as if pasted on the options page.
    launched = await launchWithExtension({
      extensionBridgeUrl: bridge.extensionUrl,
      extensionConfig: { extension_secret: secrets.extension_secret },
      ...(options.extensionDir === undefined ? {} : { extensionDir: options.extensionDir }),
    });
  } catch (e) {
    extensionUp.catch(() => undefined);
    await Promise.all([bridge.close(), fixtures.close()]);
    removeConfig();
    throw e;
  }
  try {
    await extensionUp;
  } catch (e) {
    await Promise.all([launched.close(), bridge.close(), fixtures.close()]);
    removeConfig();
    throw e;
  }
  const agents: AgentClient[] = [];
  const h: Harness = {
    bridge,
    fixtures,
    launched,
    configDir,
    secrets,
    async connectAgent(o = {}) {
      const connectOptions: AgentClientOptions & { browser?: string } = {
        url: bridge.agentUrl,
        secret: secrets.agent_secret,
        capabilities: o.capabilities ?? [],
        ...(o.maxTabs === undefined ? {} : { maxTabs: o.maxTabs }),
        ...(o.browser === undefined ? {} : { browser: o.browser }),
      };
      const agent = await AgentClient.connect(connectOptions);
      agents.push(agent);
      return agent;
    },
    async restartBridge(o = {}) {
      const port = h.bridge.port;
      await h.bridge.close();
      if (o.downMs) await new Promise((r) => setTimeout(r, o.downMs));
      const next = createBridge({ ...options.bridgeOptions, port, secrets, logger });
      await next.start();
      h.bridge = next;
      await next.waitForExtension(30_000);
    },
    openPage: (url: string) => openTab(launched.browser, url),
    async close() {
      await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
      await launched.close();
      await Promise.all([h.bridge.close(), fixtures.close()]);
      removeConfig();
    },
  };
  return h;
}

/**
 * One harness for the enclosing mocha `describe` (Chromium costs about a second and the CI machine
 * has 2 cores): started in before(), then `prepare(h)` (fixture routes, settings), handed to `use`;
 * `cleanup(h)` then close() in after().
 *   let h: Harness;
 *   useHarness((started) => (h = started), { prepare: quietSettle });
 */
export function useHarness(
  use: (h: Harness) => void,
  options: HarnessOptions & { prepare?: (h: Harness) => unknown; cleanup?: (h: Harness) => unknown } = {},
): void {
  const { prepare, cleanup, ...harnessOptions } = options;
  let h: Harness | undefined;
  before(async function () {
    this.timeout(60_000);
    h = await startHarness(harnessOptions);
    use(h);
    await prepare?.(h);
  });
  after(async () => {
    if (h && cleanup) await cleanup(h);
    await h?.close();
  });
}

/** What useAgentPage hands a file: its harness, one agent, that agent's tab, and get_state on it. */
export interface AgentPage {
  h: Harness;
  agent: AgentClient;
  /** The agent's tab, opened at a start page; each test navigates it to its fixture. */
  page: Page;
  /** The tab's id once a state has named it (the first state takes the active tab). */
  tabId: number | undefined;
  /** get_state on the agent's tab; throws with the error_info unless it succeeds. */
  state(params?: GetStateParams): Promise<SimplifiedState>;
}

/**
 * useHarness plus one agent and one tab at a start page, for a file whose tests each navigate that
 * tab and read its state:
 *   let t: AgentPage;
 *   useAgentPage((started) => (t = started));
 */
export function useAgentPage(use: (t: AgentPage) => void, options: HarnessOptions = {}): void {
  useHarness(() => undefined, {
    ...options,
    prepare: async (h) => {
      const agent = await h.connectAgent();
      const page = await h.openPage(h.fixtures.html('/start', '<p>start</p>'));
      const t: AgentPage = {
        h,
        agent,
        page,
        tabId: undefined,
        async state(params = {}) {
          const r = await agent.call('get_state', params, t.tabId === undefined ? {} : { tabId: t.tabId });
          if (r.status !== 'success' || !r.new_simplified_state) throw new Error(`get_state failed: ${JSON.stringify(r.error_info)}`);
          t.tabId = r.new_simplified_state.tab_id;
          return r.new_simplified_state;
        },
      };
      use(t);
    },
  });
}
