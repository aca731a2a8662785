// `browser-use-ext connect --dialect 000|001 URL`: runs a seed connector until SIGINT/SIGTERM or until
// the person disconnects it from the side panel.
import { parseArgs } from 'node:util';

import { BackendUrlError, checkBackendUrl } from '../agents/connectors/backend-link';
import { type Dialect, SeedConnector } from '../agents/connectors/connector';
import { createLogger, LOG_LEVELS, type LogLevel } from '../common/log';
import { defaultAgentUrl } from '../common/ports';

export const CONNECT_HELP = `Usage: browser-use-ext connect --dialect 000|001 [URL] [options]

Dials a backend written for seed 000 (Action Protocol) or seed 001 (Extension Architecture) and
presents this browser to it as that document's extension. On the bridge it is an agent session:
it leases tabs and obeys the tab limit, and the person can disconnect it from the side panel.

  URL                   the backend's WebSocket server (seed 001 default ws://localhost:8080)
  --dialect <d>         000 or 001 (required)
  --bridge <url>        the bridge's agent endpoint (default ${defaultAgentUrl()})
  --allow-remote        allow a backend that is not on this machine (it can drive your browser)
  --max-tabs <n>        tab limit of the session
  --log-level <lvl>     ${LOG_LEVELS.join(' | ')} (default info)
The agent secret comes from $BROWSER_USE_EXT_AGENT_SECRET, else the bridge's secrets file.
`;

export async function connectCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dialect: { type: 'string' },
      bridge: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'max-tabs': { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(CONNECT_HELP);
    return 0;
  }
  const dialect = values.dialect;
  if (dialect !== '000' && dialect !== '001') {
    process.stderr.write(`--dialect must be 000 or 001.\n\n${CONNECT_HELP}`);
    return 2;
  }
  const url = positionals[0] ?? (dialect === '001' ? 'ws://localhost:8080' : undefined);
  if (!url) {
    process.stderr.write(`Seed 000 names no default address: pass the backend's URL, e.g. ws://localhost:8000/ws.\n`);
    return 2;
  }
  try {
    checkBackendUrl(url, values['allow-remote'] ?? false);
  } catch (e) {
    if (e instanceof BackendUrlError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const level = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) {
    process.stderr.write(`--log-level must be one of ${LOG_LEVELS.join(', ')}.\n`);
    return 2;
  }
  const maxTabs = values['max-tabs'] === undefined ? undefined : Number(values['max-tabs']);
  if (maxTabs !== undefined && (!Number.isInteger(maxTabs) || maxTabs < 1 || maxTabs > 100)) {
    process.stderr.write(`--max-tabs must be an integer 1-100.\n`);
    return 2;
  }
  const log = createLogger(level);
  const connector = new SeedConnector({
    dialect: dialect as Dialect,
    backendUrl: url,
    bridgeUrl: values.bridge ?? defaultAgentUrl(),
    allowRemote: values['allow-remote'] ?? false,
    logger: log,
    ...(maxTabs === undefined ? {} : { maxTabs }),
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
  return 0;
}
