// `browser-use-ext cdp-url`: makes, lists and revokes the URLs standard CDP clients (browser_use,
// Playwright, puppeteer, chrome-devtools-mcp) use to reach this browser through the bridge
// (agents/cdp). The URL alone goes to stdout, so `export CDP_URL=$(browser-use-ext cdp-url)` works;
// everything else (how to use it, what it replaced) goes to stderr.
import { parseArgs } from 'node:util';

import {
  cdpBrowserWsUrl,
  cdpClientsPath,
  DEFAULT_CDP_MAX_TABS,
  DEFAULT_CDP_NAME,
  listCdpClients,
  MAX_CDP_TABS,
  mintCdpClient,
  revokeCdpClient,
} from '../agents/cdp/cdp-clients-file';
import { DEFAULT_PORT } from '../common/ports';
import { CONFIG_DIR_ENV, configDir } from '../common/secrets';
import { BRIDGE_URL_ENV } from './mcp';

const DEFAULT_BRIDGE = `http://127.0.0.1:${DEFAULT_PORT}`;

export const CDP_URL_HELP = `Usage: browser-use-ext cdp-url [--name NAME] [--tabs N] [--bridge-url URL] [--config-dir DIR]
       browser-use-ext cdp-url --list
       browser-use-ext cdp-url --revoke NAME

Makes a Chrome DevTools Protocol URL for a standard CDP client (browser_use, Playwright
connectOverCDP, puppeteer, chrome-devtools-mcp) to drive this browser through the bridge. Each
connection is an agent session: it sees only the tabs it opens or is handed, within its tab limit,
and the person can stop it from the side panel. Prints the URL alone on stdout (shown once; only
its hash is kept), how to use it on stderr.

  --name <name>         which client it is for (default ${DEFAULT_CDP_NAME}); making a name again replaces its URL
  --tabs <n>            tabs the client may hold at once (default ${DEFAULT_CDP_MAX_TABS}, at most ${MAX_CDP_TABS})
  --list                the URLs' names, tab limits and dates (never the URLs)
  --revoke <name>       the URL stops working and its clients are disconnected (no restart)
  --bridge-url <url>    the bridge the URL points at (default $${BRIDGE_URL_ENV}, else ${DEFAULT_BRIDGE})
  --config-dir <dir>    where cdp-clients.json lives (default $${CONFIG_DIR_ENV}, else $XDG_CONFIG_HOME/browser-use-ext, else ~/.config/browser-use-ext)
  -h, --help            show this help
`;

/** http://host:port of the bridge from --bridge-url / $BROWSER_USE_EXT_BRIDGE_URL (http or ws, any path). */
function bridgeBase(given: string | undefined): string | null {
  if (given === undefined || given === '') return DEFAULT_BRIDGE;
  let u: URL;
  try {
    u = new URL(given);
  } catch {
    return null;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return null;
  return `http://${u.host}`;
}

export async function cdpUrlCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        name: { type: 'string' },
        tabs: { type: 'string' },
        list: { type: 'boolean' },
        revoke: { type: 'string' },
        'bridge-url': { type: 'string' },
        'config-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n\n${CDP_URL_HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(CDP_URL_HELP);
    return 0;
  }
  const dir = values['config-dir'] ?? configDir();
  const file = cdpClientsPath(dir);
  try {
    if (values.list) {
      const all = listCdpClients(dir);
      if (!all.length) {
        process.stderr.write(`No CDP URLs (file ${file}). Make one with: browser-use-ext cdp-url --name NAME\n`);
        return 0;
      }
      process.stdout.write(
        `NAME\tTABS\tCREATED\tLAST USED\n` +
          all.map((r) => `${r.name}\t${r.max_tabs}\t${r.created_at}\t${r.last_used_at ?? 'never'}\n`).join(''),
      );
      return 0;
    }
    if (values.revoke !== undefined) {
      if (!revokeCdpClient(dir, values.revoke)) {
        const names = listCdpClients(dir).map((r) => r.name);
        process.stderr.write(
          `No CDP URL is named "${values.revoke}" in ${file}` +
            (names.length ? `; the names are: ${names.join(', ')}.\n` : '; there are none.\n'),
        );
        return 1;
      }
      process.stderr.write(
        `Revoked "${values.revoke}": the URL stops working now, and a running bridge disconnects its clients within a second.\n`,
      );
      return 0;
    }
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }

  const tabs = values.tabs === undefined ? DEFAULT_CDP_MAX_TABS : Number(values.tabs);
  if (!Number.isInteger(tabs) || tabs < 1 || tabs > MAX_CDP_TABS) {
    process.stderr.write(`--tabs must be an integer 1-${MAX_CDP_TABS}, got "${values.tabs}".\n`);
    return 2;
  }
  const givenBridge = values['bridge-url'] ?? process.env[BRIDGE_URL_ENV];
  const base = bridgeBase(givenBridge);
  if (!base) {
    process.stderr.write(`The bridge URL must look like ${DEFAULT_BRIDGE}, got "${givenBridge}".\n`);
    return 2;
  }
  const name = values.name ?? DEFAULT_CDP_NAME;
  let minted;
  try {
    minted = mintCdpClient(dir, { name, maxTabs: tabs });
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const url = `${base}/cdp/${minted.token}`;
  const ws = cdpBrowserWsUrl(url);
  process.stdout.write(`${url}\n`);
  const reach = await probe(url);
  process.stderr.write(
    `CDP URL "${name}" (up to ${tabs} tab${tabs === 1 ? '' : 's'} at once). Shown only now: ${file} keeps only its hash.\n` +
      (minted.replaced
        ? `It replaces the earlier URL named "${name}": that one stops working now and its clients are disconnected.\n`
        : '') +
      reach +
      `\nPython (browser_use):\n` +
      `  from browser_use import Agent, Browser, ChatOpenAI\n` +
      `  agent = Agent(task="...", llm=ChatOpenAI(model="gpt-4.1-mini"), browser=Browser(cdp_url="${url}"))\n` +
      `  await agent.run()\n` +
      `Playwright:           const browser = await chromium.connectOverCDP('${url}');\n` +
      // puppeteer's browserURL drops the path (it fetches /json/version from the root), so it gets the WebSocket.
      `puppeteer:            const browser = await puppeteer.connect({ browserWSEndpoint: '${ws}' });\n` +
      `chrome-devtools-mcp:  npx chrome-devtools-mcp --wsEndpoint ${ws}\n` +
      `Revoke it with: browser-use-ext cdp-url --revoke ${name} (or in the extension's side panel).\n`,
  );
  return 0;
}

/** Whether the bridge at the URL's address answers for it; one line for stderr ('' when all is well). */
async function probe(url: string): Promise<string> {
  try {
    const r = await fetch(`${url}/json/version`, { signal: AbortSignal.timeout(1500) });
    if (r.ok) return '';
    if (r.status === 404)
      return `Warning: the bridge at ${new URL(url).host} does not know this URL: it reads another config dir. Run this command with that bridge's --config-dir.\n`;
    return `Warning: the bridge at ${new URL(url).host} answered ${r.status} for this URL.\n`;
  } catch {
    return `No bridge answers at ${new URL(url).host} now: start it with \`npx browser-use-ext bridge\`; the URL works once it runs.\n`;
  }
}
