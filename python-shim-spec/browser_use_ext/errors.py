"""Maps protocol failures to the exceptions browser_use code expects (SPEC.md, "Errors")."""
from __future__ import annotations

from .compat import BrowserError, URLNotAllowedError  # noqa: F401  (re-exported)
from .transport import ActionFailed, BridgeError  # noqa: F401


class NotPermittedError(BrowserError):
    """The person has not allowed this in the extension (error_code NOT_PERMITTED), e.g. evaluate."""


ENABLE_EVALUATE_HINT = (
    'Running arbitrary JavaScript is off by default. To allow it, open the extension\'s Options page '
    '(chrome://extensions -> browser-use-ext -> Details -> Extension options) and switch on '
    '"Allow agents to run arbitrary JavaScript in pages (evaluate)", then Save. Prefer the protocol actions (click, fill, get, extract_content) where possible.'
)


def browser_error_from(e: BridgeError, prefix: str = '') -> BrowserError:
    """A BrowserError (or NotPermittedError) whose text says what happened and what to do next."""
    text = f'{prefix}{e}' if prefix else str(e)
    if e.code == 'NOT_PERMITTED':
        err: BrowserError = NotPermittedError(f'{text} {ENABLE_EVALUATE_HINT}' if 'evaluate' in text.lower() or 'javascript' in text.lower() else text)
    else:
        err = BrowserError(text)
    setattr(err, 'error_code', e.code)
    setattr(err, 'details', e.details)
    return err
