"""Hook replies first.

A hook gives the server one second, and every prompt and tool call of every
session waits on one, while an MCP write may take its time. In one Trio loop
nothing preempts a running step, and every await of a hook reply costs a
whole scheduling round: so bulk work keeps its rounds short and steps aside.
At most a few MCP requests are inside the SDK at once, and a new MCP request
or graph write step first waits for the hook replies in flight at that moment,
a bounded while (a hook may itself be waiting for a graph actor); replies that
arrive meanwhile wait for that one step, so the writes keep flowing.

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
    """One hook reply in flight; released once, by whoever comes first."""

    __slots__ = ("_lanes", "_seq")

    def __init__(self, lanes: Lanes, seq: int):
        self._lanes, self._seq = lanes, seq

    def release(self) -> None:
        if self._lanes._inflight.pop(self._seq, None) is not None:
            self._lanes._done.unpark_all()


class Lanes:
    def __init__(self, bulk_slots: int = C.MCP_CONCURRENT_REQUESTS, max_wait: float = C.HOOK_PRIORITY_MAX_WAIT,
                 hold_limit: float = C.HOOK_HOLD_MAX_SECONDS):
        self.max_wait = max_wait
        self.hold_limit = hold_limit
        self.bulk = trio.CapacityLimiter(bulk_slots)  # MCP requests inside the SDK at once
        self._inflight: dict[int, float] = {}  # hook replies in flight: sequence number -> when it began
        self._seq = itertools.count()
        self._done = trio.lowlevel.ParkingLot()  # bulk steps waiting for replies to finish

    @contextlib.contextmanager
    def urgent(self) -> Iterator[None]:
        """Around a hook reply: bulk work that starts meanwhile waits for it."""
        hold = self.hold()
        try:
            yield
        finally:
            hold.release()

    def hold(self) -> Hold:
        """A hook reply begins (its request's first bytes, or the app's handling of it)."""
        seq = next(self._seq)
        self._inflight[seq] = trio.current_time()
        return Hold(self, seq)

    def busy(self) -> bool:
        return self._oldest() is not None

    def _oldest(self) -> int | None:
        """The oldest reply still worth waiting for: past the hook's own time limit (a client that
        sent a hook's first bytes and stalled) nobody waits for it, so neither do the writes."""
        cutoff = trio.current_time() - self.hold_limit
        for seq, since in list(self._inflight.items()):  # oldest first
            if since >= cutoff:
                return seq
            del self._inflight[seq]
        return None

    async def step_aside(self) -> None:
        """Between bulk steps: a checkpoint (a reply that just arrived gets its round), then a wait
        for the replies in flight at that moment, a bounded while. Replies that begin during the
        wait do not lengthen it: under a steady stream of hooks each bulk step still gets its turn."""
        await trio.lowlevel.checkpoint()
        mark = next(self._seq)
        with trio.move_on_after(self.max_wait):
            while (oldest := self._oldest()) is not None and oldest < mark:
                await self._done.park()
