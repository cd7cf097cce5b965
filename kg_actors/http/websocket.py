"""ASGI WebSockets over an upgraded HTTP/1.1 connection (server.py): the handshake by h11, frames by wsproto.

The app's messages map one to one: `websocket.connect` first, then `websocket.accept` (the 101
reply) or `websocket.close` before it (403); text and binary messages both ways, whole (fragments
are joined before the app sees them); pings answered here, and sent to a silent client (closed when
it does not answer); a close from either side ends it, and the app hears `websocket.disconnect` with
the peer's code (1006 when the connection just broke).
Sends after the end are dropped, as the app cannot tell a closed socket from a closing one.
"""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus
from typing import Any, Protocol

import h11
import trio
from wsproto.connection import Connection, ConnectionState, ConnectionType
from wsproto.events import BytesMessage, CloseConnection, Ping, TextMessage
from wsproto.utilities import LocalProtocolError, RemoteProtocolError, generate_accept_token

ABNORMAL_CLOSURE = 1006
MAX_MESSAGE_BYTES = 1024 * 1024  # a larger message from a client closes its socket (1009)
# A client silent this long is pinged, and closed when nothing (its pong) comes back within ANSWER_SECONDS:
# one that upgraded and went away without a word (a sleeping laptop's tab, a killed client behind a
# proxy) held its socket and feed queue for ever. A browser answers pings by itself.
PING_SECONDS = 30.0
ANSWER_SECONDS = 30.0


class Upgradable(Protocol):
    """What this needs of server.py's connection: its app, its stream and h11's view of it."""

    @property
    def app(self) -> Any: ...

    @property
    def stream(self) -> trio.abc.Stream: ...

    @property
    def h11(self) -> h11.Connection: ...

    async def next_event(self) -> Any: ...

    async def send(self, event: Any) -> None: ...


def is_upgrade(request: h11.Request) -> bool:
    return request.method == b"GET" and b"websocket" in _header(request, b"upgrade").lower()


def _header(request: h11.Request, name: bytes) -> bytes:
    return next((v for k, v in request.headers if k == name), b"")


async def serve(conn: Upgradable, request: h11.Request, scope: dict[str, Any]) -> None:
    key = _header(request, b"sec-websocket-key")
    protocols = [p.strip().decode("latin-1") for p in _header(request, b"sec-websocket-protocol").split(b",")
                 if p.strip()]
    try:  # a GET has no body: its end puts h11 where a 101 may be sent
        end = await conn.next_event()
    except h11.RemoteProtocolError:
        return
    if not isinstance(end, h11.EndOfMessage):
        return
    if not key or _header(request, b"sec-websocket-version") != b"13":
        body = b"a WebSocket upgrade needs Sec-WebSocket-Key and Sec-WebSocket-Version: 13"
        await conn.send(h11.Response(status_code=400, reason=b"Bad Request",
                                     headers=[(b"content-length", str(len(body)).encode()), (b"connection", b"close")]))
        await conn.send(h11.Data(data=body))
        await conn.send(h11.EndOfMessage())
        return
    socket = _Socket(conn, key)
    # ASGI's denial response: an app may answer the upgrade with an HTTP reply of its own status (421, 403).
    extensions = {**scope.get("extensions", {}), "websocket.http.response": {}}
    await conn.app({**scope, "subprotocols": protocols, "extensions": extensions}, socket.receive, socket.send)
    if socket.state == "accepted":
        await socket.close(1000)
    elif socket.state == "connecting":  # the app neither accepted nor refused: refused
        await socket.refuse()


class _Socket:
    def __init__(self, conn: Upgradable, key: bytes):
        self.conn = conn
        self.key = key
        self.state = "connecting"  # -> "accepted" -> "closed", or -> "closed" (refused)
        self.told_connect = False
        self.ws = Connection(ConnectionType.SERVER)
        # The app's sender and the receiver's pongs share the socket: whoever is writing also sends
        # what the other queued meanwhile (two tasks never write at once).
        self._outbox = bytearray()
        self._writing = False
        self._parts: list[Any] = []
        self._size = 0
        self._denial: tuple[int, list[tuple[bytes, bytes]], bytearray] | None = None

    async def receive(self) -> dict[str, Any]:
        if not self.told_connect:
            self.told_connect = True
            return {"type": "websocket.connect"}
        if self.state != "accepted":
            return {"type": "websocket.disconnect", "code": ABNORMAL_CLOSURE}
        while True:
            for event in self.ws.events():
                message = await self._take(event)
                if message is not None:
                    return message
            data = await self._read()
            if not data:
                self.state = "closed"
                return {"type": "websocket.disconnect", "code": ABNORMAL_CLOSURE}
            try:
                self.ws.receive_data(bytes(data))
            except RemoteProtocolError:
                self.state = "closed"
                return {"type": "websocket.disconnect", "code": 1002}

    async def _read(self) -> bytes:
        """The client's next bytes; b"" once it is gone: closed, broken, or silent through a ping's wait."""
        pinged = False
        while True:
            with trio.move_on_after(ANSWER_SECONDS if pinged else PING_SECONDS):
                try:
                    return bytes(await self.conn.stream.receive_some(64 * 1024))
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    return b""
            if pinged:
                return b""  # no pong: its connection is closed (server.py) as if it broke
            await self._write(Ping(b"kg"))
            pinged = True

    async def _take(self, event: Any) -> dict[str, Any] | None:
        if isinstance(event, TextMessage | BytesMessage):
            self._parts.append(event.data)
            self._size += len(event.data)
            if self._size > MAX_MESSAGE_BYTES:
                await self.close(1009)
                return {"type": "websocket.disconnect", "code": 1009}
            if not event.message_finished:
                return None
            parts, self._parts, self._size = self._parts, [], 0
            if isinstance(event, TextMessage):
                return {"type": "websocket.receive", "text": "".join(parts)}
            return {"type": "websocket.receive", "bytes": b"".join(parts)}
        if isinstance(event, Ping):
            await self._write(event.response())
            return None
        if isinstance(event, CloseConnection):
            if self.ws.state is ConnectionState.REMOTE_CLOSING:
                await self._write(event.response())
            self.state = "closed"
            return {"type": "websocket.disconnect", "code": event.code}
        return None  # a pong

    async def send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "websocket.accept":
            if self.state != "connecting":
                raise RuntimeError("websocket.accept: the socket is not waiting to be accepted")
            headers = [(b"upgrade", b"websocket"), (b"connection", b"Upgrade"),
                       (b"sec-websocket-accept", generate_accept_token(self.key))]
            if message.get("subprotocol"):
                headers.append((b"sec-websocket-protocol", message["subprotocol"].encode()))
            headers += [(bytes(k), bytes(v)) for k, v in message.get("headers", ())]
            await self.conn.send(h11.InformationalResponse(status_code=101, headers=headers))
            self.state = "accepted"
            leftover, _ = self.conn.h11.trailing_data  # frames the client sent right behind its request
            if leftover:
                self.ws.receive_data(bytes(leftover))
        elif kind == "websocket.send":
            if self.state != "accepted":
                return
            if message.get("text") is not None:
                await self._write(TextMessage(data=message["text"]))
            else:
                await self._write(BytesMessage(data=bytes(message.get("bytes") or b"")))
        elif kind == "websocket.http.response.start":
            if self.state != "connecting":
                raise RuntimeError("websocket.http.response.start: the socket is not waiting to be accepted")
            self._denial = (int(message["status"]), [(bytes(k), bytes(v)) for k, v in message.get("headers", ())],
                            bytearray())
        elif kind == "websocket.http.response.body":
            if self._denial is None or self.state != "connecting":
                raise RuntimeError("websocket.http.response.body: no denial response started")
            self._denial[2].extend(message.get("body") or b"")
            if not message.get("more_body"):
                await self.refuse(*self._denial)
        elif kind == "websocket.close":
            if self.state == "connecting":
                await self.refuse()
            else:
                await self.close(int(message.get("code", 1000)), message.get("reason") or "")
        else:
            raise RuntimeError(f"unexpected ASGI message {kind!r} on a WebSocket")

    async def close(self, code: int, reason: str = "") -> None:
        if self.state == "accepted" and self.ws.state is ConnectionState.OPEN:
            await self._write(CloseConnection(code=code, reason=reason))
        self.state = "closed"

    async def refuse(self, status: int = 403, headers: Sequence[tuple[bytes, bytes]] = (),
                     body: bytes | bytearray = b"") -> None:
        self.state = "closed"
        kept = [(k, v) for k, v in headers if k.lower() not in (b"content-length", b"connection")]
        try:
            reason = HTTPStatus(status).phrase.encode()
        except ValueError:
            reason = b""
        await self.conn.send(h11.Response(status_code=status, reason=reason, headers=[
            *kept, (b"content-length", str(len(body)).encode()), (b"connection", b"close")]))
        if body:
            await self.conn.send(h11.Data(data=bytes(body)))
        await self.conn.send(h11.EndOfMessage())

    async def _write(self, event: Any) -> None:
        try:
            self._outbox += self.ws.send(event)
        except LocalProtocolError:  # the socket is closing: nothing more goes out
            return
        if self._writing:
            return  # the write under way sends it next
        self._writing = True
        try:
            while self._outbox:
                data, self._outbox = bytes(self._outbox), bytearray()
                await self.conn.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.state = "closed"
        finally:
            self._writing = False
