"""`kg sync` against a remote holding graph data that is unreadable or of the wrong shape, and a store whose
history was moved by hand onto such data.

Real `kg` and real servers with their own HOMEs and a bare remote, as in test_git_sync.py. What is not a graph
is never read as "those lessons were deleted": the sync is refused naming the file and what to do, nothing
changes here, and once the remote is fixed (or the store put back) commit and sync work again.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from e2e_helpers import get_json, graph, kg, nodes_by_id
from git_helpers import git, git_env
from test_git_sync import _store_017, _sync, _sync_in_turn, _two_machines, _user, _write

from kg_actors.storage import shards
from kg_actors.testing import ServerProcess


def _hand_edit(tmp_path: Path, remote: Path, branch: str, edit: Any, what: str) -> None:
    """A person's edit on a clone of the remote: `edit(clone)` changes files; committed and pushed."""
    env = git_env(tmp_path / "hand", "hand")
    clone = tmp_path / "hand-clone"
    if not clone.exists():
        subprocess.run(["git", "clone", "-q", "-b", branch, str(remote), str(clone)], check=True, env=env, timeout=60)
    git(clone, "pull", "-q", "--no-rebase", "origin", branch, env=env)
    edit(clone)
    git(clone, "commit", "-qam", what, env=env)
    git(clone, "push", "-q", "origin", f"HEAD:{branch}", env=env)


def _edit_part(node_id: str, change: Any) -> Any:
    """An edit of the user graph's bucket that holds `node_id`: `change(bucket)` changes its JSON."""
    def edit(clone: Path) -> None:
        part = clone / shards.folder("user") / shards.bucket(node_id)
        value = json.loads(part.read_text())
        change(value)
        part.write_text(json.dumps(value))
    return edit


def _refused(out: subprocess.CompletedProcess, *said: str) -> None:
    assert out.returncode == 1, out.stdout + out.stderr
    assert "internal error" not in out.stderr and "Error(" not in out.stderr, out.stderr
    assert "failed and was undone (nothing changed here)" in out.stderr, out.stderr
    for text in said:
        assert text in out.stderr, (text, out.stderr)


async def test_a_remote_node_that_is_a_list_is_refused_naming_it_and_commit_and_sync_work_once_it_is_fixed(tmp_path):
    # The merge commit was made before the graph's absorb failed on it: from then on every commit and sync (and
    # autocommit) failed with "internal error while handling absorb", after the fix and a restart too.
    remote, a, b = _two_machines(tmp_path, _user("app-deploy-via-ansible", "a-second-lesson"))
    try:
        _sync_in_turn(remote, a, b)
        good: dict[str, Any] = {}

        def to_list(bucket: dict) -> None:
            good.update(bucket["nodes"]["app-deploy-via-ansible"])
            bucket["nodes"]["app-deploy-via-ansible"] = ["not", "a", "node"]
        _hand_edit(tmp_path, remote, "main", _edit_part("app-deploy-via-ansible", to_list), "a node as a list")
        head = git(a.store, "rev-parse", "HEAD", env=a.env).strip()
        out = _sync(a, remote)
        _refused(out, shards.folder("user") + "/" + shards.bucket("app-deploy-via-ansible"),
                 "node 'app-deploy-via-ansible' must be an object, and is a list", "fix that file on the remote")
        assert git(a.store, "rev-parse", "HEAD", env=a.env).strip() == head  # no merge commit of it here
        assert {"app-deploy-via-ansible", "a-second-lesson"} <= set(nodes_by_id(graph(a)["user"]))
        # What is wrong is the store's problem until a sync works: kg doctor shows /health's git.problem.
        assert "must be an object" in (a.health() or {})["git"]["problem"]
        await _write(a, "written-while-the-remote-is-bad")
        assert kg(["commit"], a.env).returncode == 0
        _hand_edit(tmp_path, remote, "main", _edit_part("app-deploy-via-ansible",
                                                          lambda b_: b_["nodes"].update({"app-deploy-via-ansible": good})),
                   "the node put back")
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
        assert (a.health() or {})["git"]["problem"] is None
        a.stop()
        a.start()
        for args in (["sync", str(remote)], ["commit"]):
            out = kg(args, a.env)
            assert out.returncode == 0, (args, out.stderr)
        assert _sync(b, remote).returncode == 0
        for srv in (a, b):
            assert {"app-deploy-via-ansible", "a-second-lesson", "written-while-the-remote-is-bad"} <= set(
                nodes_by_id(graph(srv)["user"])), srv.env["KG_MACHINE"]
    finally:
        a.stop()
        b.stop()


async def test_a_remote_bucket_whose_nodes_are_a_list_or_whose_edge_is_a_string_deletes_nothing_here(tmp_path):
    # Nodes as a list read as a bucket holding none: "1 node(s) removed" here, the delete pushed on. An edge as a
    # string: "internal error: AttributeError", naming no file.
    user = _user("victim-node-0", "victim-node-1")
    user["edges"] = {"victim-node-0->victim-node-1:related-to": {"from": "victim-node-0", "to": "victim-node-1",
                                                                   "rel": "related-to"}}
    remote, a, b = _two_machines(tmp_path, user)
    try:
        _sync_in_turn(remote, a, b)

        good: dict[str, Any] = {}

        def nodes_as_list(bucket: dict) -> None:
            good.update(bucket["nodes"])
            bucket["nodes"] = list(bucket["nodes"].values())
        _hand_edit(tmp_path, remote, "main", _edit_part("victim-node-0", nodes_as_list), "nodes as a list")
        _refused(_sync(a, remote), shards.bucket("victim-node-0"), '"nodes" must be an object of nodes by id')
        _hand_edit(tmp_path, remote, "main", _edit_part("victim-node-0", lambda b_: b_.update(nodes=good)), "put back")

        def edge_as_string(bucket: dict) -> None:
            bucket["edges"]["victim-node-0->victim-node-1:related-to"] = "oops"
        _hand_edit(tmp_path, remote, "main", _edit_part("victim-node-0", edge_as_string), "an edge as a string")
        _refused(_sync(a, remote), shards.bucket("victim-node-0"),
                 "edge 'victim-node-0->victim-node-1:related-to' must be an object, and is a string")
        g = graph(a)["user"]
        assert {"victim-node-0", "victim-node-1"} <= set(nodes_by_id(g))
        assert [(e["from"], e["to"]) for e in g["edges"]] == [("victim-node-0", "victim-node-1")]
        assert b.health()["status"] == "ok" and a.health()["status"] == "ok"
    finally:
        a.stop()
        b.stop()


async def test_a_017_remotes_user_json_truncated_or_with_nodes_as_a_list_deletes_nothing_here(tmp_path):
    # Either read as "the 0.17 machine deleted every lesson": `1 node(s) removed: legacy-user-lesson`.
    remote = tmp_path / "old.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(remote)], check=True, timeout=60,
                   env=git_env(tmp_path, "x"))
    old, old_env = tmp_path / "old-store", git_env(tmp_path, "old")
    _store_017(old, old_env, "legacy-user-lesson")
    git(old, "push", "-q", "-u", str(remote), "master", env=old_env)
    a = ServerProcess(tmp_path / "machine-a", {**git_env(tmp_path / "machine-a", "machine-a"),
                                               "KG_AUTOCOMMIT_INTERVAL": "0"}).start()
    try:
        await _write(a, "a-new-lesson")
        out = _sync(a, remote)  # taken in; the push waits for the 0.17 machine's upgrade (old_layout.py)
        assert "1 node(s) added: legacy-user-lesson" in out.stdout, out.stdout + out.stderr
        whole = (old / "user.json").read_text()
        for broken, said in ((whole[:40], "is not valid JSON"),
                             (json.dumps({**json.loads(whole), "nodes": list(json.loads(whole)["nodes"].values())}),
                              '"nodes" must be an object of nodes by id, and is a list')):
            (old / "user.json").write_text(broken)
            git(old, "commit", "-qam", "a 0.17 machine's broken save", env=old_env)
            git(old, "push", "-q", str(remote), "master", env=old_env)
            out = _sync(a, remote)
            _refused(out, "user.json in ", said)
            assert "removed" not in out.stdout, out.stdout
            assert {"legacy-user-lesson", "a-new-lesson"} <= set(nodes_by_id(graph(a)["user"]))
    finally:
        a.stop()


async def test_a_hand_merge_committed_with_conflict_markers_is_named_with_the_way_back_and_kg_works_after(tmp_path):
    # kg's advice for a store stopped mid-merge was "git commit": done after `git add -A`, the markers were
    # committed, and every kg commit and sync failed from then on with "internal error: ValueError(...)".
    remote, a, b = _two_machines(tmp_path, _user("shared-lesson-one"))
    try:
        _sync_in_turn(remote, a, b)
        await _write(a, "shared-lesson-one", gist="edited on a")
        await _write(b, "shared-lesson-one", gist="edited on b")
        assert _sync(b, remote).returncode == 0 and kg(["commit"], a.env).returncode == 0
        git(a.store, "config", "--remove-section", "merge.kg-graph", env=a.env)  # a store cloned by hand
        pulled = subprocess.run(["git", "-C", str(a.store), "pull", "-q", "--no-rebase", "--no-edit", str(remote),
                                 "main"], capture_output=True, text=True, env=a.env, timeout=60)
        assert pulled.returncode == 1, pulled.stdout  # a conflict in the node's bucket
        out = kg(["commit"], a.env)
        assert out.returncode == 1 and "merge --abort" in out.stderr and "valid JSON" in out.stderr, out.stderr
        git(a.store, "add", "-A", env=a.env)
        git(a.store, "commit", "-q", "--no-edit", env=a.env)  # the markers committed
        for args in (["commit"], ["sync", str(remote)]):
            out = kg(args, a.env)
            assert out.returncode == 1, (args, out.stdout)
            assert "internal error" not in out.stderr and "conflict markers" in out.stderr, out.stderr
            assert shards.bucket("shared-lesson-one") in out.stderr and "reset --keep" in out.stderr, out.stderr
        step = out.stderr.split("Put the branch back where kg left it: ")[1].split(" (")[0]
        assert step.startswith("git -C "), step
        assert subprocess.run(step.split(), env=a.env, capture_output=True, timeout=60).returncode == 0
        assert kg(["commit"], a.env).returncode == 0
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
        assert nodes_by_id(graph(a)["user"])["shared-lesson-one"]["gist"] in ("edited on a", "edited on b")
        [row] = get_json(a, "/api/store/conflicts")["conflicts"]  # the other edit is kept beside it
        assert row["id"] == "shared-lesson-one"
    finally:
        a.stop()
        b.stop()
