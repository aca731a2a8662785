"""ElementHandle: the few Playwright ElementHandle methods custom actions use, each one protocol
action on a target (element id, index or selector)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from .errors import browser_error_from
from .hover_note import note_hover
from .input_files import files_param
from .playwright_unsupported import UnsupportedAttributes
from .transport import ActionFailed

if TYPE_CHECKING:
    from .context import ExtensionBrowserContext


class ElementHandle(UnsupportedAttributes):
    """The few ElementHandle methods custom actions use, by protocol target (element id or selector)."""

    _playwright_owner = 'ElementHandle'

    def __init__(self, context: 'ExtensionBrowserContext', target: dict, tab_id: Optional[int]) -> None:
        self._context = context
        self._target = target
        self._tab = tab_id

    async def _do(self, action: str, extra: Optional[dict] = None) -> dict:
        try:
            return await self._context._call(action, {**self._target, **(extra or {})}, tab_id=self._tab)
        except ActionFailed as e:
            raise browser_error_from(e, f'{action} failed: ') from e

    async def click(self, **_: Any) -> None:
        await self._do('click')

    async def fill(self, value: str, **_: Any) -> None:
        await self._do('fill', {'value': value})

    async def type(self, text: str, delay: Optional[float] = None, **_: Any) -> None:
        await self._do('type', {'text': text, **({'delay_ms': int(min(1000, delay))} if delay else {})})

    async def hover(self, **_: Any) -> None:
        note_hover(await self._do('hover'))

    async def focus(self) -> None:
        await self._do('focus')

    async def scroll_into_view_if_needed(self, **_: Any) -> None:
        await self._do('scroll_into_view')

    async def is_visible(self) -> bool:
        r = await self._do('is', {'what': 'visible'})
        return bool(((r.get('outcome_details') or {}).get('result') or {}).get('value'))

    async def is_hidden(self) -> bool:
        return not await self.is_visible()

    async def inner_text(self) -> str:
        r = await self._do('get', {'what': 'text'})
        return str(((r.get('outcome_details') or {}).get('result') or {}).get('value') or '')

    async def get_attribute(self, name: str) -> Optional[str]:
        r = await self._do('get', {'what': 'attribute', 'attribute': name})
        v = ((r.get('outcome_details') or {}).get('result') or {}).get('value')
        return v if isinstance(v, str) else None

    async def bounding_box(self) -> Optional[dict[str, float]]:
        """Playwright's bounding_box: {x, y, width, height} in CSS pixels relative to the top viewport
        (what page.mouse takes; an element in a frame is measured where it shows on the page), None
        when the element has no layout box (display: none)."""
        r = await self._do('get', {'what': 'box'})
        box = ((r.get('outcome_details') or {}).get('result') or {}).get('value')
        return {k: float(box[k]) for k in ('x', 'y', 'width', 'height')} if isinstance(box, dict) else None

    async def select_option(self, value: Any = None, label: Any = None, **_: Any) -> list[str]:
        params: dict[str, Any] = {}
        if label is not None:
            params['labels'] = label if isinstance(label, list) else [label]
        elif value is not None:
            params['values'] = value if isinstance(value, list) else [value]
        r = await self._do('select_option', params)
        return list(((r.get('outcome_details') or {}).get('result') or {}).get('values') or [])

    # -- uploads ---------------------------------------------------------------------------------
    async def set_input_files(self, files: Any, **_: Any) -> None:
        """Playwright's ElementHandle.set_input_files on an <input type=file>: a path (str or Path), a
        list of paths, a dict {name, mimeType, buffer} or a list of them; [] clears. The files are read
        here (MIME type from mimetypes) and sent with the action; the page gets input and change."""
        await self._do('set_input_files', {'files': files_param(files)})
