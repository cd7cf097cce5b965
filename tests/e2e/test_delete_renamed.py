"""A delete under an id that was renamed away: the reply names where the node went, and nothing is deleted.

On a server of its own: a user node's rename loads every project graph, which other modules' tests of
a graph nobody loaded must not see.
"""

from __future__ import annotations

import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("delete-renamed"))
    yield server
    server.kill()


def _project_nodes(srv, sid: str) -> dict[str, dict]:
    return nodes_by_id(graph(srv, session_id=sid)["project"])


async def test_deleting_an_id_renamed_away_names_where_it_went_and_deletes_nothing(srv, client):
    a = await Session.open(client, srv.project("delete-renamed-proj"))
    b = await Session.open(client, srv.project("delete-renamed-proj"))
    await a.ok("kg_put_node", level="project", id="retry-budget-rule", gist="three retries, then fail")
    await b.ok("kg_read", ids=["retry-budget-rule"])
    await a.ok("kg_rename_node", old_id="retry-budget-rule", new_id="retry-budget-three")
    for who in (a, b):  # the renaming session, and one that saw the node before
        text = await who.err("kg_delete_node", id="retry-budget-rule")
        assert "not found" in text and "renamed to 'retry-budget-three'" in text and "nothing" in text, text
    assert _project_nodes(srv, a.sid)["retry-budget-three"]["gist"] == "three retries, then fail"
    # The user graph keeps its renames: a session that never saw the node is told too.
    await a.ok("kg_put_node", level="user", id="small-diff-principle", gist="prefer small diffs")
    await a.ok("kg_rename_node", old_id="small-diff-principle", new_id="small-diffs-principle")
    c = await Session.open(client, srv.project("delete-renamed-proj"))
    text = await c.err("kg_delete_node", id="small-diff-principle")
    assert "renamed to 'small-diffs-principle'" in text, text
    assert "small-diffs-principle" in nodes_by_id(graph(srv, session_id=c.sid)["user"])
    # Once the renamed node is deleted too, the old id's reply says so rather than send the agent after it.
    await a.ok("kg_delete_node", id="retry-budget-three")
    text = await a.err("kg_delete_node", id="retry-budget-rule")
    assert "renamed to 'retry-budget-three'" in text and "since been deleted" in text, text
