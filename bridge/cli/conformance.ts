// `browser-use-ext conformance --against ws://127.0.0.1:PORT/agent`: runs the kit as an agent and
// prints the report; exit 0 only when every check passes.
import { parseArgs } from 'node:util';

import { type CheckResult, formatReport, runConformance } from '../agents/conformance/checks';
import { EXTENSION_ID } from '../common/extension-id';
import { AGENT_SECRET_ENV, configDir, loadOrCreateSecrets, readAgentSecret } from '../common/secrets';
import { runAsBridge } from './conformance-as-bridge';

export async function conformanceCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      against: { type: 'string' },
      'as-bridge': { type: 'boolean' },
      port: { type: 'string' },
      'extension-id': { type: 'string' },
      'config-dir': { type: 'string' },
      wait: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || (!values.against && !values['as-bridge'])) {
    process.stdout.write(
      `Usage: browser-use-ext conformance --against ws://127.0.0.1:PORT/agent [--json]\n` +
        `       browser-use-ext conformance --as-bridge [--port N] [--extension-id ID] [--config-dir DIR] [--wait S] [--json]\n` +
        `Runs the protocol conformance kit: handshake, schema checks both ways, every action, the error codes.\n` +
        `--against: as an agent against a bridge (and the extension behind it); needs the agent secret ($${AGENT_SECRET_ENV} or the bridge's secrets file).\n` +
        `--as-bridge: as the bridge for an extension-side implementation: listens on 127.0.0.1, waits for the extension to pair with the extension secret from the config dir's secrets.json, then runs the checks through it.\n`,
    );
    return values.help ? 0 : 2;
  }
  const progress = values.json
    ? undefined
    : (r: CheckResult) => process.stderr.write(`${r.outcome === 'pass' ? '.' : r.outcome === 'skip' ? 's' : 'F'}`);
  if (values['as-bridge']) {
    const loaded = loadOrCreateSecrets(values['config-dir'] ?? configDir());
    const results = await runAsBridge({
      secrets: loaded.secrets,
      port: values.port === undefined ? 0 : Number(values.port),
      extensionOrigins: [`chrome-extension://${values['extension-id'] ?? EXTENSION_ID}`],
      waitForExtensionMs: (values.wait === undefined ? 120 : Number(values.wait)) * 1000,
      onListening: (url) =>
        void process.stderr.write(`Waiting for the extension under test on ${url} (extension secret in ${loaded.file}) ...\n`),
      ...(progress ? { onResult: progress } : {}),
    });
    if (!values.json) process.stderr.write('\n');
    process.stdout.write(values.json ? JSON.stringify(results, null, 2) + '\n' : formatReport(results) + '\n');
    return results.some((r) => r.outcome === 'fail') ? 1 : 0;
  }
  const against = values.against as string;
  const secret = readAgentSecret();
  if (!secret) {
    process.stderr.write(`No agent secret: set ${AGENT_SECRET_ENV}.\n`);
    return 2;
  }
  const results = await runConformance({ against, secret, ...(progress ? { onResult: progress } : {}) });
  if (!values.json) process.stderr.write('\n');
  process.stdout.write(values.json ? JSON.stringify(results, null, 2) + '\n' : formatReport(results) + '\n');
  return results.some((r) => r.outcome === 'fail') ? 1 : 0;
}
