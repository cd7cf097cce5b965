"""A graph that loads with no node active and archived nodes to bring back (every node archived by hand, then
a restart) shows gists from its first read on, not a tick later."""

from __future__ import annotations

from e2e_helpers import Session, graph, nodes_by_id, reference_graph
from hook_helpers import Harness, node, project_graph, user_graph
from mcp import Client

from kg_actors.testing import write_store

NODES = [{"id": f"archived-lesson-{k:02d}", "gist": f"lesson {k}: a gist the first read should show",
          "_archived": True} for k in range(12)]


async def test_a_graph_loaded_with_every_node_archived_is_refilled_before_its_first_read(server_factory):
    srv = server_factory(start=False)  # its tick is an hour away: only the load can refill
    write_store(srv.store, reference_graph(NODES))
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
    assert "lesson 7: a gist the first read should show" in s.first_text, s.first_text
    states = {i: n.get("_archived", False) for i, n in nodes_by_id(graph(srv)["user"]).items()}
    assert states == {n["id"]: False for n in NODES}


def test_a_project_loaded_with_every_node_archived_shows_gists_to_the_session_start_hook(server_factory):
    """The real SessionStart hook: the project's graph loads for it and its preload holds gists, not anchors
    alone (the hook reads what the graph shows and never waits for a compaction)."""
    srv = server_factory(start=False)
    root = srv.project("archived-proj")
    write_store(srv.store, user_graph([node("prefer-small-commits", "commit one logical change at a time")]),
                {"archived-proj": project_graph(root, [node(n["id"], n["gist"], _archived=True) for n in NODES])})
    srv.start("--no-editor")
    run = Harness(srv, root).start()
    assert run.context.startswith("KG MEMORY PRELOADED"), run.context
    assert "lesson 3: a gist the first read should show" in run.context, run.context
