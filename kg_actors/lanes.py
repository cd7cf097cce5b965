"""Hook replies first.

A hook gives the server one second, and every prompt and tool call of every
session waits on one, while an MCP write may take its time. In one Trio loop
nothing preempts a running step, and every await of a hook reply costs a
whole scheduling round: so bulk work keeps its rounds short and steps aside.
At most a few MCP requests are inside the SDK at once, and while a hook reply
is in flight new MCP requests and graph writes wait for it, a bounded while
(a hook may itself be waiting for a graph actor).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import trio

from .core import constants as C


class Lanes:
    def __init__(self, bulk_slots: int = C.MCP_CONCURRENT_REQUESTS, max_wait: float = C.HOOK_PRIORITY_MAX_WAIT):
        self.max_wait = max_wait
        self.bulk = trio.CapacityLimiter(bulk_slots)  # MCP requests inside the SDK at once
        self._urgent = 0
        self._clear = trio.Event()
        self._clear.set()

    @contextlib.contextmanager
    def urgent(self) -> Iterator[None]:
        """Around a hook reply: bulk work that starts meanwhile waits for it."""
        if self._urgent == 0:
            self._clear = trio.Event()
        self._urgent += 1
        try:
            yield
        finally:
            self._urgent -= 1
            if self._urgent == 0:
                self._clear.set()

    async def step_aside(self) -> None:
        """Between bulk steps: always a checkpoint (a hook reply that just arrived gets its round),
        then, while hook replies are in flight, a wait for them."""
        if not self._urgent:
            await trio.lowlevel.checkpoint()
            return
        with trio.move_on_after(self.max_wait):
            await self._clear.wait()
