"""Nodes in the order they were last written: what other sessions wrote since a moment (pushes).

Kept current per changed node, so a hook reply bisects instead of scanning
every node of the graph.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from .model import GraphReader, Node


def written_ts(node: Node) -> float | None:
    ts = (node.written or {}).get("ts")
    return ts if isinstance(ts, int | float) and not isinstance(ts, bool) else None


class WrittenLog:
    """Ordered by when each write became visible here, not by its stamp alone.

    A write is stamped when its request starts and applied after the writes
    queued before it: one stamped before a reader's window opened may become
    visible after, and ordering by the stamp would hide it from every window.
    """

    def __init__(self) -> None:
        self._keys: list[tuple[float, str]] = []  # (visible since, id), sorted
        self._at: dict[str, tuple[float, float]] = {}  # id -> (its write stamp, visible since)

    @classmethod
    def build(cls, graph: GraphReader) -> WrittenLog:
        log = cls()
        log._at = {n.id: (ts, ts) for n in graph.nodes.values() if (ts := written_ts(n)) is not None}
        log._keys = sorted((at, i) for i, (_, at) in log._at.items())
        return log

    def renamed(self, graph: GraphReader, ids: Iterable[str]) -> dict[str, float]:
        """Of one change's node ids, each new id that a rename gave a node this log knows under its old
        id (the same write stamp): when it was made visible there. A rename is no news (spec 000: only
        content is pushed), so the node keeps its place instead of counting as written now."""
        ids = list(ids)
        gone = {self._at[i][0]: self._at[i][1] for i in ids if i not in graph.nodes and i in self._at}
        out = {}
        for i in ids:
            node = graph.nodes.get(i)
            if gone and node is not None and i not in self._at and (ts := written_ts(node)) in gone:
                out[i] = gone[ts]
        return out

    def update_node(self, node: Node, applied: float | None = None, visible: float | None = None) -> None:
        """`applied`: when the change was applied (None: as stamped). `visible`: when its unchanged write
        was made visible under its previous id (a rename)."""
        ts = written_ts(node)
        known = self._at.get(node.id)
        if (known[0] if known else None) == ts:
            return  # not re-written (a state change, a vote): nothing new to report
        self.remove_node(node.id)
        if ts is not None:
            at = visible if visible is not None else ts if applied is None else max(ts, applied)
            self._at[node.id] = (ts, at)
            bisect.insort(self._keys, (at, node.id))

    def remove_node(self, node_id: str) -> None:
        known = self._at.pop(node_id, None)
        if known is not None:
            del self._keys[bisect.bisect_left(self._keys, (known[1], node_id))]

    def since(self, ts: float) -> list[str]:
        """Ids written (made visible) strictly after `ts`, oldest first."""
        return [i for _, i in self._keys[bisect.bisect_right(self._keys, (ts, "\U0010ffff")):]]
