"""Stand-in for browser_use 0.1.48 (tests only; see ../README.md)."""
from browser_use.agent.service import Agent
from browser_use.agent.views import ActionResult
from browser_use.browser.browser import Browser, BrowserConfig
from browser_use.browser.context import BrowserContextConfig

STAND_IN = True
__all__ = ['Agent', 'ActionResult', 'Browser', 'BrowserConfig', 'BrowserContextConfig', 'STAND_IN']
