"""Connections between search hits: the shortest paths (within SEARCH_MAX_HOPS) that link them.

kg_search shows them under its top hits, and prompt recall draws the edges between what it injects
(spec 003). A path may cross from a project graph to the user graph where an edge names a user node.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import constants as C
from .held_names import edge_held
from .ids import is_artifact
from .model import Edge, GraphReader

Ref = tuple[str, str]  # (level, node_id)


def _resolve(graphs: Mapping[str, GraphReader], level: str, endpoint: str) -> Ref | None:
    """Which node an edge end names: its own graph's first, else another's (a user node)."""
    if endpoint in graphs[level].nodes:
        return (level, endpoint)
    for other, graph in graphs.items():
        if other != level and endpoint in graph.nodes:
            return (other, endpoint)
    return None


def _neighbours(graphs: Mapping[str, GraphReader], ref: Ref) -> list[tuple[Ref, str, Edge]]:
    level, node_id = ref
    found = []
    for edge_level, graph in graphs.items():
        # Another graph's edge reaches this node only if it resolves here.
        if edge_level != level and _resolve(graphs, edge_level, node_id) != ref:
            continue
        for edge in graph.incident(node_id):
            other = edge.other(node_id)
            if edge.src == edge.dst or is_artifact(other) or edge_held(edge):  # held: left out (held_names.py)
                continue
            target = _resolve(graphs, edge_level, other)
            if target is not None and target != ref:
                found.append((target, edge_level, edge))
    found.sort(key=lambda t: (t[0], t[1], t[2].key))
    return found


Step = tuple[Ref, str, Edge]  # (previous node, level of the edge, edge)


def _is_hub(graphs: Mapping[str, GraphReader], ref: Ref) -> bool:
    return sum(graph.degree(ref[1]) for graph in graphs.values()) > C.SEARCH_PATH_HUB_DEGREE


def _reach(graphs: Mapping[str, GraphReader], start: Ref, depth: int) -> tuple[dict[Ref, int], dict[Ref, Step]]:
    """BFS from `start` up to `depth` hops: distances and the step that reached each node.

    A hub (more than SEARCH_PATH_HUB_DEGREE edges) is where paths meet, not a way on: reached, it
    is not gone through, and from a hub no walk starts (the other hits' walks reach it). Going
    through one was a walk of all its neighbours and theirs: a hit next to a hub of 3,000 edges
    cost a kg_search, and a prompt's recall, ~35 ms (p99 ~200 ms at 10,000 nodes). Paths a-hub-b
    and a-hub-x-b are still found (each side reaches the hub within its half); a path that needs
    both sides past a hub links everything the hub does, which tells the reader nothing."""
    dist, parent = {start: 0}, {}
    frontier = [start]
    if _is_hub(graphs, start):
        depth = 0
    for d in range(1, depth + 1):
        nxt = []
        for ref in frontier:
            if d > 1 and _is_hub(graphs, ref):
                continue
            for target, level, edge in _neighbours(graphs, ref):
                if target not in dist:
                    dist[target], parent[target] = d, (ref, level, edge)
                    nxt.append(target)
        frontier = nxt
    return dist, parent


def _walk(parent: dict[Ref, Step], ref: Ref) -> list[Step]:
    """Steps from `ref` back to the BFS start."""
    steps = []
    while ref in parent:
        steps.append(parent[ref])
        ref = parent[ref][0]
    return steps


def _direct_edge(graphs: Mapping[str, GraphReader], a: Ref, b: Ref) -> tuple[str, Edge] | None:
    """An edge between two hits that did not walk, looked for among the fewer edges of the two."""
    def degree(ref: Ref) -> int:
        return sum(graph.degree(ref[1]) for graph in graphs.values())

    if degree(b) < degree(a):
        a, b = b, a
    for target, level, edge in _neighbours(graphs, a):
        if target == b:
            return level, edge
    return None


def joined(graphs: Mapping[str, GraphReader], ref: Ref, others: list[Ref]) -> bool:
    """Whether an edge joins `ref` to any of `others` (one of the few hits a prompt chose)."""
    return bool(others) and any(target in others for target, _, _ in _neighbours(graphs, ref))


def connection_paths(
    graphs: Mapping[str, GraphReader], hit_ids: list[Ref], max_hops: int = C.SEARCH_MAX_HOPS
) -> tuple[list[Ref], list[tuple[str, Edge]]]:
    """Shortest paths (≤ max_hops) between each pair of hits: connector nodes and path edges.

    Meet in the middle: a path of L ≤ max_hops hops has a node within
    ceil(max_hops/2) of both ends, so each hit explores half the depth (a
    hub's neighbourhood squared, not cubed).
    """
    hits = [h for h in dict.fromkeys(hit_ids) if h[0] in graphs and h[1] in graphs[h[0]].nodes]
    hit_set = set(hits)
    reach = {h: _reach(graphs, h, (max_hops + 1) // 2) for h in hits}
    connectors: dict[Ref, None] = {}
    edges: dict[tuple[str, tuple[str, str, str]], tuple[str, Edge]] = {}
    for i, a in enumerate(hits):
        dist_a, parent_a = reach[a]
        for b in hits[i + 1:]:
            dist_b, parent_b = reach[b]
            meets = [(dist_a[m] + dist_b[m], m) for m in dist_a.keys() & dist_b.keys()]
            meets = [t for t in meets if t[0] <= max_hops]
            if not meets:
                direct = _direct_edge(graphs, a, b) if len(dist_a) == len(dist_b) == 1 else None
                if direct is not None:  # two hubs: neither walks, so their own edge is looked for
                    edges.setdefault((direct[0], direct[1].key), direct)
                continue
            middle = min(meets)[1]
            to_middle = _walk(parent_a, middle)[::-1]  # a → middle
            from_middle = _walk(parent_b, middle)  # middle → b
            for ref in [*(s[0] for s in to_middle), middle, *(s[0] for s in from_middle)]:
                if ref not in hit_set:
                    connectors.setdefault(ref)
            for _, level, edge in [*to_middle, *from_middle]:
                edges.setdefault((level, edge.key), (level, edge))
    return list(connectors), list(edges.values())
