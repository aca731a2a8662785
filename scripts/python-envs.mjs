#!/usr/bin/env node
// The Python virtual environments the test suite runs in, and which test modules run in which one.
// `npm test` (scripts/test-all.mjs) calls ensureEnvs() first; by hand:
//   node scripts/python-envs.mjs                 create the missing or stale venvs (.venvs/<name>)
//   node scripts/python-envs.mjs --list          print the table
//   node scripts/python-envs.mjs --refreeze NAME re-resolve NAME's requirements from PyPI in a clean
//                                                venv and rewrite its constraints file (pip freeze)
// Each venv is built from PyPI with its constraints file (python-shim-spec/constraints/*.txt, the
// versions pip resolved, so CI is reproducible), then gets the shim the way a user installs it:
// `pip install ./python-shim-spec` (a real wheel build, console script included). A venv is reused
// while its stamp (constraints, requirements, interpreter) matches; when only the shim's sources
// changed, the shim alone is reinstalled. Never `playwright install`: the pip playwright package
// comes with browser-use, and the tests that need a browser use Debian's /usr/bin/chromium.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shimDir = path.join(root, 'python-shim-spec');
export const venvsDir = process.env.BUX_VENVS_DIR ? path.resolve(process.env.BUX_VENVS_DIR) : path.join(root, '.venvs');

// The one table: each venv, what it is built from, and the test modules (python-shim-spec/tests)
// that run in it. `modules` are names or globs; `exclude` removes some. A test module that no venv
// runs fails `npm test` (see unassignedModules), so a new module is never silently skipped.
// websockets: the shim supports 10.4 (Debian 12's) to the newest. browser-use 0.1.40's langsmith
// needs websockets >= 15, so both browser_use venvs get the newest (as pip resolves it) and the
// fallback venv pins the oldest; test_transport.py runs in both kinds.
// `ownProcess` (optional): modules `npm test` runs in a process of their own beside the venv's others.
// None today: measured on two cores, a fourth browser_use process made the run no shorter (the tests are
// CPU-bound under that load) and made the download tests' timing-sensitive paths fail.
export const PY_ENVS = [
  {
    name: 'bu048',
    what: 'browser-use 0.1.48, newest websockets',
    constraints: 'python-shim-spec/constraints/browser-use-0.1.48.txt',
    requirements: ['browser-use==0.1.48', 'websockets'],
    modules: ['test_*.py'],
    exclude: ['test_fallback.py'],
  },
  {
    name: 'bu040',
    what: 'browser-use 0.1.40, newest websockets',
    constraints: 'python-shim-spec/constraints/browser-use-0.1.40.txt',
    requirements: ['browser-use==0.1.40', 'websockets'],
    modules: ['test_real_agent*.py', 'test_compat_prompt.py', 'test_install.py'],
    exclude: [],
  },
  {
    // browser_use 0.13 drives Chrome over CDP itself (no Playwright): the CDP endpoint's client. It
    // has no shim test module; test/e2e/cdp-browser-use.spec.ts runs its agent from Node. An empty
    // `modules` still builds it (ensureEnvs) and runs no python unittest step for it.
    name: 'bu013',
    what: 'browser-use 0.13.14 (the CDP client), no extras',
    constraints: 'python-shim-spec/constraints/browser-use-0.13.14.txt',
    requirements: ['browser-use==0.13.14'],
    modules: [],
    exclude: [],
  },
  {
    name: 'nobu',
    what: 'no browser_use (the fallback classes), websockets 10.4; ruff and import-linter (npm test runs .venvs/nobu/bin/ruff check python-shim-spec and lint-imports)',
    constraints: 'python-shim-spec/constraints/fallback.txt',
    requirements: ['websockets==10.4', 'ruff', 'import-linter'],
    modules: [
      'test_fallback.py',
      'test_transport.py',
      'test_serve_bridge.py',
      'test_bridge_restart.py',
      'test_install.py',
      'test_protocol_codes.py',
      'test_playwright_calls.py',
      'test_context_cookies.py',
    ],
    exclude: [],
  },
];

const STAMP = '.bux-stamp.json';
const STAMP_FORMAT = 1;

export function venvPython(name) {
  return path.join(venvsDir, name, 'bin', 'python');
}

/** The interpreter venvs are made from: $BUX_PYTHON, else Debian's /usr/bin/python3 (what CI has), else python3. */
export function basePython() {
  if (process.env.BUX_PYTHON) return process.env.BUX_PYTHON;
  return fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

function globToRe(glob) {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

export function allTestModules() {
  return fs
    .readdirSync(path.join(shimDir, 'tests'))
    .filter((f) => /^test_.*\.py$/.test(f))
    .sort();
}

/** Test modules (file names) that run in env. */
export function modulesFor(env, files = allTestModules()) {
  const inc = env.modules.map(globToRe);
  const exc = env.exclude.map(globToRe);
  return files.filter((f) => inc.some((r) => r.test(f)) && !exc.some((r) => r.test(f)));
}

/**
 * The processes `npm test` runs for one venv: the modules named in `ownProcess` in one each, the rest together.
 * @returns {{ label: string, modules: string[] }[]} the label names the process in the timing table
 */
export function processesFor(env, files = allTestModules()) {
  const mine = modulesFor(env, files);
  const own = (env.ownProcess ?? []).map(globToRe);
  const alone = mine.filter((f) => own.some((r) => r.test(f)));
  const rest = mine.filter((f) => !alone.includes(f));
  return [
    ...(rest.length ? [{ label: env.name, modules: rest }] : []),
    ...alone.map((f) => ({ label: `${env.name} ${f.replace(/\.py$/, '')}`, modules: [f] })),
  ];
}

export function unassignedModules(files = allTestModules()) {
  return files.filter((f) => !PY_ENVS.some((env) => modulesFor(env, [f]).length));
}

function sha256(...parts) {
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
}

function listFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__pycache__') out.push(...listFiles(p));
    } else if (!entry.name.endsWith('.pyc')) out.push(p);
  }
  return out;
}

/** Hash of what goes into the shim's wheel: reinstall it when this changes. */
export function shimHash() {
  const files = [
    path.join(shimDir, 'pyproject.toml'),
    path.join(shimDir, 'README.md'),
    ...listFiles(path.join(shimDir, 'browser_use_ext')),
  ];
  return sha256(...files.flatMap((f) => [path.relative(shimDir, f), fs.readFileSync(f)]));
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd ?? root,
      env: { ...process.env, PIP_NO_INPUT: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => resolve({ code: 127, out: `${out}${e.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function pythonVersion(python) {
  const r = await run(python, ['-c', 'import sys; print(sys.version)']);
  return r.code === 0 ? r.out.trim() : null;
}

function readStamp(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(venvsDir, name, STAMP), 'utf8'));
  } catch {
    return null;
  }
}

function writeStamp(name, stamp) {
  fs.writeFileSync(path.join(venvsDir, name, STAMP), JSON.stringify(stamp, null, 2) + '\n');
}

function envKey(env, pyVersion) {
  const constraints = fs.readFileSync(path.join(root, env.constraints), 'utf8');
  return sha256(String(STAMP_FORMAT), pyVersion, constraints, env.requirements.join('\n'));
}

class EnvError extends Error {}

async function must(log, label, cmd, args, opts) {
  const started = Date.now();
  const r = await run(cmd, args, opts);
  log.push(`  ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s${r.code === 0 ? '' : ` (exit ${r.code})`}`);
  if (r.code !== 0) {
    log.push(r.out.split('\n').slice(-40).join('\n'));
    throw new EnvError(`${label} failed`);
  }
  return r;
}

// setuptools builds in the source tree (pip >= 21.3 builds local directories in place): one shim
// build at a time, and the build/ and *.egg-info it leaves are removed afterwards.
let shimLock = Promise.resolve();
function withShimLock(fn) {
  const next = shimLock.then(fn, fn);
  shimLock = next.catch(() => undefined);
  return next;
}
function cleanShimBuild() {
  fs.rmSync(path.join(shimDir, 'build'), { recursive: true, force: true });
  fs.rmSync(path.join(shimDir, 'browser_use_ext.egg-info'), { recursive: true, force: true });
}

async function installShim(env, log, force) {
  const py = venvPython(env.name);
  const constraints = path.join(root, env.constraints);
  await withShimLock(async () => {
    try {
      // Exactly what a user runs (README): pip install ./python-shim-spec.
      const args = ['-m', 'pip', 'install', '-q', '-c', constraints, './python-shim-spec'];
      if (force) args.splice(4, 0, '--force-reinstall', '--no-deps');
      await must(log, 'pip install ./python-shim-spec', py, args);
    } finally {
      cleanShimBuild();
    }
  });
}

/** Creates or refreshes one venv; returns {name, action, seconds, log, ok}. */
async function ensureEnv(env, pyVersion, shim) {
  const started = Date.now();
  const log = [];
  const dir = path.join(venvsDir, env.name);
  const key = envKey(env, pyVersion);
  const stamp = readStamp(env.name);
  let action = 'up to date';
  try {
    if (!stamp || stamp.key !== key || !fs.existsSync(venvPython(env.name))) {
      action = stamp ? 'rebuilt (constraints or interpreter changed)' : 'created';
      fs.rmSync(dir, { recursive: true, force: true });
      await must(log, `venv (${basePython()})`, basePython(), ['-m', 'venv', dir]);
      const py = venvPython(env.name);
      // --no-compile: byte-compiling ~90 packages is most of the CPU of a cold install; Python
      // compiles what the tests import on first use anyway.
      await must(log, `pip install -c ${env.constraints} ${env.requirements.join(' ')}`, py, [
        '-m',
        'pip',
        'install',
        '-q',
        '--no-compile',
        '-c',
        path.join(root, env.constraints),
        ...env.requirements,
      ]);
      await installShim(env, log, false);
    } else if (stamp.shim !== shim) {
      action = 'shim reinstalled (its sources changed)';
      await installShim(env, log, true);
    }
    if (action !== 'up to date')
      writeStamp(env.name, {
        format: STAMP_FORMAT,
        key,
        shim,
        python: pyVersion,
        requirements: env.requirements,
        constraints: env.constraints,
        built_at: new Date().toISOString(),
      });
    return { name: env.name, action, seconds: (Date.now() - started) / 1000, log, ok: true };
  } catch (e) {
    if (!(e instanceof EnvError)) log.push(String(e?.stack ?? e));
    // A half-built venv must not look usable next time.
    fs.rmSync(path.join(dir, STAMP), { force: true });
    return { name: env.name, action: 'FAILED', seconds: (Date.now() - started) / 1000, log, ok: false };
  }
}

/** Makes every venv usable. Returns {ok, failed: names, text}: text is the report to print. */
export async function ensureEnvs(names = PY_ENVS.map((e) => e.name)) {
  const pyVersion = await pythonVersion(basePython());
  if (!pyVersion) {
    return {
      ok: false,
      failed: names,
      text: `cannot run ${basePython()}: install python3 (and python3-venv on Debian), or set BUX_PYTHON\n`,
    };
  }
  const venvCheck = await run(basePython(), ['-c', 'import ensurepip, venv']);
  if (venvCheck.code !== 0) {
    return {
      ok: false,
      failed: names,
      text: `${basePython()} cannot create virtual environments (no ensurepip): apt-get install python3-venv\n`,
    };
  }
  fs.mkdirSync(venvsDir, { recursive: true });
  const shim = shimHash();
  const envs = PY_ENVS.filter((e) => names.includes(e.name));
  const started = Date.now();
  // In parallel: mostly downloads and unpacking; the shim builds themselves take turns.
  const results = await Promise.all(envs.map((env) => ensureEnv(env, pyVersion, shim)));
  let text = '';
  for (const r of results) text += `${r.name}: ${r.action} in ${r.seconds.toFixed(1)} s\n${r.log.map((l) => `${l}\n`).join('')}`;
  text += `python venvs ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${venvsDir})\n`;
  return { ok: results.every((r) => r.ok), failed: results.filter((r) => !r.ok).map((r) => r.name), text };
}

/** Re-resolves env's requirements in a clean temporary venv and writes its constraints file. */
async function refreeze(name) {
  const env = PY_ENVS.find((e) => e.name === name);
  if (!env) throw new Error(`no venv named ${name}; one of ${PY_ENVS.map((e) => e.name).join(', ')}`);
  const tmp = fs.mkdtempSync(path.join(venvsDir, `.freeze-${name}-`));
  const log = [];
  try {
    await must(log, 'venv', basePython(), ['-m', 'venv', tmp]);
    const py = path.join(tmp, 'bin', 'python');
    await must(log, `pip install ${env.requirements.join(' ')}`, py, ['-m', 'pip', 'install', '-q', ...env.requirements]);
    const frozen = await must(log, 'pip freeze', py, ['-m', 'pip', 'freeze']);
    const header = `# Constraints of the "${env.name}" test venv (${env.what}): pip freeze of a clean venv after\n# \`pip install ${env.requirements.join(' ')}\` with ${(await pythonVersion(basePython()))?.split(' ')[0]}.\n# Regenerate: node scripts/python-envs.mjs --refreeze ${env.name}\n`;
    fs.writeFileSync(path.join(root, env.constraints), header + frozen.out);
    process.stdout.write(`${log.join('\n')}\nwrote ${env.constraints}\n`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--list') {
    for (const env of PY_ENVS) {
      const mods = modulesFor(env);
      process.stdout.write(
        `${env.name} (${env.what}): ${mods.length ? mods.join(' ') : '(no python test module; used by the Node tests)'}\n`,
      );
    }
    const lost = unassignedModules();
    if (lost.length) process.stdout.write(`not run in any venv: ${lost.join(' ')}\n`);
  } else if (args[0] === '--refreeze') {
    fs.mkdirSync(venvsDir, { recursive: true });
    await refreeze(args[1] ?? '');
  } else {
    const r = await ensureEnvs(args.length ? args : undefined);
    process.stdout.write(r.text);
    process.exit(r.ok ? 0 : 1);
  }
}
