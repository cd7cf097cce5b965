"""The most connected nodes of a graph, in order, kept per change: where the hub hint looks first.

The hub hint wants, among the nodes naming a term, the one with the most edges (ties: the first id).
A term worth the hint is named by 8-25 % of the graph: hundreds to thousands of nodes at 10,000,
whose degrees were read on every create. Here a graph keeps its top nodes by degree (most first, then
by id) as an exact prefix of that whole order: every node with an edge that is not listed ranks after
the last entry. The first entry that names the term is then the hint's hub, found in a few look-ups;
when none does, the hub (if any) ranks after the list and the caller reads the namers as before.

Kept per change in O(what changed): a changed node joins when it ranks ahead of the last entry as it
stood (every node outside ranks after that), and leaves when it no longer does (a node outside might
rank ahead of it now: the list gets shorter and stays exact). Made anew from the graph when fewer than
half of TOP are left.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable
from heapq import nsmallest

from .model import EdgeKey, GraphReader

TOP = 64  # entries made; a term named by a tenth of the graph is named by one of the first few


class TopDegrees:
    """An exact prefix of a graph's nodes of one edge or more, by degree (most first), then id; `complete`
    when it holds them all."""

    def __init__(self, keys: list[tuple[int, str]], complete: bool):
        self._keys = keys  # (-degree, id), sorted
        self._at = {key[1]: key for key in keys}
        self.complete = complete

    @classmethod
    def build(cls, graph: GraphReader, top: int = TOP) -> TopDegrees:
        ids = list(graph.nodes)
        keys = [(-degree, node_id) for node_id, degree in zip(ids, graph.degrees(ids)) if degree]
        if len(keys) <= top:
            return cls(sorted(keys), True)
        return cls(nsmallest(top, keys), False)

    def ids(self) -> list[str]:
        return [node_id for _, node_id in self._keys]

    def update(self, graph: GraphReader, node_ids: Iterable[str], edge_keys: Iterable[EdgeKey],
               top: int = TOP) -> TopDegrees:
        """After a change of these nodes and edges: the list to keep (this one, or one made anew)."""
        keys, at, nodes = self._keys, self._at, graph.nodes
        if not self.complete and not keys:
            return TopDegrees.build(graph, top)
        bound = None if self.complete else keys[-1]  # every node outside ranks after it
        touched = set(node_ids)
        for src, dst, _ in edge_keys:
            touched.update((src, dst))
        for node_id in touched:
            old = at.pop(node_id, None)
            if old is not None:
                del keys[bisect_left(keys, old)]
            degree = graph.degree(node_id) if node_id in nodes else 0
            key = (-degree, node_id)
            if degree and (bound is None or key <= bound):
                insort(keys, key)
                at[node_id] = key
        if len(keys) > top:
            for _, node_id in keys[top:]:
                del at[node_id]
            del keys[top:]
            self.complete = False
        if not self.complete and len(keys) < top // 2:
            return TopDegrees.build(graph, top)
        return self

    def first(self, names: Callable[[str], bool], exclude: str, graph: GraphReader) -> str | None:
        """The best-ranked entry other than `exclude`, in the graph, for which `names` holds; None when no
        entry does (then any node that does ranks after the list)."""
        nodes = graph.nodes
        for _, node_id in self._keys:
            if node_id != exclude and node_id in nodes and names(node_id):
                return node_id
        return None
