"""The tab list: list_tabs answers (or get_state's include_tabs) into session.context.pages, the
page objects kept by tab id, and browser_use's TabInfo list."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .compat import TabInfo
from .page import ExtensionPage

if TYPE_CHECKING:
    from .session_state import ContextSurface, SessionState


def apply_tab_list(state: 'SessionState', tabs: list) -> list[ExtensionPage]:
    """Pages in tab-strip order; tabs that are gone are closed and forgotten."""
    ctx = state.context
    assert ctx.session is not None
    pages: list[ExtensionPage] = []
    seen: set[int] = set()
    active: Optional[ExtensionPage] = None
    for t in tabs:
        tid = t.get('tab_id')
        if not isinstance(tid, int) or tid in seen:
            continue
        seen.add(tid)
        page = state.pages.get(tid) or ExtensionPage(ctx, tid)  # type: ignore[arg-type]
        page._remember(url=t.get('url', ''), title=t.get('title', ''))
        state.pages[tid] = page
        pages.append(page)
        if t.get('active') and active is None:
            active = page
    for tid in [t for t in state.pages if t not in seen]:
        state.pages[tid]._closed = True
        del state.pages[tid]
    ctx.session.context.pages[:] = pages
    if ctx.agent_current_page is not None and ctx.agent_current_page.tab_id not in seen:
        ctx.agent_current_page = None
    # The agent's current tab is not chosen here: the bridge leases the active tab to a session on
    # its first tab action, and that action's state names the tab.
    ctx.human_current_page = active or ctx.human_current_page
    return pages


def tab_infos(ctx: 'ContextSurface', pages: list[ExtensionPage]) -> list:
    """browser_use's TabInfo list (page_id = position in the tab strip)."""
    if not pages and ctx.agent_current_page is not None:
        pages = [ctx.agent_current_page]
    return [TabInfo(page_id=i, url=p.url, title=p._title) for i, p in enumerate(pages)]
