"""BrowserContextConfig.allowed_domains: browser_use's own URL check, exactly.

With browser_use installed its BrowserContext._is_url_allowed decides (it reads only
config.allowed_domains): 0.1.48 matches the host exactly or by glob (``*.example.com`` also matches
example.com), allows about:blank and chrome:/brave:/edge:/chrome-extension: URLs, refuses URLs without
a host (data:, file:); 0.1.40 matches the host or any subdomain and allows nothing else.
Without browser_use: 0.1.48's rules (copied below).
"""
from __future__ import annotations

import fnmatch
import logging
from typing import Any, Optional
from urllib.parse import urlparse

logger = logging.getLogger(__name__)

_REAL_IS_URL_ALLOWED: list = []


def is_url_allowed(context: Any, url: str) -> bool:
    """context: the shim's BrowserContext (browser_use's method reads its ``config``)."""
    real = _real_is_url_allowed()
    if real is not None:
        return bool(real(context, url))
    return is_url_allowed_0_1_48(getattr(context.config, 'allowed_domains', None), url)


def _real_is_url_allowed() -> Any:
    """browser_use.browser.context.BrowserContext._is_url_allowed when browser_use is installed."""
    if not _REAL_IS_URL_ALLOWED:
        try:
            from browser_use.browser.context import BrowserContext as _Real  # type: ignore
            _REAL_IS_URL_ALLOWED.append(_Real._is_url_allowed)
        except Exception:
            _REAL_IS_URL_ALLOWED.append(None)
    return _REAL_IS_URL_ALLOWED[0]


def is_url_allowed_0_1_48(allowed_domains: Optional[list], url: str) -> bool:
    """0.1.48 BrowserContext._is_url_allowed, for installs without browser_use."""
    if not allowed_domains:
        return True
    try:
        parsed_url = urlparse(url)
        if url == 'about:blank' or parsed_url.scheme.lower() in ('chrome', 'brave', 'edge', 'chrome-extension'):
            return True
        domain = parsed_url.hostname.lower() if parsed_url.hostname else ''
        if not domain:
            return False
        for allowed_domain in allowed_domains:
            allowed_domain = allowed_domain.lower()
            if '*' in allowed_domain:
                if allowed_domain.startswith('*.'):
                    if domain == allowed_domain[2:] or fnmatch.fnmatch(domain, allowed_domain):
                        return True
                elif fnmatch.fnmatch(domain, allowed_domain):
                    return True
            elif domain == allowed_domain:
                return True
        return False
    except Exception as e:
        logger.error(f'⛔️  Error checking URL allowlist: {type(e).__name__}: {e}')
        return False
