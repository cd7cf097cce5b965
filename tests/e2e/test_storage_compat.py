"""A store written by the reference (kg-memory 0.17 format) loads and saves without loss.

The format: a `nodes` map with underscore metadata fields, `edges` keyed
"from->to:rel", `_meta` with versions, progress, project_path and namespace.
Fields this server does not know ride along untouched. Edges whose bare-id
endpoint names no node go on load; file endpoints and project->user edges stay.
"""

from __future__ import annotations

import copy
import json
import time

import pytest
from e2e_helpers import Session, edge_keys, graph, kg, nodes_by_id, on_disk_graph, start_server
from mcp import Client

T = time.time() - 10 * 86_400


def _ref_user() -> dict:
    return {
        "nodes": {
            "ref-user-principle": {
                "id": "ref-user-principle", "gist": "every network call gets a timeout",
                "notes": ["case: a hung worker", "case: a stuck deploy"], "touches": ["~/dotfiles/.curlrc:1-4 (max-time)"],
                "_created_ts": T - 86_400, "_useful_ts": [T, T + 10], "_credited_ts": [T + 5], "_gist_ts": [T - 86_400],
                "_written": {"ts": T, "by": "abcd1234", "author": "ef567890"}, "_recurrence_ts": [T + 10],
                "_last_read_ts": T + 20, "_custom_future_field": {"x": [1, 2]}, "color": "blue",
            },
            "ref-archived-node": {"id": "ref-archived-node", "gist": "an archived lesson", "_created_ts": T,
                                  "_archived": True, "_written": {"ts": T, "by": None}},
            "ref-orphaned-node": {"id": "ref-orphaned-node", "gist": "an orphan", "_created_ts": T,
                                  "_archived": True, "_orphaned_ts": T + 30},
        },
        "edges": {
            "ref-user-principle->ref-archived-node:related-to": {
                "from": "ref-user-principle", "to": "ref-archived-node", "rel": "related-to",
                "notes": ["they share a cause"], "_weight": 0.5, "since": "2026-01"},
            "ref-user-principle->~/dotfiles/.curlrc:configured-by": {
                "from": "ref-user-principle", "to": "~/dotfiles/.curlrc", "rel": "configured-by"},
            "ref-user-principle->ghost-user-node:depends-on": {
                "from": "ref-user-principle", "to": "ghost-user-node", "rel": "depends-on"},
        },
        "_meta": {
            "versions": {"node:ref-user-principle": {"v": 3, "ts": T, "session": "abcd1234"},
                         "node:deleted-long-ago": {"v": 1, "ts": T - 99, "session": None},
                         "node:ref-archived-node": {"v": 2, "ts": T, "session": "ef567890", "used_ts": T - 50}},
            "progress": {"scout": {"sessions_reviewed": ["abc"], "last_ts": T,
                                   "_trail": [{"_ts": T, "sessions_reviewed": ["abc"]}]}},
            "namespace": {"kind": "user", "owner": None},
            "_future_meta": {"k": 1},
        },
    }


def _ref_project(root: str, prefix: str = "webapp") -> dict:
    a, b = f"{prefix}-auth-flow", f"{prefix}-db-layer"
    return {
        "nodes": {
            a: {"id": a, "gist": "sessions refresh on 401", "notes": ["n"], "_created_ts": T, "_useful_ts": [T],
                "_written": {"ts": T, "by": "abcd1234"}, "owner_team": "platform"},
            b: {"id": b, "gist": "all queries go through the repository layer", "_created_ts": T, "_archived": True},
        },
        "edges": {
            f"{a}->{b}:depends-on": {"from": a, "to": b, "rel": "depends-on", "notes": ["via session store"]},
            f"{a}->ref-user-principle:applies": {"from": a, "to": "ref-user-principle", "rel": "applies"},
            f"{a}->src/auth.py:implemented-in": {"from": a, "to": "src/auth.py", "rel": "implemented-in",
                                                 "extra_edge_field": True},
            f"{b}->~/notes/db.md:documented-in": {"from": b, "to": "~/notes/db.md", "rel": "documented-in"},
            f"{b}->vanished-node:calls": {"from": b, "to": "vanished-node", "rel": "calls"},
            f"vanished-caller->{b}:calls": {"from": "vanished-caller", "to": b, "rel": "calls"},
        },
        "_meta": {
            "versions": {f"node:{a}": {"v": 1, "ts": T, "session": "abcd1234"}},
            "progress": {"extract": {"done": 3, "last_ts": T, "_trail": []}},
            "project_path": root,
            "namespace": {"kind": "project", "owner": None},
        },
    }


TIER_FLAGS = ("_archived", "_orphaned_ts")


def _content(node: dict) -> dict:
    return {k: v for k, v in node.items() if k not in TIER_FLAGS}


DANGLING_PROJECT = {("webapp-db-layer", "vanished-node", "calls"), ("vanished-caller", "webapp-db-layer", "calls")}
DANGLING_USER = {("ref-user-principle", "ghost-user-node", "depends-on")}


def _seeded(base, home_projects: dict[str, str]) -> tuple[dict, dict]:
    """The reference user graph, and project graphs at projects/<slug>/graph.json for the given roots."""
    user = _ref_user()
    projects = {}
    for slug, rel in home_projects.items():
        root = base / "home" / rel
        root.mkdir(parents=True, exist_ok=True)
        projects[slug] = _ref_project(str(root), prefix="webapp" if slug == "webapp" else slug)
    return user, projects


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("compat")
    user, projects = _seeded(base, {"webapp": "code/webapp", "src": "a/src", "reload-proj": "reload-proj"})
    server = start_server(base, user, projects)
    yield server
    server.kill()




async def test_unknown_and_underscore_fields_survive_a_write_and_a_clean_stop(tmp_path):
    user, projects = _seeded(tmp_path, {"webapp": "code/webapp"})
    original_user, original_project = copy.deepcopy(user), copy.deepcopy(projects["webapp"])
    srv = start_server(tmp_path, user, projects)
    try:
        async with Client(srv.url + "/") as c:
            a = await Session.open(c, str(tmp_path / "home" / "code" / "webapp"))
            await a.ok("kg_put_node", level="project", id="webapp-new-node", gist="written by the new server")
            await a.ok("kg_put_node", level="user", id="ref-new-user-node", gist="so is this")
            await a.ok("kg_progress", task_id="scout", state={"sessions_reviewed": ["abc", "def"]})
        assert srv.stop() == 0
    finally:
        srv.kill()
    saved_user = json.loads((srv.store / "user.json").read_text())
    saved_project = json.loads((srv.store / "projects" / "webapp" / "graph.json").read_text())

    for original, saved, dangling in ((original_user, saved_user, DANGLING_USER),
                                      (original_project, saved_project, DANGLING_PROJECT)):
        for node_id, node in original["nodes"].items():
            # The tier flags belong to compaction, which may promote an archived node of a small graph.
            assert _content(saved["nodes"][node_id]) == _content(node), f"node {node_id} changed on a round trip"
        for key, edge in original["edges"].items():
            if (edge["from"], edge["to"], edge["rel"]) in dangling:
                assert key not in saved["edges"], f"dangling edge {key} was kept"
            else:
                assert saved["edges"][key] == edge, f"edge {key} changed on a round trip"
        for vkey, entry in original["_meta"]["versions"].items():
            assert saved["_meta"]["versions"][vkey] == entry
        assert saved["_meta"]["namespace"] == original["_meta"]["namespace"]
    assert saved_user["nodes"]["ref-orphaned-node"]["_orphaned_ts"] == original_user["nodes"]["ref-orphaned-node"][
        "_orphaned_ts"], "an orphan stays orphaned until it is read, credited or pruned"
    assert saved_user["_meta"]["_future_meta"] == {"k": 1}
    assert saved_project["_meta"]["project_path"] == original_project["_meta"]["project_path"]
    assert saved_project["_meta"]["progress"] == original_project["_meta"]["progress"]
    scout = saved_user["_meta"]["progress"]["scout"]
    assert scout["sessions_reviewed"] == ["abc", "def"]
    assert scout["_trail"][0] == original_user["_meta"]["progress"]["scout"]["_trail"][0] and len(scout["_trail"]) == 2
    assert "webapp-new-node" in saved_project["nodes"] and "ref-new-user-node" in saved_user["nodes"]
    assert saved_project["edges"].keys() == {k for k, e in original_project["edges"].items()
                                             if (e["from"], e["to"], e["rel"]) not in DANGLING_PROJECT}


async def test_dangling_bare_id_edges_go_on_load_files_and_user_endpoints_stay(srv, client):
    cwd = str(srv.home / "code" / "webapp")
    a = await Session.open(client, cwd)
    g = graph(srv, session_id=a.sid)
    project_edges, user_edges = edge_keys(g["project"]), edge_keys(g["user"])
    assert not project_edges & DANGLING_PROJECT and not user_edges & DANGLING_USER
    assert {("webapp-auth-flow", "webapp-db-layer", "depends-on"),
            ("webapp-auth-flow", "ref-user-principle", "applies"),
            ("webapp-auth-flow", "src/auth.py", "implemented-in"),
            ("webapp-db-layer", "~/notes/db.md", "documented-in")} == project_edges
    assert {("ref-user-principle", "ref-archived-node", "related-to"),
            ("ref-user-principle", "~/dotfiles/.curlrc", "configured-by")} <= user_edges
    read = await a.ok("kg_read", id="webapp-auth-flow")
    assert "webapp-auth-flow --applies--> ref-user-principle" in read


async def test_a_reference_graph_whose_project_path_matches_is_adopted(srv, client):
    a = await Session.open(client, str(srv.home / "code" / "webapp"))
    assert "webapp-auth-flow: sessions refresh on 401" in a.first_text
    assert graph(srv, session_id=a.sid)["project"]["project_path"] == str(srv.home / "code" / "webapp")
    # Another folder with the same name is another project: it does not get this graph.
    b = await Session.open(client, srv.project("elsewhere/webapp"))
    assert "webapp-auth-flow" not in b.first_text
    assert not graph(srv, session_id=b.sid)["project"]["nodes"]


async def test_two_projects_whose_folders_share_a_name_get_separate_graphs(srv, client):
    a_root, b_root = str(srv.home / "a" / "src"), srv.project("b/src")
    a = await Session.open(client, a_root)
    b = await Session.open(client, b_root)
    assert "src-auth-flow" in a.first_text and "src-auth-flow" not in b.first_text
    await a.ok("kg_put_node", level="project", id="same-named-node", gist="from a/src")
    await b.ok("kg_put_node", level="project", id="same-named-node", gist="from b/src")
    assert nodes_by_id(graph(srv, project_path=a_root)["project"])["same-named-node"]["gist"] == "from a/src"
    assert nodes_by_id(graph(srv, project_path=b_root)["project"])["same-named-node"]["gist"] == "from b/src"
    folders = {}
    for d in (srv.store / "projects").iterdir():
        if d.name.startswith("src"):
            disk = on_disk_graph(d / "graph.json")
            folders[disk["_meta"].get("project_path")] = (d.name, disk["nodes"]["same-named-node"]["gist"])
    assert folders[a_root] == ("src", "from a/src"), "the reference's folder stays with its recorded project"
    assert folders[b_root][1] == "from b/src" and folders[b_root][0] != "src"


async def test_reload_true_rereads_the_graph_from_disk(srv, client):
    root = str(srv.home / "reload-proj")
    graph_file = srv.store / "projects" / "reload-proj" / "graph.json"
    before = nodes_by_id(graph(srv, project_path=root)["project"])
    assert before["reload-proj-auth-flow"]["gist"] == "sessions refresh on 401"
    edited = json.loads(graph_file.read_text())
    edited["nodes"]["reload-proj-auth-flow"]["gist"] = "edited by hand on disk"
    edited["nodes"]["restored-by-hand-node"] = {"id": "restored-by-hand-node", "gist": "from a .prev restore"}
    graph_file.write_text(json.dumps(edited))
    cached = nodes_by_id(graph(srv, project_path=root)["project"])
    assert cached["reload-proj-auth-flow"]["gist"] == "sessions refresh on 401"
    reloaded = nodes_by_id(graph(srv, project_path=root, reload=True)["project"])
    assert reloaded["reload-proj-auth-flow"]["gist"] == "edited by hand on disk"
    assert "restored-by-hand-node" in reloaded
    # The reloaded graph serves sessions too.
    a = await Session.open(client, root)
    assert "restored-by-hand-node" in await a.ok("kg_read", id="restored-by-hand-node")


async def test_an_id_no_write_would_take_from_a_hand_edited_file_can_be_renamed_and_deleted(tmp_path):
    long_id, spaced = "a" * 200, "two words"
    user = {"nodes": {i: {"id": i, "gist": f"gist of {i[:10]}"} for i in (long_id, spaced)}, "edges": {},
            "_meta": {"versions": {}}}
    srv = start_server(tmp_path, user=user)
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            assert "Renamed" in await s.ok("kg_rename_node", old_id=long_id, new_id="a-shorter-id")
            await s.ok("kg_delete_node", id=spaced)
        assert set(nodes_by_id(graph(srv)["user"])) == {"a-shorter-id"}
    finally:
        srv.stop()


async def test_kg_memory_folders_named_by_the_project_s_own_name_are_that_project_s_graph(tmp_path):
    """0.17 names a project's folder by its folder's name as it is: a space, an accent, over 64 characters."""
    names = {"my project": "spaced", "Café": "accented", "a-project-name-" + "x" * 60: "long"}
    user = _ref_user()
    projects = {}
    for name, prefix in names.items():
        (tmp_path / "home" / "code" / name).mkdir(parents=True)
        projects[name] = _ref_project(str(tmp_path / "home" / "code" / name), prefix=prefix)
    srv = start_server(tmp_path, user, projects)
    try:
        async with Client(srv.url + "/") as c:
            for name, prefix in names.items():
                s = await Session.open(c, str(srv.home / "code" / name))
                assert f"{prefix}-auth-flow: sessions refresh on 401" in s.first_text, (name, s.first_text)
                await s.ok("kg_put_node", level="project", id=f"{prefix}-new-lesson", gist="written by us")
            # A project new to the store keeps our own rule for its folder's name.
            s = await Session.open(c, srv.project("code/new project"))
            await s.ok("kg_put_node", level="project", id="brand-new-lesson", gist="a new project's first lesson")
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert sorted(p.name for p in (srv.store / "projects").iterdir()) == sorted([*names, "new-project"])
    for name, prefix in names.items():
        saved = json.loads((srv.store / "projects" / name / "graph.json").read_text())
        assert {f"{prefix}-auth-flow", f"{prefix}-new-lesson"} <= saved["nodes"].keys()


async def test_a_kg_memory_folder_hidden_behind_ours_for_the_same_project_is_merged_in_then_trashed(tmp_path):
    root = tmp_path / "home" / "code" / "my project"
    root.mkdir(parents=True)
    theirs, ours = _ref_project(str(root), prefix="shared"), _ref_project(str(root), prefix="shared")
    auth = "shared-auth-flow"
    theirs["nodes"][auth].update(gist="0.17's older lesson", _written={"ts": T, "by": "abcd1234"})
    theirs["nodes"]["only-in-theirs"] = {"id": "only-in-theirs", "gist": "learnt under kg-memory", "_created_ts": T}
    ours["nodes"][auth].update(gist="our newer lesson", _written={"ts": T + 3600, "by": "ef567890"})
    ours["nodes"]["only-in-ours"] = {"id": "only-in-ours", "gist": "learnt under an earlier kg", "_created_ts": T}
    srv = start_server(tmp_path, _ref_user(), {"my project": theirs, "my-project": ours})
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, str(root))
            assert "only-in-theirs" in s.first_text and "only-in-ours" in s.first_text, s.first_text
            read = await s.ok("kg_read", id=auth)
            assert "our newer lesson" in read and "IN TWO GRAPH FOLDERS" in read, read
            assert "0.17's older lesson" in read and "in projects/my project" in read, read
        assert not (srv.store / "projects" / "my project").exists()
        trashed = [p for p in (srv.store / "trash").iterdir() if p.name.startswith("my project-")]
        assert len(trashed) == 1 and (trashed[0] / "graph.json").exists()
        # Journaled before that folder moved: a kill now loses none of it.
        srv.kill()
        srv.start()
        nodes = nodes_by_id(graph(srv, project_path=str(root))["project"])
        assert {"only-in-theirs", "only-in-ours"} <= nodes.keys() and nodes[auth]["gist"] == "our newer lesson"
        assert [o["gist"] for o in nodes[auth]["_conflicts"]] == ["0.17's older lesson"]
    finally:
        srv.kill()


async def test_a_damaged_kg_memory_folder_behind_ours_is_named_not_loaded_by_the_log_and_doctor_and_kept(tmp_path):
    """Its graph file cut short: it cannot be merged in, and it is not served either (ours is). It said
    nothing in the log, and doctor called it "served empty"."""
    root = tmp_path / "home" / "code" / "my project"
    root.mkdir(parents=True)
    ours = _ref_project(str(root), prefix="shared")
    srv = start_server(tmp_path, _ref_user(), {"my-project": ours},
                       before_start=lambda s: _cut_twin(s.store / "projects" / "my project", str(root)))
    twin = srv.store / "projects" / "my project" / "graph.json"
    cut = twin.read_bytes()
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, str(root))
            assert "shared-auth-flow" in s.first_text  # ours is served
        srv.logs_written()
        log = srv.log.read_text()
        assert str(twin) in log and "not loaded" in log and "my project" in log, log[-3000:]
        env = dict(srv.env)
        doctor = kg(["doctor"], env)
        line = next((ln for ln in doctor.stdout.splitlines() if "graph project:my project" in ln), "")
        assert "served empty" not in doctor.stdout, doctor.stdout
        assert str(twin) in line and "not loaded" in line and "projects/my-project" in line, doctor.stdout
        assert f"put a good copy back at {twin}" in doctor.stdout, doctor.stdout
    finally:
        srv.kill()
    assert twin.read_bytes() == cut  # nothing on disk changed
    assert not (srv.store / "trash").exists() or not any((srv.store / "trash").iterdir())


def _cut_twin(folder, root: str) -> None:
    folder.mkdir(parents=True)
    whole = json.dumps(_ref_project(root, prefix="older")).encode()
    (folder / "graph.json").write_bytes(whole[: len(whole) // 2])
