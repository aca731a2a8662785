"""browser/views.py (0.1.48), section 1.5."""
from dataclasses import dataclass, field
from typing import Any, Optional

from browser_use.dom.views import DOMState


@dataclass
class TabInfo:
    page_id: int
    url: str
    title: str
    parent_page_id: Optional[int] = None


@dataclass
class BrowserState(DOMState):
    url: str
    title: str
    tabs: list
    screenshot: Optional[str] = None
    pixels_above: int = 0
    pixels_below: int = 0
    browser_errors: list = field(default_factory=list)


class BrowserError(Exception):
    """Base class for all browser errors"""


class URLNotAllowedError(BrowserError):
    """Error raised when a URL is not allowed"""
