// The one place that builds a whole bridge: the relay core (bridge/src) with the services that
// live beside it, each an agent of the relay: MCP over Streamable HTTP at /mcp (agents/mcp) and
// the side panel's seed 000/001 backend connectors (agents/connectors). The CLI runs this; tests
// that need only the relay may construct BridgeServer alone.
import path from 'node:path';

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
}

export function createBridge(options: WiredBridgeOptions = {}): BridgeServer {
  const { mcpTokens, mcp, ...relay } = options;
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
    },
  });
}
