from kg_actors.core import constants as C
from kg_actors.core import node_room
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.render import citation_line, line_cost, node_line


def test_alone_cost_is_the_line_and_every_live_citation_under_it():
    g = GraphData("project")
    for node in (Node("big-node", "x" * 100), Node("other-node", "y"), Node("gone-node", "z", archived=True,
                                                                               orphaned_ts=1.0)):
        g.set_node(node)
    for dst in ("other-node", "gone-node", "src/a.py"):
        g.set_edge(Edge("big-node", dst, "uses"))
    live = [g.edges[k] for k in g.unorphaned_incident("big-node")]
    assert {e.dst for e in live} == {"other-node", "src/a.py"}
    assert node_room.alone_cost(g, "big-node") == line_cost(node_line("big-node", "x" * 100)) + sum(
        line_cost(citation_line(e, "big-node")) for e in live)


def test_the_notes_name_the_room_that_was_exceeded_and_what_to_do():
    share = int(C.MAX_CHARS_PER_LEVEL * C.FRESH_BUDGET_RATIO)
    assert node_room.fresh_share() == share == 6_600
    note = node_room.archived_at_once_note(7_100)
    assert "7,100 characters" in note and "the 6,600 a new node may take" in note and "shorten the gist" in note
    assert "whole budget of 22,000" in node_room.archived_at_once_note(30_000)
    assert "stays so" in node_room.unpromotable_status(30_000)
