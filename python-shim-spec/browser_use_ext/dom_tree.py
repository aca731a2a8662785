"""Rebuilds browser_use's element tree (DOMElementNode/DOMTextNode) from a protocol state.

Preferred source: ``state.dom_tree`` (browser_use's element tree, get_state include_dom_tree=true). The extension
builds it by the rules of browser_use's own buildDomTree.js (the installed version's, get_state
dom_tree_flavor), so the real ``clickable_elements_to_string`` prints the lines browser_use on
Playwright prints, with the same 0-based ``highlight_index`` (known differences in
MIGRATION.md "Prompt parity with browser_use on Playwright"). When a bridge/extension does not send
``dom_tree``, a flat tree (body -> one node per actionable element) is built from
``actionable_elements``: the protocol ``index`` is 1-based (actionable_elements numbering) and is shifted to browser_use's
0-based numbering; nesting and xpaths are approximations (documented in SPEC.md).
"""
from __future__ import annotations

from typing import Any, Optional

from .compat import DOMElementNode, DOMTextNode


def _flavor() -> str:
    """Which buildDomTree.js rules the installed browser_use uses: read from its own file (0.1.48's
    has isElementDistinctInteraction and the cursor rule; 0.1.40's has neither). Without browser_use:
    0.1.48's."""
    try:
        from importlib import resources

        js = resources.files('browser_use.dom').joinpath('buildDomTree.js').read_text(encoding='utf-8')
    except Exception:
        return '0.1.48'
    return '0.1.48' if 'isElementDistinctInteraction' in js else '0.1.40'


DOM_TREE_FLAVOR = _flavor()

# Attribute names the shim sets on browser_use's node objects (dataclasses without __slots__).
ELEMENT_ID_ATTR = '_bux_element_id'
TAB_ID_ATTR = '_bux_tab_id'


def element_id_of(node: Any) -> Optional[str]:
    return getattr(node, ELEMENT_ID_ATTR, None)


def _element(raw: dict, parent: Any, tab_id: Optional[int], selector_map: dict) -> Any:
    node = DOMElementNode(
        tag_name=str(raw.get('tag', '')).lower(),
        xpath=str(raw.get('xpath', '')),
        attributes=dict(raw.get('attributes') or {}),
        children=[],
        is_visible=bool(raw.get('is_visible', True)),
        is_interactive=bool(raw.get('is_interactive', False)),
        is_top_element=bool(raw.get('is_top_element', False)),
        is_in_viewport=bool(raw.get('is_in_viewport', False)),
        shadow_root=bool(raw.get('shadow_root', False)),
        highlight_index=raw.get('highlight_index'),
        parent=parent,
    )
    if raw.get('element_id'):
        setattr(node, ELEMENT_ID_ATTR, raw['element_id'])
        setattr(node, TAB_ID_ATTR, tab_id)
    if node.highlight_index is not None:
        selector_map[node.highlight_index] = node
    for child in raw.get('children') or []:
        if child.get('kind') == 'text':
            node.children.append(DOMTextNode(text=str(child.get('text', '')), is_visible=bool(child.get('is_visible', False)), parent=node))
        else:
            node.children.append(_element(child, node, tab_id, selector_map))
    return node


def empty_body() -> Any:
    # What DomService returns for about:blank (reference section 1.6).
    return DOMElementNode(tag_name='body', xpath='', attributes={}, children=[], is_visible=False, parent=None)


def build_tree(state: dict) -> tuple[Any, dict]:
    """Returns (element_tree, selector_map) for a simplified_state dict."""
    tab_id = state.get('tab_id')
    selector_map: dict = {}
    if isinstance(state.get('dom_tree'), dict):
        root = _element(state['dom_tree'], None, tab_id, selector_map)
        return root, selector_map
    root = DOMElementNode(tag_name='body', xpath='/body', attributes={}, children=[], is_visible=True, parent=None)
    root.is_top_element = True
    root.is_in_viewport = True
    counters: dict[str, int] = {}
    for position, el in enumerate(state.get('actionable_elements') or []):
        tag = str(el.get('tag', 'div')).lower()
        counters[tag] = counters.get(tag, 0) + 1
        index = int(el.get('index', position + 1)) - 1  # protocol 1-based -> browser_use 0-based
        raw = {
            'tag': tag,
            'xpath': el.get('xpath') or f'html/body/{tag}[{counters[tag]}]',
            'attributes': el.get('attributes') or {},
            'is_visible': el.get('is_visible', True),
            'is_interactive': True,
            'is_top_element': el.get('is_top_element', True),
            'is_in_viewport': el.get('is_in_viewport', True),
            'shadow_root': False,
            'highlight_index': index,
            'element_id': el.get('id'),
            'children': [{'kind': 'text', 'text': el['text_content'], 'is_visible': True}] if el.get('text_content') else [],
        }
        root.children.append(_element(raw, root, tab_id, selector_map))
    return root, selector_map


def iter_elements(node: Any):
    yield node
    for child in getattr(node, 'children', []) or []:
        if isinstance(child, DOMElementNode):
            yield from iter_elements(child)
