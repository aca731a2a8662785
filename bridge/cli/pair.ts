// `browser-use-ext pair`: prints a one-time pairing code and link (pairing.ts) so the person pairs the
// extension by typing 8 characters (or opening a link) instead of copying the secret by hand.
import { spawn } from 'node:child_process';

import { cli } from '../common/cli-invocation';
import { configDirId } from '../common/config-dir-id';
import { EXTENSION_ID } from '../common/extension-id';
import { DEFAULT_PORT } from '../common/ports';
import { configDir, loadOrCreateSecrets } from '../common/secrets';
import { writePairingCode } from '../src/pairing';
import { ALIAS_PORT, type BridgeAddress, type CommandSpec, flag, parseBridgeUrl, parseCommand, resolveBridge, str } from './shared-options';

export interface PairOptions {
  configDir: string;
  /** The bridge the extension is to reach (its /extension endpoint goes into the link). */
  bridge: BridgeAddress;
  open: boolean;
  extensionId?: string;
}

export const PAIR_COMMAND: CommandSpec = {
  name: 'pair',
  usage: [`browser-use-ext pair [--open] [options]`],
  about:
    `Prints a one-time pairing code and link for the extension's side panel, so you pair the extension
` + `by typing 8 characters instead of copying a secret. Run it with the bridge's --config-dir.`,
  options: [
    { name: 'open', spec: { type: 'boolean' }, row: { flags: '--open', text: 'open the pairing link in your default browser' } },
    {
      name: 'extension-id',
      spec: { type: 'string', multiple: true },
      row: { flags: '--extension-id <id>', text: `the extension the link opens (default ${EXTENSION_ID})` },
    },
  ],
  shared: ['bridge-url', 'config-dir'],
  aliases: [ALIAS_PORT],
};

export async function pairCommand(argv: string[]): Promise<number> {
  const p = parseCommand(PAIR_COMMAND, argv);
  if (!p.ok) return p.exitCode;
  const where = resolveBridge(p.values);
  if (!where.ok) {
    process.stderr.write(`${where.line}\n`);
    return 2;
  }
  const ids = p.values['extension-id'];
  const extensionId = Array.isArray(ids) ? ids[0] : undefined;
  return runPair({
    configDir: str(p.values, 'config-dir') ?? configDir(),
    bridge: where.address,
    open: flag(p.values, 'open'),
    ...(extensionId ? { extensionId } : {}),
  });
}

export function pairingLink(code: string, extensionUrl: string, extensionId = EXTENSION_ID): string {
  return `chrome-extension://${extensionId}/sidepanel/index.html#pair=${encodeURIComponent(code)}&bridge=${encodeURIComponent(extensionUrl)}`;
}

/** Whether a bridge answers there, and which config dir's codes it reads (configDirId; absent from older bridges). */
async function bridgeRunning(bridge: BridgeAddress): Promise<{ running: boolean; configDir?: string }> {
  try {
    const r = await fetch(`${bridge.httpBase}/healthz`, { signal: AbortSignal.timeout(1500) });
    if (!r.ok) return { running: false };
    const body = (await r.json().catch(() => ({}))) as { config_dir?: unknown };
    return { running: true, ...(typeof body.config_dir === 'string' ? { configDir: body.config_dir } : {}) };
  } catch {
    return { running: false };
  }
}

function openLink(link: string): Promise<boolean> {
  const cmd =
    process.platform === 'darwin' ? ['open', link] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', link] : ['xdg-open', link];
  return new Promise((resolve) => {
    try {
      const child = spawn(cmd[0] as string, cmd.slice(1), { stdio: 'ignore', detached: true });
      child.on('error', () => resolve(false));
      child.on('exit', (code) => resolve(code === 0));
      child.unref();
    } catch {
      resolve(false);
    }
  });
}

export async function runPair(
  o: PairOptions,
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = (s) => process.stderr.write(s),
): Promise<number> {
  const bridge = await bridgeRunning(o.bridge);
  const running = bridge.running;
  if (bridge.configDir !== undefined && bridge.configDir !== configDirId(o.configDir)) {
    // The running bridge reads codes from its own config dir: a code written to this one could never be accepted.
    err(
      `The bridge running at ${o.bridge.httpBase} uses another config dir than ${o.configDir}, so it could never accept a code made there; ` +
        `no code was made. Run pair with the --config-dir the bridge was started with (none if it uses the default), ` +
        `or start a bridge with --config-dir ${o.configDir} on another port (--port N) and run pair with --bridge-url ws://127.0.0.1:N.\n`,
    );
    return 1;
  }
  loadOrCreateSecrets(o.configDir); // the bridge needs its secrets; create them on a first run
  const { code, expiresAt } = writePairingCode(o.configDir);
  const link = pairingLink(code, o.bridge.extensionUrl, o.extensionId);
  const isDefault = o.bridge.httpBase === parseBridgeUrl(`127.0.0.1:${DEFAULT_PORT}`)?.httpBase;
  out(
    `Pairing code (works once, until ${new Date(expiresAt).toLocaleTimeString()}):\n\n      ${code}\n\n` +
      `  In Chrome: click the browser-use-ext toolbar icon (side panel), type the code under "Pair" and press Pair.\n` +
      `  Or paste this link into Chrome's address bar:\n    ${link}\n\n` +
      (running
        ? `  The bridge is running at ${o.bridge.httpBase}; the extension connects as soon as the code is accepted.\n`
        : `  No bridge answers at ${o.bridge.httpBase} yet: start it with \`${cli(`bridge${isDefault ? '' : ` --bridge-url ${o.bridge.httpBase.replace(/^http/, 'ws')}`}`)}\` (same --config-dir); the code waits for it.\n`) +
      `  Pairing is stored in the extension and survives browser restarts. Pair again only after deleting secrets.json.\n`,
  );
  if (o.open) {
    const opened = await openLink(link);
    out(
      opened
        ? '  Opened the link in your default browser.\n'
        : "  Could not open the link automatically; paste it into Chrome's address bar.\n",
    );
  }
  return 0;
}
