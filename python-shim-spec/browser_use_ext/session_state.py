"""What one browser context's helper modules share, handed to them instead of the context itself.

The context (context.py) is browser_use's BrowserContext facade; the modules it delegates to
(action_calls, page_state, tab_list, element_actions, cookies, screenshots, downloads) need its
bookkeeping too: the page object of each tab, the state each delta is taken against, the notices
for the next state, the tabs the bridge leased to this session. That lives here, with public names,
so no module reaches into the context's private fields. What they use of the context itself is
only its public browser_use surface, named by ``ContextSurface`` (so they need not import
context.py, which imports them).
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional, Protocol

from .page import ExtensionPage

if TYPE_CHECKING:
    from .downloads import Download
    from .transport import BridgeConnection


class ContextSurface(Protocol):
    """The public part of ExtensionBrowserContext (browser_use's BrowserContext) the helpers use."""

    config: Any
    browser: Any
    session: Any
    conn: Optional['BridgeConnection']
    agent_current_page: Optional[ExtensionPage]
    human_current_page: Optional[ExtensionPage]
    current_state: Any
    last_protocol_state: Optional[dict]

    @property
    def current_tab_id(self) -> Optional[int]: ...

    async def get_session(self) -> Any: ...

    async def call(self, action: str, params: Optional[dict] = None, tab_id: Optional[int] = None,
                   timeout_ms: Optional[int] = None) -> dict: ...

    async def go_back(self) -> None: ...

    async def get_tabs_info(self) -> list: ...

    async def take_screenshot(self, full_page: bool = False, highlight: bool = False) -> Optional[str]: ...


#: Opens a bridge connection that resumes the session of the given token (None: a new session).
Connect = Callable[[Optional[str]], Awaitable['BridgeConnection']]


class SessionState:
    """One context's bridge session as its helpers see it: the pages by tab id and what is remembered
    between actions. Owned by the context; every field is read and written by the helper modules."""

    def __init__(self, context: ContextSurface, connect: Connect) -> None:
        self.context = context
        #: Opens (or resumes, with the token) a bridge connection: the transport handle's factory.
        self.connect = connect
        #: Resumes the same bridge session (same leased tabs) when the context connects again.
        self.session_token: Optional[str] = None
        #: tab id -> its page object, so every answer about a tab updates the same ExtensionPage.
        self.pages: dict[int, ExtensionPage] = {}
        #: tab -> (params key, state) of the last get_state with dom_tree: the base of the next one's delta (README "Deltas").
        self.state_bases: dict[int, tuple[str, dict]] = {}
        #: tab -> the state that came with the last other action there: the base of the next action's state delta.
        self.action_bases: dict[int, dict] = {}
        #: tab_released notices not yet shown: they go into the next BrowserState.browser_errors.
        self.notices: list[str] = []
        #: Tabs an action of this context succeeded in (the bridge leased them to its session).
        self.held_tabs: set[int] = set()
        #: page.expect_download()s waiting for the next action that starts a download.
        self.download_arms: list[asyncio.Future[Download]] = []

    def page_for(self, tab_id: int, url: Optional[str] = None, title: Optional[str] = None) -> ExtensionPage:
        """The page object of a tab (made on first sight and added to session.context.pages), its URL and title updated."""
        page = self.pages.get(tab_id)
        if page is None:
            page = ExtensionPage(self.context, tab_id, url or '', title or '')  # type: ignore[arg-type]
            self.pages[tab_id] = page
            session = self.context.session
            if session is not None:
                session.context.pages.append(page)
        else:
            page._remember(url=url, title=title)
        return page

    def forget_page(self, page: ExtensionPage) -> None:
        """A closed tab leaves the page list and stops being the current page."""
        ctx = self.context
        if page.tab_id is not None:
            self.pages.pop(page.tab_id, None)
        if ctx.session is not None and page in ctx.session.context.pages:
            ctx.session.context.pages.remove(page)
        if ctx.agent_current_page is page:
            ctx.agent_current_page = None
        if ctx.human_current_page is page:
            ctx.human_current_page = None

    def note_state(self, st: dict) -> None:
        """A simplified_state an action brought: the latest one, its tab's page and frames; the first names the agent's tab."""
        ctx = self.context
        ctx.last_protocol_state = st
        tab = st.get('tab_id')
        if isinstance(tab, int):
            page = self.page_for(tab, url=st.get('url'), title=st.get('title'))
            page._frames = list(st.get('frames') or [])
            if ctx.agent_current_page is None:
                ctx.agent_current_page = ctx.human_current_page = page

    def on_tab_released(self, m: dict) -> None:
        """tab_released (the bridge took a leased tab back, or it closed): a closed tab leaves the page
        list; the notice (e.g. "Tab limit (3) reached. Released tab: ...") goes into the next
        BrowserState.browser_errors."""
        page = self.pages.get(m.get('tab_id'))  # type: ignore[arg-type]
        if page is not None and m.get('reason') == 'tab_closed':
            page._closed = True
            self.forget_page(page)
        if m.get('message'):
            self.notices.append(str(m['message']))

    def take_notices(self) -> list[str]:
        """The notices since the last state, emptied."""
        taken = list(self.notices)
        self.notices.clear()
        return taken

    async def connect_again(self) -> 'BridgeConnection':
        """Opens the context's connection again, resuming this session by its token; tab_released lands here."""
        conn = await self.connect(self.session_token)
        conn.on('tab_released', self.on_tab_released)
        self.session_token = conn.session_token or self.session_token
        return conn
