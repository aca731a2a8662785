"""page.locator(selector): Playwright's Locator over protocol actions with a selector target.

Selectors: CSS (optionally ``css=``) and the simple XPaths browser_use itself produces (``//``,
``xpath=``; converted to CSS by css_selectors.py). Like Playwright, a locator is lazy (resolved on
every call) and strict: an action on a selector that several visible elements match fails with
AMBIGUOUS_TARGET. ``first``/``nth(i)``/``last`` pick one match in document order: the page's
AMBIGUOUS_TARGET answer lists the matches' element ids (the first ten), and the action then targets
that element id.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Optional

from ._protocol_codes import ErrorCode
from .compat import BrowserError
from .css_selectors import convert_simple_xpath_to_css_selector
from .element_handle import ElementHandle
from .hover_note import note_hover
from .input_files import files_param
from .playwright_unsupported import UnsupportedAttributes, unsupported

if TYPE_CHECKING:
    from .page import ExtensionPage

#: How long an action waits for its element to appear (Playwright auto-waits up to 30 s; agents
#: rarely want that long a stall, so the shim waits 5 s unless the call gives a timeout).
AUTO_WAIT_MS = 5000
_MAX_WAIT_MS = 60000
# An XPath step predicate css_selectors.py converts faithfully: [3], [last()], [position()>1].
_SIMPLE_PREDICATE = re.compile(r'\[(\d+|last\(\)|position\(\)\s*>\s*1)\]')


def css_of(selector: str) -> str:
    """The CSS the protocol's selector target takes, or the unsupported-call error for other engines."""
    s = selector.strip()
    if s.startswith('css='):
        return s[4:]
    if s.startswith('xpath=') or s.startswith('//') or s.startswith('/'):
        xpath = s[6:] if s.startswith('xpath=') else s
        rest = _SIMPLE_PREDICATE.sub('', xpath)
        if not any(c in rest for c in '[]@()|*') and '::' not in rest and '..' not in rest:
            return convert_simple_xpath_to_css_selector(xpath)
        css = _xpath_steps_to_css(xpath)
        if css is None:
            raise unsupported('Locator', f'xpath {xpath!r}', 'a CSS selector (only paths of tag names, positions and attribute '
                                                            'tests like //*[@id="menu"]/li[2] convert to CSS)')
        return css
    if ' >> ' in s or re.match(r'^(text|id|data-testid|role|internal:[\w-]+)=', s):
        raise unsupported('Locator', f'selector {s!r}', 'a plain CSS selector (Playwright selector engines and >> chains are not '
                                                        'available)')
    return s


_STEP = re.compile(r'(//?)([A-Za-z_][\w-]*|\*)((?:\[[^\[\]]+\])*)')
_ATTR_EQUALS = re.compile(r'''@([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')''')


def _xpath_steps_to_css(xpath: str) -> Optional[str]:
    """CSS for an XPath made of steps ``/tag`` or ``//tag`` (or ``*``) with predicates [n], [last()],
    [@attr] and [@attr="v"] (what hover_element.py and click_fallback_options.py pass, e.g.
    ``//*[@id="hoverdivpara"]``); None for anything else (functions, axes, unions)."""
    parts: list[str] = []
    pos = 0
    while pos < len(xpath):
        m = _STEP.match(xpath, pos)
        if m is None:
            return None
        axis, tag, predicates = m.groups()
        if not parts and axis == '/' and tag not in ('html', '*'):
            return None  # an absolute path must start at the root element
        any_tag = tag == '*'
        css = '' if any_tag else tag
        for p in (x.strip() for x in re.findall(r'\[([^\[\]]+)\]', predicates)):
            attr = _ATTR_EQUALS.fullmatch(p)
            if p.isdigit():
                css += f':nth-child({int(p)})' if any_tag else f':nth-of-type({int(p)})'
            elif p == 'last()':
                css += ':last-child' if any_tag else ':last-of-type'
            elif attr:
                value = attr.group(2) if attr.group(2) is not None else attr.group(3)
                css += '[{}="{}"]'.format(attr.group(1), value.replace('\\', '\\\\').replace('"', '\\"'))
            elif re.fullmatch(r'@[A-Za-z_][\w-]*', p):
                css += f'[{p[1:]}]'
            else:
                return None
        if parts:
            parts.append(' ' if axis == '//' else ' > ')
        elif axis == '/' and any_tag:
            css = ':root' + css  # /*[...]: the root element
        parts.append(css or '*')
        pos = m.end()
    return ''.join(parts) or None


def _value(r: dict) -> Any:
    return ((r.get('outcome_details') or {}).get('result') or {}).get('value')


def _wait_ms(timeout: Optional[float]) -> int:
    return int(min(_MAX_WAIT_MS, max(0, timeout))) if timeout is not None else AUTO_WAIT_MS


class Locator(UnsupportedAttributes):
    _playwright_owner = 'Locator'

    def __init__(self, page: 'ExtensionPage', selector: str, nth: Optional[int] = None) -> None:
        self._page = page
        self._selector = selector
        self._css = css_of(selector)
        self._nth = nth

    def __repr__(self) -> str:
        return f'<Locator selector={self._selector!r}{"" if self._nth is None else f" nth={self._nth}"}>'

    # -- picking one match ---------------------------------------------------------------------------
    @property
    def first(self) -> 'Locator':
        return Locator(self._page, self._selector, 0)

    @property
    def last(self) -> 'Locator':
        return Locator(self._page, self._selector, -1)

    def nth(self, index: int) -> 'Locator':
        return Locator(self._page, self._selector, int(index))

    async def _count_all(self) -> int:
        v = _value(await self._page._act('get', {'what': 'count', 'selector': self._css}))
        return int(v) if isinstance(v, int) else 0

    async def _target(self, wait_ms: int = 0) -> dict:
        """The protocol target: the selector itself, or the element id of match number nth."""
        if self._nth is None:
            return {'selector': self._css}
        count = await self._count_all()
        if count == 0 and wait_ms:
            await self._wait('attached', wait_ms)
            count = await self._count_all()
        i = self._nth + count if self._nth < 0 else self._nth
        if not 0 <= i < count:
            err = BrowserError(f'{self!r}: {count} element(s) match {self._css!r}, so there is no match number {self._nth}. Check the '
                               'selector with count() first.')
            err.error_code = ErrorCode.TARGET_ELEMENT_NOT_FOUND
            err.details = {'selector': self._css, 'count': count}
            raise err
        if count == 1:
            return {'selector': self._css}
        try:
            await self._page._act('get', {'what': 'text', 'selector': self._css})
        except BrowserError as e:
            if getattr(e, 'error_code', None) != ErrorCode.AMBIGUOUS_TARGET:
                raise
            ids = [c.get('element_id') for c in (getattr(e, 'details', None) or {}).get('candidates') or []]
            if i < len(ids) and isinstance(ids[i], str):
                return {'element_id': ids[i]}
            raise unsupported('Locator', f'nth({self._nth})', f'a more specific CSS selector (e.g. :nth-of-type): only the first '
                                                              f'{len(ids)} of {count} matches can be picked by position') from e
        # Several matches, one of them visible: the page answers with that one and names no others.
        raise unsupported('Locator', f'nth({self._nth})', f'locator({self._css!r}) itself: {count} elements match but only one is '
                                                          'visible, and the extension acts on visible elements')

    async def _wait(self, state: str, wait_ms: int) -> dict:
        return await self._page._act('wait_for', {'selector': self._css, 'state': state, 'timeout_ms': wait_ms},
                                     timeout_ms=wait_ms + 5000)

    async def _do(self, action: str, extra: Optional[dict] = None, timeout: Optional[float] = None) -> dict:
        """One element action; when nothing matches yet, waits for the element (as Playwright's auto-wait) and tries once more."""
        wait_ms = _wait_ms(timeout)
        target = await self._target(wait_ms)
        try:
            return await self._page._act(action, {**target, **(extra or {})})
        except BrowserError as e:
            if getattr(e, 'error_code', None) != ErrorCode.TARGET_ELEMENT_NOT_FOUND or 'selector' not in target or not wait_ms:
                raise
        await self._wait('visible', wait_ms)
        return await self._page._act(action, {**target, **(extra or {})})

    # -- actions ---------------------------------------------------------------------------------
    async def click(self, timeout: Optional[float] = None, click_count: int = 1, **_: Any) -> None:
        await self._do('double_click' if click_count == 2 else 'click', timeout=timeout)

    async def dblclick(self, timeout: Optional[float] = None, **_: Any) -> None:
        await self._do('double_click', timeout=timeout)

    async def fill(self, value: str, timeout: Optional[float] = None, **_: Any) -> None:
        await self._do('fill', {'value': value}, timeout)

    async def type(self, text: str, delay: Optional[float] = None, timeout: Optional[float] = None, **_: Any) -> None:
        await self._do('type', {'text': text, **({'delay_ms': int(min(1000, delay))} if delay else {})}, timeout)

    async def press_sequentially(self, text: str, delay: Optional[float] = None, timeout: Optional[float] = None, **_: Any) -> None:
        await self.type(text, delay=delay, timeout=timeout)

    async def press(self, key: str, timeout: Optional[float] = None, **_: Any) -> None:
        await self._do('press', {'key': key}, timeout)

    async def hover(self, timeout: Optional[float] = None, **_: Any) -> None:
        note_hover(await self._do('hover', timeout=timeout))

    async def drag_to(self, target: 'Locator', timeout: Optional[float] = None, **_: Any) -> None:
        """Playwright's Locator.drag_to: one drag_and_drop from this element to the target's (pointer and
        HTML5 drag events, as Playwright's mouse drag on Chromium sends)."""
        if not isinstance(target, Locator):
            raise TypeError(f'drag_to takes a Locator (page.locator(selector)), got {type(target).__name__}')
        await self._do('drag_and_drop', {'to': await target._target(_wait_ms(timeout))}, timeout)

    async def bounding_box(self, timeout: Optional[float] = None) -> Optional[dict[str, float]]:
        return await (await self.element_handle(timeout)).bounding_box()

    async def set_input_files(self, files: Any, timeout: Optional[float] = None, **_: Any) -> None:
        # The files are read here, on the machine running Python, as Playwright reads them (input_files.py).
        await self._do('set_input_files', {'files': files_param(files)}, timeout)

    async def focus(self, timeout: Optional[float] = None) -> None:
        await self._do('focus', timeout=timeout)

    async def check(self, timeout: Optional[float] = None, **_: Any) -> None:
        await self._do('check', timeout=timeout)

    async def uncheck(self, timeout: Optional[float] = None, **_: Any) -> None:
        await self._do('uncheck', timeout=timeout)

    async def scroll_into_view_if_needed(self, timeout: Optional[float] = None) -> None:
        await self._do('scroll_into_view', timeout=timeout)

    # -- reads -----------------------------------------------------------------------------------
    async def count(self) -> int:
        total = await self._count_all()
        if self._nth is None:
            return total
        i = self._nth + total if self._nth < 0 else self._nth
        return 1 if 0 <= i < total else 0

    async def inner_text(self, timeout: Optional[float] = None) -> str:
        return str(_value(await self._do('get', {'what': 'text'}, timeout)) or '')

    async def text_content(self, timeout: Optional[float] = None) -> str:
        return await self.inner_text(timeout)

    async def input_value(self, timeout: Optional[float] = None) -> str:
        return str(_value(await self._do('get', {'what': 'value'}, timeout)) or '')

    async def get_attribute(self, name: str, timeout: Optional[float] = None) -> Optional[str]:
        v = _value(await self._do('get', {'what': 'attribute', 'attribute': name}, timeout))
        return v if isinstance(v, str) else None

    async def inner_html(self, timeout: Optional[float] = None) -> str:
        return str(_value(await self._do('get', {'what': 'html'}, timeout)) or '')

    async def is_visible(self) -> bool:
        if self._nth is not None and await self.count() == 0:
            return False
        return bool(_value(await self._page._act('is', {**(await self._target()), 'what': 'visible'})))

    async def is_hidden(self) -> bool:
        return not await self.is_visible()

    async def is_enabled(self) -> bool:
        return bool(_value(await self._do('is', {'what': 'enabled'})))

    async def is_checked(self) -> bool:
        return bool(_value(await self._do('is', {'what': 'checked'})))

    async def wait_for(self, state: str = 'visible', timeout: Optional[float] = None) -> None:
        if self._nth is not None:
            raise unsupported('Locator', f'nth({self._nth}).wait_for', f'locator({self._css!r}).wait_for() or page.wait_for_selector()')
        wait_ms = int(min(_MAX_WAIT_MS, max(0, timeout))) if timeout is not None else 30000
        await self._wait(state, wait_ms)

    async def element_handle(self, timeout: Optional[float] = None) -> ElementHandle:
        return ElementHandle(self._page._context, await self._target(_wait_ms(timeout)), self._page.tab_id)
