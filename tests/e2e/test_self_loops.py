"""An edge from a node (or a file) to itself is refused, naming `from` and `to` and the rule, with nothing written;
one already in a graph file stays as it is.

A loop says nothing an edge is for (how two things relate); what it would say of one thing belongs in a note
on it.
"""

from __future__ import annotations

import time

import httpx
import pytest
from e2e_helpers import Session, edge_keys, graph, start_server, store_files

NOW = time.time()
LOOP = ("loop-kept-node", "loop-kept-node", "refines")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    node = {"id": "loop-kept-node", "gist": "a node a hand edit linked to itself", "_created_ts": NOW - 86_400}
    user = {"nodes": {node["id"]: node},
            "edges": {"loop-kept-node->loop-kept-node:refines": {"from": LOOP[0], "to": LOOP[1], "rel": LOOP[2]}},
            "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}
    server = start_server(tmp_path_factory.mktemp("self-loops"), user)
    yield server
    server.kill()


@pytest.mark.parametrize("level,src,dst", [
    ("project", "cache-warmup-order", "cache-warmup-order"),
    ("user", "loop-kept-node", "loop-kept-node"),
    ("project", "src/app.py", "src/app.py"),
    ("project", "src/app.py", "./src/app.py"),  # the same file, written two ways
    ("project", "~/notes/a.md", "~/notes/../notes/a.md"),
])
async def test_an_edge_from_a_thing_to_itself_is_refused_naming_from_and_to(srv, client, level, src, dst):
    a = await Session.open(client, srv.project("self-loop-proj"))
    await a.ok("kg_put_node", level="project", id="cache-warmup-order", gist="warm the cache before traffic")
    before = {k: v for k, v in store_files(srv.store).items() if not k.endswith((".jsonl", ".log"))}
    text = await a.err("kg_put_edge", level=level, frm=src, to=dst, rel="depends-on")
    assert text.startswith("Error: to: ") and "from" in text and "itself" in text, text
    after = {k: v for k, v in store_files(srv.store).items() if not k.endswith((".jsonl", ".log"))}
    assert after == before
    assert (src, dst, "depends-on") not in edge_keys(graph(srv, session_id=a.sid)[level])


async def test_the_editor_is_held_to_the_same_rule(srv, client):
    a = await Session.open(client, srv.project("self-loop-proj"))
    await a.ok("kg_put_node", level="project", id="cache-warmup-order", gist="warm the cache before traffic")
    body = {"level": "project", "project_path": srv.project("self-loop-proj"), "from": "cache-warmup-order",
            "to": "cache-warmup-order", "rel": "depends-on"}
    r = httpx.post(srv.url + "/api/edges", json=body, timeout=10)
    assert r.status_code == 400 and "to: " in r.text and "itself" in r.text, r.text
    assert ("cache-warmup-order",) * 2 + ("depends-on",) not in edge_keys(graph(srv, session_id=a.sid)["project"])


async def test_a_loop_already_in_a_graph_file_is_kept_and_may_still_be_deleted(srv, client):
    a = await Session.open(client, srv.project("self-loop-proj"))
    assert LOOP in edge_keys(graph(srv, session_id=a.sid)["user"])
    await a.ok("kg_put_node", level="user", id="loop-kept-node", gist="a node a hand edit linked to itself, read")
    assert LOOP in edge_keys(graph(srv, session_id=a.sid, reload=True)["user"])
