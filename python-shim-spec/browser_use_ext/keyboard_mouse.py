"""page.keyboard and page.mouse: Playwright's Keyboard and Mouse over protocol actions.

The protocol has no "hold a key down" and no "click at a point": keyboard.down/up raise the
unsupported-call error pointing to one chord (press("Shift+A")), and a click or move at page
coordinates acts on the listed element under the point (the state's elements carry viewport-relative
bounds, the same coordinates Playwright's mouse uses)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ._protocol_codes import ErrorCode
from .compat import BrowserError
from .playwright_unsupported import UnsupportedAttributes, unsupported

if TYPE_CHECKING:
    from .page import ExtensionPage


class Keyboard(UnsupportedAttributes):
    _playwright_owner = 'Keyboard'

    def __init__(self, page: 'ExtensionPage') -> None:
        self._page = page

    async def press(self, key: str, delay: Optional[float] = None) -> None:
        """Playwright key syntax (``Enter``, ``Control+Shift+T``) sent to the focused element.

        As Playwright: a name that is not a key (``hello``, ``Foo+a``) raises ``Unknown key: "..."``
        (browser_use's send_keys then presses each character); any single character is pressed."""
        try:
            await self._page._act('press', {'key': key})
        except BrowserError as e:
            if getattr(e, 'error_code', None) in (ErrorCode.INVALID_MESSAGE, ErrorCode.UNKNOWN_KEY) and (
                'Unknown key' in str(e) or 'Unknown modifier' in str(e) or 'empty part' in str(e)
            ):
                if len(key) == 1:
                    # Playwright presses any single character (é, ü, emoji): typed through send_keys.
                    await self._page._act('send_keys', {'keys': key})
                    return
                raise BrowserError(f'Keyboard.press: Unknown key: "{key}"') from e
            raise

    async def type(self, text: str, delay: Optional[float] = None) -> None:
        """Types text into the focused element."""
        state = await self._page._context._fresh_protocol_state(self._page.tab_id)
        focused = state.get('active_element_id') or ((state.get('focused_element') or {}).get('element_id'))
        if focused:
            params: dict[str, Any] = {'element_id': focused, 'text': text}
            if delay:
                params['delay_ms'] = int(min(1000, max(0, delay)))
            await self._page._act('type', params)
            return
        for ch in text:  # nothing listed has focus: key presses reach whatever has it
            await self._page._act('send_keys', {'keys': ch})

    async def down(self, key: str) -> None:
        raise unsupported('Keyboard', 'down')

    async def up(self, key: str) -> None:
        raise unsupported('Keyboard', 'up')

    async def insert_text(self, text: str) -> None:
        """Inserts text into the focused element (as ``type``: key events are sent too)."""
        await self.type(text)


async def element_at_point(page: 'ExtensionPage', x: float, y: float) -> Optional[str]:
    """Element id of the innermost listed element whose box contains the viewport point, or None.

    Only elements the state lists (interactive ones) can be found: the point's top element among
    them, the smallest box winning (a button inside a clickable card)."""
    state = await page._context._fresh_protocol_state(page.tab_id)
    hits: list[tuple[bool, float, str]] = []
    for el in state.get('actionable_elements') or []:
        b, eid = el.get('bounds'), el.get('id')
        if not b or not isinstance(eid, str) or el.get('is_visible') is False:
            continue
        if b['x'] <= x <= b['x'] + b['width'] and b['y'] <= y <= b['y'] + b['height']:
            # Covered elements last (a modal over the page wins), then the smallest box.
            hits.append((el.get('is_top_element') is False, b['width'] * b['height'], eid))
    return min(hits)[2] if hits else None


def _nothing_at(x: float, y: float, what: str) -> BrowserError:
    err = BrowserError(
        f'Mouse.{what}: no interactive element at ({x:g}, {y:g}) in the viewport (the extension acts on elements, not on page '
        'coordinates). Use page.locator(selector).click() or click_element_by_index with an index from get_state().'
    )
    err.error_code = ErrorCode.TARGET_ELEMENT_NOT_FOUND
    err.details = {'x': x, 'y': y}
    return err


class Mouse(UnsupportedAttributes):
    """move/down/up are collected and replayed as one drag_and_drop (from_point -> to_point) on up();
    down+up at the same point is a click on the element there."""

    _playwright_owner = 'Mouse'

    def __init__(self, page: 'ExtensionPage') -> None:
        self._page = page
        self._pos = (0.0, 0.0)
        self._down_at: Optional[tuple[float, float]] = None
        self._steps = 1

    async def move(self, x: float, y: float, steps: int = 1) -> None:
        """Moves the pointer: while a button is down, one more drag step; else a hover of the element
        under the point (mouseover/mousemove reach it), nothing when no listed element is there."""
        self._pos = (float(x), float(y))
        if self._down_at is not None:
            self._steps += max(1, int(steps))
            return
        eid = await element_at_point(self._page, float(x), float(y))
        if eid:
            await self._page._act('hover', {'element_id': eid})

    async def down(self, button: str = 'left', click_count: int = 1) -> None:
        self._down_at = self._pos
        self._steps = 0

    async def up(self, button: str = 'left', click_count: int = 1) -> None:
        start, self._down_at = self._down_at, None
        if start is None:
            return
        if start == self._pos:
            await self.click(*start)
            return
        await self._page._act('drag_and_drop', {
            'from_point': {'x': start[0], 'y': start[1]},
            'to_point': {'x': self._pos[0], 'y': self._pos[1]},
            'steps': max(1, min(50, self._steps or 1)),
        })

    async def click(self, x: float, y: float, button: str = 'left', click_count: int = 1, **_: Any) -> None:
        """Clicks the element under the viewport point (the protocol clicks elements, not coordinates)."""
        if button != 'left':
            raise unsupported('Mouse', f'click(button={button!r})', 'ExtensionBrowserContext.call("click", {...}) (left button only)')
        eid = await element_at_point(self._page, float(x), float(y))
        if not eid:
            raise _nothing_at(x, y, 'click')
        self._pos = (float(x), float(y))
        await self._page._act('double_click' if click_count == 2 else 'click', {'element_id': eid})

    async def dblclick(self, x: float, y: float, **_: Any) -> None:
        await self.click(x, y, click_count=2)

    async def wheel(self, delta_x: float, delta_y: float) -> None:
        direction = 'down' if delta_y > 0 else 'up' if delta_y < 0 else 'right' if delta_x > 0 else 'left'
        await self._page._act('scroll', {'direction': direction, 'amount': abs(delta_y or delta_x)})
