"""A project's store folder renamed by hand (what `kg doctor` advises for a renamed project folder), synced: the commit
is a rename, and the other machine keeps one graph, bound to its own folder. Real git, stores and a bare remote in
tmp_path, the offline commands in-process (`kg sync` with no server runs exactly these)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from kg_actors.storage import folder_renames
from kg_actors.storage.layout import recorded_project_path
from kg_actors.sync import offline, renamed_graphs
from tests.sync.test_shard_sync import T, _graph, _load, _save, git  # noqa: F401 (its fixture: autouse below)
from tests.sync.test_shard_sync import _git_identity  # noqa: F401


def _project(path: str, n: int = 6) -> dict:
    graph = _graph(n)
    graph["_meta"]["project_path"] = path
    graph["_meta"]["namespace"] = {"kind": "project", "owner": None}
    return graph


def _machines(tmp_path: Path) -> tuple[Path, Path, Path]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, timeout=60)
    a, b = tmp_path / "a", tmp_path / "b"
    _save(a / "user.json", _graph(2))
    _save(a / "projects" / "myapp" / "graph.json", _project("/a/work/myapp"))
    offline.sync(a, str(remote), T)
    offline.sync(b, str(remote), T)
    graph = _load(b / "projects" / "myapp" / "graph.json")
    graph["_meta"]["project_path"] = "/b/code/myapp"  # B keeps the project in a folder of its own
    _save(b / "projects" / "myapp" / "graph.json", graph)
    offline.sync(b, str(remote), T + 1)
    return remote, a, b


def _tracked(root: Path) -> set[str]:
    return {p.split("/")[2] for p in git(root, "ls-files", "shards/projects").split()}


def test_a_store_folder_renamed_by_hand_is_a_rename_in_the_commit_and_one_graph_on_the_other_machine(tmp_path):
    remote, a, b = _machines(tmp_path)
    (a / "projects" / "myapp").rename(a / "projects" / "myapp-v2")  # kg doctor's fix, the server stopped
    graph = _load(a / "projects" / "myapp-v2" / "graph.json")
    graph["_meta"]["project_path"] = "/a/work/myapp-v2"  # as a session in the renamed folder records it
    graph["nodes"]["after-rename"] = {"id": "after-rename", "gist": "written after the rename", "_created_ts": T}
    _save(a / "projects" / "myapp-v2" / "graph.json", graph)
    offline.sync(a, str(remote), T + 2)
    assert _tracked(a) == {"myapp-v2"}  # the old folder's shards left with it
    offline.sync(a, str(remote), T + 3)
    assert sorted(p.name for p in (a / "projects").iterdir()) == ["myapp-v2"]  # nothing brought the old graph back

    out = offline.sync(b, str(remote), T + 4)
    assert sorted(p.name for p in (b / "projects").iterdir()) == ["myapp-v2"]  # one graph, not two
    moved = b / "projects" / "myapp-v2" / "graph.json"
    assert "after-rename" in _load(moved)["nodes"] and "lesson-000" in _load(moved)["nodes"]
    assert recorded_project_path(moved) == "/b/code/myapp"  # B's folder of the project, so sessions there take it
    assert [p.name.startswith("myapp-") for p in (b / "trash").iterdir()] == [True]  # the old folder kept aside
    said = out["graphs"]["project:myapp-v2"]
    assert said["added"] == ["after-rename"] and not said["removed"]  # what is new, not every node again
    line = renamed_graphs.describe("project:myapp-v2", said)
    assert "renamed project:myapp-v2 on another machine" in line and "/b/code/myapp" in line
    assert "keeps the name myapp" in line
    assert "project:myapp" not in out["graphs"]
    assert offline.commit(b, T + 5)["committed"] is False or _tracked(b) == {"myapp-v2"}
    assert _tracked(b) == {"myapp-v2"}


def test_a_graph_file_lost_is_no_rename_unless_its_nodes_are_in_one_new_graph():
    old = {"project:a": {"x", "y", "z"}}
    assert folder_renames.pairs(old, {"project:b": {"x", "y", "q"}}) == {"project:a": "project:b"}
    assert folder_renames.pairs(old, {"project:b": {"x", "q"}}) == {}  # a third is no evidence
    assert folder_renames.pairs(old, {"project:b": {"x", "y"}, "project:c": {"y", "z"}}) == {}  # two alike
    assert folder_renames.pairs({"project:a": set()}, {"project:b": set()}) == {}  # an empty graph tells nothing
