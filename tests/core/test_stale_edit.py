"""The editor's stale-edit check (core/stale_edit.py): version and words, decided on a graph in memory."""

import pytest

from kg_actors.core import stale_edit
from kg_actors.core.errors import Conflict, WriteConflict
from kg_actors.core.model import GraphData, Node


def graph_with(node: Node, version: int) -> GraphData:
    g = GraphData("project")
    g.set_node(node)
    g.set_version(f"node:{node.id}", {"v": version})
    return g


NODE = Node(id="cache-key-layout", gist="Keys are per tenant", notes=("a note",), touches=("src/cache.py",))


def test_the_fingerprint_follows_every_field_a_write_sets():
    base = stale_edit.node_fingerprint(NODE)
    assert base == stale_edit.fingerprint("Keys are per tenant", ["a note"], ["src/cache.py"])
    assert len({base, stale_edit.fingerprint("Keys are per user", ["a note"], ["src/cache.py"]),
                stale_edit.fingerprint("Keys are per tenant", ["a note", ""], ["src/cache.py"]),
                stale_edit.fingerprint("Keys are per tenant", ["a note"], []),
                stale_edit.fingerprint("Keys are per tenant", [], ["a note", "src/cache.py"])}) == 5


def test_words_changed_under_the_same_version_are_refused_with_the_node_as_it_stands():
    g = graph_with(NODE, 3)
    stale_edit.check(g, "project", NODE.id, 3, stale_edit.node_fingerprint(NODE))  # as loaded: goes in
    stale_edit.check(g, "project", NODE.id, 3, None)  # an older page: the version alone
    loaded = stale_edit.fingerprint("Keys were per user", ["a note"], ["src/cache.py"])
    with pytest.raises(WriteConflict) as refused:
        stale_edit.check(g, "project", NODE.id, 3, loaded)
    assert refused.value.node["gist"] == "Keys are per tenant" and "changed since the editor loaded it" in refused.value.reason
    with pytest.raises(WriteConflict):
        stale_edit.check(g, "project", NODE.id, 2, stale_edit.node_fingerprint(NODE))
    with pytest.raises(Conflict):
        stale_edit.check(GraphData("project"), "project", NODE.id, None, loaded)  # gone since it was loaded
