"""The one error for a Playwright call the Page/Keyboard/Mouse/Locator/ElementHandle facades do not
have, and the table of the closest supported way per known Playwright method.

Custom actions written for browser_use on Playwright reach for Playwright calls; in the person's own
Chrome some cannot exist (no DevTools printing, no request interception). Each facade's
``__getattr__`` raises ``UnsupportedPlaywrightCall`` naming the method and what to use instead, so the
author reads the way forward in the traceback instead of a bare AttributeError.
"""
from __future__ import annotations

from typing import Optional

from ._protocol_codes import ErrorCode
from .compat import BrowserError

_CALL = 'ExtensionBrowserContext.call(<protocol action>, params) (schemas/v1/actions/)'

#: Closest supported way per known Playwright method, by facade. 'Page' also covers Frame.
ALTERNATIVES: dict[str, dict[str, str]] = {
    'Page': {
        'pdf': 'take_screenshot() or the extract_content action (Chrome extensions cannot print to PDF without the debugger '
               'permission)',
        'emulate_media': 'the page as the person\'s Chrome renders it (media emulation needs the DevTools protocol)',
        'set_viewport_size': 'the person\'s window size (resize the window; the extension cannot set the viewport)',
        'expose_function': 'polling with get_state() (pages cannot call back into Python through the extension)',
        'expose_binding': 'polling with get_state() (pages cannot call back into Python through the extension)',
        'route': 'the state\'s api_activity to observe requests (request interception is not available)',
        'unroute': 'the state\'s api_activity to observe requests (request interception is not available)',
        'query_selector_all': 'page.locator(selector).count() and .nth(i)',
        'get_by_text': 'page.locator(css) or the scroll_to_text action',
        'get_by_role': 'ExtensionBrowserContext.call("click", {"role": ..., "name": ...})',
        'get_by_label': 'page.locator(css) or ExtensionBrowserContext.call("fill", {"role": "textbox", "name": <label>, "value": ...})',
        'get_by_placeholder': 'page.locator(\'[placeholder="..."]\')',
        'get_by_test_id': 'page.locator(\'[data-testid="..."]\')',
        'dblclick': 'ExtensionBrowserContext.call("double_click", {"selector": ...})',
        'check': 'ExtensionBrowserContext.call("check", {"selector": ...})',
        'select_option': 'ElementHandle.select_option() or the select_dropdown_option action',
        'wait_for_function': 'page.wait_for_selector(selector) or ExtensionBrowserContext.call("wait_for", {"text": ...})',
        'wait_for_url': 'ExtensionBrowserContext.call("wait_for_navigation", {...})',
        'wait_for_event': 'page.wait_for_selector(selector) for what the event changes on the page',
        'expect_popup': 'the new tab appears in get_state().tabs; switch_to_tab() to it',
        'add_init_script': 'page.evaluate(...) after navigation once the person allowed evaluate (the extension injects only '
                           'its own content script)',
        'add_script_tag': 'page.evaluate(...) once the person allowed evaluate in the extension\'s Options',
        'set_content': 'page.goto(url) (data: URLs work)',
        'set_extra_http_headers': 'the person\'s own session (requests carry their headers and cookies; extra headers cannot be added)',
        'video': 'page.screenshot() per step',
        'accessibility': 'get_state() (its elements carry role and accessible name)',
        'eval_on_selector': 'page.locator(selector).inner_text() / get_attribute(name)',
        'eval_on_selector_all': 'page.locator(selector).count() and .nth(i)',
        'dispatch_event': 'page.locator(selector).click() or hover()',
        'focus': 'ExtensionBrowserContext.call("focus", {"selector": ...})',
        'on': 'polling with get_state() (events do not reach Python through the extension)',
        'once': 'polling with get_state() (events do not reach Python through the extension)',
    },
    'Keyboard': {
        'down': 'page.keyboard.press("Shift+A") (one chord: the protocol cannot hold a key down between calls)',
        'up': 'page.keyboard.press("Shift+A") (one chord: the protocol cannot hold a key down between calls)',
    },
    'Mouse': {},
    'Locator': {
        'screenshot': 'page.screenshot()',
        'evaluate': 'page.evaluate(...) once the person allowed evaluate in the extension\'s Options',
        'all': 'count() and nth(i)',
        'filter': 'a more specific CSS selector (e.g. :has(...), [attr="..."])',
        'locator': 'one CSS selector for the whole path (e.g. "form .row input")',
        'get_by_text': 'a CSS selector, or the scroll_to_text action',
        'get_by_role': 'ExtensionBrowserContext.call("click", {"role": ..., "name": ...})',
        'dblclick': 'ExtensionBrowserContext.call("double_click", {"selector": ...})',
        'check': 'ExtensionBrowserContext.call("check", {"selector": ...})',
    },
    'ElementHandle': {
        'screenshot': 'page.screenshot()',
        'evaluate': 'page.evaluate(...) once the person allowed evaluate in the extension\'s Options',
        'query_selector': 'page.locator("<outer css> <inner css>")',
        'dblclick': 'ExtensionBrowserContext.call("double_click", {"selector": ...})',
        'content_frame': 'get_state(): elements of subframes are in the same selector_map',
    },
}

GENERIC_HINT = 'the ExtensionController actions or ' + _CALL


class FeatureNotAvailable(NotImplementedError, AttributeError):
    """Kept as the base of UnsupportedPlaywrightCall so code catching it (or NotImplementedError) still does."""


class UnsupportedPlaywrightCall(FeatureNotAvailable, BrowserError):
    """A Playwright call the facade does not have. Also an AttributeError, so hasattr() is False, and a
    BrowserError (the shim's base error) with ``error_code`` UNSUPPORTED_ACTION."""

    def __init__(self, message: str, method: str = '', alternative: str = '') -> None:
        super().__init__(message)
        self.method = method
        self.alternative = alternative
        self.error_code = ErrorCode.UNSUPPORTED_ACTION
        self.details = {'method': method}


def closest_way(owner: str, method: str) -> str:
    table = ALTERNATIVES.get(owner, {})
    return table.get(method) or ALTERNATIVES['Page'].get(method) or GENERIC_HINT


def unsupported(owner: str, method: str, alternative: Optional[str] = None) -> UnsupportedPlaywrightCall:
    """The error for ``owner.method`` (e.g. Page.pdf), with the table's closest way unless one is given."""
    way = alternative or closest_way(owner, method)
    return UnsupportedPlaywrightCall(
        f'{owner}.{method} is not available in your own Chrome through browser-use-ext; use {way} instead.', f'{owner}.{method}', way
    )


class UnsupportedAttributes:
    """Mixin: any public attribute the class lacks raises the one unsupported-call error."""

    _playwright_owner = 'Page'

    def __getattr__(self, name: str) -> object:
        if name.startswith('_'):
            raise AttributeError(name)
        raise unsupported(type(self)._playwright_owner, name)
