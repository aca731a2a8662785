// `browser-use-ext bridge`: runs the bridge until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { createLogger, LOG_LEVELS, type LogLevel } from './log';
import { BridgeServer, DEFAULT_PORT } from './server';
import { BRIDGE_VERSION } from './version';

const HELP = `browser-use-ext ${BRIDGE_VERSION}

Usage: browser-use-ext bridge [options]

Runs the bridge between the browser-use-ext Chrome extension and agents.

Options:
  --port <n>         TCP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host <addr>      interface to bind (default 127.0.0.1; loopback only)
  --log-level <lvl>  ${LOG_LEVELS.join(' | ')} (default info)
  -h, --help         show this help
`;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'bridge';
  if (values.help || command === 'help') {
    process.stdout.write(HELP);
    return 0;
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
  const level = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) {
    process.stderr.write(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}".\n`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    process.stderr.write(`Refusing to bind ${host}: the bridge drives your logged-in browser and listens on loopback only.\n`);
    return 2;
  }
  const log = createLogger(level);
  const bridge = new BridgeServer({ host, port, logger: log });
  try {
    await bridge.start();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    process.stderr.write(err.code === 'EADDRINUSE' ? `Port ${port} is in use. Is another bridge running? Pick another with --port.\n` : `Cannot start the bridge: ${err.message}\n`);
    return 1;
  }
  process.stdout.write(
    `browser-use-ext bridge ${BRIDGE_VERSION} listening\n` +
      `  extension endpoint: ${bridge.extensionUrl}\n` +
      `  agent endpoint:     ${bridge.agentUrl}\n` +
      `  health:             http://${host}:${bridge.port}/healthz  status: http://${host}:${bridge.port}/status\n` +
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
