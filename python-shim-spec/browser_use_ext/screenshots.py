"""Screenshots for browser_use: the viewport as base64 PNG, taken by the extension (captureVisibleTab).

The state's screenshot comes with get_state (include_screenshot, page_state.py); take_screenshot is the
public call. Chrome's quota of two captures a second is handled by the extension (it retries once).
"""
from __future__ import annotations

import base64
import logging
import struct
import zlib
from typing import TYPE_CHECKING, Optional

from .transport import ActionFailed

if TYPE_CHECKING:
    from .session_state import ContextSurface

logger = logging.getLogger(__name__)


async def take_screenshot(ctx: 'ContextSurface', highlight: bool = False) -> Optional[str]:
    """Base64 PNG of the visible viewport, or None when Chrome refuses it (a page it does not let
    extensions capture). highlight: with browser_use's numbered boxes of the latest state."""
    try:
        r = await ctx.call('screenshot', {'highlight_elements': True} if highlight else {})
    except ActionFailed as e:
        logger.info('no screenshot: %s', e)
        return None
    return ((r.get('outcome_details') or {}).get('result') or {}).get('data_base64')


def screenshot_of(result: dict) -> Optional[str]:
    """The picture of a get_state with include_screenshot (its result), or None with the reason logged."""
    shot = result.get('screenshot')
    if isinstance(shot, dict) and shot.get('data_base64'):
        return str(shot['data_base64'])
    logger.info('no screenshot: %s', (result.get('screenshot_error') or {}).get('message', 'the state came without one'))
    return None


def blank_png_base64(width: int, height: int) -> str:
    """A white RGB PNG of width x height, base64 (an about:blank viewport)."""
    width, height = max(1, min(width, 4096)), max(1, min(height, 4096))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b'\x00' + b'\xff' * (3 * width)
    header = struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)
    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(row * height, 9)) + chunk(b'IEND', b'')
    return base64.b64encode(png).decode('ascii')
