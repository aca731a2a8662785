// Finds browser_use 0.1.48's own buildDomTree.js in an installed PyPI package (never vendored into
// this repo: the bench measures the file browser_use users run). Looked for, in order, with the
// interpreter of: $BUX_BROWSER_USE_PYTHON, the test venv .venvs/bu048 (or $BUX_VENVS_DIR/bu048,
// made by scripts/python-envs.mjs), /tmp/v48 (the development venv). The package is located
// with importlib (find_spec, no import), so this takes a few tens of milliseconds.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../test/harness/browser';

export const WANTED_VERSION = '0.1.48';

export type BrowserUseJs = { ok: true; python: string; version: string; file: string; js: string } | { ok: false; why: string };

function candidates(): string[] {
  const venvs = process.env['BUX_VENVS_DIR'] ? path.resolve(process.env['BUX_VENVS_DIR']) : path.join(REPO_ROOT, '.venvs');
  return [process.env['BUX_BROWSER_USE_PYTHON'], path.join(venvs, 'bu048', 'bin', 'python'), '/tmp/v48/bin/python'].filter(
    (p): p is string => !!p,
  );
}

const PROBE = [
  'import importlib.metadata as m, importlib.util as u, os',
  "s = u.find_spec('browser_use')",
  "print(m.version('browser-use'))",
  "print(os.path.join(os.path.dirname(s.origin), 'dom', 'buildDomTree.js') if s and s.origin else '')",
].join('\n');

export function findBrowserUseJs(): BrowserUseJs {
  const tried: string[] = [];
  for (const python of candidates()) {
    if (!fs.existsSync(python)) {
      tried.push(`${python}: no such interpreter`);
      continue;
    }
    const r = spawnSync(python, ['-c', PROBE], { encoding: 'utf8', timeout: 20_000 });
    const [version = '', file = ''] = (r.stdout ?? '').trim().split('\n');
    if (r.status !== 0 || !version) {
      tried.push(`${python}: browser-use not installed (${(r.stderr ?? '').trim().split('\n').pop() ?? 'no output'})`);
      continue;
    }
    if (version !== WANTED_VERSION) {
      tried.push(`${python}: browser-use ${version}, not ${WANTED_VERSION}`);
      continue;
    }
    if (!file || !fs.existsSync(file)) {
      tried.push(`${python}: browser-use ${version} has no dom/buildDomTree.js`);
      continue;
    }
    return { ok: true, python, version, file, js: fs.readFileSync(file, 'utf8') };
  }
  return {
    ok: false,
    why: `browser-use ${WANTED_VERSION} not found (${tried.join('; ')}); set BUX_BROWSER_USE_PYTHON to an interpreter that has it`,
  };
}
