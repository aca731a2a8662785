"""CSS selectors for browser_use's DOM nodes, as 0.1.48's BrowserContext builds them (its
HistoryTreeProcessor and custom actions call these on the class; the shim's targets use them when an
element has neither an element id nor an index)."""
from __future__ import annotations

import re
from typing import Any

_VALID_CLASS_NAME = re.compile(r'^[a-zA-Z_][a-zA-Z0-9_-]*$')
_SAFE_ATTRIBUTES = frozenset({
    'id', 'name', 'type', 'placeholder', 'aria-label', 'aria-labelledby', 'aria-describedby', 'role',
    'for', 'autocomplete', 'required', 'readonly', 'alt', 'title', 'src', 'href', 'target',
})
_DYNAMIC_ATTRIBUTES = frozenset({'data-id', 'data-qa', 'data-cy', 'data-testid'})


def convert_simple_xpath_to_css_selector(xpath: str) -> str:
    if not xpath:
        return ''
    xpath = xpath.lstrip('/')
    css_parts: list[str] = []
    for part in xpath.split('/'):
        if not part:
            continue
        if ':' in part and '[' not in part:
            css_parts.append(part.replace(':', r'\:'))
            continue
        if '[' in part:
            base_part = part[: part.find('[')]
            if ':' in base_part:
                base_part = base_part.replace(':', r'\:')
            index_part = part[part.find('['):]
            for idx in [i.strip('[]') for i in index_part.split(']')[:-1]]:
                if idx.isdigit():
                    base_part += f':nth-of-type({int(idx)})'
                elif idx == 'last()':
                    base_part += ':last-of-type'
                elif 'position()' in idx and '>1' in idx:
                    base_part += ':nth-of-type(n+2)'
            css_parts.append(base_part)
        else:
            css_parts.append(part)
    return ' > '.join(css_parts)


def enhanced_css_selector_for_element(element: Any, include_dynamic_attributes: bool = True) -> str:
    try:
        css_selector = convert_simple_xpath_to_css_selector(element.xpath)
        if 'class' in element.attributes and element.attributes['class'] and include_dynamic_attributes:
            for class_name in element.attributes['class'].split():
                if class_name.strip() and _VALID_CLASS_NAME.match(class_name):
                    css_selector += f'.{class_name}'
        safe_attributes = _SAFE_ATTRIBUTES | _DYNAMIC_ATTRIBUTES if include_dynamic_attributes else _SAFE_ATTRIBUTES
        for attribute, value in element.attributes.items():
            if attribute == 'class' or not attribute.strip() or attribute not in safe_attributes:
                continue
            safe_attribute = attribute.replace(':', r'\:')
            if value == '':
                css_selector += f'[{safe_attribute}]'
            elif any(char in value for char in '"\'<>`\n\r\t'):
                collapsed_value = re.sub(r'\s+', ' ', value).strip()
                safe_value = collapsed_value.replace('"', '\\"')
                css_selector += f'[{safe_attribute}*="{safe_value}"]'
            elif value:
                css_selector += f'[{safe_attribute}="{value}"]'
        return css_selector
    except Exception:
        tag_name = element.tag_name or '*'
        return f"{tag_name}[highlight_index='{element.highlight_index}']"
