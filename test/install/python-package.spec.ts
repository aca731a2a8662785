// The Python package as a person gets it: `python -m build` (the PyPA `build` frontend, installed into
// a throwaway venv: the same sdist-then-wheel path PyPI uploads take) on a copy of python-shim-spec,
// then each of the two files installed alone into a fresh venv, imported and run from a folder
// outside the checkout. pip and the build's isolated setuptools come from PyPI (or pip's cache).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { REPO_ROOT } from '../harness/browser';

const SHIM = path.join(REPO_ROOT, 'python-shim-spec');
const PYTHON = process.env['PYTHON'] ?? 'python3';

/** The package's modules and data files, relative to browser_use_ext/. */
function packageFiles(dir = path.join(SHIM, 'browser_use_ext'), base = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === '__pycache__' ? [] : packageFiles(path.join(dir, e.name), rel);
    return /\.pyc$/.test(e.name) ? [] : [rel];
  });
}

describe('the Python package built with python -m build, installed from the sdist or the wheel alone', function () {
  this.timeout(300_000);
  let tmp: string;
  let dist: string;
  let work: string;
  const sh = (cmd: string, args: string[], cwd = work) =>
    execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONDONTWRITEBYTECODE: '1' },
    });
  const venv = (name: string) => {
    const dir = path.join(tmp, name);
    sh(PYTHON, ['-m', 'venv', dir]);
    return path.join(dir, 'bin', 'python');
  };
  const artifact = (re: RegExp) => path.join(dist, fs.readdirSync(dist).find((f) => re.test(f)) as string);

  before(function () {
    this.timeout(300_000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-pybuild-'));
    work = path.join(tmp, 'work');
    fs.mkdirSync(work);
    // A copy without build leftovers, so the sdist is made from what the repository holds.
    const src = path.join(tmp, 'python-shim-spec');
    fs.cpSync(SHIM, src, {
      recursive: true,
      filter: (f) => !/(^|\/)(build|[^/]*\.egg-info|__pycache__|\.venvs)$/.test(path.relative(SHIM, f)),
    });
    const builder = venv('builder');
    sh(builder, ['-m', 'pip', 'install', '-q', 'build']);
    dist = path.join(tmp, 'dist');
    sh(builder, ['-m', 'build', '--outdir', dist, src]);
  });
  after(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

  it('the sdist holds README, LICENSE, pyproject, py.typed and every module, and no tests', () => {
    const sdist = artifact(/^browser_use_ext-[\d.]+\.tar\.gz$/);
    const names = sh('tar', ['-tzf', sdist]).trim().split('\n');
    const top = (names[0] as string).split('/')[0] as string;
    for (const f of ['README.md', 'LICENSE', 'pyproject.toml', 'PKG-INFO', ...packageFiles().map((p) => `browser_use_ext/${p}`)])
      expect(names, f).to.include(`${top}/${f}`);
    expect(names.filter((n) => /\/(tests|bench|constraints)\/|__pycache__|\.pyc$/.test(n))).to.deep.equal([]);
  });

  it('the wheel holds every module, py.typed and the license', () => {
    const wheel = artifact(/^browser_use_ext-[\d.]+-py3-none-any\.whl$/);
    const names = sh(PYTHON, ['-c', 'import sys,zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', wheel]).split('\n');
    for (const p of packageFiles()) expect(names, p).to.include(`browser_use_ext/${p}`);
    expect(
      names.some((n) => /\.dist-info\/licenses\/LICENSE$/.test(n)),
      'LICENSE in .dist-info/licenses',
    ).to.equal(true);
    expect(names.filter((n) => n.startsWith('tests/'))).to.deep.equal([]);
  });

  for (const [kind, re] of [
    ['sdist', /^browser_use_ext-[\d.]+\.tar\.gz$/],
    ['wheel', /^browser_use_ext-[\d.]+-py3-none-any\.whl$/],
  ] as const) {
    it(`pip install of the ${kind} alone, in a fresh venv: it imports and serve --help runs from any folder`, () => {
      const py = venv(`fresh-${kind}`);
      sh(py, ['-m', 'pip', 'install', '-q', artifact(re)]);
      const where = sh(py, ['-I', '-c', 'import browser_use_ext, os; print(os.path.dirname(browser_use_ext.__file__))']).trim();
      expect(where).to.contain(`${path.sep}site-packages${path.sep}`);
      expect(fs.existsSync(path.join(where, 'py.typed')), 'py.typed').to.equal(true);
      const help = sh(py, ['-m', 'browser_use_ext', 'serve', '--help']);
      expect(help).to.match(/usage:/i);
      expect(help).to.contain('--llm');
    });
  }
});
