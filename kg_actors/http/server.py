"""The memory server's HTTP/1.1, over h11 on Trio: the ASGI app's requests and its /ws sockets.

Why not a general ASGI server: every prompt, file read and tool call of every session is one
request here, and hypercorn's per-request machinery (a protocol wrapper, a stream object, a task
group and a spawned task per request, events relayed through three layers) cost about 1 ms of CPU
each, a third of a tool call that does nothing (3.0-3.3 ms then, 1.8-2.3 here: bench/RESULTS.md).
This serves what the app uses, no more: keep-alive, request bodies (`Expect: 100-continue` too),
replies whole or chunked, and WebSocket upgrades (websocket.py). h11 does the parsing and framing;
a request it refuses gets 400 and its connection closed.

Connections come from hook_priority's listeners, which count a hook in flight from its request's
first bytes. A connection idle (or stalled mid-request) for KEEP_ALIVE_SECONDS is closed.
"""

from __future__ import annotations

import logging
import re
import select
import socket
from functools import partial
from http import HTTPStatus
from typing import Any
from urllib.parse import unquote

import h11
import trio

from ..core.constants import BODY_MAX_BYTES
from ..hook_priority import HookAwareListener, HookAwareStream, HookPriority, hook_request_starts
from . import websocket
from .drain import Drain

log = logging.getLogger("kg_actors.http")

# Pooled clients (the MCP SDK, hooks' keep-alive) must not race an idle close.
KEEP_ALIVE_SECONDS = 75.0
MAX_HEAD_BYTES = 64 * 1024  # a request line and headers beyond this: 400
READ_BYTES = 64 * 1024
BACKLOG = 128
# An unread request body up to this is read and dropped to keep the connection; a larger one closes it.
# Eight times the largest body taken (app.MAX_BODY): a client that sends its whole body before it reads the reply
# (the Python MCP SDK) saw a refused one's 413 only as a reset connection when the rest was left unread (1 MiB
# was drained); read in 64 KiB parts and dropped, so what it costs is bounded.
DRAIN_MAX_BYTES = 64 * 1024 * 1024

_ASGI = {"version": "3.0", "spec_version": "2.3"}
_REASONS = {s.value: s.phrase.encode() for s in HTTPStatus}


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket (SO_REUSEADDR: a restart need not wait). A name binds its IPv4
    address, as clients dial 127.0.0.1; an address with colons is IPv6."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock


async def serve(app: Any, host: str, port: int, priority: HookPriority, hook_paths: frozenset[str], *,
                keep_alive: float = KEEP_ALIVE_SECONDS, drain: Drain | None = None,
                task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
    """Serves `app` on host:port until cancelled, or until `drain` stops it and its last connection
    closes; `task_status` gets the bound address as a URL."""
    sock = bind(host, port)
    listener = HookAwareListener(sock, priority, hook_request_starts(hook_paths))
    name = sock.getsockname()
    url = f"http://[{name[0]}]:{name[1]}" if sock.family == socket.AF_INET6 else f"http://{name[0]}:{name[1]}"
    drain = drain or Drain()
    handler = partial(_serve_connection, app, keep_alive, drain)
    async with trio.open_nursery() as connections:
        async with trio.open_nursery() as accepting:  # a drain cancels this one alone
            drain.accepting = accepting.cancel_scope
            await accepting.start(partial(trio.serve_listeners, handler, [listener], handler_nursery=connections))
            task_status.started([url])


def _address(addr: Any) -> tuple[str, int] | None:
    return (str(addr[0]), int(addr[1])) if isinstance(addr, tuple) else None


async def _serve_connection(app: Any, keep_alive: float, drain: Drain, stream: HookAwareStream) -> None:
    try:
        server, client = stream.socket.getsockname(), stream.socket.getpeername()
    except OSError:  # the peer already left
        await trio.aclose_forcefully(stream)
        return
    conn = _Connection(app, stream, _address(server), _address(client), keep_alive, drain)
    try:
        await conn.run()
    except (trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError):
        pass  # the peer left or went quiet: nothing to answer
    except Exception:  # one connection's failure never takes the server down with it
        log.exception("a connection from %s failed", conn.client)
    finally:
        await trio.aclose_forcefully(stream)


class _Connection:
    """One client connection: its requests one after another, each handed to the app."""

    def __init__(self, app: Any, stream: HookAwareStream, server: tuple[str, int] | None,
                 client: tuple[str, int] | None, keep_alive: float, drain: Drain):
        self.drain = drain
        self.app = app
        self.stream = stream
        self.server, self.client = server, client
        self.keep_alive = keep_alive
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)

    async def next_event(self) -> Any:
        """h11's next event, reading the socket as it needs; a silent peer times out."""
        while True:
            event = self.h11.next_event()
            if event is not h11.NEED_DATA:
                return event
            with trio.fail_after(self.keep_alive):
                data = await self.stream.receive_some(READ_BYTES)
            self.h11.receive_data(data)  # b"": the peer closed its side

    async def send(self, event: Any) -> None:
        await self.stream.send_all(self.h11.send(event) or b"")

    async def run(self) -> None:
        while True:
            try:
                with self.drain.idle(self._pending) as waiting:  # a graceful stop closes an idle connection
                    event = await self.next_event()
            except h11.RemoteProtocolError as exc:
                await self._refuse(exc)
                return
            if waiting.cancelled_caught:
                return
            if isinstance(event, h11.Request):
                scope = self._scope(event)
                if websocket.is_upgrade(event):
                    await websocket.serve(self, event, {**scope, "type": "websocket", "scheme": "ws"})
                    return
                if _declared_too_big(event):
                    await self._refuse_early(413, f"body is over {BODY_MAX_BYTES} bytes".encode())
                    return
                with self.drain.serving():  # ... and waits for one in progress to be answered
                    await _Exchange(self, scope).run()
            elif event is h11.PAUSED or isinstance(event, h11.ConnectionClosed):
                return
            if self.drain.draining or not await self._next_cycle():
                return

    def _pending(self) -> bool:
        """Bytes of a next request are here (in h11's buffer, or readable on the socket)."""
        if self.h11.trailing_data[0]:
            return True
        try:
            poller = select.poll()  # not select(): no limit on the descriptor's number
            poller.register(self.stream.socket.fileno(), select.POLLIN)
            return bool(poller.poll(0))
        except (OSError, ValueError):  # closed meanwhile
            return False

    def _scope(self, request: h11.Request) -> dict[str, Any]:
        target, headers = bytes(request.target), list(request.headers)
        if (scheme := _ABSOLUTE.match(target)) is not None:  # the absolute form (RFC 9112 3.2.2), which servers
            # must take: its host stands for the Host header (checked so)
            authority, path = scheme.group(1), target[scheme.end():]
            target = path if path.startswith(b"/") else b"/" + path
            headers = [(n, v) for n, v in headers if n != b"host"] + [(b"host", authority)]
        raw_path, _, query = target.partition(b"?")
        return {
            "type": "http", "asgi": _ASGI, "http_version": request.http_version.decode(),
            "method": request.method.decode(), "scheme": "http",
            "path": unquote(raw_path.decode("latin-1")), "raw_path": raw_path, "query_string": query,
            "root_path": "", "headers": headers,  # names lowercased by h11
            "client": self.client, "server": self.server, "extensions": {},
        }

    async def _next_cycle(self) -> bool:
        """After a reply: ready for the connection's next request, or False to close it."""
        state = self.h11
        if state.our_state is not h11.DONE:
            return False  # the reply was cut short: the connection cannot carry another
        drained = 0
        try:
            while state.their_state is h11.SEND_BODY:  # the app did not read all the body
                event = await self.next_event()
                if isinstance(event, h11.Data):
                    drained += len(event.data)
                    if drained > DRAIN_MAX_BYTES:
                        return False
                elif not isinstance(event, h11.EndOfMessage):
                    return False
        except h11.RemoteProtocolError:
            return False
        if state.our_state is h11.DONE and state.their_state is h11.DONE:
            state.start_next_cycle()
            return True
        return False

    async def _refuse(self, exc: h11.RemoteProtocolError) -> None:
        if self.h11.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            return
        # h11 is in its error state: the reply is framed by hand (Connection: close).
        await self._refuse_early(exc.error_status_hint, f"bad request: {exc}".encode())

    async def _refuse_early(self, status: int, body: bytes) -> None:
        """A reply before the app, closing the connection (what the peer sends next is not read)."""
        head = (f"HTTP/1.1 {status} {_REASONS.get(status, b'').decode()}\r\ncontent-type: text/plain\r\n"
                f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode()
        await self.stream.send_all(head + body)


_ABSOLUTE = re.compile(rb"(?i)https?://([^/?#]*)")


def _declared_too_big(request: h11.Request) -> bool:
    """A request that waits for 100 Continue before sending a body it declares over the limit: refused before
    the body comes (the app would refuse it after, once the client had sent it all)."""
    headers = dict(request.headers)
    declared = headers.get(b"content-length", b"")
    return (headers.get(b"expect", b"").lower() == b"100-continue" and declared.isdigit()
            and int(declared) > BODY_MAX_BYTES)


class _Exchange:
    """One HTTP request and its reply, as the ASGI app sees them."""

    def __init__(self, conn: _Connection, scope: dict[str, Any]):
        self.conn = conn
        self.scope = scope
        self.body_done = False
        self.status: int | None = None
        self.headers: list[tuple[bytes, bytes]] = []
        self.finished = trio.Event()  # the reply is whole (or the app is done)
        self.stalled = False  # the body stopped arriving for the keep-alive's seconds

    async def run(self) -> None:
        try:
            await self.conn.app(self.scope, self.receive, self.send)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise
        except Exception:
            if self.stalled:  # the app only met the disconnect its body's stall made: no fault of its own
                await self._stalled()
                return
            log.exception("the app failed on %s %s", self.scope["method"], self.scope["path"])
            await self._reply_whole(500, b'{"error": "internal server error"}')  # unless its head went out
            return
        finally:
            self.finished.set()
        if self.stalled:
            await self._stalled()
        elif self.conn.h11.our_state is h11.SEND_RESPONSE:  # the app answered nothing
            await self._reply_whole(500, b'{"error": "the server gave no reply"}')
        elif self.conn.h11.our_state is h11.SEND_BODY:
            log.error("the app left its reply to %s unfinished", self.scope["path"])

    async def receive(self) -> dict[str, Any]:
        if self.body_done:
            # No more body: what is left is the wait for the end (h11 reads nothing more meanwhile).
            await self.finished.wait()
            return {"type": "http.disconnect"}
        h = self.conn.h11
        if h.they_are_waiting_for_100_continue:
            await self.conn.send(h11.InformationalResponse(status_code=100, headers=[]))
        parts: list[bytes] = []
        while True:
            try:
                # Once a part is in, only what is already read joins it: a message never waits for more.
                event = h.next_event() if parts else await self.conn.next_event()
            except h11.RemoteProtocolError:
                event = None
            except trio.TooSlowError:  # a client that stopped mid-body: gone, as far as this request goes
                self.stalled, event = True, None
            if isinstance(event, h11.Data):
                parts.append(bytes(event.data))
            elif event is h11.NEED_DATA:
                return {"type": "http.request", "body": b"".join(parts), "more_body": True}
            elif isinstance(event, h11.EndOfMessage):
                self.body_done = True
                return {"type": "http.request", "body": b"".join(parts), "more_body": False}
            else:  # the peer closed mid-body, or broke the framing
                self.body_done = True
                return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        if self.stalled:
            return  # the request was never whole: what the app answers to its disconnect goes nowhere (a 408 does)
        await self._send(message)

    async def _send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            if self.status is not None:
                raise RuntimeError("http.response.start sent twice")
            self.status = int(message["status"])
            self.headers = [(bytes(k), bytes(v)) for k, v in message.get("headers", ())]
        elif kind == "http.response.body":
            h = self.conn.h11
            if self.status is None or h.our_state not in (h11.SEND_RESPONSE, h11.SEND_BODY):
                raise RuntimeError("http.response.body: no reply started, or the reply is already whole")
            out = bytearray()
            if h.our_state is h11.SEND_RESPONSE:  # the head goes with the first part
                out += h.send(h11.Response(status_code=self.status, headers=self.headers,
                                           reason=_REASONS.get(self.status, b""))) or b""
            body = message.get("body", b"")
            if body and self.scope["method"] != "HEAD":  # a reply to HEAD has its head only
                out += h.send(h11.Data(data=body)) or b""
            if not message.get("more_body", False):
                out += h.send(h11.EndOfMessage()) or b""
                self.finished.set()
            await self.conn.stream.send_all(out)
        else:
            raise RuntimeError(f"unexpected ASGI message {kind!r} on an HTTP request")

    async def _stalled(self) -> None:
        """A 408 and the connection closed (h11 cannot carry another request after a cut body): one line in
        the log, not the app's traceback of the disconnect it was handed."""
        log.info("a %s %s stopped sending its body for %.0f s: answered 408", self.scope["method"],
                 self.scope["path"], self.conn.keep_alive)
        body = b'{"error": "the request body stopped arriving"}'
        if self.conn.h11.our_state is h11.SEND_RESPONSE:
            self.status, self.headers = 408, [(b"content-type", b"application/json"), (b"connection", b"close"),
                                              (b"content-length", str(len(body)).encode())]
            await self._send({"type": "http.response.body", "body": body})

    async def _reply_whole(self, status: int, body: bytes) -> None:
        if self.conn.h11.our_state is not h11.SEND_RESPONSE:
            return
        self.status, self.headers = status, [(b"content-type", b"application/json"),
                                             (b"content-length", str(len(body)).encode())]
        await self.send({"type": "http.response.body", "body": body})
