"""A one-character word of a query ("topic 5", "plan b") counts in the editor's search and in kg_search, as
a whole word of a node: it was dropped, and "topic 5" listed "topic 0", "topic 1", "topic 10" first."""

from __future__ import annotations

import pytest
from e2e_helpers import Session, start_server
from editor_store import NOW, client
from mcp import Client

from kg_actors.testing import write_store

N = 120


def _numbered(path: str) -> dict:
    nodes = {}
    for i in range(N):
        nid = f"big-node-number-{i}"
        nodes[nid] = {"id": nid, "gist": f"Gist of big node {i} about topic {i % 37}", "notes": [f"note {i}"],
                      "_created_ts": NOW - 86_400}
    return {"nodes": nodes, "edges": {}, "_meta": {"project_path": path}}


def _on_topic_5(node_id: str) -> bool:
    return int(node_id.rsplit("-", 1)[1]) % 37 == 5


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    paths = {}

    def seed(s):
        paths["big"] = s.project("big")
        write_store(s.store, projects={"big": _numbered(paths["big"])})

    server = start_server(tmp_path_factory.mktemp("short-words"), before_start=seed)
    server.paths = paths
    yield server
    server.kill()


def test_the_editors_search_counts_a_one_character_word(srv):
    with client(srv) as http:
        out = http.get("/api/search", params={"level": "project", "project_path": srv.paths["big"],
                                              "q": "topic 5"}).json()
    assert "5" in out["terms"]
    first = [h["id"] for h in out["hits"][:4]]  # on topic 5: nodes 5, 42, 79 and 116
    assert all(_on_topic_5(i) for i in first), first
    assert out["hits"][0]["id"] == "big-node-number-5"  # "5" in its id, its gist twice: the most of it


async def test_kg_search_counts_a_one_character_word(srv):
    async with Client(srv.url + "/") as c:
        agent = await Session.open(c, cwd=srv.paths["big"])
        text = await agent.ok("kg_search", query="topic 5")
    listed = [w.strip("*:,()[]") for w in text.split() if w.strip("*:,()[]").startswith("big-node-number-")]
    assert len(listed) >= 4 and all(_on_topic_5(i) for i in listed[:4]), text
