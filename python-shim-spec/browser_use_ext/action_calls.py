"""One protocol action for the shim's BrowserContext: (re)connects when needed, asks for the state
after the action as a delta against the tab's last one and rebuilds it (README "Deltas"), keeps the
page list in step (a tab the bridge leased, a tab the action opened), raises ActionFailed on error."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Optional

from .downloads import deliver as deliver_download
from .state_delta import StateDeltaError, apply_state_delta
from .transport import ActionFailed, BridgeError

if TYPE_CHECKING:
    from .session_state import SessionState

logger = logging.getLogger(__name__)


async def call_action(state: 'SessionState', action: str, params: dict, tab_id: Optional[int] = None,
                      timeout_ms: Optional[int] = None) -> dict:
    ctx = state.context
    await ctx.get_session()
    if ctx.conn is not None and ctx.conn.ended is not None:
        # The bridge ended the connection for good (the person disconnected this agent, or a
        # protocol version mismatch): do not connect again behind the person's back.
        raise BridgeError(str(ctx.conn.ended), ctx.conn.ended.code)
    if ctx.conn is None or not ctx.conn.is_open:
        # Closed for good (close() was called): open a new connection that resumes the same
        # bridge session by its token, so the leased tabs stay ours. Outages (bridge restart,
        # network blip) never get here: the connection reconnects by itself and calls wait.
        ctx.conn = await state.connect_again()
    assert ctx.conn is not None
    if tab_id is None:
        tab_id = ctx.current_tab_id
    r = await _run(state, action, params, tab_id, timeout_ms)
    if action not in _BROWSER_LEVEL and tab_id == ctx.current_tab_id and tab_id not in state.held_tabs and _held_by_another_agent(r):
        # Several agents on one Browser() (browser_use's parallel_agents.py): on Playwright each new
        # context gets a page of its own. Here the first agent takes the person's active tab; one that
        # starts while another agent holds it (or took it first) works in a new tab of its own.
        opened = await ctx.conn.call('open_tab', {}, tab_id=None)
        new_tab = ((opened.get('outcome_details') or {}).get('result') or {}).get('tab_id')
        if opened.get('status') == 'success' and isinstance(new_tab, int):
            logger.info('The active tab belongs to another agent, so this agent works in a new tab of its own (tab %s).', new_tab)
            state.held_tabs.add(new_tab)
            ctx.agent_current_page = ctx.human_current_page = state.page_for(new_tab, url='about:blank')
            tab_id = new_tab
            r = await _run(state, action, params, tab_id, timeout_ms)
    return _finish(state, action, tab_id, r)


# Actions that act on the browser rather than on a tab: no tab is handed over for them.
_BROWSER_LEVEL = frozenset({'list_tabs', 'open_tab', 'get_cookies'})


def _held_by_another_agent(r: dict) -> bool:
    """The bridge refused the tab: another agent session holds it."""
    return r.get('status') != 'success' and (r.get('error_info') or {}).get('error_code') == 'TAB_NOT_LEASED'


async def _run(state: 'SessionState', action: str, params: dict, tab_id: Optional[int], timeout_ms: Optional[int]) -> dict:
    ctx = state.context
    assert ctx.conn is not None
    # The state after the action as a delta against this tab's last action state (README "Deltas").
    base = state.action_bases.get(tab_id) if tab_id is not None and action != 'get_state' else None
    since = base.get('state_id') if base is not None else None
    r = await ctx.conn.call(
        action, params, tab_id=tab_id, timeout_ms=timeout_ms or getattr(ctx.browser.config, 'action_timeout_ms', None), state_since=since
    )
    delta = r.get('state_delta')
    if isinstance(delta, dict) and base is not None and r.get('new_simplified_state') is None:
        try:
            r['new_simplified_state'] = apply_state_delta(base, delta)
        except StateDeltaError as e:
            logger.warning('state delta not applicable (%s); the next action takes a full state', e)
    return r


def _finish(state: 'SessionState', action: str, tab_id: Optional[int], r: dict) -> dict:
    """Keeps the context in step with an action's answer; raises ActionFailed on error."""
    ctx = state.context
    if action != 'get_state':
        got = r.get('new_simplified_state')
        if isinstance(got, dict) and isinstance(got.get('tab_id'), int) and got.get('state_id'):
            state.action_bases[got['tab_id']] = got
        elif tab_id is not None:
            state.action_bases.pop(tab_id, None)
    ran_in = r.get('tab_id')
    if isinstance(ran_in, int) and ctx.agent_current_page is None and action not in ('list_tabs', 'open_tab'):
        # The bridge leased this tab to the session on its first tab action, even if the action failed.
        ctx.agent_current_page = state.page_for(ran_in)
    deliver_download(state.download_arms, r)  # page.expect_download: the action's download, if it started one
    if r.get('status') != 'success':
        raise ActionFailed(r)
    if isinstance(ran_in, int):
        state.held_tabs.add(ran_in)  # the bridge leases a tab to the session an action succeeded in
    st = r.get('new_simplified_state')
    if isinstance(st, dict):
        state.note_state(st)
    new_tab = (r.get('outcome_details') or {}).get('new_tab_id')
    if isinstance(new_tab, int):
        state.page_for(new_tab)
    return r
