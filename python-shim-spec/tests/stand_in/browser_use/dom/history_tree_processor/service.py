"""dom/history_tree_processor/service.py (0.1.48), section 1.5."""
import hashlib

from browser_use.dom.history_tree_processor.view import DOMHistoryElement, HashedDomElement


def _sha(s: str) -> str:
    return hashlib.sha256(s.encode()).hexdigest()


class HistoryTreeProcessor:
    @staticmethod
    def convert_dom_element_to_history_element(dom_element) -> DOMHistoryElement:
        from browser_use.browser.context import BrowserContext  # as 0.1.48 does: the class, not an instance

        return DOMHistoryElement(
            dom_element.tag_name, dom_element.xpath, dom_element.highlight_index,
            HistoryTreeProcessor._get_parent_branch_path(dom_element), dom_element.attributes, dom_element.shadow_root,
            css_selector=BrowserContext._enhanced_css_selector_for_element(dom_element),
        )

    @staticmethod
    def _hash_dom_element(dom_element) -> HashedDomElement:
        return HashedDomElement(
            _sha('/'.join(HistoryTreeProcessor._get_parent_branch_path(dom_element))),
            _sha(''.join(f'{k}={v}' for k, v in dom_element.attributes.items())),
            _sha(dom_element.xpath),
        )

    @staticmethod
    def _get_parent_branch_path(dom_element) -> list:
        parents = []
        current = dom_element
        while current.parent is not None:
            parents.append(current)
            current = current.parent
        parents.reverse()
        return [p.tag_name for p in parents]
