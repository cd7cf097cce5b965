"""Hook replies first: the one component that keeps hook replies fast while bulk work runs.

What it guarantees, in DESIGN.md's terms. A hook reply has a one-second
budget and every prompt and tool call of every session waits on one; MCP
writes and searches (bulk work) may take their time. In one Trio loop nothing
preempts a running step, so:

- A hook is *in flight* from the moment its connection shows the request's
  first bytes (`HookAwareListener`, before http/server.py has parsed anything)
  until its reply's first send (or, inside the app, until `serving_hook`
  ends); past HOOK_HOLD_MAX_SECONDS a stalled one no longer counts.
- Bulk work yields between its steps (`yield_to_hooks`): a checkpoint, then a
  wait for the hooks in flight at that moment, never longer than
  HOOK_PRIORITY_MAX_WAIT. Hooks that begin during the wait do not lengthen
  it, so under a steady stream of hooks every bulk step still gets its turn,
  and a hook that itself waits on the bulk work cannot deadlock it.
- At most MCP_CONCURRENT_REQUESTS MCP requests are served at once (plain tool
  calls and the SDK's alike: `take_bulk_turn` / `give_back_bulk_turn`); their
  replies wait for the hooks in flight, as their start did.

The actors see one capability, `YieldToHooks` (an awaitable with no
arguments), injected into each graph actor: it is awaited before a message
that changes the render and between the steps of a write (its preparation,
the change) and of a compaction. Everything else here is the HTTP edge's.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import socket
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import trio

from . import peers
from .core import constants as C

YieldToHooks = Callable[[], Awaitable[None]]


def pause_for(yield_to_hooks: YieldToHooks | None) -> Callable[[], Awaitable[None]]:
    """What a bulk step awaits between its steps: the hooks' turn when there is a seam, else a checkpoint."""
    return yield_to_hooks if yield_to_hooks is not None else trio.lowlevel.checkpoint


# The requests that are hooks: answered first.
HOOK_PATHS = frozenset({"/api/prompt_context", "/api/pre_tool", "/api/tool_event", "/api/session_bootstrap"})
PEEK_BYTES = 64
# Routine accept failures (a peer that reset before we took it): try the next one.
_IGNORED_ACCEPT = {getattr(errno, name) for name in ("EPERM", "ECONNABORTED", "EPROTO", "ENETDOWN", "ENOPROTOOPT",
                                                     "EHOSTDOWN", "ENONET", "EHOSTUNREACH", "EOPNOTSUPP",
                                                     "ENETUNREACH") if hasattr(errno, name)}


class HookInFlight:
    """One hook reply in flight; ended once, by whoever comes first."""

    __slots__ = ("_priority", "_seq")

    def __init__(self, priority: HookPriority, seq: int):
        self._priority, self._seq = priority, seq

    def end(self) -> None:
        if self._priority._inflight.pop(self._seq, None) is not None:
            self._priority._done.unpark_all()


class HookPriority:
    def __init__(self, bulk_slots: int = C.MCP_CONCURRENT_REQUESTS, max_wait: float = C.HOOK_PRIORITY_MAX_WAIT,
                 hold_limit: float = C.HOOK_HOLD_MAX_SECONDS):
        self.max_wait = max_wait
        self.hold_limit = hold_limit
        self._bulk = trio.CapacityLimiter(bulk_slots)  # MCP requests served at once
        self._inflight: dict[int, float] = {}  # hooks in flight: sequence number -> when it began
        self._seq = itertools.count()
        self._done = trio.lowlevel.ParkingLot()  # bulk steps waiting for hooks to finish

    # The hooks' side -----------------------------------------------------------
    def hook_begins(self) -> HookInFlight:
        """A hook reply begins (its request's first bytes, or the app's handling of it)."""
        seq = next(self._seq)
        self._inflight[seq] = trio.current_time()
        return HookInFlight(self, seq)

    @contextlib.contextmanager
    def serving_hook(self) -> Iterator[None]:
        """Around the app's handling of a hook: bulk work that starts meanwhile waits for it."""
        hook = self.hook_begins()
        try:
            yield
        finally:
            hook.end()

    def busy(self) -> bool:
        return self._oldest() is not None

    def _oldest(self) -> int | None:
        """The oldest hook still worth waiting for: past the hook's own time limit (a client that
        sent a hook's first bytes and stalled) nobody waits for it, so neither do the writes."""
        cutoff = trio.current_time() - self.hold_limit
        for seq, since in list(self._inflight.items()):  # oldest first
            if since >= cutoff:
                return seq
            del self._inflight[seq]
        return None

    # The bulk side -------------------------------------------------------------
    async def yield_to_hooks(self) -> None:
        """Between bulk steps: a checkpoint (a hook that just arrived gets its round), then a wait
        for the hooks in flight at that moment, a bounded while."""
        await trio.lowlevel.checkpoint()
        mark = next(self._seq)
        with trio.move_on_after(self.max_wait):
            while (oldest := self._oldest()) is not None and oldest < mark:
                await self._done.park()

    async def take_bulk_turn(self) -> None:
        """An MCP request's turn to be served (the caller bounds the wait)."""
        await self.yield_to_hooks()
        await self._bulk.acquire()

    def give_back_bulk_turn(self) -> None:
        """The turn is given back (the caller's reply then yields to hooks, as its start did)."""
        self._bulk.release()


def hook_request_starts(paths: frozenset[str] = HOOK_PATHS) -> tuple[bytes, ...]:
    return tuple(f"{method} {path}".encode() for path in sorted(paths) for method in ("POST", "GET"))


class HookAwareStream(trio.abc.HalfCloseableStream):
    """A connection that counts a hook in flight from its request's first bytes to its reply's first send."""

    def __init__(self, inner: trio.SocketStream, priority: HookPriority, starts: tuple[bytes, ...],
                 head: bytes = b""):
        self.inner = inner
        self.socket = inner.socket  # the server reads the two addresses from it
        self._priority = priority
        self._starts = starts
        self._hook: HookInFlight | None = None
        self.peer_key: tuple[Any, Any] | None = None  # its entry in peers, while open
        self._note(head)

    def _note(self, data: bytes) -> None:
        if self._hook is None and data.startswith(self._starts):
            self._hook = self._priority.hook_begins()

    def _end(self) -> None:
        if self._hook is not None:
            self._hook.end()
            self._hook = None

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        data = await self.inner.receive_some(max_bytes)
        self._note(data)
        return data

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self._end()  # the reply is written: from here the app's own serving_hook() covers the rest
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        await self.inner.send_eof()

    async def aclose(self) -> None:
        self._end()
        peers.closed(self.peer_key)
        await self.inner.aclose()


class HookAwareListener(trio.abc.Listener[HookAwareStream]):
    """Accepts connections and peeks at their first bytes: a hook request already in the socket counts at once."""

    def __init__(self, sock: socket.socket, priority: HookPriority, starts: tuple[bytes, ...]):
        sock.setblocking(False)
        self.sock = sock
        self._priority = priority
        self._starts = starts

    async def accept(self) -> HookAwareStream:
        while True:
            try:
                conn, _ = self.sock.accept()
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self.sock)
                continue
            except OSError as exc:
                if exc.errno in (errno.EBADF, errno.ENOTSOCK, errno.EINVAL):
                    raise trio.ClosedResourceError from None
                if exc.errno in _IGNORED_ACCEPT:
                    continue
                raise
            conn.setblocking(False)
            try:
                head = conn.recv(PEEK_BYTES, socket.MSG_PEEK)  # left in the socket for the server to read
            except OSError:  # nothing there yet (or the peer left): the first read decides
                head = b""
            stream = HookAwareStream(trio.SocketStream(trio.socket.from_stdlib_socket(conn)), self._priority,
                                     self._starts, head)
            stream.peer_key = peers.opened(conn)
            await trio.lowlevel.cancel_shielded_checkpoint()
            return stream

    async def aclose(self) -> None:
        trio.lowlevel.notify_closing(self.sock)
        self.sock.close()
        await trio.lowlevel.checkpoint()
