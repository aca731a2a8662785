"""Downloads an action started, as Playwright's Download / page.expect_download give them.

The extension reports a download in the action's ``outcome_details.download`` (Chrome saved it in
the person's own Downloads folder: ``filename`` is its absolute path on the machine running Chrome).
"""
from __future__ import annotations

import asyncio
import os
import shutil
from typing import Any, Optional

from ._protocol_codes import ErrorCode
from .compat import BrowserError


class DownloadNotLocal(BrowserError):
    """The file is on the machine running Chrome, which is not the one running Python."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.error_code = ErrorCode.UNSUPPORTED_ACTION


class Download:
    """Playwright's Download for a file Chrome saved (``outcome_details.download``)."""

    def __init__(self, record: dict) -> None:
        self._record = dict(record)

    @property
    def suggested_filename(self) -> str:
        return str(self._record.get('suggested_filename') or os.path.basename(str(self._record.get('filename') or '')))

    @property
    def url(self) -> str:
        """Origin and path of the download's URL (the extension drops the query: it may hold a token)."""
        return str(self._record.get('url') or '')

    @property
    def state(self) -> str:
        return str(self._record.get('state') or 'in_progress')

    async def failure(self) -> Optional[str]:
        if self.state == 'interrupted':
            return str(self._record.get('error') or 'interrupted')
        return None

    async def path(self) -> str:
        """Where Chrome saved the file (on the machine running Chrome)."""
        if self.state == 'interrupted':
            raise BrowserError(f'The download of "{self.suggested_filename}" was interrupted by Chrome '
                               f'({self._record.get("error") or "unknown reason"}); click the link again to retry.')
        return str(self._record.get('filename') or '')

    async def save_as(self, path: str | os.PathLike[str]) -> None:
        """Copy the saved file to ``path``; works only when Python runs on the machine running Chrome."""
        src = await self.path()
        if self.state != 'complete':
            raise BrowserError(f'The download of "{self.suggested_filename}" had not finished when the action ended; '
                               f'Chrome keeps saving it to {src or "the Downloads folder"}. Wait, then copy it from there.')
        if not src or not os.path.isfile(src):
            raise DownloadNotLocal(
                f'Chrome saved "{self.suggested_filename}" to {src} on the machine running Chrome, and that file is not '
                'on this machine: save_as only works when Python runs on the same machine as Chrome. '
                'Open the file from Chrome\'s Downloads folder there instead.'
            )
        target = os.fspath(path)
        parent = os.path.dirname(target)
        if parent:
            os.makedirs(parent, exist_ok=True)
        await asyncio.to_thread(shutil.copyfile, src, target)

    def __repr__(self) -> str:
        return f'<Download suggested_filename={self.suggested_filename!r} state={self.state!r}>'


def download_in(result: dict) -> Optional[Download]:
    """The download an action result reports, if any."""
    record = (result.get('outcome_details') or {}).get('download')
    return Download(record) if isinstance(record, dict) else None


def deliver(arms: 'list[asyncio.Future[Download]]', result: dict) -> None:
    """Hands an action's download to every armed expect_download of its context (SessionState.download_arms)."""
    d = download_in(result)
    if d is None or not arms:
        return
    for fut in arms:
        if not fut.done():
            fut.set_result(d)
    arms.clear()


class _DownloadInfo:
    """``async with page.expect_download() as info: ...; d = await info.value`` (Playwright's EventContextManager)."""

    def __init__(self, fut: 'asyncio.Future[Download]', timeout_ms: float) -> None:
        self._fut = fut
        self._timeout_ms = timeout_ms

    @property
    def value(self) -> 'asyncio.Future[Download]':
        return asyncio.ensure_future(self._wait())

    async def _wait(self) -> Download:
        try:
            return await asyncio.wait_for(asyncio.shield(self._fut), self._timeout_ms / 1000)
        except asyncio.TimeoutError as e:
            raise TimeoutError(f'Timeout {int(self._timeout_ms)}ms exceeded while waiting for a download: the action in the '
                               '"async with" block started none.') from e


class ExpectDownload:
    """Arms on enter: the next action of the context that starts a download resolves ``.value``."""

    def __init__(self, arms: 'list[asyncio.Future[Download]]', timeout: Optional[float] = None) -> None:
        self._arms = arms  # the context's SessionState.download_arms
        self._timeout = 30_000 if timeout is None else timeout
        self._info: Optional[_DownloadInfo] = None

    async def __aenter__(self) -> _DownloadInfo:
        fut: asyncio.Future[Download] = asyncio.get_running_loop().create_future()
        self._arms.append(fut)
        self._info = _DownloadInfo(fut, self._timeout)
        return self._info

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is not None and self._info is not None:
            if self._info._fut in self._arms:
                self._arms.remove(self._info._fut)
            self._info._fut.cancel()


def unique_path(directory: str, name: str) -> str:
    """browser_use's _get_unique_filename: name, then name (1), name (2)..."""
    base, ext = os.path.splitext(name)
    candidate, n = name, 1
    while os.path.exists(os.path.join(directory, candidate)):
        candidate = f'{base} ({n}){ext}'
        n += 1
    return os.path.join(directory, candidate)
