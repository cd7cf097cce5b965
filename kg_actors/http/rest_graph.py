"""Operations endpoints over whole graphs: the raw read (with reload from disk)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..conduct import graphs
from .guard import RuntimeParts, flag, guarded


def routes(runtime: RuntimeParts) -> list[Route]:
    async def graph_read(request: Request) -> JSONResponse:
        q = request.query_params
        return JSONResponse(await graphs.raw_read(runtime.floor, q.get("session_id"), q.get("project_path"),
                                                  flag(q.get("reload"))))

    return [Route("/api/graph/read", guarded(graph_read))]
