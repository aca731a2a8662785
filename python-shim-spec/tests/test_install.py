"""The shim as a user installs it (README "Python: install and supported versions"): every test venv
got it through `pip install ./python-shim-spec` (scripts/python-envs.mjs), so here the installed
copy is checked against the sources the other tests import, its metadata and console script are
checked, and a wheel is built from a copy of the sources without the `wheel` package installed."""
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

from tests.harness import SHIM_DIR

SRC = SHIM_DIR / 'browser_use_ext'


def installed_package_dir() -> Path:
    """Where `import browser_use_ext` lands outside the repo (-I: no cwd, no PYTHONPATH)."""
    r = subprocess.run([sys.executable, '-I', '-c', 'import browser_use_ext, os; print(os.path.dirname(browser_use_ext.__file__))'],
                       cwd=tempfile.gettempdir(), capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise AssertionError(f'browser_use_ext is not importable from the venv: {r.stderr[-2000:]}')
    return Path(r.stdout.strip().splitlines()[-1])


def source_files() -> list:
    return sorted(p.relative_to(SRC) for p in SRC.rglob('*') if p.is_file() and '__pycache__' not in p.parts and p.suffix != '.pyc')


class InstalledShim(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dist = importlib.metadata.distribution('browser-use-ext')
        cls.pkg = installed_package_dir()

    def test_the_venv_imports_the_installed_copy_and_it_holds_the_current_sources(self):
        self.assertNotEqual(self.pkg.resolve(), SRC.resolve())
        self.assertIn('site-packages', self.pkg.parts)
        stale = [
            str(rel)
            for rel in source_files()
            if not (self.pkg / rel).is_file() or (self.pkg / rel).read_bytes() != (SRC / rel).read_bytes()
        ]
        self.assertEqual(stale, [], 'installed copy differs from the sources (node scripts/python-envs.mjs reinstalls it)')
        self.assertTrue((self.pkg / 'py.typed').is_file(), 'PEP 561 marker missing from the installed package')

    def test_metadata_is_complete(self):
        md = self.dist.metadata
        from browser_use_ext.version import __version__
        self.assertEqual(md['Name'], 'browser-use-ext')
        self.assertEqual(md['Version'], __version__)
        self.assertIn('browser_use', md['Summary'])
        self.assertEqual(md['Requires-Python'], '>=3.9')
        self.assertEqual(md['License-Expression'], 'MIT')  # SPDX (core metadata 2.4)
        self.assertTrue(md['Author'] or md['Author-email'])
        self.assertEqual(md.get('Description-Content-Type'), 'text/markdown')
        # The long description is the package's README (generated from docs/ by `npm run gen:docs`), whole.
        readme = (Path(__file__).resolve().parents[1] / 'README.md').read_text(encoding='utf-8')
        self.assertEqual((md.get_payload() or md['Description'] or '').strip(), readme.strip())
        classifiers = md.get_all('Classifier') or []
        self.assertIn('Typing :: Typed', classifiers)
        self.assertTrue(md.get_all('Project-URL'))
        requires = self.dist.requires or []
        self.assertIn('websockets>=10.4', [r.replace(' ', '') for r in requires if 'extra' not in r])
        self.assertTrue(any(r.startswith('browser-use') and 'extra == "agent"' in r for r in requires), requires)

    def test_the_console_script_runs(self):
        eps = [ep for ep in self.dist.entry_points if ep.group == 'console_scripts']
        # Not `browser-use-ext`: that name is the npm CLI's, and one would shadow the other on PATH.
        self.assertEqual([(ep.name, ep.value) for ep in eps], [('browser-use-ext-serve', 'browser_use_ext.serve:console_main')])
        self.assertFalse((Path(sys.executable).parent / 'browser-use-ext').exists(), 'the npm CLI owns the name browser-use-ext')
        script = Path(sys.executable).parent / 'browser-use-ext-serve'
        self.assertTrue(script.is_file(), f'{script} missing')
        r = subprocess.run([str(script), '--help'], capture_output=True, text=True, timeout=120, cwd=tempfile.gettempdir())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('--bridge-url <url>', r.stdout)

    def test_websockets_in_this_venv_is_a_supported_version(self):
        from browser_use_ext import wscompat
        major, minor = (int(x) for x in re.match(r'(\d+)\.(\d+)', wscompat.VERSION).groups())
        self.assertGreaterEqual((major, minor), (10, 4))
        self.assertEqual(importlib.metadata.version('websockets'), wscompat.VERSION)


@unittest.skipIf(
    importlib.util.find_spec('browser_use') is not None, 'built once, in the venv without browser_use (the same pip as the others)'
)
class WheelBuild(unittest.TestCase):
    def test_pip_wheel_builds_a_complete_wheel_without_the_wheel_package(self):
        # pip's isolated build gets setuptools (and `wheel` if an old setuptools asks for it) itself.
        self.assertIsNone(importlib.util.find_spec('wheel'), 'this venv should not have `wheel`: users do not need it')
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / 'python-shim-spec'
            shutil.copytree(SHIM_DIR, src, ignore=shutil.ignore_patterns('tests', 'bench', 'build', '*.egg-info', '__pycache__'))
            out = Path(tmp) / 'dist'
            r = subprocess.run([sys.executable, '-m', 'pip', 'wheel', '--no-deps', '-q', '-w', str(out), str(src)],
                               capture_output=True, text=True, timeout=300, env={**os.environ, 'PIP_DISABLE_PIP_VERSION_CHECK': '1'})
            self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
            wheels = list(out.glob('browser_use_ext-*-py3-none-any.whl'))
            self.assertEqual(len(wheels), 1, list(out.iterdir()))
            names = zipfile.ZipFile(wheels[0]).namelist()
        for rel in source_files():
            self.assertIn(f'browser_use_ext/{rel.as_posix()}', names)
        self.assertTrue(any(n.endswith('.dist-info/entry_points.txt') for n in names))
        self.assertFalse([n for n in names if n.startswith('tests/')], 'the tests must not be packaged')


if __name__ == '__main__':
    unittest.main()
