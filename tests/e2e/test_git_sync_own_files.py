"""`kg sync` commits kg's own files only, and takes a remote that holds them beside others.

A user's backup copy of a graph file (`user.json.bak`) or a note dropped in the
store was committed by the "save before sync" commit (`git add -A`) and pushed;
from then on every machine refused the remote as holding no kg memory.
"""

from __future__ import annotations

import shutil

from e2e_helpers import graph, nodes_by_id
from git_helpers import git
from test_git_sync import _sync, _two_machines, _user, _write


async def test_a_stray_file_in_the_store_is_never_committed_and_every_machine_keeps_syncing(tmp_path):
    remote, a, b = _two_machines(tmp_path, _user("a-seed-node"))
    try:
        await _write(a, "a-first-lesson")
        assert _sync(a, remote).returncode == 0
        shutil.copyfile(a.store / "user.json", a.store / "user.json.bak")  # the user's own backup
        (a.store / "notes.txt").write_text("my notes\n")
        (a.store / "projects" / "stray").mkdir(parents=True)
        (a.store / "projects" / "stray" / "todo.md").write_text("x\n")
        await _write(a, "a-second-lesson")
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
        pushed = set(git(remote, "ls-tree", "-r", "--name-only", "main", env=a.env).split())
        assert not {"user.json.bak", "notes.txt", "projects/stray/todo.md"} & pushed, pushed
        assert any(p.startswith("shards/user/") for p in pushed) and ".gitignore" in pushed
        # The stray files stay on disk, untouched, and out of every commit.
        assert (a.store / "user.json.bak").exists() and (a.store / "notes.txt").read_text() == "my notes\n"
        assert "notes.txt" not in git(a.store, "log", "--all", "--name-only", "--format=", env=a.env).split()
        out = _sync(b, remote)
        assert out.returncode == 0, out.stderr
        assert {"a-first-lesson", "a-second-lesson"} <= set(nodes_by_id(graph(b)["user"]))
        await _write(a, "a-third-lesson")
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
    finally:
        a.stop()
        b.stop()


async def test_a_remote_holding_kg_memory_and_other_files_is_merged(tmp_path):
    """What an older build pushed (a backup copy beside the shards), or a file added there by hand: the remote
    is still kg memory, merged and pushed to; its other files stay as they are."""
    remote, a, b = _two_machines(tmp_path, _user("a-seed-node"))
    try:
        await _write(a, "a-first-lesson")
        assert _sync(a, remote).returncode == 0
        by_hand = tmp_path / "by-hand"
        git(tmp_path, "clone", "-q", str(remote), str(by_hand), env=a.env)
        shutil.copyfile(a.store / "user.json", by_hand / "user.json.bak")
        (by_hand / "README.md").write_text("my memory\n")
        (by_hand / "notes.txt").write_text("hi\n")
        git(by_hand, "add", "-f", "user.json.bak", "README.md", "notes.txt", env=a.env)
        git(by_hand, "commit", "-qm", "by hand", env=a.env)
        git(by_hand, "push", "-q", "origin", "HEAD:main", env=a.env)
        for srv in (b, a):
            await _write(srv, f"{srv.env['KG_MACHINE']}-later-lesson")
            out = _sync(srv, remote)
            assert out.returncode == 0, out.stderr
        assert {"a-first-lesson", "machine-b-later-lesson", "machine-a-later-lesson"} <= set(
            nodes_by_id(graph(a)["user"]))
        pushed = set(git(remote, "ls-tree", "-r", "--name-only", "main", env=a.env).split())
        assert {"user.json.bak", "README.md", "notes.txt"} <= pushed
    finally:
        a.stop()
        b.stop()
