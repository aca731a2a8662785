"""Clicks and text input on browser_use's DOM nodes, and the allowed_domains guard around them
(0.1.48's _check_and_handle_navigation: a disallowed URL -> go back, raise URLNotAllowedError)."""
from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any, Optional

from .allowed_urls import is_url_allowed
from .compat import BrowserError, URLNotAllowedError
from .css_selectors import enhanced_css_selector_for_element
from .dom_tree import TAB_ID_ATTR, element_id_of
from .downloads import download_in, unique_path
from .transport import ActionFailed, BridgeError

if TYPE_CHECKING:
    from .session_state import ContextSurface

logger = logging.getLogger(__name__)


def target_of(element_node: Any, include_dynamic_attributes: bool = True) -> tuple[dict, Optional[int]]:
    """The protocol target of a node (its element id, else its index, else a CSS selector) and its tab."""
    eid = element_id_of(element_node)
    tab = getattr(element_node, TAB_ID_ATTR, None)
    if eid:
        return {'element_id': eid}, tab
    if element_node.highlight_index is not None:
        return {'index': int(element_node.highlight_index) + 1}, tab  # browser_use 0-based -> protocol 1-based
    return {'selector': enhanced_css_selector_for_element(element_node, include_dynamic_attributes)}, tab


def _target(ctx: 'ContextSurface', element_node: Any) -> tuple[dict, Optional[int]]:
    return target_of(element_node, getattr(ctx.config, 'include_dynamic_attributes', True))


async def click_element_node(ctx: 'ContextSurface', element_node: Any) -> Optional[str]:
    """click by element id; a tab the click opened joins session.context.pages. Returns the path of
    the file the click downloaded, as browser_use (0.1.40 and 0.1.48) does: Chrome saves it in the
    person's Downloads folder; with ``save_downloads_path`` and Python on Chrome's machine it is
    also copied there under a unique name, as browser_use's download.save_as did."""
    target, tab = _target(ctx, element_node)
    try:
        r = await ctx.call('click', target, tab_id=tab)
    except (ActionFailed, BridgeError) as e:
        raise Exception(f'Failed to click element: {repr(element_node)}. Error: {str(e)}') from e
    await _after_navigation(ctx, r)
    download = download_in(r)
    if download is None:
        return None
    if download.state != 'complete':
        logger.warning('The click started downloading "%s", which had not completed (%s) when the action ended.',
                       download.suggested_filename, download.state)
        return None
    path = await download.path()
    folder = getattr(ctx.config, 'save_downloads_path', None)
    if folder and os.path.isfile(path):
        os.makedirs(folder, exist_ok=True)
        copy = unique_path(folder, download.suggested_filename)
        await download.save_as(copy)
        path = copy
    logger.debug(f'⬇️  Download triggered. Saved file to: {path}')
    return path


async def input_text_element_node(ctx: 'ContextSurface', element_node: Any, text: str) -> None:
    target, tab = _target(ctx, element_node)
    try:
        r = await ctx.call('fill', {**target, 'value': text}, tab_id=tab)
    except (ActionFailed, BridgeError) as e:
        err = BrowserError(f'Failed to input text into index {element_node.highlight_index}')
        err.error_code = getattr(e, 'code', None)
        raise err from e
    await _after_navigation(ctx, r)


async def check_current_url(ctx: 'ContextSurface') -> None:
    """Before a state: an agent tab on a disallowed URL goes back, and URLNotAllowedError is raised."""
    page = ctx.agent_current_page
    if page is not None and page.url and not is_url_allowed(ctx, page.url):
        url = page.url
        await _leave_disallowed(ctx, url)
        raise URLNotAllowedError(f'Navigation to non-allowed URL: {url}')


async def _after_navigation(ctx: 'ContextSurface', r: dict) -> None:
    """0.1.48 _check_and_handle_navigation: a disallowed URL -> go back and raise URLNotAllowedError."""
    st = r.get('new_simplified_state') or {}
    url = st.get('url')
    if url and not is_url_allowed(ctx, url):
        await _leave_disallowed(ctx, url)
        raise URLNotAllowedError(f'Navigation to non-allowed URL: {url}')


async def _leave_disallowed(ctx: 'ContextSurface', url: str) -> None:
    """Back to where the agent was: history back, or (when the tab has no usable history entry)
    a navigation to the last allowed URL the shim saw."""
    previous = getattr(ctx.current_state, 'url', None)
    await ctx.go_back()
    page = ctx.agent_current_page
    if page is not None and not is_url_allowed(ctx, page.url) and previous and is_url_allowed(ctx, previous) and previous != url:
        try:
            await page.goto(previous)
        except Exception as e:
            logger.warning('could not leave the non-allowed URL %s: %s', url, e)
