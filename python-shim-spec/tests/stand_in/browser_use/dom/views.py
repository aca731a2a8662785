"""dom/views.py (0.1.48), section 1.5; clickable_elements_to_string ported from section 1.8."""
from dataclasses import dataclass
from functools import cached_property
from typing import Optional


@dataclass(frozen=False)
class DOMBaseNode:
    is_visible: bool
    parent: Optional['DOMElementNode']


@dataclass(frozen=False)
class DOMTextNode(DOMBaseNode):
    text: str
    type: str = 'TEXT_NODE'

    def has_parent_with_highlight_index(self) -> bool:
        current = self.parent
        while current is not None:
            if current.highlight_index is not None:
                return True
            current = current.parent
        return False

    def is_parent_in_viewport(self) -> bool:
        return bool(self.parent and self.parent.is_in_viewport)

    def is_parent_top_element(self) -> bool:
        return bool(self.parent and self.parent.is_top_element)


@dataclass(frozen=False)
class DOMElementNode(DOMBaseNode):
    tag_name: str
    xpath: str
    attributes: dict
    children: list
    is_interactive: bool = False
    is_top_element: bool = False
    is_in_viewport: bool = False
    shadow_root: bool = False
    highlight_index: Optional[int] = None
    viewport_coordinates: object = None
    page_coordinates: object = None
    viewport_info: object = None
    is_new: Optional[bool] = None

    @cached_property
    def hash(self):
        from browser_use.dom.history_tree_processor.service import HistoryTreeProcessor

        return HistoryTreeProcessor._hash_dom_element(self)

    def get_all_text_till_next_clickable_element(self, max_depth: int = -1) -> str:
        parts = []

        def collect(node, depth):
            if max_depth != -1 and depth > max_depth:
                return
            if isinstance(node, DOMElementNode) and node is not self and node.highlight_index is not None:
                return
            if isinstance(node, DOMTextNode):
                parts.append(node.text)
            elif isinstance(node, DOMElementNode):
                for child in node.children:
                    collect(child, depth + 1)

        collect(self, 0)
        return '\n'.join(parts).strip()

    def clickable_elements_to_string(self, include_attributes=None) -> str:
        lines = []

        def process(node, depth):
            next_depth = depth
            indent = '\t' * depth
            if isinstance(node, DOMElementNode):
                if node.highlight_index is not None:
                    next_depth += 1
                    text = node.get_all_text_till_next_clickable_element()
                    attrs_str = None
                    if include_attributes:
                        attrs = {k: str(v) for k, v in node.attributes.items() if k in include_attributes}
                        if node.tag_name == attrs.get('role'):
                            del attrs['role']
                        if attrs.get('aria-label') and attrs['aria-label'].strip() == text.strip():
                            del attrs['aria-label']
                        if attrs.get('placeholder') and attrs['placeholder'].strip() == text.strip():
                            del attrs['placeholder']
                        if attrs:
                            attrs_str = ' '.join(f"{k}='{v}'" for k, v in attrs.items())
                    line = indent + (f'*[{node.highlight_index}]*' if node.is_new else f'[{node.highlight_index}]') + f'<{node.tag_name}'
                    if attrs_str:
                        line += f' {attrs_str}'
                    if text:
                        if not attrs_str:
                            line += ' '
                        line += f'>{text}'
                    elif not attrs_str:
                        line += ' '
                    line += ' />'
                    lines.append(line)
                for child in node.children:
                    process(child, next_depth)
            elif isinstance(node, DOMTextNode):
                if not node.has_parent_with_highlight_index() and node.parent and node.parent.is_visible and node.parent.is_top_element:
                    lines.append(f'{indent}{node.text}')

        process(self, 0)
        return '\n'.join(lines)


@dataclass
class DOMState:
    element_tree: DOMElementNode
    selector_map: dict
