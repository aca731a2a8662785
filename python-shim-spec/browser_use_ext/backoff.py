"""The one retry pacing of the package: doubling waits up to a cap, restarted after a success.

Quick for a blip (the first try comes soon), gentle for an outage (at most one try per cap after a
few doublings). The bridge connection's reconnect loop (transport.py) and the task server's control
connection (serve.py) both pace their retries with it.
"""
from __future__ import annotations

import asyncio
from typing import Iterator


class Backoff:
    """initial_s, 2*initial_s, 4*initial_s, ... capped at max_s; ``reset()`` starts again from initial_s."""

    def __init__(self, initial_s: float, max_s: float) -> None:
        if initial_s <= 0 or max_s < initial_s:
            raise ValueError(f'backoff needs 0 < initial_s <= max_s (got {initial_s}, {max_s})')
        self.initial_s = initial_s
        self.max_s = max_s
        #: The wait the next ``take()`` (or ``sleep()``) uses.
        self.next_s = initial_s

    def take(self) -> float:
        """The next wait; the one after it doubles (up to max_s)."""
        delay = self.next_s
        self.next_s = min(self.max_s, delay * 2)
        return delay

    def reset(self) -> None:
        """After a success: the next failure is retried quickly again."""
        self.next_s = self.initial_s

    async def sleep(self) -> None:
        await asyncio.sleep(self.take())

    def __iter__(self) -> Iterator[float]:
        while True:
            yield self.take()
