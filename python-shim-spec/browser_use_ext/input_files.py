"""The ``files`` of Playwright's ``set_input_files`` turned into the set_input_files action's params.

Playwright accepts a path (str or Path), a list of paths, a payload dict ``{name, mimeType, buffer}``
or a list of payloads; [] clears the input. The browser is the person's Chrome (maybe on another
machine than this Python), so the files are read here and their bytes travel with the action.
A file read from a path also carries that path: the extension accepts it only inside a folder the
person allowed for uploads in its Settings ("Folders agents may upload from"), so that setting, in
the browser, stays the one place that decides (the shim keeps no copy of it).
"""
from __future__ import annotations

import base64
import mimetypes
import os
from pathlib import Path
from typing import Any

from ._protocol_codes import ErrorCode
from .compat import BrowserError

#: What one set_input_files carries in all, decoded (the extension refuses more with FILES_TOO_LARGE).
MAX_UPLOAD_BYTES = 10 * 1024 * 1024


def _error(message: str, code: str, **details: Any) -> BrowserError:
    err = BrowserError(message)
    err.error_code = code
    err.details = details
    return err


def _from_path(p: 'str | os.PathLike[str]') -> tuple[str, str, bytes, 'str | None']:
    path = Path(p)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _error(
            f'set_input_files: no file at {str(path)!r} (looked for it on the machine running Python, not in the browser). '
            'Pass the path of an existing file, or a dict {"name", "mimeType", "buffer"} with the bytes.',
            ErrorCode.INVALID_VALUE,
            path=str(path),
        ) from None
    except IsADirectoryError:
        raise _error(
            f'set_input_files: {str(path)!r} is a folder; folders cannot be uploaded. Pass the files in it one by one (a list of paths).',
            ErrorCode.INVALID_VALUE,
            path=str(path),
        ) from None
    except OSError as e:
        raise _error(
            f'set_input_files: cannot read {str(path)!r} ({e.strerror or e}). Check the path and its permissions.',
            ErrorCode.INVALID_VALUE,
            path=str(path),
        ) from None
    mime, _ = mimetypes.guess_type(path.name)
    # The full path as written (not resolved: a link inside an allowed folder counts as inside, as
    # the extension's local-files rule says).
    return path.name, mime or '', data, os.path.abspath(path)


def _from_payload(d: dict) -> tuple[str, str, bytes, 'str | None']:
    name = d.get('name')
    buffer = d.get('buffer')
    if not isinstance(name, str) or not name or not isinstance(buffer, (bytes, bytearray, memoryview)):
        raise _error(
            'set_input_files: a file given as a dict needs "name" (str) and "buffer" (bytes), and may have "mimeType" '
            '(as Playwright\'s FilePayload), e.g. {"name": "a.txt", "mimeType": "text/plain", "buffer": b"hi"}.',
            ErrorCode.INVALID_VALUE,
        )
    mime = d.get('mimeType', d.get('mime_type'))
    if not isinstance(mime, str):
        mime = mimetypes.guess_type(name)[0] or ''
    return name, mime, bytes(buffer), None


def files_param(files: Any) -> list[dict]:
    """The action's ``files`` for what Playwright's set_input_files accepts; raises BrowserError
    (INVALID_VALUE for an unreadable or malformed entry, FILES_TOO_LARGE over 10 MiB in all) before
    anything is sent."""
    items = list(files) if isinstance(files, (list, tuple)) else [files]
    read: list[tuple[str, str, bytes, 'str | None']] = []
    for f in items:
        if isinstance(f, (str, os.PathLike)):
            read.append(_from_path(f))
        elif isinstance(f, dict):
            read.append(_from_payload(f))
        else:
            raise _error(
                f'set_input_files: cannot upload a {type(f).__name__}; pass a path (str or Path), a dict '
                '{"name", "mimeType", "buffer"}, or a list of them ([] clears the input).',
                ErrorCode.INVALID_VALUE,
            )
    total = sum(len(data) for _, _, data, _ in read)
    if total > MAX_UPLOAD_BYTES:
        raise _error(
            f'set_input_files: the files come to {total / 1048576:.1f} MiB, more than the 10 MiB one upload carries; '
            'nothing was sent. Upload fewer or smaller files (one call per file if each fits), or send a large file '
            "through the site's own upload API instead of the page.",
            ErrorCode.FILES_TOO_LARGE,
            limit_bytes=MAX_UPLOAD_BYTES,
            total_bytes=total,
        )
    return [
        {'name': name, 'mime_type': mime, 'content_base64': base64.b64encode(data).decode('ascii'),
         **({} if path is None else {'path': path})}
        for name, mime, data, path in read
    ]
