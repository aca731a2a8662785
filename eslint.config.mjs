// eslint for every TypeScript and JavaScript file we write (`npm run lint`, run by `npm test`).
// typescript-eslint's recommended rules; layout (indentation, wrapping at 140) is prettier's
// (.prettierrc.json, checked in the same step), so eslint-config-prettier turns off the rules that
// would fight it, and @stylistic/max-len catches what prettier cannot wrap: comments and code over
// 140 columns. Strings and template literals may run longer, so a message a person reads in a log
// can still be found with grep. simple-import-sort orders imports. Boundaries: the per-folder import rules come from DEPS.json
// (the same file scripts/check-deps.mjs checks exactly), so an editor flags a forbidden import as
// it is typed.
import fs from 'node:fs';

import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import prettier from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

const { rules: depRules } = JSON.parse(fs.readFileSync(new URL('./DEPS.json', import.meta.url), 'utf8'));

/** A rule's forbidden folders as import patterns: every other rule's folder it may not import. */
function restrictedImports(rule) {
  const forbidden = depRules
    .map((r) => r.files)
    .filter((folder) => !rule.may_import.some((ok) => folder.startsWith(ok)) && !rule.files.startsWith(folder));
  // Relative specifiers end in the folder's last segments, e.g. '../../agents/mcp/tools'.
  const patterns = forbidden.map((folder) => `**/${folder.split('/').filter(Boolean).slice(-2).join('/')}/**`);
  return {
    files: [`${rule.files}**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: patterns.length ? [{ group: patterns, message: `DEPS.json rule "${rule.name}": ${rule.why}` }] : [],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.venvs/**', 'schemas/generated/**', 'bench/tmp/**', 'test-artifacts/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.{ts,mts,mjs,js}'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    plugins: { '@stylistic': stylistic, 'simple-import-sort': simpleImportSort },
    rules: {
      '@stylistic/max-len': [
        'error',
        { code: 140, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true },
      ],
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Browser and Node globals differ per folder; TypeScript already checks every name.
      'no-undef': 'off',
    },
  },
  {
    // chai's property assertions (expect(x).to.be.true) are expressions by design.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  // Type-aware rules on the shipped code: a promise nobody awaits or catches loses its rejection (in the
  // bridge an unhandled rejection ends the process; in the service worker an action's failure would
  // never reach its agent), and a promise where a plain value is expected (an async listener whose
  // caller ignores what it returns, `if (promise)`) is silently dropped or always truthy. Each folder
  // is linted with the tsconfig that type-checks it. Tests and benches are left out: typing them
  // too would add the third and largest program (about 17 s CPU and 0.5 GB more per cold lint).
  ...[
    { files: ['extension/src/**/*.ts'], project: './tsconfig.json' },
    { files: ['bridge/**/*.ts', 'schemas/**/*.ts'], project: './tsconfig.bridge.json' },
  ].map(({ files, project }) => ({
    files,
    languageOptions: { parserOptions: { project, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  })),
  ...depRules.map(restrictedImports),
);
