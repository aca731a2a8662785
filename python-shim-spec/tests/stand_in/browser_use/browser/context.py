"""browser/context.py (0.1.48): the Playwright BrowserContext. Only the classmethods
HistoryTreeProcessor calls work here; anything that would drive Playwright raises."""
import re
from dataclasses import dataclass
from typing import Optional


@dataclass
class BrowserContextConfig:
    wait_between_actions: float = 0.5
    viewport_expansion: int = 0
    allowed_domains: Optional[list] = None
    highlight_elements: bool = True
    include_dynamic_attributes: bool = True
    disable_security: bool = False


class BrowserContext:
    constructed = 0

    def __init__(self, browser, config=None, state=None):
        BrowserContext.constructed += 1
        self.browser = browser
        self.config = config or BrowserContextConfig()
        self.session = None

    async def get_state(self, cache_clickable_elements_hashes: bool):
        raise RuntimeError('the stand-in has no Playwright: the Playwright BrowserContext was used instead of the extension')

    @classmethod
    def _convert_simple_xpath_to_css_selector(cls, xpath: str) -> str:
        if not xpath:
            return ''
        parts = []
        for part in xpath.lstrip('/').split('/'):
            if not part:
                continue
            if '[' in part:
                base = part[: part.find('[')].replace(':', r'\:')
                for idx in [i.strip('[]') for i in part[part.find('['):].split(']')[:-1]]:
                    if idx.isdigit():
                        base += f':nth-of-type({int(idx)})'
                    elif idx == 'last()':
                        base += ':last-of-type'
                    elif 'position()' in idx and '>1' in idx:
                        base += ':nth-of-type(n+2)'
                parts.append(base)
            else:
                parts.append(part.replace(':', r'\:'))
        return ' > '.join(parts)

    @classmethod
    def _enhanced_css_selector_for_element(cls, element, include_dynamic_attributes: bool = True) -> str:
        try:
            css = cls._convert_simple_xpath_to_css_selector(element.xpath)
            if element.attributes.get('class') and include_dynamic_attributes:
                for c in element.attributes['class'].split():
                    if re.match(r'^[a-zA-Z_][a-zA-Z0-9_-]*$', c):
                        css += f'.{c}'
            safe = {'id', 'name', 'type', 'placeholder', 'aria-label', 'aria-labelledby', 'aria-describedby', 'role', 'for',
                    'autocomplete', 'required', 'readonly', 'alt', 'title', 'src', 'href', 'target'}
            if include_dynamic_attributes:
                safe |= {'data-id', 'data-qa', 'data-cy', 'data-testid'}
            for attr, value in element.attributes.items():
                if attr == 'class' or attr not in safe:
                    continue
                a = attr.replace(':', r'\:')
                if value == '':
                    css += f'[{a}]'
                elif any(ch in value for ch in '"\'<>`\n\r\t'):
                    css += '[{}*="{}"]'.format(a, re.sub(r'\s+', ' ', value).strip().replace('"', '\\"'))
                else:
                    css += f'[{a}="{value}"]'
            return css
        except Exception:
            return f"{element.tag_name or '*'}[highlight_index='{element.highlight_index}']"
