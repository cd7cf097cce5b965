"""The ids of the user lessons a change took away (a delete, a restore, a merge), kept beside the user graph.

Spec 003 removes at a load each edge whose bare-id end names no node. A project's edge to a user lesson
a change took away is kept instead: the change can be undone (`kg restore`, whose undo puts back the user
graph alone, never the project's edges), and the edge then reaches the lesson again. An edge to an id no
graph ever held (a typo, a node never written) still goes. Pure: the ids in, the list out.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from typing import Any

from .model import GraphData

KEY = "gone_ids"  # a user graph's _meta: the ids its latest lessons were taken away under, the newest last
KEPT = 1_000  # past it the oldest is forgotten: a project's edge to it goes at the project's next load


def of(meta: Mapping[str, Any]) -> frozenset[str]:
    ids = meta.get(KEY)
    return frozenset(i for i in ids if isinstance(i, str)) if isinstance(ids, list) else frozenset()


def noted(old: object, ids: Iterable[str], present: Container[str]) -> list[str]:
    """`old` (a graph's list) with `ids` added as the newest, less the ids that are nodes again."""
    added = list(ids)
    kept = [i for i in old if isinstance(i, str) and i not in added] if isinstance(old, list) else []
    out = [i for i in dict.fromkeys(kept + added) if i not in present]
    return out[max(0, len(out) - KEPT):]


def remember(graph: GraphData, ids: Iterable[str]) -> None:
    """The user lessons `ids` were taken away from `graph` (in the same change: the same journal record)."""
    gone = noted(graph.extra_meta.get(KEY), ids, graph.nodes)
    if gone != graph.extra_meta.get(KEY):
        graph.extra_meta[KEY] = gone
        graph.meta_changed = True


def after_merge(graph: GraphData, changed: list[str]) -> list[str]:
    """`changed` (the ids a merge changed), the user lessons among them it took away noted."""
    if graph.kind == "user":
        remember(graph, [i for i in changed if i not in graph.nodes])
    return changed


def carried(current: Mapping[str, Any] | None, restored: dict[str, Any]) -> dict[str, Any]:
    """A restored user graph's JSON keeping the ids taken away before it (`current`'s list) and by it."""
    then = restored.get("nodes")
    then_nodes: Mapping[str, Any] = then if isinstance(then, dict) else {}
    now_nodes = (current or {}).get("nodes")
    taken = [i for i in now_nodes if i not in then_nodes] if isinstance(now_nodes, dict) else []
    meta = dict(restored.get("_meta") or {})
    before = ((current or {}).get("_meta") or {}).get(KEY)
    gone = noted(meta.get(KEY), [*(before if isinstance(before, list) else []), *taken], then_nodes)
    if gone == meta.get(KEY) or (not gone and KEY not in meta):
        return restored
    meta[KEY] = gone
    return {**restored, "_meta": meta}
