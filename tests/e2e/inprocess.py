"""The whole server in this process, without sockets: `run_server` in a trio nursery, and raw ASGI
calls into the same app http/server.py serves (the security gate, the router, the handlers, the actors).

For what a socket cannot make deterministic (a client that hangs up at an exact moment) and for
volume (the in-process fuzz): nothing is stubbed but the transport.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from kg_actors.config import Config
from kg_actors.runtime import Runtime, run_server


@asynccontextmanager
async def serve_inprocess(root: Path, clock: Callable[[], float] = time.time):
    """A running server on a free loopback port (its HTTP side is also reachable, but unused here)."""
    config = Config(root=root, port=0, editor=False, save_interval=3600, autocommit_interval=0)
    async with trio.open_nursery() as nursery:
        rt: Runtime = await nursery.start(run_server, config, clock, False)
        try:
            yield rt
        finally:
            nursery.cancel_scope.cancel()


async def asgi(rt: Runtime, method: str, path: str, body: bytes = b"", hang_up: bool = False,
               query: str = "") -> tuple[int, bytes]:
    """One request through the app. `hang_up`: the client is gone once the body is read (what
    the HTTP server tells the app when the peer closes the connection before the reply)."""
    sent = await exchange(rt, method, path, body, hang_up, query)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


async def exchange(rt: Runtime, method: str, path: str, body: bytes = b"", hang_up: bool = False, query: str = "",
                   headers: list[tuple[bytes, bytes]] = ()) -> list[dict]:
    """The ASGI messages the app sent for one request (`headers`: more request headers)."""
    sent: list[dict] = []
    given = False

    async def receive() -> dict:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        if hang_up:
            return {"type": "http.disconnect"}
        await trio.sleep_forever()
        raise AssertionError("unreachable")

    async def send(message: dict) -> None:
        sent.append(message)

    host = f"127.0.0.1:{rt.http_port}"
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
             "root_path": "", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", rt.http_port),
             "headers": [(b"host", host.encode()), (b"content-type", b"application/json"),
                         (b"accept", b"application/json, text/event-stream"),
                         (b"content-length", str(len(body)).encode()), *headers]}
    await rt.asgi(scope, receive, send)
    return sent


async def hook(rt: Runtime, path: str, payload: dict, hang_up: bool = False) -> tuple[int, dict]:
    status, raw = await asgi(rt, "POST", path, json.dumps(payload).encode(), hang_up)
    return status, json.loads(raw) if raw.strip() else {}


def context_of(reply: dict) -> str:
    return (reply.get("hookSpecificOutput") or {}).get("additionalContext", "")


async def sessions_of(rt: Runtime, cwd, *claude_sids: str) -> list[str]:
    """Start one harness session per id in `cwd` (its SessionStart hook); their KG session ids."""
    out = []
    for claude in claude_sids:
        status, _ = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": claude,
                                                              "source": "startup"})
        assert status == 200
        out.append((await rt.sessions.find_by_claude(claude_sid=claude)).sid)
    return out
