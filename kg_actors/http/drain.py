"""A graceful stop of the HTTP server: what is in progress is answered, nothing new is taken.

A SIGTERM (`kg stop`, an upgrade, a logout) used to cancel every connection at once: requests in
progress got no reply, and a write that landed anyway looked failed to the agent that sent it. Now
the stop first drains: the listeners stop accepting, connections waiting for their next request
close, and the requests being served go on to their replies, for at most the drain's seconds. A
connection whose next request is already in its socket when the drain starts is served too: its
client sent it, and a close now would leave it not knowing whether it was done.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import trio


class Drain:
    """Shared by the server's connections (the state) and the runtime (which starts the drain)."""

    def __init__(self) -> None:
        self.draining = False
        self.accepting: trio.CancelScope | None = None  # the listeners' accept loops, set by the server
        self._busy = 0
        self._idle: dict[trio.CancelScope, Callable[[], bool]] = {}
        self._awaited: set[trio.CancelScope] = set()  # idle with a request already sent: waited for
        self._quiet = trio.Event()

    @contextmanager
    def idle(self, pending: Callable[[], bool]) -> Iterator[trio.CancelScope]:
        """Around a connection's wait for its next request (`pending`: bytes of it have arrived). A
        drain cancels it unless a request is on its way; `cancelled_caught` then says: close."""
        with trio.CancelScope() as scope:
            if self.draining and not pending():
                scope.cancel()
            self._idle[scope] = pending
            try:
                yield scope
            finally:
                del self._idle[scope]
                self._awaited.discard(scope)
                self._check()

    @contextmanager
    def serving(self) -> Iterator[None]:
        """Around one request and its reply: a drain waits for it."""
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1
            self._check()

    def _check(self) -> None:
        if self.draining and not self._busy and not self._awaited:
            self._quiet.set()

    async def drain(self, seconds: float) -> bool:
        """Stop accepting, close idle connections, wait for the requests in progress; whether they all
        finished within `seconds`."""
        self.draining = True
        if self.accepting is not None:
            self.accepting.cancel()
        for scope, pending in list(self._idle.items()):
            if pending():
                self._awaited.add(scope)
            else:
                scope.cancel()
        self._check()
        with trio.move_on_after(seconds):
            await self._quiet.wait()
        return self._quiet.is_set()
