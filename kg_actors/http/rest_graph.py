"""Operations endpoints over whole graphs: the raw read (with reload from disk)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..storage import layout as L
from .rest import flag, guarded


def routes(runtime) -> list[Route]:
    async def graph_read(request: Request) -> JSONResponse:
        q = request.query_params
        keys = ["user"]
        sid = q.get("session_id")
        root = None
        if sid:
            view = await runtime.memory.session(sid)
            root = view.project_path
        if q.get("project_path"):
            root = L.project_root(q["project_path"], "project_path")
        if root:
            keys.append(runtime.directory.project_key(root))
        out = {}
        for key in keys:
            handle = await (runtime.directory.reload(key) if flag(q.get("reload")) else runtime.directory.get(key))
            dump = await handle.dump()
            out["user" if key == "user" else "project"] = {
                "nodes": list(dump["nodes"].values()), "edges": list(dump["edges"].values()),
                "project_path": dump["_meta"].get("project_path"),
            }
        return JSONResponse(out)

    return [Route("/api/graph/read", guarded(graph_read))]
