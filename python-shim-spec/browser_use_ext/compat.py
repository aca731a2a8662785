"""Picks browser_use's own classes when browser_use is importable, else the package's fallbacks.

The Agent, its MessageManager and HistoryTreeProcessor use isinstance checks and read fields of
these objects, so when browser_use is installed the shim must hand out *its* classes (an Agent
rejects look-alikes). Each name is resolved separately: a partial install (or the test stand-in)
works too, and browser_use 0.1.40, which has no ClickableElementProcessor, gets the fallback's.
"""
from __future__ import annotations

import importlib
from typing import Any

from .fallback import views as _fb

USING_BROWSER_USE: dict[str, bool] = {}


def _pick(module: str, name: str, fallback: Any) -> Any:
    try:
        value = getattr(importlib.import_module(module), name)
        USING_BROWSER_USE[name] = True
        return value
    except Exception:  # ImportError, or an import-time failure inside browser_use (e.g. no playwright)
        USING_BROWSER_USE[name] = False
        return fallback


DOMElementNode = _pick('browser_use.dom.views', 'DOMElementNode', _fb.DOMElementNode)
DOMTextNode = _pick('browser_use.dom.views', 'DOMTextNode', _fb.DOMTextNode)
TabInfo = _pick('browser_use.browser.views', 'TabInfo', _fb.TabInfo)
BrowserState = _pick('browser_use.browser.views', 'BrowserState', _fb.BrowserState)
BrowserError = _pick('browser_use.browser.views', 'BrowserError', _fb.BrowserError)
URLNotAllowedError = _pick('browser_use.browser.views', 'URLNotAllowedError', _fb.URLNotAllowedError)
ActionResult = _pick('browser_use.agent.views', 'ActionResult', _fb.ActionResult)
HistoryTreeProcessor = _pick('browser_use.dom.history_tree_processor.service', 'HistoryTreeProcessor', _fb.HistoryTreeProcessor)
ClickableElementProcessor = _pick(
    'browser_use.dom.clickable_element_processor.service', 'ClickableElementProcessor', _fb.ClickableElementProcessor
)


def browser_use_available() -> bool:
    """True when the whole classic browser_use (with pydantic) is importable."""
    try:
        importlib.import_module('pydantic')
        importlib.import_module('browser_use.controller.service')
        return True
    except Exception:
        return False
