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
  let lines: string[];
  // waitStill: the bundle step ends only after that many "still bundling" lines were logged (or 10 s),
  // so the test does not race the timers on a loaded machine.
  const start = async (force = false, waitStill = 0) => {
    lines = [];
    const r = await buildIfStale({
      root,
      force,
      generate: () => write('schemas/generated/protocol.ts', `// generated ${builds}\n`),
      bundle: async () => {
        builds += 1;
        for (const f of OUTPUTS) write(f, `built ${builds}`);
        const deadline = Date.now() + 10_000;
        while (lines.filter((l) => l.startsWith('build: still bundling')).length < waitStill && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
      },
      log: (l) => lines.push(l),
      progressEveryMs: 100,
    });
    expect(lines[lines.length - 1]).to.equal(r.line); // the last line says which it was
    if (!r.rebuilt) expect(lines).to.have.length(1);
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

  it('builds the first time, then an untouched tree starts without building', async () => {
    expect((await start()).rebuilt).to.equal(true);
    const again = await start();
    expect(again.rebuilt).to.equal(false);
    expect(again.line).to.match(/^build: fresh/);
    expect(builds).to.equal(1);
  });

  it('an edited, added or removed input rebuilds, and names what changed', async () => {
    await start();
    write('extension/src/a.ts', 'export const a = 2;');
    const edited = await start();
    expect(edited.rebuilt).to.equal(true);
    expect(edited.line).to.match(/^build: rebuilt in [\d.]+ s \(extension\/src\/a\.ts changed\)$/);
    write('bridge/cli/new.ts', 'export {};');
    expect((await start()).line).to.contain('bridge/cli/new.ts changed');
    fs.rmSync(path.join(root, 'schemas/v1/a.json'));
    expect((await start()).line).to.contain('schemas/v1/a.json (removed)');
    for (const f of ['rollup.config.js', 'package.json', 'tsconfig.base.json']) {
      write(f, `${f} edited`);
      expect((await start()).rebuilt, f).to.equal(true);
    }
    expect(builds).to.equal(7);
  });

  it('a file outside the inputs, or a touch that leaves the content as it was, does not rebuild', async () => {
    await start();
    write('README.md', 'edited');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'extension/src/a.ts'), later, later);
    expect((await start()).rebuilt).to.equal(false);
    expect(INPUTS).to.not.include('README.md');
  });

  it('a missing output or a missing record rebuilds; --force always does', async () => {
    await start();
    fs.rmSync(path.join(root, 'dist/extension/manifest.json'));
    expect((await start()).line).to.contain('dist/extension/manifest.json is missing');
    fs.rmSync(path.join(root, 'dist/.build-stamp.json'));
    expect((await start()).line).to.contain('no record of the last build');
    expect((await start(true)).rebuilt).to.equal(true);
    expect((await start()).rebuilt).to.equal(false);
    expect(builds).to.equal(4);
  });

  it('a rebuild says what it builds, each step, and that it still runs while a step takes long', async () => {
    const r = await start(false, 2);
    expect(lines[0]).to.match(
      /^build: building the bridge, the agent client and the extension \([^)]+\)\. A first build takes a few minutes/,
    );
    expect(lines.some((l) => /^build: generating the protocol types/.test(l))).to.equal(true);
    const bundling = lines.findIndex((l) => /^build: bundling/.test(l));
    expect(bundling).to.be.greaterThan(0);
    // A step longer than the progress period is never silent: a "still" line every period (100 ms here),
    // the time so far in each; the bundle step above lasts until two were logged (a 10 s cap fails here).
    expect(lines.slice(bundling).filter((l) => /^build: still bundling .*, \d+ s so far$/.test(l)).length).to.be.at.least(2);
    expect(r.line).to.match(/^build: rebuilt in/);
  });

  it('the repository names every folder and config the build reads', () => {
    // gen reads schemas/ and scripts; rollup reads extension/, bridge/, schemas/ and its config.
    for (const f of ['schemas', 'extension', 'bridge', 'rollup.config.js', 'package.json', 'tsconfig.json', 'tsconfig.bridge.json'])
      expect(INPUTS).to.include(f);
  });
});
