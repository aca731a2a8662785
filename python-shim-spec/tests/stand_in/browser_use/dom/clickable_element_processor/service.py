"""dom/clickable_element_processor/service.py (0.1.48)."""
import hashlib

from browser_use.dom.history_tree_processor.service import HistoryTreeProcessor
from browser_use.dom.views import DOMElementNode


class ClickableElementProcessor:
    @staticmethod
    def get_clickable_elements_hashes(dom_element) -> set:
        return {ClickableElementProcessor.hash_dom_element(e) for e in ClickableElementProcessor.get_clickable_elements(dom_element)}

    @staticmethod
    def get_clickable_elements(dom_element) -> list:
        out = []
        for child in dom_element.children:
            if isinstance(child, DOMElementNode):
                if child.highlight_index:
                    out.append(child)
                out.extend(ClickableElementProcessor.get_clickable_elements(child))
        return out

    @staticmethod
    def hash_dom_element(dom_element) -> str:
        h = HistoryTreeProcessor._hash_dom_element(dom_element)
        return hashlib.sha256(f'{h.branch_path_hash}-{h.attributes_hash}-{h.xpath_hash}'.encode()).hexdigest()
