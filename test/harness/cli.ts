// `npm run harness -- [--serve <dir>]`: starts the real setup (bridge, fixture server, Chromium
// with the extension) and prints one JSON line with what a client needs, then runs until SIGINT,
// SIGTERM or stdin closing (so a parent test process that dies takes it down too).
import { parseArgs } from 'node:util';

import { startHarness } from './harness';

const { values } = parseArgs({
  options: { serve: { type: 'string' }, help: { type: 'boolean', short: 'h' }, 'keep-stdin': { type: 'boolean' } },
});
if (values.help) {
  process.stdout.write(
    'Usage: npm run harness -- [--serve <dir>] [--keep-stdin]\nPrints {"agent_url", "fixtures_url", "credentials": {"agent_secret"}, "config_dir", ...} as JSON, then runs until stopped.\n',
  );
  process.exit(0);
}
const h = await startHarness(values.serve ? { fixturesDir: values.serve } : {});
process.stdout.write(
  JSON.stringify({
    agent_url: h.bridge.agentUrl,
    extension_url: h.bridge.extensionUrl,
    bridge_port: h.bridge.port,
    status_url: `http://127.0.0.1:${h.bridge.port}/status`,
    fixtures_url: h.fixtures.origin,
    chromium_ws_endpoint: h.launched.browser.wsEndpoint(),
    // The agent secret of this run's temp config dir (agents prove they hold it in the hello handshake);
    // the extension already has its own.
    credentials: { agent_secret: h.secrets.agent_secret },
    config_dir: h.configDir,
  }) + '\n',
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await h.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// Commands on stdin, one per line, each answered by one JSON line on stdout:
//   restart-bridge [down_ms]   stop the bridge, wait down_ms, start it again on the same port
//                              (same secrets), wait for the extension: {"event":"bridge_restarted"}
let lineBuffer = '';
let commands = Promise.resolve();
process.stdin.on('data', (chunk: Buffer) => {
  lineBuffer += chunk.toString('utf8');
  let nl: number;
  while ((nl = lineBuffer.indexOf('\n')) >= 0) {
    const [cmd, arg] = lineBuffer.slice(0, nl).trim().split(/\s+/);
    lineBuffer = lineBuffer.slice(nl + 1);
    commands = commands.then(async () => {
      try {
        if (cmd === 'restart-bridge') {
          const started = Date.now();
          await h.restartBridge({ downMs: Number(arg ?? 0) || 0 });
          process.stdout.write(
            JSON.stringify({ event: 'bridge_restarted', agent_url: h.bridge.agentUrl, ms: Date.now() - started }) + '\n',
          );
        } else if (cmd) {
          process.stdout.write(JSON.stringify({ event: 'error', message: `unknown command ${cmd}` }) + '\n');
        }
      } catch (e) {
        process.stdout.write(JSON.stringify({ event: 'error', message: String(e) }) + '\n');
      }
    });
  }
});
if (!values['keep-stdin'] && !process.stdin.isTTY) {
  process.stdin.resume();
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
}
