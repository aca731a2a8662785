// The one place that builds a whole bridge: the relay core (bridge/src) with the services that
// live beside it, each an agent of the relay: MCP over Streamable HTTP at /mcp (agents/mcp), the
// side panel's seed 000/001 backend connectors (agents/connectors) and the CDP endpoint at /cdp/
// (agents/cdp). The CLI runs this; tests that need only the relay call createRelay. Every
// collaborator is built here, in dependency order, and handed to BridgeServer whole, so the server
// only routes (Playwright's server layer builds its dispatchers the same way: wiring apart from work).
import path from 'node:path';

import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { BrowserEmulator } from '../agents/cdp/browser-emulator';
import { type CdpEmulatorFactory, CdpEndpoint, type CdpEndpointOptions } from '../agents/cdp/cdp-endpoint';
import { CONNECTORS_FILE, PanelConnectors } from '../agents/connectors/panel-connectors';
import { McpHttpEndpoint, type McpHttpOptions } from '../agents/mcp/http-endpoint';
import { McpTokenStore } from '../agents/mcp/tokens';
import { EXTENSION_ID, extensionOrigin } from '../common/extension-id';
import { createLogger } from '../common/log';
import { BRIDGE_FRAME_MAX_BYTES } from '../common/message-limits';
import { DEFAULT_MAX_TABS, DEFAULT_PORT } from '../common/ports';
import {
  DEFAULT_FAILURE_BURST,
  DEFAULT_FAILURE_INTERVAL_MS,
  DEFAULT_FAILURE_MAX_PENDING,
  FailureGate,
  RefusalLog,
} from '../common/rate-limit';
import { configDir, newSecret } from '../common/secrets';
import { journalBeside } from '../src/action-journal';
import { AgentGateway } from '../src/agent-gateway';
import { describeSessions, pageOfSessions, SessionsPublisher } from '../src/agent-sessions';
import { BrowserRegistry, DEFAULT_BROWSER_ID } from '../src/browsers';
import { CdpClientsScope } from '../src/cdp-clients-scope';
import { DEFAULT_TIMEOUT_MS, ExtensionLink } from '../src/extension-link';
import { Handshake } from '../src/handshake';
import { PairingCodes } from '../src/pairing';
import { type BridgeOptions, BridgeServer, DEFAULT_MAX_AGENT_SESSIONS, type ResolvedOptions } from '../src/server';
import type { BridgeContext } from '../src/services';
import { DebouncedWriter, loadSessions, saveSessions } from '../src/session-store';
import { SessionRegistry } from '../src/sessions';
import { TaskRegistry } from '../src/tasks';

export interface WiredBridgeOptions extends Omit<BridgeOptions, 'services'> {
  /** Bearer tokens of MCP clients on /mcp (agents/mcp/tokens.ts). Default: mcp-tokens.json in the config dir. */
  mcpTokens?: McpTokenStore;
  /** Caps and idle expiry of MCP sessions on /mcp (agents/mcp/http-endpoint.ts has the defaults). */
  mcp?: Pick<McpHttpOptions, 'maxSessionsPerToken' | 'maxSessions' | 'idleMs' | 'evictIdleMs'>;
  /** What drives each CDP connection (agents/cdp/browser-emulator.ts); tests hand in a stand-in. */
  cdpEmulator?: CdpEmulatorFactory;
  /** Caps of the CDP endpoint (agents/cdp/cdp-endpoint.ts has the defaults), and where its URL list lives (default: the config dir). */
  cdp?: Partial<Pick<CdpEndpointOptions, 'maxConnectionsPerUrl' | 'pollMs' | 'configDir'>>;
}

export function createBridge(options: WiredBridgeOptions = {}): BridgeServer {
  const { mcpTokens, mcp, cdpEmulator, cdp, ...relay } = options;
  return createRelay({
    ...relay,
    services: {
      http: (ctx) => [
        new McpHttpEndpoint({
          tokens: mcpTokens ?? new McpTokenStore(configDir()),
          agentUrl: ctx.agentUrl,
          agentSecret: ctx.agentSecret,
          checkHeaders: ctx.checkAgentHeaders,
          log: ctx.log,
          ...mcp,
        }),
      ],
      connectors: (ctx) =>
        new PanelConnectors({
          logger: ctx.log,
          file: ctx.configDir ? path.join(ctx.configDir, CONNECTORS_FILE) : null,
          send: ctx.sendToExtension,
        }),
      cdp: (ctx) =>
        new CdpEndpoint({
          configDir: ctx.configDir ?? configDir(),
          agentUrl: ctx.agentUrl,
          agentSecret: ctx.agentSecret,
          // Each CDP connection's agent session reaches the relay in process, not over a loopback socket.
          agentLink: ctx.connectAgentInProcess,
          checkHeaders: ctx.checkAgentHeaders,
          sendToExtension: ctx.sendToExtension,
          extensionBrowser: ctx.extensionBrowser,
          log: ctx.log,
          emulator: cdpEmulator ?? ((o) => new BrowserEmulator(o)),
          // Wrong URL tokens are slowed like the bridge's other credentials, with the same settings.
          ...(relay.maxAuthFailures === undefined ? {} : { maxFailures: relay.maxAuthFailures }),
          ...(relay.authFailureIntervalMs === undefined ? {} : { failureIntervalMs: relay.authFailureIntervalMs }),
          ...(relay.maxPendingAuthFailures === undefined ? {} : { maxPendingFailures: relay.maxPendingAuthFailures }),
          ...(relay.authFailureLogWindowMs === undefined ? {} : { failureLogWindowMs: relay.authFailureLogWindowMs }),
          ...cdp,
        }),
    },
  });
}

/** Every option with its default. */
function resolveOptions(options: BridgeOptions): ResolvedOptions {
  return {
    host: options.host ?? '127.0.0.1',
    allowRemote: options.allowRemote ?? false,
    port: options.port ?? DEFAULT_PORT,
    defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    keepaliveMs: options.keepaliveMs ?? 20_000,
    maxPayloadBytes: options.maxPayloadBytes ?? BRIDGE_FRAME_MAX_BYTES,
    maxTabsPerSession: options.maxTabsPerSession ?? DEFAULT_MAX_TABS,
    sessionGraceMs: options.sessionGraceMs ?? 60_000,
    resultCacheSize: options.resultCacheSize ?? 256,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
    badMessageBudget: options.badMessageBudget ?? 20,
    maxAuthFailures: options.maxAuthFailures ?? DEFAULT_FAILURE_BURST,
    authFailureIntervalMs: options.authFailureIntervalMs ?? DEFAULT_FAILURE_INTERVAL_MS,
    maxPendingAuthFailures: options.maxPendingAuthFailures ?? DEFAULT_FAILURE_MAX_PENDING,
    authFailureLogWindowMs: options.authFailureLogWindowMs ?? 10_000,
    maxAgentSessions: options.maxAgentSessions ?? DEFAULT_MAX_AGENT_SESSIONS,
  };
}

/**
 * The relay core alone, with whatever services are handed in (none: the relay only). The parts
 * call one another through closures over consts declared further down (the gateway, the server):
 * each closure runs only after this function returned, except the action journal's first write,
 * which is queued.
 */
export function createRelay(options: BridgeOptions = {}): BridgeServer {
  const opts = resolveOptions(options);
  const secrets = options.secrets ?? { extension_secret: newSecret(), agent_secret: newSecret() };
  const log = options.logger ?? createLogger(options.logLevel ?? 'info');
  const warn = (message: string, fields?: Record<string, unknown>) => log.warn(message, fields);
  const failures = new FailureGate({
    burst: opts.maxAuthFailures,
    intervalMs: opts.authFailureIntervalMs,
    maxPending: opts.maxPendingAuthFailures,
    windowMs: opts.authFailureLogWindowMs,
    warn,
  });
  const refusals = new RefusalLog(warn, opts.authFailureLogWindowMs);
  const tasks = new TaskRegistry();
  const stateFile = options.stateFile;
  const persist = stateFile
    ? new DebouncedWriter(
        () => saveSessions(stateFile, sessions.snapshot()),
        50,
        (e) => {
          log.error('could not save sessions; agents keep their sessions but would lose them if the bridge restarted now', {
            file: stateFile,
            error: e instanceof Error ? e.message : String(e),
          });
          agents.onPersistence('sessions', e);
        },
        () => {
          log.info('sessions are saved again', { file: stateFile });
          agents.onPersistence('sessions', null);
        },
      )
    : null;
  const sessions: SessionRegistry = new SessionRegistry(
    {
      graceMs: opts.sessionGraceMs,
      resultCapacity: opts.resultCacheSize,
      onChange: () => persist?.schedule(),
      // Its first write runs before the gateway exists: tell agents after.
      journal: stateFile
        ? journalBeside(stateFile, opts.resultCacheSize, log, (e) => queueMicrotask(() => agents.onPersistence('actions', e)))
        : null,
    },
    (s, released) => agents.onSessionEnded(s, released),
  );
  // One extension link per browser (browsers.ts); each tells only its own browser's agents.
  const browsers: BrowserRegistry = new BrowserRegistry({
    log,
    configDir: options.configDir ?? null,
    counts: (id) => agents.countsOf(id),
    newLink: (browserId) =>
      new ExtensionLink({
        log,
        broadcastToAgents: (m) => agents.broadcastToBrowser(browserId, m),
        onUp: (id) => {
          agents.onBrowserUp(browserId);
          browsers.noteUp(browserId);
          publisher.flush(true);
          connectors?.publish();
          cdp?.publish();
          server.emit('extension-connected', id);
        },
        onDown: (id) => {
          publisher.schedule();
          server.emit('extension-disconnected', id);
        },
      }),
  });
  if (stateFile) {
    const saved = loadSessions(stateFile, warn);
    sessions.restore(saved);
    // Restored sessions wait for their own browser a little after the restart; agents naming none, for any.
    if (saved.length) browsers.link(DEFAULT_BROWSER_ID).noteRestored();
    for (const s of sessions.all()) if (s.browserId !== null) browsers.link(s.browserId).noteRestored();
  }
  const pairing = new PairingCodes(options.configDir ?? null);
  const publisher = new SessionsPublisher(
    () => browsers.connectedIds(),
    (id) => ({
      type: 'agent_sessions',
      ...pageOfSessions(
        describeSessions(
          sessions.all().filter((s) => s.browserId === id),
          tasks,
          opts.sessionGraceMs,
        ),
      ),
      ...(browsers.info(id) ? { browser: browsers.info(id) } : {}),
      other_browsers: browsers.list(id),
    }),
    (id, m) => browsers.link(id).send(m),
  );
  const browserOfSession = (sessionId: string) => sessions.all().find((s) => s.id === sessionId)?.browserId ?? null;
  const cdpScope = new CdpClientsScope(
    browserOfSession,
    () => browsers.connectedIds(),
    (id, m) => browsers.link(id).send(m),
    (name) => browsers.connectedByName(name),
  );
  const agents = new AgentGateway({
    log,
    sessions,
    tasks,
    publisher,
    browsers,
    maxTabsPerSession: opts.maxTabsPerSession,
    defaultTimeoutMs: opts.defaultTimeoutMs,
    sessionGraceMs: opts.sessionGraceMs,
  });
  const handshake = new Handshake({
    log,
    secrets,
    protocolVersion: options.protocolVersion ?? PROTOCOL_VERSION,
    failures,
    refusals,
    handshakeTimeoutMs: opts.handshakeTimeoutMs,
    onReady: (peer, hello) => server.admit(peer, hello),
    drop: (peer) => server.drop(peer),
  });
  const ctx: BridgeContext = {
    log,
    configDir: options.configDir ?? null,
    agentUrl: () => server.agentUrl,
    agentSecret: () => secrets.agent_secret,
    connectAgentInProcess: () => server.connectInProcessAgent(),
    checkAgentHeaders: (headers, endpoint) => server.checkAgentHeaders(headers, endpoint),
    // Backend connectors are the person's, in every panel; CDP clients only in their own browser's.
    sendToExtension: (m) =>
      m.type === 'cdp_clients' ? cdpScope.send(m) : browsers.connectedIds().filter((id) => browsers.link(id).send(m)).length > 0,
    extensionBrowser: () => {
      const id = browsers.defaultBrowser();
      return id === null ? undefined : browsers.link(id).browser;
    },
  };
  const httpServices = options.services?.http?.(ctx) ?? [];
  const connectors = options.services?.connectors?.(ctx) ?? null;
  const cdp = options.services?.cdp?.(ctx) ?? null;
  const server = new BridgeServer({
    opts,
    secrets,
    extensionOrigins: options.extensionOrigins ?? [extensionOrigin(EXTENSION_ID)],
    log,
    failures,
    refusals,
    sessions,
    tasks,
    persist,
    browsers,
    cdpScope,
    agents,
    handshake,
    pairing,
    cliForm: options.cliForm ?? null,
    publisher,
    httpServices,
    connectors,
    cdp,
  });
  return server;
}
