"""REST endpoints: hooks, the editor, operations. Each translates, calls a use case, answers JSON.

The routes live in rest_*.py (they share guard.py: the error table and the
JSON body); this module puts them together with /health.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import trio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute

from .. import __version__
from ..build import build_id
from ..core.errors import KGError
from ..core.held_names import masked_names
from . import rest_antigravity, rest_chores, rest_editor, rest_graph, rest_harness_hooks, rest_hooks, rest_store, ws
from .guard import RuntimeParts, guarded

USER_LOAD_WAIT = 10.0  # seconds /health?user=loaded waits for the user graph's load


class AsciiJSONResponse(JSONResponse):
    """JSON with every non-ASCII character escaped: /health names paths, and one that is not UTF-8 (a KG_HOME
    holding such a byte) comes out as its escapes, which a client decodes back to the same path, not a 500."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode("ascii")


def build_rest(runtime: RuntimeParts) -> Starlette:
    """`runtime` gives the floor, directory, sessions, feed and stats; routes stay thin."""
    build_id()  # read the sources now, at the start, not in the first /health's reply

    async def health(request: Request) -> JSONResponse:
        if request.query_params.get("user") == "loaded":
            # `kg doctor` and `kg status` ask so: the user graph loads in the background at start, and whether
            # it could be read is known only once it is in. Bounded: a huge graph's load is not waited out.
            with trio.move_on_after(USER_LOAD_WAIT):
                try:
                    await runtime.directory.get("user")
                except KGError:  # health answers all the same; the load's error is in the log
                    pass
        return AsciiJSONResponse({
            # "ok" while serving; a graph that cannot be read is named in graphs_in_trouble (key -> why).
            "status": "ok", "version": __version__, "build": build_id(), "python": sys.executable,
            "transport": "streamable-http",
            "loaded_graphs": runtime.directory.loaded_keys(), "storage": str(runtime.layout.root),
            # Two projects of one name are `project:svc` and `project:svc-<hash>`: their folders tell them apart.
            # A folder named by a key is shown masked (kg status prints these; an agent may run it).
            "project_folders": {k: masked_names(root) for k in runtime.directory.loaded_keys()
                                if k.startswith("project:") and (root := runtime.directory.root_of(k))},
            "graphs_in_trouble": runtime.directory.troubles(),
            "sessions_in_trouble": runtime.floor.sessions.save_trouble(),  # sessions.json's saves failing
            "logs_pending": runtime.floor.logs.pending,
            "pid": os.getpid(), "editor": {"port": runtime.config.editor_port, "state": runtime.editor},
            "git": runtime.keeper.status() if runtime.keeper is not None else None,
            # The wall clock's latest jump, while the time rules wait for it and a week after (clock_keeper.py).
            "clock": runtime.clock_keeper.status(runtime.clock()) if runtime.clock_keeper is not None else None,
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
        *rest_chores.routes(runtime),
    ]
    return Starlette(routes=routes, exception_handlers={404: _no_route, 405: _no_route})


async def _no_route(request: Request, exc: Exception) -> JSONResponse:
    """A path or method no endpoint serves, said as JSON naming it: the page shows `error`, not a bare status."""
    status = getattr(exc, "status_code", 404)
    path = request.url.path
    said = f"no endpoint {path}" if status == 404 else f"{path} does not take {request.method}"
    return JSONResponse({"error": said}, status_code=status, headers=getattr(exc, "headers", None))
