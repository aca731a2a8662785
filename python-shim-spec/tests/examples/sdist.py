"""browser_use 0.1.40's sdist, downloaded once with the running venv's pip and cached outside git
(.venvs/ is gitignored): its examples/ folder is what the suite runs. Never vendored in the repo.
The 0.1.48 sdist goes to the same cache: the suite checks it ships no examples/ folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
CACHE = Path(os.environ.get('BUX_VENVS_DIR') or REPO_ROOT / '.venvs') / '_examples-sdist'
VERSION = '0.1.40'
FOLDERS = ('browser', 'custom-functions', 'features', 'use-cases')


def sdist_path(version: str = VERSION) -> Path:
    """The cached sdist, downloaded with ``pip download --no-deps --no-binary browser-use`` when missing."""
    tarball = CACHE / f'browser_use-{version}.tar.gz'
    if tarball.exists():
        return tarball
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        # --no-binary browser-use, not :all:: the same sdist, but ':all:' would also build the sdist's build
        # backend (hatchling) and its dependencies from source to read the metadata (minutes on CI).
        subprocess.run(
            [
                sys.executable,
                '-m',
                'pip',
                'download',
                '--no-deps',
                '--no-binary',
                'browser-use',
                '--disable-pip-version-check',
                '-q',
                '-d',
                tmp,
                f'browser-use=={version}',
            ],
            check=True,
            timeout=300,
        )
        got = next(Path(tmp).glob('browser_use-*.tar.gz'))
        os.replace(got, tarball)  # atomic: a concurrent run sees the whole file or none
    return tarball


def example_files(tarball: Path) -> list[str]:
    """Every file under examples/{browser,custom-functions,features,use-cases}, as 'features/x.py'."""
    with tarfile.open(tarball) as tf:
        names = [n.split('/examples/', 1)[1] for n in tf.getnames() if '/examples/' in n]
    return sorted(n for n in names if n.split('/', 1)[0] in FOLDERS and '/' in n and not n.endswith('/'))


def examples_dir() -> Path:
    """The extracted examples/ folder (extracted once next to the tarball)."""
    tarball = sdist_path()
    out = CACHE / f'browser_use-{VERSION}-examples'
    if (out / 'features').is_dir():
        return out
    tmp = Path(tempfile.mkdtemp(dir=CACHE))
    with tarfile.open(tarball) as tf:
        members = [m for m in tf.getmembers() if '/examples/' in m.name and m.isfile()]
        for m in members:
            rel = m.name.split('/examples/', 1)[1]
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            with tf.extractfile(m) as src, open(dest, 'wb') as f:  # type: ignore[union-attr]
                shutil.copyfileobj(src, f)
    try:
        os.replace(tmp, out)
    except OSError:  # another run extracted it first
        shutil.rmtree(tmp, ignore_errors=True)
    return out
