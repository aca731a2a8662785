// The options every `browser-use-ext` subcommand shares (--bridge-url, --config-dir, --log-level,
// -h/--help), how each subcommand's --help is laid out, and how arguments are parsed: one module so
// that every subcommand names the bridge the same way, honours $BROWSER_USE_EXT_BRIDGE_URL, prints
// its help in the same columns and refuses an unknown option with one line and exit 2.
// python-shim-spec/browser_use_ext/serve.py prints the same shared lines (test/integration/cli-help.spec.ts
// checks that they are identical).
import { parseArgs } from 'node:util';

import { LOG_LEVELS, type LogLevel } from '../common/log';
import { DEFAULT_PORT } from '../common/ports';
import { CONFIG_DIR_ENV } from '../common/secrets';
import { BRIDGE_VERSION } from '../common/version';

export const PRODUCT = 'browser-use-ext';
export const BRIDGE_URL_ENV = 'BROWSER_USE_EXT_BRIDGE_URL';
export const DEFAULT_BRIDGE_URL = `ws://127.0.0.1:${DEFAULT_PORT}`;
/** The browser (Chrome profile, Edge, Brave...) an agent works in, by the name its side panel shows. */
export const BROWSER_ENV = 'BROWSER_USE_EXT_BROWSER';

/** Where the option's text starts in every help (two spaces, the flags, padding). */
export const HELP_COLUMN = 28;

export type SharedOption = 'bridge-url' | 'config-dir' | 'log-level';

export interface HelpRow {
  flags: string;
  text: string;
}

/** The shared options' help rows, in the order every subcommand lists them (help always last). */
/** What --version prints: the package version (package.json "version", kept equal to BRIDGE_VERSION by a unit test). */
export const VERSION_LINE = `browser-use-ext ${BRIDGE_VERSION}\n`;

export const SHARED_ROWS: Record<SharedOption | 'help', HelpRow> = {
  'bridge-url': {
    flags: '--bridge-url <url>',
    text: `the bridge's address (default $${BRIDGE_URL_ENV}, else ${DEFAULT_BRIDGE_URL})`,
  },
  'config-dir': {
    flags: '--config-dir <dir>',
    text: `where secrets.json lives (default $${CONFIG_DIR_ENV}, else ~/.config/browser-use-ext)`,
  },
  'log-level': { flags: '--log-level <lvl>', text: `${LOG_LEVELS.join(' | ')} (default info)` },
  help: { flags: '-h, --help', text: 'show this help (the version: browser-use-ext --version)' },
};
const SHARED_ORDER: SharedOption[] = ['bridge-url', 'config-dir', 'log-level'];

/** --replace: `mcp-token add` and `cdp-url --name` replace a credential of that name only when asked (common/name-taken.ts). */
export const REPLACE_OPTION: CommandSpec['options'][number] = {
  name: 'replace',
  spec: { type: 'boolean' },
  row: { flags: '--replace', text: 'replace the one of that name (it stops working at once); without it an existing name is refused' },
};

/** The header of `mcp-token list` and `cdp-url --list`: the same names for the same columns, name and date first. */
export const LIST_HEAD = ['NAME', 'CREATED', 'BROWSER'] as const;

export function helpRow(r: HelpRow): string {
  const head = `  ${r.flags}`;
  return head.length + 2 > HELP_COLUMN ? `${head}\n${' '.repeat(HELP_COLUMN)}${r.text}` : `${head.padEnd(HELP_COLUMN)}${r.text}`;
}

type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };

export interface Alias {
  /** The older flag, e.g. "bridge" for --bridge. */
  name: string;
  type: 'string';
  /** How it maps onto --bridge-url, for the help ("same as --bridge-url"). */
  text: string;
}

export interface CommandSpec {
  /** The subcommand as typed, e.g. "connect" ('' for the top level). */
  name: string;
  /** Usage lines (without "Usage: "), the first one in full. */
  usage: string[];
  /** What the subcommand does, in a few plain lines. */
  about: string;
  /** The subcommand's own options, with their help rows (hidden ones have no row). */
  options: { name: string; spec: OptionSpec; row?: HelpRow }[];
  shared: SharedOption[];
  aliases?: Alias[];
  allowPositionals?: boolean;
  /** Lines after the options (where the secret comes from, examples). */
  footer?: string;
}

export function renderHelp(c: CommandSpec): string {
  const usage = c.usage.map((u, i) => `${i === 0 ? 'Usage: ' : '       '}${u}`).join('\n');
  const rows = [
    ...c.options.flatMap((o) => (o.row ? [o.row] : [])),
    ...SHARED_ORDER.filter((s) => c.shared.includes(s)).map((s) => SHARED_ROWS[s]),
    SHARED_ROWS.help,
  ];
  const aliases = c.aliases?.length
    ? `\nOlder flags, still accepted:\n${c.aliases.map((a) => helpRow({ flags: `--${a.name} <${a.name === 'port' ? 'n' : 'url'}>`, text: a.text })).join('\n')}\n`
    : '';
  return (
    `${usage}\n\n${c.about.trimEnd()}\n\nOptions:\n${rows.map(helpRow).join('\n')}\n${aliases}` +
    (c.footer ? `\n${c.footer.trimEnd()}\n` : '')
  );
}

export type Values = Record<string, string | boolean | string[] | undefined>;
export type Parsed = { ok: true; values: Values; positionals: string[] } | { ok: false; exitCode: number };

const SHARED_SPECS: Record<SharedOption, OptionSpec> = {
  'bridge-url': { type: 'string' },
  'config-dir': { type: 'string' },
  'log-level': { type: 'string' },
};

/** One line for an argument parseArgs refused (it says more, over several sentences). */
function parseErrorLine(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const msg = err.message ?? String(e);
  const quoted = /'([^']+)'/.exec(msg)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${quoted ?? msg}`;
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument "${quoted ?? msg}"`;
  if (quoted && /argument missing/.test(msg)) return `option ${quoted.replace(/ <value>$/, '')}: argument missing`;
  if (quoted && /does not take an argument/.test(msg)) return `option ${quoted} takes no value`;
  return (msg.split('. ')[0] ?? msg).replace(/\.$/, '');
}

/**
 * Parses argv for a subcommand. --help prints the help on stdout (exit 0); anything it does not know
 * prints one line on stderr (exit 2). Writes go through out/err so tests can capture them.
 */
export function parseCommand(
  c: CommandSpec,
  argv: string[],
  io: { out: (s: string) => void; err: (s: string) => void } = {
    out: (s) => void process.stdout.write(s),
    err: (s) => void process.stderr.write(s),
  },
): Parsed {
  // --version is a top-level option (main.ts); a subcommand answers it the same way rather than
  // refusing it, without listing it in each help.
  const options: Record<string, OptionSpec> = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'V' } };
  for (const s of c.shared) options[s] = SHARED_SPECS[s];
  for (const o of c.options) options[o.name] = o.spec;
  for (const a of c.aliases ?? []) options[a.name] = { type: a.type };
  const cmd = c.name ? `browser-use-ext ${c.name}` : PRODUCT;
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: c.allowPositionals ?? false, strict: true }) as typeof parsed;
  } catch (e) {
    io.err(`${cmd}: ${parseErrorLine(e)}; see ${cmd} --help\n`);
    return { ok: false, exitCode: 2 };
  }
  if (parsed.values['help'] === true) {
    io.out(renderHelp(c));
    return { ok: false, exitCode: 0 };
  }
  if (parsed.values['version'] === true) {
    io.out(VERSION_LINE);
    return { ok: false, exitCode: 0 };
  }
  return { ok: true, values: parsed.values, positionals: parsed.positionals };
}

export function str(v: Values, name: string): string | undefined {
  const x = v[name];
  return typeof x === 'string' ? x : undefined;
}

export function flag(v: Values, name: string): boolean {
  return v[name] === true;
}

/** Where a bridge is: the URL a person gave, reduced to what the bridge serves at that host and port. */
export interface BridgeAddress {
  host: string;
  port: number;
  secure: boolean;
  /** ws://host:port/agent */
  agentUrl: string;
  /** ws://host:port/extension */
  extensionUrl: string;
  /** http://host:port */
  httpBase: string;
}

/** ws(s)://, http(s):// or host:port; the path (/agent, /extension, /mcp, ...) is ignored. */
export function parseBridgeUrl(text: string): BridgeAddress | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `ws://${text}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return null;
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(u.protocol) || !u.hostname) return null;
  const secure = u.protocol === 'wss:' || u.protocol === 'https:';
  const port = u.port ? Number(u.port) : secure ? 443 : DEFAULT_PORT;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const hostPort = `${u.hostname}:${port}`;
  return {
    host,
    port,
    secure,
    agentUrl: `${secure ? 'wss' : 'ws'}://${hostPort}/agent`,
    extensionUrl: `${secure ? 'wss' : 'ws'}://${hostPort}/extension`,
    httpBase: `${secure ? 'https' : 'http'}://${hostPort}`,
  };
}

/**
 * The bridge a subcommand talks to: --bridge-url, else an older flag that named it (--bridge URL,
 * --against URL, --port N), else $BROWSER_USE_EXT_BRIDGE_URL, else 127.0.0.1 at the default port.
 * A flag always wins over the environment. Returns the one line to print when it is not a bridge URL.
 */
export function resolveBridge(
  v: Values,
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; address: BridgeAddress } | { ok: false; line: string } {
  const given = str(v, 'bridge-url');
  const alias = str(v, 'bridge') ?? str(v, 'against');
  const port = str(v, 'port');
  const fromEnv = env[BRIDGE_URL_ENV] || undefined;
  let text: string;
  let source: string;
  if (given !== undefined) [text, source] = [given, '--bridge-url'];
  else if (alias !== undefined) [text, source] = [alias, v['bridge'] !== undefined ? '--bridge' : '--against'];
  else if (port !== undefined) {
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65535) return { ok: false, line: `--port must be an integer 1-65535, got "${port}".` };
    [text, source] = [`ws://127.0.0.1:${n}`, '--port'];
  } else if (fromEnv !== undefined) [text, source] = [fromEnv, `$${BRIDGE_URL_ENV}`];
  else [text, source] = [DEFAULT_BRIDGE_URL, 'default'];
  const address = parseBridgeUrl(text);
  if (!address || address.port < 1 || address.port > 65535)
    return { ok: false, line: `${source} must be a bridge URL like ${DEFAULT_BRIDGE_URL}, got "${text}".` };
  return { ok: true, address };
}

export function logLevel(v: Values): { ok: true; level: LogLevel } | { ok: false; line: string } {
  const level = (str(v, 'log-level') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) return { ok: false, line: `--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}".` };
  return { ok: true, level };
}

/**
 * --config-dir for a subcommand that connects as an agent: the agent secret is read from that
 * directory's secrets.json (unless $BROWSER_USE_EXT_AGENT_SECRET is set), by every client the
 * subcommand starts, including on a re-read after the bridge refused the secret.
 */
export function applyConfigDir(v: Values, env: NodeJS.ProcessEnv = process.env): void {
  const dir = str(v, 'config-dir');
  if (dir !== undefined) env[CONFIG_DIR_ENV] = dir;
}

/**
 * The bridge an agent subcommand connects to, with --config-dir applied: what connect, agent,
 * seed002, seed003 and conformance all do first. On a bad address it prints the one-line reason to
 * stderr and returns undefined; the caller exits 2.
 */
export function agentBridge(v: Values, env: NodeJS.ProcessEnv = process.env): BridgeAddress | undefined {
  const where = resolveBridge(v, env);
  if (!where.ok) {
    process.stderr.write(`${where.line}\n`);
    return undefined;
  }
  applyConfigDir(v, env);
  return where.address;
}

/**
 * --browser NAME, the same option on every subcommand that starts or mints an agent (connect, agent,
 * mcp, cdp-url, seed002, seed003; serve.py prints the same row), so a person names a browser with one word everywhere.
 */
export const BROWSER_OPTION: CommandSpec['options'][number] = {
  name: 'browser',
  spec: { type: 'string' },
  row: {
    flags: '--browser <name>',
    text: `the browser to work in, by the name its side panel shows (default $${BROWSER_ENV}, else the one used last)`,
  },
};

/** What hello.browser_name allows (schemas/v1/defs/browser_info.json): 1-64 characters, no control characters. */
function isBrowserName(text: string): boolean {
  const chars = [...text];
  return chars.length >= 1 && chars.length <= 64 && chars.every((c) => c.charCodeAt(0) >= 0x20);
}

/**
 * The browser an agent subcommand asks for: --browser, else $BROWSER_USE_EXT_BROWSER (a flag wins over
 * the environment; an empty variable counts as unset), else none (the bridge picks the only connected
 * browser, or the one the person used last). Returns the one line to print for a name no browser can have.
 */
export function browserChoice(
  v: Values,
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; name: string | undefined } | { ok: false; line: string } {
  const given = str(v, 'browser');
  const fromEnv = env[BROWSER_ENV]?.trim() || undefined;
  const [text, source] = given !== undefined ? [given.trim(), '--browser'] : [fromEnv, `$${BROWSER_ENV}`];
  if (text === undefined) return { ok: true, name: undefined };
  if (!isBrowserName(text))
    return {
      ok: false,
      line: `${source} must be a browser's name as its side panel shows it (1-64 characters, e.g. "Chrome" or "Work"), got ${JSON.stringify(text)}.`,
    };
  return { ok: true, name: text };
}

/** browserChoice() for a subcommand: prints the line and returns null when the name cannot be one. */
export function agentBrowser(v: Values, env: NodeJS.ProcessEnv = process.env): { name: string | undefined } | null {
  const b = browserChoice(v, env);
  if (b.ok) return { name: b.name };
  process.stderr.write(`${b.line}\n`);
  return null;
}

/** "same as --bridge-url" rows for the older flags. */
export const ALIAS_BRIDGE: Alias = { name: 'bridge', type: 'string', text: 'same as --bridge-url' };
export const ALIAS_PORT: Alias = { name: 'port', type: 'string', text: 'same as --bridge-url ws://127.0.0.1:<n>' };
export const ALIAS_AGAINST: Alias = { name: 'against', type: 'string', text: 'same as --bridge-url' };
