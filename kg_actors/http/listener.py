"""Hypercorn's HTTP/1.1 server over a listener that knows a hook request by its first bytes.

Bulk work steps aside while a hook reply is in flight (lanes.py), but the app
learns that a request is a hook only after hypercorn has accepted, read and
parsed it and started the app's task: several scheduling rounds, each of which
would run a write step. Here the hold starts when the request line is first
seen: on accept (a curl hook's request is usually already in the socket) or on
the first read of a kept-alive connection. It ends with the reply's first send.
"""

from __future__ import annotations

import errno
import socket
from functools import partial

import trio
from hypercorn.config import Config
from hypercorn.trio.statsd import StatsdLogger
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState
from hypercorn.utils import repr_socket_addr, wrap_app

from ..lanes import Hold, Lanes

PEEK_BYTES = 64
# Routine accept failures (a peer that reset before we took it): try the next one.
_IGNORED_ACCEPT = {getattr(errno, name) for name in ("EPERM", "ECONNABORTED", "EPROTO", "ENETDOWN", "ENOPROTOOPT",
                                                     "EHOSTDOWN", "ENONET", "EHOSTUNREACH", "EOPNOTSUPP",
                                                     "ENETUNREACH") if hasattr(errno, name)}


def hook_request_starts(paths: frozenset[str]) -> tuple[bytes, ...]:
    return tuple(f"{method} {path}".encode() for path in sorted(paths) for method in ("POST", "GET"))


class HookAwareStream(trio.abc.HalfCloseableStream):
    """A connection that holds bulk work from a hook request's first bytes to its reply's first send."""

    def __init__(self, inner: trio.SocketStream, lanes: Lanes, starts: tuple[bytes, ...], head: bytes = b""):
        self.inner = inner
        self.socket = inner.socket  # hypercorn reads the peer's address from it
        self._lanes = lanes
        self._starts = starts
        self._hold: Hold | None = None
        self._note(head)

    def _note(self, data: bytes) -> None:
        if self._hold is None and data.startswith(self._starts):
            self._hold = self._lanes.hold()

    def _release(self) -> None:
        if self._hold is not None:
            self._hold.release()
            self._hold = None

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        data = await self.inner.receive_some(max_bytes)
        self._note(data)
        return data

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self._release()  # the reply is written: from here the app's own urgent() covers the rest
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        await self.inner.send_eof()

    async def aclose(self) -> None:
        self._release()
        await self.inner.aclose()


class HookAwareListener(trio.abc.Listener[HookAwareStream]):
    def __init__(self, sock: socket.socket, lanes: Lanes, starts: tuple[bytes, ...]):
        sock.setblocking(False)
        self.sock = sock
        self._lanes = lanes
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
                head = conn.recv(PEEK_BYTES, socket.MSG_PEEK)  # left in the socket for hypercorn to read
            except OSError:  # nothing there yet (or the peer left): the first read decides
                head = b""
            stream = HookAwareStream(trio.SocketStream(trio.socket.from_stdlib_socket(conn)), self._lanes,
                                     self._starts, head)
            await trio.lowlevel.cancel_shielded_checkpoint()
            return stream

    async def aclose(self) -> None:
        trio.lowlevel.notify_closing(self.sock)
        self.sock.close()
        await trio.lowlevel.checkpoint()


async def serve(app, config: Config, lanes: Lanes, hook_paths: frozenset[str], *,
                task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
    """Plain-HTTP hypercorn on `config.bind`, with hook-aware listeners; runs until cancelled.

    The app gets no lifespan events (ours needs none); TLS and QUIC binds are refused.
    """
    config.set_statsd_logger_class(StatsdLogger)
    sockets = config.create_sockets()
    if sockets.secure_sockets or sockets.quic_sockets:
        raise ValueError("bind: the memory server serves plain HTTP on loopback only")
    starts = hook_request_starts(hook_paths)
    listeners, binds = [], []
    for sock in sockets.insecure_sockets:
        sock.listen(config.backlog)
        listeners.append(HookAwareListener(sock, lanes, starts))
        binds.append(f"http://{repr_socket_addr(sock.family, sock.getsockname())}")
    context = WorkerContext(None)
    handler = partial(TCPServer, wrap_app(app, config.wsgi_max_body_size, "asgi"), config, context, ConnectionState({}))
    async with trio.open_nursery() as nursery:
        await nursery.start(partial(trio.serve_listeners, handler, listeners, handler_nursery=nursery))
        task_status.started(binds)
