"""kg_sync's news (core/changes_since.py): what other sessions wrote after a time, never a session's own."""

from kg_actors.core import graph_ops
from kg_actors.core.changes_since import changes_since
from kg_actors.core.model import GraphData

A, B = graph_ops.Writer(session="aaaa1111"), graph_ops.Writer(session="bbbb2222")


def _graph() -> GraphData:
    graph = GraphData("project")
    graph_ops.put_node(graph, "project", "old-lesson-node", "written before", None, None, 100.0, A)
    graph_ops.put_node(graph, "project", "new-lesson-node", "written after", None, None, 200.0, A)
    graph_ops.put_node(graph, "project", "other-lesson-node", "its edge is news", None, None, 100.0, B)
    graph_ops.put_edge(graph, "new-lesson-node", "other-lesson-node", "explains", None, 210.0, A)
    graph.commit()
    return graph


def test_another_session_gets_the_nodes_and_edges_written_after_its_time():
    news = changes_since(_graph(), 150.0, B.session)
    assert sorted((kind, getattr(x, "id", None) or x.key) for kind, x in news) == [
        ("edge", ("new-lesson-node", "other-lesson-node", "explains")), ("node", "new-lesson-node")]


def test_a_session_s_own_writes_are_not_news_to_it():
    assert changes_since(_graph(), 150.0, A.session) == []
    assert changes_since(_graph(), 300.0, B.session) == []


def test_orphaned_nodes_and_their_edges_are_not_news_even_orphaned_after_the_time():
    """Spec 001: orphans are invisible in kg_read and kg_sync."""
    import attrs
    graph = _graph()
    node = graph.nodes["new-lesson-node"]
    graph.set_node(attrs.evolve(node, archived=True, orphaned_ts=250.0))  # orphaned after the cursor
    graph.commit()
    assert changes_since(graph, 150.0, B.session) == []
    graph.set_node(attrs.evolve(node, archived=True, orphaned_ts=None))  # archived only: still news
    graph.commit()
    assert sorted(kind for kind, _ in changes_since(graph, 150.0, B.session)) == ["edge", "node"]
