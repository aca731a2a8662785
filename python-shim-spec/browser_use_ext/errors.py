"""Maps protocol failures to the exceptions browser_use code expects (SPEC.md, "Errors")."""
from __future__ import annotations

from ._protocol_codes import ErrorCode
from .compat import BrowserError, URLNotAllowedError  # noqa: F401  (re-exported)
from .transport import ActionFailed, BridgeError  # noqa: F401


class NotPermittedError(BrowserError):
    """The person has not allowed this in the extension (error_code NOT_PERMITTED), e.g. evaluate."""


#: select_dropdown_option: 0.1.48 tried every frame and answered "Could not select option ... in any
#: frame" both when no option had the text and when Playwright could not select it (disabled).
OPTION_UNSELECTABLE_CODES = frozenset({ErrorCode.OPTION_NOT_FOUND, ErrorCode.OPTION_DISABLED})

#: Typed action failures (the page says exactly why the action cannot work) whose message already says what to do; they reach browser_use
#: as BrowserError / ActionResult(error=...) with ``error_code`` set, like Playwright's errors did:
#:   NOT_FILLABLE    input_text on a checkbox/radio/button/select ("Input of type ... cannot be filled")
#:   NOT_CHECKABLE   check on something that is not a checkbox ("Not a checkbox or radio button")
#:   OPTION_DISABLED a disabled option / option in a disabled optgroup
#:   UNKNOWN_KEY     press with a key name outside Playwright's US layout ('Unknown key: "..."')
#:   INVALID_VALUE   input_text of a malformed date/time/number ("Malformed value")
ACTION_ERROR_CODES = frozenset(
    {ErrorCode.NOT_FILLABLE, ErrorCode.NOT_CHECKABLE, ErrorCode.OPTION_DISABLED, ErrorCode.UNKNOWN_KEY, ErrorCode.INVALID_VALUE}
)


ENABLE_EVALUATE_HINT = (
    'Running arbitrary JavaScript is off by default. To allow it, open the extension\'s Options page '
    '(chrome://extensions -> browser-use-ext -> Details -> Extension options) and switch on '
    '"Allow agents to run arbitrary JavaScript in pages (evaluate)", then Save. Prefer the protocol actions (click, fill, get, '
    'extract_content) where possible.'
)


def browser_error_from(e: BridgeError, prefix: str = '') -> BrowserError:
    """A BrowserError (or NotPermittedError) whose text says what happened and what to do next."""
    text = f'{prefix}{e}' if prefix else str(e)
    if e.code == ErrorCode.NOT_PERMITTED:
        err: BrowserError = NotPermittedError(
            f'{text} {ENABLE_EVALUATE_HINT}' if 'evaluate' in text.lower() or 'javascript' in text.lower() else text
        )
    else:
        err = BrowserError(text)
    err.error_code = e.code
    err.details = e.details
    return err
