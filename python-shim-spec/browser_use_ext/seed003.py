"""Seed 003 ("Action Execution Step"): the executor layer as one Python call.

    from browser_use_ext.seed003 import dom_snapshot, execute_step

    async with BridgeConnection() as conn:
        snap = await dom_snapshot(conn)
        out = await execute_step(conn, {'main_goal': ..., 'plan_step': 'Click Submit',
                                        'dom_snapshot': snap['dom_snapshot'], 'url': snap['url'],
                                        'allowed_tools': ['click', 'type']},
                                 {'tool': 'click', 'args': {'role': 'button', 'name': 'Submit'}})

Output is exactly the seed's schema: {action, args{url, role, name, text, direction, key, seconds},
status, error_type, message}. One browser action per call, no retries (fail fast); clicks are
grounded in dom_snapshot. Same contract and error_type table as bridge/agents/step-executor/executor.ts.
"""
from __future__ import annotations

import re
from typing import Any, Optional

from ._protocol_codes import ErrorCode
from .transport import BridgeConnection, BridgeError

TOOLS = ('navigate', 'click', 'type', 'search', 'scroll', 'press_key', 'wait')

# Our error codes -> seed 003 error_type; codes not listed are 'unknown' (the fallback layer decides).
ERROR_TYPE_BY_CODE: dict[str, str] = {
    ErrorCode.TARGET_ELEMENT_NOT_FOUND: 'element_not_found',
    ErrorCode.TARGET_ELEMENT_NOT_INTERACTABLE: 'element_not_found',
    ErrorCode.OPTION_NOT_FOUND: 'element_not_found',
    ErrorCode.AMBIGUOUS_TARGET: 'ambiguous_step',
    ErrorCode.INVALID_MESSAGE: 'ambiguous_step',
    ErrorCode.UNSUPPORTED_ACTION: 'tool_limit',
    ErrorCode.NOT_PERMITTED: 'tool_limit',
    ErrorCode.NAVIGATION_FAILED: 'navigation_blocked',
    ErrorCode.RESTRICTED_PAGE: 'navigation_blocked',
}


def error_type_of(code: Optional[str], tool: str) -> str:
    if not code:
        return 'unknown'
    if code == ErrorCode.NOT_PERMITTED and tool in ('navigate', 'search'):
        return 'navigation_blocked'
    return ERROR_TYPE_BY_CODE.get(code, 'unknown')


def ax_tree(state: dict) -> dict:
    """The accessibility tree seed 003 expects (Playwright's accessibility.snapshot() shape)."""
    root: dict[str, Any] = {'role': 'WebArea', 'name': state.get('title', ''), 'children': []}
    by_index: dict[int, dict] = {}
    texts = list(state.get('text_context') or [])
    ti = 0

    def flush(up_to: float) -> None:
        nonlocal ti
        while ti < len(texts) and texts[ti].get('after_index', float('inf')) <= up_to:
            t = texts[ti]
            ti += 1
            node = {'role': 'heading', 'name': t['text']} if t.get('role') == 'heading' else {'role': 'text', 'name': t['text']}
            if t.get('role') == 'heading' and t.get('level'):
                node['level'] = t['level']
            root['children'].append(node)

    flush(0)
    for i, el in enumerate(state.get('actionable_elements') or []):
        index = el.get('index', i + 1)
        states = el.get('states') or {}
        node: dict[str, Any] = {'role': el.get('role') or 'generic', 'name': el.get('name') or el.get('text_content') or ''}
        if el.get('current_value'):
            node['value'] = el['current_value']
        if 'checked' in states:
            node['checked'] = states['checked']
        if states.get('disabled'):
            node['disabled'] = True
        if states.get('focused'):
            node['focused'] = True
        by_index[index] = node
        parent = by_index.get(el['parent_index']) if 'parent_index' in el else None
        (parent.setdefault('children', []) if parent is not None else root['children']).append(node)
        flush(index)
    flush(float('inf'))
    return root


async def dom_snapshot(conn: BridgeConnection, tab_id: Optional[int] = None) -> dict:
    """{'dom_snapshot': <accessibility tree>, 'url': <page URL>} of the session's current tab."""
    r = await conn.call('get_state', {'viewport_expansion': -1}, tab_id)
    state = r.get('new_simplified_state')
    if r.get('status') != 'success' or not state:
        err = r.get('error_info') or {}
        raise BridgeError(err.get('message', 'get_state failed'), err.get('error_code', ErrorCode.COMMUNICATION_ERROR_WITH_TARGET))
    return {'dom_snapshot': ax_tree(state), 'url': state['url']}


def _find_nodes(tree: Any, role: str, name: str) -> list[dict]:
    want = name.strip().lower()
    found: list[dict] = []

    def walk(n: Any) -> None:
        if not isinstance(n, dict):
            return
        if n.get('role') == role and isinstance(n.get('name'), str) and n['name'].strip().lower() == want:
            found.append(n)
        for c in n.get('children') or []:
            walk(c)

    walk(tree)
    return found


async def execute_step(conn: BridgeConnection, step_input: dict, tool_call: dict, tab_id: Optional[int] = None) -> dict:
    """Runs the chosen tool for one plan step; browser failures are reported, never raised."""
    tool = str(tool_call.get('tool', ''))
    a = tool_call.get('args') or {}
    args: dict[str, Any] = {'url': None, 'role': None, 'name': None, 'text': None, 'direction': None, 'key': None, 'seconds': None}

    async def act(name: str, params: dict, timeout_ms: Optional[int] = None) -> dict:
        # No 15 s no-change watch (a seed 002 notion): the executor reports at once.
        return await conn.call(name, params, tab_id, timeout_ms=timeout_ms, settle={'no_change_timeout_ms': 0})

    def out(status: str, error_type: str, message: str) -> dict:
        return {'action': tool, 'args': args, 'status': status, 'error_type': error_type, 'message': message}

    def from_result(r: dict, ok: str) -> dict:
        if r.get('status') == 'success':
            return out('success', 'none', ok)
        err = r.get('error_info') or {}
        return out('failure', error_type_of(err.get('error_code'), tool), err.get('message') or f'{tool} failed')

    if tool not in TOOLS:
        return out('failure', 'tool_limit', f'Unknown tool "{tool}". The executor has: {", ".join(TOOLS)}.')
    allowed = list(step_input.get('allowed_tools') or [])
    if tool not in allowed:
        return out('failure', 'tool_limit', f'Tool "{tool}" is not in allowed_tools ({", ".join(allowed) or "none"}).')
    try:
        if tool == 'navigate':
            args['url'] = a.get('url')
            if not a.get('url'):
                return out('failure', 'ambiguous_step', 'navigate needs args.url.')
            return from_result(await act('navigate', {'url': a['url']}), f'Navigated to {a["url"]}.')
        if tool == 'click':
            args['role'], args['name'] = a.get('role'), a.get('name')
            if not a.get('role') or a.get('name') is None:
                return out('failure', 'ambiguous_step', 'click needs args.role and args.name from dom_snapshot.')
            name = a['name']
            snapshot = step_input.get('dom_snapshot') or {}
            if snapshot:
                matches = _find_nodes(snapshot, a['role'], a['name'])
                if not matches:
                    return out('failure', 'element_not_found', f'No {a["role"]} named "{a["name"]}" in dom_snapshot.')
                if len(matches) > 1:
                    return out('failure', 'ambiguous_step', f'{len(matches)} {a["role"]} elements are named "{a["name"]}" in '
                                                            'dom_snapshot; the step must say which.')
                name = matches[0]['name']
            return from_result(await act('click', {'role': a['role'], 'name': name, 'exact': True}), f'Clicked {a["role"]} "{name}".')
        if tool == 'type':
            args['text'] = a.get('text')
            if not isinstance(a.get('text'), str):
                return out('failure', 'ambiguous_step', 'type needs args.text.')
            s = await act('get_state', {'viewport_expansion': -1, 'max_text_chars': 0})
            focused = (s.get('new_simplified_state') or {}).get('active_element_id')
            if not focused:
                return out('failure', 'element_not_found', 'No focused field to type into. Click the field first (a separate step).')
            return from_result(await act('type', {'element_id': focused, 'text': a['text']}), f'Typed "{a["text"]}" into the focused '
                                                                                              'field.')
        if tool == 'search':
            query = a.get('query') or a.get('text')
            args['text'] = query
            if not query:
                return out('failure', 'ambiguous_step', 'search needs args.query.')
            s = await act('get_state', {'viewport_expansion': -1, 'max_text_chars': 0})
            els = (s.get('new_simplified_state') or {}).get('actionable_elements') or []
            boxes = [
                e
                for e in els
                if e.get('role') == 'searchbox'
                or (
                    e.get('role') in ('textbox', 'combobox')
                    and re.search(
                        'search',
                        f'{e.get("name", "")} {e.get("attributes", {}).get("placeholder", "")} {e.get("attributes", {}).get("type", "")}',
                        re.I,
                    )
                )
            ]
            if len(boxes) == 1:
                filled = await act('fill', {'element_id': boxes[0]['id'], 'value': query})
                if filled.get('status') != 'success':
                    return from_result(filled, '')
                return from_result(await act('press', {'element_id': boxes[0]['id'], 'key': 'Enter'}), f'Searched the page for "{query}".')
            return from_result(await act('search', {'query': query}), f'Searched Google for "{query}".')
        if tool == 'scroll':
            args['direction'] = a.get('direction')
            if a.get('direction') not in ('up', 'down'):
                return out('failure', 'ambiguous_step', 'scroll takes args.direction "up" or "down".')
            r = await act('scroll', {'direction': a['direction']})
            moved = ((r.get('outcome_details') or {}).get('result') or {}).get('moved')
            if r.get('status') == 'success' and moved is False:
                return out('success', 'none', f'Already at the {"bottom" if a["direction"] == "down" else "top"}; nothing moved.')
            return from_result(r, f'Scrolled {a["direction"]}.')
        if tool == 'press_key':
            args['key'] = a.get('key')
            if not a.get('key'):
                return out('failure', 'ambiguous_step', 'press_key needs args.key, e.g. "Enter".')
            return from_result(await act('press', {'key': a['key']}), f'Pressed {a["key"]}.')
        # wait
        seconds = a.get('seconds')
        args['seconds'] = seconds if isinstance(seconds, int) and not isinstance(seconds, bool) else None
        if args['seconds'] is None or not 0 <= seconds <= 60:
            return out('failure', 'ambiguous_step', 'wait takes args.seconds, an integer 0-60.')
        return from_result(await act('wait', {'ms': seconds * 1000}, timeout_ms=seconds * 1000 + 15_000), f'Waited {seconds} s.')
    except BridgeError as e:
        return out('failure', 'unknown', f'The browser could not be reached: {e}')
