// How the person types this CLI where it runs, so a command the bridge prints works as printed. In a
// checkout (or a package installed into a project) `browser-use-ext` is not on PATH and a shell
// answers "command not found"; `npx browser-use-ext` runs the local bin there (npm exec finds the
// project's own bin, or node_modules/.bin). After `npm i -g` or `npm link`, the name on PATH is this
// very file, and the plain name is right. Decided once per process from the file that started it.
import fs from 'node:fs';
import path from 'node:path';

export const CLI_NAME = 'browser-use-ext';
/** The two forms a person may be told to type (the extension accepts only these from the bridge). */
export const CLI_FORMS = [CLI_NAME, `npx ${CLI_NAME}`] as const;
export type CliForm = (typeof CLI_FORMS)[number];

function realpath(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * Whether `browser-use-ext` found on PATH is the script `self` (its real path): a symlinked bin on
 * POSIX; on Windows npm writes a .cmd shim beside node_modules/browser-use-ext instead of a link.
 */
export function onPath(self: string, envPath = process.env['PATH'] ?? '', platform = process.platform): boolean {
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    if (platform === 'win32') {
      if (!fs.existsSync(path.join(dir, `${CLI_NAME}.cmd`))) continue;
      const installed = realpath(path.join(dir, 'node_modules', CLI_NAME, 'dist', 'bridge', 'cli.js'));
      if (installed !== null && installed === self) return true;
    } else if (realpath(path.join(dir, CLI_NAME)) === self) return true;
  }
  return false;
}

let decided: CliForm | null = null;

/** `browser-use-ext` when that name on PATH runs this process's script, else `npx browser-use-ext`. */
export function cliForm(): CliForm {
  if (decided === null) {
    const self = process.argv[1] === undefined ? null : realpath(process.argv[1]);
    decided = self !== null && onPath(self) ? CLI_NAME : `npx ${CLI_NAME}`;
  }
  return decided;
}

/** A command as the person types it here: cli('pair') puts npx in front in a checkout. */
export function cli(args: string): string {
  return `${cliForm()} ${args}`;
}
