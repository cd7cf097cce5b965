"""REST endpoints for the visual editor: look at a graph without touching it, write through the use cases.

A graph is addressed by `level` (user, project, maintain) and, for a project,
the `project_path` its file records; the editor never creates a project graph
by looking at a path. Reads run pure views inside the graph's actor and
never promote or stamp. Writes are conduct/'s, with no session: unchecked by
the agents' arbitration but stamped (`_written.by = None`), so an agent with
an older view is refused; the editor's own stale edits are refused by the
version it loaded (`expected_version`) and the fingerprint of the content it
loaded (`expected_fingerprint`: a change made to the file while the server was
down moves no version), and a create over an existing id
(`create: true`) with 409.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..conduct import graphs, rename as renaming, write
from ..core import debt, ids, schema_words, scoring, search
from ..core import graph_views as V
from ..core.errors import Conflict, InvalidInput, NotFound
from .guard import RuntimeParts, guarded, json_body, whole_number
from .heavy_replies import json_off_loop

if TYPE_CHECKING:
    from ..core.debt import Debt
    from ..core.snapshot import GraphSnapshot
    from ..graph_handle import GraphHandle

SCORE = "/score"
SEARCH_LIMIT_MAX = 200
SEARCH_LIMIT_DEFAULT = 50


def _strings(body: dict[str, Any], field: str) -> list[str] | None:
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(field, "must be a list of strings")
    return value


def _version(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput("expected_version", "must be the node's version the editor loaded (a whole number ≥ 0)")
    return value


def _fingerprint(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise InvalidInput("expected_fingerprint", "must be the node's fingerprint the editor loaded (a string)")
    return value


def _flag(body: dict[str, Any], field: str) -> bool:
    value = body.get(field, False)
    if not isinstance(value, bool):
        raise InvalidInput(field, "must be true or false")
    return value


def _gist(value: Any) -> str:
    """Its length is the write's to check: a gist a hand edit left over the limit may be sent back as it stands."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("gist", "must be a non-empty string")
    return value


def _text(value: Any, field: str) -> str:
    if value is None or value == "":
        raise InvalidInput(field, "is required")
    if not isinstance(value, str):
        raise InvalidInput(field, f"must be a string, not {schema_words.kind_of(value)}")
    return value


def routes(runtime: RuntimeParts) -> list[Route]:
    floor = runtime.floor
    directory = floor.directory

    async def graph_of(level: Any, project_path: Any) -> tuple[GraphHandle, str | None]:
        return await graphs.graph_of(floor, level, project_path)

    def where(request: Request, body: dict[str, Any] | None = None) -> tuple[Any, Any]:
        source = body if body is not None else request.query_params
        level = request.path_params.get("level", source.get("level", "user"))
        return level, source.get("project_path")

    def node_id_of(request: Request) -> str:
        # Any id the graph may hold: a hand edit can leave one no write takes, and the editor draws it. In the
        # path, or (/api/node/...) in `id`: a browser folds an id of "." or "..", even encoded, out of a path.
        if "node_id" in request.path_params:
            return ids.check_lookup_id(request.path_params["node_id"])
        return ids.check_lookup_id(request.query_params.get("id"))

    async def node_score(request: Request) -> Response:
        return await score(request, node_id_of(request))

    # -- the store -------------------------------------------------------------
    async def projects(request: Request) -> JSONResponse:
        rows = [await graphs.project_row(floor, slug) for slug in sorted(graphs.project_slugs(floor))]
        user_graph = await directory.get("user")
        user = V.counts((await user_graph.current()).graph)
        return JSONResponse({"projects": rows, "user": user})

    async def remove_project(request: Request) -> JSONResponse:
        """Take a project off the list: its folder gone (or never recorded) or its graph empty.

        The body names it (`confirm`: the slug); the page asks a person to type that name for a graph
        with nodes. The graph's actor is unloaded first, and the folder moves to the store's trash.
        """
        slug = request.path_params["slug"]
        body = await json_body(request, whole=True)
        if slug not in graphs.project_slugs(floor):
            raise NotFound(f"no project graph '{slug}' is stored")
        if body.get("confirm") != slug:
            raise InvalidInput("confirm", f"must name the project being removed: '{slug}'")
        row = await graphs.project_row(floor, slug)
        nodes = row["counts"]["nodes"]

        def check(count: int) -> None:
            if row["path_exists"] and count:
                raise Conflict(f"'{slug}' holds {count} node(s) and its folder {row['recorded_path']} exists: "
                               "it is a live project, not one created by mistake; it stays")

        check(nodes)
        dest = await directory.remove_project(slug, runtime.clock(), check)
        if row["project_path"]:  # a tab showing it is told (its saves would be refused) and falls back
            floor.publish({"type": "project_removed", "level": "project", "project_path": row["project_path"],
                           "slug": slug})
        return JSONResponse({"removed": slug, "nodes": nodes, "project_path": row["project_path"],
                             "trash": str(dest.relative_to(directory.layout.root))})

    async def recent_project(request: Request) -> JSONResponse:
        """Where the editor opens: the project of the most recently active session, else the project
        whose graph changed last (among those whose folder still exists); None means the user graph."""
        root, because = await graphs.recent_project(floor)
        return JSONResponse({"project_path": root, "because": because})

    async def picture(request: Request) -> Response:
        level, project_path = where(request)
        handle, root = await graph_of(level, project_path)
        return await json_off_loop({"level": level, "project_path": root}, V.picture, (await handle.current()).graph)

    async def states(request: Request) -> Response:
        """Every node's tier: compaction moves tiers on writes and on the tick without a feed event of its own."""
        level, project_path = where(request)
        handle, root = await graph_of(level, project_path)
        return await json_off_loop({"level": level, "project_path": root}, V.states, (await handle.current()).graph)

    # -- nodes -----------------------------------------------------------------
    async def get_node(request: Request) -> Response:
        level, project_path = where(request)
        node_id = node_id_of(request)
        handle, root = await graph_of(level, project_path)
        graph = (await handle.current()).graph
        if node_id not in graph.nodes and node_id.endswith(SCORE):  # the path holds '/': a node first, then this
            return await score(request, node_id.removesuffix(SCORE))
        node = V.node_detail(graph, node_id)
        if node is None:
            raise NotFound(f"node '{node_id}' not found in the {level} graph")
        return JSONResponse({"level": level, "project_path": root, "node": node})

    async def put_node(request: Request) -> JSONResponse:
        body = await json_body(request, whole=True)
        level, project_path = where(request, body)
        handle, root = await graph_of(level, project_path)
        node_id = ids.check_lookup_id(body.get("id"))  # the rules for a new id are the write's
        out = await write.put_node(
            floor, None, level, node_id, _gist(body.get("gist")),
            _strings(body, "notes"), _strings(body, "touches"),
            guard=False, project_path=root, expected_version=_version(body.get("expected_version")),
            create_only=_flag(body, "create"), expected_fingerprint=_fingerprint(body.get("expected_fingerprint")),
        )
        result = out.result
        node = V.node_detail((await handle.current()).graph, node_id)
        return JSONResponse({"level": level, "project_path": root, "node": node, "created": result.created,
                             "changed": result.changed, "warnings": list(result.warnings)},
                            status_code=201 if result.created else 200)

    async def delete_node(request: Request) -> JSONResponse:
        level, project_path = where(request)
        node_id = node_id_of(request)
        _, root = await graph_of(level, project_path)
        raw = request.query_params.get("expected_version")
        version = None if raw is None else whole_number(
            raw, "expected_version", "must be a whole number in 0-9 (the version the editor loaded)")
        # With the version (and the words) the tab loaded, a delete of a node edited since is refused (409), as an
        # edit is.
        lvl, removed = await write.delete_node(floor, None, node_id, level, root, version,
                                               _fingerprint(request.query_params.get("expected_fingerprint")))
        return JSONResponse({"deleted": node_id, "level": lvl, "project_path": root, "edges_removed": removed})

    async def rename(request: Request) -> JSONResponse:
        body = await json_body(request, whole=True)
        level, project_path = where(request, body)
        _, root = await graph_of(level if "level" in body or project_path is None else "project", project_path)
        old_id, new_id = _text(body.get("old_id"), "old_id"), _text(body.get("new_id"), "new_id")
        # Without a level, found as kg_rename_node finds it: the user graph first, then the project's.
        out = await renaming.rename(floor, None, old_id, new_id, level if "level" in body else None, root)
        return JSONResponse({"level": out.level, "project_path": root, "old_id": old_id, "new_id": new_id,
                             "rewired": out.rewired, "skipped": out.skipped})

    async def score(request: Request, node_id: str) -> Response:
        level, project_path = where(request)
        handle, root = await graph_of(level, project_path)
        now = runtime.clock()
        # Ranks the node among the whole pool: as long as scoring every node.
        return await json_off_loop({"level": level, "project_path": root, "now": now}, scoring.explain,
                                   (await handle.current()).graph, node_id, now)

    # -- edges -----------------------------------------------------------------
    async def put_edge(request: Request) -> JSONResponse:
        body = await json_body(request, whole=True)
        level, project_path = where(request, body)
        _, root = await graph_of(level, project_path)
        src, dst = ids.check_endpoint(body.get("from"), "from"), ids.check_endpoint(body.get("to"), "to")
        rel = ids.check_rel(body.get("rel"))
        # A bare id that names no node is refused: a person picks an end that exists (the next load drops others).
        out = await write.put_edge(floor, None, level, src, dst, rel, _strings(body, "notes"), root,
                                   refuse_unnamed=True)
        return JSONResponse({"level": level, "project_path": root, "edge": out.edge.to_json(),
                             "credited": out.credited, "warnings": list(out.warnings)}, status_code=201)

    async def delete_edge(request: Request) -> JSONResponse:
        body = await json_body(request, whole=True)
        level, project_path = where(request, body)
        _, root = await graph_of(level, project_path)
        src, dst, rel = body.get("from"), body.get("to"), body.get("rel")
        gone = await write.delete_edge(floor, None, src, dst, rel, level, root)
        if gone is None:
            raise NotFound(f"edge {src}->{dst}:{rel} not found in the {level} graph")
        lvl, (src, dst, rel) = gone  # as it was stored
        return JSONResponse({"deleted": {"from": src, "to": dst, "rel": rel}, "level": lvl, "project_path": root})

    # -- progress --------------------------------------------------------------
    async def get_progress(request: Request) -> JSONResponse:
        level, project_path = where(request)
        handle, root = await graph_of(level, project_path)
        task_id = request.query_params.get("task_id")
        if task_id is not None:
            state = (await write.progress(floor, None, task_id, None, level, root)).state
            if state is None:
                raise NotFound(f"no progress for task '{task_id}' in the {level} graph")
            return JSONResponse({"level": level, "project_path": root, "task_id": task_id, "state": state})
        tasks = dict((await handle.current()).graph.progress)
        return JSONResponse({"level": level, "project_path": root, "tasks": tasks})

    async def put_progress(request: Request) -> JSONResponse:
        body = await json_body(request, whole=True)
        level, project_path = where(request, body)
        _, root = await graph_of(level, project_path)
        if "state" not in body or not isinstance(body["state"], dict):
            raise InvalidInput("state", "must be an object (the task's whole state)")
        task_id = body.get("task_id")
        out = await write.progress(floor, None, task_id, body["state"], level, root)
        return JSONResponse({"level": level, "project_path": root, "task_id": task_id, "state": out.state,
                             "warnings": list(out.warnings)})

    # -- search and budget -----------------------------------------------------
    async def search_nodes(request: Request) -> JSONResponse:
        q = request.query_params
        level, project_path = where(request)
        terms = search.parse_query(q.get("q", ""))
        limit = _limit(q.get("limit"))
        handle, root = await graph_of(level, project_path)
        view = await handle.view()
        # The graph's own index, kept current by its actor; no await until the answer is computed.
        assert view.index is not None  # view() waits for the first index build
        out = V.search_graph(view.index, view.graph, level, terms, limit)
        return JSONResponse({"level": level, "project_path": root, "query": q.get("q"), **out})

    async def budget(request: Request) -> Response:
        project_path = request.query_params.get("project_path")
        handles = [("user", await directory.get("user"))]
        root = None
        if project_path:
            handle, root = await graph_of("project", project_path)
            handles.append(("project", handle))
        levels = []
        for level, handle in handles:
            graph = (await handle.current()).graph
            levels.append((level, graph, await handle.debt(now=runtime.clock())))
        return await json_off_loop({"project_path": root}, _budget_levels, tuple(levels))

    async def debt_behind(request: Request) -> Response:
        """The nodes behind each DEBT factor of one graph, so the Budget tab can list them."""
        level, project_path = where(request)
        handle, root = await graph_of(level, project_path)
        view = await handle.view()
        return await json_off_loop({"level": level, "project_path": root}, _debt_behind, view.graph,
                                   view.missing_touches)

    async def scores(request: Request) -> Response:
        """Every ranked node's score (the list view's column); the newest, protected ones have none."""
        level, project_path = where(request)
        handle, root = await graph_of(level, project_path)
        scored = await floor.views.scores_off_loop(handle.key, await handle.view(), runtime.clock())
        return await json_off_loop({"level": level, "project_path": root}, _rounded, scored)

    async def readings(request: Request) -> JSONResponse:
        """The tick's readings of one graph (debt score, active render size), oldest first."""
        level, project_path = where(request)
        handle, root = await graph_of(level, project_path)
        rows = await graphs.readings(floor, handle)
        return JSONResponse({"level": level, "project_path": root, "readings": rows})

    # An id a hand edit left may hold '/' (sent as %2F, which the server decodes): the rest of the path is the id,
    # and a GET of `<id>/score` that names no node is the score of <id>.
    level_node = "/api/nodes/{level}/{node_id:path}"
    return [
        Route("/api/projects", guarded(projects), methods=["GET"]),
        Route("/api/recent_project", guarded(recent_project), methods=["GET"]),
        Route("/api/projects/{slug}", guarded(remove_project), methods=["DELETE"]),
        Route("/api/graph", guarded(picture), methods=["GET"]),
        Route("/api/states", guarded(states), methods=["GET"]),
        Route("/api/nodes", guarded(put_node), methods=["POST"]),
        Route("/api/nodes/rename", guarded(rename), methods=["POST"]),
        Route(level_node, guarded(get_node), methods=["GET"]),
        Route(level_node, guarded(delete_node), methods=["DELETE"]),
        Route("/api/node/{level}", guarded(get_node), methods=["GET"]),
        Route("/api/node/{level}", guarded(delete_node), methods=["DELETE"]),
        Route("/api/node/{level}/score", guarded(node_score), methods=["GET"]),
        Route("/api/edges", guarded(put_edge), methods=["POST"]),
        Route("/api/edges", guarded(delete_edge), methods=["DELETE"]),
        Route("/api/progress", guarded(get_progress), methods=["GET"]),
        Route("/api/progress", guarded(put_progress), methods=["POST"]),
        Route("/api/search", guarded(search_nodes), methods=["GET"]),
        Route("/api/budget", guarded(budget), methods=["GET"]),
        Route("/api/debt_nodes", guarded(debt_behind), methods=["GET"]),
        Route("/api/readings", guarded(readings), methods=["GET"]),
        Route("/api/scores", guarded(scores), methods=["GET"]),
    ]


# Builders of replies json_off_loop makes in a worker thread: each reads only the frozen values it is given.
def _budget_levels(levels: tuple[tuple[str, GraphSnapshot, Debt], ...]) -> dict[str, Any]:
    """Each level's charge against its budget (rendering it all: tens of ms at 10,000 nodes), and its debt."""
    out = {}
    for level, graph, d in levels:
        out[level] = {**V.budget(graph), "debt": debt.debt_line(d), "debt_factors": debt.debt_dict(d)}
    return {"levels": out}


def _debt_behind(graph: GraphSnapshot, missing_touches: frozenset[str]) -> dict[str, Any]:
    return {"behind": debt.debt_nodes(graph, missing_touches)}


def _rounded(scored: Mapping[str, float]) -> dict[str, Any]:
    return {"scores": {i: round(v, 4) for i, v in scored.items()}}


def _limit(raw: str | None) -> int:
    if raw is None or raw == "":
        return SEARCH_LIMIT_DEFAULT
    rule = f"must be a whole number from 1 to {SEARCH_LIMIT_MAX}, in 0-9"
    if not 1 <= (limit := whole_number(raw, "limit", rule)) <= SEARCH_LIMIT_MAX:
        raise InvalidInput("limit", rule)
    return limit
