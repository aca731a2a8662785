"""browser/browser.py (0.1.48): the Playwright Browser. Not usable here (no Playwright)."""
from dataclasses import dataclass, field

from browser_use.browser.context import BrowserContextConfig


@dataclass
class BrowserConfig:
    headless: bool = False
    disable_security: bool = False
    keep_alive: bool = False
    new_context_config: BrowserContextConfig = field(default_factory=BrowserContextConfig)


class Browser:
    def __init__(self, config=None):
        self.config = config or BrowserConfig()

    async def close(self):
        return None
