// `browser-use-ext conformance --against ws://127.0.0.1:PORT/agent`: runs the kit as an agent and
// prints the report; exit 0 only when every check passes.
import { parseArgs } from 'node:util';
import { readAgentSecret, AGENT_SECRET_ENV } from '../secrets';
import { formatReport, runConformance } from './checks';

export async function conformanceCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { against: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || !values.against) {
    process.stdout.write(`Usage: browser-use-ext conformance --against ws://127.0.0.1:PORT/agent [--json]\nRuns the protocol conformance kit as an agent against a bridge (and the extension behind it): handshake, schema checks both ways, every action, the error codes. Needs the agent secret ($${AGENT_SECRET_ENV} or the bridge's secrets file) and a connected extension.\n`);
    return values.help ? 0 : 2;
  }
  const secret = readAgentSecret();
  if (!secret) {
    process.stderr.write(`No agent secret: set ${AGENT_SECRET_ENV}.\n`);
    return 2;
  }
  const results = await runConformance({ against: values.against, secret, onResult: values.json ? undefined : (r) => process.stderr.write(`${r.outcome === 'pass' ? '.' : r.outcome === 'skip' ? 's' : 'F'}`) });
  if (!values.json) process.stderr.write('\n');
  process.stdout.write(values.json ? JSON.stringify(results, null, 2) + '\n' : formatReport(results) + '\n');
  return results.some((r) => r.outcome === 'fail') ? 1 : 0;
}
