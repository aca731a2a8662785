// `browser-use-ext connect --dialect 000|001 URL`: runs a seed connector until SIGINT/SIGTERM or until
// the person disconnects it from the side panel.
import { BackendUrlError, checkBackendUrl } from '../agents/connectors/backend-link';
import { type Dialect, SeedConnector } from '../agents/connectors/connector';
import { cli } from '../common/cli-invocation';
import { createLogger } from '../common/log';
import { AGENT_SECRET_ENV } from '../common/secrets';
import {
  agentBridge,
  agentBrowser,
  ALIAS_BRIDGE,
  BROWSER_OPTION,
  type CommandSpec,
  flag,
  logLevel,
  parseCommand,
  str,
} from './shared-options';

export const CONNECT_COMMAND: CommandSpec = {
  name: 'connect',
  usage: [`browser-use-ext connect --dialect 000|001 [URL] [options]`],
  about:
    `Dials a backend written for seed 000 (Action Protocol) or seed 001 (Extension Architecture) and\n` +
    `presents this browser to it as that document's extension. On the bridge it is an agent session:\n` +
    `it leases tabs and obeys the tab limit, and the person can disconnect it from the side panel.\n` +
    `URL is the backend's WebSocket server (seed 001 default ws://localhost:8080).`,
  options: [
    { name: 'dialect', spec: { type: 'string' }, row: { flags: '--dialect <d>', text: '000 or 001 (required)' } },
    {
      name: 'allow-remote',
      spec: { type: 'boolean' },
      row: { flags: '--allow-remote', text: 'allow a backend that is not on this machine (it can drive your browser)' },
    },
    { name: 'max-tabs', spec: { type: 'string' }, row: { flags: '--max-tabs <n>', text: 'tab limit of the session' } },
    BROWSER_OPTION,
  ],
  shared: ['bridge-url', 'config-dir', 'log-level'],
  aliases: [ALIAS_BRIDGE],
  allowPositionals: true,
  footer: `The agent secret comes from $${AGENT_SECRET_ENV}, else the bridge's secrets.json in the config dir.`,
};

export async function connectCommand(argv: string[]): Promise<number> {
  const p = parseCommand(CONNECT_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const { values, positionals } = p;
  const dialect = str(values, 'dialect');
  if (dialect !== '000' && dialect !== '001') {
    process.stderr.write(`--dialect must be 000 or 001; see ${cli('connect --help')}\n`);
    return 2;
  }
  const url = positionals[0] ?? (dialect === '001' ? 'ws://localhost:8080' : undefined);
  if (!url) {
    process.stderr.write(`Seed 000 names no default address: pass the backend's URL, e.g. ws://localhost:8000/ws.\n`);
    return 2;
  }
  try {
    checkBackendUrl(url, flag(values, 'allow-remote'));
  } catch (e) {
    if (e instanceof BackendUrlError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const lvl = logLevel(values);
  if (!lvl.ok) {
    process.stderr.write(`${lvl.line}\n`);
    return 2;
  }
  const bridge = agentBridge(values);
  if (!bridge) return 2;
  const browser = agentBrowser(values);
  if (!browser) return 2;
  const maxTabsText = str(values, 'max-tabs');
  const maxTabs = maxTabsText === undefined ? undefined : Number(maxTabsText);
  if (maxTabs !== undefined && (!Number.isInteger(maxTabs) || maxTabs < 1 || maxTabs > 100)) {
    process.stderr.write(`--max-tabs must be an integer 1-100, got "${maxTabsText}".\n`);
    return 2;
  }
  const log = createLogger(lvl.level);
  const connector = new SeedConnector({
    dialect: dialect as Dialect,
    backendUrl: url,
    bridgeUrl: bridge.agentUrl,
    allowRemote: flag(values, 'allow-remote'),
    logger: log,
    ...(maxTabs === undefined ? {} : { maxTabs }),
    ...(browser.name === undefined ? {} : { browser: browser.name }),
  });
  try {
    await connector.start();
  } catch (e) {
    process.stderr.write(`Cannot join the bridge: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  process.stdout.write(
    `${connector.clientName}: agent session open on the bridge; dialing ${url} (reconnects with backoff). Ctrl+C to stop.\n`,
  );
  const why = await new Promise<string>((resolve) => {
    connector.once('stopped', (w: string) => resolve(w));
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await connector.stop(why);
  process.stdout.write(`connector stopped: ${why}\n`);
  // The bridge refused the agent secret (4001) or speaks another version (4002): not a normal stop.
  return /\((4001|4002) /.test(why) ? 1 : 0;
}
