"""Nodes in the order they were last written: what other sessions wrote since a moment (pushes).

Kept current per changed node, so a hook reply bisects instead of scanning
every node of the graph.
"""

from __future__ import annotations

import bisect

from .model import GraphData, Node


def written_ts(node: Node) -> float | None:
    ts = (node.written or {}).get("ts")
    return ts if isinstance(ts, int | float) and not isinstance(ts, bool) else None


class WrittenLog:
    def __init__(self) -> None:
        self._keys: list[tuple[float, str]] = []  # (write time, id), sorted
        self._ts: dict[str, float] = {}

    @classmethod
    def build(cls, graph: GraphData) -> WrittenLog:
        log = cls()
        log._ts = {n.id: ts for n in graph.nodes.values() if (ts := written_ts(n)) is not None}
        log._keys = sorted((ts, i) for i, ts in log._ts.items())
        return log

    def update_node(self, node: Node) -> None:
        ts = written_ts(node)
        if self._ts.get(node.id) == ts:
            return
        self.remove_node(node.id)
        if ts is not None:
            self._ts[node.id] = ts
            bisect.insort(self._keys, (ts, node.id))

    def remove_node(self, node_id: str) -> None:
        ts = self._ts.pop(node_id, None)
        if ts is not None:
            del self._keys[bisect.bisect_left(self._keys, (ts, node_id))]

    def since(self, ts: float) -> list[str]:
        """Ids written strictly after `ts`, oldest first."""
        return [i for _, i in self._keys[bisect.bisect_right(self._keys, (ts, "\U0010ffff")):]]
