"""Loading a graph for its actor: settling shares its charge index with the derived state."""

from kg_actors.core import constants as C
from kg_actors.core.charge import ChargeIndex, fast_charge
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.graph_loading import settle_and_derive

NOW = 1_800_000_000.0


def _over_budget() -> GraphData:
    g = GraphData("project")
    count = C.MAX_CHARS_PER_LEVEL // 60 + 200  # more active lines than the level's budget holds
    for i in range(count):
        g.set_node(Node(f"lesson-{i:05d}", f"gist number {i} says something worth keeping " * 2,
                        created_ts=NOW - (i % 90) * C.DAY_SECONDS))
    for i in range(0, count - 1, 3):
        g.set_edge(Edge(f"lesson-{i:05d}", f"lesson-{i + 1:05d}", "relates_to"))
    g.take_changes()
    return g


def _index_fields(index: ChargeIndex) -> dict:
    return {k: v for k, v in vars(index).items() if k != "gen"}


def test_settling_on_load_brings_the_graph_within_budget_and_hands_its_charge_index_on_current():
    graph = _over_budget()
    assert fast_charge(graph) > C.MAX_CHARS_PER_LEVEL
    derived, _ = settle_and_derive(graph, NOW)
    assert fast_charge(graph) <= C.MAX_CHARS_PER_LEVEL
    # The index settling kept through its runs is the one a fresh build of the settled graph gives.
    assert _index_fields(derived.charges) == _index_fields(ChargeIndex.build(graph))
    assert derived.index is None  # the search index is the actor's background build


def test_a_graph_within_budget_is_left_as_it_is():
    graph = GraphData("project")
    graph.set_node(Node("one-small-lesson", "a gist", created_ts=NOW))
    graph.take_changes()
    derived, _ = settle_and_derive(graph, NOW)
    assert graph.nodes["one-small-lesson"].active and graph.take_changes() is None
    assert derived.charges.active == {"one-small-lesson"}


def test_a_graph_file_of_the_wrong_shape_is_as_corrupt_as_a_torn_one(tmp_path):
    """Valid JSON a graph cannot be made of (`"nodes": [...]`) falls back to `.prev`, like a torn file;
    with no `.prev` it is Unreadable (the graph is then served empty, refusing changes), never a crash."""
    import json

    import pytest

    from kg_actors.graph_loading import load_graph
    from kg_actors.storage.files import Unreadable

    path = tmp_path / "user.json"
    good = {"nodes": {"kept-node": {"id": "kept-node", "gist": "from the previous save"}}, "edges": {}}
    for bad in ({"nodes": [{"id": "u", "gist": "g"}]}, {"nodes": {}, "_meta": {"versions": [1]}}, [1, 2]):
        path.write_text(json.dumps(bad))
        path.with_name("user.json.prev").write_text(json.dumps(good))
        graph, _ = load_graph(path, "user", None)
        assert list(graph.nodes) == ["kept-node"]
        assert path.with_name("user.json.unreadable").read_text() == json.dumps(bad)  # kept for a look by hand
        path.with_name("user.json.prev").unlink()
        path.write_text(json.dumps(bad))
        with pytest.raises(Unreadable, match="user.json"):
            load_graph(path, "user", None)
