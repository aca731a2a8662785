// `browser-use-ext mcp` (an MCP server on stdio, connected to the running bridge as an agent) and
// `browser-use-ext mcp-token add|list|revoke` (bearer tokens for MCP over HTTP at /mcp).
// On stdio, stdout is the MCP channel: everything else goes to stderr.
import { parseArgs } from 'node:util';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createMcpSession } from '../agents/mcp/mcp-server';
import { McpTokenStore } from '../agents/mcp/tokens';
import { DEFAULT_PORT, defaultAgentUrl } from '../common/ports';
import { AGENT_SECRET_ENV, configDir, readAgentSecret, readSecrets } from '../common/secrets';

export const BRIDGE_URL_ENV = 'BROWSER_USE_EXT_BRIDGE_URL';

export const MCP_HELP = `Usage:
  browser-use-ext mcp [--bridge-url ${defaultAgentUrl()} | --port N] [--max-tabs N] [--config-dir DIR]
      MCP server on stdio for an MCP client (Claude Desktop/Code, Cursor, VS Code, ...). It connects
      to the running bridge as an agent: secret from $${AGENT_SECRET_ENV}, else the bridge's
      secrets.json in the config dir. Bridge URL: --bridge-url, else $${BRIDGE_URL_ENV}, else port ${DEFAULT_PORT}.
  browser-use-ext mcp-token add NAME     issue a bearer token for MCP over HTTP (http://127.0.0.1:PORT/mcp); printed once
  browser-use-ext mcp-token list         names and dates of the issued tokens (never the tokens)
  browser-use-ext mcp-token revoke NAME  revoke a token (effective at the next request, no restart)
      Token options: --config-dir DIR (default: the bridge's config dir)
`;

export async function runMcpCli(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'bridge-url': { type: 'string' },
      port: { type: 'string' },
      'max-tabs': { type: 'string' },
      'config-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(MCP_HELP);
    return 0;
  }
  const dir = values['config-dir'] ?? configDir();
  if (positionals[0] === 'mcp-token') return tokenCommand(positionals.slice(1), new McpTokenStore(dir));

  let url = values['bridge-url'] ?? process.env[BRIDGE_URL_ENV];
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      process.stderr.write(`--port must be an integer 1-65535, got "${values.port}".\n`);
      return 2;
    }
    url = `ws://127.0.0.1:${port}/agent`;
  }
  url ??= defaultAgentUrl();
  if (!/^wss?:\/\/[^/]+\/agent$/.test(url)) {
    process.stderr.write(`The bridge URL must look like ${defaultAgentUrl()}, got "${url}".\n`);
    return 2;
  }
  const maxTabs = values['max-tabs'] === undefined ? undefined : Number(values['max-tabs']);
  if (maxTabs !== undefined && (!Number.isInteger(maxTabs) || maxTabs < 1 || maxTabs > 100)) {
    process.stderr.write(`--max-tabs must be an integer 1-100, got "${values['max-tabs']}".\n`);
    return 2;
  }
  let secret: string | null;
  try {
    secret =
      values['config-dir'] !== undefined ? (process.env[AGENT_SECRET_ENV] ?? readSecrets(dir)?.agent_secret ?? null) : readAgentSecret();
  } catch (e) {
    process.stderr.write(`Cannot read the agent secret: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  if (!secret) {
    process.stderr.write(
      `No agent secret: set ${AGENT_SECRET_ENV} (from \`browser-use-ext bridge --print-pairing\`) or run the bridge once on this machine so it creates ${dir}/secrets.json.\n`,
    );
    return 1;
  }
  const session = createMcpSession({ url, secret, ...(maxTabs === undefined ? {} : { maxTabs }) });
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await session.server.connect(transport);
  process.stderr.write(`browser-use-ext MCP server on stdio; bridge ${url}\n`);
  await done;
  // A normal close ends the bridge session: the client's tabs are free at once.
  await session.close();
  return 0;
}

function tokenCommand(args: string[], store: McpTokenStore): number {
  const [verb, name] = args;
  try {
    if (verb === 'add' && name) {
      const token = store.add(name);
      process.stdout.write(
        `Token for "${name}" (shown once; only its hash is kept in ${store.file}):\n\n  ${token}\n\n` +
          `MCP client config: url http://127.0.0.1:${DEFAULT_PORT}/mcp with header "Authorization: Bearer ${token}".\n` +
          `Revoke it with: browser-use-ext mcp-token revoke ${name}\n`,
      );
      return 0;
    }
    if (verb === 'list') {
      const tokens = store.list();
      process.stdout.write(
        tokens.length
          ? tokens.map((t) => `${t.name}\t${t.created_at}\n`).join('')
          : `No MCP tokens (file ${store.file}). Issue one with: browser-use-ext mcp-token add NAME\n`,
      );
      return 0;
    }
    if (verb === 'revoke' && name) {
      if (!store.revoke(name)) {
        process.stderr.write(`No token named "${name}" (see: browser-use-ext mcp-token list).\n`);
        return 1;
      }
      process.stdout.write(
        `Revoked "${name}". Requests with it are refused from now on; its open MCP sessions end at their next request.\n`,
      );
      return 0;
    }
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  process.stderr.write(MCP_HELP);
  return 2;
}
