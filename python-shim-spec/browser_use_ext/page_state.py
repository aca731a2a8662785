"""Reads the page into browser_use's BrowserState: one get_state that brings the element tree (or a
delta against the tab's last one), the tab list and the screenshot in a single round trip.

0.1.48's ``_get_updated_state`` took a DOM snapshot, the tab list and a screenshot one after the
other; the extension does the same three in one action (get_state include_tabs, include_screenshot).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Optional

from ._protocol_codes import ErrorCode
from .compat import BrowserState
from .dom_tree import DOM_TREE_FLAVOR, build_tree, empty_body
from .errors import browser_error_from
from .screenshots import blank_png_base64, screenshot_of
from .state_delta import StateDeltaError, apply_state_delta
from .tab_list import apply_tab_list, tab_infos
from .transport import ActionFailed, BridgeError

if TYPE_CHECKING:
    from .session_state import ContextSurface, SessionState

logger = logging.getLogger(__name__)

#: Pages extensions cannot script (about:blank, chrome://, the Web Store): the state is an empty page.
UNSCRIPTABLE_CODES = frozenset({ErrorCode.RESTRICTED_PAGE, ErrorCode.COMMUNICATION_ERROR_WITH_TARGET})
#: Failures after which the previous state must not stand in for a new one (the browser is gone).
NO_BROWSER_CODES = frozenset({ErrorCode.RESTRICTED_PAGE, ErrorCode.NO_EXTENSION_CONNECTED, ErrorCode.EXTENSION_DISCONNECTED})


def state_params(config: Any) -> dict[str, Any]:
    """The get_state params that decide what the state holds (a delta's base must have been taken with the same)."""
    return {
        'include_dom_tree': True,
        'viewport_expansion': int(getattr(config, 'viewport_expansion', 0)),
        # browser_use's buildDomTree.js rules of the installed version (0.1.40 differs from 0.1.48).
        'dom_tree_flavor': DOM_TREE_FLAVOR,
        'highlight_elements': bool(getattr(config, 'highlight_elements', True)),
    }


async def read_state(state: 'SessionState', with_screenshot: bool = True) -> Any:
    """get_state (with tabs and, when the config asks, a screenshot with the numbered boxes of
    highlight_elements, as the real state's screenshot) -> BrowserState."""
    ctx = state.context
    params = state_params(ctx.config)
    # Only what changed since this tab's last state of the same kind (get_state since): a step
    # after a small change moves a few hundred bytes instead of the whole tree (README "Deltas").
    key = repr(sorted(params.items()))
    extras = {'include_tabs': True, 'include_screenshot': with_screenshot and bool(getattr(ctx.config, 'include_screenshot', True))}
    tab = ctx.current_tab_id
    base = state.state_bases.get(tab) if tab is not None else None
    base_state = base[1] if base is not None and base[0] == key and base[1].get('state_id') else None
    since = {'since': base_state['state_id']} if base_state is not None else {}
    try:
        r = await ctx.call('get_state', {**params, **extras, **since})
        st = r.get('new_simplified_state')
        delta = r.get('state_delta')
        if st is None and isinstance(delta, dict):
            try:
                if base_state is None:
                    raise StateDeltaError('a delta arrived for a get_state without since')
                st = apply_state_delta(base_state, delta)
            except StateDeltaError as e:
                logger.warning('state delta not applicable (%s); taking a full state', e)
                r = await ctx.call('get_state', {**params, **extras})
                st = r.get('new_simplified_state')
            if isinstance(st, dict):
                state.note_state(st)
    except ActionFailed as e:
        if e.code in UNSCRIPTABLE_CODES:
            # An empty page, as 0.1.48's DomService returns for about:blank, so the agent can navigate away.
            return await empty_state(ctx)
        if ctx.current_state is not None and e.code not in NO_BROWSER_CODES:
            logger.warning('get_state failed (%s); returning the previous state', e)
            return ctx.current_state
        raise browser_error_from(e, 'Could not read the page state: ') from e
    except BridgeError as e:
        raise browser_error_from(e, 'Browser closed: no valid pages available. ') from e
    st = st if isinstance(st, dict) else {}
    st_tab = st.get('tab_id')
    if isinstance(st_tab, int) and st.get('state_id'):
        state.state_bases[st_tab] = (key, st)
    result = (r.get('outcome_details') or {}).get('result') or {}
    tabs = tab_infos(ctx, apply_tab_list(state, result.get('tabs') or []))
    screenshot = screenshot_of(result) if extras['include_screenshot'] else None
    return _remember(state, _browser_state(st, tabs, screenshot))


def _browser_state(st: dict, tabs: list, screenshot: Optional[str]) -> Any:
    element_tree, selector_map = build_tree(st)
    viewport = st.get('viewport_dimensions') or {}
    scroll = st.get('scroll_position') or {}
    page_size = st.get('page_size') or {}
    above = st.get('pixels_above', int(scroll.get('y', 0) or 0))
    below = st.get('pixels_below', max(0, int((page_size.get('height') or 0) - (viewport.get('height') or 0) - (scroll.get('y') or 0))))
    return BrowserState(
        element_tree=element_tree,
        selector_map=selector_map,
        url=st.get('url', ''),
        title=st.get('title', ''),
        tabs=tabs,
        screenshot=screenshot,
        pixels_above=int(above),
        pixels_below=int(below),
    )


def _remember(session: 'SessionState', state: Any) -> Any:
    """The state becomes current; tab_released notices since the last one go into its browser_errors."""
    if session.notices:
        state.browser_errors = session.take_notices()
    session.context.current_state = state
    return state


async def empty_state(ctx: 'ContextSurface') -> Any:
    """The state of a page extensions cannot script: no elements; the tabs, and a screenshot where Chrome allows one."""
    tabs = await ctx.get_tabs_info()
    page = ctx.agent_current_page or ctx.human_current_page
    want_screenshot = bool(getattr(ctx.config, 'include_screenshot', True))
    # Real takes a screenshot of about:blank too (a vision model gets one on the first step); pages
    # Chrome does not let extensions capture give None.
    screenshot = await ctx.take_screenshot() if want_screenshot else None
    url = page.url if page else ''
    if screenshot is None and url == 'about:blank' and want_screenshot:
        # Chrome refuses captureVisibleTab on about:blank ("Cannot access contents of url"), but
        # an about:blank page is an empty white viewport by definition, which is what real
        # browser_use's Playwright screenshot shows there; a 0.1.40 vision agent starts there.
        size = getattr(ctx.config, 'browser_window_size', None) or {}
        get = size.get if isinstance(size, dict) else (lambda k, d: getattr(size, k, d))
        screenshot = blank_png_base64(int(get('width', 1280)), int(get('height', 1100)))
    state = BrowserState(
        element_tree=empty_body(), selector_map={}, url=url, title=page._title if page else '', tabs=tabs,
        screenshot=screenshot, pixels_above=0, pixels_below=0,
    )
    ctx.current_state = state
    return state
