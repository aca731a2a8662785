#!/usr/bin/env node
// `npm start` (prestart), `npm pack` (prepack) and `npm run build` go through here:
//   node scripts/build-if-stale.mjs           rebuild only when a build input changed since the last build
//   node scripts/build-if-stale.mjs --force   always rebuild (npm run build)
// A build is `node scripts/gen.mjs` then `rollup -c`, about 40 s on a 2-core machine, which is why
// starting the bridge must not pay for it when nothing changed. The rule: the SHA-256 of every input
// file's content (INPUTS below: what gen and rollup read, plus the dependency versions) is recorded in
// dist/.build-stamp.json after a successful build; the build is fresh while the same files have the same
// contents and every output exists. Content, not mtimes: a `git checkout` back and forth or a `touch`
// changes nothing that is built, so it costs no rebuild. A fresh build prints one line; a rebuild
// says what it builds, each step, and every 15 s that it still runs (a first build on a busy 2-core
// machine took 3.7 min, silent until then). All on stderr, so `npm pack --json` prints only JSON on stdout.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Files and folders (relative to the repository) whose contents decide what the build writes. */
export const INPUTS = [
  'schemas',
  'extension',
  'bridge',
  'rollup.config.js',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.bridge.json',
  'scripts/gen.mjs',
  'scripts/schema-loader.mjs',
];
/** What the build writes; a missing one makes the build stale whatever the inputs say. */
export const OUTPUTS = ['dist/bridge/cli.js', 'dist/client/index.js', 'dist/extension/manifest.json'];
export const STAMP = 'dist/.build-stamp.json';

// Written by tools, never read by the build.
const SKIP_DIRS = new Set(['node_modules', '__pycache__', '.git']);

function walk(root, rel, out) {
  const abs = path.join(root, rel);
  let st;
  try {
    st = fs.statSync(abs);
  } catch {
    return; // an optional input (e.g. no package-lock.json) is simply not part of the digest
  }
  if (st.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) if (!SKIP_DIRS.has(name)) walk(root, `${rel}/${name}`, out);
  } else if (st.isFile()) {
    out[rel] = crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
  }
}

/** { relative path: sha256 of its content } for every input file under root. */
export function inputHashes(root, inputs = INPUTS) {
  const out = {};
  for (const rel of inputs) walk(root, rel, out);
  return out;
}

/** Why a build is needed, or null when the last build is fresh. */
export function staleReason(root, { inputs = INPUTS, outputs = OUTPUTS, stamp = STAMP } = {}) {
  const missing = outputs.find((f) => !fs.existsSync(path.join(root, f)));
  if (missing) return `${missing} is missing`;
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(path.join(root, stamp), 'utf8')).files;
  } catch {
    return 'no record of the last build';
  }
  if (!recorded || typeof recorded !== 'object') return 'no record of the last build';
  const now = inputHashes(root, inputs);
  const changed = Object.keys(now).filter((f) => recorded[f] !== now[f]);
  const removed = Object.keys(recorded).filter((f) => !(f in now));
  const all = [...changed, ...removed.map((f) => `${f} (removed)`)];
  if (all.length === 0) return null;
  return all.length === 1 ? `${all[0]} changed` : `${all[0]} and ${all.length - 1} more changed`;
}

export function writeStamp(root, files, stamp = STAMP) {
  fs.mkdirSync(path.dirname(path.join(root, stamp)), { recursive: true });
  fs.writeFileSync(path.join(root, stamp), JSON.stringify({ files }) + '\n');
}

/** While a build runs, a line this often says it still runs: a first build takes minutes, and silence reads as a hang. */
export const PROGRESS_EVERY_MS = 15_000;

/**
 * Rebuilds when stale (or when force), then records the inputs. `generate` and `bundle` are the two
 * build steps (each may return a promise); the inputs are hashed between them, after gen has
 * rewritten schemas/generated, so a file edited while rollup runs makes the next start rebuild again.
 * A rebuild says what it builds and why, each step as it starts, and every `progressEveryMs` that it
 * is still running with the time so far; the last line (returned) says how long it took.
 */
export async function buildIfStale({
  root,
  force = false,
  generate,
  bundle,
  log = (line) => console.error(line),
  options = {},
  progressEveryMs = PROGRESS_EVERY_MS,
}) {
  const started = Date.now();
  const reason = force ? 'npm run build' : staleReason(root, options);
  const secs = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (reason === null) {
    const line = `build: fresh, nothing changed since the last build (checked in ${secs()})`;
    log(line);
    return { rebuilt: false, line };
  }
  const first = !fs.existsSync(path.join(root, options.stamp ?? STAMP));
  log(
    `build: building the bridge, the agent client and the extension (${reason}). ` +
      (first
        ? 'A first build takes a few minutes (about 1 on a fast machine); later starts skip it when nothing changed.'
        : 'This takes a minute or two.'),
  );
  const step = async (what, f) => {
    log(`build: ${what}...`);
    const timer = setInterval(() => log(`build: still ${what}, ${Math.round((Date.now() - started) / 1000)} s so far`), progressEveryMs);
    try {
      await f();
    } finally {
      clearInterval(timer);
    }
  };
  await step('generating the protocol types and validators (schemas/generated)', generate);
  const files = inputHashes(root, options.inputs);
  await step('bundling the bridge, the client and the extension with rollup (dist/)', bundle);
  writeStamp(root, files, options.stamp);
  const line = `build: rebuilt in ${secs()} (${reason})`;
  log(line);
  return { rebuilt: true, line };
}

/** Runs a build step as a child process; a failure ends this script with the step's exit code. */
function run(root, cmd, args, quiet = false) {
  return new Promise((resolve) => {
    // gen's own summary line is left out so a build prints only its own lines (errors still show).
    const child = spawn(cmd, args, { cwd: root, stdio: ['inherit', quiet ? 'ignore' : 'inherit', 'inherit'] });
    const failed = (why, code) => {
      console.error(`build: \`${[path.basename(cmd), ...args].join(' ')}\` failed (${why}); fix the error above and run it again.`);
      process.exit(code);
    };
    child.on('error', (e) => failed(e.message, 1));
    child.on('exit', (code, signal) => (code === 0 ? resolve() : failed(`exit ${code ?? signal}`, code || 1)));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const rollup = path.join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup');
  await buildIfStale({
    root,
    force: process.argv.includes('--force'),
    generate: () => run(root, process.execPath, [path.join(root, 'scripts', 'gen.mjs')], true),
    bundle: () => run(root, process.execPath, [rollup, '-c', '--silent']),
  });
}
