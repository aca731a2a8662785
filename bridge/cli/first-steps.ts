// What a person does after the bridge says "listening", in order, each as an exact path or command
// to copy: a newcomer who just ran `npm start` otherwise has to find in the docs where the unpacked
// extension is, how to pair and how to run a first agent. The commands are in the form that runs
// where this bridge was started (cli-invocation.ts), with the flags this bridge needs beyond the
// defaults, so each one reaches this bridge and its secrets as printed.
import fs from 'node:fs';
import path from 'node:path';

import { cli } from '../common/cli-invocation';
import { configDir } from '../common/secrets';
import { resolveBridge } from './shared-options';

/** dist/extension beside the running dist/bridge/cli.js (a checkout's build or the installed package), if it is there. */
export function unpackedExtensionDir(script = process.argv[1]): string | null {
  if (script === undefined) return null;
  try {
    const dir = path.resolve(path.dirname(fs.realpathSync(script)), '..', 'extension');
    return fs.existsSync(path.join(dir, 'manifest.json')) ? dir : null;
  } catch {
    return null;
  }
}

/** The flags a bare subcommand needs to reach this bridge (its address, its config dir) in this environment. */
export function reachFlags(where: { host: string; port: number; configDir: string }, env: NodeJS.ProcessEnv = process.env): string {
  const flags: string[] = [];
  const bare = resolveBridge({}, env);
  if (!bare.ok || bare.address.port !== where.port || bare.address.host !== where.host) {
    const host = where.host.includes(':') ? `[${where.host}]` : where.host;
    flags.push(`--bridge-url ws://${host}:${where.port}`);
  }
  if (path.resolve(configDir(env)) !== path.resolve(where.configDir)) flags.push(`--config-dir ${quoted(where.configDir)}`);
  return flags.map((f) => ` ${f}`).join('');
}

/** A path as a shell word: quoted when it holds anything but safe characters. */
function quoted(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** The three next steps, printed under the listening banner. */
export function firstStepsText(where: { host: string; port: number; configDir: string }, extensionDir = unpackedExtensionDir()): string {
  const flags = reachFlags(where);
  const load = extensionDir
    ? `       ${extensionDir}\n`
    : `       the dist/extension folder of this package (run \`npm run build\` in a checkout to make it)\n`;
  return (
    `Next steps:\n` +
    `  1. Load the extension (once): open chrome://extensions, turn on Developer mode, press "Load unpacked" and choose\n` +
    load +
    `  2. Pair it (once): in another terminal run\n` +
    `       ${cli(`pair${flags}`)}\n` +
    `     and type the code it prints in the extension's side panel (click its toolbar icon).\n` +
    `  3. Run an agent, e.g. the built-in one on any OpenAI-compatible model (OPENAI_API_KEY set):\n` +
    `       ${cli(`agent${flags} --model gpt-4o-mini`)}\n` +
    `     then type a task in the side panel. browser_use, MCP and CDP clients: docs/getting-started.md.\n`
  );
}
