"""Spec 003's write-side tools over MCP Streamable HTTP, against a real `kg serve`.

One server for the module (starting one costs seconds); each test works in its
own project folder and on its own node ids, so tests do not see each other.
The store is seeded before start with archived, orphaned and long-id nodes and
with project graphs on disk that nothing has loaded yet.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request

from pathlib import Path

import pytest
from e2e_helpers import Session, call, edge_keys, graph, nodes_by_id, on_disk_graph, start_server
from mcp import Client

NOW = time.time()
OLD = NOW - 30 * 86_400
LONG_ID = "this-existing-id-has-far-too-many-words"  # 8 words, written before the rule


def _node(node_id: str, gist: str, **extra) -> dict:
    return {"id": node_id, "gist": gist, "_created_ts": OLD, **extra}


# Compaction brings the whole archive back while a level renders below 0.8 of its budget, and
# archives when it renders above the budget. The seeded archived and orphaned nodes must stay
# where they are until a test acts on them, so the user graph carries well-connected, endorsed
# active ballast that keeps the level between the two marks (with room for what the tests add).
BALLAST_LOW, BALLAST_HIGH = 18_400, 19_400


def _with_ballast(user: dict) -> dict:
    from kg_actors.core import compaction, render
    from kg_actors.core.constants import COMPACTION_TARGET_RATIO, MAX_CHARS_PER_LEVEL
    from kg_actors.core.model import GraphData

    assert BALLAST_LOW > COMPACTION_TARGET_RATIO * MAX_CHARS_PER_LEVEL and BALLAST_HIGH < MAX_CHARS_PER_LEVEL
    k = 0
    while render.charge(GraphData.from_json(user, "user")) < BALLAST_LOW:
        node_id = f"ballast-topic-{k:03d}"
        user["nodes"][node_id] = {
            "id": node_id, "gist": " ".join(f"b{k}w{j}" for j in range(60)),
            "_created_ts": NOW - 3 * 86_400, "_useful_ts": [NOW - 86_400 + i for i in range(3)],
            "_last_read_ts": NOW - 3600,
        }
        if k:
            prev = f"ballast-topic-{k - 1:03d}"
            user["edges"][f"{node_id}->{prev}:relates-to"] = {"from": node_id, "to": prev, "rel": "relates-to"}
        k += 1
    g = GraphData.from_json(user, "user")
    assert BALLAST_LOW <= render.charge(g) <= BALLAST_HIGH
    assert not compaction.compact(g, NOW).acted, "the seeded user graph must be stable under compaction"
    return user


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("tools")
    home = base / "home"
    unloaded = str(home / "unloaded-proj")
    capture = str(home / "capture-proj")
    user = {
        "nodes": {n["id"]: n for n in [
            _node("archived-lesson-node", "an archived lesson", _archived=True),
            _node("orphaned-lesson-node", "an orphaned lesson", _archived=True, _orphaned_ts=NOW - 86_400),
            _node("orphan-for-credit", "an orphan a maintenance pass props up", _archived=True,
                  _orphaned_ts=NOW - 86_400),
            _node("archived-maint-probe", "an archived node a maintenance read must not promote", _archived=True),
            _node(LONG_ID, "an id from before the word limit"),
            _node("shared-user-principle", "a principle several projects apply"),
            _node("capture-user-node", "a user node a project links to"),
        ]},
        "edges": {},
        "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}},
    }
    projects = {
        "unloaded-proj": {
            "nodes": {"unloaded-local-node": _node("unloaded-local-node", "a project node on disk only")},
            "edges": {"unloaded-local-node->shared-user-principle:applies": {
                "from": "unloaded-local-node", "to": "shared-user-principle", "rel": "applies"}},
            "_meta": {"versions": {}, "project_path": unloaded, "namespace": {"kind": "project", "owner": None}},
        },
        "capture-proj": {
            "nodes": {"captured-new-name": _node("captured-new-name", "a project node owning this id")},
            "edges": {"captured-new-name->capture-user-node:applies": {
                "from": "captured-new-name", "to": "capture-user-node", "rel": "applies"}},
            "_meta": {"versions": {}, "project_path": capture, "namespace": {"kind": "project", "owner": None}},
        },
    }
    for p in (unloaded, capture):
        (home / p.rsplit("/", 1)[1]).mkdir(parents=True, exist_ok=True)
    server = start_server(base, _with_ballast(user), projects)
    yield server
    server.kill()




def _user_node(srv, node_id: str, sid: str | None = None) -> dict | None:
    return nodes_by_id(graph(srv, session_id=sid)["user"]).get(node_id)


def _project_nodes(srv, sid: str) -> dict[str, dict]:
    return nodes_by_id(graph(srv, session_id=sid)["project"])


def _editor(srv, method: str, path: str, body: dict | None) -> dict:
    """A visual editor's request (unowned: no session), as its page sends it."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(srv.url + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


# kg_put_node ------------------------------------------------------------------------------

async def test_put_node_creates_a_node_read_back_in_full(srv, client):
    a = await Session.open(client, srv.project("create-proj"))
    text = await a.ok("kg_put_node", level="project", id="api-rate-limiting", gist="Redis sliding window; 429 has Retry-After",
                      notes=["window size from RATE_LIMIT_WINDOW"], touches=["src/middleware/rate_limit.py"])
    assert text.startswith("Node 'api-rate-limiting' saved to project graph")
    read = await a.ok("kg_read", id="api-rate-limiting")
    assert "▸ api-rate-limiting (project, active)" in read
    assert "gist: Redis sliding window; 429 has Retry-After" in read
    assert "- window size from RATE_LIMIT_WINDOW" in read
    assert "touches: src/middleware/rate_limit.py" in read
    stored = _project_nodes(srv, a.sid)["api-rate-limiting"]
    assert stored["notes"] == ["window size from RATE_LIMIT_WINDOW"]
    assert stored["_created_ts"] >= NOW - 5
    assert stored["_written"]["by"] == a.sid


async def test_a_not_written_reply_marks_gone_touches_as_a_node_read_does(srv, client):
    cwd = srv.project("gone-touch-proj")
    (Path(cwd) / "here.py").write_text("x = 1\n")
    a, b = await Session.open(client, cwd), await Session.open(client, cwd)
    await b.ok("kg_put_node", level="project", id="gone-touch-node", gist="g", touches=["here.py", "gone.py:3 (x)"])
    refused = await a.err("kg_put_node", level="project", id="gone-touch-node", gist="a's gist")
    assert refused.startswith("NOT WRITTEN"), refused
    read = await b.ok("kg_read", id="gone-touch-node")
    touches = [line for line in read.splitlines() if line.startswith("  touches: ")]
    assert touches == ["  touches: here.py · gone.py:3 (x) (gone)"], read
    assert touches[0] in refused.splitlines(), refused


async def test_gone_touches_copied_back_from_a_read_are_stored_as_they_were(srv, client):
    """A read marks a touch whose file is gone; an agent that copies the touches line back into its write
    keeps the touches as they were: the marks are the server's, cut before storing, and said to be cut."""
    cwd = srv.project("gone-copy-proj")
    (Path(cwd) / "here.py").write_text("x = 1\n")
    (Path(cwd) / "src").mkdir()
    (Path(cwd) / "src" / "util.py").write_text("y = 2\n")  # the one file of that name: where lib/util.py went
    a = await Session.open(client, cwd)
    written = ["here.py", "gone.py:3 (x)", "lib/util.py"]
    await a.ok("kg_put_node", level="project", id="gone-copy-node", gist="g", touches=written)
    read = await a.ok("kg_read", id="gone-copy-node")
    line = next(t for t in read.splitlines() if t.startswith("  touches: "))
    shown = line.split(": ", 1)[1].split(" · ")
    assert shown == ["here.py", "gone.py:3 (x) (gone)", "lib/util.py (gone; now at src/util.py)"], read
    saved = await a.ok("kg_put_node", level="project", id="gone-copy-node", gist="g2", touches=shown)
    assert "touches[1], touches[2]" in saved and "(gone)" in saved, saved
    assert _project_nodes(srv, a.sid)["gone-copy-node"]["touches"] == written
    again = await a.ok("kg_read", id="gone-copy-node")
    assert line in again.splitlines(), again


async def test_partial_update_keeps_omitted_fields(srv, client):
    a = await Session.open(client, srv.project("partial-proj"))
    await a.ok("kg_put_node", level="project", id="cache-invalidation-rule", gist="first gist",
               notes=["n1", "n2"], touches=["src/cache.py"])
    await a.ok("kg_put_node", level="project", id="cache-invalidation-rule", gist="second gist")
    stored = _project_nodes(srv, a.sid)["cache-invalidation-rule"]
    assert stored["gist"] == "second gist"
    assert stored["notes"] == ["n1", "n2"]
    assert stored["touches"] == ["src/cache.py"]


async def test_notes_and_touches_sent_replace_the_stored_lists(srv, client):
    a = await Session.open(client, srv.project("replace-proj"))
    await a.ok("kg_put_node", level="project", id="deploy-pipeline-order", gist="g",
               notes=["old note"], touches=["a.py", "b.py"])
    await a.ok("kg_read", id="deploy-pipeline-order")
    await a.ok("kg_put_node", level="project", id="deploy-pipeline-order", gist="g", touches=["c.py"])
    assert _project_nodes(srv, a.sid)["deploy-pipeline-order"]["touches"] == ["c.py"]
    # Replacing notes the session read in their current form is a valid write (spec 003 refuses
    # only a stale view and notes or touches never read).
    await a.ok("kg_put_node", level="project", id="deploy-pipeline-order", gist="g", notes=["new note"])
    assert _project_nodes(srv, a.sid)["deploy-pipeline-order"]["notes"] == ["new note"]


@pytest.mark.parametrize("bad_id, said", [
    ("has space-in-id", "Error: id: may hold only ASCII letters"),
    ("-leading-dash-id", "Error: id: may hold only ASCII letters, digits, '.', '_' and '-', and must start with a letter"),
    ("x" * 129, "Input validation error: id: has 129 characters; at most 128"),  # the schema advertises it
    ("path/like-node-id", "Error: id: must not contain a path separator"),
    ("back\\slash-node-id", "Error: id: must not contain a path separator"),
])
async def test_put_node_refuses_bad_ids_naming_the_field(srv, client, bad_id, said):
    a = await Session.open(client, srv.project("badid-proj"))
    text = await a.err("kg_put_node", level="project", id=bad_id, gist="g")
    assert text.startswith(said), text
    assert bad_id not in _project_nodes(srv, a.sid)


async def test_seven_word_id_refused_on_create_but_existing_long_id_stays_writable(srv, client):
    a = await Session.open(client, srv.project("words-proj"))
    text = await a.err("kg_put_node", level="project", id="one-two-three-four-five-six-seven", gist="g")
    assert "id:" in text and "7 words" in text
    assert "one-two-three-four-five-six-seven" not in _project_nodes(srv, a.sid)
    # A date counts as one word: five words plus a date is six, nudged, not refused.
    dated = await a.ok("kg_put_node", level="project", id="one-two-three-four-five-2026-09-14", gist="g")
    assert "id is 6 words" in dated
    text = await a.ok("kg_put_node", level="user", id=LONG_ID, gist="still writable")
    assert "saved to user graph" in text and "8 words" in text
    assert _user_node(srv, LONG_ID)["gist"] == "still writable"


async def test_six_words_or_a_date_draw_a_nudge(srv, client):
    a = await Session.open(client, srv.project("nudge-proj"))
    six = await a.ok("kg_put_node", level="project", id="one-two-three-four-five-six", gist="g")
    assert "saved" in six and "id is 6 words" in six and "kg_rename_node" in six
    dated = await a.ok("kg_put_node", level="project", id="release-notes-2026-09-14", gist="g")
    assert "carries a date" in dated
    five = await a.ok("kg_put_node", level="project", id="one-two-three-four-five", gist="g")
    assert "note:" not in five


async def test_gist_over_300_chars_is_saved_with_a_note(srv, client):
    a = await Session.open(client, srv.project("gist-proj"))
    gist = "word " * 70  # 350 characters
    text = await a.ok("kg_put_node", level="project", id="long-gist-node", gist=gist)
    assert "saved to project graph" in text
    assert f"gist is {len(gist)} chars" in text and "notes" in text
    assert _project_nodes(srv, a.sid)["long-gist-node"]["gist"] == gist


@pytest.mark.parametrize("node_id", ["archived-lesson-node", "orphaned-lesson-node"])
async def test_writing_an_archived_or_orphaned_node_makes_it_active(srv, client, node_id):
    before = _user_node(srv, node_id)
    assert before["_archived"] is True
    a = await Session.open(client, srv.project("promote-proj"))
    text = await a.ok("kg_put_node", level="user", id=node_id, gist="rewritten, back in use")
    assert "back in the active view" in text
    after = _user_node(srv, node_id)
    assert "_archived" not in after and "_orphaned_ts" not in after
    assert after["_created_ts"] == before["_created_ts"]


async def test_adding_a_note_to_another_sessions_lesson_credits_it_once(srv, client):
    cwd = srv.project("credit-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await a.ok("kg_put_node", level="project", id="flaky-test-lesson", gist="retry hides races", notes=["case 1"])
    await b.ok("kg_read", id="flaky-test-lesson")
    text = await b.ok("kg_put_node", level="project", id="flaky-test-lesson", gist="retry hides races",
                      notes=["case 1", "case 2"])
    assert "A case added to a lesson counts as your endorsement of it." in text
    assert len(_project_nodes(srv, a.sid)["flaky-test-lesson"]["_useful_ts"]) == 1
    again = await b.ok("kg_put_node", level="project", id="flaky-test-lesson", gist="retry hides races",
                       notes=["case 1", "case 2", "case 3"])
    assert "endorsement" not in again
    assert len(_project_nodes(srv, a.sid)["flaky-test-lesson"]["_useful_ts"]) == 1
    # The author adding to its own lesson earns nothing.
    await a.ok("kg_read", id="flaky-test-lesson")
    own = await a.ok("kg_put_node", level="project", id="flaky-test-lesson", gist="retry hides races",
                     notes=["case 1", "case 2", "case 3", "case 4"])
    assert "endorsement" not in own
    srv.logs_written()
    lines = [json.loads(x) for x in (srv.store / "useful.jsonl").read_text().splitlines()]
    notes = [r for r in lines if r["id"] == "flaky-test-lesson" and r["via"] == "note"]
    assert len(notes) == 1 and notes[0]["kg_session"] == b.sid


# kg_put_edge ------------------------------------------------------------------------------

async def test_put_edge_accepts_ids_and_file_paths_and_checks_its_fields(srv, client):
    a = await Session.open(client, srv.project("edge-proj"))
    await a.ok("kg_put_node", level="project", id="auth-token-refresh", gist="g")
    text = await a.ok("kg_put_edge", level="project", frm="auth-token-refresh", to="src/config.yaml",
                      rel="reads-config", notes=["JWT secret"])
    assert text == "Edge auth-token-refresh->src/config.yaml:reads-config saved to project graph"
    await a.ok("kg_put_edge", level="project", frm="auth-token-refresh", to="~/notes/auth.md", rel="related-to")
    stored = graph(srv, session_id=a.sid)["project"]
    assert {("auth-token-refresh", "src/config.yaml", "reads-config"),
            ("auth-token-refresh", "~/notes/auth.md", "related-to")} <= edge_keys(stored)
    read = await a.ok("kg_read", id="auth-token-refresh")
    assert "auth-token-refresh --reads-config--> src/config.yaml\n      - JWT secret\n" in read  # its notes under it
    for args, said in [
        (dict(frm="has space", to="x-y-z", rel="r"), "Error: from:"),
        (dict(frm="x-y-z", to="bad|char", rel="r"), "Error: to:"),
        (dict(frm="x-y-z", to="a-b-c", rel="depends on"), "Error: rel:"),
        (dict(frm="x-y-z", to="a-b-c", rel="r" * 65), "Input validation error: rel: has 65 characters; at most 64"),
        (dict(frm="x" * 257, to="a-b-c", rel="r"), "Input validation error: from: has 257 characters; at most 256"),
    ]:
        refused = await a.err("kg_put_edge", level="project", **args)
        assert refused.startswith(said), refused
    assert len(graph(srv, session_id=a.sid)["project"]["edges"]) == 2


async def test_instance_of_from_a_newer_case_credits_the_older_lesson(srv, client):
    a = await Session.open(client, srv.project("repeat-proj"))
    await a.ok("kg_put_node", level="project", id="lesson-retry-backoff", gist="backoff with jitter")
    await a.ok("kg_put_node", level="project", id="case-retry-storm", gist="a retry storm in the api")
    text = await a.ok("kg_put_edge", level="project", frm="case-retry-storm", to="lesson-retry-backoff",
                      rel="instance-of")
    assert "'lesson-retry-backoff' credited" in text
    nodes = _project_nodes(srv, a.sid)
    assert nodes["lesson-retry-backoff"]["_useful_ts"] == [nodes["case-retry-storm"]["_created_ts"]]
    # Idempotent: the same edge again credits nothing more.
    await a.ok("kg_put_edge", level="project", frm="case-retry-storm", to="lesson-retry-backoff", rel="instance-of")
    assert len(_project_nodes(srv, a.sid)["lesson-retry-backoff"]["_useful_ts"]) == 1
    # A lift (older case to a newer lesson) earns nothing.
    lift = await a.ok("kg_put_edge", level="project", frm="lesson-retry-backoff", to="case-retry-storm",
                      rel="instance-of")
    assert "credited" not in lift
    assert "_useful_ts" not in _project_nodes(srv, a.sid)["case-retry-storm"]


async def test_instance_of_from_a_project_case_credits_a_user_lesson(srv, client):
    a = await Session.open(client, srv.project("repeat-cross-proj"))
    await a.ok("kg_put_node", level="user", id="user-lesson-timeouts", gist="every call needs a timeout")
    await a.ok("kg_put_node", level="project", id="case-hung-worker", gist="a worker hung on a socket")
    text = await a.ok("kg_put_edge", level="project", frm="case-hung-worker", to="user-lesson-timeouts",
                      rel="instance-of")
    assert "'user-lesson-timeouts' credited" in text
    g = graph(srv, session_id=a.sid)
    case = nodes_by_id(g["project"])["case-hung-worker"]
    assert nodes_by_id(g["user"])["user-lesson-timeouts"]["_useful_ts"] == [case["_created_ts"]]


# kg_delete_node / kg_delete_edge --------------------------------------------------------------

async def test_delete_node_looks_in_the_user_graph_first_then_the_project(srv, client):
    a = await Session.open(client, srv.project("delete-proj"))
    await a.ok("kg_put_node", level="user", id="same-id-both-levels", gist="user one")
    await a.ok("kg_put_node", level="project", id="same-id-both-levels", gist="project one")
    await a.ok("kg_put_node", level="project", id="delete-neighbour-node", gist="n")
    await a.ok("kg_put_edge", level="project", frm="delete-neighbour-node", to="same-id-both-levels", rel="uses")
    first = await a.ok("kg_delete_node", id="same-id-both-levels")
    assert first == "Deleted node 'same-id-both-levels' and 0 connected edges from user graph"
    g = graph(srv, session_id=a.sid)
    assert "same-id-both-levels" not in nodes_by_id(g["user"])
    assert "same-id-both-levels" in nodes_by_id(g["project"])
    second = await a.ok("kg_delete_node", id="same-id-both-levels")
    assert second == "Deleted node 'same-id-both-levels' and 1 connected edges from project graph"
    g = graph(srv, session_id=a.sid)
    assert "same-id-both-levels" not in nodes_by_id(g["project"])
    assert not edge_keys(g["project"])
    third = await a.err("kg_delete_node", id="same-id-both-levels")
    assert third.startswith("Error:") and "not found" in third


async def test_delete_edge_needs_an_exact_match_and_looks_user_first(srv, client):
    a = await Session.open(client, srv.project("delete-edge-proj"))
    for lvl in ("user", "project"):
        await a.ok("kg_put_edge", level=lvl, frm="src/app.py", to="src/db.py", rel="imports")
    text = await a.ok("kg_delete_edge", frm="src/app.py", to="src/db.py", rel="imports")
    assert text == "Edge deleted: src/app.py->src/db.py:imports (user graph)"
    g = graph(srv, session_id=a.sid)
    assert ("src/app.py", "src/db.py", "imports") not in edge_keys(g["user"])
    assert ("src/app.py", "src/db.py", "imports") in edge_keys(g["project"])
    missing = await a.ok("kg_delete_edge", frm="src/app.py", to="src/db.py", rel="calls")
    assert missing == "Edge not found: src/app.py->src/db.py:calls"
    text = await a.ok("kg_delete_edge", frm="src/app.py", to="src/db.py", rel="imports")
    assert text.endswith("(project graph)")
    assert ("src/app.py", "src/db.py", "imports") not in edge_keys(graph(srv, session_id=a.sid)["project"])


# kg_rename_node ---------------------------------------------------------------------------------

async def test_rename_carries_edges_in_every_graph_including_one_not_loaded(srv, client):
    unloaded_file = srv.store / "projects" / "unloaded-proj" / "graph.json"
    assert "project:unloaded-proj" not in srv.health()["loaded_graphs"]
    a = await Session.open(client, srv.project("rename-proj"))
    await a.ok("kg_put_node", level="user", id="user-side-node", gist="u")
    await a.ok("kg_put_edge", level="user", frm="user-side-node", to="shared-user-principle", rel="refines")
    await a.ok("kg_put_node", level="project", id="project-side-node", gist="p")
    await a.ok("kg_put_edge", level="project", frm="project-side-node", to="shared-user-principle", rel="applies")
    before = _user_node(srv, "shared-user-principle")
    text = await a.ok("kg_rename_node", old_id="shared-user-principle", new_id="shared-user-tenet")
    assert text.startswith("Renamed 'shared-user-principle' -> 'shared-user-tenet' in user graph; 3 edge ref(s)")
    g = graph(srv, session_id=a.sid)
    assert "shared-user-principle" not in nodes_by_id(g["user"])
    renamed = nodes_by_id(g["user"])["shared-user-tenet"]
    assert renamed["_created_ts"] == before["_created_ts"]
    assert ("user-side-node", "shared-user-tenet", "refines") in edge_keys(g["user"])
    assert ("project-side-node", "shared-user-tenet", "applies") in edge_keys(g["project"])
    # The project graph nobody had loaded is rewritten on disk too.
    disk = on_disk_graph(unloaded_file)
    assert "unloaded-local-node->shared-user-tenet:applies" in disk["edges"]
    assert "unloaded-local-node->shared-user-principle:applies" not in disk["edges"]


async def test_rename_refusals(srv, client):
    a = await Session.open(client, srv.project("rename-refuse-proj"))
    await a.ok("kg_put_node", level="project", id="rename-source-node", gist="s")
    await a.ok("kg_put_node", level="project", id="rename-taken-node", gist="t")
    taken = await a.err("kg_rename_node", old_id="rename-source-node", new_id="rename-taken-node")
    assert "already exists" in taken
    long = await a.err("kg_rename_node", old_id="rename-source-node", new_id="one-two-three-four-five-six-seven")
    assert "new_id" in long and "7 words" in long
    same = await a.err("kg_rename_node", old_id="rename-source-node", new_id="rename-source-node")
    assert "unchanged" in same
    sep = await a.err("kg_rename_node", old_id="rename-source-node", new_id="a/b-c")
    assert "new_id" in sep and "path separator" in sep
    assert {"rename-source-node", "rename-taken-node"} <= set(_project_nodes(srv, a.sid))


async def test_a_write_under_an_id_another_session_renamed_is_refused_with_the_renamed_node(srv, client):
    a = await Session.open(client, srv.project("rename-stale-proj"))
    b = await Session.open(client, srv.project("rename-stale-proj"))
    c = await Session.open(client, srv.project("rename-stale-proj"))
    await a.ok("kg_put_node", level="project", id="stale-refresh-window", gist="JWT refresh uses a sliding window")
    await b.ok("kg_read", ids=["stale-refresh-window"])
    await a.ok("kg_rename_node", old_id="stale-refresh-window", new_id="jwt-refresh-window")
    text = await b.err("kg_put_node", level="project", id="stale-refresh-window", gist="JWT refresh: a 10 min window")
    assert text.startswith("NOT WRITTEN"), text
    assert "'stale-refresh-window' was renamed to 'jwt-refresh-window'" in text, text
    assert "▸ jwt-refresh-window" in text and "JWT refresh uses a sliding window" in text  # the lesson as it stands
    assert "stale-refresh-window" not in _project_nodes(srv, a.sid)  # no second node
    # The refusal showed the renamed node: a merge into it goes through, notes and all.
    await b.ok("kg_put_node", level="project", id="jwt-refresh-window", gist="JWT refresh: a 10 min sliding window",
               notes=["seen in the auth service"], touches=[])
    # ... and so does the same write again: a node under the old id, beside the renamed one, is meant now.
    await b.ok("kg_put_node", level="project", id="stale-refresh-window", gist="JWT refresh: a 10 min window")
    nodes = _project_nodes(srv, a.sid)
    assert nodes["jwt-refresh-window"]["notes"] == ["seen in the auth service"]
    assert nodes["stale-refresh-window"]["gist"] == "JWT refresh: a 10 min window"
    # The renaming session knows where its lesson went: a node under the old id is its own choice.
    await a.ok("kg_rename_node", old_id="jwt-refresh-window", new_id="jwt-refresh-sliding-window")
    await a.ok("kg_put_node", level="project", id="jwt-refresh-window", gist="a new lesson")
    # A session that never saw the node (opened before it was made) creates one under its old id freely.
    await a.ok("kg_rename_node", old_id="jwt-refresh-window", new_id="jwt-refresh-new-lesson")
    await c.ok("kg_put_node", level="project", id="jwt-refresh-window", gist="a third lesson")


async def test_a_write_under_a_user_id_the_editor_renamed_is_refused_with_the_renamed_node(srv, client):
    a = await Session.open(client, srv.project("rename-editor-proj"))
    await a.ok("kg_put_node", level="user", id="editor-renamed-principle", gist="prefer small commits")
    _editor(srv, "POST", "/api/nodes/rename",
            {"level": "user", "old_id": "editor-renamed-principle", "new_id": "small-commits-principle"})
    text = await a.err("kg_put_node", level="user", id="editor-renamed-principle", gist="prefer small, focused commits")
    assert text.startswith("NOT WRITTEN") and "to 'small-commits-principle'" in text, text
    assert _user_node(srv, "editor-renamed-principle") is None
    await a.ok("kg_put_node", level="user", id="editor-renamed-principle", gist="prefer small, focused commits")
    assert _user_node(srv, "small-commits-principle")["gist"] == "prefer small commits"


async def test_a_write_to_a_node_another_session_deleted_after_this_one_saw_it_is_refused(srv, client):
    a = await Session.open(client, srv.project("delete-stale-proj"))
    b = await Session.open(client, srv.project("delete-stale-proj"))
    await a.ok("kg_put_node", level="project", id="deploy-freeze-window-rule", gist="no deploys on Fridays")
    await b.ok("kg_read", ids=["deploy-freeze-window-rule"])
    await b.ok("kg_delete_node", id="deploy-freeze-window-rule")
    text = await a.err("kg_put_node", level="project", id="deploy-freeze-window-rule", gist="no deploys after 3 pm Fri")
    assert text.startswith("NOT WRITTEN"), text
    assert "'deploy-freeze-window-rule' was deleted after this session last saw it" in text, text
    assert "deploy-freeze-window-rule" not in _project_nodes(srv, a.sid)
    # The refusal is the session's view of the deletion: the same write again makes the node anew.
    await a.ok("kg_put_node", level="project", id="deploy-freeze-window-rule", gist="no deploys after 3 pm Fri")
    assert _project_nodes(srv, a.sid)["deploy-freeze-window-rule"]["gist"] == "no deploys after 3 pm Fri"
    fresh = await a.ok("kg_put_node", level="project", id="deploy-freeze-brand-new", gist="a lesson never seen before")
    assert "deleted" not in fresh
    # A session's own delete is no news to it: writing the id again makes the node at once.
    await b.ok("kg_put_node", level="project", id="deploy-freeze-own-rule", gist="freeze on release day")
    await b.ok("kg_delete_node", id="deploy-freeze-own-rule")
    await b.ok("kg_put_node", level="project", id="deploy-freeze-own-rule", gist="freeze on release day, 2 pm")


async def test_a_write_to_a_user_node_the_editor_deleted_after_this_session_saw_it_is_refused(srv, client):
    a = await Session.open(client, srv.project("delete-editor-proj"))
    await a.ok("kg_put_node", level="user", id="editor-deleted-principle", gist="name tests for behaviour")
    _editor(srv, "DELETE", "/api/nodes/user/editor-deleted-principle", None)
    text = await a.err("kg_put_node", level="user", id="editor-deleted-principle", gist="name tests for what they show")
    assert text.startswith("NOT WRITTEN") and "was deleted after this session last saw it" in text, text
    assert _user_node(srv, "editor-deleted-principle") is None
    await a.ok("kg_put_node", level="user", id="editor-deleted-principle", gist="name tests for what they show")
    assert _user_node(srv, "editor-deleted-principle")["gist"] == "name tests for what they show"


async def test_rename_refused_when_an_edge_would_reach_a_different_node(srv, client):
    a = await Session.open(client, srv.project("capture-check-proj"))
    # User rename: capture-proj (on disk) links to capture-user-node and owns a node 'captured-new-name'.
    text = await a.err("kg_rename_node", old_id="capture-user-node", new_id="captured-new-name")
    # Named by its folder, as the project rename's refusal names the project (it named the store's folder name).
    assert f"edges of project {srv.home / 'capture-proj'}, which owns" in text and "choose another id" in text, text
    assert _user_node(srv, "capture-user-node") is not None
    # Project rename: this project's edges reach the user node 'capture-user-node'.
    await a.ok("kg_put_node", level="project", id="local-capture-node", gist="l")
    await a.ok("kg_put_edge", level="project", frm="local-capture-node", to="capture-user-node", rel="applies")
    await a.ok("kg_put_node", level="project", id="another-local-node", gist="o")
    text = await a.err("kg_rename_node", old_id="another-local-node", new_id="capture-user-node")
    assert "capture-user-node" in text and "choose another id" in text
    assert "another-local-node" in _project_nodes(srv, a.sid)


# kg_useful ------------------------------------------------------------------------------------

async def test_useful_guidance_cap_and_one_vote_per_node(srv, client):
    a = await Session.open(client, srv.project("useful-proj"))
    ids = [f"useful-node-{w}" for w in "abcdefghijkl"]
    for i in ids:
        await a.ok("kg_put_node", level="project", id=i, gist="g")
    text = await a.ok("kg_useful", ids=ids[:5])
    assert text.startswith("Marked useful: " + ", ".join(ids[:5]))
    assert "5 vote(s) left before the hard cap of 10 this session (guidance: about 5)." in text
    text = await a.ok("kg_useful", ids=[ids[5], ids[0]])
    assert f"Skipped {ids[0]}: already liked this session" in text
    assert "4 vote(s) left before the hard cap of 10 this session; 1 past the guidance of 5" in text
    text = await a.ok("kg_useful", ids=ids[6:] + ["no-such-node-here"])
    assert f"Marked useful: {', '.join(ids[6:10])}" in text
    assert f"Skipped {ids[10]}: hard cap reached" in text and f"Skipped {ids[11]}: hard cap reached" in text
    assert "Skipped no-such-node-here: not found" in text
    nodes = _project_nodes(srv, a.sid)
    assert all(len(nodes[i]["_useful_ts"]) == 1 for i in ids[:10])
    assert all("_useful_ts" not in nodes[i] for i in ids[10:])
    # An endorsement is not a content write.
    assert all(nodes[i]["_written"]["ts"] < nodes[i]["_useful_ts"][0] for i in ids[:10])
    srv.logs_written()
    lines = [json.loads(x) for x in (srv.store / "useful.jsonl").read_text().splitlines()]
    mine = [r for r in lines if r["kg_session"] == a.sid]
    assert len([r for r in mine if "refused" not in r]) == 10
    assert {r["id"] for r in mine if "refused" in r} == {ids[0], ids[10], ids[11], "no-such-node-here"}
    assert all(r["via"] == "write" for r in mine if r["id"] in ids[1:10] and "refused" not in r)
    assert "Skipped '': not found" in await a.ok("kg_useful", ids=[""])  # not a bare "Skipped :"


async def test_credits_are_refused_in_a_working_session(srv, client):
    a = await Session.open(client, srv.project("credit-refuse-proj"))
    await a.ok("kg_put_node", level="project", id="credit-probe-node", gist="g")
    text = await a.ok("kg_useful", ids=["credit-probe-node"], credits=2)
    assert "Skipped credit-probe-node: credits are for a maintenance pass" in text
    assert "_useful_ts" not in _project_nodes(srv, a.sid)["credit-probe-node"]


async def test_maintenance_session_credits_after_progress_maintain(srv, client):
    a = await Session.open(client, srv.project("maint-proj"))
    ids = [f"maint-node-{w}" for w in "abcdef"]
    for i in ids:
        await a.ok("kg_put_node", level="project", id=i, gist="g")
    m = await Session.open(client, srv.project("maint-proj"))
    await m.ok("kg_progress", task_id="maintain")  # a read of task 'maintain' flags the pass
    text = await m.ok("kg_useful", ids=[ids[0]], credits=2)
    assert text.startswith(f"Credited (2 each): {ids[0]}")
    assert "13 credit(s) left this pass." in text
    node = _project_nodes(srv, m.sid)[ids[0]]
    assert len(node["_useful_ts"]) == 2 and len(node["_credited_ts"]) == 1
    read = await m.ok("kg_read", id=ids[0])
    assert "maintenance credits: 1" in read
    # A node is credited once in a pass: a second call naming it again is refused, and costs nothing.
    again = await m.ok("kg_useful", ids=[ids[0]], credits=1)
    assert f"Skipped {ids[0]}: already credited this pass" in again and "13 credit(s) left this pass." in again
    assert len(_project_nodes(srv, m.sid)[ids[0]]["_credited_ts"]) == 1
    text = await m.ok("kg_useful", ids=ids[1:5], credits=3)
    assert "1 credit(s) left this pass." in text
    text = await m.ok("kg_useful", ids=[ids[5]], credits=3)
    assert f"Skipped {ids[5]}: pass total reached" in text
    orphan = await m.ok("kg_useful", ids=["orphan-for-credit"], credits=1)
    assert "'orphan-for-credit' was orphaned; the credit returns it to the archive." in orphan
    node = _user_node(srv, "orphan-for-credit")
    # Out of the orphaned tier (compaction may go on to promote the freshly credited node).
    assert "_orphaned_ts" not in node, node
    srv.logs_written()
    lines = [json.loads(x) for x in (srv.store / "useful.jsonl").read_text().splitlines()]
    mine = [r for r in lines if r["kg_session"] == m.sid]
    assert [r["credits"] for r in mine if "refused" not in r] == [2, 3, 3, 3, 3, 1]
    assert all(r["via"] == "maintenance" for r in mine if "refused" not in r)


async def test_a_maintenance_sessions_reads_do_not_promote(srv, client):
    m = await Session.open(client, srv.project("maint-read-proj"))
    await m.ok("kg_progress", task_id="maintain", state={"phase": "scan"})
    read = await m.ok("kg_read", id="archived-maint-probe")
    assert "(user, archived)" in read
    node = _user_node(srv, "archived-maint-probe")
    assert node["_archived"] is True and "_last_read_ts" not in node


async def test_search_flags_an_archived_node_among_further_matches(srv, client):
    a = await Session.open(client, srv.project("search-flag-proj"))
    for c in "abcde":
        await a.ok("kg_put_node", level="project", id=f"maintenance-promote-case-{c}",
                   gist="maintenance read promote: maintenance must not promote")
        # Terms every node of a graph holds weigh nothing: the graph needs other subjects too.
        await a.ok("kg_put_node", level="project", id=f"unrelated-filler-topic-{c}", gist=f"filler {c}")
    text = await a.ok("kg_search", query="maintenance promote case")
    assert "MORE MATCHES:\n" in text, text
    more = text.split("MORE MATCHES:\n", 1)[1]
    # The seeded user nodes below active ones rank among the further matches, flagged.
    assert re.search(r"^  (archived-maint-probe|orphan-for-credit) \[(archived|orphaned)\]: ", more, re.M), more


# kg_progress ------------------------------------------------------------------------------------

async def test_progress_write_read_trail_and_server_clock(srv, client):
    a = await Session.open(client, srv.project("progress-proj"))
    assert (await a.ok("kg_progress", task_id="scout")) == "No progress found for task 'scout'"
    t0 = time.time()
    text = await a.ok("kg_progress", task_id="scout", state={"sessions_reviewed": ["abc"], "last_ts": 5})
    assert text == "Progress saved for task 'scout'"
    read = await a.ok("kg_progress", task_id="scout")
    stored = json.loads(read.split("\n", 1)[1])
    assert stored["sessions_reviewed"] == ["abc"]
    assert stored["last_ts"] != 5 and abs(stored["last_ts"] - t0) < 60
    assert len(stored["_trail"]) == 1
    for i in range(22):
        await a.ok("kg_progress", task_id="scout", state={"step": i})
    stored = json.loads((await a.ok("kg_progress", task_id="scout")).split("\n", 1)[1])
    assert stored["step"] == 21 and "sessions_reviewed" not in stored
    assert len(stored["_trail"]) == 20
    assert [e["step"] for e in stored["_trail"]] == list(range(2, 22))
    # Level project stores it in the project graph, apart from the user graph's.
    await a.ok("kg_progress", task_id="scout", state={"where": "project"}, level="project")
    proj = json.loads((await a.ok("kg_progress", task_id="scout", level="project")).split("\n", 1)[1])
    assert proj["where"] == "project" and len(proj["_trail"]) == 1
    user = json.loads((await a.ok("kg_progress", task_id="scout")).split("\n", 1)[1])
    assert user["step"] == 21


# kg_sync ----------------------------------------------------------------------------------------

async def test_sync_lists_other_sessions_changes_once_and_not_our_own(srv, client):
    cwd = srv.project("sync-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    assert await b.ok("kg_sync") == "No updates from other sessions"
    long_gist = "a" * 90 + "BBBBBBBBBB" + "C" * 50
    await a.ok("kg_put_node", level="project", id="sync-written-node", gist=long_gist)
    await a.ok("kg_put_edge", level="project", frm="sync-written-node", to="src/sync.py", rel="lives-in")
    await b.ok("kg_put_node", level="project", id="sync-own-node", gist="mine")
    text = await b.ok("kg_sync")
    assert text.startswith("Updates from other sessions:")
    assert f"node sync-written-node: {long_gist[:99]}…" in text  # a cut says so
    assert "C" not in text.split("sync-written-node: ", 1)[1].split("\n", 1)[0]
    assert "edge sync-written-node --lives-in--> src/sync.py" in text
    assert "sync-own-node" not in text
    assert await b.ok("kg_sync") == "No updates from other sessions"


async def test_a_gist_rewrite_over_a_gist_seen_only_cut_short_is_refused_for_that_reason(srv, client):
    cwd = srv.project("sync-cut-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    long_gist = "Sync cut lesson: " + "alpha beta gamma delta " * 6 + "THE CAVEAT AT THE END"
    await a.ok("kg_put_node", level="project", id="sync-cut-node", gist=long_gist)
    assert "sync-cut-node" in await b.ok("kg_sync")  # the gist cut at 100 characters
    text = await b.err("kg_put_node", level="project", id="sync-cut-node", gist="rewritten by b")
    assert text.startswith("NOT WRITTEN — this session has seen its gist only cut short (…), never whole")
    assert f"gist: {long_gist}" in text  # shown whole now: the retry goes through
    assert (await b.ok("kg_put_node", level="project", id="sync-cut-node", gist="b's merged gist")).startswith(
        "Node 'sync-cut-node' saved")
    c = await Session.open(client, cwd)
    await a.ok("kg_put_node", level="project", id="never-shown-node", gist="written after c read")
    text = await c.err("kg_put_node", level="project", id="never-shown-node", gist="c's gist")
    assert text.startswith("NOT WRITTEN — this session has not been shown it yet (it was last written by another")


# Sessions ---------------------------------------------------------------------------------------

async def test_read_without_cwd_opens_a_user_only_session_that_can_attach_later(srv, client):
    a = await Session.open(client)
    assert "User-only session" in a.first_text
    assert f"kg_read(session_id='{a.sid}', cwd='<project root>')" in a.first_text
    refused = await a.err("kg_put_node", level="project", id="attach-probe-node", gist="g")
    assert "no project" in refused
    cwd = srv.project("attach-proj")
    text = await a.ok("kg_read", cwd=cwd)
    assert f"Project memory attached: {cwd}." in text
    await a.ok("kg_put_node", level="project", id="attach-probe-node", gist="g")
    assert graph(srv, session_id=a.sid)["project"]["project_path"] == cwd


async def test_a_bound_session_keeps_its_project(srv, client):
    home_proj, other = srv.project("bound-proj"), srv.project("bound-other-proj")
    a = await Session.open(client, home_proj)
    text = await a.ok("kg_read", cwd=other)
    assert f"stays bound to {home_proj}" in text and f"cwd {other} is ignored" in text
    # Named as passed (here through a symlink in home), and the project it resolves to beside it.
    link = srv.home / "bound-link"
    link.symlink_to(other)
    text = await a.ok("kg_read", cwd=f"{link}/")
    assert f"cwd {link}/ is ignored (the project {other})" in text, text
    await a.ok("kg_put_node", level="project", id="bound-probe-node", gist="g")
    assert "bound-probe-node" in nodes_by_id(graph(srv, project_path=home_proj)["project"])
    # The other folder never got a graph: nothing was written there (and a read of it stores none).
    with pytest.raises(urllib.error.HTTPError) as missing:
        graph(srv, project_path=other)
    assert missing.value.code == 404


async def test_unknown_session_id_without_cwd_is_an_error(srv, client):
    text, err = await Session(client, "0badc0de")("kg_read")
    assert err and text.startswith("Error: session_id '0badc0de' is unknown")
    # With cwd it opens a new session and says so.
    text, err = await Session(client, "0badc0de")("kg_read", cwd=srv.project("unknown-sid-proj"))
    assert not err and "is unknown" in text and "opened a new session" in text


async def test_cwd_outside_home_is_an_error_naming_cwd(srv, client):
    text, err = await call(client, "kg_read", {"cwd": "/etc"})
    assert err and "cwd" in text and "/etc" in text and "outside the user's home" in text
    # Each folder no project can be in names the way to the user memory alone (what a hook opens for it).
    for cwd, why in (("/etc", "outside the user's home"), ("/", "outside the user's home"),
                     ("relative/x", "must be an absolute path"), (str(srv.home / "no-such-folder"), "does not exist")):
        text, err = await call(client, "kg_read", {"cwd": cwd})
        assert err and why in text and "kg_read without cwd opens the user memory only" in text, text
    # A session bound to a project ignores a relative cwd too, with the note, as any cwd outside it.
    a = await Session.open(client, srv.project("relative-bound-proj"))
    text = await a.ok("kg_read", cwd="relative/x")
    assert "cwd relative/x is ignored (it must be an absolute path)" in text, text


# Optimistic arbitration and pushes -------------------------------------------------------------------

async def test_a_write_built_on_a_stale_view_is_refused_then_the_retry_goes_through(srv, client):
    cwd = srv.project("conflict-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await a.ok("kg_put_node", level="project", id="contested-node-id", gist="A's first gist")
    await b.ok("kg_read", id="contested-node-id")
    await b.ok("kg_put_node", level="project", id="contested-node-id", gist="B's better gist")
    text = await a.err("kg_put_node", level="project", id="contested-node-id", gist="A's second gist")
    assert text.startswith("NOT WRITTEN — changed by another session after this session last saw it")
    assert "▸ contested-node-id" in text and "gist: B's better gist" in text
    assert _project_nodes(srv, a.sid)["contested-node-id"]["gist"] == "B's better gist"
    retry = await a.ok("kg_put_node", level="project", id="contested-node-id", gist="A's merged gist")
    assert retry.startswith("Node 'contested-node-id' saved")
    assert _project_nodes(srv, a.sid)["contested-node-id"]["gist"] == "A's merged gist"


async def test_a_write_replacing_notes_never_read_is_refused(srv, client):
    cwd = srv.project("partial-view-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await b.ok("kg_put_node", level="project", id="notes-owner-node", gist="g", notes=["b's case"])
    full = await a.ok("kg_read")  # shows the gist, not the notes
    assert "notes-owner-node: g" in full
    text = await a.err("kg_put_node", level="project", id="notes-owner-node", gist="g", notes=["a's case"])
    assert text.startswith("NOT WRITTEN — this write replaces notes this session has not read")
    assert "- b's case" in text
    assert _project_nodes(srv, a.sid)["notes-owner-node"]["notes"] == ["b's case"]
    # The refusal showed the node in full: a merged write goes through.
    await a.ok("kg_put_node", level="project", id="notes-owner-node", gist="g", notes=["b's case", "a's case"])
    assert _project_nodes(srv, a.sid)["notes-owner-node"]["notes"] == ["b's case", "a's case"]


async def test_another_sessions_new_gist_is_pushed_once(srv, client):
    cwd = srv.project("push-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await b.ok("kg_put_node", level="project", id="pushed-fresh-node", gist="B learned this the hard way")
    first = await a.ok("kg_put_node", level="project", id="push-probe-one", gist="g")
    assert "While you worked, other sessions wrote to this memory:" in first
    assert "- pushed-fresh-node (new): B learned this the hard way" in first
    second = await a.ok("kg_put_node", level="project", id="push-probe-two", gist="g")
    assert "pushed-fresh-node" not in second
    # B is told about A's writes; its own never come back to it.
    to_b = await b.ok("kg_put_node", level="project", id="push-probe-three", gist="g")
    assert "push-probe-one" in to_b and "pushed-fresh-node" not in to_b


async def test_a_gist_read_since_it_was_written_is_not_pushed(srv, client):
    cwd = srv.project("push-read-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await b.ok("kg_put_node", level="project", id="pushed-then-read", gist="B wrote it, A read it")
    await b.ok("kg_put_node", level="project", id="pushed-not-read", gist="B wrote it, A did not read it")
    assert "B wrote it, A read it" in await a.ok("kg_read", ids=["pushed-then-read"])
    text = await a.ok("kg_put_node", level="project", id="push-read-probe", gist="g")
    assert "- pushed-not-read (new)" in text
    assert "pushed-then-read" not in text


async def test_more_than_three_pushed_gists_point_to_sync(srv, client):
    cwd = srv.project("push-many-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    for w in ("one", "two", "three", "four", "five"):
        await b.ok("kg_put_node", level="project", id=f"pushed-many-{w}", gist=f"gist {w}")
    text = await a.ok("kg_put_node", level="project", id="push-many-probe", gist="g")
    assert text.count("pushed-many-") == 3
    assert "+2 more — kg_sync(session_id) lists them." in text
    # kg_sync still lists all five: a push is not a sync.
    sync = await a.ok("kg_sync")
    assert all(f"node pushed-many-{w}" in sync for w in ("one", "two", "three", "four", "five"))


# More rules of spec 003 -----------------------------------------------------------------------------

async def test_delete_node_never_reaches_the_maintain_graph(srv, client):
    a = await Session.open(client, srv.project("delete-maint-proj"))
    await a.ok("kg_put_node", level="maintain", id="maintain-only-node", gist="the maintainer's own note")
    text = await a.err("kg_delete_node", id="maintain-only-node")
    assert "not found" in text
    read = await a.ok("kg_read", id="maintain-only-node", level="maintain")
    assert "▸ maintain-only-node (maintain, active)" in read


async def test_rename_keeps_the_node_seen_under_its_new_id(srv, client):
    cwd = srv.project("rename-seen-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await a.ok("kg_put_node", level="project", id="seen-before-rename", gist="A wrote this")
    await b.ok("kg_read", id="seen-before-rename")
    await a.ok("kg_rename_node", old_id="seen-before-rename", new_id="seen-after-rename")
    # B saw the node before the rename: its write under the new id is not stale.
    await b.ok("kg_put_node", level="project", id="seen-after-rename", gist="B refined this")
    # A maintain node is found only when its level is named.
    await a.ok("kg_put_node", level="maintain", id="maintain-rename-node", gist="m")
    assert "not found" in await a.err("kg_rename_node", old_id="maintain-rename-node", new_id="maintain-renamed-node")
    text = await a.ok("kg_rename_node", old_id="maintain-rename-node", new_id="maintain-renamed-node", level="maintain")
    assert "in maintain graph" in text


async def test_read_with_maintenance_true_flags_a_maintenance_pass(srv, client):
    a = await Session.open(client, srv.project("maint-flag-proj"))
    await a.ok("kg_put_node", level="project", id="maint-flag-node", gist="g")
    m = await Session.open(client, srv.project("maint-flag-proj"), maintenance=True)
    text = await m.ok("kg_useful", ids=["maint-flag-node"], credits=1)
    assert text.startswith("Credited (1 each): maint-flag-node")
    c = await Session.open(client, srv.project("maint-flag-proj"))
    await c.ok("kg_progress", task_id="chore", state={"did": "nothing"})
    assert (await c.ok("kg_useful", ids=["maint-flag-node"], credits=1)).startswith("Credited")


@pytest.mark.parametrize("where", ["home", "outside-home", "missing"])
async def test_a_bound_session_ignores_any_cwd_outside_its_project_with_a_note(srv, client, tmp_path, where):
    """Spec 003: a cwd outside the bound project is ignored, with a note. Home said nothing, and a folder outside
    home (or one that is gone) refused the read: the session's own project is what a read serves."""
    proj = srv.project(f"bound-{where}-proj")
    a = await Session.open(client, proj)
    await a.ok("kg_put_node", level="project", id="bound-keeps-node", gist="the bound project's node")
    cwd = {"home": str(srv.home), "outside-home": str(tmp_path), "missing": str(srv.home / "gone-folder")}[where]
    text = await a.ok("kg_read", cwd=cwd)
    assert f"This session stays bound to {proj}; cwd {cwd} is ignored" in text, text
    assert "bound-keeps-node" in text  # the read served the bound project
    await a.ok("kg_put_node", level="project", id="bound-still-node", gist="g")
    assert {"bound-keeps-node", "bound-still-node"} <= set(nodes_by_id(graph(srv, project_path=proj)["project"]))
    if where != "home":  # why it could not have been a project: said once, in the note
        assert ("outside the user's home" if where == "outside-home" else "does not exist") in text, text


async def test_a_cwd_inside_the_bound_project_draws_no_note(srv, client):
    cwd = srv.project("bound-sub-proj")
    a = await Session.open(client, cwd)
    sub = srv.project("bound-sub-proj/src/pkg")
    text = await a.ok("kg_read", cwd=sub)
    assert "stays bound" not in text


async def test_creating_a_near_duplicate_names_the_existing_node(srv, client):
    a = await Session.open(client, srv.project("hint-proj"))
    topics = ["docker-network-bridge", "postgres-vacuum-schedule", "nginx-upstream-timeouts", "redis-eviction-policy",
              "kafka-consumer-lag", "terraform-state-locking", "grpc-deadline-propagation", "celery-task-retries",
              "s3-multipart-uploads", "jwt-clock-skew", "webpack-chunk-splitting"]
    for t in topics:
        await a.ok("kg_put_node", level="project", id=t, gist=f"how {t.replace('-', ' ')} works in this project")
    text = await a.ok("kg_put_node", level="project", id="redis-eviction-policies",
                      gist="how redis eviction policy works in this project")
    assert "Similar existing node: 'redis-eviction-policy'" in text


async def test_a_user_rename_names_a_project_graph_it_could_not_read(tmp_path):
    home = tmp_path / "home"
    torn_root = home / "torn-proj"
    torn_root.mkdir(parents=True)
    user = {"nodes": {"docker-host-networking": _node("docker-host-networking", "host networking on Linux only")},
            "edges": {}, "_meta": {"versions": {}}}
    torn = {"nodes": {"torn-deploy-step": _node("torn-deploy-step", "d")},
            "edges": {"torn-deploy-step->docker-host-networking:applies": {
                "from": "torn-deploy-step", "to": "docker-host-networking", "rel": "applies"}},
            "_meta": {"versions": {}, "project_path": str(torn_root), "namespace": {"kind": "project", "owner": None}}}

    def tear(srv):
        path = srv.store / "projects" / "torn-proj" / "graph.json"
        path.write_bytes(path.read_bytes()[:40])

    srv = start_server(tmp_path, user, {"torn-proj": torn}, before_start=tear)
    try:
        async with Client(srv.url + "/") as c:
            a = await Session.open(c, srv.project("rename-reader-proj"))
            text = await a.ok("kg_rename_node", old_id="docker-host-networking", new_id="docker-host-network-mode")
        assert "NOT rewired in project:torn-proj (its file could not be read" in text, text
        assert "project:torn-proj" in srv.health()["graphs_in_trouble"]
    finally:
        srv.kill()


async def test_a_user_rename_names_a_project_graph_served_from_its_previous_save(tmp_path):
    """Spec 003: a project graph on disk the rename cannot rewrite is named. One whose file did not read is
    loaded from graph.prev (rewired), the unreadable file set aside; what that file holds is not rewired."""
    home = tmp_path / "home"
    root = home / "prev-proj"
    root.mkdir(parents=True)
    user = {"nodes": {"log-format-rule": _node("log-format-rule", "JSON lines with a request id")},
            "edges": {}, "_meta": {"versions": {}}}
    saved = {"nodes": {"release-steps-node": _node("release-steps-node", "d")},
             "edges": {"release-steps-node->log-format-rule:applies": {
                 "from": "release-steps-node", "to": "log-format-rule", "rel": "applies"}},
             "_meta": {"versions": {}, "project_path": str(root), "namespace": {"kind": "project", "owner": None}}}

    def tear(srv):
        folder = srv.store / "projects" / "prev-proj"
        (folder / "graph.prev").write_bytes((folder / "graph.json").read_bytes())
        (folder / "graph.json").write_text('{"nodes": {"release-steps-node": {"id": "release-')

    srv = start_server(tmp_path, user, {"prev-proj": saved}, before_start=tear)
    try:
        async with Client(srv.url + "/") as c:
            a = await Session.open(c, srv.project("rename-elsewhere-proj"))
            text = await a.ok("kg_rename_node", old_id="log-format-rule", new_id="structured-log-rule")
        assert "1 edge ref(s) rewired" in text, text  # the previous save's edge
        aside = srv.store / "projects" / "prev-proj" / "graph.json.unreadable"
        assert aside.exists()
        assert "Partly rewired in project:prev-proj (its file could not be read" in text, text
        assert str(aside) in text and "check that graph by hand" in text, text
        edges = edge_keys(graph(srv, project_path=str(root))["project"])
        assert edges == {("release-steps-node", "structured-log-rule", "applies")}
    finally:
        srv.kill()
