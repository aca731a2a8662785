// `browser-use-ext mcp` (an MCP server on stdio, connected to the running bridge as an agent) and
// `browser-use-ext mcp-token add|list|revoke` (bearer tokens for MCP over HTTP at /mcp).
// On stdio, stdout is the MCP channel: everything else goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createMcpSession } from '../agents/mcp/mcp-server';
import { McpTokenStore } from '../agents/mcp/tokens';
import { cli } from '../common/cli-invocation';
import { AGENT_SECRET_ENV, configDir, readAgentSecret } from '../common/secrets';
import {
  agentBrowser,
  ALIAS_PORT,
  applyConfigDir,
  type BridgeAddress,
  BROWSER_OPTION,
  type CommandSpec,
  flag,
  LIST_HEAD,
  parseCommand,
  REPLACE_OPTION,
  resolveBridge,
  str,
} from './shared-options';

export const MCP_COMMAND: CommandSpec = {
  name: 'mcp',
  usage: [`browser-use-ext mcp [--max-tabs N] [options]`],
  about:
    `An MCP server on stdio for an MCP client (Claude Desktop/Code, Cursor, VS Code, ...). It connects to\n` +
    `the running bridge as an agent. For MCP over HTTP (http://127.0.0.1:8765/mcp) see browser-use-ext mcp-token --help.`,
  options: [
    {
      name: 'max-tabs',
      spec: { type: 'string' },
      row: { flags: '--max-tabs <n>', text: "tabs this MCP client may hold at once (default: the bridge's --max-tabs)" },
    },
    BROWSER_OPTION,
  ],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_PORT],
  footer: `The agent secret comes from $${AGENT_SECRET_ENV}, else the bridge's secrets.json in the config dir.`,
};

export const MCP_TOKEN_COMMAND: CommandSpec = {
  name: 'mcp-token',
  usage: [
    `browser-use-ext mcp-token add NAME [--browser B] [--replace]`,
    `browser-use-ext mcp-token list`,
    `browser-use-ext mcp-token revoke NAME`,
  ],
  about:
    `Bearer tokens for MCP clients over HTTP (the bridge's /mcp endpoint).\n` +
    `  add NAME     issue a token for that client; printed once (only its hash is kept);\n` +
    `               with --browser its sessions work in that browser\n` +
    `  list         names, dates and browsers of the issued tokens (never the tokens)\n` +
    `  revoke NAME  revoke a token (effective at the next request, no restart)`,
  options: [BROWSER_OPTION, REPLACE_OPTION],
  shared: ['bridge-url', 'config-dir'],
  allowPositionals: true,
};

/** Both MCP commands' help, for the top-level help. */
export const MCP_SUMMARY =
  `  mcp         an MCP server on stdio for Claude Desktop/Code, Cursor, VS Code, ...\n` +
  `  mcp-token   bearer tokens for MCP clients over HTTP (add NAME | list | revoke NAME)\n`;

export async function mcpCommand(argv: string[]): Promise<number> {
  const p = parseCommand(MCP_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const where = resolveBridge(p.values);
  if (!where.ok) {
    process.stderr.write(`${where.line}\n`);
    return 2;
  }
  const url = where.address.agentUrl;
  const browser = agentBrowser(p.values);
  if (!browser) return 2;
  const maxTabsText = str(p.values, 'max-tabs');
  const maxTabs = maxTabsText === undefined ? undefined : Number(maxTabsText);
  if (maxTabs !== undefined && (!Number.isInteger(maxTabs) || maxTabs < 1 || maxTabs > 100)) {
    process.stderr.write(`--max-tabs must be an integer 1-100, got "${maxTabsText}".\n`);
    return 2;
  }
  // The client reads the secret itself (and reads it again if the bridge refuses it): from the env,
  // else secrets.json in --config-dir / the default config dir.
  applyConfigDir(p.values);
  let secret: string | null;
  try {
    secret = readAgentSecret();
  } catch (e) {
    process.stderr.write(`Cannot read the agent secret: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  if (!secret) {
    process.stderr.write(
      `No agent secret: set ${AGENT_SECRET_ENV} (from \`${cli('bridge --print-pairing')}\`) or run the bridge once on this machine so it creates ${configDir()}/secrets.json.\n`,
    );
    return 1;
  }
  const session = createMcpSession({
    url,
    ...(maxTabs === undefined ? {} : { maxTabs }),
    ...(browser.name === undefined ? {} : { browser: browser.name }),
  });
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await session.server.connect(transport);
  process.stderr.write(
    `browser-use-ext MCP server on stdio; bridge ${url}${browser.name === undefined ? '' : `; browser "${browser.name}"`}\n`,
  );
  await done;
  // A normal close ends the bridge session: the client's tabs are free at once.
  await session.close();
  return 0;
}

export function mcpTokenCommand(argv: string[]): number {
  const p = parseCommand(MCP_TOKEN_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const where = resolveBridge(p.values);
  if (!where.ok) {
    process.stderr.write(`${where.line}\n`);
    return 2;
  }
  // Only `add` binds a browser: a stray $BROWSER_USE_EXT_BROWSER must not make list/revoke fail.
  const browser = p.positionals[0] === 'add' ? agentBrowser(p.values) : { name: undefined };
  if (!browser) return 2;
  const store = new McpTokenStore(str(p.values, 'config-dir') ?? configDir());
  return tokenCommand(p.positionals, store, where.address, browser.name, flag(p.values, 'replace'));
}

function tokenCommand(args: string[], store: McpTokenStore, bridge: BridgeAddress, browser: string | undefined, replace: boolean): number {
  const [verb, name] = args;
  try {
    if (verb === 'add' && name) {
      const token = store.add(name, browser, { replace });
      process.stdout.write(
        `Token for "${name}" (shown once; only its hash is kept in ${store.file}):\n\n  ${token}\n\n` +
          (browser === undefined ? '' : `Its MCP sessions work in the browser named "${browser}" (the name its side panel shows).\n`) +
          `MCP client config: url ${bridge.httpBase}/mcp with header "Authorization: Bearer ${token}".\n` +
          `Revoke it with: ${cli(`mcp-token revoke ${name}`)}\n`,
      );
      return 0;
    }
    if (verb === 'list') {
      const tokens = store.list();
      // Name and date first, then the browser: the columns `cdp-url --list` starts with, under the same header.
      process.stdout.write(
        tokens.length
          ? `${LIST_HEAD.join('\t')}\n` + tokens.map((t) => `${t.name}\t${t.created_at}\t${t.browser ?? '(last used)'}\n`).join('')
          : `No MCP tokens (file ${store.file}). Issue one with: ${cli('mcp-token add NAME')}\n`,
      );
      return 0;
    }
    if (verb === 'revoke' && name) {
      if (!store.revoke(name)) {
        process.stderr.write(`No token named "${name}" (see: ${cli('mcp-token list')}).\n`);
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
  process.stderr.write(`browser-use-ext mcp-token: say add NAME, list or revoke NAME; see ${cli('mcp-token --help')}\n`);
  return 2;
}
