"""The Playwright Page calls custom actions use beyond navigation (hover, locator, selector
shortcuts, wait_for_selector, wait_for_load_state), as a mixin of ExtensionPage, and the one
unsupported-call error for every other Page attribute."""
from __future__ import annotations

from typing import Any, Optional

from .element_handle import ElementHandle
from .locator import Locator, css_of
from .playwright_unsupported import UnsupportedAttributes

#: Playwright's default for waits that take a timeout (the protocol's wait_for allows at most 60 s).
_WAIT_DEFAULT_MS = 30000
_WAIT_MAX_MS = 60000
_STATES = ('visible', 'hidden', 'attached', 'detached')


class PlaywrightPageCalls(UnsupportedAttributes):
    """Needs ``_act``, ``_context`` and ``tab_id`` (ExtensionPage)."""

    _playwright_owner = 'Page'
    context = property(lambda self: self._context.playwright_context)  # Playwright's page.context (cookies(): context.py)

    def locator(self, selector: str, **_: Any) -> Locator:
        return Locator(self, selector)  # type: ignore[arg-type]

    async def hover(self, selector: str, timeout: Optional[float] = None, **_: Any) -> None:
        await self.locator(selector).hover(timeout=timeout)

    async def drag_and_drop(self, source: str, target: str, timeout: Optional[float] = None, **_: Any) -> None:
        """Playwright's Page.drag_and_drop(source, target): drags the source element onto the target's center."""
        await self.locator(source).drag_to(self.locator(target), timeout=timeout)

    async def click(self, selector: str, timeout: Optional[float] = None, click_count: int = 1, **_: Any) -> None:
        await self.locator(selector).click(timeout=timeout, click_count=click_count)

    async def fill(self, selector: str, value: str, timeout: Optional[float] = None, **_: Any) -> None:
        await self.locator(selector).fill(value, timeout=timeout)

    async def type(self, selector: str, text: str, delay: Optional[float] = None, timeout: Optional[float] = None, **_: Any) -> None:
        await self.locator(selector).type(text, delay=delay, timeout=timeout)

    async def press(self, selector: str, key: str, timeout: Optional[float] = None, **_: Any) -> None:
        await self.locator(selector).press(key, timeout=timeout)

    async def inner_text(self, selector: str, timeout: Optional[float] = None) -> str:
        return await self.locator(selector).inner_text(timeout=timeout)

    async def text_content(self, selector: str, timeout: Optional[float] = None) -> str:
        return await self.locator(selector).inner_text(timeout=timeout)

    async def get_attribute(self, selector: str, name: str, timeout: Optional[float] = None) -> Optional[str]:
        return await self.locator(selector).get_attribute(name, timeout=timeout)

    async def is_visible(self, selector: str, **_: Any) -> bool:
        return await self.locator(selector).is_visible()

    async def query_selector(self, selector: str) -> Optional[ElementHandle]:
        """An ElementHandle on the first match, or None when nothing matches (as Playwright)."""
        loc = self.locator(selector)
        if await loc.count() == 0:
            return None
        return await loc.first.element_handle()

    async def wait_for_selector(
        self, selector: str, state: str = 'visible', timeout: Optional[float] = None, **_: Any
    ) -> Optional[ElementHandle]:
        """Waits (``wait_for``) until the selector is visible/attached (returns its ElementHandle) or
        hidden/detached (returns None); TIMEOUT otherwise, as Playwright's TimeoutError."""
        if state not in _STATES:
            raise ValueError(f'state: expected one of {", ".join(_STATES)}, got {state!r}')
        css = css_of(selector)
        wait_ms = int(min(_WAIT_MAX_MS, max(0, timeout))) if timeout is not None else _WAIT_DEFAULT_MS
        r = await self._act('wait_for', {'selector': css, 'state': state, 'timeout_ms': wait_ms},  # type: ignore[attr-defined]
                            timeout_ms=wait_ms + 5000)
        if state in ('hidden', 'detached'):
            return None
        eid = ((r.get('outcome_details') or {}).get('result') or {}).get('element_id')
        target = {'element_id': eid} if isinstance(eid, str) and eid else {'selector': css}
        return ElementHandle(self._context, target, self.tab_id)  # type: ignore[attr-defined]

    async def wait_for_load_state(self, state: str = 'load', timeout: Optional[float] = None) -> None:
        """``networkidle`` waits (``wait_for_network_idle``) until no fetch/XHR ran for 500 ms; ``load``
        and ``domcontentloaded`` return at once: every protocol action already waits for the page to
        load and settle before it answers, as Playwright returns at once for a state already reached."""
        if state == 'networkidle':
            wait_ms = int(max(0, timeout)) if timeout is not None else _WAIT_DEFAULT_MS
            await self._act('wait_for_network_idle', {'timeout_ms': wait_ms}, timeout_ms=wait_ms + 5000)  # type: ignore[attr-defined]
        elif state not in ('load', 'domcontentloaded'):
            raise ValueError(f'state: expected "load", "domcontentloaded" or "networkidle", got {state!r}')
