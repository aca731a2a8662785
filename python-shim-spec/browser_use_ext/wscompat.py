"""The few websockets calls the shim makes, across websockets 10.4 .. 17.x (Debian 12 ships 10.4; the newest is supported too).

websockets 14 made the new asyncio implementation the default behind ``websockets.connect``: its
``ClientConnection`` has no ``closed``/``open`` attributes (the legacy ``WebSocketClientProtocol``
of 10.x-13.x had them), and from 15.0 it connects through a proxy found in the environment
(HTTP(S)_PROXY). The shim therefore never reads ``closed``/``open`` (it tracks the end of its own
reader loop) and always dials the loopback bridge directly.

What is used here exists in every supported version: ``connect(uri, max_size=, ping_interval=,
open_timeout=)`` as an async context/awaitable, ``send``, ``recv``, ``async for``, ``close(code,
reason)``, ``state``, ``close_code``/``close_reason`` and ``websockets.exceptions.{ConnectionClosed,
WebSocketException}``.
"""
from __future__ import annotations

from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, WebSocketException

try:  # websockets >= 10: websockets.version.version is "10.4", "17.4", ...
    from websockets.version import version as _version
except Exception:  # pragma: no cover - very old releases are refused by pyproject
    _version = getattr(websockets, '__version__', '0')

VERSION: str = str(_version)


def _major(v: str) -> int:
    try:
        return int(v.split('.', 1)[0])
    except ValueError:
        return 0


MAJOR = _major(VERSION)
__all__ = ['VERSION', 'MAJOR', 'ConnectionClosed', 'WebSocketException', 'connect', 'close_info', 'is_open']


def connect(uri: str, **kwargs: Any) -> Any:
    """``websockets.connect`` for a loopback bridge: no proxy (websockets >= 15 would use one from
    the environment, and the bridge accepts loopback peers only)."""
    if MAJOR >= 15:
        kwargs.setdefault('proxy', None)
    return websockets.connect(uri, **kwargs)


def is_open(ws: Any) -> bool:
    """Whether the connection is in the OPEN state (``state`` exists in every supported version:
    the legacy protocol's and the new Connection's; both are websockets' State enum)."""
    state = getattr(ws, 'state', None)
    return getattr(state, 'name', None) == 'OPEN'


def close_info(ws: Any) -> tuple[int, str]:
    """(close code, reason) of a closed connection, 1006 when it ended without a close frame."""
    code = getattr(ws, 'close_code', None)
    reason = getattr(ws, 'close_reason', None)
    return (int(code) if code is not None else 1006, str(reason or ''))
