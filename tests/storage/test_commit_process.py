"""The store's commit in a child process (storage/commit_process.py): what it says back."""

import subprocess
import sys

import pytest

from kg_actors.storage import commit_process
from kg_actors.storage import git as G


def test_the_child_commits_a_store_and_says_which_commit(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "note.txt").write_text("x\n")
    proc = subprocess.run(commit_process.command(tmp_path, 1_700_000_000.0, "auto-save"), capture_output=True)
    sha = commit_process.parse(proc.stdout, proc.stderr, proc.returncode)
    assert sha == G.head(tmp_path) and sha is not None
    again = subprocess.run(commit_process.command(tmp_path, 1_700_000_001.0, "auto-save"), capture_output=True)
    assert commit_process.parse(again.stdout, again.stderr, again.returncode) is None  # nothing changed


def test_a_refusal_and_a_crash_come_back_as_git_errors_with_their_reason():
    with pytest.raises(G.GitError, match="conflict markers"):
        commit_process.parse(b'{"error": "user.json holds conflict markers"}\n', b"", 1)
    with pytest.raises(G.GitError, match="exit 1.*Traceback"):
        commit_process.parse(b"", b"Traceback (most recent call last):\n  boom\n", 1)


def test_the_child_runs_at_the_lowest_cpu_priority_and_git_inherits_it():
    probe = ("import os, subprocess; from kg_actors.storage.commit_process import yield_the_cpu; yield_the_cpu(); "
             "print(os.nice(0), subprocess.run(['sh', '-c', 'cut -d\" \" -f19 /proc/self/stat'],"
             " capture_output=True, text=True).stdout.strip())")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["19", "19"]  # its own niceness, and a child's (git) as the kernel reports it


@pytest.mark.parametrize("odd", ["fifo", "dangling symlink", "directory"])
def test_a_graph_file_that_is_not_a_regular_file_is_skipped_and_the_rest_committed(tmp_path, odd):
    import json
    import os

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    graph = {"nodes": {"n": {"id": "n", "gist": "a project lesson"}}, "edges": {}, "_meta": {}}
    (tmp_path / "projects" / "p").mkdir(parents=True)
    (tmp_path / "projects" / "p" / "graph.json").write_text(json.dumps(graph))
    user = tmp_path / "user.json"
    if odd == "fifo":
        os.mkfifo(user)
    elif odd == "directory":
        user.mkdir()
    else:
        user.symlink_to(tmp_path / "nowhere" / "user.json")
    proc = subprocess.run(commit_process.command(tmp_path, 1_700_000_000.0, "auto-save"), capture_output=True,
                          timeout=60)
    sha = commit_process.parse(proc.stdout, proc.stderr, proc.returncode)
    assert sha is not None and sha == G.head(tmp_path), proc
    committed = G.run(tmp_path, "ls-tree", "-r", "--name-only", "HEAD").stdout
    assert "project_p" in committed or "projects" in committed, committed
    assert "user" not in committed.replace("projects", ""), committed


def test_a_graph_file_that_is_not_utf8_is_refused_with_the_fix_that_keeps_the_hand_edit(tmp_path):
    import json

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    graph = {"nodes": {"n": {"id": "n", "gist": "caf\xe9 au lait"}}, "edges": {}, "_meta": {}}
    (tmp_path / "user.json").write_bytes(json.dumps(graph, ensure_ascii=False).encode("cp1252"))
    proc = subprocess.run(commit_process.command(tmp_path, 1_700_000_000.0, "auto-save"), capture_output=True,
                          timeout=60)
    with pytest.raises(G.UnreadableGraph) as refused:
        commit_process.parse(proc.stdout, proc.stderr, proc.returncode)
    said = str(refused.value)
    assert "user.json" in said and "not UTF-8" in said and "saves it as UTF-8" in said, said
    assert "kg restore" not in said, said  # a restore would throw the hand edit away
