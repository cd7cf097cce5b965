"""The editor's REST endpoints against a real `kg serve`: shapes, rules, refusals, and the store after.

Requests go to the editor's port (the quart app hands `/api/*` to the memory
server's app in-process); a few go to the memory port to show both answer
alike. Timings are never asserted here (see bench/RESULTS-editor.md).
"""

from __future__ import annotations

import json
import subprocess
import time
import sys
import zipfile
from pathlib import Path

import httpx
import pytest
import trio
from e2e_helpers import Session, graph, nodes_by_id, on_disk_graph, start_server
from editor_store import NOW, client, editor_url, seed
from mcp import Client
from trio_websocket import ConnectionRejected, open_websocket_url

from kg_actors.core import constants as C
from kg_actors.core import render, search
from kg_actors.core.terms import query_terms
from kg_actors.graph_loading import load_graph
from kg_actors.testing import ServerProcess


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("editor-rest")
    paths = {}
    server = start_server(base, before_start=lambda s: paths.update(seed(s)))
    server.paths = paths
    yield server
    server.kill()


@pytest.fixture
def http(srv):
    with client(srv) as c:
        yield c


def alpha(srv) -> str:
    return srv.paths["alpha"]


def put(http, srv, node_id, gist, **extra):
    body = {"level": "project", "project_path": alpha(srv), "id": node_id, "gist": gist, **extra}
    return http.post("/api/nodes", json=body)


# -- the store -------------------------------------------------------------------


def test_projects_lists_every_stored_graph_with_its_recorded_path_and_counts(srv, http):
    out = http.get("/api/projects").json()
    rows = {r["slug"]: r for r in out["projects"]}
    assert set(rows) >= {"alpha", "beta", "gone-project", "nopath"}
    a = rows["alpha"]
    assert a["project_path"] == alpha(srv) and a["path_exists"] and a["openable"]
    assert a["counts"] == {"active": 3, "archived": 1, "orphaned": 1, "nodes": 5, "edges": 4}
    assert isinstance(a["last_used"], float)
    assert rows["gone-project"]["path_exists"] is False and rows["gone-project"]["project_path"] == srv.paths["gone"]
    assert rows["nopath"]["project_path"] is None and rows["nopath"]["openable"] is False
    assert out["user"]["nodes"] == 2
    # The memory server's own port answers the same route.
    assert httpx.get(f"{srv.url}/api/projects").json()["projects"] == out["projects"]


def test_graph_picture_has_every_tier_and_edge(srv, http):
    out = http.get("/api/graph", params={"level": "project", "project_path": alpha(srv)}).json()
    states = {n["id"]: n["state"] for n in out["nodes"]}
    assert states["rate-limit-window"] == "archived" and states["old-cache-layout"] == "orphaned"
    assert {n["id"]: n["v"] for n in out["nodes"]}["auth-token-refresh"] == 3
    assert {"from": "auth-token-refresh", "to": "src/auth/refresh.py", "rel": "implemented-in"} in out["edges"]
    assert out["project_path"] == alpha(srv)


def test_states_lists_every_node_tier(srv, http):
    states = http.get("/api/states", params={"level": "project", "project_path": alpha(srv)}).json()["states"]
    assert states["rate-limit-window"] == "archived" and states["old-cache-layout"] == "orphaned"
    assert states["billing-service-hub"] == "active"


def test_a_path_with_no_stored_graph_is_not_created_by_looking(srv, http):
    fresh = srv.project("never-used")
    r = http.get("/api/graph", params={"level": "project", "project_path": fresh})
    assert r.status_code == 404 and "no project graph" in r.json()["error"]
    assert not (srv.store / "projects" / "never-used").exists()


# -- reading a node ---------------------------------------------------------------


def test_opening_a_node_shows_content_edges_and_history_without_promoting_or_stamping(srv, http):
    r = http.get("/api/nodes/project/rate-limit-window", params={"project_path": alpha(srv)})
    assert r.status_code == 200
    node = r.json()["node"]
    assert node["state"] == "archived" and node["gist"].startswith("Redis sliding window")
    assert node["edges"] == [{"from": "rate-limit-window", "to": "auth-token-refresh", "rel": "related-to", "notes": [],
                              "direction": "out", "other": "auth-token-refresh", "other_kind": "node",
                              "other_state": "active"}]
    assert node["history"]["last_read_ts"] == pytest.approx(NOW - 20 * 86_400)
    stored = nodes_by_id(graph(srv, project_path=alpha(srv))["project"])["rate-limit-window"]
    assert stored.get("_archived") is True and stored["_last_read_ts"] == pytest.approx(NOW - 20 * 86_400)


def test_node_edges_name_files_and_other_graphs(srv, http):
    edges = http.get("/api/nodes/project/billing-service-hub", params={"project_path": alpha(srv)}).json()["node"]["edges"]
    assert edges[0]["other"] == "prefer-small-modules" and edges[0]["other_kind"] == "outside"
    edges = http.get("/api/nodes/project/auth-token-refresh", params={"project_path": alpha(srv)}).json()["node"]["edges"]
    assert {e["other"]: e["other_kind"] for e in edges}["src/auth/refresh.py"] == "file"


def test_score_explains_the_factors_and_does_not_promote(srv, http):
    r = http.get("/api/nodes/project/rate-limit-window/score", params={"project_path": alpha(srv)})
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["state"] == "archived"
    assert {k: v["weight"] for k, v in s["components"].items()} == {
        "recency": C.SCORE_WEIGHT_RECENCY, "connectedness": C.SCORE_WEIGHT_CONNECTEDNESS,
        "usefulness": C.SCORE_WEIGHT_USEFULNESS}
    assert s["connectedness"]["edges"] == 1
    assert http.get("/api/nodes/project/rate-limit-window", params={"project_path": alpha(srv)}).json()["node"]["state"] == "archived"


# -- writing nodes ------------------------------------------------------------------


def test_create_then_edit_with_the_loaded_version(srv, http):
    r = put(http, srv, "editor-made-node", "Created in the editor", notes=["first"], create=True)
    assert r.status_code == 201, r.text
    node = r.json()["node"]
    assert node["version"] == 1 and node["history"]["written"]["by"] is None
    r = put(http, srv, "editor-made-node", "Edited in the editor", notes=["first", "second"], expected_version=1)
    assert r.status_code == 200, r.text
    assert r.json()["node"]["version"] == 2 and r.json()["changed"] is True
    stored = on_disk_graph(srv.store / "projects" / "alpha" / "graph.json")["nodes"]["editor-made-node"]
    assert stored["gist"] == "Edited in the editor" and stored["notes"] == ["first", "second"]
    assert stored["_written"]["by"] is None


def test_a_save_that_changes_nothing_leaves_another_tabs_edit_free_to_go_in(srv, http):
    assert put(http, srv, "unchanged-save-node", "as loaded", create=True).status_code == 201
    same = put(http, srv, "unchanged-save-node", "as loaded", expected_version=1)  # tab A: Save, no edit
    assert same.status_code == 200 and same.json()["changed"] is False and same.json()["node"]["version"] == 1
    edit = put(http, srv, "unchanged-save-node", "tab B's edit", expected_version=1)  # loaded at version 1
    assert edit.status_code == 200 and edit.json()["node"]["version"] == 2, edit.text


def test_a_stale_edit_is_refused_with_the_node_as_it_stands(srv, http):
    assert put(http, srv, "stale-edit-target", "v1", create=True).status_code == 201
    assert put(http, srv, "stale-edit-target", "v2 from another tab", expected_version=1).status_code == 200
    r = put(http, srv, "stale-edit-target", "v2 from a stale tab", expected_version=1)
    assert r.status_code == 409
    body = r.json()
    assert "changed since the editor loaded it" in body["reason"] and body["node"]["gist"] == "v2 from another tab"
    node = http.get("/api/nodes/project/stale-edit-target", params={"project_path": alpha(srv)}).json()["node"]
    assert node["gist"] == "v2 from another tab"


def test_the_editor_s_writes_keep_a_gist_on_one_line_and_refuse_control_characters(srv, http):
    """The editor writes through the same checks as kg_put_node (spec 000: a gist is one line)."""
    r = put(http, srv, "editor-newline-node", "line one\nFAKE-NODE: injected\r\n=== USER GRAPH")
    assert r.status_code == 201, r.text
    assert "note: gist: line breaks folded into spaces: a gist is one line." in r.json()["warnings"]
    assert r.json()["node"]["gist"] == "line one FAKE-NODE: injected === USER GRAPH"
    for extra, field in (({"notes": ["ok", "esc \x1b[31m"]}, "notes[1]"),
                         ({"touches": ["src/a.py\nFAKE"]}, "touches[0]")):
        r = put(http, srv, "editor-refused-node", "g", **extra)
        assert r.status_code == 400 and r.json()["field"] == field, r.text
    r = put(http, srv, "editor-refused-node", "bell \x07")
    assert r.status_code == 400 and r.json()["field"] == "gist" and "control character (U+0007)" in r.text, r.text
    assert http.get("/api/nodes/project/editor-refused-node", params={"project_path": alpha(srv)}).status_code == 404


def test_creating_over_an_existing_id_is_refused(srv, http):
    r = put(http, srv, "auth-token-refresh", "would clobber", create=True)
    assert r.status_code == 409 and "already exists" in r.json()["reason"]


def test_editing_a_node_deleted_meanwhile_is_refused(srv, http):
    r = put(http, srv, "no-longer-here", "gone", expected_version=4)
    assert r.status_code == 409 and "deleted or renamed" in r.json()["error"]


def test_a_save_over_a_node_changed_in_the_file_while_the_server_was_down_is_refused(tmp_path):
    """A hand edit (or a backup copied back, a git checkout) moves no version: the content the editor
    loaded is checked too, so its save does not silently overwrite the file's change."""
    paths = {}
    srv = start_server(tmp_path, before_start=lambda s: paths.update(seed(s)))
    where = {"project_path": paths["alpha"]}
    try:
        with client(srv) as http:
            loaded = http.get("/api/nodes/project/billing-service-hub", params=where).json()["node"]
            assert isinstance(loaded["fingerprint"], str) and loaded["fingerprint"]
            assert srv.stop() == 0
            graph_file = srv.store / "projects" / "alpha" / "graph.json"
            stored = json.loads(graph_file.read_text())
            stored["nodes"]["billing-service-hub"]["gist"] = "Changed by hand while the server was down"
            graph_file.write_text(json.dumps(stored))
            srv.start()
            now = http.get("/api/nodes/project/billing-service-hub", params=where).json()["node"]
            assert now["version"] == loaded["version"] and now["fingerprint"] != loaded["fingerprint"]
            body = {"level": "project", **where, "id": "billing-service-hub", "gist": "typed in the open tab",
                    "expected_version": loaded["version"], "expected_fingerprint": loaded["fingerprint"]}
            r = http.post("/api/nodes", json=body)
            assert r.status_code == 409, r.text
            assert "changed since the editor loaded it" in r.json()["reason"]
            assert r.json()["node"]["gist"] == "Changed by hand while the server was down"
            assert http.get("/api/nodes/project/billing-service-hub", params=where).json()["node"]["gist"] == \
                "Changed by hand while the server was down"
            # With the node as it stands now, the same save goes in; a page that sends no fingerprint is
            # checked by the version alone, as before.
            r = http.post("/api/nodes", json={**body, "expected_fingerprint": now["fingerprint"]})
            assert r.status_code == 200 and r.json()["node"]["gist"] == "typed in the open tab", r.text
            assert r.json()["node"]["fingerprint"] != now["fingerprint"]
            old_page = {k: v for k, v in body.items() if k != "expected_fingerprint"}
            r = http.post("/api/nodes", json={**old_page, "gist": "an old page's save",
                                              "expected_version": r.json()["node"]["version"]})
            assert r.status_code == 200, r.text
            r = http.post("/api/nodes", json={**body, "expected_fingerprint": 7})
            assert r.status_code == 400 and r.json()["field"] == "expected_fingerprint", r.text
            # A delete from a tab that loaded other words is refused the same way; with the words as they stand
            # it goes through.
            current = http.get("/api/nodes/project/billing-service-hub", params=where).json()["node"]
            gone = {**where, "expected_version": current["version"]}
            r = http.delete("/api/nodes/project/billing-service-hub",
                            params={**gone, "expected_fingerprint": loaded["fingerprint"]})
            assert r.status_code == 409 and r.json()["node"]["gist"] == "an old page's save", r.text
            r = http.delete("/api/nodes/project/billing-service-hub",
                            params={**gone, "expected_fingerprint": current["fingerprint"]})
            assert r.status_code == 200 and r.json()["deleted"] == "billing-service-hub", r.text
    finally:
        srv.kill()


async def test_an_editor_write_refuses_an_agent_holding_the_older_view(srv):
    async with Client(srv.url + "/") as c:
        agent = await Session.open(c, cwd=alpha(srv))
        await agent.ok("kg_read", ids=["session-handler-init"])
        with client(srv) as http:
            version = http.get("/api/nodes/project/session-handler-init",
                               params={"project_path": alpha(srv)}).json()["node"]["version"]
            r = await trio.to_thread.run_sync(lambda: put(
                http, srv, "session-handler-init", "Edited by a person in the editor", expected_version=version))
            assert r.status_code == 200, r.text
        text = await agent.err("kg_put_node", level="project", id="session-handler-init", gist="agent's older view")
        assert "NOT WRITTEN — changed in the visual editor after this session last saw it" in text, text
        assert "Edited by a person in the editor" in text


def test_delete_node_removes_its_edges(srv, http):
    assert put(http, srv, "short-lived-node", "soon gone", create=True).status_code == 201
    body = {"level": "project", "project_path": alpha(srv), "from": "short-lived-node", "to": "billing-service-hub",
            "rel": "related-to"}
    assert http.post("/api/edges", json=body).status_code == 201
    r = http.delete("/api/nodes/project/short-lived-node", params={"project_path": alpha(srv)})
    assert r.status_code == 200 and r.json()["edges_removed"] == 1
    assert http.get("/api/nodes/project/short-lived-node", params={"project_path": alpha(srv)}).status_code == 404


def test_a_delete_from_a_tab_that_loaded_an_older_version_is_refused(srv, http):
    """A stale tab could delete a node edited since it loaded it: the delete carried no version."""
    where = {"project_path": alpha(srv)}
    assert put(http, srv, "edited-then-deleted", "first words", create=True).status_code == 201
    assert put(http, srv, "edited-then-deleted", "edited in another tab", expected_version=1).status_code == 200
    r = http.delete("/api/nodes/project/edited-then-deleted", params={**where, "expected_version": 1})
    assert r.status_code == 409 and "edited in another tab" in r.text
    r = http.delete("/api/nodes/project/edited-then-deleted", params={**where, "expected_version": "one"})
    assert r.status_code == 400 and "expected_version" in r.text
    assert http.delete("/api/nodes/project/edited-then-deleted", params={**where, "expected_version": 2}).status_code == 200
    gone = http.delete("/api/nodes/maintain/no-such-maintain-node")
    assert gone.status_code == 404 and "not found in the maintain graph" in gone.text  # it said "user or project"


def test_rename_carries_edges_like_kg_rename_node(srv, http):
    assert put(http, srv, "rename-me-please", "to be renamed", create=True).status_code == 201
    edge = {"level": "project", "project_path": alpha(srv), "from": "rename-me-please", "to": "auth-token-refresh",
            "rel": "depends-on"}
    assert http.post("/api/edges", json=edge).status_code == 201
    r = http.post("/api/nodes/rename", json={"level": "project", "project_path": alpha(srv),
                                             "old_id": "rename-me-please", "new_id": "renamed-node-here"})
    assert r.status_code == 200, r.text
    assert r.json()["rewired"] == 1
    node = http.get("/api/nodes/project/renamed-node-here", params={"project_path": alpha(srv)}).json()["node"]
    assert node["edges"][0]["to"] == "auth-token-refresh"
    r = http.post("/api/nodes/rename", json={"level": "project", "project_path": alpha(srv),
                                             "old_id": "renamed-node-here", "new_id": "auth-token-refresh"})
    assert r.status_code == 409 and r.json()["field"] == "new_id" and "kg_put_node" not in r.text, r.text
    # Without a level, found as kg_rename_node finds it: here, in the project's graph.
    r = http.post("/api/nodes/rename", json={"project_path": alpha(srv), "old_id": "renamed-node-here",
                                             "new_id": "renamed-node-again"})
    assert r.status_code == 200 and r.json()["level"] == "project", r.text


# -- edges --------------------------------------------------------------------------


def test_edges_are_created_and_deleted_and_must_name_real_things(srv, http):
    base = {"level": "project", "project_path": alpha(srv), "from": "billing-service-hub", "rel": "calls"}
    r = http.post("/api/edges", json={**base, "to": "session-handler-init", "notes": ["via the checkout flow"]})
    assert r.status_code == 201, r.text
    assert r.json()["edge"] == {"from": "billing-service-hub", "to": "session-handler-init", "rel": "calls",
                                "notes": ["via the checkout flow"]}
    assert http.post("/api/edges", json={**base, "to": "review-before-merge"}).status_code == 201  # a user node
    assert http.post("/api/edges", json={**base, "to": "src/billing/api.py"}).status_code == 201  # a file
    r = http.post("/api/edges", json={**base, "to": "no-such-node-anywhere"})
    assert r.status_code == 404 and "names no node" in r.json()["error"]
    assert r.json()["field"] == "to" and r.json()["rule"].startswith("'no-such-node-anywhere' names no node")
    # Said to a person at the editor: its Search box and + Node, not an agent's tools.
    assert "Search box" in r.json()["error"] and "kg_search" not in r.json()["error"], r.text
    assert "kg_put_node" not in r.json()["error"], r.text
    r = http.request("DELETE", "/api/edges", json={**base, "to": "session-handler-init"})
    assert r.status_code == 200, r.text
    r = http.request("DELETE", "/api/edges", json={**base, "to": "session-handler-init"})
    assert r.status_code == 404 and "not found" in r.json()["error"]


# -- progress ---------------------------------------------------------------------


def test_progress_is_read_and_written_like_kg_progress(srv, http):
    where = {"level": "project", "project_path": alpha(srv)}
    tasks = http.get("/api/progress", params=where).json()["tasks"]
    assert tasks["scout"]["reviewed"] == ["s1"]
    r = http.post("/api/progress", json={**where, "task_id": "extract", "state": {"step": 2, "last_ts": 1}})
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["step"] == 2 and state["last_ts"] != 1 and state["_trail"][-1]["step"] == 2
    assert http.get("/api/progress", params={**where, "task_id": "extract"}).json()["state"]["step"] == 2
    assert http.get("/api/progress", params={**where, "task_id": "never-started"}).status_code == 404
    r = http.post("/api/progress", json={**where, "task_id": "extract", "state": [1, 2]})
    assert r.status_code == 400 and r.json()["field"] == "state"


# -- search and budget ----------------------------------------------------------------


def test_search_ranks_exactly_as_the_search_core_does(srv, http):
    r = http.get("/api/search", params={"q": "session token refresh", "level": "project", "project_path": alpha(srv)})
    assert r.status_code == 200, r.text
    out = r.json()
    g, _ = load_graph(srv.store / "projects" / "alpha" / "graph.json", "project", None)
    expected, total = search.top_hits(search.SearchIndex.build(g), query_terms("session token refresh"), limit=50)
    assert [h["id"] for h in out["hits"]] == [h.node_id for h in expected]
    assert out["total"] == total
    assert out["hits"][0]["id"] == "auth-token-refresh" and "gist" in out["hits"][0]["matched"]
    # every tier is searched, orphaned included
    found = http.get("/api/search", params={"q": "cache keys per-user", "level": "project",
                                            "project_path": alpha(srv)}).json()["hits"]
    assert found[0]["id"] == "old-cache-layout" and found[0]["state"] == "orphaned"


def test_budget_reports_the_exact_render_charge_per_level(srv, http):
    out = http.get("/api/budget", params={"project_path": srv.paths["beta"]}).json()
    g, _ = load_graph(srv.store / "projects" / "beta" / "graph.json", "project", None)
    beta = out["levels"]["project"]
    assert beta["charge"] == render.charge(g) and beta["budget"] == C.MAX_CHARS_PER_LEVEL
    assert beta["health"].startswith("HEALTH:") and beta["debt"].startswith("DEBT:")
    assert "score" in beta["debt_factors"]
    assert set(out["levels"]) == {"user", "project"}


def test_debt_nodes_name_the_nodes_behind_each_factor(srv, http):
    where = {"level": "project", "project_path": alpha(srv)}
    behind = http.get("/api/debt_nodes", params=where).json()["behind"]
    factors = http.get("/api/budget", params={"project_path": alpha(srv)}).json()["levels"]["project"]["debt_factors"]
    assert len(behind["unconnected"]) == factors["unconnected"]
    assert "billing-service-hub" not in behind["unconnected"]  # its edge to a user node counts
    assert len(behind["oversized"]) == factors["oversized"] and len(behind["long_ids"]) == factors["long_ids"]
    assert set(behind) >= {"dangling", "dangling_touches", "lift_clusters", "smeared"}


def test_the_tick_keeps_readings_and_finds_dangling_touches(tmp_path):
    """A server whose tick runs every second: readings of debt and render size land beside each graph."""
    paths = {}
    server = start_server(tmp_path, before_start=lambda s: paths.update(seed(s)), extra_env={"KG_SAVE_INTERVAL": "1"})
    try:
        with client(server) as c:
            where = {"level": "project", "project_path": paths["alpha"]}
            assert c.get("/api/graph", params=where).status_code == 200  # loaded: the tick covers it now
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                behind = c.get("/api/debt_nodes", params=where).json()["behind"]
                rows = c.get("/api/readings", params=where).json()["readings"]
                if behind["dangling"] and rows:
                    break
                time.sleep(0.2)
            assert behind["dangling"] == ["auth-token-refresh"]
            assert behind["dangling_touches"] == {"auth-token-refresh": ["src/auth/refresh.py"]}
            assert rows and rows[-1]["budget"] == C.MAX_CHARS_PER_LEVEL and rows[-1]["charge"] > 0
            assert (server.store / "projects" / "alpha" / "graph.readings.jsonl").exists()
            assert c.get("/api/readings", params={"level": "user"}).json()["readings"]
    finally:
        server.kill()


# -- bad input ------------------------------------------------------------------------

BAD = [
    ("GET", "/api/nodes/galaxy/auth-token-refresh", None, {}, 400, "level"),
    # An id no write takes may name a node a hand edit left: it is looked up, and named when absent.
    ("GET", "/api/nodes/project/bad%20id!", None, {"project_path": "@alpha"}, 404, "node 'bad id!' not found"),
    ("GET", "/api/nodes/project/no-such-node-here", None, {"project_path": "@alpha"}, 404, "not found"),
    ("GET", "/api/nodes/project/no-such-node-here/score", None, {"project_path": "@alpha"}, 404, "no node"),
    ("DELETE", "/api/nodes/project/no-such-node-here", None, {"project_path": "@alpha"}, 404, "not found"),
    ("GET", "/api/graph", None, {"level": "project"}, 400, "project_path"),
    ("GET", "/api/graph", None, {"level": "project", "project_path": "/etc"}, 400, "outside the user's home"),
    ("GET", "/api/graph", None, {"level": "project", "project_path": "relative/path"}, 400, "absolute"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "x" * 200, "gist": "g"}, {}, 400, "at most 128"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "huge-gist-node", "gist": "g" * (C.GIST_HARD_LIMIT + 1)}, {}, 400, "gist"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "empty-gist-node", "gist": ""}, {}, 400, "gist"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "notes-not-list", "gist": "g", "notes": "one"}, {}, 400, "notes"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "many-notes-node", "gist": "g", "notes": ["n"] * (C.LIST_MAX_ITEMS + 1)}, {}, 400, "notes"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "bad-version-node", "gist": "g", "expected_version": -1}, {}, 400, "expected_version"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "one-two-three-four-five-six-seven", "gist": "g"}, {}, 400, "words"),
    ("POST", "/api/nodes", {"level": "project", "project_path": "@alpha", "id": "create-flag-node", "gist": "g", "create": "yes"}, {}, 400, "create"),
    ("POST", "/api/edges", {"level": "project", "project_path": "@alpha", "from": "auth-token-refresh", "to": "billing-service-hub", "rel": "Not A Rel!"}, {}, 400, "rel"),
    ("DELETE", "/api/edges", {"level": "project", "project_path": "@alpha", "from": "auth-token-refresh", "to": "nowhere-node", "rel": "calls"}, {}, 404, "not found"),
    ("POST", "/api/nodes/rename", {"level": "project", "project_path": "@alpha", "old_id": "missing-old-node", "new_id": "new-name-here"}, {}, 404, "not found"),
    ("POST", "/api/nodes/rename", {"level": "project", "project_path": "@alpha", "old_id": 123, "new_id": "new-name-here"}, {}, 400, "old_id: must be a string, not a number"),
    ("POST", "/api/progress", {"level": "project", "project_path": "@alpha", "task_id": "", "state": {}}, {}, 400, "task_id"),
    ("GET", "/api/search", None, {"q": "", "level": "user"}, 400, "query"),
    ("GET", "/api/search", None, {"q": "x" * (C.QUERY_MAX_CHARS + 1), "level": "user"}, 400, "query"),
    ("GET", "/api/search", None, {"q": "auth", "level": "user", "limit": "0"}, 400, "limit"),
]


@pytest.mark.parametrize(("method", "path", "body", "params", "status", "says"), BAD,
                         ids=[f"{m} {p} {s} {w}" for m, p, _, _, s, w in BAD])
def test_bad_input_gets_a_clear_4xx_and_changes_nothing(srv, http, method, path, body, params, status, says):
    fill = lambda v: alpha(srv) if v == "@alpha" else v  # noqa: E731
    params = {k: fill(v) for k, v in params.items()}
    if body is not None:
        body = {k: fill(v) for k, v in body.items()}
    before = http.get("/api/graph", params={"level": "project", "project_path": alpha(srv)}).json()
    r = http.request(method, path, params=params, json=body)
    assert r.status_code == status, r.text
    assert says in r.text
    assert http.get("/api/graph", params={"level": "project", "project_path": alpha(srv)}).json() == before


def test_malformed_and_oversize_bodies_are_refused(srv, http):
    r = http.post("/api/nodes", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = http.post("/api/nodes", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    big = json.dumps({"level": "user", "id": "too-big-body", "gist": "x" * (9 * 1024 * 1024)})
    r = http.post("/api/nodes", content=big.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert http.get("/api/nodes/user/too-big-body").status_code == 404


# -- the page and its gate ---------------------------------------------------------------


def test_the_page_and_its_libraries_are_served_locally_with_a_strict_policy(srv, http):
    r = http.get("/")
    assert r.status_code == 200 and "<title>Knowledge graph editor</title>" in r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-frame-options"] == "DENY"
    static = Path(__file__).resolve().parents[2] / "kg_actors" / "editor" / "static"
    for path in [p for p in static.rglob("*") if p.suffix in (".html", ".js", ".css")]:
        rel = path.relative_to(static).as_posix()
        served = http.get(f"/static/{rel}")
        assert served.status_code == 200, rel
        if "vendor" not in rel:
            assert "http://" not in served.text and "https://" not in served.text, rel
        assert served.content == path.read_bytes() and served.headers["x-content-type-options"] == "nosniff", rel
    # Served from memory with an ETag: a reload revalidates (no-cache) and gets 304 for an unchanged file.
    js = http.get("/static/js/app.js")
    assert js.headers["content-type"].startswith("text/javascript") and js.headers["cache-control"] == "no-cache"
    assert "default-src 'self'" in js.headers["content-security-policy"]
    again = http.get("/static/js/app.js", headers={"if-none-match": js.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert http.get("/static/js/no-such-file.js").status_code == 404


REFUSED = [
    ({"host": "evil.example:8766"}, 421),
    ({"origin": "http://evil.example"}, 403),
    ({"origin": "null"}, 403),
    ({"origin": "http://127.0.0.1:3000"}, 403),  # a page on another port of this machine
    ({"sec-fetch-site": "cross-site"}, 403),
    ({"sec-fetch-site": "same-site"}, 403),
]


@pytest.mark.parametrize(("headers", "status"), REFUSED, ids=[str(h) for h, _ in REFUSED])
@pytest.mark.parametrize("path", ["/", "/static/js/app.js", "/api/projects", "/api/graph?level=user"])
def test_the_gate_refuses_foreign_hosts_and_cross_site_requests(srv, http, headers, path, status):
    assert http.get(path, headers=headers).status_code == status


def test_a_cross_site_link_to_the_page_opens_it_but_not_the_api(srv, http):
    nav = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document"}
    assert http.get("/", headers=nav).status_code == 200
    assert http.get("/api/projects", headers=nav).status_code == 403
    form_post = {**nav, "origin": "http://evil.example", "content-type": "application/x-www-form-urlencoded"}
    assert http.post("/api/nodes", headers=form_post, content=b"id=x&gist=y").status_code == 403


async def test_a_foreign_websocket_is_refused(srv):
    with trio.fail_after(20):
        with pytest.raises(ConnectionRejected) as refused:
            async with open_websocket_url(f"ws://127.0.0.1:{srv.editor_port}/ws",
                                          extra_headers=[(b"origin", b"http://evil.example")]):
                pass
        assert refused.value.status_code == 403
        # A non-local Host gets the status an HTTP request gets (spec 003: 421), on both ports.
        for port in (srv.editor_port, srv.port):
            raw = await trio.open_tcp_stream("127.0.0.1", port)
            await raw.send_all(b"GET /ws HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
                               b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                               b"Sec-WebSocket-Version: 13\r\n\r\n")
            head = await raw.receive_some(4096)
            assert head.startswith(b"HTTP/1.1 421 "), head
            await raw.aclose()


async def test_a_websocket_from_another_local_origin_is_refused_and_from_the_page_s_own_let_in(srv):
    """A browser's handshake carries no Sec-Fetch-Site: the Origin decides. A page on another port of this
    machine (any local dev server) is another origin, whichever loopback name it uses; the editor's own
    page is the only one let in."""
    url = f"ws://127.0.0.1:{srv.editor_port}/ws"
    with trio.fail_after(20):
        for foreign in (b"http://localhost:3000", b"http://127.0.0.1:3000", b"https://127.0.0.1:%d" % srv.editor_port,
                        f"http://localhost:{srv.editor_port}".encode(), b"null"):
            with pytest.raises(ConnectionRejected):
                async with open_websocket_url(url, extra_headers=[(b"origin", foreign)]):
                    pass
        own = f"http://127.0.0.1:{srv.editor_port}".encode()
        async with open_websocket_url(url, extra_headers=[(b"origin", own)]) as ws:
            assert json.loads(await ws.get_message())["type"] == "connected"


async def test_the_feed_tells_a_tab_only_about_the_graph_it_watches(srv):
    with trio.fail_after(30):
        async with open_websocket_url(f"ws://127.0.0.1:{srv.editor_port}/ws") as ws:
            assert json.loads(await ws.get_message())["type"] == "connected"
            await ws.send_message(json.dumps({"type": "subscribe", "project_path": srv.paths["beta"]}))
            assert json.loads(await ws.get_message())["type"] == "subscribed"
            with client(srv) as http:
                await trio.to_thread.run_sync(lambda: put(http, srv, "alpha-only-change", "not for beta tabs",
                                                          create=True))
                body = {"level": "project", "project_path": srv.paths["beta"], "id": "beta-only-change",
                        "gist": "for beta tabs", "create": True}
                await trio.to_thread.run_sync(lambda: http.post("/api/nodes", json=body))
            event = json.loads(await ws.get_message())
            assert event["type"] == "node_updated" and event["node"]["id"] == "beta-only-change"
            assert event["project_path"] == srv.paths["beta"]
            # The same folder written another way hears the same graph (it was confirmed, and heard nothing).
            await ws.send_message(json.dumps({"type": "subscribe", "project_path": srv.paths["beta"] + "/"}))
            assert json.loads(await ws.get_message())["type"] == "subscribed"
            with client(srv) as http:
                body = {"level": "project", "project_path": srv.paths["beta"], "id": "beta-second-change",
                        "gist": "for beta tabs too", "create": True}
                await trio.to_thread.run_sync(lambda: http.post("/api/nodes", json=body))
            assert json.loads(await ws.get_message())["node"]["id"] == "beta-second-change"
            await ws.send_message(json.dumps({"type": "subscribe", "project_path": ["not", "a", "path"]}))
            refused = json.loads(await ws.get_message())
            assert refused["type"] == "error" and refused["field"] == "project_path"


async def test_an_agents_kg_progress_reaches_a_tab_of_its_project(srv):
    # Only the editor's own progress writes were published: an open Progress tab missed every agent's.
    with trio.fail_after(30):
        async with open_websocket_url(f"ws://127.0.0.1:{srv.editor_port}/ws") as ws:
            assert json.loads(await ws.get_message())["type"] == "connected"
            await ws.send_message(json.dumps({"type": "subscribe", "project_path": srv.paths["beta"]}))
            assert json.loads(await ws.get_message())["type"] == "subscribed"
            async with Client(srv.url + "/") as c:
                s = await Session.open(c, cwd=srv.paths["beta"])
                await s.ok("kg_progress", task_id="migrate-billing", state={"step": 3, "of": 7}, level="project")
            event = json.loads(await ws.get_message())
            assert event["type"] == "progress_updated" and event["task_id"] == "migrate-billing"
            assert event["project_path"] == srv.paths["beta"] and event["source_session"] == s.sid


async def test_a_binary_frame_is_ignored_and_the_socket_goes_on(srv):
    with trio.fail_after(30):
        async with open_websocket_url(f"ws://127.0.0.1:{srv.editor_port}/ws") as ws:
            assert json.loads(await ws.get_message())["type"] == "connected"
            await ws.send_message(b"\x00\x01 binary")  # once json.loads(None): a traceback and a 1011 close
            await ws.send_message("ping")
            assert json.loads(await ws.get_message())["type"] == "pong"


def test_no_editor_flag_serves_no_editor(server_factory):
    srv: ServerProcess = server_factory(args=("--no-editor",))
    with pytest.raises(httpx.ConnectError):
        httpx.get(editor_url(srv) + "/", timeout=2)
    assert httpx.get(f"{srv.url}/api/projects").status_code == 200


def test_a_non_editable_install_ships_every_file_the_page_needs(tmp_path):
    """`pip install .` builds this wheel: the page, its scripts and the vendored libraries must be in it."""
    repo = Path(__file__).resolve().parents[2]
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(repo)],
        capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("kg_actors-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    static = repo / "kg_actors" / "editor" / "static"
    wanted = {f"kg_actors/editor/static/{p.relative_to(static).as_posix()}" for p in static.rglob("*") if p.is_file()}
    assert wanted and wanted <= names, sorted(wanted - names)
    assert "kg_actors/editor/static/vendor/cytoscape.min.js" in names
