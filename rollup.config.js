// Builds the extension (service worker as an ES module, content script as an IIFE: content
// scripts cannot be modules, options page) and the bridge CLI for Node.
// @rollup/plugin-commonjs with transformMixedEsModules is required: the generated ajv standalone
// validators require() ajv's runtime helpers, and a bare require() left in the worker bundle stops
// the worker from starting at all (measured, see ../shared/reference/e2e-recipe.md section 6).
import fs from 'node:fs';
import path from 'node:path';

import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import ts from 'typescript';

import { buildManifest } from './extension/manifest.mjs';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const EXT_OUT = 'dist/extension';

const browserPlugins = (tsconfig) => [
  nodeResolve({ browser: true }),
  commonjs({ transformMixedEsModules: true }),
  typescript({
    tsconfig,
    noEmit: false,
    outDir: undefined,
    declaration: false,
    sourceMap: false,
    include: ['extension/src/**/*.ts', 'schemas/**/*.ts'],
  }),
];

/** Copies static files and writes manifest.json once the bundles exist. */
const extensionAssets = () => ({
  name: 'extension-assets',
  writeBundle() {
    fs.mkdirSync(EXT_OUT, { recursive: true });
    fs.writeFileSync(path.join(EXT_OUT, 'manifest.json'), JSON.stringify(buildManifest(pkg.version), null, 2) + '\n');
    for (const f of ['options.html', 'options.css']) fs.copyFileSync(path.join('extension/src/options', f), path.join(EXT_OUT, f));
    // One folder per UI page; the icons are drawn by scripts/make-icons.mjs.
    fs.mkdirSync(path.join(EXT_OUT, 'sidepanel'), { recursive: true });
    for (const f of ['index.html', 'panel.css', 'connectors.css'])
      fs.copyFileSync(path.join('extension/src/sidepanel', f), path.join(EXT_OUT, 'sidepanel', f));
    fs.mkdirSync(path.join(EXT_OUT, 'offscreen'), { recursive: true });
    fs.copyFileSync('extension/src/offscreen/index.html', path.join(EXT_OUT, 'offscreen', 'index.html'));
    fs.cpSync('extension/icons', path.join(EXT_OUT, 'icons'), { recursive: true });
  },
});

/** The npm bin must be executable when the package is used from a checkout (npm link) too. */
const executable = (file) => ({
  name: 'executable',
  writeBundle() {
    fs.chmodSync(file, 0o755);
  },
});

const CLIENT_TYPES = 'dist/client/types';
/**
 * Declarations of the agent client for `import { AgentClient } from 'browser-use-ext'`: tsc emits a
 * .d.ts for every file the client reaches (rooted at the repository, so relative imports keep their
 * shape), and each relative specifier gets a `.js` ending so consumers resolving with
 * node16/nodenext (which need explicit extensions in an ES module package) find the files too.
 */
const clientTypes = (entry) => ({
  name: 'client-types',
  writeBundle() {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      'tsconfig.bridge.json',
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!parsed) throw new Error('cannot read tsconfig.bridge.json');
    fs.rmSync(CLIENT_TYPES, { recursive: true, force: true });
    const program = ts.createProgram([entry], {
      ...parsed.options,
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      rootDir: '.',
      outDir: CLIENT_TYPES,
    });
    const withJs = (text) =>
      text.replace(/((?:from|import)\s*\(?\s*')(\.{1,2}\/[^']+?)(')/g, (m, a, spec, b) =>
        /\.(?:js|cjs|mjs|json)$/.test(spec) ? m : `${a}${spec}.js${b}`,
      );
    const result = program.emit(
      undefined,
      (file, text) => {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, withJs(text));
      },
      undefined,
      true,
    );
    const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length)
      throw new Error(
        ts.formatDiagnostics(errors, {
          ...ts.sys,
          getCanonicalFileName: (f) => f,
          getCurrentDirectory: ts.sys.getCurrentDirectory,
          getNewLine: () => '\n',
        }),
      );
  },
});

const onwarn = (warning, warn) => {
  // ajv's generated code and node built-ins produce benign circular/this warnings.
  if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'THIS_IS_UNDEFINED') return;
  warn(warning);
};

export default [
  {
    input: 'extension/src/background/index.ts',
    output: { file: `${EXT_OUT}/background.js`, format: 'es' },
    plugins: browserPlugins('tsconfig.json'),
    onwarn,
  },
  {
    input: 'extension/src/content/index.ts',
    output: { file: `${EXT_OUT}/content.js`, format: 'iife' },
    plugins: browserPlugins('tsconfig.json'),
    onwarn,
  },
  {
    input: 'extension/src/main-world/hooks.ts',
    output: { file: `${EXT_OUT}/main-hooks.js`, format: 'iife' },
    plugins: browserPlugins('tsconfig.json'),
    onwarn,
  },
  {
    input: 'extension/src/content/early.ts',
    output: { file: `${EXT_OUT}/early.js`, format: 'iife' },
    plugins: browserPlugins('tsconfig.json'),
    onwarn,
  },
  {
    input: 'extension/src/content/agent-ui.ts',
    output: { file: `${EXT_OUT}/agent-ui.js`, format: 'iife' },
    plugins: browserPlugins('tsconfig.json'),
    onwarn,
  },
  {
    input: 'extension/src/sidepanel/index.ts',
    output: { file: `${EXT_OUT}/sidepanel/index.js`, format: 'es' },
    plugins: browserPlugins('tsconfig.json'),
    onwarn,
  },
  {
    input: 'extension/src/offscreen/index.ts',
    output: { file: `${EXT_OUT}/offscreen/index.js`, format: 'es' },
    plugins: browserPlugins('tsconfig.json'),
    onwarn,
  },
  {
    input: 'extension/src/options/options.ts',
    output: { file: `${EXT_OUT}/options.js`, format: 'es' },
    plugins: [...browserPlugins('tsconfig.json'), extensionAssets()],
    onwarn,
  },
  {
    input: 'bridge/cli/main.ts',
    output: { file: 'dist/bridge/cli.js', format: 'es', banner: '#!/usr/bin/env node' },
    // The MCP SDK (and its own dependencies) load from node_modules at run time, like ws.
    external: [/^node:/, 'ws', /^@modelcontextprotocol\/sdk\//],
    plugins: [
      nodeResolve({ preferBuiltins: true }),
      commonjs({ transformMixedEsModules: true }),
      typescript({
        tsconfig: 'tsconfig.bridge.json',
        noEmit: false,
        declaration: false,
        sourceMap: false,
        include: ['bridge/**/*.ts', 'schemas/**/*.ts'],
      }),
      executable('dist/bridge/cli.js'),
    ],
    onwarn,
  },
  {
    // The agent client as a library (package.json "exports"): ws stays a dependency, the generated
    // validators and the shared helpers are bundled.
    input: 'bridge/client/agent-client.ts',
    output: { file: 'dist/client/index.js', format: 'es' },
    external: [/^node:/, 'ws'],
    plugins: [
      nodeResolve({ preferBuiltins: true }),
      commonjs({ transformMixedEsModules: true }),
      typescript({
        tsconfig: 'tsconfig.bridge.json',
        noEmit: false,
        declaration: false,
        sourceMap: false,
        include: ['bridge/**/*.ts', 'schemas/**/*.ts'],
      }),
      clientTypes('bridge/client/agent-client.ts'),
    ],
    onwarn,
  },
];
