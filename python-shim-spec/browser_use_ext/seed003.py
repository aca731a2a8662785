"""Seed 003 ("Action Execution Step"): the executor layer as one Python call.

    from browser_use_ext.seed003 import dom_snapshot, execute_step

    async with BridgeConnection() as conn:
        snap = await dom_snapshot(conn)
        out = await execute_step(conn, {'main_goal': ..., 'plan_step': 'Click Submit',
                                        'dom_snapshot': snap['dom_snapshot'], 'url': snap['url'],
                                        'allowed_tools': ['click', 'type']},
                                 {'tool': 'click', 'args': {'role': 'button', 'name': 'Submit'}})

Without the tool (``execute_step(conn, step_input)``) the tool is chosen from plan_step by the seed's
Tool Selection (``select_tool``: the Tool Inventory's triggers, targets grounded in dom_snapshot by
role and accessible name), as bridge/agents/step-executor/tool-selection.ts does.

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


# --- Tool Selection (seed 003): the same rules as bridge/agents/step-executor/tool-selection.ts ----------

_KEYS = {
    'enter': 'Enter', 'return': 'Enter', 'escape': 'Escape', 'esc': 'Escape', 'tab': 'Tab', 'backspace': 'Backspace',
    'delete': 'Delete', 'space': 'Space', 'home': 'Home', 'end': 'End', 'page up': 'PageUp', 'pageup': 'PageUp',
    'page down': 'PageDown', 'pagedown': 'PageDown', 'arrow up': 'ArrowUp', 'arrowup': 'ArrowUp', 'up arrow': 'ArrowUp',
    'arrow down': 'ArrowDown', 'arrowdown': 'ArrowDown', 'down arrow': 'ArrowDown', 'arrow left': 'ArrowLeft',
    'arrowleft': 'ArrowLeft', 'left arrow': 'ArrowLeft', 'arrow right': 'ArrowRight', 'arrowright': 'ArrowRight',
    'right arrow': 'ArrowRight',
}
_ROLE_WORDS = [
    (r'\bbuttons?\b', ['button']), (r'\blinks?\b', ['link']), (r'\bcheck ?box(es)?\b', ['checkbox']), (r'\bradio\b', ['radio']),
    (r'\btabs?\b', ['tab']), (r'\bmenu ?items?\b', ['menuitem']), (r'\boptions?\b', ['option']),
    (r'\b(field|box|input|textbox)\b', ['textbox', 'searchbox', 'combobox']),
]
_CLICKABLE = {'button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'option', 'switch', 'combobox', 'textbox', 'searchbox'}
_FIELDS = {'textbox', 'searchbox', 'combobox'}
_FILLER = set(('a an the to of on in into at for from with and or then this that it its my your page site '
               'click select press tap choose check uncheck toggle open go visit type enter fill button link field box input '
               'textbox checkbox tab menu item option radio').split())
_CLICK_VERBS = r'\b(click|select|press|tap|choose|check|uncheck|toggle)\b'


def _norm(s: str) -> str:
    return re.sub(r'\s+', ' ', s).strip().lower()


def _words(s: str) -> list[str]:
    return [w for w in re.split(r'[^\w]+|_', _norm(s)) if len(w) > 1 and w not in _FILLER]


def _trim_url(u: str) -> str:
    return re.sub(r'[.,;:!?)\]]+$', '', u)


def _url_in(step: str) -> Optional[str]:
    m = re.search(r'\b([a-z][a-z0-9+.-]*://[^\s"\'<>]+|about:[a-z-]+|data:[^\s"\'<>]+)', step, re.I)
    if m:
        return _trim_url(m.group(1))
    m = re.search(r'(?:^|\s)((?:localhost|(?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?:/[^\s"\'<>]*)?)', step, re.I)
    return _trim_url(m.group(1)) if m else None


def _quoted(step: str) -> list[str]:
    out = []
    for m in re.finditer(r'"([^"]+)"|“([^”]+)”|\'([^\']+)\'', step):
        t = (m.group(1) or m.group(2) or m.group(3) or '').strip()
        if t:
            out.append(t)
    return out


def _nodes(tree: Any) -> list[dict]:
    out: list[dict] = []

    def walk(n: Any) -> None:
        if not isinstance(n, dict):
            return
        if isinstance(n.get('role'), str) and isinstance(n.get('name'), str):
            out.append(n)
        for c in n.get('children') or []:
            walk(c)

    walk(tree)
    return out


def _ground(step: str, tree: Any, roles: set) -> dict:
    hinted = [r for pattern, rs in _ROLE_WORDS if re.search(pattern, step, re.I) for r in rs]
    candidates = [n for n in _nodes(tree) if n['role'] in roles and n['name'].strip()]
    narrowed = [n for n in candidates if n['role'] in hinted] if hinted else candidates
    pool = narrowed or candidates
    q = [_norm(x) for x in _quoted(step)]
    matches = [n for n in pool if _norm(n['name']) in q] if q else []
    if not matches:
        s = _norm(step)
        in_step = [n for n in pool if _norm(n['name']) in s]
        longest = max([len(_norm(n['name'])) for n in in_step], default=0)
        matches = [n for n in in_step if len(_norm(n['name'])) == longest]
    if not matches:
        said = set(_words(step))

        def score(n: dict) -> int:
            return len([w for w in _words(n['name']) if w in said])

        best = max([score(n) for n in pool], default=0)
        if best > 0:
            matches = [n for n in pool if score(n) == best]
    if not matches:
        return {'error_type': 'element_not_found',
                'message': f'No element of dom_snapshot is named in the step "{step}". Name the element as dom_snapshot does '
                           '(its accessible name), or take a fresh snapshot.'}
    if len(matches) > 1:
        names = list(dict.fromkeys(f'{n["role"]} "{n["name"]}"' for n in matches))
        return {'error_type': 'ambiguous_step',
                'message': f'The step "{step}" fits {len(matches)} elements of dom_snapshot ({", ".join(names)}); the step must say which.'}
    return {'node': matches[0]}


def _typed_text(step: str) -> Optional[str]:
    q = _quoted(step)
    if q:
        return q[0]
    with_m = re.search(r'\bwith\s+(.+?)\s*\.?$', step, re.I)
    if re.search(r'\bfill\b', step, re.I) and with_m:
        return with_m.group(1)
    m = re.search(r'\b(?:type|enter|fill in|fill)\s+(.+?)(?:\s+(?:in|into|on)\s+.+)?\s*\.?$', step, re.I)
    return m.group(1) if m else None


def _search_query(step: str) -> Optional[str]:
    q = _quoted(step)
    if q:
        return q[0]
    where = (r'\s+(?:on|in|at|using|with)\s+(?:google|bing|duckduckgo|the (?:site|page|web)|this (?:site|page)|'
             r'[a-z0-9-]+\.[a-z.]{2,})\s*\.?$')
    m = re.search(r'\b(?:search(?: for)?|look up)\s+(.+?)\s*\.?$', re.sub(where, '', step, flags=re.I), re.I)
    return m.group(1) if m else None


def _key_in(step: str) -> Optional[str]:
    m = re.search(r'\b(?:press|hit|tap)\s+(?:the\s+)?([a-z]+(?: (?:up|down|left|right|arrow))?)(?:\s+key)?\b', step, re.I)
    if not m:
        return None
    word = m.group(1).lower()
    return _KEYS.get(word) or _KEYS.get(word.split(' ')[0])


def select_tool(plan_step: str, dom_snapshot: Any) -> dict:
    """Seed 003's Tool Selection: {'ok': True, 'call': {'tool', 'args'}} or {'ok': False, 'tool', 'error_type', 'message'}."""
    step = plan_step.strip()
    url = _url_in(step)
    if url and re.search(r'\b(go to|go back to|open|visit|navigate|load|browse to|head to)\b', step, re.I):
        return {'ok': True, 'call': {'tool': 'navigate', 'args': {'url': url}}}
    if re.search(r'\bwait\b', step, re.I):
        n = re.search(r'(\d+)\s*(?:s\b|sec|secs|second|seconds)?', step, re.I)
        return {'ok': True, 'call': {'tool': 'wait', 'args': {'seconds': int(n.group(1)) if n else 2}}}
    if re.search(r'\bscroll\b', step, re.I):
        direction = 'up' if re.search(r'\b(up|top|back up)\b', step, re.I) else 'down'
        return {'ok': True, 'call': {'tool': 'scroll', 'args': {'direction': direction}}}
    key = _key_in(step)
    if key and not re.search(r'\bbutton\b', step, re.I):
        return {'ok': True, 'call': {'tool': 'press_key', 'args': {'key': key}}}
    if re.search(r'\b(search for|look up|search)\b', step, re.I) and not re.search(r'\bsearch (box|field|bar|button)\b', step, re.I):
        query = _search_query(step)
        if not query:
            return {'ok': False, 'tool': 'search', 'error_type': 'ambiguous_step',
                    'message': f'The step "{step}" says search but not for what.'}
        return {'ok': True, 'call': {'tool': 'search', 'args': {'query': query}}}
    if re.search(r'\b(type|enter|fill)\b', step, re.I):
        text = _typed_text(step)
        if text is None:
            return {'ok': False, 'tool': 'type', 'error_type': 'ambiguous_step', 'message': f'The step "{step}" says type but not what.'}
        field = _ground(step.replace(text, ' ', 1), dom_snapshot, _FIELDS)
        args = {'text': text, 'role': field['node']['role'], 'name': field['node']['name']} if 'node' in field else {'text': text}
        return {'ok': True, 'call': {'tool': 'type', 'args': args}}
    if re.search(_CLICK_VERBS, step, re.I) or re.search(r'\b(open|go to|visit)\b', step, re.I):
        target = _ground(step, dom_snapshot, _CLICKABLE)
        if 'node' not in target:
            if not re.search(_CLICK_VERBS, step, re.I):
                return {'ok': False, 'tool': 'navigate', 'error_type': 'ambiguous_step',
                        'message': f'The step "{step}" names no URL and no element to open.'}
            return {'ok': False, 'tool': 'click', **target}
        return {'ok': True, 'call': {'tool': 'click', 'args': {'role': target['node']['role'], 'name': target['node']['name']}}}
    return {'ok': False, 'tool': '', 'error_type': 'ambiguous_step',
            'message': f'No tool fits the step "{step}": it should say what to do as the seed\'s triggers do (go to/open/visit a URL, '
                       'click/select, type/enter/fill, search for/look up, scroll, press a key, wait).'}


_WEB_SCHEMES = {'http', 'https', 'file', 'about', 'data'}


def _not_web(url: str) -> Optional[str]:
    """Why a URL is no web page the executor may load (chrome://settings, view-source:, ...), or None."""
    m = re.match(r'([a-z][a-z0-9+.-]*):', url.strip(), re.I)
    if not m or m.group(1).lower() in _WEB_SCHEMES or re.match(r'[a-z0-9.-]+:\d+(?:[/?#]|$)', url.strip(), re.I):
        return None
    scheme = m.group(1).lower()
    return (f'{url} is not a web page: {scheme}: pages are the browser\'s own or not pages at all, and agents never open them. '
            'Give an http:// or https:// address.')


async def execute_step(conn: BridgeConnection, step_input: dict, tool_call: Optional[dict] = None,
                       tab_id: Optional[int] = None) -> dict:
    """Runs one plan step: the caller's tool, else the one select_tool picks from plan_step. Failures are reported, never raised."""
    empty = {'url': None, 'role': None, 'name': None, 'text': None, 'direction': None, 'key': None, 'seconds': None}
    if tool_call is None:
        tree = step_input.get('dom_snapshot') or {}
        if not tree:
            try:
                tree = (await dom_snapshot(conn, tab_id))['dom_snapshot']
            except BridgeError as e:
                return {'action': '', 'args': empty, 'status': 'failure', 'error_type': 'unknown',
                        'message': f'No dom_snapshot was given and the current page could not be read: {e}'}
        picked = select_tool(str(step_input.get('plan_step') or ''), tree)
        if not picked['ok']:
            return {'action': picked['tool'], 'args': empty, 'status': 'failure', 'error_type': picked['error_type'],
                    'message': picked['message']}
        tool_call = picked['call']
        step_input = {**step_input, 'dom_snapshot': tree}
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
            blocked = _not_web(str(a['url']))
            if blocked:
                return out('failure', 'navigation_blocked', blocked)
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
            if a.get('role') and a.get('name'):
                # The field the step names (role and accessible name from dom_snapshot).
                args['role'], args['name'] = a['role'], a['name']
                return from_result(await act('type', {'role': a['role'], 'name': a['name'], 'exact': True, 'text': a['text']}),
                                   f'Typed "{a["text"]}" into {a["role"]} "{a["name"]}".')
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
