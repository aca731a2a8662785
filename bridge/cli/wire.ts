// The one place that builds a whole bridge: the relay core (bridge/src) with the services that
// live beside it, each an agent of the relay: MCP over Streamable HTTP at /mcp (agents/mcp), the
// side panel's seed 000/001 backend connectors (agents/connectors) and the CDP endpoint at /cdp/
// (agents/cdp). The CLI runs this; tests that need only the relay may construct BridgeServer alone.
import path from 'node:path';

import { BrowserEmulator } from '../agents/cdp/browser-emulator';
import { type CdpEmulatorFactory, CdpEndpoint, type CdpEndpointOptions } from '../agents/cdp/cdp-endpoint';
import { CONNECTORS_FILE, PanelConnectors } from '../agents/connectors/panel-connectors';
import { McpHttpEndpoint, type McpHttpOptions } from '../agents/mcp/http-endpoint';
import { McpTokenStore } from '../agents/mcp/tokens';
import { configDir } from '../common/secrets';
import { type BridgeOptions, BridgeServer } from '../src/server';

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
  return new BridgeServer({
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
          checkHeaders: ctx.checkAgentHeaders,
          sendToExtension: ctx.sendToExtension,
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
