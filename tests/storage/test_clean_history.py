"""The newest version another machine's history holds of an entry, without the secret its tip holds."""

from kg_actors.core.held_secrets import Held
from kg_actors.storage.clean_history import newest_clean

GHP = "ghp_R7kQ2mX9vL4pZ8nW3tY6bC1dF5gH0jK2aS4e"


def _part(node: dict | None, edge: dict | None = None, v: int = 1) -> dict:
    nodes = {"n": node} if node is not None else {}
    edges = {"n->m:uses": edge} if edge is not None else {}
    return {"nodes": nodes, "edges": edges, "_meta": {"versions": {"node:n": {"v": v}, "edge:n->m:uses": {"v": v}}}}


def test_the_newest_clean_version_is_found_past_every_commit_still_holding_the_secret():
    held = [Held("node", "n", "notes[0]", "a GitHub token"), Held("edge", "n->m:uses", "notes[0]", "a GitHub token")]
    edge = {"from": "n", "to": "m", "rel": "uses"}
    graphs = [("c4", _part({"id": "n", "gist": "x", "notes": [GHP, "more"]}, {**edge, "notes": [GHP]}, 4)),
              ("c3", None),  # unreadable there: looked past
              ("c2", _part({"id": "n", "gist": "x", "notes": ["cap"]}, edge, 2)),
              ("c1", _part({"id": "n", "gist": "x"}, edge, 1))]
    found = newest_clean(graphs, held)
    assert found[("nodes", "n")] == ({"id": "n", "gist": "x", "notes": ["cap"]}, {"v": 2}, "c2")
    assert found[("edges", "n->m:uses")] == (edge, {"v": 2}, "c2")


def test_an_entry_absent_before_its_secret_has_no_clean_version_there():
    held = [Held("node", "n", "gist", "a GitHub token")]
    graphs = [("c2", _part({"id": "n", "gist": GHP})), ("c1", _part(None)), ("c0", _part({"id": "n", "gist": "old"}))]
    assert newest_clean(graphs, held) == {}
