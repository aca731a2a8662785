"""browser_use 0.1.48 data classes (browser/views.py, dom/views.py, dom/history_tree_processor,
agent/views.py ActionResult), reproduced with dataclasses so the shim works without pydantic.

The prompt text (``clickable_elements_to_string``) and the hashes (``HistoryTreeProcessor``) follow
the 0.1.48 algorithms exactly (reference section 1.8 and 1.5): the Agent compares them between steps.
"""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any, Optional

from ..css_selectors import enhanced_css_selector_for_element


class BrowserError(Exception):
    """Base class for all browser errors"""


class URLNotAllowedError(BrowserError):
    """Error raised when a URL is not allowed"""


@dataclass
class TabInfo:
    page_id: int
    url: str
    title: str
    parent_page_id: Optional[int] = None

    def model_dump(self) -> dict[str, Any]:
        return asdict(self)

    def __repr__(self) -> str:  # pydantic's repr, which the Agent prints into the prompt
        return f'TabInfo(page_id={self.page_id!r}, url={self.url!r}, title={self.title!r}, parent_page_id={self.parent_page_id!r})'


@dataclass
class HashedDomElement:
    branch_path_hash: str
    attributes_hash: str
    xpath_hash: str


@dataclass
class DOMHistoryElement:
    tag_name: str
    xpath: str
    highlight_index: Optional[int]
    entire_parent_branch_path: list[str]
    attributes: dict[str, str]
    shadow_root: bool = False
    css_selector: Optional[str] = None
    page_coordinates: Any = None
    viewport_coordinates: Any = None
    viewport_info: Any = None

    def to_dict(self) -> dict:
        return {
            'tag_name': self.tag_name,
            'xpath': self.xpath,
            'highlight_index': self.highlight_index,
            'entire_parent_branch_path': self.entire_parent_branch_path,
            'attributes': self.attributes,
            'shadow_root': self.shadow_root,
            'css_selector': self.css_selector,
            'page_coordinates': None,
            'viewport_coordinates': None,
            'viewport_info': None,
        }


@dataclass(frozen=False)
class DOMBaseNode:
    is_visible: bool
    # Use None as default and set parent later to avoid circular reference issues
    parent: Optional['DOMElementNode']

    def __json__(self) -> dict:
        raise NotImplementedError('DOMBaseNode is an abstract class')


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
        if self.parent is None:
            return False
        return self.parent.is_in_viewport

    def is_parent_top_element(self) -> bool:
        if self.parent is None:
            return False
        return self.parent.is_top_element

    def __json__(self) -> dict:
        return {'text': self.text, 'type': self.type}


@dataclass(frozen=False)
class DOMElementNode(DOMBaseNode):
    """xpath: relative to the last shadow-root/iframe boundary, no leading slash ("html/body/div[2]/a")."""

    tag_name: str
    xpath: str
    attributes: dict[str, str]
    children: list[DOMBaseNode]
    is_interactive: bool = False
    is_top_element: bool = False
    is_in_viewport: bool = False
    shadow_root: bool = False
    highlight_index: Optional[int] = None
    viewport_coordinates: Any = None
    page_coordinates: Any = None
    viewport_info: Any = None
    is_new: Optional[bool] = None

    def __json__(self) -> dict:
        return {
            'tag_name': self.tag_name,
            'xpath': self.xpath,
            'attributes': self.attributes,
            'is_visible': self.is_visible,
            'is_interactive': self.is_interactive,
            'is_top_element': self.is_top_element,
            'is_in_viewport': self.is_in_viewport,
            'shadow_root': self.shadow_root,
            'highlight_index': self.highlight_index,
            'viewport_coordinates': None,
            'page_coordinates': None,
            'children': [child.__json__() for child in self.children],
        }

    def __repr__(self) -> str:
        tag_str = f'<{self.tag_name}'
        for key, value in self.attributes.items():
            tag_str += f' {key}="{value}"'
        tag_str += '>'
        extras = []
        if self.is_interactive:
            extras.append('interactive')
        if self.is_top_element:
            extras.append('top')
        if self.shadow_root:
            extras.append('shadow-root')
        if self.highlight_index is not None:
            extras.append(f'highlight:{self.highlight_index}')
        if self.is_in_viewport:
            extras.append('in-viewport')
        if extras:
            tag_str += f' [{", ".join(extras)}]'
        return tag_str

    # dataclass(eq=True) sets __hash__ to None; browser_use's cached_property needs no hashing.
    @cached_property
    def hash(self) -> HashedDomElement:
        return HistoryTreeProcessor._hash_dom_element(self)

    def get_all_text_till_next_clickable_element(self, max_depth: int = -1) -> str:
        text_parts: list[str] = []

        def collect_text(node: DOMBaseNode, current_depth: int) -> None:
            if max_depth != -1 and current_depth > max_depth:
                return
            # Skip this branch if we hit a highlighted element (except for the current node)
            if isinstance(node, DOMElementNode) and node is not self and node.highlight_index is not None:
                return
            if isinstance(node, DOMTextNode):
                text_parts.append(node.text)
            elif isinstance(node, DOMElementNode):
                for child in node.children:
                    collect_text(child, current_depth + 1)

        collect_text(self, 0)
        return '\n'.join(text_parts).strip()

    def clickable_elements_to_string(self, include_attributes: list[str] | None = None) -> str:
        """Converts the processed DOM content to HTML (the 0.1.48 prompt format, section 1.8)."""
        formatted_text: list[str] = []

        def process_node(node: DOMBaseNode, depth: int) -> None:
            next_depth = int(depth)
            depth_str = depth * '\t'
            if isinstance(node, DOMElementNode):
                if node.highlight_index is not None:
                    next_depth += 1
                    text = node.get_all_text_till_next_clickable_element()
                    attributes_html_str = None
                    if include_attributes:
                        attributes_to_include = {k: str(v) for k, v in node.attributes.items() if k in include_attributes}
                        if node.tag_name == attributes_to_include.get('role'):
                            del attributes_to_include['role']
                        if attributes_to_include.get('aria-label') and attributes_to_include.get('aria-label', '').strip() == text.strip():
                            del attributes_to_include['aria-label']
                        if (
                            attributes_to_include.get('placeholder')
                            and attributes_to_include.get('placeholder', '').strip() == text.strip()
                        ):
                            del attributes_to_include['placeholder']
                        if attributes_to_include:
                            attributes_html_str = ' '.join(f"{key}='{value}'" for key, value in attributes_to_include.items())
                    highlight_indicator = f'*[{node.highlight_index}]*' if node.is_new else f'[{node.highlight_index}]'
                    line = f'{depth_str}{highlight_indicator}<{node.tag_name}'
                    if attributes_html_str:
                        line += f' {attributes_html_str}'
                    if text:
                        if not attributes_html_str:
                            line += ' '
                        line += f'>{text}'
                    elif not attributes_html_str:
                        line += ' '
                    line += ' />'
                    formatted_text.append(line)
                for child in node.children:
                    process_node(child, next_depth)
            elif isinstance(node, DOMTextNode):
                if not node.has_parent_with_highlight_index() and node.parent and node.parent.is_visible and node.parent.is_top_element:
                    formatted_text.append(f'{depth_str}{node.text}')

        process_node(self, 0)
        return '\n'.join(formatted_text)

    def get_file_upload_element(self, check_siblings: bool = True) -> Optional['DOMElementNode']:
        if self.tag_name == 'input' and self.attributes.get('type') == 'file':
            return self
        for child in self.children:
            if isinstance(child, DOMElementNode):
                result = child.get_file_upload_element(check_siblings=False)
                if result:
                    return result
        if check_siblings and self.parent:
            for sibling in self.parent.children:
                if sibling is not self and isinstance(sibling, DOMElementNode):
                    result = sibling.get_file_upload_element(check_siblings=False)
                    if result:
                        return result
        return None


SelectorMap = dict[int, DOMElementNode]


@dataclass
class DOMState:
    element_tree: DOMElementNode
    selector_map: SelectorMap


@dataclass
class BrowserState(DOMState):
    url: str
    title: str
    tabs: list[TabInfo]
    screenshot: Optional[str] = None
    pixels_above: int = 0
    pixels_below: int = 0
    browser_errors: list[str] = field(default_factory=list)


@dataclass
class BrowserStateHistory:
    url: str
    title: str
    tabs: list[TabInfo]
    interacted_element: list
    screenshot: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        return {
            'tabs': [tab.model_dump() for tab in self.tabs],
            'screenshot': self.screenshot,
            'interacted_element': [el.to_dict() if el else None for el in self.interacted_element],
            'url': self.url,
            'title': self.title,
        }


class HistoryTreeProcessor:
    """dom/history_tree_processor/service.py (0.1.48): hashes the Agent compares between actions."""

    @staticmethod
    def convert_dom_element_to_history_element(dom_element: DOMElementNode) -> DOMHistoryElement:
        # browser_use calls BrowserContext._enhanced_css_selector_for_element here; the shim's context
        # delegates that to css_selectors, so the fallback takes it from there (and never imports the context).
        parent_branch_path = HistoryTreeProcessor._get_parent_branch_path(dom_element)
        css_selector = enhanced_css_selector_for_element(dom_element)
        return DOMHistoryElement(
            dom_element.tag_name,
            dom_element.xpath,
            dom_element.highlight_index,
            parent_branch_path,
            dom_element.attributes,
            dom_element.shadow_root,
            css_selector=css_selector,
        )

    @staticmethod
    def find_history_element_in_tree(dom_history_element: DOMHistoryElement, tree: DOMElementNode) -> Optional[DOMElementNode]:
        hashed = HistoryTreeProcessor._hash_dom_history_element(dom_history_element)

        def process_node(node: DOMElementNode) -> Optional[DOMElementNode]:
            if node.highlight_index is not None and HistoryTreeProcessor._hash_dom_element(node) == hashed:
                return node
            for child in node.children:
                if isinstance(child, DOMElementNode):
                    result = process_node(child)
                    if result is not None:
                        return result
            return None

        return process_node(tree)

    @staticmethod
    def compare_history_element_and_dom_element(dom_history_element: DOMHistoryElement, dom_element: DOMElementNode) -> bool:
        return HistoryTreeProcessor._hash_dom_history_element(dom_history_element) == HistoryTreeProcessor._hash_dom_element(dom_element)

    @staticmethod
    def _hash_dom_history_element(dom_history_element: DOMHistoryElement) -> HashedDomElement:
        return HashedDomElement(
            HistoryTreeProcessor._parent_branch_path_hash(dom_history_element.entire_parent_branch_path),
            HistoryTreeProcessor._attributes_hash(dom_history_element.attributes),
            HistoryTreeProcessor._xpath_hash(dom_history_element.xpath),
        )

    @staticmethod
    def _hash_dom_element(dom_element: DOMElementNode) -> HashedDomElement:
        parent_branch_path = HistoryTreeProcessor._get_parent_branch_path(dom_element)
        return HashedDomElement(
            HistoryTreeProcessor._parent_branch_path_hash(parent_branch_path),
            HistoryTreeProcessor._attributes_hash(dom_element.attributes),
            HistoryTreeProcessor._xpath_hash(dom_element.xpath),
        )

    @staticmethod
    def _get_parent_branch_path(dom_element: DOMElementNode) -> list[str]:
        parents: list[DOMElementNode] = []
        current_element: DOMElementNode = dom_element
        while current_element.parent is not None:
            parents.append(current_element)
            current_element = current_element.parent
        parents.reverse()
        return [parent.tag_name for parent in parents]

    @staticmethod
    def _parent_branch_path_hash(parent_branch_path: list[str]) -> str:
        return hashlib.sha256('/'.join(parent_branch_path).encode()).hexdigest()

    @staticmethod
    def _attributes_hash(attributes: dict[str, str]) -> str:
        return hashlib.sha256(''.join(f'{key}={value}' for key, value in attributes.items()).encode()).hexdigest()

    @staticmethod
    def _xpath_hash(xpath: str) -> str:
        return hashlib.sha256(xpath.encode()).hexdigest()


class ClickableElementProcessor:
    """dom/clickable_element_processor/service.py (0.1.48); drives ``is_new``."""

    @staticmethod
    def get_clickable_elements_hashes(dom_element: DOMElementNode) -> set[str]:
        return {ClickableElementProcessor.hash_dom_element(e) for e in ClickableElementProcessor.get_clickable_elements(dom_element)}

    @staticmethod
    def get_clickable_elements(dom_element: DOMElementNode) -> list[DOMElementNode]:
        clickable: list[DOMElementNode] = []
        for child in dom_element.children:
            if isinstance(child, DOMElementNode):
                if child.highlight_index:  # sic: index 0 is skipped, as in 0.1.48
                    clickable.append(child)
                clickable.extend(ClickableElementProcessor.get_clickable_elements(child))
        return clickable

    @staticmethod
    def hash_dom_element(dom_element: DOMElementNode) -> str:
        h = HistoryTreeProcessor._hash_dom_element(dom_element)
        return hashlib.sha256(f'{h.branch_path_hash}-{h.attributes_hash}-{h.xpath_hash}'.encode()).hexdigest()


class ActionResult:
    """agent/views.py ActionResult (0.1.48): the result of executing an action."""

    __slots__ = ('is_done', 'success', 'extracted_content', 'error', 'include_in_memory')

    def __init__(
        self,
        is_done: Optional[bool] = False,
        success: Optional[bool] = None,
        extracted_content: Optional[str] = None,
        error: Optional[str] = None,
        include_in_memory: bool = False,
    ) -> None:
        self.is_done = is_done
        self.success = success
        self.extracted_content = extracted_content
        self.error = error
        self.include_in_memory = include_in_memory

    def model_dump(self, exclude_none: bool = False, **_: Any) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self.__slots__}
        return {k: v for k, v in d.items() if v is not None} if exclude_none else d

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionResult) and self.model_dump() == other.model_dump()

    def __repr__(self) -> str:
        return 'ActionResult(' + ', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__) + ')'
