// `browser-use-ext pair`: prints a one-time pairing code and link (pairing.ts) so the person pairs the
// extension by typing 8 characters (or opening a link) instead of copying the secret by hand.
import { spawn } from 'node:child_process';

import { EXTENSION_ID } from '../common/extension-id';
import { loadOrCreateSecrets } from '../common/secrets';
import { writePairingCode } from '../src/pairing';

export interface PairOptions {
  configDir: string;
  port: number;
  open: boolean;
  extensionId?: string;
}

export function pairingLink(code: string, port: number, extensionId = EXTENSION_ID): string {
  return `chrome-extension://${extensionId}/sidepanel/index.html#pair=${encodeURIComponent(code)}&bridge=${encodeURIComponent(`ws://127.0.0.1:${port}/extension`)}`;
}

async function bridgeRunning(port: number): Promise<boolean> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1500) });
    return r.ok;
  } catch {
    return false;
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

export async function runPair(o: PairOptions, out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  loadOrCreateSecrets(o.configDir); // the bridge needs its secrets; create them on a first run
  const { code, expiresAt } = writePairingCode(o.configDir);
  const link = pairingLink(code, o.port, o.extensionId);
  const running = await bridgeRunning(o.port);
  out(
    `Pairing code (works once, until ${new Date(expiresAt).toLocaleTimeString()}):\n\n      ${code}\n\n` +
      `  In Chrome: click the browser-use-ext toolbar icon (side panel), type the code under "Pair" and press Pair.\n` +
      `  Or paste this link into Chrome's address bar:\n    ${link}\n\n` +
      (running
        ? `  The bridge is running on port ${o.port}; the extension connects as soon as the code is accepted.\n`
        : `  No bridge answers on port ${o.port} yet: start it with \`npx browser-use-ext bridge${o.port === 8765 ? '' : ` --port ${o.port}`}\` (same --config-dir); the code waits for it.\n`) +
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
