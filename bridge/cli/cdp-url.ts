// `browser-use-ext cdp-url`: makes, lists and revokes the URLs standard CDP clients (browser_use,
// Playwright, puppeteer, chrome-devtools-mcp) use to reach this browser through the bridge
// (agents/cdp). The URL alone goes to stdout, so `export CDP_URL=$(browser-use-ext cdp-url)` works;
// everything else (how to use it, what it replaced) goes to stderr.
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
import { cli } from '../common/cli-invocation';
import { configDir } from '../common/secrets';
import {
  agentBrowser,
  ALIAS_PORT,
  BROWSER_OPTION,
  type CommandSpec,
  flag,
  LIST_HEAD,
  parseCommand,
  REPLACE_OPTION,
  resolveBridge,
  str,
} from './shared-options';

export const CDP_URL_COMMAND: CommandSpec = {
  name: 'cdp-url',
  usage: [
    `browser-use-ext cdp-url [--name NAME] [--tabs N] [--browser B] [--replace] [options]`,
    `browser-use-ext cdp-url --list`,
    `browser-use-ext cdp-url --revoke NAME`,
  ],
  about:
    `Makes a Chrome DevTools Protocol URL for a standard CDP client (browser_use, Playwright\n` +
    `connectOverCDP, puppeteer, chrome-devtools-mcp) to drive this browser through the bridge. Each\n` +
    `connection is an agent session: it sees only the tabs it opens or is handed, within its tab limit,\n` +
    `and the person can stop it from the side panel. Prints the URL alone on stdout (shown once; only\n` +
    `its hash is kept), how to use it on stderr. The URL points at the bridge of --bridge-url (or --port).`,
  options: [
    {
      name: 'name',
      spec: { type: 'string' },
      row: { flags: '--name <name>', text: `which client it is for (default ${DEFAULT_CDP_NAME}); a name in use needs --replace` },
    },
    {
      name: 'tabs',
      spec: { type: 'string' },
      row: { flags: '--tabs <n>', text: `tabs the client may hold at once (default ${DEFAULT_CDP_MAX_TABS}, at most ${MAX_CDP_TABS})` },
    },
    BROWSER_OPTION,
    REPLACE_OPTION,
    {
      name: 'list',
      spec: { type: 'boolean' },
      row: { flags: '--list', text: "the URLs' names, dates, browsers and tab limits (never the URLs)" },
    },
    {
      name: 'revoke',
      spec: { type: 'string' },
      row: { flags: '--revoke <name>', text: 'the URL stops working and its clients are disconnected (no restart)' },
    },
  ],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_PORT],
};

export async function cdpUrlCommand(argv: string[]): Promise<number> {
  const p = parseCommand(CDP_URL_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const v = p.values;
  const values = { ...v, list: flag(v, 'list'), revoke: str(v, 'revoke'), tabs: str(v, 'tabs'), name: str(v, 'name') };
  const dir = str(v, 'config-dir') ?? configDir();
  const file = cdpClientsPath(dir);
  try {
    if (values.list) {
      const all = listCdpClients(dir);
      if (!all.length) {
        process.stderr.write(`No CDP URLs (file ${file}). Make one with: ${cli('cdp-url --name NAME')}\n`);
        return 0;
      }
      // Name, date and browser first, as `mcp-token list`. BROWSER: the browser the URL is bound to;
      // "(last used)" follows the bridge's rule at connect time.
      process.stdout.write(
        `${[...LIST_HEAD, 'TABS', 'LAST USED', 'STOPPED'].join('\t')}\n` +
          all
            .map(
              (r) =>
                `${r.name}\t${r.created_at}\t${r.browser ?? '(last used)'}\t${r.max_tabs}\t${r.last_used_at ?? 'never'}\t${r.stopped_at ?? 'no'}\n`,
            )
            .join(''),
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
  const where = resolveBridge(v);
  if (!where.ok) {
    process.stderr.write(`${where.line}\n`);
    return 2;
  }
  const browser = agentBrowser(v);
  if (!browser) return 2;
  const base = where.address.httpBase;
  const name = values.name ?? DEFAULT_CDP_NAME;
  let minted;
  try {
    minted = mintCdpClient(dir, {
      name,
      maxTabs: tabs,
      ifExists: flag(v, 'replace') ? 'replace' : 'refuse',
      ...(browser.name === undefined ? {} : { browser: browser.name }),
    });
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const url = `${base}/cdp/${minted.token}`;
  const ws = cdpBrowserWsUrl(url);
  process.stdout.write(`${url}\n`);
  const reach = await probe(url, browser.name);
  const where_ =
    browser.name === undefined
      ? 'in the browser the person used last (or the only one connected)'
      : `in the browser named "${browser.name}"`;
  process.stderr.write(
    `CDP URL "${name}" (up to ${tabs} tab${tabs === 1 ? '' : 's'} at once, ${where_}). Shown only now: ${file} keeps only its hash.\n` +
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
      `Revoke it with: ${cli(`cdp-url --revoke ${name}`)} (or in the extension's side panel).\n`,
  );
  return 0;
}

/**
 * Whether the bridge at the URL's address answers for it and has the browser extension connected:
 * lines for stderr ('' when all is well). The URL itself works once both are true.
 */
async function probe(url: string, browser: string | undefined): Promise<string> {
  const host = new URL(url).host;
  try {
    const r = await fetch(`${url}/json/version`, { signal: AbortSignal.timeout(1500) });
    if (r.status === 404)
      return `Warning: the bridge at ${host} does not know this URL: it reads another config dir. Run this command with that bridge's --config-dir.\n`;
    if (!r.ok) return `Warning: the bridge at ${host} answered ${r.status} for this URL.\n`;
  } catch {
    return `No bridge answers at ${host} now: start it with \`${cli('bridge')}\`; the URL works once it runs and the browser extension is connected to it.\n`;
  }
  const seen = await connectedBrowsers(url);
  if (seen === null || (browser === undefined && seen.anyConnected)) return '';
  if (!seen.anyConnected)
    return (
      `Warning: no browser extension is connected to the bridge at ${host}, so a client would get no tab. Open Chrome where ` +
      `the extension is paired with this bridge (\`${cli('pair')}\`), then connect the client.\n`
    );
  if (browser === undefined || seen.names === null || seen.names.some((n) => n.toLowerCase() === browser.toLowerCase())) return '';
  return (
    `Warning: no browser named "${browser}" is connected to the bridge at ${host} now (connected: ${seen.names.map((n) => `"${n}"`).join(', ')}). ` +
    `A client gets no tab until it is: open that browser with the extension, or make the URL again with one of those names.\n`
  );
}

/**
 * What the bridge's /status says of its browsers: whether any extension is connected and, from a bridge
 * that lists them, the connected browsers' names. null when unknown (no false alarm).
 */
async function connectedBrowsers(url: string): Promise<{ anyConnected: boolean; names: string[] | null } | null> {
  try {
    const r = await fetch(`${new URL(url).origin}/status`, { signal: AbortSignal.timeout(1500) });
    const body = (await r.json()) as { extension?: unknown; browsers?: unknown };
    const ext = body.extension;
    const anyConnected = ext === true || (typeof ext === 'object' && ext !== null && (ext as { connected?: unknown }).connected !== false);
    const names = Array.isArray(body.browsers)
      ? (body.browsers as { name?: unknown; connected?: unknown }[])
          .filter((b) => b.connected === true && typeof b.name === 'string')
          .map((b) => b.name as string)
      : null;
    return { anyConnected: ext === undefined ? true : anyConnected, names };
  } catch {
    return null;
  }
}
