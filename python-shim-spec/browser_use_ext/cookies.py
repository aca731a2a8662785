"""Playwright's ``BrowserContext.cookies(urls)`` over the ``get_cookies`` action, and browser_use's
``cookies_file`` (0.1.48 ``save_cookies``: the context's cookies written as JSON on close).

In the person's own Chrome an agent reads only the cookies of the sites its own tabs show (the tabs
its bridge session holds); a cookie of any other site in that browser is never returned. A URL in
``urls`` on another site gets nothing: it is named in one WARNING log line (never a value), and the
call still returns the cookies of the other URLs, as Playwright's filter would. Cookie values are
secrets: nothing here logs them.
"""
from __future__ import annotations

import json
import logging
import os
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from ._protocol_codes import ErrorCode
from .errors import browser_error_from
from .playwright_unsupported import unsupported
from .transport import ActionFailed

if TYPE_CHECKING:
    from .session_state import ContextSurface

logger = logging.getLogger(__name__)


def playwright_cookie(c: dict) -> dict:
    """A get_cookies cookie as Playwright's ``cookies()`` returns it (its key names)."""
    return {
        'name': c['name'],
        'value': c['value'],
        'domain': c['domain'],
        'path': c['path'],
        'expires': c['expires'],
        'httpOnly': c['http_only'],
        'secure': c['secure'],
        'sameSite': c['same_site'],
    }


async def read_cookies(ctx: 'ContextSurface', urls: Optional[Union[str, Sequence[str]]] = None) -> list[dict]:
    """The cookies of the agent's own tabs' sites; with ``urls`` only those sent to one of them."""
    wanted = [urls] if isinstance(urls, str) else list(urls or [])
    params: dict[str, Any] = {'urls': wanted} if wanted else {}
    try:
        r = await ctx.call('get_cookies', params)
    except ActionFailed as e:
        if e.code == ErrorCode.TAB_NOT_LEASED and not (e.details or {}).get('tab_id'):
            # No tab yet: like a Playwright context without pages, there is no cookie to give.
            logger.info('context.cookies(): this agent holds no tab yet, so no site to read cookies of; returning []')
            return []
        raise browser_error_from(e, 'Could not read the cookies: ') from e
    result = (r.get('outcome_details') or {}).get('result') or {}
    skipped = [s.get('url') for s in result.get('skipped_urls') or []]
    if skipped:
        logger.warning(
            'context.cookies(): nothing read for %s: no tab of this agent shows that site, and an agent reads only the cookies of '
            'the sites its own tabs show. Open the site in one of the agent\'s tabs first.', ', '.join(str(u) for u in skipped)
        )
    return [playwright_cookie(c) for c in result.get('cookies') or []]


async def save_cookies_file(ctx: 'ContextSurface') -> None:
    """browser_use's ``save_cookies``: the cookies of the agent's sites to ``config.cookies_file`` as
    JSON (Playwright's format, so browser_use on Playwright loads the same file). A failure is one
    WARNING, as in browser_use; the file may hold session secrets, so it is written readable by its owner only."""
    path = getattr(ctx.config, 'cookies_file', None)
    if not path or ctx.conn is None:
        return
    try:
        cookies = await read_cookies(ctx)
        logger.debug('saving %d cookies to %s', len(cookies), path)
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            json.dump(cookies, f)
    except Exception as e:  # as browser_use: saving cookies never breaks closing the context
        logger.warning('Failed to save cookies to %s: %s', path, type(e).__name__ if not str(e) else e)


def note_cookies_file(config: Any) -> None:
    """browser_use loads ``cookies_file`` into its new Playwright context; the person's Chrome already
    has its own cookies, and the extension never writes any. Said once, plainly, instead of silently ignoring it."""
    path = getattr(config, 'cookies_file', None)
    if path and os.path.exists(path):
        logger.info(
            'cookies_file %s is not loaded: the agent runs in your own Chrome and uses the cookies already there (the extension '
            'never sets cookies). It is still written on close with the cookies of the agent\'s sites.', path
        )


def add_cookies_unsupported() -> Exception:
    return unsupported(
        'BrowserContext', 'add_cookies',
        'the cookies already in your Chrome (log in to the site in the agent\'s tab once; the extension never writes cookies)'
    )
