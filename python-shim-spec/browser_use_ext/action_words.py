"""What a browser_use action did, in the words a person reads in the side panel's log ("Click 'Add to
cart'", "Type 'stapler' into 'Search'", "Open example.com", "Scroll down", "Done"), instead of the raw
action JSON (``click_element_by_index {"index": 3}``) that means nothing to them.

The one home of these words for ``serve`` (task_progress step_details.actions[].description); the
built-in agent's twin is bridge/agents/text-driver/titles.ts. The element is named by what the person
sees of it: its visible text from the state the agent acted on (browser_use's selector map), else its
label attributes. A typed value is named only for a field known not to be sensitive (no password, card
or one-time-code field, nothing the page redacted); a sensitive_data placeholder stays a placeholder,
and a value of the agent's sensitive_data is never written.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional
from urllib.parse import urlsplit

# task_progress step_details.actions[].description is at most this long (the schema's cap).
DESCRIPTION_MAX = 300
_SECRET = re.compile(r'<secret>(.*?)</secret>')
_LABEL_ATTRIBUTES = ('aria-label', 'placeholder', 'title', 'alt', 'name', 'value')
_SENSITIVE_AUTOCOMPLETE = re.compile(r'\b(cc-|one-time-code|current-password|new-password)')


def _clip(text: Any, n: int) -> str:
    t = ' '.join(str(text).split())
    return t if len(t) <= n else t[: n - 1].rstrip() + '…'


def is_sensitive(attributes: Optional[Mapping[str, Any]]) -> bool:
    """A field whose value must never be shown. Unknown (None) counts as sensitive."""
    if attributes is None:
        return True
    attrs = {str(k).lower(): str(v) for k, v in attributes.items()}
    if attrs.get('type', '').lower() == 'password' or _SENSITIVE_AUTOCOMPLETE.search(attrs.get('autocomplete', '').lower()):
        return True
    # The extension marks a redacted attribute value ([redacted:password], [redacted:payment_card] ...).
    return any('[redacted:' in v for v in attrs.values())


def element_label(attributes: Optional[Mapping[str, Any]], text: Optional[str] = None, tag: Optional[str] = None,
                  index: Any = None) -> str:
    """The element as the person sees it: 'its text', else 'its label', else the kind of element."""
    visible = _clip(text or '', 60)
    if not visible and attributes:
        for name in _LABEL_ATTRIBUTES:
            if name == 'value' and is_sensitive(attributes):
                continue
            value = attributes.get(name)
            if value and '[redacted:' not in str(value):
                visible = _clip(value, 60)
                break
    if visible:
        return f"'{visible}'"
    kinds = {'a': 'link', 'button': 'button', 'input': 'field', 'textarea': 'text box', 'select': 'dropdown', 'img': 'image'}
    kind = kinds.get((tag or '').lower())
    if kind:
        return f'the {kind}' + (f' [{index}]' if index is not None else '')
    return f'element {index}' if index is not None else 'an element'


def _where(url: Any) -> str:
    """A URL as a person names a place: host and path, without scheme, query or fragment (where tokens travel)."""
    try:
        parts = urlsplit(str(url))
    except ValueError:
        return _clip(url, 120)
    if not parts.netloc:
        return _clip(url, 120)
    path = parts.path if parts.path not in ('', '/') else ''
    return _clip(parts.netloc + path, 120)


def _typed(text: Any, label: str, sensitive: bool, secrets: Optional[Mapping[str, str]]) -> str:
    value = str(text or '')
    names = _SECRET.findall(value)
    if names:
        # The agent typed a sensitive_data placeholder: name the placeholder, never what it stands for.
        return f"Type the secret '{_clip(names[0], 40)}' into {label}"
    if sensitive or not value.strip() or any(s and s in value for s in (secrets or {}).values()):
        return f'Type into {label}'
    return f"Type '{_clip(value, 80)}' into {label}"


def describe(name: str, params: Any, label: Optional[str] = None, sensitive: bool = True,
             secrets: Optional[Mapping[str, str]] = None) -> str:
    """One action in plain words. label: element_label of the element it acts on (None: unknown);
    sensitive: whether that element may hold a secret; secrets: the agent's sensitive_data, whose values
    never appear."""
    p = params if isinstance(params, dict) else {}
    index = p.get('index')
    target = label or (f'element {index}' if index is not None else 'an element')
    words: str
    if name in ('click_element_by_index', 'click_element'):
        words = f'Click {target}'
    elif name == 'input_text':
        words = _typed(p.get('text'), target, sensitive, secrets)
    elif name == 'go_to_url':
        words = f'Open {_where(p.get("url"))}'
    elif name == 'open_tab':
        words = f'Open {_where(p.get("url"))} in a new tab'
    elif name == 'search_google':
        words = f"Search Google for '{_clip(p.get('query', ''), 80)}'"
    elif name == 'go_back':
        words = 'Go back'
    elif name in ('scroll_down', 'scroll_up'):
        words = 'Scroll down' if name == 'scroll_down' else 'Scroll up'
    elif name == 'scroll_to_text':
        words = f"Scroll to '{_clip(p.get('text', ''), 80)}'"
    elif name == 'send_keys':
        words = f'Press {_clip(p.get("keys", ""), 40)}'
    elif name == 'switch_tab':
        words = f'Switch to tab {p.get("page_id")}'
    elif name == 'close_tab':
        words = f'Close tab {p.get("page_id")}'
    elif name == 'extract_content':
        words = f"Read the page for '{_clip(p.get('goal', ''), 80)}'"
    elif name == 'get_dropdown_options':
        words = f'List the options of {target}'
    elif name == 'select_dropdown_option':
        words = f"Choose '{_clip(p.get('text', ''), 60)}' in {target}"
    elif name == 'wait':
        words = f'Wait {p.get("seconds", 3)} s'
    elif name == 'done':
        words = 'Give up: the goal was not reached' if p.get('success') is False else 'Done'
    elif name == 'step':
        words = 'The step failed before any action ran'
    else:
        words = _clip(str(name).replace('_', ' ').strip().capitalize() or 'Act', 80)
    for secret in (secrets or {}).values():
        if secret and len(secret) >= 3:
            words = words.replace(secret, '***')
    return words[:DESCRIPTION_MAX]


def history_element_words(element: Any, node: Any = None) -> tuple[Optional[str], bool]:
    """(label, sensitive) of the element an action acted on: ``element`` the history's DOMHistoryElement
    (attributes, tag, xpath, highlight_index), ``node`` the DOMElementNode of the state the agent saw,
    when it still has it (its visible text)."""
    if element is None:
        return None, True
    attributes = getattr(element, 'attributes', None)
    text = None
    if node is not None and getattr(node, 'xpath', None) == getattr(element, 'xpath', object()):
        try:
            text = node.get_all_text_till_next_clickable_element(max_depth=2)
        except Exception:
            text = None
    label = element_label(attributes, text, getattr(element, 'tag_name', None), getattr(element, 'highlight_index', None))
    return label, is_sensitive(attributes)
