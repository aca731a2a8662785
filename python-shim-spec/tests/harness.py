"""Starts the shared real setup (bridge + fixture server + Chromium with the built extension) through
`node --import tsx test/harness/cli.ts --serve <dir>` and reads its JSON line. One harness per test
module (setUpModule/tearDownModule): Chromium costs about a second and the CI machine has 2 cores.
Requires dist/ to be built (`npx rollup -c --silent`; `npm test` does it first)."""
import asyncio
import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable, Optional

TESTS_DIR = Path(__file__).resolve().parent
SHIM_DIR = TESTS_DIR.parent
REPO_ROOT = SHIM_DIR.parent
FIXTURES_DIR = TESTS_DIR / 'fixtures'

# The real browser_use sends anonymized telemetry by default: never from a test run (the CI machine
# reaches only package registries; the retries would just add noise and time).
os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')

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
        # Drain stderr so a chatty harness never blocks on a full pipe; later stdout lines answer commands.
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
        self._events: 'queue.Queue[str]' = queue.Queue()
        threading.Thread(target=lambda: [self._events.put(ln) for ln in self.proc.stdout], daemon=True).start()
        self._lock = threading.Lock()
        info = json.loads(line[0])
        self.info = info
        self.agent_url: str = info['agent_url']
        self.fixtures_url: str = info['fixtures_url']
        self.status_url: str = info.get('status_url', '')
        self.agent_secret = (info.get('credentials') or {}).get('agent_secret')

    def restart_bridge(self, down_ms: int = 0, timeout_s: float = 60) -> dict:
        """Stops the bridge, waits down_ms, starts a new one on the same port with the same secrets,
        and returns once the extension is connected to it (test/harness/cli.ts `restart-bridge`).
        Safe to call from any thread."""
        with self._lock:
            self.proc.stdin.write(f'restart-bridge {int(down_ms)}\n')
            self.proc.stdin.flush()
            try:
                event = json.loads(self._events.get(timeout=timeout_s))
            except queue.Empty:
                raise RuntimeError(f'the harness did not restart the bridge within {timeout_s} s') from None
        if event.get('event') != 'bridge_restarted':
            raise RuntimeError(f'restart-bridge failed: {event}')
        return event

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


class ShimModule:
    """What a test module shares between its tests: one harness, one event loop, and what the module
    opened on them (a browser, a context, a connection), closed in reverse order by close().
    ``S = ShimModule()``, ``S.start()`` in setUpModule, ``tearDownModule = S.close``."""

    def __init__(self, fixtures_dir: Path = FIXTURES_DIR, timeout_s: float = 60) -> None:
        self.fixtures_dir = fixtures_dir
        self.timeout_s = timeout_s  # run()'s default
        self.h: Optional[Harness] = None
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self._closers: list[Callable[[], Awaitable[Any]]] = []

    def start(self) -> Harness:
        self.h = Harness(self.fixtures_dir)
        self.loop = asyncio.new_event_loop()
        return self.h

    def run(self, coro: Awaitable[Any], timeout: Optional[float] = None) -> Any:
        assert self.loop is not None, 'ShimModule.run before start()'
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout or self.timeout_s))

    def on_close(self, closer: Callable[[], Awaitable[Any]]) -> None:
        """close() awaits closer() first (the last registered runs first)."""
        self._closers.append(closer)

    def open_browser(self) -> Any:
        """An ExtensionBrowser on this harness's bridge, closed by close()."""
        from browser_use_ext import ExtensionBrowser
        assert self.h is not None, 'ShimModule.open_browser before start()'
        browser = ExtensionBrowser(bridge_url=self.h.agent_url, agent_secret=self.h.agent_secret)
        self.on_close(browser.close)
        return browser

    def open_context(self, config: Any) -> tuple[Any, Any]:
        """(browser, context) with that BrowserContextConfig, both closed by close()."""
        browser = self.open_browser()
        ctx = self.run(browser.new_context(config))
        self.on_close(ctx.close)
        return browser, ctx

    def close(self) -> None:
        try:
            if self.loop is not None:
                while self._closers:
                    self.run(self._closers.pop()())
                self.loop.close()
        finally:
            if self.h is not None:
                self.h.close()


async def _cdp_set_extension_settings(ws_endpoint: str, values: dict) -> None:
    """chrome.storage.local.set(values) in the extension's service worker, as its options page does
    (over the harness Chromium's DevTools endpoint)."""
    import websockets

    ids = itertools.count(1)
    async with websockets.connect(ws_endpoint, max_size=None) as ws:
        async def send(method: str, params: dict, session: str = '') -> dict:
            mid = next(ids)
            msg = {'id': mid, 'method': method, 'params': params}
            if session:
                msg['sessionId'] = session
            await ws.send(json.dumps(msg))
            while True:
                m = json.loads(await ws.recv())
                if m.get('id') == mid:
                    if 'error' in m:
                        raise RuntimeError(f'{method}: {m["error"]}')
                    return m['result']

        targets = (await send('Target.getTargets', {}))['targetInfos']
        worker = next(t for t in targets if t['type'] == 'service_worker' and t['url'].endswith('/background.js'))
        session = (await send('Target.attachToTarget', {'targetId': worker['targetId'], 'flatten': True}))['sessionId']
        await send('Runtime.evaluate', {'expression': f'chrome.storage.local.set({json.dumps(values)})', 'awaitPromise': True}, session)
        await send('Target.detachFromTarget', {'sessionId': session})


def set_extension_settings(h: 'Harness', values: dict) -> None:
    asyncio.run(_cdp_set_extension_settings(h.info['chromium_ws_endpoint'], values))
