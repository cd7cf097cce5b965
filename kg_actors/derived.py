"""The derived state of one graph: indexes kept current with it, and per-version caches.

The graph actor owns a Derived beside its graph and updates it with every
change it commits (GraphState.changed); nobody else writes it. Readers see it
through the GraphView the actor publishes (`view`): frozen recent values and
the indexes as they stand. Among its indexes is the level's charge
(core/charge.py), which a write's compaction plan starts from, so planning
costs the change, not the level.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .core import anchors, debt, render, scoring, search, touches
from .core.charge import ChargeIndex
from .core.debt import Debt
from .core.model import GraphData, GraphReader
from .core.snapshot import GraphSnapshot
from .core.top_degrees import TopDegrees
from .core.steps import run_steps
from .core.written import WrittenLog
from .graph_view import GraphView, Recent


def build_derived(graph: GraphData, now: float, charges: ChargeIndex | None = None) -> Derived:
    """The cheap derived state of a graph nobody else holds yet (worker thread).

    The search index is the slow one (seconds at 10,000 nodes): the actor
    builds it in the background from a snapshot and installs it when done.
    `charges`: the graph's charge index when the caller has one current (settling keeps one).
    """
    graph.snapshot()  # the first version, O(graph): made here, in the worker thread, not on the actor's loop
    home = os.path.realpath(Path.home())
    derived = Derived(None, touches.TouchIndex.build(graph, home), WrittenLog.build(graph),
                      charges if charges is not None else ChargeIndex.build(graph))
    # The first DEBT line counts the touches already gone (the tick checks them again; ~5 µs a stat).
    derived.missing_touches = missing_files(anchors.touch_paths(graph, home))
    derived.debt(graph, now)  # the first call warms its per-graph term counts
    derived.scores(graph, now)  # so the first reply does not pay for the recent values
    derived.debt(graph, now)
    derived.live_edges(graph)
    return derived


def missing_files(paths: Iterable[tuple[str, str, str]]) -> frozenset[str]:
    """The touches whose file is not there (anchors.touch_paths' rows; a stat each, so a worker thread's)."""
    return frozenset(touch for _, touch, path in paths if not os.path.exists(path))


class Derived:
    """Indexes kept current with the graph (search postings, touches, write order) and per-version caches."""

    def __init__(self, index: search.SearchIndex | None, touch_index: touches.TouchIndex, written: WrittenLog,
                 charges: ChargeIndex):
        self.index = index
        self.touch_index = touch_index
        self.written = written
        self.charges = charges  # what compaction plans from: kept per change, so a write's plan costs its change
        self.top_degrees: TopDegrees | None = None  # made at the first create's hub hint, then kept per change
        self.missing_touches: frozenset[str] = frozenset()
        self.activity_days: frozenset[str] = frozenset()  # a project's tool-event days (DEBT activity)
        self.compactions = 0  # runs that moved a node's tier (GraphView.compactions)
        self._debt: tuple[tuple[int, int, int], Debt] | None = None
        self.debt_inputs = 0  # bumped when missing_touches or activity_days change
        self._scores: tuple[int, dict[str, float]] | None = None
        self._live_edges: tuple[int, int] | None = None
        self._recent: Recent | None = None  # the frozen copy views hand out, made once per refresh

    def view(self, graph: GraphSnapshot) -> GraphView:
        """What readers get: the snapshot, the recent values, and the indexes as they stand."""
        if self._recent is None:
            scores = None if self._scores is None else (self._scores[0], MappingProxyType(self._scores[1]))
            self._recent = Recent(scores, self._debt, self._live_edges)
        return GraphView(graph, self._recent, self.index, self.touch_index, self.written, self.missing_touches,
                         self.compactions)

    def changed(self, graph: GraphData, record: dict[str, Any], applied: float | None = None) -> None:
        """Up to date with a committed record (the actor's, after each change)."""
        nodes = record.get("n", {})
        renamed = self.written.renamed(graph, nodes)  # before the old ids leave the log
        for node_id in nodes:
            self.node_changed(graph, node_id, applied, renamed.get(node_id))
        edge_keys = [tuple(key) for key, _ in record.get("e", [])]
        self.charges.update(graph, nodes, edge_keys)
        if self.top_degrees is not None:
            self.top_degrees = self.top_degrees.update(graph, nodes, edge_keys)

    def most_connected(self, graph: GraphData) -> TopDegrees:
        """The graph's most connected nodes (the hub hint's first look), made at the first ask."""
        if self.top_degrees is None:
            self.top_degrees = TopDegrees.build(graph)
        return self.top_degrees

    def node_changed(self, graph: GraphData, node_id: str, applied: float | None = None,
                     visible: float | None = None) -> None:
        node = graph.nodes.get(node_id)
        for index in (self.index, self.touch_index):
            if index is None:
                continue  # the background build catches up with `sync` when it is installed
            if node is None:
                index.remove_node(node_id)
            elif index is self.index:  # a node holding a secret is filed by what agents are shown of it
                index.update_node(node, graph.lineage.mask.visible(node))
            else:
                index.update_node(node)
        if node is None:
            self.written.remove_node(node_id)
        else:
            self.written.update_node(node, applied, visible)

    def rerooted(self, graph: GraphData) -> None:
        """The graph's folder changed (a folder took over a gone one's memory): its relative touches name
        that folder's files now, so file recall finds its lessons at once, not after a restart."""
        self.touch_index = touches.TouchIndex.build(graph, self.touch_index.home)

    def install(self, graph: GraphData, index: search.SearchIndex) -> None:
        """An index built off the loop: caught up with what changed while it was built, held nodes filed."""
        index.sync(graph)
        self.index = index
        self.hold(graph)

    def hold(self, graph: GraphData) -> None:
        """File each node known to hold a secret (the load's scan answered, an index built off the loop came
        in) by what agents are shown of it: held nodes are rare, and only they are checked."""
        if self.index is None:
            return
        mask = graph.lineage.mask
        for node_id in mask.held_ids():
            node = graph.nodes.get(node_id)
            if node is not None:
                self.index.update_node(node, mask.visible(node))

    def scores(self, graph: GraphReader, now: float) -> dict[str, float]:
        """Unified-pool scores. Percentile ranks do not move with `now`, so one per graph version."""
        if self._scores is None or self._scores[0] != graph.gen:
            self._scores = (graph.gen, scoring.unified_scores(graph, now))
            self._recent = None
        return self._scores[1]

    # Values of a recent graph version, for hook replies: each costs 20-100 ms at 10,000 nodes,
    # which no reply may pay after every write. Readers get the ones held (GraphView.recent);
    # the tick recomputes those older than the graph, off the loop, from a snapshot.
    def stale(self, graph: GraphReader, now: float) -> frozenset[str]:
        """The recent values held for an older version than `graph`'s (or an older day or inputs)."""
        keys = {"scores": (self._scores, graph.gen), "debt": (self._debt, self._debt_key(graph, now)),
                "live_edges": (self._live_edges, graph.gen)}
        return frozenset(name for name, (held, key) in keys.items() if held is not None and held[0] != key)

    def compute_recent(self, graph: GraphSnapshot, now: float, names: frozenset[str]) -> dict[str, tuple[Any, Any]]:
        """The recent values `names`, each with the key it holds for. Reads the snapshot and writes
        nothing: the actor runs this in a worker thread and swaps the result in after (install_recent)."""
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
        self._recent = None

    def live_edges(self, graph: GraphReader) -> int:
        if self._live_edges is None or self._live_edges[0] != graph.gen:
            self._live_edges = (graph.gen, render.live_edge_count(graph))
            self._recent = None
        return self._live_edges[1]

    def debt(self, graph: GraphReader, now: float) -> Debt:
        return run_steps(self.debt_steps(graph, now))

    def debt_steps(self, graph: GraphReader, now: float) -> Generator[None, None, Debt]:
        """`debt`, in steps where it has to be computed again (none when the cached one holds)."""
        key = self._debt_key(graph, now)
        if self._debt is None or self._debt[0] != key:
            value = yield from debt.debt_steps(graph, now, missing_touches=self.missing_touches,
                                               activity_days=self.activity_days)
            self._debt = (key, value)
            self._recent = None
        return self._debt[1]

    def _debt_key(self, graph: GraphReader, now: float) -> tuple[int, int, int]:
        return graph.gen, int(now // 86_400), self.debt_inputs

    def set_debt_inputs(self, missing_touches: frozenset[str] | None = None,
                        activity_days: frozenset[str] | None = None) -> None:
        """What the tick learns outside the graph; debt is computed again only when either changed."""
        for name, value in (("missing_touches", missing_touches), ("activity_days", activity_days)):
            if value is not None and frozenset(value) != getattr(self, name):
                setattr(self, name, frozenset(value))
                self.debt_inputs += 1
