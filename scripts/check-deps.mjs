#!/usr/bin/env node
// Checks the import rules in DEPS.json and that no import cycle exists among the repository's
// TypeScript files. Run by `npm test` next to the generated-file check; exits 1 with one line per
// broken rule or cycle, naming the rule and what to do.
//   node scripts/check-deps.mjs            check
//   node scripts/check-deps.mjs --graph    print every local import (file -> file) and exit
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { rules } = JSON.parse(fs.readFileSync(path.join(root, 'DEPS.json'), 'utf8'));
const SOURCE_DIRS = ['schemas', 'bridge', 'extension', 'test', 'bench', 'scripts'];
const SKIP = /(^|\/)(node_modules|dist|tmp|generated)(\/|$)/;
const EXT = /\.(ts|mts|mjs)$/;

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    const rel = path.relative(root, p).split(path.sep).join('/');
    if (SKIP.test(rel)) continue;
    if (e.isDirectory()) walk(p, out);
    else if (EXT.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

// import x from '...'; import '...'; export { x } from '...'; import('...'). Comments are blanked
// first so an example in a comment is not read as an import.
const IMPORT_RE = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const stripComments = (src) => src.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');

function resolve(from, spec) {
  if (!spec.startsWith('.')) return null; // a package or node: built-in
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const cand of [base, `${base}.ts`, `${base}.mts`, `${base}/index.ts`]) {
    if (fs.existsSync(path.join(root, cand)) && fs.statSync(path.join(root, cand)).isFile()) return cand;
  }
  return base; // unresolved: still checked against the rules by its folder
}

const files = SOURCE_DIRS.flatMap((d) => walk(path.join(root, d)));
const graph = new Map();
for (const f of files) {
  const src = stripComments(fs.readFileSync(path.join(root, f), 'utf8'));
  const edges = [];
  for (const m of src.matchAll(IMPORT_RE)) {
    const spec = m[3] ?? m[4];
    const target = resolve(f, spec);
    if (target) edges.push({ target, typeOnly: Boolean(m[2]) });
  }
  graph.set(f, edges);
}

if (process.argv.includes('--graph')) {
  for (const [f, edges] of graph) for (const e of edges) process.stdout.write(`${f} -> ${e.target}${e.typeOnly ? ' (type)' : ''}\n`);
  process.exit(0);
}

const ruleFor = (file) => rules.filter((r) => file.startsWith(r.files)).sort((a, b) => b.files.length - a.files.length)[0];
const problems = [];
for (const [f, edges] of graph) {
  const rule = ruleFor(f);
  if (!rule) continue;
  for (const { target } of edges) {
    if (rule.may_import.some((p) => target.startsWith(p))) continue;
    problems.push(
      `${f} imports ${target}, which the rule "${rule.name}" in DEPS.json does not allow: ${rule.files} may import only ` +
        `${rule.may_import.join(', ')}. (${rule.why}) Move what both need into an allowed folder, or change DEPS.json on purpose.`,
    );
  }
}

// Import cycles (type-only imports included: a cycle of types still ties the modules together).
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
let counter = 0;
const cycles = [];
function strongConnect(v) {
  index.set(v, counter);
  low.set(v, counter);
  counter += 1;
  stack.push(v);
  onStack.add(v);
  for (const { target: w } of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!index.has(w)) {
      strongConnect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) cycles.push(scc.sort());
  }
}
for (const v of graph.keys()) if (!index.has(v)) strongConnect(v);
for (const c of cycles) problems.push(`import cycle between ${c.join(', ')}: move what they share into a module that both import.`);

if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} import rule problem(s).\n`);
  process.exit(1);
}
process.stdout.write(`imports: ${files.length} files follow DEPS.json (${rules.length} rules), no import cycle.\n`);
