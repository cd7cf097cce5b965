"""Graphs of real shapes and sizes for the editor's picture tests: a small project like the one in
issue #19 (a hub, its neighbours, a few loose nodes), thirty unconnected nodes, and 200 / 2,000 /
10,000-node projects from the benchmark's generator."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.editor_workload import project_graph  # noqa: E402

NOW = 1_780_000_000.0
WORDS = ("session token refresh cache layout budget render store journal index parser hook prompt recall "
         "graph editor worker socket deploy schema").split()


def small_project(path: str) -> dict:
    """22 nodes, 17 edges: one hub with eight neighbours, two chains, loose nodes; ids of 3-5 words."""
    ids = [f"{WORDS[i % len(WORDS)]}-{WORDS[(i * 7 + 3) % len(WORDS)]}-{WORDS[(i * 5 + 1) % len(WORDS)]}"
           + ("-rule-of-thumb" if i % 4 == 0 else "") for i in range(22)]
    nodes = {i: {"id": i, "gist": f"What {i.replace('-', ' ')} teaches, in one line",
                 "_created_ts": NOW - 86_400 * (30 - k)} for k, i in enumerate(ids)}
    pairs = [(0, k) for k in range(1, 9)] + [(1, 9), (9, 10), (10, 11), (2, 12), (12, 13), (13, 14),
                                             (3, 15), (15, 16), (5, 17)]
    edges = {f"{ids[a]}->{ids[b]}:related-to": {"from": ids[a], "to": ids[b], "rel": "related-to"} for a, b in pairs}
    return {"nodes": nodes, "edges": edges, "_meta": {"project_path": path}}


def loose_project(path: str, n: int = 30) -> dict:
    ids = [f"loose-{WORDS[i % len(WORDS)]}-lesson-{i}" for i in range(n)]
    nodes = {i: {"id": i, "gist": f"An unconnected lesson {i}", "_created_ts": NOW - 3600 * k} for k, i in enumerate(ids)}
    return {"nodes": nodes, "edges": {}, "_meta": {"project_path": path}}


def sized_project(path: str, n: int) -> dict:
    return project_graph(n, path)


def worn_project(path: str) -> dict:
    """Debt of every listable kind but dangling touches (those need the tick): an oversized gist,
    unconnected nodes, a long dated id, and a linked pair that owes nothing."""
    nodes = {
        "billing-service-hub": {"id": "billing-service-hub", "gist": "Billing " + "owns invoices and refunds. " * 14},
        "a-very-long-node-id-made-of-many-words": {"id": "a-very-long-node-id-made-of-many-words", "gist": "Too long an id"},
        "deploy-notes-2026-03-01": {"id": "deploy-notes-2026-03-01", "gist": "A dated id"},
        "linked-lesson-one": {"id": "linked-lesson-one", "gist": "Linked"},
        "linked-lesson-two": {"id": "linked-lesson-two", "gist": "Linked too"},
    }
    for node in nodes.values():
        node["_created_ts"] = NOW - 86_400 * 40
    edges = {"linked-lesson-one->linked-lesson-two:related-to": {
        "from": "linked-lesson-one", "to": "linked-lesson-two", "rel": "related-to"}}
    return {"nodes": nodes, "edges": edges, "_meta": {"project_path": path}}


def readings_lines(n: int = 12) -> str:
    """A graph's readings file as the tick writes it: debt rising, the render growing past its budget."""
    import json

    rows = [{"ts": NOW - (n - i) * 3600, "debt": round(0.2 + 0.05 * i, 2), "debt_level": "MED",
             "charge": 15_000 + 800 * i, "budget": 22_000, "active": 40 + i} for i in range(n)]
    return "".join(json.dumps(r) + "\n" for r in rows)


USER_NODE = {"id": "prefer-small-modules", "gist": "Keep modules to a few hundred lines", "_created_ts": NOW - 86_400 * 90}


def mixed_project(path: str) -> dict:
    """Every tier, two relations, a file end and a link to the user graph's `prefer-small-modules`."""
    def node(node_id, **extra):
        return {"id": node_id, "gist": f"The lesson of {node_id}", "_created_ts": NOW - 86_400 * 20, **extra}

    nodes = {i: node(i) for i in ("hub-one-lesson", "a-linked-lesson", "d-loose-lesson")}
    nodes["b-archived-lesson"] = node("b-archived-lesson", _archived=True)
    nodes["c-orphaned-lesson"] = node("c-orphaned-lesson", _archived=True, _orphaned_ts=NOW - 86_400)
    rows = [("a-linked-lesson", "hub-one-lesson", "depends-on"), ("b-archived-lesson", "hub-one-lesson", "related-to"),
            ("hub-one-lesson", "src/x.py", "implemented-in"), ("hub-one-lesson", "prefer-small-modules", "applies"),
            ("c-orphaned-lesson", "hub-one-lesson", "related-to")]
    edges = {f"{a}->{b}:{r}": {"from": a, "to": b, "rel": r} for a, b, r in rows}
    return {"nodes": nodes, "edges": edges, "_meta": {"project_path": path}}
