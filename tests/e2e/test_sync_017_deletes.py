"""A kg-memory 0.17 machine's deletes reach an upgraded machine that never changed those lessons: real `kg`, a
real server, a 0.17 store's repository on `master` and a bare remote."""

from __future__ import annotations

import json
import subprocess

from e2e_helpers import get_json, graph, nodes_by_id
from git_helpers import git, git_env
from test_git_sync import T, _store_017, _sync

from kg_actors.testing import ServerProcess


async def test_a_lesson_deleted_on_a_017_machine_is_deleted_here_though_its_entry_had_empty_lists(tmp_path):
    # 0.17 wrote "notes": [] where this kg writes no notes at all: the copy here read as changed here, and the
    # delete was refused ("deleted on one machine but changed on the other, so kept"), the lesson back for good.
    remote = tmp_path / "old.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(remote)], check=True, timeout=60,
                   env=git_env(tmp_path, "x"))
    old, old_env = tmp_path / "old-store", git_env(tmp_path, "old")
    _store_017(old, old_env, "keep-this-lesson")
    user = json.loads((old / "user.json").read_text())
    for node_id, notes in (("delete-me-with-empty-notes", []), ("delete-me-with-a-note", ["x"])):
        user["nodes"][node_id] = {"id": node_id, "gist": f"gist of {node_id}", "notes": notes, "touches": [],
                                  "_created_ts": T}
    (old / "user.json").write_text(json.dumps(user, indent=2))
    git(old, "commit", "-qam", "Auto-save 2026-11-30 11:00", env=old_env)
    git(old, "push", "-q", "-u", str(remote), "master", env=old_env)
    a = ServerProcess(tmp_path / "machine-a", {**git_env(tmp_path / "machine-a", "machine-a"),
                                               "KG_AUTOCOMMIT_INTERVAL": "0"}).start()
    try:
        out = _sync(a, remote)  # taken in; nothing pushed while the remote holds 0.17's files (old_layout.py)
        assert "3 node(s) added" in out.stdout, out.stdout + out.stderr
        for node_id in ("delete-me-with-empty-notes", "delete-me-with-a-note"):
            del user["nodes"][node_id]
        (old / "user.json").write_text(json.dumps(user, indent=2))
        git(old, "commit", "-qam", "Auto-save 2026-11-30 12:00", env=old_env)
        git(old, "push", "-q", str(remote), "master", env=old_env)
        out = _sync(a, remote)
        assert "2 node(s) removed: delete-me-with-a-note, delete-me-with-empty-notes" in out.stdout, out.stdout
        assert "so kept" not in out.stdout, out.stdout
        assert sorted(nodes_by_id(graph(a)["user"])) == ["keep-this-lesson"]
        assert get_json(a, "/api/store/conflicts")["conflicts"] == []
    finally:
        a.stop()
