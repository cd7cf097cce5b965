"""The tools' replies and refusals against spec 003's wording, over MCP to a real `kg serve`.

Each test here once failed against the server: an endpoint rule stricter than the
spec, a remaining count that was not the hard cap's, a refusal the spec does not
have, an edge saved to a node that does not exist, a project bound to whatever
folder was passed. One server for the module; each test has its own folders and ids.
"""

from __future__ import annotations

import pytest
from e2e_helpers import Session, edge_keys, graph, nodes_by_id, start_server


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("contract"))
    yield server
    server.kill()


def _project(srv, sid: str) -> dict:
    return graph(srv, session_id=sid)["project"]


# kg_put_edge: endpoints ---------------------------------------------------------------------

@pytest.mark.parametrize("endpoint", [".github/workflows/ci.yml", ".env", "_private/x", "~/.bashrc"])
async def test_an_endpoint_may_start_with_a_dot_or_an_underscore(srv, client, endpoint):
    a = await Session.open(client, srv.project("dot-endpoint-proj"))
    await a.ok("kg_put_node", level="project", id="ci-release-pipeline", gist="g")
    text = await a.ok("kg_put_edge", level="project", frm="ci-release-pipeline", to=endpoint, rel="configured-by")
    assert text == f"Edge ci-release-pipeline->{endpoint}:configured-by saved to project graph"
    assert ("ci-release-pipeline", endpoint, "configured-by") in edge_keys(_project(srv, a.sid))
    # A file endpoint is kept when the graph loads again from disk.
    reloaded = graph(srv, session_id=a.sid, project_path=srv.project("dot-endpoint-proj"), reload=True)
    assert ("ci-release-pipeline", endpoint, "configured-by") in edge_keys(reloaded["project"])


# kg_useful: what remains --------------------------------------------------------------------

async def test_useful_says_how_many_votes_remain_before_the_hard_cap(srv, client):
    a = await Session.open(client, srv.project("votes-left-proj"))
    node_ids = [f"vote-count-node-{c}" for c in "abcdefg"]
    for node_id in node_ids:
        await a.ok("kg_put_node", level="project", id=node_id, gist="g")
    first = await a.ok("kg_useful", ids=node_ids[:1])
    assert "9 vote(s) left before the hard cap of 10" in first
    five = await a.ok("kg_useful", ids=node_ids[1:5])
    assert "5 vote(s) left before the hard cap of 10" in five and "past the guidance" not in five
    # The sixth and seventh are accepted: five is guidance, ten the cap.
    seven = await a.ok("kg_useful", ids=node_ids[5:7])
    assert seven.startswith(f"Marked useful: {node_ids[5]}, {node_ids[6]}")
    assert "3 vote(s) left before the hard cap of 10" in seven and "2 past the guidance of 5" in seven


# kg_put_node: the two refusals, and no third ----------------------------------------------------

async def test_a_trim_of_notes_the_session_read_is_written_at_once(srv, client):
    cwd = srv.project("trim-proj")
    author = await Session.open(client, cwd)
    await author.ok("kg_put_node", level="project", id="flaky-test-causes", gist="g", notes=["a", "b", "c"])
    # The author trims its own notes (it wrote them: they count as read).
    text = await author.ok("kg_put_node", level="project", id="flaky-test-causes", gist="g", notes=["a", "b"])
    assert text.startswith("Node 'flaky-test-causes' saved")
    assert nodes_by_id(_project(srv, author.sid))["flaky-test-causes"]["notes"] == ["a", "b"]
    # A maintenance session that read the node merges two notes into one.
    m = await Session.open(client, cwd, maintenance=True)
    await m.ok("kg_read", id="flaky-test-causes")
    text = await m.ok("kg_put_node", level="project", id="flaky-test-causes", gist="g", notes=["a and b"])
    assert text.startswith("Node 'flaky-test-causes' saved")
    assert nodes_by_id(_project(srv, m.sid))["flaky-test-causes"]["notes"] == ["a and b"]


async def test_the_two_refusals_still_guard_notes_not_read_in_their_current_form(srv, client):
    cwd = srv.project("guard-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await a.ok("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a"])
    # b has seen the node in a search, never read its notes: replacing them is refused.
    await b.ok("kg_search", query="deploy freeze window")
    text = await b.err("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["b"])
    assert text.startswith("NOT WRITTEN — this write replaces notes this session has not read")
    # The refusal counts as a read; a changes the node meanwhile: b's view is stale.
    await a.ok("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a", "a2"])
    text = await b.err("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a", "b"])
    assert text.startswith("NOT WRITTEN — changed by another session")
    assert nodes_by_id(_project(srv, a.sid))["deploy-freeze-window"]["notes"] == ["a", "a2"]
    await b.ok("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a", "a2", "b"])


# Tool descriptions: the maintain level's rule ---------------------------------------------------

async def test_every_tool_that_writes_a_level_says_maintain_is_for_maintenance_runs(client):
    tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("kg_put_node", "kg_put_edge", "kg_rename_node", "kg_progress"):
        tool = tools[name]
        assert "maintain" in tool.description and "only from a maintenance pass or chore" in tool.description, name
        assert "only from a maintenance pass or chore" in tool.input_schema["properties"]["level"]["description"]
    assert "maintenance memory" in tools["kg_read"].description
