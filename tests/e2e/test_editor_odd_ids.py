"""Nodes left by hand in a graph file with ids no write would take: the editor draws them, so it opens, edits,
renames and deletes them. The id rules bind new ids only (spec 003): an agent still cannot create one."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server
from editor_store import NOW, client
from mcp import Client

from kg_actors.testing import write_store

from test_editor_browser import CHROMIUM, browser, on_canvas, open_project, page, playwright  # noqa: F401

ODD = ["emoji-🚀-rocket-id", "مرحبا-عالم-rtl", "<script>alert(1)</script>", "docs/setup-notes", "has a space"]
# One project graph per test, so that no test depends on another's edits.
GRAPHS = ("odd-open", "odd-rename", "odd-delete", "odd-agent", "odd-browser", "odd-long", "odd-dots")
LONG = "x" * 30_000  # a note a hand edit left over the 20,000 characters a write takes


def _odd_graph(path: str) -> dict:
    nodes = {i: {"id": i, "gist": f"hand-left node {n}", "_created_ts": NOW - 86_400} for n, i in enumerate(ODD)}
    nodes["plain-neighbour-node"] = {"id": "plain-neighbour-node", "gist": "a neighbour", "_created_ts": NOW}
    nodes["very-long-notes-node"] = {"id": "very-long-notes-node", "gist": "Long notes", "_created_ts": NOW,
                                     "notes": [LONG, "a short note"], "touches": ["src/long.py"]}
    edges = {f"plain-neighbour-node->{i}:relates-to": {"from": "plain-neighbour-node", "to": i, "rel": "relates-to"}
             for i in ODD}
    if path.endswith("odd-dots"):  # a path's dot segments, which a browser folds away unless encoded
        nodes.update({i: {"id": i, "gist": f"dot node {i}", "_created_ts": NOW - 86_400} for i in ("..", ".")})
    return {"nodes": nodes, "edges": edges, "_meta": {"project_path": path}}


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    paths = {}

    def seed(s):
        paths.update({name: s.project(name) for name in GRAPHS})
        write_store(s.store, projects={name: _odd_graph(paths[name]) for name in GRAPHS})

    server = start_server(tmp_path_factory.mktemp("editor-odd"), before_start=seed)
    server.paths = paths
    yield server
    server.kill()


@pytest.fixture
def http(srv):
    with client(srv) as c:
        yield c


def _url(node_id: str) -> str:
    return f"/api/nodes/project/{quote(node_id, safe='')}"


def _drawn(http, path: str) -> set[str]:
    return {n["id"] for n in http.get("/api/graph", params={"level": "project", "project_path": path}).json()["nodes"]}


def _stored(srv, path: str) -> dict:
    return nodes_by_id(graph(srv, project_path=path)["project"])


@pytest.mark.parametrize("node_id", ODD)
def test_a_hand_left_node_the_editor_draws_opens_scores_and_saves(srv, http, node_id):
    path = srv.paths["odd-open"]
    assert node_id in _drawn(http, path)
    r = http.get(_url(node_id), params={"project_path": path})
    assert r.status_code == 200, r.text
    node = r.json()["node"]
    assert node["id"] == node_id and node["gist"].startswith("hand-left node")
    score = http.get(_url(node_id) + "/score", params={"project_path": path})
    assert score.status_code == 200 and score.json()["id"] == node_id, score.text
    body = {"level": "project", "project_path": path, "id": node_id, "gist": f"edited by a person: {node_id}",
            "expected_version": node["version"], "expected_fingerprint": node["fingerprint"]}
    r = http.post("/api/nodes", json=body)
    assert r.status_code == 200 and r.json()["changed"], r.text
    assert _stored(srv, path)[node_id]["gist"] == f"edited by a person: {node_id}"


@pytest.mark.parametrize("node_id", ODD)
def test_a_hand_left_node_is_renamed_to_a_good_id_with_its_edges(srv, http, node_id):
    path = srv.paths["odd-rename"]
    new_id = f"renamed-odd-node-{ODD.index(node_id)}"
    r = http.post("/api/nodes/rename", json={"level": "project", "project_path": path, "old_id": node_id,
                                             "new_id": new_id})
    assert r.status_code == 200 and r.json()["rewired"] == 1, r.text
    stored = _stored(srv, path)
    assert node_id not in stored and stored[new_id]["gist"].startswith("hand-left node")
    assert http.get(_url(new_id), params={"project_path": path}).json()["node"]["edges"][0]["other"] == \
        "plain-neighbour-node"


@pytest.mark.parametrize("node_id", ODD)
def test_a_hand_left_node_is_deleted_with_its_edges(srv, http, node_id):
    path = srv.paths["odd-delete"]
    r = http.delete(_url(node_id), params={"project_path": path})
    assert r.status_code == 200 and r.json() == {"deleted": node_id, "level": "project", "project_path": path,
                                                 "edges_removed": 1}, r.text
    assert node_id not in _stored(srv, path) and node_id not in _drawn(http, path)
    gone = http.get(_url(node_id), params={"project_path": path})
    assert gone.status_code == 404 and node_id in gone.json()["error"], gone.text


def test_the_id_rules_still_bind_a_new_id_in_the_editor(srv, http):
    path = srv.paths["odd-open"]
    for node_id, rule in (("emoji-🚀-new-node", "may hold only ASCII letters"), ("docs/new-node", "path separator")):
        r = http.post("/api/nodes", json={"level": "project", "project_path": path, "id": node_id, "gist": "g",
                                          "create": True})
        assert r.status_code == 400 and r.json()["field"] == "id" and rule in r.json()["error"], r.text
        r = http.post("/api/nodes/rename", json={"level": "project", "project_path": path,
                                                 "old_id": "plain-neighbour-node", "new_id": node_id})
        assert r.status_code == 400 and r.json()["field"] == "new_id" and rule in r.json()["error"], r.text
    assert "emoji-🚀-new-node" not in _stored(srv, path)


def test_a_missing_node_or_endpoint_is_named_not_a_bare_404(srv, http):
    path = srv.paths["odd-open"]
    r = http.get(_url("docs/never-written"), params={"project_path": path})
    assert r.status_code == 404 and "docs/never-written" in r.json()["error"], r.text
    r = http.get("/api/no-such-thing")
    assert r.status_code == 404 and r.json()["error"] == "no endpoint /api/no-such-thing", r.text


async def test_an_agent_creates_no_odd_id_but_a_path_named_for_a_node_is_told_so(srv):
    path = srv.paths["odd-agent"]
    async with Client(srv.url + "/") as c:
        agent = await Session.open(c, cwd=path)
        text = await agent.err("kg_put_node", level="project", id="emoji-🚀-agent-node", gist="g")
        assert "id: may hold only ASCII letters" in text, text
        text = await agent.err("kg_put_node", level="project", id="docs/agent-node", gist="g")
        assert "id: must not contain a path separator" in text, text
        text = await agent.err("kg_delete_node", id="docs/not-a-node")
        assert "id: must not contain a path separator" in text, text
        # One a hand edit left is found, and goes.
        await agent.ok("kg_delete_node", id="docs/setup-notes")
    stored = _stored(srv, path)
    assert "docs/setup-notes" not in stored and "emoji-🚀-agent-node" not in stored


TITLE_IS = "id => document.querySelector('#node-title')?.textContent === id"


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_in_the_page_a_hand_left_node_opens_is_renamed_and_another_is_deleted(srv, page):
    path = srv.paths["odd-browser"]
    open_project(page, srv, path)
    page.evaluate("id => window.kgEditor.selectNode(id)", "<script>alert(1)</script>")
    page.wait_for_function(TITLE_IS, arg="<script>alert(1)</script>")
    page.wait_for_selector("#score-card table")
    assert page.input_value("#gist") == "hand-left node 2"
    page.click("details:has(#rename-to) summary")
    page.fill("#rename-to", "html-shaped-id-node")
    page.click("#rename-go")
    page.wait_for_function(TITLE_IS, arg="html-shaped-id-node")
    page.wait_for_function("() => document.body.dataset.graph === 'ready'")
    assert on_canvas(page, "html-shaped-id-node") and not on_canvas(page, "<script>alert(1)</script>")

    page.evaluate("id => window.kgEditor.selectNode(id)", "emoji-🚀-rocket-id")
    page.wait_for_function(TITLE_IS, arg="emoji-🚀-rocket-id")
    page.click("#delete-node")
    page.click("#delete-confirm")
    page.wait_for_function("id => !window.kgEditor.canvas.cy.getElementById(id).nonempty()", arg="emoji-🚀-rocket-id")
    stored = _stored(srv, path)
    assert "emoji-🚀-rocket-id" not in stored and "<script>alert(1)</script>" not in stored
    assert stored["html-shaped-id-node"]["gist"] == "hand-left node 2"
    assert [p for p in page.problems if p.startswith("pageerror")] == []


def test_in_the_page_nodes_named_dot_and_dot_dot_open_save_and_delete(srv, page):
    """The page put `..` into /api/nodes/project/.. as it is, the browser folded it away (GET /api/nodes),
    and the node could be neither opened, edited nor deleted: "/api/nodes does not take GET"."""
    path = srv.paths["odd-dots"]
    open_project(page, srv, path)
    page.evaluate("id => window.kgEditor.selectNode(id)", "..")
    page.wait_for_function(TITLE_IS, arg="..")
    page.wait_for_selector("#score-card table")
    page.fill("#gist", "dot dot node, edited in the page")
    page.click("#save-node")
    page.wait_for_selector("#save-msg.ok")
    page.evaluate("id => window.kgEditor.selectNode(id)", ".")
    page.wait_for_function(TITLE_IS, arg=".")
    page.click("#delete-node")
    page.click("#delete-confirm")
    page.wait_for_function("id => !window.kgEditor.canvas.cy.getElementById(id).nonempty()", arg=".")
    stored = _stored(srv, path)
    assert stored[".."]["gist"] == "dot dot node, edited in the page" and "." not in stored, stored.keys()
    assert [p for p in page.problems if p.startswith("pageerror")] == []


def _save(http, path: str, node_id: str, **fields):
    node = http.get(_url(node_id), params={"project_path": path}).json()["node"]
    body = {"level": "project", "project_path": path, "id": node_id, "gist": node["gist"], "notes": node["notes"],
            "touches": node["touches"], "expected_version": node["version"], **fields}
    return http.post("/api/nodes", json=body)


def test_a_stored_over_long_note_sent_back_unchanged_does_not_block_a_save(srv, http):
    path = srv.paths["odd-long"]
    r = _save(http, path, "very-long-notes-node", gist="Long notes (gist edited)")
    assert r.status_code == 200 and r.json()["changed"], r.text
    stored = _stored(srv, path)["very-long-notes-node"]
    assert stored["gist"] == "Long notes (gist edited)" and stored["notes"] == [LONG, "a short note"]
    # Reordered and with a note added: the stored text is still the stored text.
    r = _save(http, path, "very-long-notes-node", notes=["a short note", LONG, "one more"])
    assert r.status_code == 200, r.text
    assert _stored(srv, path)["very-long-notes-node"]["notes"] == ["a short note", LONG, "one more"]


@pytest.mark.parametrize("notes", [[LONG + "y", "a short note"], [LONG, "z" * 20_001]])
def test_new_text_over_the_limit_is_refused_naming_the_note(srv, http, notes):
    path = srv.paths["odd-long"]
    r = _save(http, path, "very-long-notes-node", notes=notes)
    bad = 0 if notes[0] != LONG else 1
    assert r.status_code == 400 and r.json()["field"] == f"notes[{bad}]", r.text
    assert "at most 20000" in r.json()["error"]
    assert LONG in _stored(srv, path)["very-long-notes-node"]["notes"]
