"""The memory server's own HTTP/1.1 and WebSocket serving (http/server.py, http/websocket.py), over real sockets."""

from __future__ import annotations

import json
import logging
from contextlib import asynccontextmanager

import h11
import pytest
import trio
import trio.testing
from trio_websocket import ConnectionClosed, ConnectionRejected, open_websocket

from kg_actors.hook_priority import HookPriority
from kg_actors.http.server import serve


async def echo(scope, receive, send) -> None:
    """Answers what it was asked, as JSON; a few paths misbehave on purpose."""
    if scope["type"] == "websocket":
        await websocket_echo(scope, receive, send)
        return
    path = scope["path"]
    if path == "/raise":
        raise ValueError("on purpose")
    if path == "/raise-midway":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"half", "more_body": True})
        raise ValueError("on purpose, after the head")
    if path == "/silent":
        return
    if path == "/no-read":
        body = b"{}"
    else:
        parts = []
        while True:
            message = await receive()
            parts.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(parts)
    if path == "/stream":  # no content-length: h11 frames it as chunks
        await send({"type": "http.response.start", "status": 200, "headers": []})
        for piece in (b"one ", b"two ", b"three"):
            await send({"type": "http.response.body", "body": piece, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
        return
    reply = json.dumps({
        "method": scope["method"], "path": scope["path"], "raw_path": scope["raw_path"].decode(),
        "query": scope["query_string"].decode(), "headers": {k.decode(): v.decode() for k, v in scope["headers"]},
        "client": scope["client"][0], "server": list(scope["server"]), "body": body.decode(errors="replace"),
    }).encode()
    await send({"type": "http.response.start", "status": 201,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(reply)).encode())]})
    await send({"type": "http.response.body", "body": reply})


async def websocket_echo(scope, receive, send) -> None:
    assert (await receive())["type"] == "websocket.connect"
    if scope["path"] == "/refuse":
        await send({"type": "websocket.close", "code": 1008})
        return
    if scope["path"] == "/deny":  # ASGI's denial response, which the server offers in the scope
        assert "websocket.http.response" in scope["extensions"]
        await send({"type": "websocket.http.response.start", "status": 421, "headers": [(b"x-why", b"host")]})
        await send({"type": "websocket.http.response.body", "body": b'{"error": "non-local Host"}'})
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps({"path": scope["path"], "query": scope["query_string"].decode()})})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            echo.disconnect_codes.append(message["code"])
            echo.disconnected.set()
            return
        if message.get("text") == "raise":
            raise ValueError("on purpose, in a socket")
        if message.get("text") == "bye":
            await send({"type": "websocket.close", "code": 1000})
            return
        await send({"type": "websocket.send", **{k: v for k, v in message.items() if k in ("text", "bytes")}})


echo.disconnect_codes = []
echo.disconnected = trio.Event()


@asynccontextmanager
async def served(app=echo, **options):
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(lambda task_status: serve(app, "127.0.0.1", 0, HookPriority(), frozenset(),
                                                              task_status=task_status, **options))
        yield int(binds[0].rsplit(":", 1)[1])
        nursery.cancel_scope.cancel()


class Client:
    """One keep-alive connection, spoken through h11's client side."""

    def __init__(self, stream: trio.SocketStream):
        self.stream = stream
        self.h11 = h11.Connection(h11.CLIENT)

    @classmethod
    async def open(cls, port: int) -> Client:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def request(self, method: str, target: str, body: bytes | None = None, headers=(),
                      pieces: int = 1) -> tuple[int, dict, bytes]:
        if self.h11.our_state is h11.DONE:
            self.h11.start_next_cycle()
        head = [("host", "127.0.0.1"), *headers]
        if body is not None and not any(k.lower() == "transfer-encoding" for k, _ in headers):
            head.append(("content-length", str(len(body))))
        await self.stream.send_all(self.h11.send(h11.Request(method=method, target=target, headers=head)))
        if body:
            size = -(-len(body) // pieces)
            for i in range(0, len(body), size):
                await self.stream.send_all(self.h11.send(h11.Data(data=body[i:i + size])))
        await self.stream.send_all(self.h11.send(h11.EndOfMessage()))
        status, reply_headers, out = None, {}, b""
        while True:
            event = self.h11.next_event()
            if event is h11.NEED_DATA:
                self.h11.receive_data(await self.stream.receive_some(65536))
            elif isinstance(event, h11.Response):
                status, reply_headers = event.status_code, {k.decode(): v.decode() for k, v in event.headers}
            elif isinstance(event, h11.Data):
                out += event.data
            elif isinstance(event, h11.EndOfMessage):
                return status, reply_headers, out
            elif isinstance(event, h11.ConnectionClosed):
                raise trio.BrokenResourceError("the server closed the connection")


async def read_to_end(stream: trio.SocketStream) -> bytes:
    out = b""
    while data := await stream.receive_some(65536):
        out += data
    return out


async def test_requests_on_one_connection_each_get_their_reply_and_the_scope_says_what_was_asked():
    async with served() as port:
        client = await Client.open(port)
        status, headers, body = await client.request("POST", "/api/x%20y?a=1&b=%C3%A9", b'{"q": 1}',
                                                     [("X-Mixed-Case", "Yes")])
        assert status == 201 and headers["content-type"] == "application/json"
        seen = json.loads(body)
        assert seen["path"] == "/api/x y" and seen["raw_path"] == "/api/x%20y" and seen["query"] == "a=1&b=%C3%A9"
        assert seen["headers"]["x-mixed-case"] == "Yes" and seen["body"] == '{"q": 1}'
        assert seen["client"] == "127.0.0.1" and seen["server"] == ["127.0.0.1", port]
        for n in range(3):  # the same connection carries the next ones
            status, _, body = await client.request("GET", f"/again/{n}")
            assert status == 201 and json.loads(body)["path"] == f"/again/{n}"
        status, headers, body = await client.request("HEAD", "/head")  # the head only, its length kept
        assert status == 201 and body == b"" and int(headers["content-length"]) > 0
        assert (await client.request("GET", "/after-head"))[0] == 201


async def test_a_body_in_pieces_or_in_chunks_or_behind_100_continue_arrives_whole():
    big = json.dumps({"text": "lesson " * 40_000}).encode()  # ~280 KB: several reads
    async with served() as port:
        client = await Client.open(port)
        _, _, body = await client.request("POST", "/pieces", big, pieces=7)
        assert json.loads(json.loads(body)["body"]) == json.loads(big)
        _, _, body = await client.request("POST", "/chunked", b"abc" * 1000, [("transfer-encoding", "chunked")],
                                          pieces=4)
        assert json.loads(body)["body"] == "abc" * 1000
        # A client that waits for 100 Continue before its body gets it, then its reply.
        raw = await trio.open_tcp_stream("127.0.0.1", port)
        await raw.send_all(b"POST /expect HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        assert (await raw.receive_some(65536)).startswith(b"HTTP/1.1 100 ")
        await raw.send_all(b"hello")
        reply = await raw.receive_some(65536)
        assert reply.startswith(b"HTTP/1.1 201 Created\r\n") and b'"body": "hello"' in reply


async def test_a_request_in_the_absolute_form_is_served_as_its_path():
    async with served() as port:
        raw = await trio.open_tcp_stream("127.0.0.1", port)
        await raw.send_all(f"GET http://127.0.0.1:{port}/api/x?a=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        reply = await raw.receive_some(65536)
        assert reply.startswith(b"HTTP/1.1 201 ") and b'"path": "/api/x"' in reply and b'"query": "a=1"' in reply, reply
        assert b'"host": "127.0.0.1:%d"' % port in reply, reply  # its authority is the Host the app checks
        for target in (b"http://127.0.0.1:%d?a=1" % port, b"HTTPS://127.0.0.1:%d/api/x?a=1" % port):
            raw = await trio.open_tcp_stream("127.0.0.1", port)
            await raw.send_all(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            reply = await raw.receive_some(65536)
            assert b'"query": "a=1"' in reply and b'"host": "127.0.0.1:%d"' % port in reply, reply


async def test_a_body_declared_over_the_limit_behind_100_continue_is_refused_before_it_is_sent():
    # Audit: 100 Continue went out, and the 413 only once the client had uploaded all of it.
    async with served() as port:
        raw = await trio.open_tcp_stream("127.0.0.1", port)
        await raw.send_all(b"POST /expect HTTP/1.1\r\nHost: x\r\nContent-Length: 20000000\r\n"
                           b"Expect: 100-continue\r\n\r\n")
        reply = await raw.receive_some(65536)
        assert reply.startswith(b"HTTP/1.1 413 ") and b"connection: close" in reply, reply
        assert b"body is over 8388608 bytes" in reply
        client = await Client.open(port)  # the server goes on
        assert (await client.request("GET", "/after"))[0] == 201


async def test_a_reply_without_a_length_is_sent_in_chunks():
    async with served() as port:
        client = await Client.open(port)
        status, headers, body = await client.request("GET", "/stream")
        assert status == 200 and headers["transfer-encoding"] == "chunked" and body == b"one two three"
        assert (await client.request("GET", "/after"))[0] == 201  # and the connection goes on


async def test_an_unread_body_is_skipped_and_the_connection_goes_on():
    async with served() as port:
        client = await Client.open(port)
        assert (await client.request("POST", "/no-read", b"x" * 100_000, pieces=3))[0] == 201
        status, _, body = await client.request("POST", "/next", b"second")
        assert status == 201 and json.loads(body)["body"] == "second"


async def test_a_malformed_request_gets_400_and_the_server_serves_the_next_connection():
    async with served() as port:
        for junk in (b"NOT HTTP AT ALL\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
                     b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", b"\x00\xff\xfe" * 100 + b"\r\n\r\n"):
            raw = await trio.open_tcp_stream("127.0.0.1", port)
            await raw.send_all(junk)
            reply = await read_to_end(raw)  # answered, then closed
            assert reply.startswith(b"HTTP/1.1 4"), reply[:60]
        assert (await (await Client.open(port)).request("GET", "/fine"))[0] == 201


async def test_an_app_failure_is_a_500_and_one_after_the_head_closes_only_that_connection(caplog):
    async with served() as port:
        client = await Client.open(port)
        status, _, body = await client.request("GET", "/raise")
        assert status == 500 and json.loads(body) == {"error": "internal server error"}
        assert (await client.request("GET", "/still-here"))[0] == 201  # a whole 500 keeps the connection
        status, _, body = await client.request("GET", "/silent")
        assert status == 500 and b"no reply" in body
        midway = await Client.open(port)
        with pytest.raises((trio.BrokenResourceError, h11.RemoteProtocolError)):
            await midway.request("GET", "/raise-midway")
        assert (await (await Client.open(port)).request("GET", "/fine"))[0] == 201
    assert "on purpose" in caplog.text


async def test_a_connection_idle_past_the_keep_alive_is_closed(autojump_clock):
    async with served(keep_alive=75.0) as port:
        client = await Client.open(port)
        assert (await client.request("GET", "/once"))[0] == 201
        start = trio.current_time()
        assert await client.stream.receive_some(10) == b""  # closed by the server, not by us
        assert trio.current_time() - start >= 75.0
        silent = await trio.open_tcp_stream("127.0.0.1", port)  # never says a word
        assert await silent.receive_some(10) == b""


async def test_a_body_that_stops_arriving_gets_a_408_and_the_connection_closed_with_one_log_line(
        autojump_clock, caplog):
    # The app was handed a TooSlowError from its body read: a 500 and a traceback in the log, and the
    # connection then waited another keep-alive to drain a body that never came.
    caplog.set_level(logging.INFO)
    async with served(keep_alive=75.0) as port:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        await stream.send_all(b"POST /x HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n0123456789")
        start = trio.current_time()
        reply = b""
        while chunk := await stream.receive_some(65536):
            reply += chunk
        took = trio.current_time() - start
        assert (await (await Client.open(port)).request("GET", "/fine"))[0] == 201  # the server serves on
    assert reply.startswith(b"HTTP/1.1 408 ") and b"connection: close" in reply.lower(), reply
    assert reply.endswith(b'{"error": "the request body stopped arriving"}'), reply
    assert 75.0 <= took < 80.0, took  # closed with the reply, not after a second keep-alive
    assert "stopped sending its body" in caplog.text and "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_websocket_hears_and_answers_text_bytes_and_pings_and_its_close_is_told_to_the_app():
    echo.disconnect_codes.clear()
    echo.disconnected = trio.Event()
    async with served() as port:
        async with open_websocket("127.0.0.1", port, "/ws?project_path=/p", use_ssl=False) as ws:
            assert json.loads(await ws.get_message()) == {"path": "/ws", "query": "project_path=/p"}
            await ws.send_message("hello")
            assert await ws.get_message() == "hello"
            await ws.send_message(b"\x00\x01")
            assert await ws.get_message() == b"\x00\x01"
            await ws.send_message("x" * 300_000)  # larger than one read
            assert await ws.get_message() == "x" * 300_000
            with trio.fail_after(5):
                await ws.ping(b"are you there")  # returns once the pong is back
        with trio.fail_after(5):
            await echo.disconnected.wait()  # the app heard the close
        assert echo.disconnect_codes == [1000]
        async with open_websocket("127.0.0.1", port, "/ws", use_ssl=False) as ws:  # the app closes it
            await ws.get_message()
            await ws.send_message("bye")
            with pytest.raises(ConnectionClosed) as closed:
                await ws.get_message()
            assert closed.value.reason.code == 1000


async def test_a_refused_or_malformed_upgrade_and_a_failing_socket_leave_the_server_serving(caplog):
    async with served() as port:
        with pytest.raises(ConnectionRejected) as refused:
            async with open_websocket("127.0.0.1", port, "/refuse", use_ssl=False):
                pass
        assert refused.value.status_code == 403
        raw = await trio.open_tcp_stream("127.0.0.1", port)
        await raw.send_all(b"GET /refuse HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        assert (await read_to_end(raw)).startswith(b"HTTP/1.1 403 Forbidden\r\n")
        raw = await trio.open_tcp_stream("127.0.0.1", port)
        await raw.send_all(b"GET /deny HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        denied = await read_to_end(raw)
        assert denied.startswith(b"HTTP/1.1 421 Misdirected Request\r\n") and b"x-why: host\r\n" in denied
        assert denied.endswith(b'\r\n\r\n{"error": "non-local Host"}')
        raw = await trio.open_tcp_stream("127.0.0.1", port)
        await raw.send_all(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
        assert (await read_to_end(raw)).startswith(b"HTTP/1.1 400 Bad Request\r\n")  # no key, no version
        async with open_websocket("127.0.0.1", port, "/ws", use_ssl=False) as ws:
            await ws.get_message()
            await ws.send_message("raise")
            with pytest.raises(ConnectionClosed):
                await ws.get_message()
        assert (await (await Client.open(port)).request("GET", "/fine"))[0] == 201
    assert "on purpose, in a socket" in caplog.text


async def test_a_client_that_asks_to_close_or_speaks_http_1_0_gets_its_reply_then_the_end():
    async with served() as port:
        for head in (b"GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", b"GET /old HTTP/1.0\r\n\r\n"):
            raw = await trio.open_tcp_stream("127.0.0.1", port)
            await raw.send_all(head)
            reply = await read_to_end(raw)  # the whole reply, then the server closes
            assert reply.startswith(b"HTTP/1.1 201 Created\r\n") and reply.endswith(b"}")


UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


async def test_a_websocket_client_that_goes_silent_is_pinged_and_closed_when_it_does_not_answer(autojump_clock):
    from kg_actors.http.websocket import ANSWER_SECONDS, PING_SECONDS
    echo.disconnect_codes.clear()
    echo.disconnected = trio.Event()
    async with served() as port:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        await stream.send_all(UPGRADE)  # and then never a word, nor a pong
        start = trio.current_time()
        with trio.fail_after(10 * (PING_SECONDS + ANSWER_SECONDS)):  # virtual time: it stayed open for ever
            heard = await read_to_end(stream)  # closed by the server, not by us
        took = trio.current_time() - start
        await echo.disconnected.wait()  # the app heard it go
    assert heard.startswith(b"HTTP/1.1 101 ")
    assert b"\x89\x02kg" in heard  # the server's ping (opcode 9, unmasked, 2 bytes)
    assert took >= PING_SECONDS + ANSWER_SECONDS
    assert echo.disconnect_codes == [1006]


async def test_a_websocket_client_that_answers_the_pings_stays_open_while_silent(autojump_clock):
    from kg_actors.http.websocket import ANSWER_SECONDS, PING_SECONDS
    async with served() as port:
        async with open_websocket("127.0.0.1", port, "/ws", use_ssl=False) as ws:  # answers pings itself
            assert json.loads(await ws.get_message())["path"] == "/ws"
            await trio.sleep(5 * (PING_SECONDS + ANSWER_SECONDS))  # virtual time: the mock clock's
            await ws.send_message("still here")
            assert await ws.get_message() == "still here"
