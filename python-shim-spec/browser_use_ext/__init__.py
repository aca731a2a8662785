"""browser_use_ext: run classic browser_use (0.1.40-0.1.48) agents in your own Chrome.

    from browser_use import Agent
    from browser_use_ext import ExtensionBrowser, ExtensionController

    agent = Agent(task, llm, browser=ExtensionBrowser(), controller=ExtensionController())

The bridge URL and agent secret come from arguments or BROWSER_USE_EXT_BRIDGE_URL /
BROWSER_USE_EXT_AGENT_SECRET / the bridge's secrets.json. SPEC.md maps every method and action to
protocol messages.
"""
# First, before browser_use is imported (by .browser): under serve its telemetry is off unless the person turns it on.
from . import telemetry as _telemetry  # noqa: F401
from .browser import ExtensionBrowser, _patch_browser_use_agent
from .compat import ActionResult, BrowserError, BrowserState, DOMElementNode, DOMTextNode, TabInfo, URLNotAllowedError
from .config import BrowserContextConfig, ExtensionBrowserConfig
from .context import BrowserSession, ExtensionBrowserContext
from .controller import DEFAULT_ACTIONS, ExtensionController
from .errors import NotPermittedError
from .page import ExtensionPage, FeatureNotAvailable
from .playwright_unsupported import UnsupportedPlaywrightCall
from .transport import ActionFailed, BridgeConnection, BridgeError
from .version import PROTOCOL_VERSION, __version__

# Aliases so "from browser_use_ext import Browser, BrowserConfig, BrowserContext, Controller" works too.
Browser = ExtensionBrowser
BrowserConfig = ExtensionBrowserConfig
BrowserContext = ExtensionBrowserContext
Controller = ExtensionController
ExtensionBrowserContextConfig = BrowserContextConfig

PATCHED_BROWSER_USE_AGENT = _patch_browser_use_agent()

__all__ = [
    'ActionFailed', 'ActionResult', 'Browser', 'BrowserConfig', 'BrowserContext', 'BrowserContextConfig', 'BrowserError',
    'BrowserSession', 'BrowserState', 'BridgeConnection', 'BridgeError', 'Controller', 'DEFAULT_ACTIONS', 'DOMElementNode',
    'DOMTextNode', 'ExtensionBrowser', 'ExtensionBrowserConfig', 'ExtensionBrowserContext', 'ExtensionBrowserContextConfig',
    'ExtensionController', 'ExtensionPage', 'FeatureNotAvailable', 'NotPermittedError', 'PROTOCOL_VERSION', 'TabInfo',
    'URLNotAllowedError', 'UnsupportedPlaywrightCall', '__version__',
]
