"""The editor port's requests whose body stops arriving: answered 408 and closed once nothing came for
KEEP_ALIVE_SECONDS, as on the main port (http/server.py). Hypercorn bounds an idle connection and
unfinished headers (5 s), not a body: 40 half-body POSTs to /api/nodes held their sockets for good."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import trio

from ..http.server import KEEP_ALIVE_SECONDS

if TYPE_CHECKING:
    from ..http.app import ASGIApp, Receive, Scope, Send

log = logging.getLogger("kg_actors.editor")
BODY = b'{"error": "the request body stopped arriving"}'


def bounded_bodies(app: ASGIApp, wait: float = KEEP_ALIVE_SECONDS) -> ASGIApp:
    """`app`, with an HTTP request's body reads bounded by `wait` each."""

    async def bounded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        whole = stalled = started = False

        async def receive_bounded() -> Any:
            nonlocal whole, stalled
            if whole or stalled:
                return await receive()  # the wait for the client's going: not bounded here
            with trio.move_on_after(wait):
                message = await receive()
                whole = message["type"] != "http.request" or not message.get("more_body", False)
                return message
            stalled = True
            log.info("a %s %s stopped sending its body for %.0f s: answered 408", scope.get("method"),
                     scope.get("path"), wait)
            if not started:
                await send({"type": "http.response.start", "status": 408, "headers": [
                    (b"content-type", b"application/json"), (b"connection", b"close"),
                    (b"content-length", str(len(BODY)).encode())]})
                await send({"type": "http.response.body", "body": BODY})
            return {"type": "http.disconnect"}

        async def send_unless_stalled(message: Any) -> None:
            nonlocal started
            if stalled:
                return  # what the app answers to the disconnect it was handed goes nowhere: the 408 went
            started = started or message["type"] == "http.response.start"
            await send(message)

        await app(scope, receive_bounded, send_unless_stalled)

    return bounded
