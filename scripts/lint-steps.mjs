// The lint steps, shared by `npm run lint` (scripts/lint.mjs) and `npm test` (scripts/test-all.mjs)
// so both check the same things: generated files fresh, imports by DEPS.json, eslint, prettier.
// They read the same files and write nothing, so they run at the same time.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * @param {{ cache: boolean }} opts cache: keep eslint's and prettier's per-file results in .cache/
 *   (git-ignored) so an unchanged file is not checked again. eslint's cache keys on the file alone,
 *   and a type-aware rule's verdict can change when another file's types do, so `npm test` (the
 *   gate CI runs) lints without it; `npm run lint -- --no-cache` does the same by hand.
 * @returns {{ label: string, cmd: string, args: string[] }[]}
 */
export function lintSteps({ cache }) {
  const eslintCache = cache ? ['--cache', '--cache-location', path.join(root, '.cache', 'eslint') + path.sep] : [];
  const prettierCache = cache ? ['--cache', '--cache-location', path.join(root, '.cache', 'prettier')] : [];
  return [
    { label: 'generated files', cmd: process.execPath, args: ['scripts/gen.mjs', '--check'] },
    { label: 'import rules (DEPS.json)', cmd: process.execPath, args: ['scripts/check-deps.mjs'] },
    { label: 'eslint', cmd: process.execPath, args: [bin('eslint'), '--max-warnings', '0', ...eslintCache, '.'] },
    { label: 'prettier', cmd: process.execPath, args: [bin('prettier'), '--check', ...prettierCache, '.'] },
  ];
}

export { root };
