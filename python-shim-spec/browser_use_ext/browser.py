"""ExtensionBrowser: drop-in for browser_use's ``Browser``; each context is one bridge connection
(one bridge session, with its own leased tabs)."""
from __future__ import annotations

import functools
import inspect
import logging
from typing import Any, Optional

from . import credentials
from .config import ExtensionBrowserConfig, context_config_from
from .context import ExtensionBrowserContext
from .transport import BridgeConnection

logger = logging.getLogger(__name__)


class ExtensionBrowser:
    """``Agent(task, llm, browser=ExtensionBrowser(), controller=ExtensionController())``."""

    def __init__(
        self,
        config: Optional[ExtensionBrowserConfig] = None,
        *,
        bridge_url: Optional[str] = None,
        agent_secret: Optional[str] = None,
        browser_name: Optional[str] = None,
    ) -> None:
        self.config = config or ExtensionBrowserConfig()
        if bridge_url:
            self.config.bridge_url = bridge_url
        if agent_secret:
            self.config.agent_secret = agent_secret
        if browser_name:
            self.config.browser_name = browser_name
        # 0.1.48 attributes some code reads; there is no Playwright here.
        self.playwright = None
        self.playwright_browser = None
        self._connections: list[BridgeConnection] = []

    @property
    def bridge_url(self) -> str:
        return credentials.bridge_url(self.config.bridge_url)

    async def _connect(self, capabilities: Optional[list[str]] = None, session_token: Optional[str] = None) -> BridgeConnection:
        conn = await BridgeConnection.connect(
            session_token=session_token,
            url=self.config.bridge_url,
            secret=self.config.agent_secret,
            capabilities=capabilities or [],
            default_timeout_ms=self.config.action_timeout_ms,
            max_tabs=self.config.max_tabs,
            browser_name=self.config.browser_name,
        )
        self._connections.append(conn)
        return conn

    async def new_context(self, config: Any = None) -> ExtensionBrowserContext:
        """async, as in 0.1.48."""
        return ExtensionBrowserContext(
            browser=self, config=context_config_from(config) if config is not None else self.config.new_context_config
        )

    async def _init(self) -> None:
        """0.1.48 started Playwright here (Agent.resume schedules it); nothing to start."""
        return None

    async def get_playwright_browser(self) -> Any:
        raise NotImplementedError('There is no Playwright browser behind browser-use-ext: the person\'s own Chrome is driven through '
                                  'the extension. Use new_context() and the ExtensionBrowserContext methods.')

    async def close(self) -> None:
        """Closes the bridge connections; the person's Chrome keeps running."""
        for conn in self._connections:
            try:
                await conn.close()
            except Exception:
                pass
        self._connections.clear()

    async def cleanup_httpx_clients(self) -> None:
        return None


def _patch_browser_use_agent() -> bool:
    """When browser_use is installed, Agent(browser=ExtensionBrowser()) builds its context with the
    name ``BrowserContext`` in browser_use.agent.service; route that to ExtensionBrowserContext when
    the browser is an ExtensionBrowser (other browsers keep the Playwright class)."""
    try:
        import browser_use.agent.service as agent_service  # type: ignore
    except Exception:
        return False
    original = getattr(agent_service, 'BrowserContext', None)
    if original is None or getattr(original, '_bux_dispatch', False):
        return original is not None

    class _DispatchingBrowserContext(original):  # type: ignore[misc, valid-type]
        _bux_dispatch = True

        def __new__(cls, browser: Any = None, config: Any = None, state: Any = None, *args: Any, **kwargs: Any) -> Any:
            if isinstance(browser, ExtensionBrowser):
                return ExtensionBrowserContext(browser=browser, config=config, state=state)
            return original(browser, config, state, *args, **kwargs)

    agent_service.BrowserContext = _DispatchingBrowserContext
    _patch_agent_init(agent_service)
    return True


def _patch_agent_init(agent_service: Any) -> None:
    """Agent(browser_context=ExtensionBrowserContext(...)) without browser=: 0.1.48 builds a Playwright
    ``Browser()`` for it, and ``Agent.resume()`` launches that Playwright browser (browser._init()).
    Hand the Agent the context's own ExtensionBrowser instead, as if it had been passed (the Agent then
    leaves both to their owner on close, as it does for an injected context)."""
    agent_cls = getattr(agent_service, 'Agent', None)
    if agent_cls is None or getattr(agent_cls.__init__, '_bux_patched', False):
        return
    original_init = agent_cls.__init__
    try:
        signature = inspect.signature(original_init)
    except (TypeError, ValueError):
        return
    if 'browser' not in signature.parameters or 'browser_context' not in signature.parameters:
        return

    @functools.wraps(original_init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            bound = signature.bind_partial(self, *args, **kwargs)
        except TypeError:
            return original_init(self, *args, **kwargs)  # let the Agent report the bad call itself
        context = bound.arguments.get('browser_context')
        if bound.arguments.get('browser') is None and isinstance(context, ExtensionBrowserContext):
            bound.arguments['browser'] = context.browser
        return original_init(*bound.args, **bound.kwargs)

    __init__._bux_patched = True  # type: ignore[attr-defined]
    agent_cls.__init__ = __init__

