"""REST endpoints: hooks, the editor, operations. Each translates, asks `Memory`, answers JSON.

Domain errors map to statuses once, here: InvalidInput 400, NotFound and
SessionUnknown 404, WriteConflict and Conflict 409; bad JSON is 400.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Awaitable, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute

from .. import __version__
from ..core.errors import InvalidInput, KGError, WriteConflict

log = logging.getLogger(__name__)

Handler = Callable[[Request], Awaitable[JSONResponse]]


def error_response(exc: KGError) -> JSONResponse:
    body: dict = {"error": str(exc)}
    if isinstance(exc, InvalidInput):
        body.update(field=exc.field, rule=exc.rule)
    if isinstance(exc, WriteConflict):
        body.update(reason=exc.reason, node=exc.node)
    return JSONResponse(body, status_code=exc.status)


def guarded(fn: Handler) -> Handler:
    async def wrapper(request: Request) -> JSONResponse:
        try:
            return await fn(request)
        except KGError as exc:
            return error_response(exc)
        except Exception as exc:  # the boundary: one bad request answers 500, the server goes on
            log.exception("%s %s failed", request.method, request.url.path)
            return JSONResponse({"error": f"internal error: {exc!r}"}, status_code=500)
    return wrapper


# A node at the hard limits (20,000-char gist, 200 notes of 20,000) is ~4 MB of JSON; past twice that, refuse.
BODY_MAX_BYTES = 8 * 1024 * 1024


class PayloadTooLarge(KGError):
    status = 413


async def json_body(request: Request) -> dict:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > BODY_MAX_BYTES:
        raise PayloadTooLarge(f"body is {declared} bytes; at most {BODY_MAX_BYTES}")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > BODY_MAX_BYTES:
            raise PayloadTooLarge(f"body is over {BODY_MAX_BYTES} bytes")
    try:
        body = json.loads(raw or b"{}")
    except ValueError as exc:
        raise InvalidInput("body", f"is not valid JSON ({exc})") from None
    if not isinstance(body, dict):
        raise InvalidInput("body", "must be a JSON object")
    return body


def flag(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes")


def build_rest(runtime) -> Starlette:
    """`runtime` gives memory, directory, sessions, feed and stats; routes stay thin."""
    from . import rest_antigravity, rest_editor, rest_harness_hooks, rest_graph, rest_hooks, rest_store, ws

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({
            "status": "ok", "version": __version__, "transport": "streamable-http",
            "loaded_graphs": runtime.directory.loaded_keys(), "storage": str(runtime.layout.root),
            "logs_pending": runtime.memory.logbook.pending if runtime.memory.logbook else 0,
            "pid": os.getpid(), "editor": {"port": runtime.config.editor_port, "state": runtime.editor},
            "git": runtime.keeper.status() if runtime.keeper is not None else None,
        })

    routes = [
        Route("/health", guarded(health)),
        Route("/api/health", guarded(health)),
        WebSocketRoute("/ws", ws.endpoint(runtime)),
        *rest_graph.routes(runtime),
        *rest_hooks.routes(runtime),
        *rest_antigravity.routes(runtime),
        *rest_harness_hooks.routes(runtime),
        *rest_editor.routes(runtime),
        *rest_store.routes(runtime),
    ]
    return Starlette(routes=routes)
