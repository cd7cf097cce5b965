"""The user lessons a change took away are noted beside the user graph, so a project's edges to them stay."""

from __future__ import annotations

from kg_actors.core import gone_ids, graph_ops
from kg_actors.core.absorb import absorb
from kg_actors.core.model import GraphData, Node


def test_a_deleted_user_lesson_is_noted_and_a_project_node_is_not():
    user, project = GraphData("user"), GraphData("project", "/home/u/app")
    for g in (user, project):
        g.set_node(Node(id="a-lesson", gist="g"))
    graph_ops.delete_node(user, "a-lesson", "user")
    graph_ops.delete_node(project, "a-lesson", "project")
    assert gone_ids.of(user.extra_meta) == {"a-lesson"} and user.meta_changed
    assert gone_ids.of(project.extra_meta) == frozenset()


def test_the_list_keeps_the_newest_and_forgets_ids_that_are_nodes_again():
    assert gone_ids.noted(["a", "b"], ["c", "a"], {"b"}) == ["c", "a"]
    many = gone_ids.noted([], [f"n{i}" for i in range(gone_ids.KEPT + 5)], ())
    assert len(many) == gone_ids.KEPT and many[-1] == f"n{gone_ids.KEPT + 4}" and "n0" not in many
    assert gone_ids.of({"gone_ids": ["x", 5, None]}) == {"x"} and gone_ids.of({"gone_ids": "x"}) == frozenset()


def test_a_restore_notes_what_it_takes_away_and_keeps_what_was_noted_before():
    current = {"nodes": {"kept": {}, "later": {}}, "_meta": {"versions": {}, "gone_ids": ["deleted-before"]}}
    then = {"nodes": {"kept": {}}, "_meta": {"versions": {}}}
    restored = gone_ids.carried(current, then)
    assert restored["_meta"]["gone_ids"] == ["deleted-before", "later"] and "gone_ids" not in then["_meta"]
    undone = gone_ids.carried(restored, {"nodes": {"kept": {}, "later": {}, "deleted-before": {}}, "_meta": {}})
    assert undone["_meta"].get("gone_ids", []) == []  # each a node again


def test_a_user_lesson_a_merge_took_away_is_noted():
    user = GraphData("user")
    for i in ("stays", "deleted-there"):
        user.set_node(Node(i, f"gist of {i}"))
    base = {"nodes": {i: user.nodes[i].to_json() for i in user.nodes}, "edges": {}, "_meta": {"versions": {}}}
    merged = {**base, "nodes": {"stays": base["nodes"]["stays"]}}
    changed = gone_ids.after_merge(user, absorb(user, base, merged, 1_800_000_000.0))
    assert changed == ["deleted-there"] and gone_ids.of(user.extra_meta) == {"deleted-there"}
