"""Bring a merge's result into a live graph without losing what was written meanwhile.

A sync folds the graph into its file (`base`), lets git merge the file
(`merged`), and the owner then absorbs the difference: every entry the merge
changed is taken from `merged`, unless the live graph changed that entry since
`base` (a write that landed during the sync), in which case the two are merged
by the same rules as the file merge. Cost: the entries the merge changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .ids import is_artifact
from .merge import Json, _edges, _mapping, _merge_edge, _merge_progress, _merge_version, merge_node
from .model import Edge, GraphData, Node


def _diff_keys(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    keys = [k for k, v in b.items() if a.get(k) != v]
    keys += [k for k in a if k not in b]
    return keys


def absorb(graph: GraphData, base: Json, merged: Json, now: float) -> list[str]:
    """Apply base -> merged to `graph`; the ids of nodes whose content changed (deleted ones too)."""
    changed: list[str] = []
    nodes_b, nodes_m = _mapping(base.get("nodes")), _mapping(merged.get("nodes"))
    for node_id in _diff_keys(nodes_b, nodes_m):
        current = graph.nodes.get(node_id)
        live = current.to_json() if current is not None else None
        if live == nodes_b.get(node_id):
            target = nodes_m.get(node_id)
        else:
            target, _ = merge_node(node_id, nodes_b.get(node_id), live, nodes_m.get(node_id), now)
        if target is None:
            if current is not None:
                for edge in list(graph.incident(node_id)):
                    graph.del_edge(edge.key)
                graph.del_node(node_id)
                changed.append(node_id)
            continue
        node = Node.from_json(node_id, target)
        if current is None or node.content() != current.content() or node.extra != current.extra:
            changed.append(node_id)
        if current is None or node.to_json() != live:
            graph.set_node(node)

    meta_b, meta_m = _mapping(base.get("_meta")), _mapping(merged.get("_meta"))
    vers_b, vers_m = _mapping(meta_b.get("versions")), _mapping(meta_m.get("versions"))
    edges_b, edges_m = _edges(base), _edges(merged)
    for skey in _diff_keys(edges_b, edges_m):
        raw: Json = edges_m.get(skey) or edges_b[skey]  # a changed key is in one of them
        key = (str(raw["from"]), str(raw["to"]), str(raw["rel"]))
        held = graph.edges.get(key)
        live = held.to_json() if held is not None else None
        if live == edges_b.get(skey):
            target = edges_m.get(skey)
        else:
            target = _merge_edge(edges_b.get(skey), live, edges_m.get(skey), now, 0.0)  # ours: written now
        if target is None:
            if held is not None:
                graph.del_edge(key)
        elif live != target and _ends_present(graph, key):
            graph.set_edge(Edge.from_json(target))

    _absorb_map(vers_b, vers_m, graph.versions, graph.set_version, _merge_version)
    prog_b, prog_m = _mapping(meta_b.get("progress")), _mapping(meta_m.get("progress"))

    def set_progress(key: str, value: Json | None) -> None:
        if value is None:
            graph.del_progress(key)
        else:
            graph.set_progress(key, value)

    _absorb_map(prog_b, prog_m, graph.progress, set_progress, _merge_progress)
    return changed


def _ends_present(graph: GraphData, key: tuple[str, str, str]) -> bool:
    return all(is_artifact(end) or end in graph.nodes or graph.kind == "project" for end in key[:2])


def _absorb_map(base: Json, merged: Json, live: Mapping[str, Any], setter: Callable[[str, Any], None],
                merge_one: Callable[[Json | None, Json | None, Json | None], Json | None]) -> None:
    for key in _diff_keys(base, merged):
        current: Any = live.get(key)
        target = merged.get(key) if current == base.get(key) else merge_one(base.get(key), current, merged.get(key))
        if target != current:
            setter(key, target)
