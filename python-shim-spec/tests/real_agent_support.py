"""Shared setup of the test_real_agent*.py modules: the real browser_use (0.1.48 or 0.1.40, whichever
the running venv has) with its unmodified Agent, the shim, and one harness (bridge + extension in real
Chromium + fixture server) per module. Without browser_use installed the modules skip (the fallback
venv runs test_fallback.py instead)."""
import asyncio
import importlib.metadata
import logging
import os
import unittest

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')  # no posthog calls from the test machine
os.environ.setdefault('BROWSER_USE_LOGGING_LEVEL', 'info')
os.environ.setdefault('OPENAI_API_KEY', 'sk-scripted-not-a-real-key')

from tests.harness import Harness  # noqa: E402  (also puts the package on sys.path)

try:
    BU_VERSION = importlib.metadata.version('browser-use')
    import browser_use  # noqa: F401
    from browser_use import Agent  # noqa: F401
    HAVE_BROWSER_USE = True
except Exception:  # the fallback venv
    BU_VERSION = ''
    HAVE_BROWSER_USE = False

V40 = BU_VERSION.startswith('0.1.40')


def require_browser_use() -> None:
    if not HAVE_BROWSER_USE:
        raise unittest.SkipTest('browser_use is not installed in this venv (the real-Agent suites run in the 0.1.48 and 0.1.40 venvs)')


class LogCapture(logging.Handler):
    """Every log record of every logger, formatted, for "the secret is not in the logs"."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(record.getMessage())
        except Exception:
            self.lines.append(str(record.msg))


class RealAgentModule:
    """One harness and one event loop for a test module."""

    def __init__(self) -> None:
        self.h = Harness()
        self.loop = asyncio.new_event_loop()

    def run(self, coro, timeout: float = 180):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    def browser(self, **config):
        from browser_use_ext import ExtensionBrowser, ExtensionBrowserConfig, BrowserContextConfig
        cfg = ExtensionBrowserConfig()
        cfg.new_context_config = BrowserContextConfig(**{'wait_between_actions': 0.1, **config})
        return ExtensionBrowser(cfg, bridge_url=self.h.agent_url, agent_secret=self.h.agent_secret)

    def close(self) -> None:
        try:
            self.loop.close()
        finally:
            self.h.close()


def results_of(agent) -> list:
    """Every ActionResult of the run, in order."""
    return [r for item in agent.state.history.history for r in item.result]


def actions_of(agent) -> list[str]:
    out = []
    for item in agent.state.history.history:
        if item.model_output:
            for a in item.model_output.action:
                out.extend(k for k, v in a.model_dump(exclude_unset=True).items() if v is not None)
    return out
