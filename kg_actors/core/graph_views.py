"""What the editor shows of a graph: pure functions over one GraphReader.

Each runs on a snapshot (`handle.snapshot()`), so it reads a consistent graph and changes nothing: the editor looks without
promoting or stamping. Shapes are JSON-ready dicts.
"""

from __future__ import annotations

from typing import Any

from . import constants as C
from . import render, search, search_paths, stale_edit
from .held_words import cut_terms
from .ids import is_artifact
from .model import Edge, GraphReader, Node, node_version
from .reads import health_line
from .terms import Terms, field_counts

EXCERPT_CHARS = 180


def counts(graph: GraphReader) -> dict[str, Any]:
    return {
        "active": len(graph.ids_in_state("active")), "archived": len(graph.ids_in_state("archived")),
        "orphaned": len(graph.ids_in_state("orphaned")), "nodes": len(graph.nodes), "edges": len(graph.edges),
    }


def picture(graph: GraphReader) -> dict[str, Any]:
    """Everything the canvas draws: compact nodes (no notes) and every edge."""
    nodes = [{"id": n.id, "gist": n.gist, "state": n.state, "v": node_version(graph, n.id)}
             for n in graph.nodes.values()]
    edges = [{"from": e.src, "to": e.dst, "rel": e.rel} for e in graph.edges.values()]
    return {"nodes": nodes, "edges": edges, "counts": counts(graph)}


def states(graph: GraphReader) -> dict[str, Any]:
    """Every node's tier: compaction moves tiers on writes and on the tick without a feed event of its own."""
    return {"states": {i: n.state for i, n in graph.nodes.items()}}


def _edge_json(edge: Edge, node_id: str, graph: GraphReader) -> dict[str, Any]:
    other = edge.other(node_id)
    target = graph.nodes.get(other)
    kind = "file" if is_artifact(other) else ("node" if target is not None else "outside")
    return {"from": edge.src, "to": edge.dst, "rel": edge.rel, "notes": list(edge.notes),
            "direction": "out" if edge.src == node_id else "in", "other": other, "other_kind": kind,
            "other_state": target.state if target is not None else None}


def node_detail(graph: GraphReader, node_id: str) -> dict[str, Any] | None:
    """A node as the editor opens it: content, edges and its history stamps (a look, not a read)."""
    node = graph.nodes.get(node_id)
    if node is None:
        return None
    edges = sorted(graph.incident(node_id), key=lambda e: (e.src != node_id, e.rel, e.other(node_id)))
    return {
        "id": node.id, "gist": node.gist, "notes": list(node.notes), "touches": list(node.touches),
        "state": node.state, "version": node_version(graph, node_id),
        "fingerprint": stale_edit.node_fingerprint(node),  # a save sends it back: see stale_edit.py
        "edges": [_edge_json(e, node_id, graph) for e in edges],
        "history": history(graph, node),
        # Versions a sync set aside (changed on two machines), shown until a write resolves them.
        "conflicts": list(node.extra.get("_conflicts") or []),
    }


def history(graph: GraphReader, node: Node) -> dict[str, Any]:
    entry = graph.versions.get(f"node:{node.id}")
    return {
        "created_ts": node.created_ts, "written": dict(node.written) if node.written else None,
        "version": entry if isinstance(entry, dict) else None, "gist_ts": list(node.gist_ts),
        "last_read_ts": node.last_read_ts, "useful_ts": list(node.useful_ts),
        "credited_ts": list(node.credited_ts), "recurrence_ts": list(node.recurrence_ts),
        "orphaned_ts": node.orphaned_ts,
    }


def budget(graph: GraphReader) -> dict[str, Any]:
    """One level's charge (exact rendered characters) against its budget, and its HEALTH line."""
    plan = render.plan_level(graph)
    charge = render.charge_plan(graph, plan)
    return {
        "charge": charge, "budget": C.MAX_CHARS_PER_LEVEL, "ratio": charge / C.MAX_CHARS_PER_LEVEL,
        "archived_anchor_chars": render.archived_anchor_chars(graph),
        "archived_budget": int(C.ARCHIVED_BUDGET_RATIO * C.MAX_CHARS_PER_LEVEL),
        "health": health_line(graph, plan), "counts": counts(graph),
    }


def _matched_fields(node: Node, terms: Terms) -> list[str]:
    """Which fields hold a query term, analysed exactly as the index analyses them."""
    wanted = set(terms.all())
    out = []
    for name, values in (("id", (node.id,)), ("gist", (node.gist,)), ("notes", node.notes),
                         ("touches", node.touches)):
        if wanted & field_counts(((1, False, values),))[0].keys():
            out.append(name)
    return out


def _excerpt(node: Node) -> str:
    text = node.gist
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 1] + "…"


def search_graph(index: search.SearchIndex, graph: GraphReader, level: str, terms: Terms,
                 limit: int) -> dict[str, Any]:
    """kg_search's ranking over one graph (every tier), and the paths joining the top hits."""
    terms = cut_terms(terms, (index,))  # a Chinese clause: the words of it the graph holds
    hits, total = search.top_hits(index, terms, limit=limit)
    top = [(level, h.node_id) for h in hits[: C.SEARCH_TOP_K]]
    connectors, path_edges = search_paths.connection_paths({level: graph}, top)
    rows = []
    for rank, hit in enumerate(hits, 1):
        node = graph.nodes[hit.node_id]
        rows.append({
            "rank": rank, "id": node.id, "level": level, "state": node.state, "score": round(hit.score, 6),
            "gist": _excerpt(node), "matched": _matched_fields(node, terms), "title_match": hit.title_match,
            "top": rank <= C.SEARCH_TOP_K,
        })
    return {
        "total": total, "hits": rows, "terms": list(terms.all()),
        "connectors": [i for _, i in connectors],
        "path_edges": [{"from": e.src, "to": e.dst, "rel": e.rel} for _, e in path_edges],
    }

