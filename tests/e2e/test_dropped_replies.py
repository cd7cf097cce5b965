"""A reply the client dropped, over a real loopback socket (formal/models/dropped_reply.py).

The server runs in this process so the test can hold the MCP turn: the client sends its call and
hangs up while the call waits, and the HTTP server tells the app only through its receive queue. The
reply's part must come back with the next `more`, and the hang-up check must see what starlette's
`is_disconnected` cannot under trio (it asks inside a cancelled scope, which raises first).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import trio
import trio.testing
from e2e_helpers import KG
from inprocess import serve_inprocess, sessions_of

from kg_actors import peers
from kg_actors.core import constants as C

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "formal"))
from test_replays import _long_nodes, _mcp_tool, _part_no  # noqa: E402


def _post(port: int, body: bytes) -> bytes:
    return (f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


async def test_a_more_whose_client_hung_up_while_it_waited_gives_its_part_again(tmp_path, home):
    cwd = home / "dropped-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "claude-hangs-up")
        ids = await _long_nodes(rt, sid, "socket")
        first = await _mcp_tool(rt, "kg_read", {"session_id": sid, "ids": ids})
        assert _part_no(first) == 1
        second = (await rt.sessions.next_page(sid=sid, peek=True))[0]
        body = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                           "params": {"name": "kg_read", "arguments": {"session_id": sid, "more": True}}}).encode()
        assert not peers._open
        async with _every_turn_taken(rt):  # the call will wait for one
            sock = trio.socket.socket()
            await sock.connect(("127.0.0.1", rt.http_port))
            await sock.send(_post(rt.http_port, body))
            sock.close()  # the client gives up
            await trio.testing.wait_all_tasks_blocked(0.05)  # the server read the call and the hang-up
            assert rt.asgi._mcp_waiting == 1, "the call is not waiting for its turn"
        with trio.fail_after(30):  # the call answered, and the server closed the connection
            while peers._open:
                await trio.testing.wait_all_tasks_blocked(0.01)
        again = await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True})
        assert again == second and _part_no(again) == 2, "the part whose client hung up was lost"


@asynccontextmanager
async def _every_turn_taken(rt):
    """Every MCP turn held by the test until the block ends: a call that comes meanwhile waits for one."""
    priority = rt.asgi.priority
    release = trio.Event()

    async def hold_a_turn(task_status=trio.TASK_STATUS_IGNORED):
        await priority.take_bulk_turn()
        task_status.started()
        await release.wait()
        priority.give_back_bulk_turn()

    async with trio.open_nursery() as holders:
        for _ in range(C.MCP_CONCURRENT_REQUESTS):
            await holders.start(hold_a_turn)
        try:
            yield
        finally:
            release.set()


async def _until(condition, what: str, timeout: float = 30) -> None:
    with trio.move_on_after(timeout):
        while not condition():
            await trio.sleep(0.01)  # another process acts: polled, within the bound
        return
    raise AssertionError(f"not within {timeout:.0f} s: {what}")


def _a_client_hung_up() -> bool:
    return any(peers.hung_up({"server": server, "client": client}) for server, client in list(peers._open))


async def test_a_more_the_client_cancelled_through_kg_mcp_gives_its_part_again(tmp_path, home):
    """`notifications/cancelled` for a `more` the server still holds: `kg mcp` shuts that call's connection
    and writes no reply for it, so the server offers its part again. It used to pass the cancel on and
    keep the connection: the part counted as delivered, and the next `more` gave the one after it."""
    cwd = home / "cancel-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "claude-cancels")
        ids = await _long_nodes(rt, sid, "cancel")
        assert _part_no(await _mcp_tool(rt, "kg_read", {"session_id": sid, "ids": ids})) == 1
        second = (await rt.sessions.next_page(sid=sid, peek=True))[0]
        shim = await trio.lowlevel.open_process([KG, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                env=dict(os.environ, KG_HTTP_PORT=str(rt.http_port),
                                                         KG_HOME=str(tmp_path / "store")))
        more = {"session_id": sid, "more": True}
        try:
            async with _every_turn_taken(rt):
                await shim.stdin.send_all(_tool_line(2, "kg_read", more))
                await _until(lambda: rt.asgi._mcp_waiting == 1, "the call waits for its turn")
                await shim.stdin.send_all(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                                      "params": {"requestId": 2, "reason": "user"}}).encode() + b"\n")
                await _until(_a_client_hung_up, "kg mcp closes the cancelled call's connection")
            await _until(lambda: not peers._open, "the call (and the cancel passed on) answered")
            await shim.stdin.send_all(_tool_line(3, "kg_read", more))
            await shim.stdin.aclose()
            out = b""
            with trio.fail_after(60):
                while chunk := await shim.stdout.receive_some():
                    out += chunk
                assert await shim.wait() == 0
        finally:
            shim.kill()
    replies = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in replies] == [3], f"a cancelled request gets no reply: {out[:500]!r}"
    again = replies[0]["result"]["content"][0]["text"]
    assert again == second and _part_no(again) == 2, "the part whose call the client cancelled was lost"


def _tool_line(msg_id: int, name: str, arguments: dict) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}}).encode() + b"\n"


async def test_the_hang_up_check_sees_a_client_gone_while_its_request_is_answered():
    """The HTTP server reads no more of the connection meanwhile (no `http.disconnect`), and starlette's
    check could not see one under trio anyway: the connection itself is asked."""
    from starlette.requests import Request

    from kg_actors import reply_effects

    seen: dict[str, bool] = {}
    check = trio.Event()

    async def app(scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            while (message := await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        while (await receive()).get("more_body"):
            pass
        await check.wait()
        seen["starlette"] = await Request(scope, receive).is_disconnected()
        seen["ours"] = await reply_effects.client_gone(scope, receive)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    from kg_actors.hook_priority import HookPriority
    from kg_actors.http.server import serve

    async with trio.open_nursery() as nursery:
        binds = await nursery.start(serve, app, "127.0.0.1", 0, HookPriority(), frozenset())
        port = int(binds[0].rsplit(":", 1)[1])
        sock = trio.socket.socket()
        await sock.connect(("127.0.0.1", port))
        await sock.send(_post(port, b"{}"))
        sock.close()
        await trio.testing.wait_all_tasks_blocked(0.05)
        check.set()
        with trio.fail_after(30):
            while "ours" not in seen:
                await trio.testing.wait_all_tasks_blocked(0.01)
        nursery.cancel_scope.cancel()
    assert seen == {"starlette": False, "ours": True}


async def test_a_hook_client_that_gave_up_gets_its_push_again_over_a_socket(tmp_path, home, monkeypatch):
    """F38 over the real transport: the hook's request is in the socket and its client gone before
    the server reads it (sent and closed without yielding to the server's loop)."""
    import socket

    from inprocess import context_of, hook

    from kg_actors.conduct import write as write_uc

    cwd = home / "push-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (observer, writer) = await sessions_of(rt, cwd, "claude-observer", "claude-writer")
        await write_uc.put_node(rt.floor, writer, "project", "pushed-over-socket", "a lesson another session wrote",
                                None, None)
        event = {"session_id": "claude-observer", "cwd": str(cwd), "hook_event_name": "PostToolUse",
                 "tool_name": "Bash", "tool_input": {"command": "true"}, "tool_response": {"ok": True}}
        body = json.dumps(event).encode()
        request = _post(rt.http_port, body).replace(b"POST / ", b"POST /api/tool_event ", 1)
        closed: list[object] = []
        forget = peers.closed
        monkeypatch.setattr(peers, "closed", lambda key: (closed.append(key), forget(key)))
        with socket.create_connection(("127.0.0.1", rt.http_port)) as sock:
            sock.sendall(request)  # no checkpoint until closed: the server reads it after the hang-up
        with trio.fail_after(30):  # the server answered (to nobody) and closed the connection
            while not closed:
                await trio.testing.wait_all_tasks_blocked(0.01)
        assert ("project", "pushed-over-socket") not in (await rt.sessions.get(sid=observer)).seen, \
            "a push whose client gave up counted as seen"
        status, got = await hook(rt, "/api/tool_event", event)
        assert status == 200 and "pushed-over-socket" in context_of(got), "the abandoned push was lost (F38)"


def _cancel_line(request_id: object) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                       "params": {"requestId": request_id, "reason": "user pressed Esc"}}).encode()


async def _answer(sock) -> bytes:
    """The body of the one HTTP reply on `sock`, read to its Content-Length."""
    data = b""
    with trio.fail_after(30):
        while b"\r\n\r\n" not in data:
            data += await sock.recv(65536)
        head, body = data.split(b"\r\n\r\n", 1)
        length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")))
        while len(body) < length:
            body += await sock.recv(65536)
    return body


async def test_a_more_the_client_cancelled_over_http_gives_its_part_again(tmp_path, home):
    """Over Streamable HTTP the SDKs send `notifications/cancelled` in a POST of its own, keep the call's
    connection and drop its reply. The server answered the cancel 202 and ignored it: the part counted as
    delivered, and the next `more` gave the one after it (its nodes counted seen, never shown)."""
    cwd = home / "http-cancel-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "ts-sdk-cancels")
        ids = await _long_nodes(rt, sid, "httpcancel")
        assert _part_no(await _mcp_tool(rt, "kg_read", {"session_id": sid, "ids": ids})) == 1
        second = (await rt.sessions.next_page(sid=sid, peek=True))[0]
        call = trio.socket.socket()
        async with _every_turn_taken(rt):  # the call waits for a turn, as it ran in the audit's stopped server
            await call.connect(("127.0.0.1", rt.http_port))
            await call.send(_post(rt.http_port, _tool_line(2, "kg_read", {"session_id": sid, "more": True})[:-1]))
            await _until(lambda: rt.asgi._mcp_waiting == 1, "the call waits for its turn")
            cancel = trio.socket.socket()
            await cancel.connect(("127.0.0.1", rt.http_port))
            await cancel.send(_post(rt.http_port, _cancel_line(2)))
            head = b""
            with trio.fail_after(30):  # answered at once: the turns are all held
                while b"\r\n\r\n" not in head:
                    head += await cancel.recv(65536)
            assert head.startswith(b"HTTP/1.1 202"), head
            cancel.close()
        dropped = json.loads(await _answer(call))  # the reply still comes; the client drops it
        call.close()
        assert _part_no(dropped["result"]["content"][0]["text"]) == 2
        again = await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True})
        assert again == second and _part_no(again) == 2, "the part whose call the client cancelled was lost"


async def test_a_cancel_that_overtakes_its_request_still_counts_its_reply_undelivered(tmp_path, home):
    """The call's POST and the cancel's race on two connections: the cancel can be read first."""
    cwd = home / "early-cancel-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "ts-sdk-cancels-early")
        ids = await _long_nodes(rt, sid, "earlycancel")
        assert _part_no(await _mcp_tool(rt, "kg_read", {"session_id": sid, "ids": ids})) == 1
        second = (await rt.sessions.next_page(sid=sid, peek=True))[0]
        for body in (_cancel_line("seven"), _tool_line("seven", "kg_read", {"session_id": sid, "more": True})[:-1]):
            sock = trio.socket.socket()
            await sock.connect(("127.0.0.1", rt.http_port))
            await sock.send(_post(rt.http_port, body))
            reply = await _answer(sock)
            sock.close()
        assert _part_no(json.loads(reply)["result"]["content"][0]["text"]) == 2
        again = await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True})
        assert again == second and _part_no(again) == 2, "the part whose call the client cancelled was lost"


async def test_the_typescript_sdk_cancelling_a_more_over_http_gets_its_part_again(tmp_path, home):
    """The audit's client: the TypeScript SDK aborts a `kg_read(more)` with an AbortController while the call
    waits (it sends `notifications/cancelled`, keeps the connection and drops the reply); its next `more` gave
    the part after the cancelled one."""
    import shutil

    from npm_clients import JS, client_env, npm_root

    script = npm_root() / "ts_cancel.mjs"  # beside node_modules, so its imports resolve to the installed SDK
    shutil.copyfile(JS / "ts_cancel.mjs", script)
    cwd = home / "ts-cancel-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "ts-sdk")
        ids = await _long_nodes(rt, sid, "tscancel")
        assert _part_no(await _mcp_tool(rt, "kg_read", {"session_id": sid, "ids": ids})) == 1
        second = (await rt.sessions.next_page(sid=sid, peek=True))[0]
        node = await trio.lowlevel.open_process(
            ["node", str(script), f"http://127.0.0.1:{rt.http_port}/mcp", sid], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=client_env(home), cwd=tmp_path)
        out = b""

        async def line() -> str:
            nonlocal out
            with trio.fail_after(60):
                while b"\n" not in out:
                    chunk = await node.stdout.receive_some()
                    assert chunk, f"the TypeScript client ended early: {out!r}"
                    out += chunk
            first, out = out.split(b"\n", 1)
            return first.decode()

        try:
            async with _every_turn_taken(rt):
                assert await line() == "sent"
                await _until(lambda: rt.asgi._mcp_waiting == 1, "the more waits for its turn")
                await node.stdin.send_all(b"abort\n")
                assert await line() == "aborted"
                await _until(lambda: any(w.cancelled for ws in rt.asgi.cancels._running.values() for w in ws),
                             "the SDK's notifications/cancelled reached the server")
            await _until(lambda: not rt.asgi.cancels._running, "the cancelled call answered")
            await node.stdin.send_all(b"more\n")
            again = json.loads(await line())["text"]
            with trio.fail_after(30):
                assert await node.wait() == 0
        finally:
            node.kill()
    assert again == second and _part_no(again) == 2, "the part whose call the client cancelled was lost"


async def test_a_cancel_read_after_its_reply_went_out_still_gives_the_part_again(tmp_path, home):
    """The audit's order: the `more` came on a kept-alive connection and was answered before the cancel's
    new connection was read (the client had already dropped the call): its part was lost."""
    cwd = home / "late-cancel-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "ts-sdk-cancels-late")
        ids = await _long_nodes(rt, sid, "latecancel")
        assert _part_no(await _mcp_tool(rt, "kg_read", {"session_id": sid, "ids": ids})) == 1
        second = (await rt.sessions.next_page(sid=sid, peek=True))[0]
        for body in (_tool_line(9, "kg_read", {"session_id": sid, "more": True})[:-1], _cancel_line(9)):
            sock = trio.socket.socket()
            await sock.connect(("127.0.0.1", rt.http_port))
            await sock.send(_post(rt.http_port, body))
            reply = await _answer(sock)
            sock.close()
            if b"result" in reply:
                assert _part_no(json.loads(reply)["result"]["content"][0]["text"]) == 2
        again = await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True})
        assert again == second and _part_no(again) == 2, "the part whose call the client cancelled was lost"
