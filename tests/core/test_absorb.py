"""A live graph absorbs what a merge changed in its file, keeping writes made since the fold."""

from __future__ import annotations

import copy

from kg_actors.core.absorb import absorb
from kg_actors.core.merge import CONFLICTS_FIELD
from kg_actors.core.model import GraphData, Node, snapshot_to_json

NOW = 1_800_000_000.0


def _graph(*ids: str) -> GraphData:
    g = GraphData("user")
    for i in ids:
        g.set_node(Node(i, f"gist of {i}", created_ts=1.0, written={"ts": 1.0, "by": "s"}))
    g.take_changes()
    g.commit()
    return g


def _file(g: GraphData) -> dict:
    return copy.deepcopy(snapshot_to_json(g.snapshot_json()))


def test_the_merge_changes_arrive_and_report_the_changed_nodes():
    g = _graph("a", "b", "c")
    base = _file(g)
    merged = copy.deepcopy(base)
    merged["nodes"]["a"]["gist"] = "a from the other machine"
    merged["nodes"]["new"] = {"id": "new", "gist": "new from there", "_written": {"ts": 5.0, "by": "t"}}
    del merged["nodes"]["c"]
    merged["edges"]["a->b:uses"] = {"from": "a", "to": "b", "rel": "uses"}
    merged["_meta"]["progress"] = {"task": {"done": 1, "last_ts": 5.0, "_trail": []}}
    changed = absorb(g, base, merged, NOW)
    assert sorted(changed) == ["a", "c", "new"]
    assert g.nodes["a"].gist == "a from the other machine" and "c" not in g.nodes and "new" in g.nodes
    assert ("a", "b", "uses") in g.edges and g.progress["task"]["done"] == 1
    record = g.take_changes()  # one journal record carries all of it
    assert set(record["n"]) == {"a", "c", "new"}


def test_a_write_made_during_the_sync_is_merged_not_lost():
    g = _graph("a", "b")
    base = _file(g)
    # Written here after the fold (in the journal while git merged):
    g.set_node(Node("a", "a rewritten here meanwhile", created_ts=1.0, written={"ts": 9.0, "by": "s"}))
    g.set_node(Node("b", "b rewritten here meanwhile", created_ts=1.0, written={"ts": 9.0, "by": "s"}))
    g.take_changes()
    g.commit()
    merged = copy.deepcopy(base)
    merged["nodes"]["a"]["gist"] = "a from there, earlier"
    merged["nodes"]["a"]["_written"] = {"ts": 5.0, "by": "t"}
    merged["nodes"]["b"]["_useful_ts"] = [7.0]  # only a score stamp changed there
    changed = absorb(g, base, merged, NOW)
    assert g.nodes["a"].gist == "a rewritten here meanwhile"
    assert g.nodes["a"].extra[CONFLICTS_FIELD][0]["gist"] == "a from there, earlier"
    assert g.nodes["b"].gist == "b rewritten here meanwhile" and g.nodes["b"].useful_ts == (7.0,)
    assert "a" in changed


def test_nothing_changed_is_nothing_written():
    g = _graph("a")
    base = _file(g)
    assert absorb(g, base, copy.deepcopy(base), NOW) == []
    assert g.take_changes() is None
