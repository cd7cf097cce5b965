"""ReadViews: the floor's reading side of the graphs, over the views their actors publish.

A hook reply must not queue behind a burst of writes in a graph actor's
mailbox, so it reads the view the actor last published (`handle.view_now()`:
a frozen snapshot and the recent values, graph_view.py) and asks nothing.
What a reply computes from a snapshot (a level's body, fresh scores) is
cached here, privately, keyed by the snapshot it came from: the actor's state
is never written by a reader, and a new version simply misses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import trio

from ..core import constants as C
from ..core import debt, reads, render, scoring
from ..core.model import Node
from ..core.search import SearchIndex
from ..core.snapshot import GraphSnapshot
from ..graph_handle import GraphHandle
from ..graph_view import GraphView, Recent

LevelView = tuple[str, GraphHandle, GraphView]


class ReadViews:
    def __init__(self) -> None:
        # Per graph key: the snapshot a value was computed from, and the value.
        self._scores: dict[str, tuple[GraphSnapshot, Mapping[str, float]]] = {}
        self._parts: dict[tuple[str, str, bool], tuple[GraphSnapshot, reads.LevelPart, Recent | None]] = {}

    def of(self, levels: list[tuple[str, GraphHandle]]) -> list[LevelView]:
        """The latest views of the given (level, handle) pairs, in their order."""
        return [(lvl, handle, handle.view_now()) for lvl, handle in levels]

    @staticmethod
    def knows_project_path(handle: GraphHandle, root: str) -> bool:
        """Whether `handle`'s graph already records `root` as its folder."""
        return handle.snapshot().project_path == root

    def scores(self, key: str, view: GraphView, now: float) -> Mapping[str, float]:
        """Unified-pool scores of this very version (percentile ranks do not move with `now`)."""
        held = self._scores.get(key)
        if held is None or held[0] is not view.graph:
            held = self._scores[key] = (view.graph, scoring.unified_scores(view.graph, now))
        return held[1]

    async def scores_off_loop(self, key: str, view: GraphView, now: float) -> Mapping[str, float]:
        """`scores`, computed in a worker thread when this version has none yet (scoring 10,000 nodes
        holds a thread for 10-100 ms; the loop answers hooks meanwhile). The snapshot is frozen and the
        scores are only read once made."""
        held = self._scores.get(key)
        if held is not None and held[0] is view.graph:
            return held[1]
        scored = await trio.to_thread.run_sync(scoring.unified_scores, view.graph, now)
        self._scores[key] = (view.graph, scored)  # over a newer version's scored meanwhile: a miss at worst
        return scored

    def level_part(self, key: str, view: GraphView, level: str, preloaded: frozenset[str],
                   now: float, held: frozenset[str] = frozenset()) -> reads.LevelPart:
        """The full read's body for this level: planned again only for a new version (`preloaded` and
        `held`: the gists the session holds, shown as anchors)."""
        kept = self._parts.get((key, level, True))
        if kept is None or kept[0] is not view.graph:
            part = reads.level_part(view.graph, level, frozenset(), self.scores(key, view, now))
            kept = self._parts[(key, level, True)] = (view.graph, part, None)
        return reads.with_preloaded(kept[1], preloaded, held)

    def gists_part(self, key: str, view: GraphView, level: str, now: float) -> reads.LevelPart:
        """The level's body without its archived anchors, valued by recent scores: the preload's,
        when its gists alone overflow it (planning 10,000 anchors per write is what it spares)."""
        held = self._parts.get((key, level, False))
        # Planned again for a new version, and when the tick brings recent values of a newer one.
        if held is None or held[0] is not view.graph or held[2] is not view.recent:
            part = reads.level_part(view.graph, level, frozenset(), recent_scores(view, now), anchors=False,
                                    live_edges=recent_live_edges(view))
            held = self._parts[(key, level, False)] = (view.graph, part, view.recent)
        return held[1]


def recent_scores(view: GraphView, now: float) -> Mapping[str, float]:
    """Scores to order a few recalled nodes or shed preload gists by (a recent version's: a newer
    node has none); computed here only for a graph the actor never scored."""
    held = view.recent.scores
    return held[1] if held is not None else scoring.unified_scores(view.graph, now)


def recent_debt(view: GraphView, now: float) -> debt.Debt:
    held = view.recent.debt
    return held[1] if held is not None else debt.compute_debt(view.graph, now,
                                                              missing_touches=view.missing_touches)


def recent_live_edges(view: GraphView) -> int:
    """The live edges of a recent version; this version's where counting them costs little."""
    held = view.recent.live_edges
    if held is not None and (held[0] == view.graph.gen or len(view.graph.edges) > C.EXACT_COUNT_EDGES):
        return held[1]
    return render.live_edge_count(view.graph)


def written_from(levels: list[tuple[str, GraphHandle]]) -> Callable[[str, float], list[Node]]:
    """For pushes: the nodes of a level written after `since` (oldest first), from each graph's
    latest view when asked (the caller may await in between)."""
    handles = {lvl: handle for lvl, handle in levels}

    def written(level: str, since: float) -> list[Node]:
        view = handles[level].view_now()
        nodes, mask = view.graph.nodes, view.graph.lineage.mask  # as agents are shown them (core/withheld.py)
        return [mask.node(nodes[i]) for i in view.written.since(since)]

    return written


def indexed(views: list[LevelView]) -> dict[str, tuple[GraphSnapshot, SearchIndex]] | None:
    """Each level's graph and search index; None while a first index builds (a hook never waits for it)."""
    out = {}
    for lvl, handle, view in views:
        if not handle.index_ready or view.index is None:
            return None
        out[lvl] = (view.graph, view.index)
    return out
