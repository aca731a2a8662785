// `browser-use-ext status`: what the running bridge serves now, read from its /status: the browsers
// connected to it (each Chrome profile or Chromium browser with the extension: name, brand, version,
// agents, held tabs) and the agent sessions with the browser each works in. A person with a work and
// a personal profile sees which names to give --browser / BROWSER_USE_EXT_BROWSER. --json prints
// /status as the bridge gave it, for scripts.
import type { BrowserInfo } from '../../schemas/generated/protocol';
import { cli } from '../common/cli-invocation';
import { ALIAS_PORT, type CommandSpec, flag, parseCommand, resolveBridge } from './shared-options';

export const STATUS_COMMAND: CommandSpec = {
  name: 'status',
  usage: [`browser-use-ext status [--json] [options]`],
  about:
    `Shows what the running bridge serves: the browsers connected to it (name, brand, version, agents,\n` +
    `held tabs) and the agent sessions with the browser each works in. Name a browser to an agent with\n` +
    `--browser NAME or $BROWSER_USE_EXT_BROWSER.`,
  options: [{ name: 'json', spec: { type: 'boolean' }, row: { flags: '--json', text: "print the bridge's /status JSON as it is" } }],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_PORT],
};

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

const STDIO: Io = { out: (s) => void process.stdout.write(s), err: (s) => void process.stderr.write(s) };

/** The parts of /status this command reads; every field is checked before use (an older bridge lacks some). */
interface StatusSession {
  session_id?: unknown;
  connected?: unknown;
  client?: { name?: unknown; model?: unknown } | null;
  tabs?: unknown;
  browser?: unknown;
}

const text = (v: unknown, fallback = '-'): string => (typeof v === 'string' && v !== '' ? v : fallback);

/** Rows as columns two spaces apart (the header first), each line without trailing spaces. */
export function columns(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd()).join('\n') + '\n';
}

function isBrowserInfo(b: unknown): b is BrowserInfo {
  const x = b as Partial<BrowserInfo> | null;
  return typeof x === 'object' && x !== null && typeof x.name === 'string' && typeof x.connected === 'boolean';
}

/** The person-readable status: browsers, then agent sessions. */
export function renderStatus(body: Record<string, unknown>, where: string): string {
  const bridge = body['bridge'] as { version?: unknown } | undefined;
  let out = `Bridge ${text(bridge?.version, '?')} at ${where}\n`;
  const browsers = Array.isArray(body['browsers']) ? body['browsers'].filter(isBrowserInfo) : null;
  if (browsers === null) {
    // A bridge from before several browsers: it knows one extension, and no names.
    const ext = body['extension'] as { connected?: unknown } | boolean | undefined;
    const up = ext === true || (typeof ext === 'object' && ext?.connected === true);
    out += `\nBrowser: ${up ? 'the extension is connected' : 'no extension is connected'} (this bridge does not name browsers).\n`;
  } else if (browsers.length === 0) {
    out += `\nNo browser is connected. Open Chrome where the extension is paired with this bridge (${cli('pair')}).\n`;
  } else {
    out += `\nBrowsers:\n`;
    out += columns([
      ['NAME', 'BRAND', 'VERSION', 'AGENTS', 'HELD TABS', 'STATE'],
      ...browsers.map((b) => [
        b.name,
        text(b.brand),
        text(b.product),
        String(b.agents ?? 0),
        String(b.held_tabs ?? 0),
        b.connected ? 'connected' : 'away',
      ]),
    ]);
  }
  const sessions = (Array.isArray(body['sessions']) ? body['sessions'] : []) as StatusSession[];
  if (sessions.length === 0) return out + `\nNo agent sessions.\n`;
  out += `\nAgent sessions:\n`;
  out += columns([
    ['SESSION', 'CLIENT', 'BROWSER', 'TABS', 'STATE'],
    ...sessions.map((s) => {
      const model = typeof s.client?.model === 'string' ? ` (${s.client.model})` : '';
      return [
        text(s.session_id),
        `${text(s.client?.name, 'unknown agent')}${model}`,
        // An agent that named a browser none has, or none yet connected: it waits for one.
        text(s.browser, browsers === null ? '-' : '(none yet)'),
        String(Array.isArray(s.tabs) ? s.tabs.length : 0),
        s.connected === true ? 'connected' : 'awaiting resume',
      ];
    }),
  ]);
  return out;
}

export async function statusCommand(argv: string[], io: Io = STDIO): Promise<number> {
  const p = parseCommand(STATUS_COMMAND, argv, io);
  if (!p.ok) return p.exitCode;
  const where = resolveBridge(p.values);
  if (!where.ok) {
    io.err(`${where.line}\n`);
    return 2;
  }
  const url = `${where.address.httpBase}/status`;
  let body: Record<string, unknown>;
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!r.ok) {
      io.err(`The bridge at ${where.address.httpBase} answered ${r.status} for /status: is it a browser-use-ext bridge of this version?\n`);
      return 1;
    }
    body = (await r.json()) as Record<string, unknown>;
  } catch {
    io.err(`No bridge answers at ${where.address.httpBase}: start it with \`${cli('bridge')}\` (or name its address with --bridge-url).\n`);
    return 1;
  }
  io.out(flag(p.values, 'json') ? `${JSON.stringify(body, null, 2)}\n` : renderStatus(body, where.address.httpBase));
  return 0;
}
