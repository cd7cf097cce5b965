"""REST endpoints over the store's git history: commit, sync, restore, conflicts, a node's history.

`kg commit|sync|restore` call these when a server owns the store (so the work
goes through its actors); the editor reads conflicts and a node's history.
A git failure answers 409 with the message; the server keeps serving.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import trio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.errors import Conflict, InvalidInput
from ..core.merge import CONFLICTS_FIELD
from ..sync import common
from ..sync import history as H
from .guard import RuntimeParts, guarded, json_body, whole_number
from .heavy_replies import json_off_loop

if TYPE_CHECKING:
    from ..core.snapshot import GraphSnapshot
    from ..sync.keeper import StoreKeeper, Summary

HISTORY_LIMIT_MAX = 50


class GitFailed(Conflict):
    """A git command failed: answered 409 with its message."""


def conflict_rows(graphs: tuple[tuple[str, str | None, GraphSnapshot], ...]) -> dict[str, Any]:
    """Every node of every graph looked at (a worker thread's work at 10,000 nodes): those with versions set aside."""
    out = []
    for level, root, graph in graphs:
        for n in graph.nodes.values():
            if n.extra.get(CONFLICTS_FIELD):
                out.append({"level": level, "project_path": root, "id": n.id, "gist": n.gist,
                            "others": n.extra[CONFLICTS_FIELD]})
    return {"conflicts": out}


def routes(runtime: RuntimeParts) -> list[Route]:
    def keeper() -> StoreKeeper:
        return runtime.keeper

    async def run(op: Awaitable[Summary]) -> Summary:
        try:
            return await op
        except H.GitError as exc:
            raise GitFailed(str(exc)) from None

    async def commit(request: Request) -> JSONResponse:
        return JSONResponse(await run(keeper().commit("commit")))

    async def sync(request: Request) -> JSONResponse:
        body = await json_body(request)
        if body.get("remote") and ("origin" in request.headers or "sec-fetch-site" in request.headers):
            # The remote gets every lesson: a page (even the editor's own, should anything ever let another
            # page act through it) syncs only with the one the user configured.
            raise InvalidInput("remote", "is taken from `kg sync` or the store's config.json, never from a web page")
        remote = body.get("remote") or await trio.to_thread.run_sync(common.sync_remote, runtime.layout.root)
        if not isinstance(remote, str) or not remote:
            raise InvalidInput("remote", "is required (or set \"sync_remote\" in the store's config.json)")
        all_upgraded = body.get("all_upgraded", False)
        if not isinstance(all_upgraded, bool):
            raise InvalidInput("all_upgraded", "is true or false")
        return JSONResponse(await run(keeper().sync(remote, all_upgraded)))

    async def restore(request: Request) -> JSONResponse:
        body = await json_body(request)
        at = body.get("at")
        if not isinstance(at, str) or not at.strip():
            raise InvalidInput("at", "is required: a commit or a date")
        key = await H.graph_key(runtime.directory, body.get("graph", "user"))
        return JSONResponse(await run(keeper().restore(key, at.strip())))

    async def conflicts(request: Request) -> Response:
        """Nodes holding a version set aside by a sync, in every loaded graph (the editor shows them)."""
        graphs = []
        for handle in runtime.directory.loaded():
            graph = (await handle.current()).graph
            graphs.append((handle.level, runtime.directory.root_of(handle.key), graph))
        return await json_off_loop({}, conflict_rows, tuple(graphs))

    async def node_history(request: Request) -> JSONResponse:
        """A node's versions from git log: when each was committed, by which machine, and its content."""
        q = request.query_params
        node_id = q.get("id")
        if not node_id:
            raise InvalidInput("id", "is required")
        key = await H.graph_key(runtime.directory, q.get("graph") or q.get("project_path") or "user")
        limit = min(whole_number(q.get("limit", "20"), "limit", "must be a whole number in 0-9"), HISTORY_LIMIT_MAX)
        if limit < 1:
            raise InvalidInput("limit", "must be at least 1")
        try:
            history = await trio.to_thread.run_sync(H.node_history, runtime.layout, key, node_id, limit)
        except H.GitError as exc:
            raise GitFailed(str(exc)) from None
        return JSONResponse({"graph": key, "id": node_id, "versions": history})

    return [
        Route("/api/store/commit", guarded(commit), methods=["POST"]),
        Route("/api/store/sync", guarded(sync), methods=["POST"]),
        Route("/api/store/restore", guarded(restore), methods=["POST"]),
        Route("/api/store/conflicts", guarded(conflicts)),
        Route("/api/graph/node_history", guarded(node_history)),
    ]
