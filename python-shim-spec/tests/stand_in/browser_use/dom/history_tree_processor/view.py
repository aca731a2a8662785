from dataclasses import dataclass
from typing import Optional


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
    entire_parent_branch_path: list
    attributes: dict
    shadow_root: bool = False
    css_selector: Optional[str] = None
    page_coordinates: object = None
    viewport_coordinates: object = None
    viewport_info: object = None
