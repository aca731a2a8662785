// `browser-use-ext conformance --against ws://127.0.0.1:PORT/agent`: runs the kit as an agent and
// prints the report; exit 0 only when every check passes.
import { type CheckResult, formatReport, runConformance } from '../agents/conformance/checks';
import { cli } from '../common/cli-invocation';
import { EXTENSION_ID } from '../common/extension-id';
import { AGENT_SECRET_ENV, configDir, loadOrCreateSecrets, readAgentSecret } from '../common/secrets';
import { runAsBridge } from './conformance-as-bridge';
import { agentBridge, ALIAS_AGAINST, type CommandSpec, flag, parseCommand, str } from './shared-options';

export const CONFORMANCE_COMMAND: CommandSpec = {
  name: 'conformance',
  usage: [
    `browser-use-ext conformance [--json] [options]`,
    `browser-use-ext conformance --as-bridge [--port N] [--extension-id ID] [--wait S] [--json] [options]`,
  ],
  about:
    `Runs the protocol conformance kit: handshake, schema checks both ways, every action, the error codes.\n` +
    `By default as an agent against the bridge at --bridge-url (and the extension behind it); it needs the\n` +
    `agent secret ($${AGENT_SECRET_ENV} or the bridge's secrets.json in the config dir).\n` +
    `--as-bridge: as the bridge for an extension-side implementation: listens on 127.0.0.1, waits for the\n` +
    `extension to pair with the extension secret from the config dir's secrets.json, then runs the checks through it.`,
  options: [
    { name: 'as-bridge', spec: { type: 'boolean' }, row: { flags: '--as-bridge', text: 'be the bridge for an extension under test' } },
    {
      name: 'port',
      spec: { type: 'string' },
      row: { flags: '--port <n>', text: 'with --as-bridge: the port to listen on (default: a free one)' },
    },
    {
      name: 'extension-id',
      spec: { type: 'string' },
      row: { flags: '--extension-id <id>', text: `with --as-bridge: the extension allowed to connect (default ${EXTENSION_ID})` },
    },
    {
      name: 'wait',
      spec: { type: 'string' },
      row: { flags: '--wait <s>', text: 'with --as-bridge: seconds to wait for the extension (default 120)' },
    },
    { name: 'json', spec: { type: 'boolean' }, row: { flags: '--json', text: 'print the results as JSON' } },
  ],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_AGAINST],
};

export async function conformanceCommand(argv: string[]): Promise<number> {
  const p = parseCommand(CONFORMANCE_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const values = {
    ...p.values,
    json: flag(p.values, 'json'),
    wait: str(p.values, 'wait'),
    port: str(p.values, 'port'),
    'config-dir': str(p.values, 'config-dir'),
    'extension-id': str(p.values, 'extension-id'),
  };
  const progress = values.json
    ? undefined
    : (r: CheckResult) => process.stderr.write(`${r.outcome === 'pass' ? '.' : r.outcome === 'skip' ? 's' : 'F'}`);
  if (flag(values, 'as-bridge')) {
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
  // --port is where --as-bridge listens, so it does not name the bridge to check here.
  const bridge = agentBridge({
    'bridge-url': str(values, 'bridge-url'),
    against: str(values, 'against'),
    'config-dir': str(values, 'config-dir'),
  });
  if (!bridge) return 2;
  const against = bridge.agentUrl;
  const secret = readAgentSecret();
  if (!secret) {
    process.stderr.write(
      `No agent secret: set ${AGENT_SECRET_ENV} (from \`${cli('bridge --print-pairing')}\`) or pass the bridge's --config-dir.\n`,
    );
    return 2;
  }
  const results = await runConformance({ against, secret, ...(progress ? { onResult: progress } : {}) });
  if (!values.json) process.stderr.write('\n');
  process.stdout.write(values.json ? JSON.stringify(results, null, 2) + '\n' : formatReport(results) + '\n');
  return results.some((r) => r.outcome === 'fail') ? 1 : 0;
}
