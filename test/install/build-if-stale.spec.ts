// `npm start` rebuilds only when a build input changed (scripts/build-if-stale.mjs): the rule, on a
// small tree of its own, with counting stand-ins for gen and rollup.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { buildIfStale, INPUTS, OUTPUTS } from '../../scripts/build-if-stale.mjs';

describe('npm start builds only when an input changed (scripts/build-if-stale.mjs)', () => {
  let root: string;
  let builds: number;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const start = (force = false) => {
    const lines: string[] = [];
    const r = buildIfStale({
      root,
      force,
      generate: () => write('schemas/generated/protocol.ts', `// generated ${builds}\n`),
      bundle: () => {
        builds += 1;
        for (const f of OUTPUTS) write(f, `built ${builds}`);
      },
      log: (l) => lines.push(l),
    });
    expect(lines).to.deep.equal([r.line]); // one line, whichever it was
    return r;
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-stale-'));
    builds = 0;
    write('schemas/v1/a.json', '{}');
    write('extension/src/a.ts', 'export const a = 1;');
    write('bridge/cli/main.ts', 'export {};');
    write('rollup.config.js', 'export default [];');
    write('package.json', '{"version":"0.1.0"}');
    write('tsconfig.base.json', '{}');
    write('README.md', 'not an input');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds the first time, then an untouched tree starts without building', () => {
    expect(start().rebuilt).to.equal(true);
    const again = start();
    expect(again.rebuilt).to.equal(false);
    expect(again.line).to.match(/^build: fresh/);
    expect(builds).to.equal(1);
  });

  it('an edited, added or removed input rebuilds, and names what changed', () => {
    start();
    write('extension/src/a.ts', 'export const a = 2;');
    const edited = start();
    expect(edited.rebuilt).to.equal(true);
    expect(edited.line).to.match(/^build: rebuilt in [\d.]+ s \(extension\/src\/a\.ts changed\)$/);
    write('bridge/cli/new.ts', 'export {};');
    expect(start().line).to.contain('bridge/cli/new.ts changed');
    fs.rmSync(path.join(root, 'schemas/v1/a.json'));
    expect(start().line).to.contain('schemas/v1/a.json (removed)');
    for (const f of ['rollup.config.js', 'package.json', 'tsconfig.base.json']) {
      write(f, `${f} edited`);
      expect(start().rebuilt, f).to.equal(true);
    }
    expect(builds).to.equal(7);
  });

  it('a file outside the inputs, or a touch that leaves the content as it was, does not rebuild', () => {
    start();
    write('README.md', 'edited');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'extension/src/a.ts'), later, later);
    expect(start().rebuilt).to.equal(false);
    expect(INPUTS).to.not.include('README.md');
  });

  it('a missing output or a missing record rebuilds; --force always does', () => {
    start();
    fs.rmSync(path.join(root, 'dist/extension/manifest.json'));
    expect(start().line).to.contain('dist/extension/manifest.json is missing');
    fs.rmSync(path.join(root, 'dist/.build-stamp.json'));
    expect(start().line).to.contain('no record of the last build');
    expect(start(true).rebuilt).to.equal(true);
    expect(start().rebuilt).to.equal(false);
    expect(builds).to.equal(4);
  });

  it('the repository names every folder and config the build reads', () => {
    // gen reads schemas/ and scripts; rollup reads extension/, bridge/, schemas/ and its config.
    for (const f of ['schemas', 'extension', 'bridge', 'rollup.config.js', 'package.json', 'tsconfig.json', 'tsconfig.bridge.json'])
      expect(INPUTS).to.include(f);
  });
});
