// `browser-use-ext bridge`: runs the bridge until SIGINT/SIGTERM.
import path from 'node:path';
import { parseArgs } from 'node:util';

import { DEFAULT_MCP_IDLE_MS, DEFAULT_MCP_SESSIONS, DEFAULT_MCP_SESSIONS_PER_TOKEN } from '../agents/mcp/http-endpoint';
import { McpTokenStore } from '../agents/mcp/tokens';
import { EXTENSION_ID } from '../common/extension-id';
import { createLogger, LOG_LEVELS, type LogLevel } from '../common/log';
import { isLoopbackHost } from '../common/origin-check';
import { DEFAULT_MAX_TABS, DEFAULT_PORT } from '../common/ports';
import { AGENT_SECRET_ENV, CONFIG_DIR_ENV, configDir, loadOrCreateSecrets, type Secrets } from '../common/secrets';
import { BRIDGE_VERSION } from '../common/version';
import { DEFAULT_MAX_AGENT_SESSIONS } from '../src/server';
import { SESSIONS_FILE } from '../src/session-store';
import { MCP_HELP, runMcpCli } from './mcp';
import { runPair } from './pair';
import { SUBCOMMANDS } from './subcommands';
import { createBridge } from './wire';

const HELP = `browser-use-ext ${BRIDGE_VERSION}

Usage: browser-use-ext bridge [options]
       browser-use-ext pair [--port <n>] [--config-dir <dir>] [--open]
       browser-use-ext cdp-url [--name NAME] [--tabs N] [--list] [--revoke NAME] [--bridge-url URL]   (--help for more)
       browser-use-ext connect|agent|seed002|seed003|conformance --help   (other clients: seeds 000-003)

bridge: runs the bridge between the browser-use-ext Chrome extension and agents.
pair:   prints a one-time pairing code and link for the extension's side panel (--open opens the link).
cdp-url: makes a Chrome DevTools Protocol URL for browser_use, Playwright, puppeteer or chrome-devtools-mcp.

Options:
  --port <n>            TCP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host <addr>         interface to bind (default 127.0.0.1)
  --allow-remote        allow a non-loopback --host (every peer still needs the secret; read the warning)
  --log-level <lvl>     ${LOG_LEVELS.join(' | ')} (default info)
  --max-tabs <n>        default tab limit per agent session (default ${DEFAULT_MAX_TABS}; agents may ask for fewer or more in hello)
  --max-agent-sessions <n>      agent sessions kept at most, connected or awaiting resume (default ${DEFAULT_MAX_AGENT_SESSIONS})
  --mcp-sessions-per-token <n>  MCP sessions per bearer token on /mcp (default ${DEFAULT_MCP_SESSIONS_PER_TOKEN}; the least recently used idle one makes room)
  --mcp-sessions <n>            MCP sessions on /mcp in all (default ${DEFAULT_MCP_SESSIONS})
  --mcp-idle-minutes <n>        an MCP session without a request this long is closed (default ${DEFAULT_MCP_IDLE_MS / 60_000})
  --extension-id <id>   extension id allowed on /extension (default ${EXTENSION_ID}; repeat for several, e.g. a store build)
  --config-dir <dir>    where secrets.json lives (default $${CONFIG_DIR_ENV}, else $XDG_CONFIG_HOME/browser-use-ext, else ~/.config/browser-use-ext)
  --print-pairing       print the pairing secrets and how to use them, then exit
  -h, --help            show this help

MCP clients (stdio server, HTTP tokens):
${MCP_HELP}`;

function pairingText(secrets: Secrets, file: string, port: number): string {
  return (
    `Pairing (secrets in ${file}, readable only by you):\n` +
    `  1. Extension: easiest is \`npx browser-use-ext pair\` (a one-time code for the side panel). Or open the\n` +
    `     extension's side panel (or Options page) and paste this extension secret:\n` +
    `       ${secrets.extension_secret}\n` +
    `     (and the bridge URL ws://127.0.0.1:${port}/extension if you changed the port).\n` +
    `  2. Agents on this machine read the agent secret from that file automatically; elsewhere set\n` +
    `       export ${AGENT_SECRET_ENV}=${secrets.agent_secret}\n` +
    `  Treat both like passwords: whoever has them can drive your logged-in browser.\n` +
    `  To revoke them, delete ${file} and restart the bridge (then pair again).\n`
  );
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'mcp' || argv[0] === 'mcp-token') return runMcpCli(argv);
  const sub = SUBCOMMANDS[argv[0] ?? ''];
  if (sub) return sub(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'log-level': { type: 'string' },
      'max-tabs': { type: 'string' },
      'max-agent-sessions': { type: 'string' },
      'mcp-sessions-per-token': { type: 'string' },
      'mcp-sessions': { type: 'string' },
      'mcp-idle-minutes': { type: 'string' },
      'extension-id': { type: 'string', multiple: true },
      'config-dir': { type: 'string' },
      'print-pairing': { type: 'boolean' },
      open: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'bridge';
  if (values.help || command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === 'pair') {
    const pairPort = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    return runPair({
      configDir: values['config-dir'] ?? configDir(),
      port: pairPort,
      open: values.open === true,
      ...(values['extension-id']?.[0] ? { extensionId: values['extension-id'][0] } : {}),
    });
  }
  if (command !== 'bridge') {
    process.stderr.write(`Unknown command "${command}".\n\n${HELP}`);
    return 2;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be an integer 0-65535, got "${values.port}".\n`);
    return 2;
  }
  const maxTabs = values['max-tabs'] === undefined ? DEFAULT_MAX_TABS : Number(values['max-tabs']);
  if (!Number.isInteger(maxTabs) || maxTabs < 1 || maxTabs > 100) {
    process.stderr.write(`--max-tabs must be an integer 1-100, got "${values['max-tabs']}".\n`);
    return 2;
  }
  const caps: Record<string, number> = {};
  for (const [flag, fallback, max] of [
    ['max-agent-sessions', DEFAULT_MAX_AGENT_SESSIONS, 10_000],
    ['mcp-sessions-per-token', DEFAULT_MCP_SESSIONS_PER_TOKEN, 10_000],
    ['mcp-sessions', DEFAULT_MCP_SESSIONS, 10_000],
    ['mcp-idle-minutes', DEFAULT_MCP_IDLE_MS / 60_000, 24 * 60],
  ] as const) {
    const given = values[flag];
    const n = given === undefined ? fallback : Number(given);
    if (!Number.isInteger(n) || n < 1 || n > max) {
      process.stderr.write(`--${flag} must be an integer 1-${max}, got "${given}".\n`);
      return 2;
    }
    caps[flag] = n;
  }
  const level = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) {
    process.stderr.write(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}".\n`);
    return 2;
  }
  const ids = values['extension-id'] ?? [EXTENSION_ID];
  const badId = ids.find((id) => !/^[a-p]{32}$/.test(id));
  if (badId !== undefined) {
    process.stderr.write(`--extension-id must be a 32-letter Chrome extension id (a-p), got "${badId}".\n`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  const remote = !isLoopbackHost(host);
  if (remote && !values['allow-remote']) {
    process.stderr.write(
      `Refusing to bind ${host}: the bridge drives your logged-in browser and listens on loopback only. Add --allow-remote if you really mean it.\n`,
    );
    return 2;
  }
  const dir = values['config-dir'] ?? configDir();
  let loaded: ReturnType<typeof loadOrCreateSecrets>;
  try {
    loaded = loadOrCreateSecrets(dir);
  } catch (e) {
    process.stderr.write(`Cannot load the pairing secrets: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  if (values['print-pairing']) {
    process.stdout.write(pairingText(loaded.secrets, loaded.file, port));
    return 0;
  }
  const log = createLogger(level);
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
      `  MCP (HTTP):         http://${shownHost}:${bridge.port}/mcp (bearer tokens: browser-use-ext mcp-token add NAME; stdio: browser-use-ext mcp)\n` +
      `  CDP:                http://${shownHost}:${bridge.port}/cdp/<token> (make a URL: browser-use-ext cdp-url --name NAME)\n` +
      (loaded.created
        ? `\nFirst run: new pairing secrets were created.\n${pairingText(loaded.secrets, loaded.file, bridge.port)}\n`
        : `  pairing:            secrets in ${loaded.file} (show them with --print-pairing)\n`) +
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`browser-use-ext: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
