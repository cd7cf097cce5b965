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


async def test_c_plus_plus_c_sharp_and_f_sharp_are_terms_of_their_own_and_a_query_of_common_words_is_named(srv):
    async with Client(srv.url + "/") as c:
        agent = await Session.open(c, cwd=srv.paths["big"])
        for nid, gist in (("c-lang-build", "the C build uses musl statically"),
                          ("cpp-abi-rule", "c++ builds need the old ABI flag"),
                          ("csharp-nullable", "C# projects enable nullable reference types"),
                          ("fsharp-order", "F# files compile in the order the project lists them")):
            await agent.ok("kg_put_node", level="project", id=nid, gist=gist)
        for query, first, never in (("c++", "cpp-abi-rule", "c-lang-build"), ("C#", "csharp-nullable", "c-lang-build"),
                                    ("f#", "fsharp-order", "c-lang-build"), ("the C build", "c-lang-build", None)):
            text = await agent.ok("kg_search", query=query)
            listed = [w.strip("*:,()[]") for w in text.split() if w.strip("*:,()[]") in
                      ("c-lang-build", "cpp-abi-rule", "csharp-nullable", "fsharp-order")]
            assert listed and listed[0] == first and never not in listed, (query, text)
        for query in ("a", "I", "a I"):
            said = await agent.err("kg_search", query=query)
            assert "query" in said and "only words too common to search" in said, said
        assert "must contain at least one word" in await agent.err("kg_search", query="!!")
    with client(srv) as http:
        out = http.get("/api/search", params={"level": "project", "project_path": srv.paths["big"], "q": "c++"}).json()
    assert out["hits"] and out["hits"][0]["id"] == "cpp-abi-rule" and "c++" in out["terms"], out
