"""Shared setup of the test_real_agent*.py modules: the real browser_use (0.1.48 or 0.1.40, whichever
the running venv has) with its unmodified Agent, the shim, and one harness (bridge + extension in real
Chromium + fixture server) per module. Without browser_use installed the modules skip (the fallback
venv runs test_fallback.py instead)."""
import importlib.metadata
import logging
import os
import unittest
from typing import Any, Callable

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')  # no posthog calls from the test machine
os.environ.setdefault('BROWSER_USE_LOGGING_LEVEL', 'info')
os.environ.setdefault('OPENAI_API_KEY', 'sk-scripted-not-a-real-key')

from tests.harness import ShimModule  # noqa: E402  (also puts the package on sys.path)

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


class RealAgentModule(ShimModule):
    """One harness and one event loop for a test module:
    ``M = RealAgentModule()`` then ``setUpModule, tearDownModule = M.hooks()``."""

    def __init__(self) -> None:
        super().__init__(timeout_s=180)

    def hooks(self) -> tuple[Callable[[], None], Callable[[], None]]:
        def set_up_module() -> None:
            require_browser_use()
            self.start()
        return set_up_module, self.close

    def browser(self, **config: Any) -> Any:
        from browser_use_ext import BrowserContextConfig, ExtensionBrowser, ExtensionBrowserConfig
        assert self.h is not None, 'RealAgentModule.browser before setUpModule'
        cfg = ExtensionBrowserConfig()
        cfg.new_context_config = BrowserContextConfig(**{'wait_between_actions': 0.1, **config})
        return ExtensionBrowser(cfg, bridge_url=self.h.agent_url, agent_secret=self.h.agent_secret)


def chat_openai(server: Any, **kw: Any) -> Any:
    """browser_use's usual model class, ChatOpenAI, pointed at a ScriptedOpenAIServer."""
    from langchain_openai import ChatOpenAI
    return ChatOpenAI(base_url=server.base_url, api_key='sk-scripted-not-a-real-key', model='gpt-4o', temperature=0, max_retries=0, **kw)


def done(text: str = 'done', success: bool = True) -> list:
    """The agent step that ends the run."""
    return [{'done': {'text': text, 'success': success}}]


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
