"""ExtensionBrowserContext: browser_use 0.1.48's BrowserContext surface over the bridge protocol.

Every method the Agent, the Controller and HistoryTreeProcessor use (surface.json ``called_by``)
exists with the same name, parameters, sync/async-ness and return type; SPEC.md lists the protocol
messages each one becomes.
"""
from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from .action_calls import call_action
from .allowed_urls import is_url_allowed
from .compat import BrowserError, ClickableElementProcessor, DOMElementNode
from .config import context_config_from
from .cookies import add_cookies_unsupported, note_cookies_file, read_cookies, save_cookies_file
from .css_selectors import convert_simple_xpath_to_css_selector, enhanced_css_selector_for_element
from .element_actions import check_current_url, click_element_node, input_text_element_node, target_of
from .element_handle import ElementHandle
from .errors import browser_error_from
from .page import ExtensionPage
from .page_state import read_state
from .screenshots import take_screenshot
from .session_state import SessionState
from .tab_list import apply_tab_list, tab_infos
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

    async def cookies(self, urls: Optional[Union[str, Sequence[str]]] = None) -> list[dict]:
        """Playwright's BrowserContext.cookies(urls): dicts with name, value, domain, path, expires,
        httpOnly, secure, sameSite; only of the sites this agent's own tabs show (cookies.py)."""
        return await read_cookies(self._owner, urls)

    async def add_cookies(self, cookies: Any) -> None:
        raise add_cookies_unsupported()


class BrowserSession:
    """0.1.48's internal BrowserSession: ``.context.pages``, ``.cached_state``, ``.cached_state_clickable_elements_hashes``."""

    def __init__(self, context: TabsContext, cached_state: Any = None) -> None:
        self.context = context
        self.cached_state = cached_state
        self.cached_state_clickable_elements_hashes: Optional[CachedStateClickableElementsHashes] = None


class ExtensionBrowserContext:
    """Drop-in for ``browser_use.browser.context.BrowserContext`` that drives the person's Chrome."""

    def __init__(self, browser: 'ExtensionBrowser', config: Any = None, state: Optional[BrowserContextState] = None) -> None:
        self.context_id = str(uuid.uuid4())
        self.browser = browser
        self.config = context_config_from(
            config if config is not None else getattr(getattr(browser, 'config', None), 'new_context_config', None)
        )
        self.state = state or BrowserContextState()
        self.session: Optional[BrowserSession] = None
        self.agent_current_page: Optional[ExtensionPage] = None
        self.human_current_page: Optional[ExtensionPage] = None
        self.current_state: Any = None
        self.conn: Optional[BridgeConnection] = None
        self.last_protocol_state: Optional[dict] = None  # the latest simplified_state seen
        # The bookkeeping the helper modules share (pages by tab, delta bases, notices, leased tabs).
        self.shared = SessionState(self, lambda token: self.browser._connect(session_token=token))
        self._init_lock = asyncio.Lock() if _loop_running() else None
        self._cookies_noted = False

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
            self.conn = await self.shared.connect(self.shared.session_token)
            self.conn.on('tab_released', self.shared.on_tab_released)
            self.shared.session_token = self.conn.session_token
            self.session = BrowserSession(TabsContext(self))
            if not self._cookies_noted:
                self._cookies_noted = True
                note_cookies_file(self.config)
            await self._refresh_tabs()
            return self.session

    async def close(self) -> None:
        """Closes this context's bridge connection. The person's tabs stay open (they are theirs).
        With ``cookies_file`` the agent's sites' cookies are written there first, as browser_use does."""
        if self.conn is not None:
            await self.save_cookies()
            await self.conn.close()
        self.conn = None
        self.session = None
        self.agent_current_page = None
        self.human_current_page = None

    # -- protocol helpers ------------------------------------------------------------------------
    @property
    def current_tab_id(self) -> Optional[int]:
        return self.agent_current_page.tab_id if self.agent_current_page else None

    async def call(
        self, action: str, params: Optional[dict] = None, tab_id: Optional[int] = None, timeout_ms: Optional[int] = None
    ) -> dict:
        """Runs any protocol action (schemas/v1/actions/) on the agent's current tab; returns the
        action_result message, raising ActionFailed when its status is error."""
        return await self._call(action, params or {}, tab_id=tab_id, timeout_ms=timeout_ms)

    async def _call(self, action: str, params: dict, tab_id: Optional[int] = None, timeout_ms: Optional[int] = None) -> dict:
        return await call_action(self.shared, action, params, tab_id, timeout_ms)

    async def _refresh_tabs(self) -> list[ExtensionPage]:
        """Re-reads the tab list (list_tabs) into session.context.pages, keeping page objects by tab id."""
        assert self.conn is not None
        r = await self.conn.call('list_tabs', {})
        if r.get('status') != 'success':
            raise BrowserError(f"Could not list the tabs: {(r.get('error_info') or {}).get('message')}")
        return apply_tab_list(self.shared, ((r.get('outcome_details') or {}).get('result') or {}).get('tabs') or [])

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
        if page is None:
            # First use: a get_state tells which tab the bridge leased to this session (the active one,
            # or a new tab of its own when another agent holds that: action_calls.py). The tab list
            # names every tab of the person's Chrome, so its first entry is not this agent's tab.
            try:
                await self._fresh_protocol_state()
            except ActionFailed:
                pass  # a page the extension cannot read (about:blank): the answer still named the tab
        page = self.agent_current_page or (session.context.pages[0] if session.context.pages else None)
        if page is None:
            await self.create_new_tab()
            page = self.agent_current_page
        assert page is not None
        self.agent_current_page = self.human_current_page = page
        return page

    # -- state -----------------------------------------------------------------------------------
    async def get_state(self, cache_clickable_elements_hashes: bool = False) -> Any:
        """One get_state (dom_tree, tabs and screenshot in one round trip) -> browser_use BrowserState;
        marks is_new when asked."""
        session = await self.get_session()
        await self._check_current_url()
        # A screenshot with every state, as the real _get_updated_state takes one: 0.1.40 agents call
        # get_state() without the hash flag, and 0.1.48's output validator and planner use
        # get_state(False)'s screenshot.
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
        return await read_state(self.shared, with_screenshot)

    async def get_selector_map(self) -> dict:
        session = await self.get_session()
        if session.cached_state is None:
            return {}
        return session.cached_state.selector_map

    async def get_dom_element_by_index(self, index: int) -> Any:
        selector_map = await self.get_selector_map()
        return selector_map[index]

    async def get_element_by_index(self, index: int) -> Optional[ElementHandle]:
        return await self.get_locate_element((await self.get_selector_map())[index])

    async def get_tabs_info(self) -> list:
        await self.get_session()
        return tab_infos(self, await self._refresh_tabs())

    async def get_scroll_info(self, page: Any) -> tuple[int, int]:
        st = await self._fresh_protocol_state(getattr(page, 'tab_id', None))
        return int(st.get('pixels_above', 0)), int(st.get('pixels_below', 0))

    async def take_screenshot(self, full_page: bool = False, highlight: bool = False) -> Optional[str]:
        """Base64 PNG of the visible viewport (full_page is not available to extensions), or None if it
        cannot be taken. highlight: with browser_use's numbered boxes of the latest state, drawn in the
        page for the capture only (the public call keeps real's plain screenshot, since real removes
        its boxes before every state)."""
        return await take_screenshot(self, highlight)

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

    # -- element actions (element_actions.py) ----------------------------------------------------
    def _target(self, element_node: Any) -> tuple[dict, Optional[int]]:
        return target_of(element_node, getattr(self.config, 'include_dynamic_attributes', True))

    async def _click_element_node(self, element_node: Any) -> Optional[str]:
        return await click_element_node(self, element_node)

    async def _input_text_element_node(self, element_node: Any, text: str) -> None:
        await input_text_element_node(self, element_node, text)

    async def _check_current_url(self) -> None:
        await check_current_url(self)

    # -- tabs and navigation ---------------------------------------------------------------------
    async def switch_to_tab(self, page_id: int) -> None:
        await self.get_session()
        pages = await self._refresh_tabs()
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
            if not page.url:
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
            page = self.shared.page_for(tab_id, url=url or 'about:blank')
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
        """browser_use's save_cookies: with ``config.cookies_file``, the cookies of the sites the agent's
        tabs show are written there as JSON (Playwright's format); nothing else. They also stay in the
        person's Chrome profile, which keeps them anyway."""
        await save_cookies_file(self)

    @property
    def playwright_context(self) -> TabsContext:
        """What Playwright's ``page.context`` is: the BrowserContext stand-in (pages, cookies())."""
        return self.session.context if self.session is not None else TabsContext(self)

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
    async def get_locate_element(self, element: Any) -> Optional[ElementHandle]:
        target, tab = self._target(element)
        return ElementHandle(self, target, tab)

    async def get_locate_element_by_css_selector(self, css_selector: str) -> Optional[ElementHandle]:
        return ElementHandle(self, {'selector': css_selector}, None)

    async def get_locate_element_by_xpath(self, xpath: str) -> Optional[ElementHandle]:
        # The Page facade's XPath rule (attribute tests such as //*[@id="x"] included; browser_use's own
        # converter turns that one into "*"); an XPath it cannot express raises UnsupportedPlaywrightCall.
        from .locator import css_of
        return ElementHandle(self, {'selector': css_of('xpath=' + xpath)}, None)

    async def get_locate_element_by_text(
        self, text: str, nth: Optional[int] = 0, element_type: Optional[str] = None
    ) -> Optional[ElementHandle]:
        state = await self.get_state()
        matches = [
            n
            for n in state.selector_map.values()
            if text in n.get_all_text_till_next_clickable_element() and (element_type is None or n.tag_name == element_type)
        ]
        if not matches or (nth or 0) >= len(matches):
            return None
        return await self.get_locate_element(matches[nth or 0])

    # -- allowed domains (allowed_urls.py) -------------------------------------------------------
    def _is_url_allowed(self, url: str) -> bool:
        """browser_use's own check, exactly (it reads only config.allowed_domains)."""
        return is_url_allowed(self, url)

    # -- CSS selectors (css_selectors.py; HistoryTreeProcessor calls these on the class) ----------
    @classmethod
    def _convert_simple_xpath_to_css_selector(cls, xpath: str) -> str:
        return convert_simple_xpath_to_css_selector(xpath)

    @classmethod
    def _enhanced_css_selector_for_element(cls, element: Any, include_dynamic_attributes: bool = True) -> str:
        return enhanced_css_selector_for_element(element, include_dynamic_attributes)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False
