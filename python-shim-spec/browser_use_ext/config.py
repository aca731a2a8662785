"""Configuration objects: drop-ins for browser_use's BrowserConfig / BrowserContextConfig.

Fields that only make sense for a browser Playwright launches (headless, proxy, cdp_url, window
size, recording, tracing, user agent, ...) are accepted and ignored: the person's own Chrome is used
as it is (see SPEC.md, "What an extension cannot do"). Fields the shim honours are marked.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, fields
from typing import Any, Optional

logger = logging.getLogger(__name__)


def _context_config_base() -> Any:
    try:
        from browser_use.browser.context import BrowserContextConfig as Real  # noqa: F401
        return Real
    except Exception:
        return None


def _installed_viewport_expansion() -> int:
    """The installed browser_use's default (0.1.48: 0, 0.1.40: 500), so the element list covers what
    that version's agents saw without a config; 0 without browser_use (the prompt then matches browser_use 0.1.48's)."""
    real = _context_config_base()
    try:
        return int(real().viewport_expansion) if real is not None else 0
    except Exception:
        return 0


@dataclass
class BrowserContextConfig:
    """Same fields and defaults as browser_use 0.1.48 BrowserContextConfig (reference section 1.3)."""

    cookies_file: Optional[str] = None
    minimum_wait_page_load_time: float = 0.25
    wait_for_network_idle_page_load_time: float = 0.5
    maximum_wait_page_load_time: float = 5
    wait_between_actions: float = 0.5  # honoured by the Agent (multi_act)
    disable_security: bool = False
    window_width: int = 1280
    window_height: int = 1100
    no_viewport: bool = True
    save_recording_path: Optional[str] = None
    save_downloads_path: Optional[str] = None
    save_har_path: Optional[str] = None
    trace_path: Optional[str] = None
    locale: Optional[str] = None
    user_agent: Optional[str] = None
    highlight_elements: bool = True
    browser_window_size: Optional[dict] = None  # browser_use 0.1.40's name for the window size (accepted, no effect)
    viewport_expansion: int = field(default_factory=_installed_viewport_expansion)  # honoured: get_state viewport_expansion
    allowed_domains: Optional[list[str]] = None  # honoured: navigation checks
    include_dynamic_attributes: bool = True  # honoured: _enhanced_css_selector_for_element
    http_credentials: Optional[dict[str, str]] = None
    keep_alive: bool = False
    is_mobile: Optional[bool] = None
    has_touch: Optional[bool] = None
    geolocation: Optional[dict] = None
    permissions: list[str] = field(default_factory=lambda: ['clipboard-read', 'clipboard-write'])
    timezone_id: Optional[str] = None
    force_new_context: bool = False
    # Shim-only: take a screenshot for every state (BrowserState.screenshot), as browser_use does
    # for vision models. Set False when the LLM does not use vision: it saves ~50-150 ms a step.
    include_screenshot: bool = True

    def model_dump(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass
class ExtensionBrowserConfig:
    """Drop-in for BrowserConfig. bridge_url / agent_secret / browser_name default to the environment (see credentials.py)."""

    bridge_url: Optional[str] = None
    agent_secret: Optional[str] = None
    # The browser to work in (a Chrome profile, Edge, Brave...), by the name its side panel shows;
    # None: BROWSER_USE_EXT_BROWSER, else the only connected browser or the one the person used last.
    browser_name: Optional[str] = None
    # How long one protocol action may take before the bridge answers TIMEOUT.
    action_timeout_ms: int = 30_000
    # Most tabs one context's bridge session may hold (hello.max_tabs; the bridge's default is 10).
    # Opening one more releases the oldest (it stays open for the person) and the next state's
    # browser_errors says so.
    max_tabs: Optional[int] = None
    new_context_config: BrowserContextConfig = field(default_factory=BrowserContextConfig)
    # Accepted for compatibility with BrowserConfig; no effect on the person's own Chrome.
    headless: bool = False
    disable_security: bool = False
    keep_alive: bool = False
    wss_url: Optional[str] = None
    cdp_url: Optional[str] = None
    browser_class: str = 'chromium'
    browser_binary_path: Optional[str] = None
    chrome_remote_debugging_port: Optional[int] = 9242
    extra_browser_args: list[str] = field(default_factory=list)
    deterministic_rendering: bool = False
    proxy: Any = None
    # browser_use 0.1.40's names (0.1.48 reads chrome_instance_path as browser_binary_path): accepted, no effect.
    chrome_instance_path: Optional[str] = None
    extra_chromium_args: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        binary = self.chrome_instance_path or self.browser_binary_path
        if binary:
            # Examples point this at a Chrome to start in debug mode; the extension already runs in the
            # person's Chrome, so nothing is started (and the Chrome need not be closed first).
            logger.info('BrowserConfig chrome path %s is not used: the extension drives your running Chrome (no browser is '
                        'started; keep Chrome open with the extension connected to the bridge).', binary)

    def model_dump(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def context_config_from(obj: Any) -> Any:
    """Accepts browser_use's BrowserContextConfig, ours, a dict or None."""
    if obj is None:
        return BrowserContextConfig()
    if isinstance(obj, dict):
        known = {f.name for f in fields(BrowserContextConfig)}
        return BrowserContextConfig(**{k: v for k, v in obj.items() if k in known})
    return obj
