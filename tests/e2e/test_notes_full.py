"""A node holding the most notes a node keeps (200): an append is refused with advice, naming the field and the
rule (fold notes, or split the subject into linked nodes), not the schema's bare count. The limit stays."""

from __future__ import annotations

import pytest
from e2e_helpers import Session, graph, nodes_by_id, reference_graph, start_server
from editor_store import NOW, client
from mcp import Client

from kg_actors.core import constants as C
from kg_actors.testing import write_store

FULL = [f"case {i}: the retry loop gave up after the {i}th attempt" for i in range(C.LIST_MAX_ITEMS)]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    def seed(s):
        s.paths = {"p": s.project("many-notes")}
        node = {"id": "shared-retry-lessons", "gist": "Retries give up too early", "notes": FULL, "_created_ts": NOW}
        write_store(s.store, projects={"many-notes": reference_graph([node], [], s.paths["p"])})

    server = start_server(tmp_path_factory.mktemp("notes-full"), before_start=seed)
    yield server
    server.kill()


def _advised(text: str) -> None:
    assert "notes: has 201 items; at most 200" in text, text
    assert "the most notes a node keeps" in text and "fold" in text and "split" in text, text


async def test_an_append_to_a_node_with_200_notes_gets_advice(srv):
    async with Client(srv.url + "/") as c:
        agent = await Session.open(c, cwd=srv.paths["p"])
        await agent.ok("kg_read", id="shared-retry-lessons")
        text = await agent.err("kg_put_node", level="project", id="shared-retry-lessons", gist="Retries give up too early",
                               notes=[*FULL, "case 200: one more"])
    _advised(text)
    assert nodes_by_id(graph(srv, project_path=srv.paths["p"])["project"])["shared-retry-lessons"]["notes"] == FULL


def test_the_editor_gets_the_same_advice(srv):
    with client(srv) as http:
        r = http.post("/api/nodes", json={"level": "project", "project_path": srv.paths["p"], "id": "shared-retry-lessons",
                                          "gist": "Retries give up too early", "notes": [*FULL, "one more"]})
    assert r.status_code == 400 and r.json()["field"] == "notes", r.text
    _advised(r.json()["error"])
