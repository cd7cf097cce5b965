"""REST endpoints: hooks, the editor, operations. Each translates, calls a use case, answers JSON.

The routes live in rest_*.py (they share guard.py: the error table and the
JSON body); this module puts them together with /health.
"""

from __future__ import annotations

import os

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute

from .. import __version__
from . import rest_antigravity, rest_chores, rest_editor, rest_graph, rest_harness_hooks, rest_hooks, rest_store, ws
from .guard import RuntimeParts, guarded


def build_rest(runtime: RuntimeParts) -> Starlette:
    """`runtime` gives the floor, directory, sessions, feed and stats; routes stay thin."""

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({
            "status": "ok", "version": __version__, "transport": "streamable-http",
            "loaded_graphs": runtime.directory.loaded_keys(), "storage": str(runtime.layout.root),
            "logs_pending": runtime.floor.logs.pending,
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
        *rest_chores.routes(runtime),
    ]
    return Starlette(routes=routes)
