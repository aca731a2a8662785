"""Rebuilds browser_use's element tree (DOMElementNode/DOMTextNode) from a protocol state.

Preferred source: ``state.dom_tree`` (contract F, get_state include_dom_tree=true), which keeps
browser_use's node order, xpaths and tag paths, so ``clickable_elements_to_string`` and the hashes
match what 0.1.48 computed under Playwright. When a bridge/extension does not send ``dom_tree`` yet,
a flat tree (body -> one node per actionable element) is built from ``actionable_elements``: the
indices and texts are right, but nesting and xpaths are approximations (documented in SPEC.md).

Indices: ``highlight_index`` is the protocol ``index`` (1-based, contract B); browser_use counted
from 0. The Agent only uses indices as opaque keys, so nothing depends on the base.

Labels: 0.1.48's buildDomTree.js indexed every visible, top, in-viewport ``<label>`` (isInteractiveElement
returns true for tag label; reference section 1.12), while the snapshot lists a label only when it
operates a hidden control (issue 3). The snapshot keeps rendered labels in ``dom_tree``, and
``_index_labels`` gives them indices here, applies 0.1.48's nesting rule below them (an indexed
element inside an indexed one keeps its index only if it is a "distinct interaction") and renumbers
all indices in document order. Such a label has no element_id: actions target it by CSS selector
(``SELECTOR_ONLY_ATTR``), as 0.1.48 located elements.
"""
from __future__ import annotations

from typing import Any, Optional

from .compat import DOMElementNode, DOMTextNode

# Attribute names the shim sets on browser_use's node objects (dataclasses without __slots__).
ELEMENT_ID_ATTR = '_bux_element_id'
TAB_ID_ATTR = '_bux_tab_id'
# Set on labels the shim indexed itself: the action target is a CSS selector, or the given element id
# of the control a label wraps when the label is inside a shadow root or iframe (a selector there is
# relative to that boundary and cannot be resolved from the top document).
SELECTOR_ONLY_ATTR = '_bux_selector_only'
FALLBACK_ELEMENT_ID_ATTR = '_bux_fallback_element_id'

# buildDomTree.js 0.1.48 isElementDistinctInteraction (reference section 1.12), from attributes.
_DISTINCT_TAGS = {'a', 'button', 'input', 'select', 'textarea', 'summary', 'details', 'label', 'option', 'iframe'}
_DISTINCT_ROLES = {
    'button', 'link', 'menuitem', 'menuitemradio', 'menuitemcheckbox', 'radio', 'checkbox', 'tab', 'switch',
    'slider', 'spinbutton', 'combobox', 'searchbox', 'textbox', 'listbox', 'option', 'scrollbar',
}


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


def _is_distinct_interaction(node: Any) -> bool:
    attrs = node.attributes or {}
    if node.tag_name in _DISTINCT_TAGS or (attrs.get('role') or '').strip().lower() in _DISTINCT_ROLES:
        return True
    if attrs.get('contenteditable') in ('', 'true', 'plaintext-only'):
        return True
    return any(a in attrs for a in ('data-testid', 'data-cy', 'data-test', 'onclick'))


def _label_was_indexed(node: Any) -> bool:
    """Would buildDomTree.js 0.1.48 have given this unlisted <label> a highlight index?"""
    attrs = node.attributes or {}
    return (node.tag_name == 'label' and node.highlight_index is None and node.is_visible and node.is_top_element
            and node.is_in_viewport and 'disabled' not in attrs and 'readonly' not in attrs)


def _index_labels(root: Any, selector_map: dict, tab_id: Optional[int]) -> None:
    """Indexes labels as 0.1.48 did and renumbers in document order (no-op when there is none)."""
    if not any(_label_was_indexed(n) for n in iter_elements(root)):
        return
    counter = 1
    selector_map.clear()

    def visit(node: Any, under_label: bool, under_boundary: bool) -> None:
        nonlocal counter
        if node.highlight_index is None and _label_was_indexed(node):
            setattr(node, SELECTOR_ONLY_ATTR, True)
            setattr(node, TAB_ID_ATTR, tab_id)
            node.is_interactive = True
            node.highlight_index = -1  # numbered below
            if under_boundary:
                control = next((c for c in iter_elements(node) if element_id_of(c)), None)
                if control is not None:
                    setattr(node, FALLBACK_ELEMENT_ID_ATTR, element_id_of(control))
        elif node.highlight_index is not None and under_label and not _is_distinct_interaction(node):
            # 0.1.48: inside an indexed element (here a label the snapshot did not list) an element
            # keeps an index only if it is a distinct interaction.
            node.highlight_index = None
        if node.highlight_index is not None:
            node.highlight_index = counter
            selector_map[counter] = node
            counter += 1
        boundary = under_boundary or node.shadow_root or node.tag_name in ('iframe', 'frame')
        for child in node.children:
            if isinstance(child, DOMElementNode):
                visit(child, under_label or getattr(node, SELECTOR_ONLY_ATTR, False), boundary)

    visit(root, False, False)


def _empty_body() -> Any:
    # What DomService returns for about:blank (reference section 1.6).
    return DOMElementNode(tag_name='body', xpath='', attributes={}, children=[], is_visible=False, parent=None)


def build_tree(state: dict) -> tuple[Any, dict]:
    """Returns (element_tree, selector_map) for a simplified_state dict."""
    tab_id = state.get('tab_id')
    selector_map: dict = {}
    if isinstance(state.get('dom_tree'), dict):
        root = _element(state['dom_tree'], None, tab_id, selector_map)
        _index_labels(root, selector_map, tab_id)
        return root, selector_map
    root = DOMElementNode(tag_name='body', xpath='/body', attributes={}, children=[], is_visible=True, parent=None)
    root.is_top_element = True
    root.is_in_viewport = True
    counters: dict[str, int] = {}
    for position, el in enumerate(state.get('actionable_elements') or []):
        tag = str(el.get('tag', 'div')).lower()
        counters[tag] = counters.get(tag, 0) + 1
        index = el.get('index', position + 1)
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
