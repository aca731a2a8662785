// The Python interpreters the Node tests start: a plain python3 for stdlib-only helpers (the scripted
// LLM server), and the venv with browser-use 0.1.48 that scripts/python-envs.mjs builds for the tests
// that run the shim's `serve` with browser_use's real Agent.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from './browser';

export const SHIM_DIR = path.join(REPO_ROOT, 'python-shim-spec');

/** $BUX_PYTHON, else Debian's /usr/bin/python3 (what CI has), else python3 on PATH: stdlib only. */
export function stdlibPython(): string {
  if (process.env['BUX_PYTHON']) return process.env['BUX_PYTHON'];
  return fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

/** A Python with browser-use 0.1.48: $BUX_BROWSER_USE_PYTHON, else the bu048 venv (`node scripts/python-envs.mjs`). */
export const BROWSER_USE_PYTHON =
  process.env['BUX_BROWSER_USE_PYTHON'] ??
  path.join(process.env['BUX_VENVS_DIR'] ?? path.join(REPO_ROOT, '.venvs'), 'bu048', 'bin', 'python');

/** PYTHONPATH for the shim, plus websockets when the Python lacks it (a dev venv only). */
export function shimPythonEnv(python: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const paths = [SHIM_DIR];
  if (spawnSync(python, ['-c', 'import websockets']).status !== 0 && fs.existsSync('/usr/lib/python3/dist-packages/websockets')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-pyws-'));
    fs.symlinkSync('/usr/lib/python3/dist-packages/websockets', path.join(dir, 'websockets'));
    paths.push(dir);
  }
  return { ...process.env, PYTHONPATH: paths.join(path.delimiter), ANONYMIZED_TELEMETRY: 'false', PYTHONUNBUFFERED: '1', ...extra };
}
