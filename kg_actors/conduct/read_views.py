"""ReadViews: the one owner of the graphs' read views that hook replies use.

A hook reply must not queue behind a burst of writes (and the compaction each
one runs) in a graph actor's mailbox, so each actor's view is asked once and
kept, per actor (a reload starts a new actor and so a new view). What a view
holds is the actor's current graph and derived indexes: read them only in
synchronous stretches (between two awaits they are consistent).
"""

from __future__ import annotations

from collections.abc import Callable

from ..derived import Derived
from ..core.model import GraphData, Node
from ..core.search import SearchIndex
from ..graph_handle import GraphHandle

LevelView = tuple[str, GraphHandle, GraphData, Derived]


class ReadViews:
    def __init__(self) -> None:
        self._cached: dict[str, tuple[GraphHandle, GraphData, Derived]] = {}

    async def of(self, levels: list[tuple[str, GraphHandle]]) -> list[LevelView]:
        """The views of the given (level, handle) pairs, in their order."""
        out = []
        for lvl, handle in levels:
            cached = self._cached.get(handle.key)
            if cached is None or cached[0] is not handle:  # a reload starts a new actor
                graph, derived = await handle.view_now()
                cached = self._cached[handle.key] = (handle, graph, derived)
            out.append((lvl, handle, cached[1], cached[2]))
        return out

    def knows_project_path(self, handle: GraphHandle, root: str) -> bool:
        """Whether the held view of `handle` already records `root` as its folder."""
        cached = self._cached.get(handle.key)
        return cached is not None and cached[0] is handle and cached[1].project_path == root


def written_from(views: list[LevelView]) -> Callable[[str, float], list[Node]]:
    """For pushes: the nodes of a level written after `since` (oldest first), from the read views."""
    by_level = {lvl: (graph, derived) for lvl, _, graph, derived in views}

    def written(level: str, since: float) -> list[Node]:
        graph, derived = by_level[level]
        return [graph.nodes[i] for i in derived.written.since(since)]

    return written


def indexed(views: list[LevelView]) -> dict[str, tuple[GraphData, SearchIndex]] | None:
    """Each level's graph and search index; None while a first index builds (a hook never waits for it)."""
    out = {}
    for lvl, handle, graph, derived in views:
        if not handle.index_ready or derived.index is None:
            return None
        out[lvl] = (graph, derived.index)
    return out
