"""The derived state of one graph: indexes kept current with it, and per-version caches.

The graph actor owns a Derived beside its graph and updates it with every
change it commits (GraphState.changed); hook replies read it through a view.
Among its indexes is the level's charge (core/charge.py), which a write's
compaction plan starts from, so planning costs the change, not the level.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import attrs

from .core import debt, reads, render, scoring, search, touches
from .core.charge import ChargeIndex
from .core.model import GraphData, Node
from .core.written import WrittenLog

T = TypeVar("T")


def build_derived(graph: GraphData, now: float, charges: ChargeIndex | None = None) -> Derived:
    """The cheap derived state of a graph nobody else holds yet (worker thread).

    The search index is the slow one (seconds at 10,000 nodes): the actor
    builds it in the background from a snapshot and installs it when done.
    `charges`: the graph's charge index when the caller has one current (settling keeps one).
    """
    derived = Derived(None, touches.TouchIndex.build(graph, os.path.realpath(Path.home())), WrittenLog.build(graph),
                      charges if charges is not None else ChargeIndex.build(graph))
    derived.debt(graph, now)  # the first call warms its per-graph term counts
    derived.scores(graph, now)  # so the first reply does not pay for the recent values
    derived.debt(graph, now)
    derived.live_edges(graph)
    return derived


@attrs.frozen
class NodesSnapshot:
    """Frozen nodes as of one moment: enough for SearchIndex.build off the event loop."""

    nodes: dict[str, Node]
    gen: int = -2


class Derived:
    """Indexes kept current with the graph (search postings, touches, write order) and per-version caches."""

    def __init__(self, index: search.SearchIndex | None, touch_index: touches.TouchIndex, written: WrittenLog,
                 charges: ChargeIndex):
        self.index = index
        self.touch_index = touch_index
        self.written = written
        self.charges = charges  # what compaction plans from: kept per change, so a write's plan costs its change
        self.missing_touches: frozenset[str] = frozenset()
        self.activity_days: frozenset[str] = frozenset()  # a project's tool-event days (DEBT activity)
        self._debt: tuple[tuple[int, int, int], debt.Debt] | None = None
        self.debt_inputs = 0  # bumped when missing_touches or activity_days change
        self._scores: tuple[int, dict[str, float]] | None = None
        self._live_edges: tuple[int, int] | None = None
        self._stale: set[str] = set()  # recent values handed out older than the graph
        self._part: tuple[int, str, reads.LevelPart] | None = None
        self._gists_part: tuple[int, str, reads.LevelPart] | None = None

    def node_changed(self, graph: GraphData, node_id: str, applied: float | None = None) -> None:
        node = graph.nodes.get(node_id)
        for index in (self.index, self.touch_index):
            if index is None:
                continue  # the background build catches up with `sync` when it is installed
            if node is None:
                index.remove_node(node_id)
            else:
                index.update_node(node)
        if node is None:
            self.written.remove_node(node_id)
        else:
            self.written.update_node(node, applied)

    def scores(self, graph: GraphData, now: float) -> dict[str, float]:
        """Unified-pool scores. Percentile ranks do not move with `now`, so one per graph version."""
        if self._scores is None or self._scores[0] != graph.gen:
            self._scores = (graph.gen, scoring.unified_scores(graph, now))
        return self._scores[1]

    # Values of a recent graph version, for hook replies: each costs 20-100 ms at 10,000 nodes,
    # which no reply may pay after every write. Computed at first use; a reply that finds one
    # older than the graph flags it, and the tick recomputes what is flagged, off the loop.
    def recent_scores(self, graph: GraphData, now: float) -> dict[str, float]:
        """Scores to order a few recalled nodes or shed preload gists by; a newer node has none."""
        return self._recently("scores", self._scores, graph.gen, lambda: self.scores(graph, now))

    def recent_debt(self, graph: GraphData, now: float) -> debt.Debt:
        return self._recently("debt", self._debt, self._debt_key(graph, now), lambda: self.debt(graph, now))

    def recent_live_edges(self, graph: GraphData) -> int:
        return self._recently("live_edges", self._live_edges, graph.gen, lambda: self.live_edges(graph))

    def _recently(self, name: str, held: tuple[object, T] | None, key: object, fresh: Callable[[], T]) -> T:
        """`held`: (the key it was computed for, the value)."""
        if held is None:
            return fresh()
        if held[0] != key:
            self._stale.add(name)
        return held[1]

    def take_stale(self) -> frozenset[str]:
        stale, self._stale = frozenset(self._stale), set()
        return stale

    def refresh(self, graph: GraphData, now: float, names: frozenset[str]) -> None:
        """Recompute the recent values `names` (take_stale) and put them in place."""
        self.install_recent(self.compute_recent(graph, now, names))

    def compute_recent(self, graph: GraphData, now: float, names: frozenset[str]) -> dict[str, tuple[Any, Any]]:
        """The recent values `names`, each with the key it holds for. Reads `graph` and writes nothing
        here: the actor runs this in a worker thread (taking no message, so the graph stays as it is)
        while hook replies on the loop may fill this object's caches; it swaps the result in after."""
        out: dict[str, tuple[Any, Any]] = {}
        for name in sorted(names):
            if name == "scores":
                out[name] = (graph.gen, scoring.unified_scores(graph, now))
            elif name == "debt":
                out[name] = (self._debt_key(graph, now), debt.compute_debt(
                    graph, now, missing_touches=self.missing_touches, activity_days=self.activity_days))
            elif name == "live_edges":
                out[name] = (graph.gen, render.live_edge_count(graph))
        return out

    def install_recent(self, values: dict[str, tuple[Any, Any]]) -> None:
        """Put values compute_recent made in place (on the actor's loop)."""
        for name, held in values.items():
            setattr(self, f"_{name}", held)

    def live_edges(self, graph: GraphData) -> int:
        if self._live_edges is None or self._live_edges[0] != graph.gen:
            self._live_edges = (graph.gen, render.live_edge_count(graph))
        return self._live_edges[1]

    def level_part(self, graph: GraphData, level: str, preloaded: frozenset[str], now: float) -> reads.LevelPart:
        """The full read's body for this level: the render plan is rebuilt only when the graph changed."""
        if self._part is None or self._part[:2] != (graph.gen, level):
            self._part = (graph.gen, level, reads.level_part(graph, level, frozenset(), self.scores(graph, now)))
        return reads.with_preloaded(self._part[2], preloaded)

    def gists_part(self, graph: GraphData, level: str, now: float) -> reads.LevelPart:
        """The level's body without its archived anchors, valued by recent scores: the preload's,
        when its gists alone overflow it (planning 10,000 anchors per write is what it spares)."""
        if self._gists_part is None or self._gists_part[:2] != (graph.gen, level):
            part = reads.level_part(graph, level, frozenset(), self.recent_scores(graph, now), anchors=False,
                                    live_edges=self.recent_live_edges(graph))
            self._gists_part = (graph.gen, level, part)
        return self._gists_part[2]

    def debt(self, graph: GraphData, now: float) -> debt.Debt:
        key = self._debt_key(graph, now)
        if self._debt is None or self._debt[0] != key:
            self._debt = (key, debt.compute_debt(graph, now, missing_touches=self.missing_touches,
                                                 activity_days=self.activity_days))
        return self._debt[1]

    def _debt_key(self, graph: GraphData, now: float) -> tuple[int, int, int]:
        return graph.gen, int(now // 86_400), self.debt_inputs

    def set_debt_inputs(self, missing_touches: frozenset[str] | None = None,
                        activity_days: frozenset[str] | None = None) -> None:
        """What the tick learns outside the graph; debt is computed again only when either changed."""
        for name, value in (("missing_touches", missing_touches), ("activity_days", activity_days)):
            if value is not None and frozenset(value) != getattr(self, name):
                setattr(self, name, frozenset(value))
                self.debt_inputs += 1
