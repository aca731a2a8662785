"""Starts the shared real setup (bridge + fixture server + Chromium with the built extension) through
`node --import tsx test/harness/cli.ts --serve <dir>` and reads its JSON line. One harness per test
module (setUpModule/tearDownModule): Chromium costs about a second and the CI machine has 2 cores.
Requires dist/ to be built (`npx rollup -c --silent`; `npm test` does it first)."""
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent
SHIM_DIR = TESTS_DIR.parent
REPO_ROOT = SHIM_DIR.parent
FIXTURES_DIR = TESTS_DIR / 'fixtures'

if str(SHIM_DIR) not in sys.path:
    sys.path.insert(0, str(SHIM_DIR))


class Harness:
    def __init__(self, fixtures_dir: Path = FIXTURES_DIR, timeout_s: float = 60) -> None:
        if not (REPO_ROOT / 'dist' / 'extension' / 'manifest.json').exists():
            raise RuntimeError('dist/extension is missing: run `npx rollup -c --silent` (npm test builds it first)')
        self.proc = subprocess.Popen(
            ['node', '--import', 'tsx', 'test/harness/cli.ts', '--serve', str(fixtures_dir)],
            cwd=str(REPO_ROOT), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = [None]
        reader = threading.Thread(target=lambda: line.__setitem__(0, self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout_s)
        if not line[0]:
            err = self.proc.stderr.read() if self.proc.poll() is not None else ''
            self.close()
            raise RuntimeError(f'the harness did not start within {timeout_s} s: {err[-2000:]}')
        # Drain stderr so a chatty harness never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
        info = json.loads(line[0])
        self.info = info
        self.agent_url: str = info['agent_url']
        self.fixtures_url: str = info['fixtures_url']
        self.status_url: str = info.get('status_url', '')
        self.agent_secret = (info.get('credentials') or {}).get('agent_secret')

    def url(self, path: str) -> str:
        return f'{self.fixtures_url}/{path.lstrip("/")}'

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()  # the harness stops when stdin closes
            except Exception:
                pass
            try:
                self.proc.terminate()
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except Exception:
                pass
