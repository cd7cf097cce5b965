"""What kg_sync tells a session: the nodes and edges other sessions changed since it last looked."""

from __future__ import annotations

from typing import Any

from .model import Edge, GraphReader


def changes_since(graph: GraphReader, since: float, session: str | None) -> list[tuple[str, Any]]:
    """("node", Node) and ("edge", Edge) for the version entries other sessions made after `since`.

    An orphaned node is left out, and every edge of one, however late it was orphaned: spec 001 makes
    orphans invisible in kg_read and kg_sync."""
    out: list[tuple[str, Any]] = []
    for vkey, entry in graph.versions.items():
        ts = entry.get("ts") if isinstance(entry, dict) else None
        if not isinstance(ts, int | float) or ts <= since:
            continue
        if vkey.startswith("node:"):
            node = graph.nodes.get(vkey[5:])
            written = (node.written or {}) if node else {}
            by, wts = written.get("by"), written.get("ts")
            others = by not in (None, session) and isinstance(wts, int | float) and wts > since
            # The session's own last change (a rename, a vote) must not hide content another
            # session wrote since (F36); its own content change alone is not news to it.
            if node is not None and not node.orphaned and (others if entry.get("session") == session else by != session or others):
                out.append(("node", node))
        elif entry.get("session") == session:
            continue
        elif vkey.startswith("edge:"):
            out.extend(("edge", edge) for edge in _edge_by_storage_key(graph, vkey[5:]))
    return out


def _edge_by_storage_key(graph: GraphReader, skey: str) -> list[Edge]:
    head, _, rel = skey.rpartition(":")
    src, _, dst = head.partition("->")
    edge = graph.edges.get((src, dst, rel))
    if edge is None or any((n := graph.nodes.get(end)) is not None and n.orphaned for end in (src, dst)):
        return []
    return [edge]
