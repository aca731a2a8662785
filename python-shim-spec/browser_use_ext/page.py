"""A Playwright ``Page`` facade over protocol actions (the subset default actions and typical custom
actions use: reference section 1.11, surface.json ``page_api_used``).

Every method sends protocol actions for its tab; any other Playwright call raises
UnsupportedPlaywrightCall naming the closest supported way (playwright_unsupported.py).
"""
from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any, Optional

from ._protocol_codes import ErrorCode
from .downloads import ExpectDownload
from .errors import ENABLE_EVALUATE_HINT, NotPermittedError, browser_error_from
from .input_files import files_param
from .keyboard_mouse import Keyboard, Mouse
from .page_playwright import PlaywrightPageCalls
from .playwright_unsupported import FeatureNotAvailable, UnsupportedPlaywrightCall, unsupported
from .transport import ActionFailed, BridgeError

if TYPE_CHECKING:
    from .context import ExtensionBrowserContext

# Keyboard/Mouse live in keyboard_mouse.py, the Playwright calls beyond navigation in page_playwright.py,
# and the unsupported-call error with its table of alternatives in playwright_unsupported.py.
__all__ = ['ExtensionPage', 'FeatureNotAvailable', 'Frame', 'Keyboard', 'Mouse', 'UnsupportedPlaywrightCall']


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
        if self.frame_id == 0:
            return self._page.locator(selector)
        raise unsupported('Frame', 'locator', 'page.locator(selector) or get_state() element indices (subframe elements are in the '
                                              'same selector_map)')


class ExtensionPage(PlaywrightPageCalls):
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

    # -- downloads -------------------------------------------------------------------------------
    def expect_download(self, timeout: Optional[float] = None, **_: Any) -> ExpectDownload:
        """Playwright's Page.expect_download: ``async with page.expect_download() as info`` arms it;
        ``await info.value`` is the Download the next action (click, press, goto) started."""
        return ExpectDownload(self._context.shared.download_arms, timeout)

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
        self._context.shared.forget_page(self)

    def is_closed(self) -> bool:
        return self._closed

    async def bring_to_front(self) -> None:
        if self.tab_id is not None:
            await self._act('switch_tab', {'tab_id': self.tab_id})
