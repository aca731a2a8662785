"""ExtensionBrowserContext: browser_use 0.1.48's BrowserContext surface over the bridge protocol.

Every method the Agent, the Controller and HistoryTreeProcessor use (surface.json ``called_by``)
exists with the same name, parameters, sync/async-ness and return type; SPEC.md lists the protocol
messages each one becomes.
"""
from __future__ import annotations

import asyncio
import fnmatch
import logging
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional
from urllib.parse import urlparse

from .compat import BrowserError, BrowserState, ClickableElementProcessor, DOMElementNode, TabInfo, URLNotAllowedError
from .config import context_config_from
from .dom_tree import DOM_TREE_FLAVOR, TAB_ID_ATTR, build_tree, element_id_of
from .errors import browser_error_from
from .page import ExtensionPage
from .state_delta import StateDeltaError, apply_state_delta
from .transport import ActionFailed, BridgeConnection, BridgeError

if TYPE_CHECKING:
    from .browser import ExtensionBrowser

logger = logging.getLogger(__name__)


@dataclass
class CachedStateClickableElementsHashes:
    url: str
    hashes: set[str]


@dataclass
class BrowserContextState:
    target_id: Optional[str] = None


class TabsContext:
    """Stands in for the Playwright BrowserContext of 0.1.48's BrowserSession: ``pages`` lists the tabs
    (tab-strip order, as list_tabs reports them), so ``len(session.context.pages)`` grows when a click
    opens a tab, exactly as the click_element_by_index action expects."""

    def __init__(self, owner: 'ExtensionBrowserContext') -> None:
        self._owner = owner
        self.pages: list[ExtensionPage] = []

    async def new_page(self) -> ExtensionPage:
        await self._owner.create_new_tab()
        return await self._owner.get_agent_current_page()

    async def close(self) -> None:
        await self._owner.close()


class BrowserSession:
    """0.1.48's internal BrowserSession: ``.context.pages``, ``.cached_state``, ``.cached_state_clickable_elements_hashes``."""

    def __init__(self, context: TabsContext, cached_state: Any = None) -> None:
        self.context = context
        self.cached_state = cached_state
        self.cached_state_clickable_elements_hashes: Optional[CachedStateClickableElementsHashes] = None


class _UnknownAction(Exception):
    pass


class ExtensionBrowserContext:
    """Drop-in for ``browser_use.browser.context.BrowserContext`` that drives the person's Chrome."""

    def __init__(self, browser: 'ExtensionBrowser', config: Any = None, state: Optional[BrowserContextState] = None) -> None:
        self.context_id = str(uuid.uuid4())
        self.browser = browser
        self.config = context_config_from(config if config is not None else getattr(getattr(browser, 'config', None), 'new_context_config', None))
        self.state = state or BrowserContextState()
        self.session: Optional[BrowserSession] = None
        self.agent_current_page: Optional[ExtensionPage] = None
        self.human_current_page: Optional[ExtensionPage] = None
        self.current_state: Any = None
        self.conn: Optional[BridgeConnection] = None
        self._pages: dict[int, ExtensionPage] = {}
        self._unsupported: set[str] = set()
        self._session_token: Optional[str] = None
        self.last_protocol_state: Optional[dict] = None  # the latest simplified_state seen
        # tab -> (params, state) of the last get_state with dom_tree: the base of the next one's delta (issue 13 item 3).
        self._state_bases: dict[int, tuple[str, dict]] = {}
        # tab -> the state that came with the last other action there: the base of the next action's state delta.
        self._action_bases: dict[int, dict] = {}
        self._last_capture = 0.0
        self._notices: list[str] = []
        self._init_lock = asyncio.Lock() if _loop_running() else None

    # -- lifecycle -------------------------------------------------------------------------------
    async def __aenter__(self) -> 'ExtensionBrowserContext':
        await self._initialize_session()
        return self

    async def __aexit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        await self.close()

    async def get_session(self) -> BrowserSession:
        if self.session is None:
            return await self._initialize_session()
        return self.session

    async def _initialize_session(self) -> BrowserSession:
        if self._init_lock is None:
            self._init_lock = asyncio.Lock()
        async with self._init_lock:
            if self.session is not None:
                return self.session
            # A context that closed and is used again resumes its bridge session (same leased tabs).
            self.conn = await self.browser._connect(session_token=self._session_token)
            self.conn.on('tab_released', self._on_tab_released)
            self._session_token = self.conn.session_token
            self.session = BrowserSession(TabsContext(self))
            await self._refresh_tabs()
            return self.session

    async def close(self) -> None:
        """Closes this context's bridge connection. The person's tabs stay open (they are theirs)."""
        if self.conn is not None:
            await self.conn.close()
        self.conn = None
        self.session = None
        self.agent_current_page = None
        self.human_current_page = None

    # -- protocol helpers ------------------------------------------------------------------------
    @property
    def current_tab_id(self) -> Optional[int]:
        return self.agent_current_page.tab_id if self.agent_current_page else None

    async def call(self, action: str, params: Optional[dict] = None, tab_id: Optional[int] = None, timeout_ms: Optional[int] = None) -> dict:
        """Runs any protocol action (schemas/v1/actions/) on the agent's current tab; returns the
        action_result message, raising ActionFailed when its status is error."""
        return await self._call(action, params or {}, tab_id=tab_id, timeout_ms=timeout_ms)

    async def _call(self, action: str, params: dict, tab_id: Optional[int] = None, timeout_ms: Optional[int] = None) -> dict:
        await self.get_session()
        if self.conn is not None and self.conn.ended is not None:
            # The bridge ended the connection for good (the person disconnected this agent, or a
            # protocol version mismatch): do not connect again behind the person's back.
            raise BridgeError(str(self.conn.ended), self.conn.ended.code)
        if self.conn is None or not self.conn.is_open:
            # Closed for good (close() was called): open a new connection that resumes the same
            # bridge session by its token, so the leased tabs stay ours. Outages (bridge restart,
            # network blip) never get here: the connection reconnects by itself and calls wait.
            self.conn = await self.browser._connect(session_token=self._session_token)
            self.conn.on('tab_released', self._on_tab_released)
            self._session_token = self.conn.session_token or self._session_token
        assert self.conn is not None
        if tab_id is None:
            tab_id = self.current_tab_id
        # The state after the action as a delta against this tab's last action state (README "Deltas").
        base = self._action_bases.get(tab_id) if tab_id is not None and action != 'get_state' and 'state_since' not in self._unsupported else None
        since = base.get('state_id') if base is not None else None
        r = await self.conn.call(action, params, tab_id=tab_id, timeout_ms=timeout_ms or getattr(self.browser.config, 'action_timeout_ms', None), state_since=since)
        if since is not None and r.get('status') != 'success' and (r.get('error_info') or {}).get('error_code') == 'INVALID_MESSAGE' and 'state_since' in str(r.get('error_info')):
            # A bridge or extension from before state deltas refused the field (the action did not run).
            self._unsupported.add('state_since')
            return await self._call(action, params, tab_id=tab_id, timeout_ms=timeout_ms)
        delta = r.get('state_delta')
        if isinstance(delta, dict) and base is not None and r.get('new_simplified_state') is None:
            try:
                r['new_simplified_state'] = apply_state_delta(base, delta)
            except StateDeltaError as e:
                logger.warning('state delta not applicable (%s); the next action takes a full state', e)
        if action != 'get_state':
            got = r.get('new_simplified_state')
            if isinstance(got, dict) and isinstance(got.get('tab_id'), int) and got.get('state_id'):
                self._action_bases[got['tab_id']] = got
            elif tab_id is not None:
                self._action_bases.pop(tab_id, None)
        ran_in = r.get('tab_id')
        if isinstance(ran_in, int) and self.agent_current_page is None and action not in ('list_tabs', 'open_tab'):
            # The bridge leased this tab to the session (contract I), even if the action failed.
            self.agent_current_page = self._page_for(ran_in)
        if r.get('status') != 'success':
            info = r.get('error_info') or {}
            if info.get('error_code') in ('INVALID_MESSAGE', 'UNSUPPORTED_ACTION') and '/action' in str((info.get('details') or {}).get('instance_path', '')) + str(info.get('message', '')):
                self._unsupported.add(action)
            raise ActionFailed(r)
        st = r.get('new_simplified_state')
        if isinstance(st, dict):
            self._note_state(st)
        new_tab = (r.get('outcome_details') or {}).get('new_tab_id')
        if isinstance(new_tab, int):
            self._page_for(new_tab)
        return r

    def _note_state(self, st: dict) -> None:
        self.last_protocol_state = st
        tab = st.get('tab_id')
        if isinstance(tab, int):
            page = self._page_for(tab, url=st.get('url'), title=st.get('title'))
            page._frames = list(st.get('frames') or [])
            if self.agent_current_page is None:
                self.agent_current_page = self.human_current_page = page

    def _page_for(self, tab_id: int, url: Optional[str] = None, title: Optional[str] = None) -> ExtensionPage:
        page = self._pages.get(tab_id)
        if page is None:
            page = ExtensionPage(self, tab_id, url or '', title or '')
            self._pages[tab_id] = page
            if self.session is not None:
                self.session.context.pages.append(page)
        else:
            page._remember(url=url, title=title)
        return page

    def _on_tab_released(self, m: dict) -> None:
        """tab_released (contract I): a closed tab leaves the page list; the notice (e.g. "Tab limit (3)
        reached. Released tab: ...") goes into the next BrowserState.browser_errors."""
        page = self._pages.get(m.get('tab_id'))  # type: ignore[arg-type]
        if page is not None and m.get('reason') == 'tab_closed':
            page._closed = True
            self._forget_page(page)
        if m.get('message'):
            self._notices.append(str(m['message']))

    def _forget_page(self, page: ExtensionPage) -> None:
        if page.tab_id is not None:
            self._pages.pop(page.tab_id, None)
        if self.session is not None and page in self.session.context.pages:
            self.session.context.pages.remove(page)
        if self.agent_current_page is page:
            self.agent_current_page = None
        if self.human_current_page is page:
            self.human_current_page = None

    async def _refresh_tabs(self) -> list[ExtensionPage]:
        """Re-reads the tab list (list_tabs) into session.context.pages, keeping page objects by tab id."""
        assert self.session is not None and self.conn is not None
        if 'list_tabs' in self._unsupported:
            return self.session.context.pages
        r = await self.conn.call('list_tabs', {})
        if r.get('status') != 'success':
            info = r.get('error_info') or {}
            if info.get('error_code') in ('INVALID_MESSAGE', 'UNSUPPORTED_ACTION'):
                self._unsupported.add('list_tabs')  # bridge/extension without list_tabs yet
                return self.session.context.pages
            raise BrowserError(f"Could not list the tabs: {info.get('message')}")
        tabs = ((r.get('outcome_details') or {}).get('result') or {}).get('tabs') or []
        pages: list[ExtensionPage] = []
        seen: set[int] = set()
        active: Optional[ExtensionPage] = None
        for t in tabs:
            tid = t.get('tab_id')
            if not isinstance(tid, int) or tid in seen:
                continue
            seen.add(tid)
            page = self._pages.get(tid) or ExtensionPage(self, tid)
            page._remember(url=t.get('url', ''), title=t.get('title', ''))
            self._pages[tid] = page
            pages.append(page)
            if t.get('active') and active is None:
                active = page
        for tid in [t for t in self._pages if t not in seen]:
            self._pages[tid]._closed = True
            del self._pages[tid]
        self.session.context.pages[:] = pages
        if self.agent_current_page is not None and self.agent_current_page.tab_id not in seen:
            self.agent_current_page = None
        # The agent's current tab is not chosen here: the bridge leases the active tab to a session
        # on its first tab action (contract I), and that action's state names the tab.
        self.human_current_page = active or self.human_current_page
        return pages

    async def _fresh_protocol_state(self, tab_id: Optional[int] = None, **params: Any) -> dict:
        r = await self._call('get_state', params, tab_id=tab_id)
        return r.get('new_simplified_state') or {}

    # -- pages -----------------------------------------------------------------------------------
    async def get_current_page(self) -> ExtensionPage:
        """Legacy alias of get_agent_current_page()."""
        return await self.get_agent_current_page()

    async def get_agent_current_page(self) -> ExtensionPage:
        session = await self.get_session()
        page = self.agent_current_page
        if page is not None and not page.is_closed():
            return page
        if not session.context.pages:
            # First use: a get_state tells which tab the bridge gave this session (contract I).
            await self._fresh_protocol_state()
        page = self.agent_current_page or (session.context.pages[0] if session.context.pages else None)
        if page is None:
            await self.create_new_tab()
            page = self.agent_current_page
        assert page is not None
        self.agent_current_page = self.human_current_page = page
        return page

    # -- state -----------------------------------------------------------------------------------
    async def get_state(self, cache_clickable_elements_hashes: bool = False) -> Any:
        """One get_state (with include_dom_tree) -> browser_use BrowserState; marks is_new when asked."""
        session = await self.get_session()
        await self._check_current_url()
        # A screenshot with every state, as the real _get_updated_state takes one: 0.1.40 agents call
        # get_state() without the hash flag, and 0.1.48's output validator and planner use
        # get_state(False)'s screenshot (issue 9 item 4).
        state = await self._get_updated_state()
        if cache_clickable_elements_hashes:
            cached = session.cached_state_clickable_elements_hashes
            if cached and cached.url == state.url:
                for el in ClickableElementProcessor.get_clickable_elements(state.element_tree):
                    el.is_new = ClickableElementProcessor.hash_dom_element(el) not in cached.hashes
            session.cached_state_clickable_elements_hashes = CachedStateClickableElementsHashes(
                url=state.url, hashes=ClickableElementProcessor.get_clickable_elements_hashes(state.element_tree)
            )
        session.cached_state = state
        return state

    async def _get_updated_state(self, focus_element: int = -1, with_screenshot: bool = True) -> Any:
        params: dict[str, Any] = {'include_dom_tree': True, 'viewport_expansion': int(getattr(self.config, 'viewport_expansion', 0))}
        if 'dom_tree_flavor' not in self._unsupported:
            # browser_use's buildDomTree.js rules of the installed version (0.1.40 differs from 0.1.48).
            params['dom_tree_flavor'] = DOM_TREE_FLAVOR
            params['highlight_elements'] = bool(getattr(self.config, 'highlight_elements', True))
        # Only what changed since this tab's last state of the same kind (get_state since): a step
        # after a small change moves a few hundred bytes instead of the whole tree (README "Deltas").
        key = repr(sorted(params.items()))
        tab = self.current_tab_id
        base = self._state_bases.get(tab) if tab is not None and 'since' not in self._unsupported else None
        base_state = base[1] if base is not None and base[0] == key and base[1].get('state_id') else None
        call_params = dict(params, since=base_state['state_id']) if base_state is not None else params
        try:
            r = await self._call('get_state', call_params)
            st = r.get('new_simplified_state')
            delta = r.get('state_delta')
            if st is None and isinstance(delta, dict):
                try:
                    if base_state is None:
                        raise StateDeltaError('a delta arrived for a get_state without since')
                    st = apply_state_delta(base_state, delta)
                except StateDeltaError as e:
                    logger.warning('state delta not applicable (%s); taking a full state', e)
                    r = await self._call('get_state', params)
                    st = r.get('new_simplified_state')
                if isinstance(st, dict):
                    self._note_state(st)
        except ActionFailed as e:
            if e.code == 'INVALID_MESSAGE' and 'since' in call_params:
                # A bridge or extension from before state deltas.
                self._unsupported.add('since')
                return await self._get_updated_state(focus_element, with_screenshot)
            if e.code == 'INVALID_MESSAGE' and 'dom_tree_flavor' not in self._unsupported:
                # A bridge from before issue 9: dom_tree without the browser_use version rules.
                self._unsupported.add('dom_tree_flavor')
                return await self._get_updated_state(focus_element, with_screenshot)
            if e.code == 'INVALID_MESSAGE' and 'include_dom_tree' not in self._unsupported:
                # A bridge from before contract F: plain get_state, flat tree (dom_tree.py).
                self._unsupported.add('include_dom_tree')
                return await self._get_updated_state(focus_element, with_screenshot)
            if e.code in ('RESTRICTED_PAGE', 'COMMUNICATION_ERROR_WITH_TARGET'):
                # about:blank, chrome:// and other pages extensions cannot script: an empty page,
                # as 0.1.48's DomService returns for about:blank, so the agent can navigate away.
                return await self._empty_state()
            if self.current_state is not None and e.code not in ('RESTRICTED_PAGE', 'NO_EXTENSION_CONNECTED', 'EXTENSION_DISCONNECTED'):
                logger.warning('get_state failed (%s); returning the previous state', e)
                return self.current_state
            raise browser_error_from(e, 'Could not read the page state: ') from e
        except BridgeError as e:
            raise browser_error_from(e, 'Browser closed: no valid pages available. ') from e
        st = st if isinstance(st, dict) else {}
        st_tab = st.get('tab_id')
        if isinstance(st_tab, int) and st.get('state_id'):
            self._state_bases[st_tab] = (key, st)
        element_tree, selector_map = build_tree(st)
        tabs = await self.get_tabs_info()
        screenshot = None
        if with_screenshot and getattr(self.config, 'include_screenshot', True):
            # With the numbered boxes when highlight_elements is on, as the real state's screenshot.
            screenshot = await self.take_screenshot(highlight=bool(getattr(self.config, 'highlight_elements', True)))
        viewport = st.get('viewport_dimensions') or {}
        scroll = st.get('scroll_position') or {}
        page_size = st.get('page_size') or {}
        above = st.get('pixels_above', int(scroll.get('y', 0) or 0))
        below = st.get('pixels_below', max(0, int((page_size.get('height') or 0) - (viewport.get('height') or 0) - (scroll.get('y') or 0))))
        state = BrowserState(
            element_tree=element_tree,
            selector_map=selector_map,
            url=st.get('url', ''),
            title=st.get('title', ''),
            tabs=tabs,
            screenshot=screenshot,
            pixels_above=int(above),
            pixels_below=int(below),
        )
        if self._notices:
            state.browser_errors = list(self._notices)
            self._notices.clear()
        self.current_state = state
        return state

    async def _empty_state(self) -> Any:
        from .dom_tree import _empty_body

        tabs = await self.get_tabs_info()
        page = self.agent_current_page or self.human_current_page
        # Real takes a screenshot of about:blank too (a vision model gets one on the first step); pages
        # Chrome does not let extensions capture give None.
        screenshot = await self.take_screenshot() if getattr(self.config, 'include_screenshot', True) else None
        url = page.url if page else ''
        if screenshot is None and url == 'about:blank' and getattr(self.config, 'include_screenshot', True):
            # Chrome refuses captureVisibleTab on about:blank ("Cannot access contents of url"), but
            # an about:blank page is an empty white viewport by definition, which is what real
            # browser_use's Playwright screenshot shows there; a 0.1.40 vision agent starts there.
            size = getattr(self.config, 'browser_window_size', None) or {}
            get = size.get if isinstance(size, dict) else (lambda k, d: getattr(size, k, d))
            screenshot = _blank_png_base64(int(get('width', 1280)), int(get('height', 1100)))
        state = BrowserState(element_tree=_empty_body(), selector_map={}, url=url, title=page._title if page else '', tabs=tabs, screenshot=screenshot, pixels_above=0, pixels_below=0)
        self.current_state = state
        return state

    async def get_selector_map(self) -> dict:
        session = await self.get_session()
        if session.cached_state is None:
            return {}
        return session.cached_state.selector_map

    async def get_dom_element_by_index(self, index: int) -> Any:
        selector_map = await self.get_selector_map()
        return selector_map[index]

    async def get_element_by_index(self, index: int) -> Optional['ElementHandle']:
        return await self.get_locate_element((await self.get_selector_map())[index])

    async def get_tabs_info(self) -> list:
        await self.get_session()
        pages = await self._refresh_tabs()
        if not pages and self.agent_current_page is not None:
            pages = [self.agent_current_page]
        return [TabInfo(page_id=i, url=p.url, title=p._title) for i, p in enumerate(pages)]

    async def get_scroll_info(self, page: Any) -> tuple[int, int]:
        st = await self._fresh_protocol_state(getattr(page, 'tab_id', None))
        return int(st.get('pixels_above', 0)), int(st.get('pixels_below', 0))

    async def take_screenshot(self, full_page: bool = False, highlight: bool = False) -> Optional[str]:
        """Base64 PNG of the visible viewport (full_page is not available to extensions), or None if it
        cannot be taken. highlight: with browser_use's numbered boxes of the latest state, drawn in the
        page for the capture only (get_state passes it; the public call keeps real's plain screenshot,
        since real removes its boxes before every state)."""
        if 'screenshot' in self._unsupported:
            return None
        for attempt in range(2):
            # Chrome allows two captureVisibleTab calls per second: pace them.
            wait = self._last_capture + 0.55 - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                params = {'highlight_elements': True} if highlight and 'screenshot_highlights' not in self._unsupported else {}
                try:
                    r = await self._call('screenshot', params)
                except ActionFailed as e:
                    if e.code != 'INVALID_MESSAGE' or not params:
                        raise
                    self._unsupported.add('screenshot_highlights')  # a bridge from before issue 9
                    r = await self._call('screenshot', {})
                self._last_capture = time.monotonic()
                return ((r.get('outcome_details') or {}).get('result') or {}).get('data_base64')
            except ActionFailed as e:
                self._last_capture = time.monotonic()
                if attempt == 0 and 'PER_SECOND' in str(e):
                    continue
                logger.info('no screenshot: %s', e)
                return None
        return None

    async def remove_highlights(self) -> None:
        """The numbered boxes exist only during a screenshot (removed right after the capture), so there is nothing to remove."""
        return None

    async def is_file_uploader(self, element_node: Any, max_depth: int = 3, current_depth: int = 0) -> bool:
        if current_depth > max_depth:
            return False
        if not isinstance(element_node, DOMElementNode):
            return False
        if element_node.tag_name == 'input':
            if element_node.attributes.get('type') == 'file' or element_node.attributes.get('accept') is not None:
                return True
        if element_node.children and current_depth < max_depth:
            for child in element_node.children:
                if isinstance(child, DOMElementNode) and await self.is_file_uploader(child, max_depth, current_depth + 1):
                    return True
        return False

    # -- element actions -------------------------------------------------------------------------
    def _target(self, element_node: Any) -> tuple[dict, Optional[int]]:
        eid = element_id_of(element_node)
        tab = getattr(element_node, TAB_ID_ATTR, None)
        if eid:
            return {'element_id': eid}, tab
        if element_node.highlight_index is not None:
            return {'index': int(element_node.highlight_index) + 1}, tab  # browser_use 0-based -> protocol 1-based
        return {'selector': self._enhanced_css_selector_for_element(element_node, getattr(self.config, 'include_dynamic_attributes', True))}, tab

    async def _click_element_node(self, element_node: Any) -> Optional[str]:
        """click by element id; a tab the click opened joins session.context.pages. Returns None:
        browser_use returns a path only with ``save_downloads_path`` (Playwright's expect_download);
        in the person's Chrome a download goes to their download folder and the extension cannot
        name the file, so the click is reported as a click (MIGRATION.md)."""
        if getattr(self.config, 'save_downloads_path', None) and not getattr(self, '_warned_downloads', False):
            self._warned_downloads = True
            logger.warning('save_downloads_path=%r is not used: downloads a click starts go to Chrome\'s download folder, and the click result cannot name the file.', self.config.save_downloads_path)
        target, tab = self._target(element_node)
        try:
            r = await self._call('click', target, tab_id=tab)
        except (ActionFailed, BridgeError) as e:
            raise Exception(f'Failed to click element: {repr(element_node)}. Error: {str(e)}') from e
        await self._after_navigation(r)
        return None

    async def _input_text_element_node(self, element_node: Any, text: str) -> None:
        target, tab = self._target(element_node)
        try:
            r = await self._call('fill', {**target, 'value': text}, tab_id=tab)
        except (ActionFailed, BridgeError) as e:
            err = BrowserError(f'Failed to input text into index {element_node.highlight_index}')
            setattr(err, 'error_code', getattr(e, 'code', None))
            raise err from e
        await self._after_navigation(r)

    async def _after_navigation(self, r: dict) -> None:
        """0.1.48 _check_and_handle_navigation: a disallowed URL -> go back and raise URLNotAllowedError."""
        st = r.get('new_simplified_state') or {}
        url = st.get('url')
        if url and not self._is_url_allowed(url):
            await self._leave_disallowed(url)
            raise URLNotAllowedError(f'Navigation to non-allowed URL: {url}')

    async def _leave_disallowed(self, url: str) -> None:
        """Back to where the agent was: history back, or (when the tab has no usable history entry)
        a navigation to the last allowed URL the shim saw."""
        previous = getattr(self.current_state, 'url', None)
        await self.go_back()
        page = self.agent_current_page
        if page is not None and not self._is_url_allowed(page.url) and previous and self._is_url_allowed(previous) and previous != url:
            try:
                await page.goto(previous)
            except Exception as e:
                logger.warning('could not leave the non-allowed URL %s: %s', url, e)

    async def _check_current_url(self) -> None:
        page = self.agent_current_page
        if page is not None and page.url and not self._is_url_allowed(page.url):
            url = page.url
            await self._leave_disallowed(url)
            raise URLNotAllowedError(f'Navigation to non-allowed URL: {url}')

    # -- tabs and navigation ---------------------------------------------------------------------
    async def switch_to_tab(self, page_id: int) -> None:
        session = await self.get_session()
        pages = session.context.pages if 'list_tabs' in self._unsupported else await self._refresh_tabs()
        if page_id >= len(pages) or page_id < -len(pages):
            raise BrowserError(f'No tab found with page_id: {page_id}')
        page = pages[page_id]
        if page.url and not self._is_url_allowed(page.url):  # no URL yet: a popup still loading
            raise BrowserError(f'Cannot switch to tab with non-allowed URL: {page.url}')
        try:
            await self._call('switch_tab', {'tab_id': page.tab_id}, tab_id=page.tab_id)
        except ActionFailed as e:
            raise browser_error_from(e, f'Could not switch to tab {page_id}: ') from e
        self.agent_current_page = self.human_current_page = page
        if not page.url:
            # A tab that has not committed its first URL yet (a popup the click just opened):
            # 0.1.48 waited for its load state here.
            try:
                r = await self._call('wait_for_navigation', {'timeout_ms': 5000}, tab_id=page.tab_id, timeout_ms=10000)
                page._remember(url=((r.get('outcome_details') or {}).get('result') or {}).get('url') or page.url)
            except (ActionFailed, BridgeError) as e:
                logger.debug('tab %s did not finish loading: %s', page.tab_id, e)
            if not page.url and 'list_tabs' not in self._unsupported:
                await self._refresh_tabs()  # it committed before the wait started

    async def create_new_tab(self, url: Optional[str] = None) -> None:
        if url and not self._is_url_allowed(url):
            raise BrowserError(f'Cannot create new tab with non-allowed URL: {url}')
        try:
            r = await self._call('open_tab', {'url': url} if url else {}, tab_id=None)
        except ActionFailed as e:
            raise browser_error_from(e, 'Could not open a tab: ') from e
        tab_id = ((r.get('outcome_details') or {}).get('result') or {}).get('tab_id')
        if isinstance(tab_id, int):
            page = self._page_for(tab_id, url=url or 'about:blank')
            self.agent_current_page = self.human_current_page = page

    async def close_current_tab(self) -> None:
        session = await self.get_session()
        page = await self.get_current_page()
        await page.close()
        if session.context.pages:
            await self.switch_to_tab(0)

    async def navigate_to(self, url: str) -> None:
        if not self._is_url_allowed(url):
            raise BrowserError(f'Navigation to non-allowed URL: {url}')
        page = await self.get_current_page()
        await page.goto(url)

    async def refresh_page(self) -> None:
        page = await self.get_current_page()
        await page.reload()

    async def go_back(self) -> None:
        """Errors are swallowed, as in 0.1.48."""
        try:
            page = await self.get_current_page()
            await page.go_back()
        except Exception as e:
            logger.debug('During go_back: %s', e)

    async def go_forward(self) -> None:
        try:
            page = await self.get_current_page()
            await page.go_forward()
        except Exception as e:
            logger.debug('During go_forward: %s', e)

    async def get_page_html(self) -> str:
        return await (await self.get_current_page()).content()

    async def execute_javascript(self, script: str) -> Any:
        return await (await self.get_current_page()).evaluate(script)

    async def get_page_structure(self) -> str:
        state = self.current_state or await self.get_state()
        lines: list[str] = []

        def walk(node: Any, depth: int) -> None:
            if isinstance(node, DOMElementNode):
                extra = f' [{node.highlight_index}]' if node.highlight_index is not None else ''
                lines.append(f"{'  ' * depth}<{node.tag_name}>{extra}")
                for c in node.children:
                    walk(c, depth + 1)

        walk(state.element_tree, 0)
        return '\n'.join(lines)

    async def wait_for_element(self, selector: str, timeout: float) -> None:
        try:
            await self._call('wait_for', {'selector': selector, 'state': 'visible', 'timeout_ms': int(min(60000, timeout))})
        except ActionFailed as e:
            raise browser_error_from(e, f'Element {selector} did not appear: ') from e

    async def save_cookies(self) -> None:
        """Cookies belong to the person's Chrome profile and persist there; nothing to save."""
        return None

    async def reset_context(self) -> None:
        """Forgets cached state; the person's tabs are not closed."""
        if self.session is not None:
            self.session.cached_state = None
            self.session.cached_state_clickable_elements_hashes = None
        self.current_state = None
        self.state.target_id = None

    async def set_viewport_size(self, page: Any) -> None:
        """The person's window decides the viewport; no-op."""
        return None

    # -- locating (ElementHandle facades) --------------------------------------------------------
    async def get_locate_element(self, element: Any) -> Optional['ElementHandle']:
        target, tab = self._target(element)
        return ElementHandle(self, target, tab)

    async def get_locate_element_by_css_selector(self, css_selector: str) -> Optional['ElementHandle']:
        return ElementHandle(self, {'selector': css_selector}, None)

    async def get_locate_element_by_xpath(self, xpath: str) -> Optional['ElementHandle']:
        return ElementHandle(self, {'selector': self._convert_simple_xpath_to_css_selector(xpath)}, None)

    async def get_locate_element_by_text(self, text: str, nth: Optional[int] = 0, element_type: Optional[str] = None) -> Optional['ElementHandle']:
        state = await self.get_state()
        matches = [n for n in state.selector_map.values() if text in n.get_all_text_till_next_clickable_element() and (element_type is None or n.tag_name == element_type)]
        if not matches or (nth or 0) >= len(matches):
            return None
        return await self.get_locate_element(matches[nth or 0])

    # -- allowed domains -------------------------------------------------------------------------
    def _is_url_allowed(self, url: str) -> bool:
        """browser_use's own check, exactly (it reads only config.allowed_domains): 0.1.48 matches the
        host exactly or by glob (``*.example.com`` also matches example.com), allows about:blank and
        chrome:/brave:/edge:/chrome-extension: URLs, refuses URLs without a host (data:, file:);
        0.1.40 matches the host or any subdomain and allows nothing else. Without browser_use: 0.1.48's."""
        real = _real_is_url_allowed()
        if real is not None:
            return bool(real(self, url))
        return _is_url_allowed_0_1_48(getattr(self.config, 'allowed_domains', None), url)

    # -- CSS selectors (HistoryTreeProcessor calls these on the class) ---------------------------
    @classmethod
    def _convert_simple_xpath_to_css_selector(cls, xpath: str) -> str:
        if not xpath:
            return ''
        xpath = xpath.lstrip('/')
        css_parts: list[str] = []
        for part in xpath.split('/'):
            if not part:
                continue
            if ':' in part and '[' not in part:
                css_parts.append(part.replace(':', r'\:'))
                continue
            if '[' in part:
                base_part = part[: part.find('[')]
                if ':' in base_part:
                    base_part = base_part.replace(':', r'\:')
                index_part = part[part.find('['):]
                for idx in [i.strip('[]') for i in index_part.split(']')[:-1]]:
                    if idx.isdigit():
                        base_part += f':nth-of-type({int(idx)})'
                    elif idx == 'last()':
                        base_part += ':last-of-type'
                    elif 'position()' in idx and '>1' in idx:
                        base_part += ':nth-of-type(n+2)'
                css_parts.append(base_part)
            else:
                css_parts.append(part)
        return ' > '.join(css_parts)

    @classmethod
    def _enhanced_css_selector_for_element(cls, element: Any, include_dynamic_attributes: bool = True) -> str:
        try:
            css_selector = cls._convert_simple_xpath_to_css_selector(element.xpath)
            if 'class' in element.attributes and element.attributes['class'] and include_dynamic_attributes:
                valid_class_name_pattern = re.compile(r'^[a-zA-Z_][a-zA-Z0-9_-]*$')
                for class_name in element.attributes['class'].split():
                    if class_name.strip() and valid_class_name_pattern.match(class_name):
                        css_selector += f'.{class_name}'
            safe_attributes = {
                'id', 'name', 'type', 'placeholder', 'aria-label', 'aria-labelledby', 'aria-describedby', 'role',
                'for', 'autocomplete', 'required', 'readonly', 'alt', 'title', 'src', 'href', 'target',
            }
            if include_dynamic_attributes:
                safe_attributes.update({'data-id', 'data-qa', 'data-cy', 'data-testid'})
            for attribute, value in element.attributes.items():
                if attribute == 'class' or not attribute.strip() or attribute not in safe_attributes:
                    continue
                safe_attribute = attribute.replace(':', r'\:')
                if value == '':
                    css_selector += f'[{safe_attribute}]'
                elif any(char in value for char in '"\'<>`\n\r\t'):
                    collapsed_value = re.sub(r'\s+', ' ', value).strip()
                    safe_value = collapsed_value.replace('"', '\\"')
                    css_selector += f'[{safe_attribute}*="{safe_value}"]'
                elif value:
                    css_selector += f'[{safe_attribute}="{value}"]'
            return css_selector
        except Exception:
            tag_name = element.tag_name or '*'
            return f"{tag_name}[highlight_index='{element.highlight_index}']"


class ElementHandle:
    """The few ElementHandle methods custom actions use, by protocol target (element id or selector)."""

    def __init__(self, context: ExtensionBrowserContext, target: dict, tab_id: Optional[int]) -> None:
        self._context = context
        self._target = target
        self._tab = tab_id

    async def _do(self, action: str, extra: Optional[dict] = None) -> dict:
        try:
            return await self._context._call(action, {**self._target, **(extra or {})}, tab_id=self._tab)
        except ActionFailed as e:
            raise browser_error_from(e, f'{action} failed: ') from e

    async def click(self, **_: Any) -> None:
        await self._do('click')

    async def fill(self, value: str, **_: Any) -> None:
        await self._do('fill', {'value': value})

    async def type(self, text: str, delay: Optional[float] = None, **_: Any) -> None:
        await self._do('type', {'text': text, **({'delay_ms': int(min(1000, delay))} if delay else {})})

    async def hover(self, **_: Any) -> None:
        await self._do('hover')

    async def focus(self) -> None:
        await self._do('focus')

    async def scroll_into_view_if_needed(self, **_: Any) -> None:
        await self._do('scroll_into_view')

    async def is_visible(self) -> bool:
        r = await self._do('is', {'what': 'visible'})
        return bool(((r.get('outcome_details') or {}).get('result') or {}).get('value'))

    async def is_hidden(self) -> bool:
        return not await self.is_visible()

    async def inner_text(self) -> str:
        r = await self._do('get', {'what': 'text'})
        return str(((r.get('outcome_details') or {}).get('result') or {}).get('value') or '')

    async def get_attribute(self, name: str) -> Optional[str]:
        r = await self._do('get', {'what': 'attribute', 'attribute': name})
        v = ((r.get('outcome_details') or {}).get('result') or {}).get('value')
        return v if isinstance(v, str) else None

    async def select_option(self, value: Any = None, label: Any = None, **_: Any) -> list[str]:
        params: dict[str, Any] = {}
        if label is not None:
            params['labels'] = label if isinstance(label, list) else [label]
        elif value is not None:
            params['values'] = value if isinstance(value, list) else [value]
        r = await self._do('select_option', params)
        return list(((r.get('outcome_details') or {}).get('result') or {}).get('values') or [])


_REAL_IS_URL_ALLOWED: list = []


def _real_is_url_allowed() -> Any:
    """browser_use.browser.context.BrowserContext._is_url_allowed when browser_use is installed."""
    if not _REAL_IS_URL_ALLOWED:
        try:
            from browser_use.browser.context import BrowserContext as _Real  # type: ignore
            _REAL_IS_URL_ALLOWED.append(_Real._is_url_allowed)
        except Exception:
            _REAL_IS_URL_ALLOWED.append(None)
    return _REAL_IS_URL_ALLOWED[0]


def _is_url_allowed_0_1_48(allowed_domains: Optional[list], url: str) -> bool:
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


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False


def _blank_png_base64(width: int, height: int) -> str:
    """A white RGB PNG of width x height, base64 (an about:blank viewport)."""
    import base64
    import struct
    import zlib

    width, height = max(1, min(width, 4096)), max(1, min(height, 4096))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b'\x00' + b'\xff' * (3 * width)
    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(row * height, 9)) + chunk(b'IEND', b'')
    return base64.b64encode(png).decode('ascii')
