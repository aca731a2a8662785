// The `browser-use-ext` command: dispatches to its subcommands (each in its own file, all parsing
// their arguments through shared-options.ts). No subcommand runs the bridge.
import { BRIDGE_VERSION } from '../common/version';
import { bridgeCommand } from './bridge-command';
import { cdpUrlCommand } from './cdp-url';
import { conformanceCommand } from './conformance';
import { connectCommand } from './connect';
import { mcpCommand, mcpTokenCommand } from './mcp';
import { pairCommand } from './pair';
import { serveCommand } from './serve';
import { BRIDGE_URL_ENV, BROWSER_ENV, DEFAULT_BRIDGE_URL, VERSION_LINE } from './shared-options';
import { statusCommand } from './status';
import { seed003Command } from './step-executor';
import type { SubcommandName } from './subcommand-names';
import { agentCommand, driverCommand } from './text-driver';

const SUBCOMMANDS: Record<SubcommandName, (argv: string[]) => Promise<number> | number> = {
  bridge: bridgeCommand,
  pair: pairCommand,
  serve: serveCommand,
  mcp: mcpCommand,
  'mcp-token': mcpTokenCommand,
  'cdp-url': cdpUrlCommand,
  status: statusCommand,
  agent: agentCommand,
  connect: connectCommand,
  seed002: driverCommand,
  seed003: seed003Command,
  conformance: conformanceCommand,
};

const HELP = `browser-use-ext ${BRIDGE_VERSION}: drive your own Chrome from agents, through the browser-use-ext extension.

Usage: browser-use-ext <command> [options]      (browser-use-ext <command> --help for its options)
       browser-use-ext --version                 (or -V: print the version)

Commands:
  bridge        run the bridge between the extension and your agents (the default command)
  pair          print a one-time code to pair the extension's side panel with the bridge
  serve         run the tasks typed in the side panel with browser_use's Agent (Python)
  agent         the built-in agent: tasks from the side panel, or one --goal, on any OpenAI-compatible model
  mcp           an MCP server on stdio for Claude Desktop/Code, Cursor, VS Code, ...
  mcp-token     bearer tokens for MCP clients over HTTP (add NAME | list | revoke NAME)
  cdp-url       a Chrome DevTools Protocol URL for browser_use, Playwright, puppeteer, chrome-devtools-mcp
  status        the browsers connected to the running bridge and the agents working in each
  connect       connect a seed 000/001 backend to this browser
  seed002       the built-in agent's text driver as a JSON-lines pipe
  seed003       one seed 003 execution step from JSON on stdin
  conformance   the protocol conformance kit

Every command takes --bridge-url URL (default $${BRIDGE_URL_ENV}, else ${DEFAULT_BRIDGE_URL}) and --config-dir DIR.
Commands that start an agent take --browser NAME (default $${BROWSER_ENV}): the browser to work in, by its panel's name.
`;

function commandOf(name: string): ((argv: string[]) => Promise<number> | number) | undefined {
  return Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name as SubcommandName] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === undefined) return bridgeCommand([]);
  if (first === '-V' || first === '--version') {
    process.stdout.write(VERSION_LINE);
    return 0;
  }
  if (first === '-h' || first === '--help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === 'help') {
    const sub = argv[1] === undefined ? undefined : commandOf(argv[1]);
    if (sub) return sub(['--help']);
    process.stdout.write(HELP);
    return argv[1] === undefined ? 0 : 2;
  }
  const sub = commandOf(first);
  if (sub) return sub(argv.slice(1));
  // `browser-use-ext --port 0 ...`: options without a command are the bridge's (as before).
  if (first.startsWith('-')) return bridgeCommand(argv);
  process.stderr.write(`browser-use-ext: unknown command "${first}"; see browser-use-ext --help\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`browser-use-ext: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
