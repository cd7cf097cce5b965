"""A node's versions from the store's git history, and graph names as the REST API takes them.

`node_history` reads git (blocking: run it in a thread); a git failure raises
GitError with its message.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from ..core.errors import InvalidInput, NotFound
from ..storage import git as G
from ..storage import git_read, shards
from ..storage import layout as L
from . import common

GitError = G.GitError


class Projects(Protocol):
    layout: L.Layout

    async def project_key(self, root: str) -> str: ...


async def graph_key(directory: Projects, graph: object) -> str:
    """`user`, `maintain`, a project's folder (absolute path) or its graph folder's name."""
    if not isinstance(graph, str) or not graph.strip():
        raise InvalidInput("graph", "is required: user, maintain, a project path or a project's graph folder")
    graph = graph.strip()
    if graph in ("user", "maintain"):
        return graph
    if graph.startswith("project:"):
        graph = graph.removeprefix("project:")
    if graph.startswith(("/", "~")):
        return await directory.project_key(L.project_root(graph, "graph"))
    try:
        stored = "/" not in graph and directory.layout.project_graph(graph).exists()
    except OSError:  # no folder's name (300,000 characters): no such graph, not a server error
        stored = False
    if not stored:
        shown = graph if len(graph) <= 200 else graph[:200] + "…"
        raise NotFound(f"no graph named {shown!r} (user, maintain, a project path or a folder under projects/)")
    return f"project:{graph}"


def node_history(layout: L.Layout, key: str, node_id: str, limit: int) -> list[dict[str, Any]]:
    """The node's versions, newest first: a commit is kept where the node changed.

    The node's bucket file in the mirror, and before the mirror existed, the graph file itself."""
    root = layout.root
    if not G.is_repo(root):
        raise G.GitError(G.init_hint(root))
    part = f"{shards.folder(key)}/{shards.bucket(node_id)}"
    legacy = common.rel_path(layout, key)
    revs = G.file_log(root, [part, legacy], limit)
    raw = git_read.blobs(root, [f"{r.commit}:{p}" for r in revs for p in (part, legacy)])
    versions: list[dict[str, Any]] = []
    for rev in revs:
        data = raw[f"{rev.commit}:{part}"]
        if data is None:  # a commit from before the mirror: the whole graph file
            data = raw[f"{rev.commit}:{legacy}"]
        node = ((common.parse_graph(data) or {}).get("nodes") or {}).get(node_id)
        versions.append({"commit": rev.commit, "committed_ts": rev.ts, "machine": rev.machine,
                         "author": rev.author, "subject": rev.subject, "node": node})
    out = []
    for i, v in enumerate(versions):
        older = versions[i + 1]["node"] if i + 1 < len(versions) else object()
        if json.dumps(v["node"], sort_keys=True) != json.dumps(older, sort_keys=True, default=str):
            out.append(v)
    return out
