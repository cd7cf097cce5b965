"""The editor port's bounds on clients that stop talking (editor/server.py's hypercorn, stalled_body.py),
under Trio's MockClock: a body that stops arriving gets a 408 as on the main port, a WebSocket that answers
no ping is closed, one that answers stays."""

from __future__ import annotations

import json
import socket
from contextlib import asynccontextmanager

import trio
from hypercorn.trio import serve as hyper_serve
from trio_websocket import open_websocket

from kg_actors.editor import server as editor
from kg_actors.http.server import KEEP_ALIVE_SECONDS
from kg_actors.http.websocket import PING_SECONDS


async def api(scope, receive, send) -> None:
    """Stands for the memory server's app: echoes a body and WebSocket messages."""
    if scope["type"] == "websocket":
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] != "websocket.disconnect":
            await send({"type": "websocket.send", "text": message.get("text", "")})
        api.ws_gone.set()
        return
    body = b""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            await send({"type": "http.response.start", "status": 400, "headers": []})  # goes nowhere
            return
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": json.dumps({"got": len(body)}).encode()})


@asynccontextmanager
async def editor_port():
    api.ws_gone = trio.Event()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(hyper_serve, editor.build_app(api), editor.hyper_config(sock.detach()))
        for _ in range(1000):  # bound and serving: a connection is taken
            try:
                (await trio.open_tcp_stream("127.0.0.1", port)).socket.close()
                break
            except OSError:
                await trio.sleep(0.01)
        yield port
        nursery.cancel_scope.cancel()


async def read_to_end(stream) -> bytes:
    out = b""
    while data := await stream.receive_some(65536):
        out += data
    return out


async def test_a_body_that_stops_arriving_on_the_editor_port_gets_a_408_and_its_connection_closed(autojump_clock):
    async with editor_port() as port:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        await stream.send_all(b"POST /api/nodes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 100\r\n\r\n{\"a\":")
        start = trio.current_time()
        with trio.fail_after(10 * KEEP_ALIVE_SECONDS):  # virtual time: it was held for good
            reply = await read_to_end(stream)
        took = trio.current_time() - start
        fine = await trio.open_tcp_stream("127.0.0.1", port)  # the port serves on
        await fine.send_all(b"POST /api/nodes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
                            b"Connection: close\r\n\r\n{}")
        assert (await read_to_end(fine)).startswith(b"HTTP/1.1 200 ")
    assert reply.startswith(b"HTTP/1.1 408 "), reply
    assert reply.endswith(b'{"error": "the request body stopped arriving"}'), reply
    assert KEEP_ALIVE_SECONDS <= took < KEEP_ALIVE_SECONDS + 5, took


async def test_a_websocket_on_the_editor_port_that_answers_no_ping_is_pinged_then_closed(autojump_clock):
    async with editor_port() as port:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        await stream.send_all(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                              b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        start = trio.current_time()
        with trio.fail_after(10 * editor.READ_SECONDS):  # virtual time: it was held for good
            heard = await read_to_end(stream)
        took = trio.current_time() - start
        await api.ws_gone.wait()  # the app heard it go
    assert heard.startswith(b"HTTP/1.1 101 ")
    assert heard.count(b"\x89\x00") >= editor.READ_SECONDS // PING_SECONDS - 1  # pinged all along
    assert took >= editor.READ_SECONDS


async def test_a_websocket_on_the_editor_port_that_answers_the_pings_stays_open(autojump_clock):
    async with editor_port() as port:
        async with open_websocket("127.0.0.1", port, "/ws", use_ssl=False) as ws:  # answers pings, as a browser
            await trio.sleep(3 * editor.READ_SECONDS)  # virtual time: the mock clock's
            await ws.send_message("still here")
            assert await ws.get_message() == "still here"
