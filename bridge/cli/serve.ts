// `browser-use-ext serve`: runs the Python task server (`python -m browser_use_ext serve`, the real
// browser_use Agent on the tasks a person types in the side panel) with the arguments as given, so
// one command line reaches every part of the product. Python is $BROWSER_USE_EXT_PYTHON, else
// python3. The Python side parses the options and prints the help (same shared options, same words).
import { spawn, spawnSync } from 'node:child_process';

import { AGENT_SECRET_ENV } from '../common/secrets';
import { BRIDGE_VERSION } from '../common/version';
import { BROWSER_OPTION, type CommandSpec, parseCommand } from './shared-options';

export const PYTHON_ENV = 'BROWSER_USE_EXT_PYTHON';

/** The help shown when the Python package is missing (with the Python package, Python prints its own). */
export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  usage: [`browser-use-ext serve [options]`],
  about:
    `Runs the tasks a person types in the extension's side panel with browser_use's Agent, on the tab they\n` +
    `are looking at. It runs the Python package: python -m browser_use_ext serve (Python from\n` +
    `$${PYTHON_ENV}, else python3); its --help lists the LLM options.`,
  options: [BROWSER_OPTION],
  shared: ['bridge-url', 'config-dir', 'log-level'],
  footer: `The agent secret comes from $${AGENT_SECRET_ENV}, else the bridge's secrets.json in the config dir.`,
};

/** One line: how to get the Python package this command runs. */
export function installLine(python: string): string {
  return (
    `The Python package browser_use_ext, which serve runs, is not importable by ${python}. Install it: ` +
    `pip install browser_use_ext-${BRIDGE_VERSION}-py3-none-any.whl (the release's Python package; in a checkout: pip install ./python-shim-spec), ` +
    `or set $${PYTHON_ENV} to the Python that has it.`
  );
}

function importable(python: string): 'yes' | 'no' | 'no-python' {
  const r = spawnSync(python, ['-c', 'import browser_use_ext'], { stdio: 'ignore', timeout: 30_000 });
  if (r.error) return 'no-python';
  return r.status === 0 ? 'yes' : 'no';
}

export async function serveCommand(argv: string[]): Promise<number> {
  const python = process.env[PYTHON_ENV] || 'python3';
  const found = importable(python);
  if (found !== 'yes') {
    if (argv.includes('--help') || argv.includes('-h')) {
      const p = parseCommand(SERVE_COMMAND, ['--help']);
      process.stdout.write(`\n${found === 'no-python' ? `${python} was not found. ` : ''}${installLine(python)}\n`);
      return p.ok ? 0 : p.exitCode;
    }
    process.stderr.write(
      found === 'no-python'
        ? `The serve command runs Python, and ${python} was not found: install Python 3.9 or newer, or set $${PYTHON_ENV} to it.\n`
        : `${installLine(python)}\n`,
    );
    return 1;
  }
  const child = spawn(python, ['-m', 'browser_use_ext', 'serve', ...argv], { stdio: 'inherit' });
  // Ctrl+C reaches the child through the terminal's process group; a SIGTERM sent to this process
  // alone is passed on, so serve stops its tasks and frees their tabs either way.
  const forward = (sig: NodeJS.Signals) => () => void child.kill(sig);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise<number>((resolve) => {
    child.on('error', (e) => {
      process.stderr.write(`Cannot run ${python}: ${e.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
    });
  });
}
