"""Hook replies first.

A hook gives the server one second, and every prompt and tool call of every
session waits on one, while an MCP write may take its time. In one Trio loop
nothing preempts a running step, and every await of a hook reply costs a
whole scheduling round: so bulk work keeps its rounds short and steps aside.
At most a few MCP requests are inside the SDK at once, and while a hook reply
is in flight new MCP requests and graph writes wait for it, a bounded while
(a hook may itself be waiting for a graph actor).

A hook is in flight from the moment its connection shows the request's first
bytes (a `hold`, taken by the listener, http/listener.py) until the app has
sent its reply (`urgent`, around the app's handling).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator

import trio

from .core import constants as C


class Hold:
    """One connection's claim that a hook request is arriving; released once, by whoever comes first."""

    __slots__ = ("_lanes", "_key")

    def __init__(self, lanes: Lanes, key: int):
        self._lanes, self._key = lanes, key

    def release(self) -> None:
        self._lanes._holds.pop(self._key, None)
        self._lanes._changed()


class Lanes:
    def __init__(self, bulk_slots: int = C.MCP_CONCURRENT_REQUESTS, max_wait: float = C.HOOK_PRIORITY_MAX_WAIT,
                 hold_limit: float = C.HOOK_HOLD_MAX_SECONDS):
        self.max_wait = max_wait
        self.hold_limit = hold_limit
        self.bulk = trio.CapacityLimiter(bulk_slots)  # MCP requests inside the SDK at once
        self._replies = 0
        self._holds: dict[int, float] = {}  # hold key -> when it was taken
        self._keys = itertools.count()
        self._clear = trio.Event()
        self._clear.set()

    @contextlib.contextmanager
    def urgent(self) -> Iterator[None]:
        """Around a hook reply: bulk work that starts meanwhile waits for it."""
        self._replies += 1
        self._changed()
        try:
            yield
        finally:
            self._replies -= 1
            self._changed()

    def hold(self) -> Hold:
        """A hook request is arriving on a connection: bulk work waits from now, not from the app's start."""
        key = next(self._keys)
        self._holds[key] = trio.current_time()
        self._changed()
        return Hold(self, key)

    def busy(self) -> bool:
        if self._holds:
            # A client that sent a hook's first bytes and stalled must not slow the writes for long:
            # past the hook's own time limit nobody waits for that reply.
            cutoff = trio.current_time() - self.hold_limit
            for key in [k for k, since in self._holds.items() if since < cutoff]:
                del self._holds[key]
        return bool(self._replies or self._holds)

    def _changed(self) -> None:
        if self.busy():
            if self._clear.is_set():
                self._clear = trio.Event()
        else:
            self._clear.set()

    async def step_aside(self) -> None:
        """Between bulk steps: a checkpoint (a hook reply that just arrived gets its round), then,
        while hook replies are in flight (including ones that arrived during that round), a wait."""
        await trio.lowlevel.checkpoint()
        if self.busy():
            with trio.move_on_after(self.max_wait):
                await self._clear.wait()
