// `browser-use-ext bridge`: runs the bridge until SIGINT/SIGTERM. It listens at the host and port of
// --bridge-url (else $BROWSER_USE_EXT_BRIDGE_URL, else 127.0.0.1:8765), so the one setting every
// other subcommand uses to reach it also says where it runs; --host and --port override either part.
import path from 'node:path';

import { DEFAULT_MCP_IDLE_MS, DEFAULT_MCP_SESSIONS, DEFAULT_MCP_SESSIONS_PER_TOKEN } from '../agents/mcp/http-endpoint';
import { McpTokenStore } from '../agents/mcp/tokens';
import { cli, cliForm } from '../common/cli-invocation';
import { EXTENSION_ID } from '../common/extension-id';
import { createLogger } from '../common/log';
import { isLoopbackHost } from '../common/origin-check';
import { DEFAULT_MAX_TABS } from '../common/ports';
import { AGENT_SECRET_ENV, configDir, loadOrCreateSecrets, type Secrets } from '../common/secrets';
import { BRIDGE_VERSION } from '../common/version';
import { DEFAULT_MAX_AGENT_SESSIONS } from '../src/server';
import { SESSIONS_FILE } from '../src/session-store';
import { firstStepsText } from './first-steps';
import { type CommandSpec, flag, logLevel, parseCommand, resolveBridge, str } from './shared-options';
import { createBridge } from './wire';

export const BRIDGE_COMMAND: CommandSpec = {
  name: 'bridge',
  usage: [`browser-use-ext bridge [options]`],
  about:
    `Runs the bridge between the browser-use-ext Chrome extension and your agents (MCP clients, CDP clients,\n` +
    `Python browser_use agents). It listens at the host and port of --bridge-url; --host and --port override them.`,
  options: [
    { name: 'port', spec: { type: 'string' }, row: { flags: '--port <n>', text: 'TCP port to listen on (0 picks a free one)' } },
    { name: 'host', spec: { type: 'string' }, row: { flags: '--host <addr>', text: 'interface to listen on (default 127.0.0.1)' } },
    {
      name: 'allow-remote',
      spec: { type: 'boolean' },
      row: { flags: '--allow-remote', text: 'allow a non-loopback --host (every peer still needs the secret; read the warning)' },
    },
    {
      name: 'max-tabs',
      spec: { type: 'string' },
      row: {
        flags: '--max-tabs <n>',
        text: `default tab limit per agent session (default ${DEFAULT_MAX_TABS}; agents may ask for fewer or more)`,
      },
    },
    {
      name: 'max-agent-sessions',
      spec: { type: 'string' },
      row: {
        flags: '--max-agent-sessions <n>',
        text: `agent sessions kept at most, connected or awaiting resume (default ${DEFAULT_MAX_AGENT_SESSIONS})`,
      },
    },
    {
      name: 'mcp-sessions-per-token',
      spec: { type: 'string' },
      row: {
        flags: '--mcp-sessions-per-token <n>',
        text: `MCP sessions per bearer token on /mcp (default ${DEFAULT_MCP_SESSIONS_PER_TOKEN}; the least recently used idle one makes room)`,
      },
    },
    {
      name: 'mcp-sessions',
      spec: { type: 'string' },
      row: { flags: '--mcp-sessions <n>', text: `MCP sessions on /mcp in all (default ${DEFAULT_MCP_SESSIONS})` },
    },
    {
      name: 'mcp-idle-minutes',
      spec: { type: 'string' },
      row: {
        flags: '--mcp-idle-minutes <n>',
        text: `an MCP session without a request this long is closed (default ${DEFAULT_MCP_IDLE_MS / 60_000})`,
      },
    },
    {
      name: 'extension-id',
      spec: { type: 'string', multiple: true },
      row: {
        flags: '--extension-id <id>',
        text: `extension id allowed on /extension (default ${EXTENSION_ID}; repeat for several, e.g. a store build)`,
      },
    },
    {
      name: 'print-pairing',
      spec: { type: 'boolean' },
      row: { flags: '--print-pairing', text: 'print the pairing secrets and how to use them, then exit' },
    },
  ],
  shared: ['bridge-url', 'config-dir', 'log-level'],
};

export function pairingText(secrets: Secrets, file: string, port: number): string {
  return (
    `Pairing (secrets in ${file}, readable only by you):\n` +
    `  1. Extension: easiest is \`${cli('pair')}\` (a one-time code for the side panel). Or open the\n` +
    `     extension's side panel (or Options page) and paste this extension secret:\n` +
    `       ${secrets.extension_secret}\n` +
    `     (and the bridge URL ws://127.0.0.1:${port}/extension if you changed the port).\n` +
    `  2. Agents on this machine read the agent secret from that file automatically; elsewhere set\n` +
    `       export ${AGENT_SECRET_ENV}=${secrets.agent_secret}\n` +
    `  Treat both like passwords: whoever has them can drive your logged-in browser.\n` +
    `  To revoke them, delete ${file} and restart the bridge (then pair the extension again; agents\n` +
    `  on this machine read the new agent secret from the file by themselves).\n`
  );
}

export async function bridgeCommand(argv: string[]): Promise<number> {
  const p = parseCommand(BRIDGE_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const values = p.values;
  const fail = (line: string) => (process.stderr.write(`${line}\n`), 2);
  // --port/--host are where it listens; they override the --bridge-url / $BROWSER_USE_EXT_BRIDGE_URL parts.
  const where = resolveBridge({ 'bridge-url': str(values, 'bridge-url') });
  if (!where.ok) return fail(where.line);
  const portText = str(values, 'port');
  const port = portText === undefined ? where.address.port : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`--port must be an integer 0-65535, got "${portText}".`);
  const maxTabsText = str(values, 'max-tabs');
  const maxTabs = maxTabsText === undefined ? DEFAULT_MAX_TABS : Number(maxTabsText);
  if (!Number.isInteger(maxTabs) || maxTabs < 1 || maxTabs > 100) return fail(`--max-tabs must be an integer 1-100, got "${maxTabsText}".`);
  const caps: Record<string, number> = {};
  for (const [name, fallback, max] of [
    ['max-agent-sessions', DEFAULT_MAX_AGENT_SESSIONS, 10_000],
    ['mcp-sessions-per-token', DEFAULT_MCP_SESSIONS_PER_TOKEN, 10_000],
    ['mcp-sessions', DEFAULT_MCP_SESSIONS, 10_000],
    ['mcp-idle-minutes', DEFAULT_MCP_IDLE_MS / 60_000, 24 * 60],
  ] as const) {
    const given = str(values, name);
    const n = given === undefined ? fallback : Number(given);
    if (!Number.isInteger(n) || n < 1 || n > max) return fail(`--${name} must be an integer 1-${max}, got "${given}".`);
    caps[name] = n;
  }
  const lvl = logLevel(values);
  if (!lvl.ok) return fail(lvl.line);
  const idsGiven = values['extension-id'];
  const ids = Array.isArray(idsGiven) && idsGiven.length ? idsGiven : [EXTENSION_ID];
  const badId = ids.find((id) => !/^[a-p]{32}$/.test(id));
  if (badId !== undefined) return fail(`--extension-id must be a 32-letter Chrome extension id (a-p), got "${badId}".`);
  const host = str(values, 'host') ?? where.address.host;
  const remote = !isLoopbackHost(host);
  if (remote && !flag(values, 'allow-remote')) {
    return fail(
      `Refusing to bind ${host}: the bridge drives your logged-in browser and listens on loopback only. Add --allow-remote if you really mean it.`,
    );
  }
  const dir = str(values, 'config-dir') ?? configDir();
  let loaded: ReturnType<typeof loadOrCreateSecrets>;
  try {
    loaded = loadOrCreateSecrets(dir);
  } catch (e) {
    process.stderr.write(`Cannot load the pairing secrets: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  if (flag(values, 'print-pairing')) {
    process.stdout.write(pairingText(loaded.secrets, loaded.file, port));
    return 0;
  }
  const log = createLogger(lvl.level);
  if (loaded.fixedMode)
    log.warn(
      `${loaded.file} was readable by other users; its mode is now 0600. Consider rotating the secrets (delete the file, restart, pair again).`,
    );
  if (remote) {
    process.stderr.write(
      `\n!!! WARNING: binding ${host}, reachable from other machines. Anyone on that network who learns a\n` +
        `!!! pairing secret can drive your logged-in browser, and traffic is unencrypted (ws://).\n` +
        `!!! Prefer an SSH tunnel to 127.0.0.1 instead.\n\n`,
    );
  }
  const bridge = createBridge({
    host,
    port,
    configDir: dir,
    cliForm: cliForm(),
    logger: log,
    secrets: loaded.secrets,
    stateFile: path.join(dir, SESSIONS_FILE),
    allowRemote: remote,
    maxTabsPerSession: maxTabs,
    extensionOrigins: ids.map((id) => `chrome-extension://${id}`),
    mcpTokens: new McpTokenStore(dir),
    maxAgentSessions: caps['max-agent-sessions'] ?? DEFAULT_MAX_AGENT_SESSIONS,
    mcp: {
      maxSessionsPerToken: caps['mcp-sessions-per-token'] ?? DEFAULT_MCP_SESSIONS_PER_TOKEN,
      maxSessions: caps['mcp-sessions'] ?? DEFAULT_MCP_SESSIONS,
      idleMs: (caps['mcp-idle-minutes'] ?? DEFAULT_MCP_IDLE_MS / 60_000) * 60_000,
    },
  });
  try {
    await bridge.start();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    process.stderr.write(
      err.code === 'EADDRINUSE'
        ? `Port ${port} is in use. Is another bridge running? Pick another with --port.\n`
        : `Cannot start the bridge: ${err.message}\n`,
    );
    return 1;
  }
  const shownHost = host.includes(':') ? `[${host}]` : host;
  process.stdout.write(
    `browser-use-ext bridge ${BRIDGE_VERSION} listening\n` +
      `  extension endpoint: ${bridge.extensionUrl}\n` +
      `  agent endpoint:     ${bridge.agentUrl}\n` +
      `  health:             http://${shownHost}:${bridge.port}/healthz  status: http://${shownHost}:${bridge.port}/status\n` +
      `  MCP (HTTP):         http://${shownHost}:${bridge.port}/mcp (bearer tokens: ${cli('mcp-token add NAME')}; stdio: ${cli('mcp')})\n` +
      `  CDP:                http://${shownHost}:${bridge.port}/cdp/<token> (make a URL: ${cli('cdp-url --name NAME')})\n` +
      (loaded.created
        ? `\nFirst run: new pairing secrets were created.\n${pairingText(loaded.secrets, loaded.file, bridge.port)}`
        : `  pairing:            secrets in ${loaded.file} (show them with ${cli('bridge --print-pairing')})\n`) +
      `\n${firstStepsText({ host, port: bridge.port, configDir: dir })}\n` +
      `Press Ctrl+C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (sig: string) => {
      log.info(`${sig} received, closing connections`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await bridge.close();
  return 0;
}
