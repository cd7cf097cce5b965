"""The graph kept in git as small files: migration from a store that tracked its graph files, the merge of
changed buckets, and the graph file rebuilt after it. Real git, stores and a bare remote in tmp_path, the
offline commands in-process (no server: `kg sync` with no server runs exactly these).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from kg_actors.storage import git as G
from kg_actors.storage import git_read, mirror, shards
from kg_actors.storage.layout import Layout
from kg_actors.sync import history, offline

T = 1_780_000_000.0
OLD_IGNORE = "*.tmp\n*.prev\n*.journal\n*.lock\nlock\nserver.pid\n*.log\n*.jsonl\nsessions.json\nconfig.json\n"


@pytest.fixture(autouse=True)
def _git_identity(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    for key, value in {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
                       "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x.invalid", "GIT_COMMITTER_NAME": "t",
                       "GIT_COMMITTER_EMAIL": "t@x.invalid", "KG_MACHINE": "machine-t"}.items():
        monkeypatch.setenv(key, value)


def git(root: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"git {args}: {proc.stderr}"
    return proc.stdout


def _node(node_id: str, gist: str, ts: float = T) -> dict:
    return {"id": node_id, "gist": gist, "_created_ts": T, "_written": {"ts": ts, "by": "s"}}


def _graph(n: int = 40) -> dict:
    nodes = {f"lesson-{i:03d}": _node(f"lesson-{i:03d}", f"gist {i}") for i in range(n)}
    edges = {f"lesson-{i:03d}->lesson-{i + 1:03d}:related-to": {"from": f"lesson-{i:03d}", "to": f"lesson-{i + 1:03d}",
                                                              "rel": "related-to"} for i in range(n - 1)}
    return {"nodes": nodes, "edges": edges,
            "_meta": {"versions": {f"node:{k}": {"v": 1, "ts": T, "session": None} for k in nodes},
                      "namespace": {"kind": "user", "owner": None}}}


def _save(path: Path, graph: dict) -> None:
    """As the server saves a graph file: indented, written aside and renamed over the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(graph, indent=2, ensure_ascii=False))
    os.replace(tmp, path)


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _old_layout_store(root: Path, user: dict, project: dict | None = None) -> None:
    """A repository as kg kept it before the mirror (and as a hand-made one of kg-memory 0.17 files):
    the graph files themselves tracked."""
    _save(root / "user.json", user)
    if project is not None:
        _save(root / "projects" / "web-app" / "graph.json", project)
    git(root, "init", "-q", "-b", "main")
    (root / ".gitignore").write_text(OLD_IGNORE)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "kg: first commit")


def test_a_store_that_tracked_its_graph_files_moves_to_the_mirror_on_its_next_commit(tmp_path):
    root = tmp_path / "store"
    user, project = _graph(), _graph(5)
    _old_layout_store(root, user, project)
    old = git(root, "rev-parse", "HEAD").strip()
    user["nodes"]["lesson-003"]["gist"] = "rewritten after the upgrade"
    _save(root / "user.json", user)
    before = (root / "user.json").read_bytes()
    out = offline.commit(root, T)
    assert out["committed"]
    tracked = set(git(root, "ls-files").split())
    assert not {"user.json", "projects/web-app/graph.json"} & tracked  # out of git, still on disk, unchanged
    assert (root / "user.json").read_bytes() == before
    assert {"shards/user/meta.json", f"shards/user/{shards.bucket('lesson-003')}",
            "shards/projects/web-app/meta.json"} <= tracked
    assert "/projects/*/graph.json" in (root / ".gitignore").read_text()
    assert "/shards/**/*.json merge=kg-graph" in (root / ".gitattributes").read_text()
    assert git_read.graph_at(root, "HEAD", "user") == json.loads(before)
    assert git_read.graph_at(root, old, "user")["nodes"]["lesson-003"]["gist"] == "gist 3"  # the old layout reads
    assert git(root, "status", "--porcelain").strip() == ""
    # The node's history spans both layouts.
    versions = history.node_history(Layout(root), "user", "lesson-003", 10)
    assert [v["node"]["gist"] for v in versions] == ["rewritten after the upgrade", "gist 3"]
    # Restore from the old layout's commit works too.
    restored = offline.restore(root, "user", old, time.time())
    assert restored["changed"] == ["lesson-003"]
    assert _load(root / "user.json")["nodes"]["lesson-003"]["gist"] == "gist 3"


def test_an_unchanged_graph_file_is_not_read_and_a_changed_one_rewrites_only_its_buckets(tmp_path):
    root = tmp_path / "store"
    user = _graph(200)
    _save(root / "user.json", user)
    offline.ensure_repository(root, T)
    assert offline.commit(root, T)["committed"] is False
    user["nodes"]["lesson-007"]["gist"] = "one node changed"
    del user["nodes"]["lesson-009"]
    _save(root / "user.json", user)
    written = mirror.update(root)
    assert sorted(written) == sorted({f"shards/user/{shards.bucket(i)}" for i in ("lesson-007", "lesson-009")})
    # Edited in place (an editor, a script): still seen, compared with the copy kg kept.
    text = (root / "user.json").read_text()
    (root / "user.json").write_text(text.replace("gist 11\"", "gist eleven\""))
    assert mirror.update(root) == [f"shards/user/{shards.bucket('lesson-011')}"]
    assert shards.join(shards.read_folder(root, "user"))["nodes"] == _load(root / "user.json")["nodes"]
    # Another writer's format (compact, progress added): parsed instead, the same buckets come out.
    user = _load(root / "user.json")
    user["nodes"]["lesson-012"]["gist"] = "written compact"
    user["_meta"]["progress"] = {"task-a": {"last_ts": T, "_trail": []}}
    (root / "user.json").write_text(json.dumps(user))
    assert sorted(mirror.update(root)) == sorted([f"shards/user/{shards.bucket('lesson-012')}", "shards/user/meta.json"])
    assert shards.join(shards.read_folder(root, "user")) == shards.join(shards.split(user))
    # A bucket file deleted by hand, then a node of it changed: the folder is written whole, nothing lost.
    (root / shards.folder("user") / shards.bucket("lesson-013")).unlink()
    user["nodes"]["lesson-013"]["gist"] = "its bucket was gone"
    _save(root / "user.json", user)
    mirror.update(root)
    assert shards.join(shards.read_folder(root, "user")) == shards.join(shards.split(user))


def test_a_graph_file_gone_keeps_its_graph_in_git_and_restore_brings_it_back(tmp_path):
    root = tmp_path / "store"
    _save(root / "user.json", _graph(5))
    offline.ensure_repository(root, T)
    (root / "user.json").unlink()  # lost by hand, or by an older kg's git merge
    offline.commit(root, T + 1)
    assert set(git_read.graph_at(root, "HEAD", "user")["nodes"]) == {f"lesson-{i:03d}" for i in range(5)}
    assert offline.restore(root, "user", "HEAD", time.time())["added"] == [f"lesson-{i:03d}" for i in range(5)]
    assert _load(root / "user.json")["nodes"] == _graph(5)["nodes"]


def _two_machines(tmp_path: Path, user: dict) -> tuple[Path, Path, Path]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, timeout=60)
    a, b = tmp_path / "a", tmp_path / "b"
    _save(a / "user.json", user)
    offline.sync(a, str(remote), T)
    offline.sync(b, str(remote), T)  # not a repository yet: made one, the remote's memory taken in
    return remote, a, b


def test_changed_buckets_merge_per_node_and_the_graph_file_is_rebuilt(tmp_path):
    remote, a, b = _two_machines(tmp_path, _graph())
    assert _load(b / "user.json") == _load(a / "user.json")
    base = _load(a / "user.json")
    theirs, ours = copy.deepcopy(base), copy.deepcopy(base)
    theirs["nodes"]["lesson-001"]["gist"] = "a's edit"
    theirs["nodes"]["lesson-005"] = _node("lesson-005", "a's later rewrite", T + 50)
    del theirs["nodes"]["lesson-030"]  # a deletes a node...
    theirs["edges"] = {k: e for k, e in theirs["edges"].items() if "lesson-030" not in k}
    theirs["_meta"]["progress"] = {"task-a": {"last_ts": T + 5, "_trail": []}}
    ours["nodes"]["lesson-002"]["gist"] = "b's edit"
    ours["nodes"]["lesson-005"] = _node("lesson-005", "b's earlier rewrite", T + 20)
    ours["nodes"]["lesson-b-new"] = _node("lesson-b-new", "b's new lesson")
    ours["edges"]["lesson-b-new->lesson-030:related-to"] = {"from": "lesson-b-new", "to": "lesson-030",
                                                           "rel": "related-to"}  # ...b links to it
    _save(a / "user.json", theirs)
    _save(b / "user.json", ours)
    offline.sync(a, str(remote), T)
    out = offline.sync(b, str(remote), T + 100)
    summary = out["graphs"]["user"]
    assert summary["conflicts"] == ["lesson-005"] and "lesson-b-new" not in summary["added"]
    merged = _load(b / "user.json")
    nodes = merged["nodes"]
    assert nodes["lesson-001"]["gist"] == "a's edit" and nodes["lesson-002"]["gist"] == "b's edit"
    assert nodes["lesson-005"]["gist"] == "a's later rewrite"
    assert nodes["lesson-005"]["_conflicts"][0]["gist"] == "b's earlier rewrite"  # set aside, not lost
    # a's delete against b's new edge to it stands and takes the edge (merge.py's rule, across buckets too).
    assert "lesson-030" not in nodes and not any("lesson-030" in k for k in merged["edges"])
    assert "lesson-b-new" in nodes
    assert merged["_meta"]["progress"]["task-a"]["last_ts"] == T + 5
    # The graph file is the server's format still, equal to the merged mirror, and the next commit has nothing to do.
    assert (b / "user.json").read_text().startswith('{\n  "nodes": {\n    "lesson-000": {')
    assert shards.join(shards.read_folder(b, "user")) == shards.join(shards.split(merged))
    assert offline.commit(b, T + 200)["committed"] is False
    # The merge commit touched the changed buckets only.
    touched = git(b, "diff", "--name-only", "HEAD^1", "HEAD").split()
    assert 0 < len(touched) <= 8 and all(t.startswith("shards/user/") for t in touched)
    offline.sync(a, str(remote), T + 300)
    assert _load(a / "user.json")["nodes"] == nodes


def test_an_edge_from_a_node_deleted_there_is_set_aside_beside_its_end_in_a_bucket_neither_machine_changed(tmp_path):
    remote, a, b = _two_machines(tmp_path, _graph())
    theirs, ours = _load(a / "user.json"), _load(b / "user.json")
    del theirs["nodes"]["lesson-030"]  # a deletes a node...
    theirs["edges"] = {k: e for k, e in theirs["edges"].items() if "lesson-030" not in k}
    key = "lesson-030->lesson-007:depends-on"  # ...b wires it to one in a bucket no machine changed
    ours["edges"][key] = {"from": "lesson-030", "to": "lesson-007", "rel": "depends-on", "notes": ["b's reason"]}
    assert shards.bucket("lesson-030") != shards.bucket("lesson-007")
    _save(a / "user.json", theirs)
    _save(b / "user.json", ours)
    offline.sync(a, str(remote), T)
    out = offline.sync(b, str(remote), T + 100)
    [said] = out["graphs"]["user"]["dropped"]
    assert said.startswith(f"{key} (lesson-030 deleted on "), said
    for machine in (b, a):
        if machine is a:
            offline.sync(a, str(remote), T + 200)
        merged = _load(machine / "user.json")
        assert "lesson-030" not in merged["nodes"] and key not in merged["edges"]
        [aside] = merged["nodes"]["lesson-007"]["_conflicts"]
        assert aside["dropped_edge"] == key and aside["notes"] == ["b's reason"], aside


def test_a_node_deleted_on_one_machine_and_changed_on_the_other_is_kept_across_buckets_saying_so(tmp_path, monkeypatch):
    # The other machine's rename or rewrite brought the deleted node back, said as "1 node(s) added" only.
    user = _graph()
    for i in (10, 11):  # stamps of their own: a rename keeps it, and is found by it
        user["nodes"][f"lesson-{i:03d}"]["_created_ts"] = T + i
    monkeypatch.setenv("KG_MACHINE", "machine-a")
    remote, a, b = _two_machines(tmp_path, user)
    theirs, ours = _load(a / "user.json"), _load(b / "user.json")
    for i in (10, 11):  # deleted on a
        del theirs["nodes"][f"lesson-{i:03d}"]
        theirs["edges"] = {k: e for k, e in theirs["edges"].items() if f"lesson-{i:03d}" not in k}
    ours["nodes"]["lesson-010"]["gist"] = "rewritten on b"  # and on b, rewritten, and renamed
    ours["nodes"]["renamed-on-b"] = {**ours["nodes"].pop("lesson-011"), "id": "renamed-on-b"}
    ours["edges"] = {k.replace("lesson-011", "renamed-on-b"): {**e, **{end: "renamed-on-b" for end in ("from", "to")
                                                                       if e[end] == "lesson-011"}}
                     for k, e in ours["edges"].items()}
    assert shards.bucket("lesson-011") != shards.bucket("renamed-on-b")
    _save(a / "user.json", theirs)
    _save(b / "user.json", ours)
    offline.sync(a, str(remote), T + 10)
    monkeypatch.setenv("KG_MACHINE", "machine-b")
    summary = offline.sync(b, str(remote), T + 100)["graphs"]["user"]
    assert summary["kept"] == ["lesson-010", "renamed-on-b"] and summary["conflicts"] == []
    for machine in (b, a):
        nodes = _load(machine / "user.json")["nodes"]
        assert nodes["lesson-010"]["gist"] == "rewritten on b" and "lesson-011" not in nodes
        told = {i: [{k: v for k, v in e.items() if k != "_set_aside_ts"} for e in nodes[i]["_conflicts"]]
                for i in ("lesson-010", "renamed-on-b")}  # set aside at the merge's own clock
        assert told == {"lesson-010": [{"deleted_on": "machine-a", "changed_on": "machine-b"}],
                        "renamed-on-b": [{"deleted_on": "machine-a", "changed_on": "machine-b",
                                          "deleted_as": "lesson-011"}]}
        monkeypatch.setenv("KG_MACHINE", "machine-a")
        if machine == b:
            summary = offline.sync(a, str(remote), T + 200)["graphs"]["user"]
            assert summary["kept"] == ["lesson-010", "renamed-on-b"] and summary["added"] == ["lesson-010", "renamed-on-b"]


def test_a_machine_still_on_graph_files_and_one_on_the_mirror_merge(tmp_path):
    """The upgrade of two machines: the remote's newest commit still holds the graph file, ours the mirror."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, timeout=60)
    a, b = tmp_path / "a", tmp_path / "b"
    base = _graph()
    _old_layout_store(a, base)
    git(a, "push", "-q", str(remote), "HEAD:main")
    subprocess.run(["git", "clone", "-q", str(remote), str(b)], check=True, timeout=60)
    # b, before its upgrade, pushed an edit in the old layout.
    old_b = _load(b / "user.json")
    old_b["nodes"]["lesson-004"]["gist"] = "b's edit before upgrading"
    _save(b / "user.json", old_b)
    git(b, "commit", "-qam", "old kg on b")
    git(b, "push", "-q", "origin", "HEAD:main")
    # a upgraded: its commit moves it to the mirror, then the merge takes b's graph file in.
    new_a = copy.deepcopy(base)
    new_a["nodes"]["lesson-006"]["gist"] = "a's edit after upgrading"
    _save(a / "user.json", new_a)
    out = offline.sync(a, str(remote), T)
    assert "kg-memory 0.17" in out["push_error"]  # b still reads the graph file: nothing pushed that takes it away
    nodes = _load(a / "user.json")["nodes"]
    assert nodes["lesson-004"]["gist"] == "b's edit before upgrading"
    assert nodes["lesson-006"]["gist"] == "a's edit after upgrading"
    assert "user.json" not in git(a, "ls-files").split()
    # b upgrades too: its own commit migrates, the merge is bucket by bucket from there.
    old_b["nodes"]["lesson-008"]["gist"] = "b's edit after upgrading"
    _save(b / "user.json", old_b)
    assert offline.sync(b, str(remote), T, all_upgraded=True)["push_error"] is None
    assert offline.sync(a, str(remote), T)["push_error"] is None  # the remote holds the mirror alone now
    assert offline.sync(b, str(remote), T)["push_error"] is None
    nodes = _load(b / "user.json")["nodes"]
    assert {nodes[i]["gist"] for i in ("lesson-004", "lesson-006", "lesson-008")} == {
        "b's edit before upgrading", "a's edit after upgrading", "b's edit after upgrading"}
    assert not any(n.get("_conflicts") for n in nodes.values())


def test_a_project_graph_only_the_remote_has_is_made_here(tmp_path):
    remote, a, b = _two_machines(tmp_path, _graph(3))
    _save(a / "projects" / "web-app" / "graph.json", {**_graph(4), "_meta": {"versions": {}, "project_path": "/x"}})
    offline.sync(a, str(remote), T)
    out = offline.sync(b, str(remote), T)
    assert set(out["graphs"]["project:web-app"]["added"]) == {f"lesson-{i:03d}" for i in range(4)}
    assert _load(b / "projects" / "web-app" / "graph.json")["_meta"]["project_path"] == "/x"


def test_a_bucket_with_conflict_markers_from_the_remote_undoes_nothing_here(tmp_path):
    remote, a, b = _two_machines(tmp_path, _graph(3))
    offline.sync(a, str(remote), T)  # b's first sync pushed a merge: a takes it in first
    part = a / shards.folder("user") / shards.bucket("lesson-001")
    part.write_text("<<<<<<< HEAD\n" + part.read_text() + "=======\n{}\n>>>>>>> x\n")
    git(a, "commit", "-qam", "a bad hand merge")
    git(a, "push", "-q", str(remote), "HEAD:main")
    mine = _graph(3)
    mine["nodes"]["lesson-002"]["gist"] = "b's own edit"
    _save(b / "user.json", mine)
    head = git(b, "rev-parse", "HEAD")
    with pytest.raises(G.GitError, match="undone.*conflict markers"):
        offline.sync(b, str(remote), time.time())
    assert git(b, "rev-parse", "HEAD") != head  # b's edit committed, the merge not started
    assert not (b / ".git" / "MERGE_HEAD").exists() and git(b, "status", "--porcelain").strip() == ""
    assert _load(b / "user.json")["nodes"]["lesson-002"]["gist"] == "b's own edit"


def test_chores_json_is_this_machines_and_leaves_a_store_that_tracked_it(tmp_path):
    """Each machine opts into chores (they spend its quota): chores.json is never committed, and a store
    whose older .gitignore let it in takes it out of the index at its next commit, keeping the file."""
    root = tmp_path / "store"
    _old_layout_store(root, _graph(3))
    (root / "chores.json").write_text('{"enabled": true}')
    git(root, "add", "chores.json")
    git(root, "commit", "-qm", "chores tracked by an older kg")
    assert offline.commit(root, T)["committed"]
    assert "chores.json" not in git(root, "ls-files").split()
    assert (root / "chores.json").read_text() == '{"enabled": true}'
    assert "chores.json" in (root / ".gitignore").read_text().splitlines()
    assert git(root, "status", "--porcelain").strip() == ""
    G.set_up(root)  # once added, not again
    assert (root / ".gitignore").read_text().splitlines().count("chores.json") == 1
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "chores.json").write_text('{"enabled": true}')
    G.init(fresh)
    offline.commit(fresh, T)
    assert "chores.json" not in git(fresh, "ls-files").split()


def test_restore_at_now_is_the_present_whatever_now_it_was_handed(tmp_path):
    """A restore commits what is unsaved first, dated by git's wall clock; `now` must reach that commit even
    when the `now` handed in is earlier (the command's start, a second before git dated it)."""
    root = tmp_path / "store"
    user = _graph(3)
    _old_layout_store(root, user)
    user["nodes"]["hand-added-node"] = _node("hand-added-node", "written by hand, never committed")
    _save(root / "user.json", user)
    out = offline.restore(root, "user", "now", time.time() - 30)
    assert out["added"] == out["removed"] == out["changed"] == []
    assert "hand-added-node" in _load(root / "user.json")["nodes"]
