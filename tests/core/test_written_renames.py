"""A rename is no news: the written log keeps a renamed node where its write put it (spec 000, pushes)."""

from kg_actors.core.model import GraphData, Node
from kg_actors.core.written import WrittenLog

T0 = 1_800_000_000.0


def _graph(*nodes: Node) -> GraphData:
    g = GraphData(kind="project")
    for n in nodes:
        g.set_node(n)
    return g


def test_a_renamed_node_keeps_when_it_was_written_and_a_new_write_is_news():
    g = _graph(Node(id="old-id", gist="g", written={"ts": T0, "by": "s1"}))
    log = WrittenLog.build(g)
    g.del_node("old-id")
    g.set_node(Node(id="new-id", gist="g", written={"ts": T0, "by": "s1"}))
    changed = ["old-id", "new-id"]
    renamed = log.renamed(g, changed)
    assert renamed == {"new-id": T0}
    for i in changed:
        node = g.nodes.get(i)
        log.remove_node(i) if node is None else log.update_node(node, T0 + 50, renamed.get(i))
    assert log.since(T0 + 10) == []  # not written since the window opened at T0 + 10
    assert log.since(T0 - 1) == ["new-id"]
    # A node made now under an id another left in the same change is news (its stamp is its own).
    g.set_node(Node(id="fresh-id", gist="h", written={"ts": T0 + 60, "by": "s2"}))
    assert log.renamed(g, ["fresh-id"]) == {}
    log.update_node(g.nodes["fresh-id"], T0 + 61)
    assert log.since(T0 + 10) == ["fresh-id"]
