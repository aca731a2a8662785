"""The real browser_use (whatever version this venv has) on its own Playwright Browser, launched on
Debian's Chromium (/usr/bin/chromium, headless). The pip `playwright` package never downloads a
browser here: the launch is pointed at the system binary by wrapping the `playwright` object the
real Browser hands to its own launch code, so everything else (args, context, viewport, DomService,
buildDomTree.js) is the real code path.

0.1.48 launches with `channel='chromium'` (the Playwright-managed build); 0.1.40 with no channel.
Both go through `playwright.chromium.launch(...)`, where `executable_path` is added and `channel`
dropped. (BrowserConfig(chrome_instance_path=...) would start Chromium on a fixed debugging port,
9222 in 0.1.40, which other processes on a shared machine may hold.)
"""
from __future__ import annotations

import os
from importlib.metadata import version
from typing import Any

CHROMIUM = os.environ.get('CHROMIUM_PATH', '/usr/bin/chromium')
BU_VERSION = version('browser-use')
IS_040 = BU_VERSION.startswith('0.1.40')

from browser_use.browser.browser import Browser, BrowserConfig  # noqa: E402
from browser_use.browser.context import BrowserContextConfig  # noqa: E402


def include_attributes() -> list[str]:
    """The include_attributes list the real Agent passes to clickable_elements_to_string."""
    from browser_use.agent.views import AgentSettings

    return list(AgentSettings().include_attributes)


class _Launcher:
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def launch(self, **kw: Any) -> Any:
        kw.pop('channel', None)
        kw['executable_path'] = CHROMIUM
        return await self._inner.launch(**kw)


class _Playwright:
    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.chromium = _Launcher(inner.chromium)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class SystemChromiumBrowser(Browser):
    """The real browser_use Browser, launched on /usr/bin/chromium instead of a downloaded build."""

    async def _setup_browser(self, playwright: Any) -> Any:  # type: ignore[override]
        return await super()._setup_browser(_Playwright(playwright))


def real_browser() -> SystemChromiumBrowser:
    cfg: dict[str, Any] = {'headless': True}
    if not IS_040:
        cfg['extra_browser_args'] = ['--no-sandbox']
    else:
        cfg['extra_chromium_args'] = []
    return SystemChromiumBrowser(config=BrowserConfig(**cfg))


def context_config(width: int, height: int, **extra: Any) -> BrowserContextConfig:
    """A context whose viewport is width x height (the shim's tab viewport, so both render alike)."""
    if IS_040:
        return BrowserContextConfig(browser_window_size={'width': width, 'height': height}, **extra)
    return BrowserContextConfig(window_width=width, window_height=height, no_viewport=False, **extra)


async def real_state(ctx: Any) -> Any:
    """get_state as the real Agent's step calls it."""
    if IS_040:
        return await ctx.get_state()
    return await ctx.get_state(cache_clickable_elements_hashes=True)
