import json

import pytest

from kg_actors.core.model import Edge, GraphData, Node, dangling_edges, snapshot_to_json

REFERENCE = {
    "nodes": {
        "auth-token-refresh": {
            "id": "auth-token-refresh", "gist": "JWT refresh uses a sliding window", "notes": ["n1"],
            "touches": ["src/auth/refresh.py:10-20 (refresh)"], "_created_ts": 1700000000.0, "_archived": True,
            "_useful_ts": [1700000100.0], "_written": {"ts": 1700000000.0, "by": "abcd1234"},
            "_future_field": {"kept": True},
        },
        "session-handler": {"id": "session-handler", "gist": "holds sessions", "_orphaned_ts": 1700000200.0},
    },
    "edges": {
        "auth-token-refresh->session-handler:requires": {
            "from": "auth-token-refresh", "to": "session-handler", "rel": "requires", "notes": ["x"], "weight": 3},
        "auth-token-refresh->src/config.yaml:reads": {"from": "auth-token-refresh", "to": "src/config.yaml", "rel": "reads"},
    },
    "_meta": {"versions": {"node:auth-token-refresh": {"v": 2, "ts": 1700000000.0, "session": "abcd1234"}},
              "progress": {"scout": {"a": 1, "last_ts": 5}}, "project_path": "/home/u/p",
              "namespace": {"kind": "project", "owner": None}, "custom": [1, 2]},
}


def test_reference_file_round_trips_without_loss():
    graph = GraphData.from_json(json.loads(json.dumps(REFERENCE)), "project")
    assert snapshot_to_json(graph.snapshot_json()) == REFERENCE


def test_node_states():
    graph = GraphData.from_json(REFERENCE, "project")
    assert graph.nodes["auth-token-refresh"].state == "archived"
    assert graph.nodes["session-handler"].state == "orphaned"
    assert graph.nodes["session-handler"].active is False


def test_journal_record_replays_to_the_same_graph():
    graph = GraphData.from_json(REFERENCE, "project")
    base = json.loads(json.dumps(REFERENCE))
    graph.set_node(Node("new-node-here", "g", notes=("a",)))
    graph.del_edge(("auth-token-refresh", "session-handler", "requires"))
    graph.set_edge(Edge("new-node-here", "session-handler", "uses"))
    graph.set_version("node:new-node-here", {"v": 1, "ts": 1.0, "session": None})
    graph.set_progress("scout", {"b": 2})
    record = json.loads(json.dumps(graph.take_changes()))
    replica = GraphData.from_json(base, "project")
    replica.apply_record(record)
    assert snapshot_to_json(replica.snapshot_json()) == snapshot_to_json(graph.snapshot_json())
    assert graph.take_changes() is None


def test_rollback_restores_everything_a_message_touched():
    graph = GraphData.from_json(REFERENCE, "project")
    graph.commit()
    before = snapshot_to_json(graph.snapshot_json())
    graph.set_node(Node("x-y-z", "g"))
    graph.del_node("session-handler")
    graph.del_edge(("auth-token-refresh", "session-handler", "requires"))
    graph.set_progress("new", {"a": 1})
    graph.set_version("node:x-y-z", {"v": 1})
    graph.rollback()
    assert snapshot_to_json(graph.snapshot_json()) == before
    assert sorted(e.key for e in graph.incident("session-handler")) == [("auth-token-refresh", "session-handler", "requires")]


def test_dangling_edges_keep_files_and_outside_ids():
    graph = GraphData("project")
    graph.set_node(Node("a-node", "g"))
    graph.set_edge(Edge("a-node", "gone-node", "r"))
    graph.set_edge(Edge("a-node", "src/x.py", "r"))
    graph.set_edge(Edge("a-node", "~/notes.md", "r"))
    graph.set_edge(Edge("a-node", "user-principle", "applies"))
    assert dangling_edges(graph, {"user-principle"}) == [("a-node", "gone-node", "r")]
    assert set(dangling_edges(graph)) == {("a-node", "gone-node", "r"), ("a-node", "user-principle", "applies")}


@pytest.mark.parametrize("bad", [{"nodes": {"a": 5, "b": None, "c": " "}}, {"edges": {"k": {"from": "a"}}}, {}])
def test_malformed_entries_are_skipped_not_fatal(bad):
    graph = GraphData.from_json(bad, "user")
    assert graph.nodes == {}


def test_a_loads_changes_are_taken_without_the_moved_nodes_records():
    """Settling's moves at load are saved by the next fold, not journaled: only whether anything changed and
    the meta part (the project's folder) come back, and the change log is empty after."""
    g = GraphData("project", "/old")
    g.set_node(Node("a", "g"))
    g.forget_changes()
    assert g.take_load_changes() is None
    g.set_node(Node("a", "g", archived=True))
    assert g.take_load_changes() == {}
    g.project_path, g.meta_changed = "/new", True
    assert g.take_load_changes() == {"m": {"project_path": "/new", "extra": {}}}
    assert g.take_changes() is None


def test_a_meta_field_of_the_wrong_type_is_left_out_not_the_whole_file():
    # A hand edit's `_meta` (a number for a path, text for versions) made every node of the file unreadable:
    # the user graph was then served from its previous save (its newest nodes gone) or empty.
    raw = {"nodes": {"kept-node": {"id": "kept-node", "gist": "still read"}, "bare-node": "a lesson as a bare string",
                     "null-node": None},
           "edges": {}, "_meta": {"project_path": 5, "versions": "not a dict", "progress": ["a"], "mine": 1}}
    graph = GraphData.from_json(raw, "user")
    assert sorted(graph.nodes) == ["bare-node", "kept-node"] and graph.nodes["bare-node"].gist == "a lesson as a bare string"
    assert graph.project_path is None and graph.versions == {} and graph.progress == {}
    assert graph.extra_meta == {"mine": 1}


def test_a_kg_memory_files_leftovers_load_as_it_means_them():
    """An older kg-memory file may hold "_meta" among its nodes (its loader skips it; no id starts with "_"),
    and a hand edit may leave an edge without its rel, which its key still names."""
    raw = {"nodes": {"_meta": {"versions": {}}, "plain-node": {"id": "plain-node", "gist": "g"},
                     "no-gist-node": {"id": "no-gist-node", "gist": "h"}},
           "edges": {"plain-node->no-gist-node:depends-on": {"from": "plain-node", "to": "no-gist-node"},
                     "garbled": {"from": "plain-node"}},
           "_meta": {"versions": {}}}
    graph = GraphData.from_json(raw, "user")
    assert set(graph.nodes) == {"plain-node", "no-gist-node"}
    assert set(graph.edges) == {("plain-node", "no-gist-node", "depends-on")}
    assert graph.dropped_on_load == ("garbled",)
    assert GraphData.from_json({"nodes": {}, "edges": [{"to": "x"}]}, "user").dropped_on_load == ("{'to': 'x'}",)
