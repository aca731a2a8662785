"""One side of the examples suite in one process: every example in turn, as ``python example.py`` runs
it (runpy, run_name='__main__'), with what a person sees recorded per Agent.run / take_step.

    python -m tests.examples.runner --side ours|playwright --examples DIR --origin URL --out FILE [--only PATH,...]

ours: the example after rewrite.rewrite_imports (the shim reads BROWSER_USE_EXT_BRIDGE_URL /
BROWSER_USE_EXT_AGENT_SECRET from the environment). playwright: the example unchanged, browser_use's
own Browser launched on /usr/bin/chromium (headless). Both: the test-only changes listed in
tests/examples/__init__.py.
"""

from __future__ import annotations

import argparse
import asyncio
import builtins
import json
import os
import runpy
import signal
import sys
import tempfile
import threading
import time
import traceback
import types
from pathlib import Path
from typing import Any

SHIM_DIR = Path(__file__).resolve().parents[2]
if str(SHIM_DIR) not in sys.path:
    sys.path.insert(0, str(SHIM_DIR))

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')
os.environ.setdefault('BROWSER_USE_LOGGING_LEVEL', 'info')

RUNS: list[dict] = []
_runs_changed = threading.Condition()
#: What the yagmail test double "sent" during the current example (notification.py mails its result).
MAILS: list[dict] = []


def wait_for_runs(n: int, timeout_s: float = 60) -> None:
    """Blocks until n Agent runs of the current example have finished (an input() answer waits on it)."""
    with _runs_changed:
        _runs_changed.wait_for(lambda: len(RUNS) >= n, timeout_s)


def _record(entry: dict) -> None:
    with _runs_changed:
        RUNS.append(entry)
        _runs_changed.notify_all()


def _actions(agent: Any) -> list[str]:
    out: list[str] = []
    for item in agent.state.history.history:
        if item.model_output:
            for a in item.model_output.action:
                out.extend(k for k, v in a.model_dump(exclude_unset=True).items() if v is not None)
    return out


def _summary(agent: Any, history: Any) -> dict:
    errors = [e for e in history.errors()]
    return {
        'is_done': history.is_done(),
        'success': history.is_successful() if hasattr(history, 'is_successful') else None,
        'final_result': history.final_result(),
        'actions': _actions(agent),
        'error_steps': [i for i, e in enumerate(errors) if e],
        'errors': [e for e in errors if e],
    }


def _patch_agent() -> None:
    import browser_use.agent.service as svc

    agent_cls = svc.Agent
    original_run = agent_cls.run

    async def run(self: Any, *a: Any, **kw: Any) -> Any:
        try:
            history = await original_run(self, *a, **kw)
        except BaseException as e:
            _record({'raised': f'{type(e).__name__}: {e}'})
            raise
        _record(_summary(self, history))
        return history

    agent_cls.run = run
    if hasattr(agent_cls, 'take_step'):
        original_take = agent_cls.take_step

        async def take_step(self: Any) -> Any:
            out = await original_take(self)
            _record(
                {
                    'take_step': list(out),
                    'actions': _actions(self),
                    'errors': [r.error for item in self.state.history.history for r in item.result if r.error],
                }
            )
            return out

        agent_cls.take_step = take_step


def _patch_playwright_launch() -> None:
    """Test-only: browser_use's own Browser on /usr/bin/chromium, headless, always launched by Playwright."""
    from browser_use.browser.browser import Browser

    from tests.compat_real import IS_040, _Playwright

    original = Browser._setup_browser

    async def _setup_browser(self: Any, playwright: Any) -> Any:
        cfg = self.config
        names = set(getattr(type(cfg), 'model_fields', {}) or getattr(cfg, '__dataclass_fields__', {}))
        for name in ('chrome_instance_path', 'browser_binary_path', 'cdp_url', 'wss_url'):
            if name in names and getattr(cfg, name, None):
                setattr(cfg, name, None)
        cfg.headless = True
        if not IS_040 and '--no-sandbox' not in cfg.extra_browser_args:
            cfg.extra_browser_args = [*cfg.extra_browser_args, '--no-sandbox']
        return await original(self, _Playwright(playwright))

    Browser._setup_browser = _setup_browser

    # browser_use starts its Playwright browser lazily and without a lock: agents that start at once
    # on one Browser() (parallel_agents.py) each launch a Chromium and overwrite each other's. Serialise
    # the start, as one launch would be on a fast machine.
    get_browser = Browser.get_playwright_browser
    locks: dict[tuple[int, int], asyncio.Lock] = {}  # (Browser, event loop): each example has a loop of its own

    async def get_playwright_browser(self: Any) -> Any:
        lock = locks.setdefault((id(self), id(asyncio.get_running_loop())), asyncio.Lock())
        async with lock:
            return await get_browser(self)

    Browser.get_playwright_browser = get_playwright_browser


class _SMTP:
    """yagmail.SMTP as notification.py uses it: the mail is recorded, never sent (CI has no Gmail account)."""

    def __init__(self, user: Any = None, password: Any = None, *a: Any, **kw: Any) -> None:
        self.user = user  # the password is not kept: it never reaches a result or a log

    def send(self, to: Any = None, subject: Any = None, contents: Any = None, *a: Any, **kw: Any) -> dict:
        MAILS.append({'from': self.user, 'to': to, 'subject': subject, 'contents': contents})
        return {}


def _install_test_doubles() -> None:
    """Test-only: an in-memory pyperclip, a recording yagmail; Gemini and Azure model classes -> ChatOpenAI(model='gpt-4o')."""
    clip = types.ModuleType('pyperclip')
    store = {'text': ''}
    clip.copy = lambda text: store.__setitem__('text', text)  # type: ignore[attr-defined]
    clip.paste = lambda: store['text']  # type: ignore[attr-defined]
    sys.modules['pyperclip'] = clip
    mail = types.ModuleType('yagmail')
    mail.SMTP = _SMTP  # type: ignore[attr-defined]
    sys.modules['yagmail'] = mail

    import langchain_openai
    from langchain_openai import ChatOpenAI

    def scripted(*a: Any, **kw: Any) -> Any:
        return ChatOpenAI(model='gpt-4o')

    gemini = types.ModuleType('langchain_google_genai')
    gemini.ChatGoogleGenerativeAI = scripted  # type: ignore[attr-defined]
    sys.modules['langchain_google_genai'] = gemini
    langchain_openai.AzureChatOpenAI = scripted  # type: ignore[attr-defined]


def _answers(inputs: list) -> Any:
    queue = list(inputs)

    def fake_input(prompt: str = '') -> str:
        if not queue:
            raise EOFError(f'the scenario has no answer for input({prompt!r})')
        item = queue.pop(0)
        return item() if callable(item) else item

    return fake_input


async def _fresh_tabs(ws_endpoint: str) -> None:
    """Test-only, our side: before each example the harness Chromium is left with one blank tab, as a
    Playwright browser starts (the extension lists every tab of the person's Chrome, so tabs left by the
    previous example would show in this one's "Available tabs")."""
    import websockets

    async with websockets.connect(ws_endpoint, max_size=None) as ws:
        ids = iter(range(1, 1000))

        async def send(method: str, params: dict) -> dict:
            mid = next(ids)
            await ws.send(json.dumps({'id': mid, 'method': method, 'params': params}))
            while True:
                m = json.loads(await ws.recv())
                if m.get('id') == mid:
                    return m.get('result') or {}

        pages = [
            t
            for t in (await send('Target.getTargets', {}))['targetInfos']
            if t['type'] == 'page' and not t['url'].startswith('chrome-extension://')
        ]
        keep = await send('Target.createTarget', {'url': 'about:blank'})
        for t in pages:
            await send('Target.closeTarget', {'targetId': t['targetId']})
        await send('Target.activateTarget', {'targetId': keep['targetId']})


#: How long an example may go on after its alarm before the runner gives up on it and exits.
HANG_GRACE_S = 20


def _no_hang_handler(path: str, error: str) -> None:
    os._exit(3)


#: Set by main(): keeps the results so far, with `path` failed by `error`, and ends the process.
_ON_HANG = _no_hang_handler


class _Timeout(Exception):
    pass


def run_one(sc: Any, side: str, examples: Path, origin: str, server: Any, v40: bool, work: Path) -> dict:
    from tests.examples.rewrite import rewrite_imports
    from tests.examples.scenarios import Ctx, script_for

    cwd = work / sc.path.replace('/', '__').replace('.py', '')
    cwd.mkdir(parents=True, exist_ok=True)
    ctx = Ctx(origin=origin, v40=v40, cwd=str(cwd))
    text = (examples / sc.path).read_text()
    if side == 'ours':
        text = rewrite_imports(text)
    for real, fixture in sc.urls(ctx):
        if real not in text:
            raise AssertionError(f'{sc.path}: {real!r} is not in the example any more')
        text = text.replace(real, fixture)
    target = work / '_examples' / side / sc.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    script = script_for(sc, ctx)
    server.script = script
    if side == 'ours' and os.environ.get('BUX_CHROMIUM_WS'):
        asyncio.run(_fresh_tabs(os.environ['BUX_CHROMIUM_WS']))
    if side == 'ours' and os.environ.get('BUX_CHROMIUM_WS') and 'set_input_files' in text:
        # The person allows the example's own folder for uploads (Settings, "Folders agents may upload
        # from"), as they would for an agent that uploads files (file_upload.py).
        from tests.harness import _cdp_set_extension_settings
        asyncio.run(_cdp_set_extension_settings(os.environ['BUX_CHROMIUM_WS'], {'upload_folders': [cwd.as_uri() + '/']}))
    RUNS.clear()
    MAILS.clear()
    builtins.input = _answers(sc.inputs(ctx) if callable(sc.inputs) else sc.inputs)
    old_cwd, old_argv = os.getcwd(), sys.argv
    os.chdir(cwd)
    os.environ['HOME'] = str(cwd)
    sys.argv = [str(target)]

    hard: list[threading.Timer] = []

    def on_alarm(*_: Any) -> None:
        # Raised where the main thread happens to be: inside an asyncio callback the loop logs it and
        # goes on, and the example may never end. Then, after a grace, the side's results so far are
        # kept with this example timed out, and the process ends (the test runs what is left again).
        hung = f'_Timeout: {sc.path} did not finish within {sc.timeout_s} s (and hung past it)'
        timer = threading.Timer(HANG_GRACE_S, _ON_HANG, args=(sc.path, hung))
        timer.daemon = True
        timer.start()
        hard.append(timer)
        raise _Timeout(f'{sc.path} did not finish within {sc.timeout_s} s')

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(sc.timeout_s)
    started = time.monotonic()
    error = None
    try:
        runpy.run_path(str(target), run_name='__main__')
    except SystemExit as e:
        if e.code not in (0, None):
            error = f'SystemExit: {e.code}'
    except BaseException as e:  # noqa: BLE001 - the example's own failure is the result
        error = f'{type(e).__name__}: {e}'
        if not isinstance(e, (ValueError, ModuleNotFoundError, ImportError)):
            traceback.print_exc()
    finally:
        signal.alarm(0)
        for timer in hard:
            timer.cancel()
        os.chdir(old_cwd)
        sys.argv = old_argv
    files = sorted(str(p.relative_to(cwd)) for p in cwd.rglob('*') if p.is_file() and not str(p.relative_to(cwd)).startswith('.'))
    requests = [s.raw for s in script.requests]
    return {
        'error': error,
        'runs': list(RUNS),
        'mails': list(MAILS),
        'files': files,
        'script_errors': list(script.errors),
        'secret_reached_model': any('my_x_password' in r or 'my_x_name' in r for r in requests),
        'model_requests': len(requests),
        'seconds': round(time.monotonic() - started, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--side', choices=['ours', 'playwright'], required=True)
    ap.add_argument('--examples', required=True)
    ap.add_argument('--origin', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--only', default='')
    ap.add_argument('--shard', default='0/1', help='i/n: run every n-th example starting at the i-th (of those this side runs)')
    args = ap.parse_args()
    sys.modules.setdefault('tests.examples.runner', sys.modules[__name__])  # one RUNS, also for `python -m`

    from importlib.metadata import version

    from tests.examples.scenarios import SCENARIOS, status_on
    from tests.scripted_llm import Script, ScriptedOpenAIServer

    v40 = version('browser-use').startswith('0.1.40')
    server = ScriptedOpenAIServer(Script([]), idle_timeout_s=900)
    for name in ('OPENAI_BASE_URL', 'OPENAI_API_BASE'):
        os.environ[name] = server.base_url
    os.environ['OPENAI_API_KEY'] = 'sk-scripted-not-a-real-key'
    for name in ('GEMINI_API_KEY', 'AZURE_OPENAI_KEY'):
        os.environ[name] = 'placeholder-not-a-real-key'
    os.environ['AZURE_OPENAI_ENDPOINT'] = server.base_url
    for name in ('BEARER_TOKEN',):
        os.environ.pop(name, None)
    _install_test_doubles()
    _patch_agent()
    if args.side == 'playwright':
        _patch_playwright_launch()
    only = set(filter(None, args.only.split(',')))
    results: dict[str, dict] = {}
    work = Path(tempfile.mkdtemp(prefix=f'bux-examples-{args.side}-'))
    bu = '0.1.40' if v40 else '0.1.48'
    shard, shards = (int(x) for x in args.shard.split('/'))
    todo = [
        sc
        for sc in SCENARIOS
        if (not only or sc.path in only)
        and sc.path.endswith('.py')
        and bu in sc.versions
        and (status_on(sc, bu) != 'cannot' or (sc.check_error and args.side == 'ours'))
        and not (sc.reference_env and args.side == 'playwright')  # it cannot run there on this machine
    ]
    def on_hang(path: str, error: str) -> None:
        results[path] = {'error': error, 'runs': []}
        Path(args.out).write_text(json.dumps(results, indent=1))
        print(f'--- {path} hung: the rest of this shard is left for the test to run again', flush=True)
        os._exit(0)

    global _ON_HANG
    _ON_HANG = on_hang
    for sc in todo[shard::shards]:
        print(f'--- {sc.path}', flush=True)
        try:
            results[sc.path] = run_one(sc, args.side, Path(args.examples), args.origin, server, v40, work)
        except BaseException as e:  # noqa: BLE001
            results[sc.path] = {'error': f'runner: {type(e).__name__}: {e}', 'runs': []}
        print(json.dumps(results[sc.path])[:2000], flush=True)
        Path(args.out).write_text(json.dumps(results, indent=1))
    server.close()
    Path(args.out).write_text(json.dumps(results, indent=1))
    os._exit(0)  # examples leave browsers and threads behind; the test reads the file


if __name__ == '__main__':
    main()
