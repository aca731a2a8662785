"""A Playwright ``Page`` facade over protocol actions (the subset default actions and typical custom
actions use: reference section 1.11, surface.json ``page_api_used``).

Every method sends protocol actions for its tab; anything a Chrome extension cannot do raises
NotImplementedError naming the alternative.
"""
from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any, Optional

from ._protocol_codes import ErrorCode
from .errors import ENABLE_EVALUATE_HINT, BrowserError, NotPermittedError, browser_error_from
from .input_files import files_param
from .transport import ActionFailed, BridgeError

if TYPE_CHECKING:
    from .context import ExtensionBrowserContext

_ALTERNATIVES = {
    'pdf': 'Chrome extensions cannot print to PDF without the debugger permission; use take_screenshot() or extract_content instead.',
    'emulate_media': 'media emulation needs the DevTools protocol; the person\'s Chrome renders as it is.',
    'set_viewport_size': 'the person\'s window decides the viewport; resize the window instead.',
    'expose_function': 'pages cannot call back into Python through the extension; poll with get_state() instead.',
    'route': 'request interception is not available; use the state\'s api_activity to observe requests.',
    'locator': 'use the element indices of get_state() (click_element_by_index, input_text) or ExtensionBrowserContext.call("click", '
               '{"selector": ...}).',
    'query_selector': 'use ExtensionBrowserContext.get_locate_element_by_css_selector(css).',
    'query_selector_all': 'use get_state() and its selector_map.',
    'get_by_text': 'use the scroll_to_text action or get_state().',
    'get_by_role': 'use ExtensionBrowserContext.call("click", {"role": ..., "name": ...}).',
    'wait_for_selector': 'use ExtensionBrowserContext.wait_for_element(selector, timeout).',
    'expect_download': 'downloads land in the person\'s download folder; the shim cannot intercept them.',
    'add_init_script': 'the extension injects only its own content script.',
    'set_content': 'navigate to a URL (data: URLs work) instead.',
}


class FeatureNotAvailable(NotImplementedError, AttributeError):
    """A Playwright feature a Chrome extension cannot provide (also an AttributeError, so hasattr() is False)."""


class Keyboard:
    def __init__(self, page: 'ExtensionPage') -> None:
        self._page = page

    async def press(self, key: str, delay: Optional[float] = None) -> None:
        """Playwright key syntax (``Enter``, ``Control+Shift+T``) sent to the focused element.

        As Playwright: a name that is not a key (``hello``, ``Foo+a``) raises ``Unknown key: "..."``
        (browser_use's send_keys then presses each character); any single character is pressed."""
        try:
            await self._page._act('press', {'key': key})
        except BrowserError as e:
            if getattr(e, 'error_code', None) == ErrorCode.INVALID_MESSAGE and (
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
        raise NotImplementedError('keyboard.down() is not available through the extension; use keyboard.press("Shift+A") style chords '
                                  'instead.')

    async def up(self, key: str) -> None:
        raise NotImplementedError('keyboard.up() is not available through the extension; use keyboard.press("Shift+A") style chords '
                                  'instead.')

    async def insert_text(self, text: str) -> None:
        await self.type(text)


class Mouse:
    """move/down/up are collected and replayed as one drag_and_drop (from_point -> to_point) on up()."""

    def __init__(self, page: 'ExtensionPage') -> None:
        self._page = page
        self._pos = (0.0, 0.0)
        self._down_at: Optional[tuple[float, float]] = None
        self._steps = 1

    async def move(self, x: float, y: float, steps: int = 1) -> None:
        self._pos = (float(x), float(y))
        if self._down_at is not None:
            self._steps += max(1, int(steps))

    async def down(self, button: str = 'left', click_count: int = 1) -> None:
        self._down_at = self._pos
        self._steps = 0

    async def up(self, button: str = 'left', click_count: int = 1) -> None:
        start, self._down_at = self._down_at, None
        if start is None:
            return
        if start == self._pos:
            raise NotImplementedError('A click at page coordinates is not available through the extension; use click_element_by_index '
                                      'with an index from get_state().')
        await self._page._act('drag_and_drop', {
            'from_point': {'x': start[0], 'y': start[1]},
            'to_point': {'x': self._pos[0], 'y': self._pos[1]},
            'steps': max(1, min(50, self._steps or 1)),
        })

    async def click(self, x: float, y: float, **_: Any) -> None:
        raise NotImplementedError('A click at page coordinates is not available through the extension; use click_element_by_index with '
                                  'an index from get_state().')

    async def wheel(self, delta_x: float, delta_y: float) -> None:
        direction = 'down' if delta_y > 0 else 'up' if delta_y < 0 else 'right' if delta_x > 0 else 'left'
        await self._page._act('scroll', {'direction': direction, 'amount': abs(delta_y or delta_x)})


class Frame:
    """A document of the tab. The shim reaches frames through the state's frame list; content()
    returns the top document's HTML for the main frame and raises for others (see SPEC.md)."""

    def __init__(self, page: 'ExtensionPage', url: str, frame_id: int = 0) -> None:
        self._page = page
        self.url = url
        self.frame_id = frame_id

    async def content(self) -> str:
        if self.frame_id == 0:
            return await self._page.content()
        raise NotImplementedError('Reading a subframe\'s HTML is not available; extract_content already includes every frame\'s text.')

    async def evaluate(self, expression: str, arg: Any = None) -> Any:
        if self.frame_id == 0:
            return await self._page.evaluate(expression, arg)
        raise NotImplementedError('evaluate in subframes is not available; use the protocol actions, which reach every frame by '
                                  'element id.')

    def locator(self, selector: str) -> Any:
        raise NotImplementedError('Frame.locator: ' + _ALTERNATIVES['locator'])


class ExtensionPage:
    """One tab of the person's Chrome, addressed by its Chrome tab id."""

    def __init__(self, context: 'ExtensionBrowserContext', tab_id: Optional[int], url: str = '', title: str = '') -> None:
        self._context = context
        self.tab_id = tab_id
        self._url = url
        self._title = title
        self._closed = False
        self._frames: list[dict] = []
        self.keyboard = Keyboard(self)
        self.mouse = Mouse(self)

    def __repr__(self) -> str:
        return f'<ExtensionPage tab_id={self.tab_id} url={self._url!r}>'

    # -- uploads ---------------------------------------------------------------------------------
    async def set_input_files(self, selector: str, files: Any, timeout: Optional[float] = None, **_: Any) -> None:
        """Playwright's Page.set_input_files: the files (a path, a list of paths, a dict {name,
        mimeType, buffer} or a list of them; [] clears) on the <input type=file> the CSS selector names."""
        params: dict[str, Any] = {'selector': selector, 'files': files_param(files)}
        if timeout is not None:
            params['timeout_ms'] = int(max(0, min(60000, timeout)))
        await self._act('set_input_files', params)

    # -- internals -------------------------------------------------------------------------------
    async def _act(self, action: str, params: Optional[dict] = None, timeout_ms: Optional[int] = None) -> dict:
        try:
            r = await self._context._call(action, params or {}, tab_id=self.tab_id, timeout_ms=timeout_ms)
        except ActionFailed as e:
            raise browser_error_from(e, f'{action} failed: ') from e
        except BridgeError as e:
            raise browser_error_from(e, f'{action} failed: ') from e
        return r

    def _remember(self, url: Optional[str] = None, title: Optional[str] = None) -> None:
        if url is not None:
            self._url = url
        if title is not None:
            self._title = title

    # -- Playwright Page API ---------------------------------------------------------------------
    @property
    def url(self) -> str:
        return self._url

    async def title(self) -> str:
        r = await self._act('get', {'what': 'title'})
        value = ((r.get('outcome_details') or {}).get('result') or {}).get('value')
        if isinstance(value, str):
            self._title = value
        return self._title

    async def goto(
        self, url: str, timeout: Optional[float] = None, wait_until: Optional[str] = None, referer: Optional[str] = None
    ) -> None:
        params: dict[str, Any] = {'url': url}
        if timeout:
            params['timeout_ms'] = int(timeout)
        r = await self._act('navigate', params, timeout_ms=int(timeout) + 5000 if timeout else None)
        self._remember(url=((r.get('outcome_details') or {}).get('result') or {}).get('url', url))
        return None

    async def go_back(self, timeout: Optional[float] = None, wait_until: Optional[str] = None) -> None:
        r = await self._act('go_back', {'timeout_ms': int(timeout)} if timeout else {})
        self._remember(url=((r.get('outcome_details') or {}).get('result') or {}).get('url'))

    async def go_forward(self, timeout: Optional[float] = None, wait_until: Optional[str] = None) -> None:
        r = await self._act('go_forward', {'timeout_ms': int(timeout)} if timeout else {})
        self._remember(url=((r.get('outcome_details') or {}).get('result') or {}).get('url'))

    async def reload(self, timeout: Optional[float] = None, wait_until: Optional[str] = None) -> None:
        r = await self._act('reload', {})
        self._remember(url=((r.get('outcome_details') or {}).get('result') or {}).get('url'))

    async def wait_for_load_state(self, state: str = 'load', timeout: Optional[float] = None) -> None:
        """Every protocol action already waits for the page to settle before it answers, so there is nothing left to wait for."""
        return None

    async def wait_for_timeout(self, timeout: float) -> None:
        await self._act('wait', {'ms': int(timeout)})

    async def content(self) -> str:
        r = await self._act('get', {'what': 'html', 'selector': 'html'})
        value = ((r.get('outcome_details') or {}).get('result') or {}).get('value')
        return value if isinstance(value, str) else ''

    async def evaluate(self, expression: str, arg: Any = None) -> Any:
        """Runs script only when the person enabled evaluate in the extension (else NotPermittedError)."""
        expr = expression if arg is None else f'({expression})({json.dumps(arg)})'
        try:
            r = await self._context._call('evaluate', {'expression': expr}, tab_id=self.tab_id)
        except ActionFailed as e:
            if e.code == ErrorCode.NOT_PERMITTED:
                raise NotPermittedError(f'evaluate is not permitted: {e}. {ENABLE_EVALUATE_HINT}') from e
            raise browser_error_from(e, 'evaluate failed: ') from e
        result = (r.get('outcome_details') or {}).get('result') or {}
        raw = result.get('value_json')
        if raw is None or raw == 'undefined':
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw

    async def screenshot(self, path: Optional[str] = None, full_page: bool = False, **_: Any) -> bytes:
        """PNG of the visible part of the tab (full_page is not available: the extension captures the viewport)."""
        r = await self._act('screenshot', {})
        data = base64.b64decode(((r.get('outcome_details') or {}).get('result') or {}).get('data_base64', ''))
        if path:
            with open(path, 'wb') as f:
                f.write(data)
        return data

    @property
    def frames(self) -> list[Frame]:
        out = [Frame(self, self._url, 0)]
        for f in self._frames:
            fid = f.get('frame_id')
            if isinstance(fid, int) and fid != 0:
                out.append(Frame(self, str(f.get('url', '')), fid))
        return out

    @property
    def main_frame(self) -> Frame:
        return Frame(self, self._url, 0)

    async def close(self, run_before_unload: bool = False) -> None:
        await self._act('close_tab', {'tab_id': self.tab_id} if self.tab_id is not None else {})
        self._closed = True
        self._context._forget_page(self)

    def is_closed(self) -> bool:
        return self._closed

    async def bring_to_front(self) -> None:
        if self.tab_id is not None:
            await self._act('switch_tab', {'tab_id': self.tab_id})

    def __getattr__(self, name: str) -> Any:
        if name.startswith('_'):
            raise AttributeError(name)
        hint = _ALTERNATIVES.get(name, 'use the ExtensionController actions or ExtensionBrowserContext.call(<protocol action>, params) '
                                       '(schemas/v1/actions/).')
        raise FeatureNotAvailable(f'Page.{name} is not available through the browser-use-ext extension: {hint}')
