"""`kg sync`: two machines (two stores, two real servers) and a bare repository on the local filesystem.

Writes on both sides arrive on both sides; the running servers absorb the
merge through their actors (no restart); a node changed on both machines
keeps the later write and the other is delivered as a notice on the next
read; sessions holding the old view are refused until they see the new one.
Bad input (no such remote, a refused push, a rebase in progress, conflict
markers in a graph file) gives a clear message and loses nothing.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from e2e_helpers import KG, Session, get_json, graph, kg, nodes_by_id, wait_until
from git_helpers import bare_repo, committed_graph, git, git_env
from mcp import Client
from test_storage_compat import _ref_user

from kg_actors.storage import shards
from kg_actors.testing import ServerProcess, write_store

T = time.time() - 86_400


def _user(*ids: str) -> dict:
    return {"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": T} for i in ids}, "edges": {},
            "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


def _machine(tmp_path: Path, name: str, user: dict | None = None) -> ServerProcess:
    base = tmp_path / name
    srv = ServerProcess(base, {**git_env(base, name), "KG_AUTOCOMMIT_INTERVAL": "0"})
    if user is not None:
        write_store(srv.store, user)
    return srv


def _two_machines(tmp_path: Path, a_user: dict | None = None) -> tuple[Path, ServerProcess, ServerProcess]:
    """A bare remote and two fresh machines' servers, started (`a_user`: machine a's user graph to begin with)."""
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    return remote, _machine(tmp_path, "machine-a", a_user).start(), _machine(tmp_path, "machine-b").start()


async def _lesson_synced_from(srv: ServerProcess, remote: Path, node_id: str, gist: str) -> None:
    """A project lesson written on `srv` and synced; then its project folder goes (both machines are this
    one in a test: the other machine must not find this one's folder)."""
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=srv.project("proj"))
        await s.ok("kg_put_node", level="project", id=node_id, gist=gist)
    assert _sync(srv, remote).returncode == 0
    shutil.rmtree(srv.project("proj"))


def _sync(srv: ServerProcess, remote: Path | str, *flags: str) -> subprocess.CompletedProcess:
    return kg(["sync", str(remote), *flags], srv.env)


def _sync_in_turn(remote: Path, *machines: ServerProcess) -> None:
    """`kg sync` on each machine in the order given, each one succeeding."""
    for srv in machines:
        out = _sync(srv, remote)
        assert out.returncode == 0, out.stderr


async def _write(srv: ServerProcess, *ids: str, gist: str | None = None) -> None:
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        for node_id in ids:
            await s.ok("kg_put_node", level="user", id=node_id, gist=gist or f"written on {srv.env['KG_MACHINE']}")


async def test_writes_on_both_machines_are_on_both_after_syncing_both_ways(tmp_path):
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    a = _machine(tmp_path, "machine-a", _user("a-seed-node")).start()
    b = _machine(tmp_path, "machine-b").start()  # a fresh store: not a repository yet
    try:
        await _write(a, "a-first-lesson", "a-second-lesson")
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
        assert "is now a git repository" in out.stdout
        await _write(b, "b-first-lesson", "b-second-lesson")
        out = _sync(b, remote)  # makes b a repository and merges the remote's memory with what b has
        assert out.returncode == 0, out.stderr
        assert "user: 3 node(s) added" in out.stdout
        # b's running server absorbed the merge: its sessions read a's lessons, no restart.
        b_nodes = nodes_by_id(graph(b)["user"])
        assert {"a-seed-node", "a-first-lesson", "a-second-lesson", "b-first-lesson", "b-second-lesson"} <= set(b_nodes)
        await _write(a, "a-third-lesson")  # in a's journal while a syncs
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
        a_nodes = nodes_by_id(graph(a)["user"])
        assert {"a-first-lesson", "a-second-lesson", "a-third-lesson", "b-first-lesson", "b-second-lesson"} <= set(a_nodes)
        async with Client(a.url + "/") as c:
            s = await Session.open(c)
            assert "written on machine-b" in await s.ok("kg_read", id="b-first-lesson")
        out = _sync(b, remote)
        assert out.returncode == 0, out.stderr
        assert "a-third-lesson" in nodes_by_id(graph(b)["user"])
        # Both stores and the remote agree, and survive restarts.
        for srv in (a, b):
            srv.stop()
            srv.start()
            assert set(nodes_by_id(graph(srv)["user"])) == set(a_nodes) | {"a-third-lesson"}
        assert set(committed_graph(remote, env=a.env)["nodes"]) == set(a_nodes)
    finally:
        a.stop()
        b.stop()


async def test_a_rename_on_one_machine_is_a_rename_on_the_other(tmp_path):
    # A node renamed to a like id empties one shard and fills a like one: git's rename detection named
    # only the new file, so the other machine never dropped the old id (it came back at its next edit).
    remote, a, b = _two_machines(tmp_path)
    folders = {a: a.project("proj"), b: b.project("proj")}
    old = [f"lesson-number-{i}" for i in range(4)]
    try:
        async with Client(b.url + "/") as c:
            await Session.open(c, cwd=folders[b])  # b knows its project before the first sync
        async with Client(a.url + "/") as c:
            s = await Session.open(c, cwd=folders[a])
            for i, node_id in enumerate(old):
                await s.ok("kg_put_node", level="project", id=node_id, gist=f"short lesson {i}")
            _sync_in_turn(remote, a, b, a)
            for node_id in old:
                await s.ok("kg_rename_node", old_id=node_id, new_id=node_id.replace("number", "numbez"))
                _sync_in_turn(remote, a, b)
        for srv in (a, b):
            ids = set(nodes_by_id(graph(srv, project_path=folders[srv])["project"]))
            assert ids == {i.replace("number", "numbez") for i in old}, (srv.env["KG_MACHINE"], ids)
    finally:
        a.stop()
        b.stop()


async def test_a_rename_on_one_machine_and_an_edit_under_the_old_id_on_the_other_make_one_node(tmp_path):
    # Before, both ids lived on: the renamed node without the edit, the old id with it, and nobody was told.
    remote, a, b = _two_machines(tmp_path)
    folders = {a: a.project("proj"), b: b.project("proj")}
    try:
        async with Client(b.url + "/") as c:
            await Session.open(c, cwd=folders[b])  # b knows its project before the first sync
        async with Client(a.url + "/") as c:
            s = await Session.open(c, cwd=folders[a])
            await s.ok("kg_put_node", level="project", id="cache-warmup-order", gist="warm the cache before the pool")
            await s.ok("kg_put_node", level="project", id="pool-sizing", gist="the pool holds 20 connections")
            await s.ok("kg_put_edge", level="project", frm="pool-sizing", to="cache-warmup-order", rel="depends-on")
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as c:
            s = await Session.open(c, cwd=folders[a])
            await s.ok("kg_rename_node", old_id="cache-warmup-order", new_id="warm-cache-before-pool")
        async with Client(b.url + "/") as c:
            s = await Session.open(c, cwd=folders[b])
            await s.ok("kg_put_node", level="project", id="cache-warmup-order",
                       gist="warm the cache before the pool opens, or the first requests time out")
        _sync_in_turn(remote, a, b, a)
        for srv in (a, b):
            project = graph(srv, project_path=folders[srv])["project"]
            nodes = nodes_by_id(project)
            assert "cache-warmup-order" not in nodes, srv.env["KG_MACHINE"]
            assert nodes["warm-cache-before-pool"]["gist"].endswith("or the first requests time out")
            assert {(e["from"], e["to"]) for e in project["edges"]} == {("pool-sizing", "warm-cache-before-pool")}
    finally:
        a.stop()
        b.stop()


async def test_a_rename_merged_across_buckets_keeps_both_machines_progress_and_renamed_ids(tmp_path):
    # The rename's carry rebuilt every merged part from nodes and edges, meta.json too: every task's progress
    # and the user graph's renamed ids (which rewire project edges to the old id) were wiped on both machines.
    remote, a, b = _two_machines(tmp_path)
    try:
        await _write(a, "node-to-rename-later")
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_progress", level="user", task_id="a-task", state={"done": ["step1"]})
        async with Client(b.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_progress", level="user", task_id="b-task", state={"done": ["stepB"]})
            await s.ok("kg_rename_node", old_id="node-to-rename-later", new_id="node-renamed-on-b")
        _sync_in_turn(remote, a, b, a)
        for srv in (a, b):
            async with Client(srv.url + "/") as c:
                s = await Session.open(c)
                for task, step in (("a-task", "step1"), ("b-task", "stepB")):
                    text = await s.ok("kg_progress", level="user", task_id=task)
                    assert step in text, (srv.env["KG_MACHINE"], task, text)
            user = graph(srv)["user"]
            assert "node-renamed-on-b" in nodes_by_id(user) and "node-to-rename-later" not in nodes_by_id(user)
    finally:
        a.stop()
        b.stop()


async def test_a_node_renamed_on_both_machines_to_two_ids_is_one_node_and_the_other_id_is_told(tmp_path):
    # Both ids lived on with the same content, and the sync said "added"; the three ids fall in three buckets.
    # Both machines synced once before the node came: b's running graph took it in from the merge, and its
    # rename left the node in the old id's bucket too (the mirror's record was the file before the merge).
    remote, a, b = _two_machines(tmp_path)
    try:
        await _write(a, "node-of-an-earlier-sync")
        _sync_in_turn(remote, a, b)
        await _write(a, "double-rename-node")
        _sync_in_turn(remote, a, b)
        renamers = {}
        for srv, new_id in ((b, "double-renamed-by-b"), (a, "double-renamed-by-a")):  # a's rename is the later
            async with Client(srv.url + "/") as c:
                renamers[srv] = s = await Session.open(c)
                await s.ok("kg_rename_node", old_id="double-rename-node", new_id=new_id)
        _sync_in_turn(remote, a, b, a)
        async with Client(b.url + "/") as c:
            s = renamers[b]
            s.client = c  # b's session knew its node as b's id: a write there is told where the lesson went
            refused = await s.err("kg_put_node", level="user", id="double-renamed-by-b", gist="b's edit")
            assert "renamed to 'double-renamed-by-a'" in refused and "was deleted" not in refused, refused
        for srv in (a, b):
            user = nodes_by_id(graph(srv)["user"])
            assert {"double-rename-node", "double-renamed-by-b"} & set(user) == set(), srv.env["KG_MACHINE"]
            async with Client(srv.url + "/") as c:
                s = await Session.open(c)
                text = await s.ok("kg_read", id="double-renamed-by-a")
                assert "renamed to 'double-renamed-by-b' there" in text, text
    finally:
        a.stop()
        b.stop()


async def test_a_node_that_came_by_sync_and_was_deleted_here_is_deleted_on_the_other_machine_too(tmp_path):
    # The commit after the delete left the node in its bucket: the other machine kept it, and it came back here.
    remote, a, b = _two_machines(tmp_path)
    try:
        await _write(a, "node-of-an-earlier-sync")
        _sync_in_turn(remote, a, b)
        await _write(a, "synced-then-deleted-node")
        _sync_in_turn(remote, a, b)
        async with Client(b.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_read", id="synced-then-deleted-node")
            await s.ok("kg_delete_node", id="synced-then-deleted-node")
        _sync_in_turn(remote, b, a, b)
        for srv in (a, b):
            assert "synced-then-deleted-node" not in nodes_by_id(graph(srv)["user"]), srv.env["KG_MACHINE"]
        assert "synced-then-deleted-node" not in committed_graph(remote, env=a.env)["nodes"]
    finally:
        a.stop()
        b.stop()

async def test_a_machine_that_syncs_before_opening_its_project_gets_that_projects_memory(tmp_path):
    # The README's way onto a new machine: `kg sync REMOTE`, then work. The project sits elsewhere there
    # (another home): its synced graph named the other machine's folder, so this one got a new empty
    # graph, and its lessons never met the other's.
    remote, a, b = _two_machines(tmp_path)
    try:
        await _lesson_synced_from(a, remote, "build-needs-make", "run make before the tests")
        out = _sync(b, remote)  # b has never opened its own copy of the project
        assert out.returncode == 0 and "build-needs-make" in out.stdout, out.stdout
        async with Client(b.url + "/") as c:
            s = await Session.open(c, cwd=b.project("proj"))
            assert "build-needs-make" in s.first_text
            await s.ok("kg_put_node", level="project", id="written-on-b", gist="a lesson b learned")
        assert _sync(b, remote).returncode == 0 and _sync(a, remote).returncode == 0
        assert {"build-needs-make", "written-on-b"} <= set(nodes_by_id(graph(a, project_path=a.project("proj"))["project"]))
        for srv in (b, a, b):  # each keeps its own folder for the graph: no conflict over it, round after round
            out = _sync(srv, remote)
            assert out.returncode == 0 and "both machines" not in out.stdout + out.stderr, out.stdout
    finally:
        a.stop()
        b.stop()


async def test_a_lesson_that_arrives_by_sync_is_pushed_to_the_sessions_of_its_project(tmp_path):
    # kg_sync listed it, but no reply pushed it: its writer is a session this machine does not know.
    remote, a, b = _two_machines(tmp_path)
    try:
        async with Client(b.url + "/") as cb:
            sb = await Session.open(cb, cwd=b.project("proj"))
            await sb.ok("kg_put_node", level="project", id="b-first-lesson", gist="written on b first")
            assert _sync(b, remote).returncode == 0
            shutil.rmtree(b.project("proj"))  # both machines are this one here: b's folder is not on "a"
            await _lesson_synced_from(a, remote, "a-new-lesson", "learned on machine a")
            b.project("proj")
            assert _sync(b, remote).returncode == 0
            reply = await sb.ok("kg_put_node", level="project", id="b-second-lesson", gist="written on b again")
        assert "other sessions wrote" in reply and "a-new-lesson" in reply, reply
    finally:
        a.stop()
        b.stop()


def _repo_holding(tmp_path: Path, name: str, files: dict[str, str], branch: str = "main") -> Path:
    """A bare repository whose `branch` (its HEAD) holds `files` (what a hosted repository made elsewhere has)."""
    env = git_env(tmp_path, "x")
    work, remote = tmp_path / f"{name}-work", tmp_path / f"{name}.git"
    subprocess.run(["git", "init", "-q", "-b", branch, str(work)], check=True, env=env, timeout=60)
    for rel, text in files.items():
        path = work / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(work, "add", "-A", env=env)
    git(work, "commit", "-q", "-m", "start", env=env)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(remote)], check=True, env=env, timeout=60)
    return remote


def _branches(repo: Path, env: dict) -> list[str]:
    return git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads", env=env).split()


def test_a_remote_that_holds_something_else_is_refused_and_a_new_repositorys_readme_is_not(tmp_path):
    # A dotfiles repository given by mistake: the store was merged into it and pushed there, without a word.
    dotfiles = _repo_holding(tmp_path, "dotfiles", {".bashrc": "alias ll='ls -l'\n", "README.md": "# dots\n"})
    srv = _machine(tmp_path, "machine-a", _user("a-seed-node"))
    out = _sync(srv, dotfiles)
    assert out.returncode != 0 and "holds no kg memory (.bashrc, README.md)" in out.stderr, out.stderr
    assert "a-seed-node" not in git(dotfiles, "log", "--all", "--stat", env=srv.env)  # nothing pushed there
    # Refused before the store became a repository: no .git, ignore file or mirror was left behind.
    assert not {".git", ".gitignore", ".gitattributes", "shards"} & {p.name for p in srv.store.iterdir()}
    srv.start()
    try:
        out = _sync(srv, dotfiles)  # through the server: the same
        assert out.returncode != 0 and "holds no kg memory" in out.stderr, out.stderr
        assert not {".git", ".gitignore", ".gitattributes", "shards"} & {p.name for p in srv.store.iterdir()}
    finally:
        srv.stop()
    # A web project with a projects/ folder: the folder's name is a kg store's, what stands beside it is not.
    site = _repo_holding(tmp_path, "site", {"projects/website/index.html": "x\n", "src/a.py": "y\n", "Makefile": "m\n"})
    out = _sync(srv, site)
    assert out.returncode != 0 and "holds no kg memory (Makefile, projects, src)" in out.stderr, out.stderr
    assert "a-seed-node" not in git(site, "log", "--all", "--stat", env=srv.env)
    fresh = _repo_holding(tmp_path, "fresh", {"README.md": "# my memory\n", "LICENSE": "MIT\n"})
    out = _sync(srv, fresh)
    assert out.returncode == 0, out.stderr


def test_a_remote_that_holds_something_else_on_a_branch_of_another_name_is_refused(tmp_path):
    # Only a remote branch named as ours (main) was looked at: a repository on `trunk`, or on a plain `git init`'s
    # `master`, was taken for an empty one and got a `main` holding the whole store, and the sync said "synced".
    srv = _machine(tmp_path, "machine-a", _user("a-seed-node"))
    for branch in ("trunk", "master"):
        other = _repo_holding(tmp_path, f"notes-on-{branch}", {"notes.txt": "hi\n"}, branch=branch)
        out = _sync(srv, other)
        assert out.returncode == 1 and f"branch {branch} holds no kg memory (notes.txt)" in out.stderr, out.stderr
        assert "synced" not in out.stdout
        assert _branches(other, srv.env) == [branch]  # nothing pushed there
        assert "a-seed-node" not in git(other, "log", "--all", "--stat", env=srv.env)


def test_a_remote_that_does_not_answer_makes_no_repository_of_the_store(tmp_path):
    """A typo'd remote failed the sync, but the store had become a repository first (.gitignore, .gitattributes,
    shards/ and a commit): with no server, and through one."""
    srv = _machine(tmp_path, "machine-a", _user("a-seed-node"))
    before = sorted(p.name for p in srv.store.iterdir())
    for running in (False, True):
        if running:
            srv.start()
        try:
            out = _sync(srv, tmp_path / "no-such-remote.git")
            assert out.returncode == 1 and "cannot fetch from" in out.stderr, out.stderr
            assert not (srv.store / ".git").exists()
            assert not {".gitignore", ".gitattributes", "shards"} & {p.name for p in srv.store.iterdir()}
        finally:
            srv.stop()
    assert set(before) <= {p.name for p in srv.store.iterdir()}


def test_a_remote_given_as_a_path_relative_to_here_is_that_one(tmp_path):
    # git ran in the store's folder: `kg sync other.git` looked for the store's own other.git.
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    srv = _machine(tmp_path, "machine-a", _user("a-seed-node"))
    out = subprocess.run([KG, "sync", "remote.git", "--remember"], cwd=tmp_path, env=srv.env, capture_output=True,
                         text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == 0 and f"synced with {remote}" in out.stdout, out.stdout + out.stderr
    assert "a-seed-node" in committed_graph(remote, rev="main", env=srv.env)["nodes"]
    assert json.loads((srv.store / "config.json").read_text())["sync_remote"] == str(remote)


def test_a_token_in_the_remotes_url_is_never_pushed_nor_printed(tmp_path):
    token = "ghp_" + "Zq8x" * 9
    url = f"https://bob:{token}@git.example.invalid/mem.git"
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    srv = _machine(tmp_path, "machine-a", _user("a-seed-node"))
    # git is given the URL without its token (storage/git_auth.py): that one leads to the local remote.
    srv.env.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0=f"url.{remote}.insteadOf",
                   GIT_CONFIG_VALUE_0="https://bob@git.example.invalid/mem.git")
    other = _machine(tmp_path, "machine-b", _user("b-seed-node"))
    assert _sync(other, remote).returncode == 0  # so that a's sync merges: a merge commit with a message
    out = _sync(srv, url)  # offline: no server running
    assert out.returncode == 0, out.stderr
    assert "https://bob:***@git.example.invalid/mem.git" in out.stdout and token not in out.stdout + out.stderr
    history = git(remote, "log", "--all", "--format=%B", env=srv.env)
    assert "kg: sync with https://bob:***@" in history and token not in history


def test_a_remote_that_never_answers_holds_no_shutdown_and_leaves_no_git_behind(tmp_path):
    import signal
    import socket
    import threading

    import httpx
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # accepts (the kernel does), never answers
    remote = f"http://127.0.0.1:{silent.getsockname()[1]}/mem.git"
    srv = _machine(tmp_path, "machine-a", _user("a-seed-node")).start()
    try:
        def sync() -> None:
            try:
                httpx.post(srv.url + "/api/store/sync", json={"remote": remote}, timeout=60)  # as `kg sync` does
            except httpx.HTTPError:
                pass  # the server went away under it: what this test does
        threading.Thread(target=sync, daemon=True).start()
        assert wait_until(lambda: subprocess.run(["pgrep", "-f", remote], capture_output=True).returncode == 0, 20)
        started = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        assert srv.proc.wait(timeout=60) == 0
        assert time.monotonic() - started < 20  # the shutdown grace, not git's two minutes
        assert subprocess.run(["pgrep", "-f", remote], capture_output=True).returncode == 1  # its git is gone
    finally:
        srv.stop()
        silent.close()


async def test_a_node_changed_on_both_machines_keeps_the_later_and_tells_the_next_reader(tmp_path):
    remote, a, b = _two_machines(tmp_path, _user("shared-lesson-node"))
    try:
        assert _sync(a, remote).returncode == 0
        assert _sync(b, remote).returncode == 0
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            await sa.ok("kg_read", id="shared-lesson-node")
            await sb.ok("kg_read", id="shared-lesson-node")
            await sa.ok("kg_put_node", level="user", id="shared-lesson-node", gist="machine a's earlier rewrite")
            await sb.ok("kg_put_node", level="user", id="shared-lesson-node", gist="machine b's later rewrite")
            assert _sync(a, remote).returncode == 0
            out = _sync(b, remote)
            assert out.returncode == 0, out.stderr
            assert "changed on both machines" in out.stdout and "shared-lesson-node" in out.stdout
            # b wrote last: b's version stands, a's is delivered to the next reader as a notice.
            text = await sb.ok("kg_read", id="shared-lesson-node")
            assert "machine b's later rewrite" in text
            assert "CHANGED ON ANOTHER MACHINE" in text and "gist: machine a's earlier rewrite" in text
            out = _sync(a, remote)
            assert out.returncode == 0, out.stderr
            # a's session saw only its own version: arbitration refuses its write until it has read b's.
            refused = await sa.err("kg_put_node", level="user", id="shared-lesson-node", gist="a blind rewrite")
            assert "NOT WRITTEN" in refused and "machine b's later rewrite" in refused
            assert "changed on another machine" in refused and "cut short" not in refused, refused
            text = await sa.ok("kg_read", id="shared-lesson-node")
            assert "CHANGED ON ANOTHER MACHINE" in text and "machine a's earlier rewrite" in text
            # The editor sees the conflict until it is resolved; a write resolves it.
            conflicts = get_json(a, "/api/store/conflicts")["conflicts"]
            assert [c["id"] for c in conflicts] == ["shared-lesson-node"]
            assert conflicts[0]["others"][0]["gist"] == "machine a's earlier rewrite"
            opened = get_json(a, "/api/nodes/user/shared-lesson-node")  # what the editor opens
            assert opened["node"]["conflicts"][0]["gist"] == "machine a's earlier rewrite"
            await sa.ok("kg_put_node", level="user", id="shared-lesson-node",
                        gist="machine b's later rewrite, with what a's version added")
            text = await sa.ok("kg_read", id="shared-lesson-node")
            assert "CHANGED ON ANOTHER MACHINE" not in text
        assert _sync(a, remote).returncode == 0
        assert _sync(b, remote).returncode == 0
        node = nodes_by_id(graph(b)["user"])["shared-lesson-node"]
        assert node["gist"] == "machine b's later rewrite, with what a's version added" and "_conflicts" not in node
        b.stop()
        b.start()
        async with Client(b.url + "/") as cb:
            sb.client = cb  # b's session read its own version, before a resolved the conflict
            refused = await sb.err("kg_put_node", level="user", id="shared-lesson-node", gist="b's blind rewrite")
            assert "changed on another machine" in refused and "with what a's version added" in refused, refused
            await sb.ok("kg_put_node", level="user", id="shared-lesson-node", gist="b's rewrite, having seen a's")
    finally:
        a.stop()
        b.stop()


async def test_a_write_built_on_a_view_a_sync_replaced_is_refused_saying_so_and_the_retry_goes_through(tmp_path):
    # The refusal said the session had seen the node's gist only cut short, never whole: it had read it whole.
    remote, a, b = _two_machines(tmp_path, _user("stale-view-node", "stale-after-restart-node"))
    try:
        _sync_in_turn(remote, a, b)
        async with Client(b.url + "/") as cb:
            sb = await Session.open(cb)
            for node_id in ("stale-view-node", "stale-after-restart-node"):
                await sb.ok("kg_read", id=node_id)
        await _write(a, "stale-view-node", "stale-after-restart-node", gist="rewritten on machine a")
        _sync_in_turn(remote, a, b)
        async with Client(b.url + "/") as cb:
            sb.client = cb
            refused = await sb.err("kg_put_node", level="user", id="stale-view-node", gist="b's blind rewrite")
            assert "NOT WRITTEN" in refused and "changed on another machine" in refused and "kg sync" in refused
            assert "cut short" not in refused and "rewritten on machine a" in refused  # the node as it stands
            await sb.ok("kg_put_node", level="user", id="stale-view-node", gist="b's rewrite, having seen a's")
        b.stop()
        b.start()  # what the session saw is kept across a restart, and so is why its view went stale
        async with Client(b.url + "/") as cb:
            sb.client = cb
            refused = await sb.err("kg_put_node", level="user", id="stale-after-restart-node", gist="b's blind one")
            assert "changed on another machine" in refused and "rewritten on machine a" in refused, refused
            await sb.ok("kg_put_node", level="user", id="stale-after-restart-node", gist="b's rewrite, seen a's")
        assert nodes_by_id(graph(b)["user"])["stale-after-restart-node"]["gist"] == "b's rewrite, seen a's"
    finally:
        a.stop()
        b.stop()


async def test_edge_notes_replaced_on_both_machines_merge_three_way_and_a_note_removed_there_stays_gone(tmp_path):
    # Both machines' lists were joined whole: a note one machine had removed came back, and no conflict was listed.
    remote, a, b = _two_machines(tmp_path)
    edge = {"level": "user", "frm": "edge-source-node", "to": "edge-target-node", "rel": "depends-on"}
    try:
        async with Client(a.url + "/") as c:
            sa = await Session.open(c)
            for node_id in ("edge-source-node", "edge-target-node"):
                await sa.ok("kg_put_node", level="user", id=node_id, gist=f"{node_id} gist")
            await sa.ok("kg_put_edge", **edge, notes=["WRONG: needs v1 api", "kept on both"])
            _sync_in_turn(remote, a, b)
            # a's session wrote the notes: its list replaces them. b's session never saw them: its note joins.
            await sa.ok("kg_put_edge", **edge, notes=["kept on both", "needs v2 api (machine-a)"])
        async with Client(b.url + "/") as c:
            sb = await Session.open(c)
            await sb.ok("kg_put_edge", **edge, notes=["needs v2 api (machine-b)"])
        _sync_in_turn(remote, a, b, a)
        held = {}
        for srv in (a, b):
            [found] = [e for e in graph(srv)["user"]["edges"] if e["from"] == "edge-source-node"]
            held[srv.env["KG_MACHINE"]] = found["notes"]
            assert get_json(srv, "/api/store/conflicts")["conflicts"] == []
        assert held["machine-a"] == held["machine-b"], held
        assert sorted(held["machine-a"]) == ["kept on both", "needs v2 api (machine-a)", "needs v2 api (machine-b)"]
    finally:
        a.stop()
        b.stop()


async def test_a_node_deleted_on_another_machine_is_not_brought_back_unknowingly_by_a_write_here(tmp_path):
    remote, a, b = _two_machines(tmp_path, _user("deleted-elsewhere-node", "kept-beside-node"))
    try:
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            await sa.ok("kg_read", id="deleted-elsewhere-node")
            await sb.ok("kg_read", id="deleted-elsewhere-node")
            await sb.ok("kg_delete_node", id="deleted-elsewhere-node")
            _sync_in_turn(remote, b, a)  # a's read of it is no edit: the delete stands on a too
            assert "deleted-elsewhere-node" not in nodes_by_id(graph(a)["user"])
            # a's session built its write on the node it saw: refused once, saying the node went.
            refused = await sa.err("kg_put_node", level="user", id="deleted-elsewhere-node", gist="a rewrite")
            assert "NOT WRITTEN" in refused and "was deleted after this session last saw it" in refused
            assert "a sync from another machine" in refused
            assert "deleted-elsewhere-node" not in nodes_by_id(graph(a)["user"])
            # Sent again, the write is a choice made knowing: the lesson comes back.
            await sa.ok("kg_put_node", level="user", id="deleted-elsewhere-node", gist="a rewrite")
            assert nodes_by_id(graph(a)["user"])["deleted-elsewhere-node"]["gist"] == "a rewrite"
    finally:
        a.stop()
        b.stop()


async def test_a_sync_names_only_the_graphs_whose_nodes_or_edges_it_changed(tmp_path):
    remote, a, b = _two_machines(tmp_path)
    try:
        async with Client(a.url + "/") as c:
            s = await Session.open(c, cwd=a.project("quiet-proj"))
            await s.ok("kg_put_node", level="project", id="quiet-project-lesson", gist="written on a")
        _sync_in_turn(remote, a, b)
        await _write(b, "b-user-lesson")
        _sync_in_turn(remote, b)
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
        assert "user: 1 node(s) added: b-user-lesson" in out.stdout
        assert "no node or edge changed" not in out.stdout
    finally:
        a.stop()
        b.stop()

async def test_bad_remotes_and_repositories_are_said_clearly_and_lose_nothing(tmp_path):
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node")).start()
    try:
        out = _sync(a, tmp_path / "no-such-remote.git")
        assert out.returncode == 1 and "cannot fetch from" in out.stderr and "no-such-remote.git" in out.stderr
        assert "a-lesson-node" in nodes_by_id(graph(a)["user"])
        # A "remote" git would take for an option of its own (and run): refused before anything is done.
        planted = tmp_path / "planted"
        out = _sync(a, f"--upload-pack=touch {planted}")
        assert out.returncode == 1 and "is not a remote" in out.stderr, out.stderr
        assert not planted.exists()
        # A remote that refuses the push: the merge stays here, the message says so.
        refusing = bare_repo(tmp_path / "refusing.git", git_env(tmp_path, "x"))
        hook = refusing / "hooks" / "pre-receive"
        hook.write_text("#!/bin/sh\necho 'pushes are closed today' >&2\nexit 1\n")
        hook.chmod(0o755)
        await _write(a, "written-before-refused-push")
        out = _sync(a, refusing)
        assert out.returncode == 1 and "push was refused" in out.stderr and "pushes are closed today" in out.stderr
        assert "fetched and merged from" in out.stdout and "synced with" not in out.stdout
        assert "written-before-refused-push" in committed_graph(a.store, env=a.env)["nodes"]
        # A repository in the middle of a rebase: no commit, no sync, a message that says how to go on.
        (a.store / ".git" / "rebase-merge").mkdir()
        out = kg(["commit"], a.env)
        assert out.returncode == 1 and "in the middle of a rebase" in out.stderr and "rebase --abort" in out.stderr
        out = _sync(a, refusing)
        assert out.returncode == 1 and "in the middle of a rebase" in out.stderr
        # The server keeps serving what it had, and keeps taking writes.
        assert {"a-lesson-node", "written-before-refused-push"} <= set(nodes_by_id(graph(a)["user"]))
        await _write(a, "written-during-the-rebase")
        (a.store / ".git" / "rebase-merge").rmdir()
        assert a.health()["status"] == "ok"
        assert kg(["commit"], a.env).returncode == 0
        assert "written-during-the-rebase" in committed_graph(a.store, env=a.env)["nodes"]
    finally:
        a.stop()


async def test_conflict_markers_in_a_remote_graph_file_undo_the_merge(tmp_path):
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node")).start()
    try:
        assert _sync(a, remote).returncode == 0
        # Someone merged by hand elsewhere and pushed a graph's file (its bucket in git) with conflict markers.
        env = {**a.env, **git_env(tmp_path / "hand", "hand")}
        clone = tmp_path / "hand-clone"
        subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True, env=env, timeout=60)
        part = clone / shards.folder("user") / shards.bucket("a-lesson-node")
        text = part.read_text()
        part.write_text("<<<<<<< HEAD\n" + text + "=======\n{}\n>>>>>>> theirs\n")
        git(clone, "commit", "-qam", "a bad hand merge", env=env)
        git(clone, "push", "-q", "origin", "HEAD:main", env=env)
        await _write(a, "written-before-bad-merge")
        head = git(a.store, "rev-parse", "HEAD", env=a.env)
        out = _sync(a, remote)
        assert out.returncode == 1, out.stdout
        assert "merging" in out.stderr and "undone" in out.stderr
        assert "conflict markers" in out.stderr
        assert not (a.store / ".git" / "MERGE_HEAD").exists()
        assert git(a.store, "rev-parse", "HEAD", env=a.env) != head  # the local write was committed...
        assert json.loads((a.store / "user.json").read_text())  # ...and the file is a graph, not markers
        nodes = nodes_by_id(graph(a)["user"])
        assert {"a-lesson-node", "written-before-bad-merge"} <= set(nodes)
    finally:
        a.stop()


async def test_a_remote_of_an_older_store_that_tracks_its_graph_files_merges_per_node(tmp_path):
    """An older kg store kept user.json itself in git, with a history of its own. The merge stopped at taking
    that file out of the index (git rm refused it) and left the store in a merge --abort could not undo."""
    remote = bare_repo(tmp_path / "old.git", git_env(tmp_path, "x"))
    env = {**git_env(tmp_path / "old", "old"), "HOME": str(tmp_path / "old")}
    old = tmp_path / "old-store"
    old.mkdir()
    git(old, "init", "-q", "-b", "main", env=env)
    (old / "user.json").write_text(json.dumps(_user("learned-on-the-old-machine")))
    git(old, "add", "user.json", env=env)
    git(old, "commit", "-qm", "an older store's commit", env=env)
    git(old, "push", "-q", str(remote), "HEAD:main", env=env)
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node")).start()
    try:
        out = _sync(a, remote)  # merged here; not pushed while the remote holds its graph files (old_layout.py)
        assert out.returncode == 1 and "fetched and merged from" in out.stdout, out.stdout + out.stderr
        assert not (a.store / ".git" / "MERGE_HEAD").exists()
        assert {"a-lesson-node", "learned-on-the-old-machine"} <= set(nodes_by_id(graph(a)["user"]))
        assert "user.json" not in git(a.store, "ls-files", env=a.env).split()  # shards from here on
    finally:
        a.stop()


def _store_017(store: Path, env: dict, *ids: str, files: dict[str, str] | None = None) -> None:
    """A kg-memory 0.17 store kept in git as its README says: a plain `git init` (branch master), its ignore
    file, the graph files themselves committed (by its autocommit's `git add -A`), with `files` beside them."""
    store.mkdir(parents=True, exist_ok=True)
    git(store, "init", "-q", "-b", "master", env=env)
    (store / ".gitignore").write_text("*.prev\n*.tmp\n")
    (store / "user.json").write_text(json.dumps(_user(*ids)))
    for rel, text in (files or {}).items():
        (store / rel).parent.mkdir(parents=True, exist_ok=True)
        (store / rel).write_text(text)
    git(store, "add", "-A", env=env)
    git(store, "commit", "-qm", "Auto-save 2026-11-30 10:00", env=env)


async def test_a_017_stores_remote_on_master_and_a_new_store_exchange_memory_on_one_branch(tmp_path):
    """0.17 stores are on `master`, a new store on `main`: each synced with a branch of its own name, the
    remote ended with both, memory never crossed, and both were told "synced". Nothing is pushed there until
    the 0.17 machine is upgraded (its graph files would leave the branch it pulls)."""
    remote = tmp_path / "old.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(remote)], check=True, timeout=60,
                   env=git_env(tmp_path, "x"))
    b = _machine(tmp_path, "machine-b")  # the upgraded 0.17 machine: its store as 0.17 left it
    _store_017(b.store, b.env, "learned-on-the-old-machine")
    git(b.store, "push", "-q", str(remote), "master", env=b.env)
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node")).start()
    b.start()  # upgraded now
    try:
        out = _sync(a, remote)
        assert out.returncode == 1 and "kg-memory 0.17" in out.stderr, out.stderr  # b might still run 0.17
        assert {"a-lesson-node", "learned-on-the-old-machine"} <= set(nodes_by_id(graph(a)["user"]))
        assert git(a.store, "branch", "--show-current", env=a.env).strip() == "main"  # ours keeps its name
        out = _sync(b, remote, "--all-upgraded")
        assert out.returncode == 0, out.stderr
        assert git(b.store, "branch", "--show-current", env=b.env).strip() == "master"
        _sync_in_turn(remote, a, b)
        assert _branches(remote, a.env) == ["master"]
        assert "a-lesson-node" in committed_graph(remote, rev="master", env=a.env)["nodes"]
        assert {"a-lesson-node", "learned-on-the-old-machine"} <= set(nodes_by_id(graph(b)["user"]))
    finally:
        a.stop()
        b.stop()


async def test_a_sync_merges_a_017_remote_but_pushes_nothing_that_would_delete_a_017_machines_graphs(tmp_path):
    """A kg-memory 0.17 machine still pulling from the remote: the push stopped tracking its graph files, and its
    next `git pull` deleted them (0.17 then served an empty memory, and nothing warned anyone)."""
    remote = tmp_path / "old.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(remote)], check=True, timeout=60,
                   env=git_env(tmp_path, "x"))
    old, old_env = tmp_path / "old-store", git_env(tmp_path, "old")
    project = json.dumps({"nodes": {"api-auth-middleware": {"id": "api-auth-middleware", "gist": "auth first"}},
                          "edges": {}, "_meta": {"versions": {}, "project_path": "/home/old/code/api"}})
    _store_017(old, old_env, "learned-on-the-old-machine", files={"projects/api/graph.json": project})
    git(old, "push", "-q", "-u", str(remote), "master", env=old_env)
    tip = git(remote, "rev-parse", "master", env=old_env).strip()
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node")).start()
    try:
        import httpx
        r = httpx.post(a.url + "/api/store/sync", json={"remote": str(remote), "all_upgraded": "yes"}, timeout=60)
        assert r.status_code == 400 and r.json()["field"] == "all_upgraded", r.text
        for attempt in ("through the server", "with no server"):
            out = _sync(a, remote)
            said = out.stdout + out.stderr
            assert out.returncode == 1, (attempt, said)
            assert "kg-memory 0.17" in said and "user.json" in said and "--all-upgraded" in said, said
            # The 0.17 memory is taken in here; the remote is as the 0.17 machine left it.
            assert git(remote, "rev-parse", "master", env=old_env).strip() == tip
            if attempt == "through the server":
                assert {"a-lesson-node", "learned-on-the-old-machine"} <= set(nodes_by_id(graph(a)["user"]))
                a.stop()
        git(old, "pull", "-q", "--no-rebase", "--no-edit", str(remote), "master", env=old_env)
        assert "learned-on-the-old-machine" in json.loads((old / "user.json").read_text())["nodes"]
        assert (old / "projects" / "api" / "graph.json").read_text() == project
        # Every machine upgraded: said once, and the remote takes this kg's layout.
        a.start()
        out = kg(["sync", str(remote), "--all-upgraded"], a.env)
        assert out.returncode == 0, out.stdout + out.stderr
        held = git(remote, "ls-tree", "-r", "--name-only", "master", env=old_env).split()
        assert "user.json" not in held and any(n.startswith("shards/user/") for n in held)
        assert {"a-lesson-node", "learned-on-the-old-machine"} <= set(committed_graph(remote, rev="master",
                                                                                        env=old_env)["nodes"])
        assert _sync(a, remote).returncode == 0  # from then on, as any sync
    finally:
        a.stop()


def test_two_upgraded_017_machines_sync_both_ways_and_keep_their_machine_local_files(tmp_path):
    """A 0.17 store's history tracks its sessions, logs and counters (its .gitignore names `*.prev` and `*.tmp`
    only): kg went on committing them, and a sync between two upgraded machines failed ("server.log, server.pid,
    sessions.json changed on both sides and is no graph part")."""
    local = {"sessions.json": "{}\n", "server.log": "started\n", "server.pid": "100\n", "recall.jsonl": "{}\n",
             "projects/proj/tool_events.json": '{"events": {}}\n'}
    remote = tmp_path / "old.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(remote)], check=True, timeout=60,
                   env=git_env(tmp_path, "x"))
    b = _machine(tmp_path, "machine-b")
    _store_017(b.store, b.env, "learned-on-the-old-machine", files=local)
    git(b.store, "push", "-q", str(remote), "master", env=b.env)
    a = _machine(tmp_path, "machine-a")  # the same store, cloned to a second machine as 0.17 users did
    subprocess.run(["git", "clone", "-q", str(remote), str(a.store)], check=True, env=a.env, timeout=60)
    for srv, name in ((a, "a"), (b, "b")):  # each machine's own sessions, log and counters, and a lesson
        user = json.loads((srv.store / "user.json").read_text())
        user["nodes"].update(_user(f"learned-on-{name}")["nodes"])
        (srv.store / "user.json").write_text(json.dumps(user))
        for rel in local:
            (srv.store / rel).write_text(f"{rel} of machine {name}\n")
    assert _sync(a, remote, "--all-upgraded").returncode == 0  # both run this kg now: said once
    _sync_in_turn(remote, b, a)
    for srv, name in ((a, "a"), (b, "b")):
        user = json.loads((srv.store / "user.json").read_text())
        assert {"learned-on-the-old-machine", "learned-on-a", "learned-on-b"} <= set(user["nodes"])
        assert not set(local) & set(git(srv.store, "ls-files", env=srv.env).split())
        for rel in local:  # out of the index, never out of the machine
            assert (srv.store / rel).read_text() == f"{rel} of machine {name}\n"
        ignored = set((srv.store / ".gitignore").read_text().split())
        assert {"sessions.json", "server.pid", "*.log", "*.jsonl", "tool_events.json"} <= ignored
    assert not set(local) & set(git(remote, "ls-tree", "-r", "--name-only", "master", env=a.env).split())


def test_a_new_store_that_merges_a_017_remote_keeps_its_own_machine_local_files(tmp_path):
    """The 0.17 store's history tracks its sessions, log, pid and recall log: the merge wrote them over this
    machine's own (git overwrites an ignored file silently) and committed them."""
    remote = tmp_path / "old.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(remote)], check=True, timeout=60,
                   env=git_env(tmp_path, "x"))
    theirs = {"sessions.json": '{"old": {}}\n', "server.log": "old log\n", "server.pid": "4242\n",
              "recall.jsonl": "{}\n"}
    old = tmp_path / "old-store"
    _store_017(old, git_env(tmp_path, "old"), "learned-on-the-old-machine", files=theirs)
    git(old, "push", "-q", str(remote), "master", env=git_env(tmp_path, "old"))
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node"))
    ours = {"sessions.json": '{"mine": {}}\n', "server.log": "my log\n", "recall.jsonl": '{"mine": 1}\n'}
    for rel, text in ours.items():
        (a.store / rel).write_text(text)
    out = _sync(a, remote, "--all-upgraded")
    assert out.returncode == 0, out.stderr
    assert "learned-on-the-old-machine" in json.loads((a.store / "user.json").read_text())["nodes"]
    for rel, text in ours.items():
        assert (a.store / rel).read_text() == text, rel
    assert not (a.store / "server.pid").exists()  # another machine's pid is no process here
    assert not set(theirs) & set(git(a.store, "ls-files", env=a.env).split())
    assert not set(theirs) & set(git(remote, "ls-tree", "-r", "--name-only", "master", env=a.env).split())


def _driver(base: dict | None, ours: dict, theirs: dict, tmp_path: Path) -> tuple[int, dict, str]:
    paths = []
    for name, value in (("base", base), ("ours", ours), ("theirs", theirs)):
        p = tmp_path / f"{name}.json"
        p.write_text("" if value is None else json.dumps(value, indent=2))
        paths.append(str(p))
    proc = subprocess.run([sys.executable, "-m", "kg_actors", "merge-driver", *paths, "user.json"],
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, json.loads(Path(paths[1]).read_text()), proc.stderr


def test_the_merge_driver_on_reference_format_files(tmp_path):
    base = _ref_user()
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["nodes"]["ref-user-principle"]["_useful_ts"].append(base["nodes"]["ref-user-principle"]["_written"]["ts"] + 99)
    ours["nodes"]["ours-new-node"] = {"id": "ours-new-node", "gist": "from ours", "_created_ts": T}
    theirs["nodes"]["ref-archived-node"]["gist"] = "rewritten there"
    theirs["nodes"]["ref-archived-node"]["_written"] = {"ts": T + 500, "by": "zz"}
    theirs["_meta"]["progress"]["scout"]["last_ts"] = T + 600
    del theirs["nodes"]["ref-orphaned-node"]
    rc, merged, err = _driver(base, ours, theirs, tmp_path)
    assert rc == 0, err
    nodes = merged["nodes"]
    assert nodes["ref-user-principle"]["_custom_future_field"] == {"x": [1, 2]}  # unknown fields ride along
    assert nodes["ref-user-principle"]["color"] == "blue"
    assert len(nodes["ref-user-principle"]["_useful_ts"]) == 3
    assert nodes["ref-archived-node"]["gist"] == "rewritten there" and "ours-new-node" in nodes
    assert "ref-orphaned-node" not in nodes
    assert merged["_meta"]["_future_meta"] == {"k": 1} and merged["_meta"]["progress"]["scout"]["last_ts"] == T + 600
    edge = merged["edges"]["ref-user-principle->ref-archived-node:related-to"]
    assert edge["_weight"] == 0.5 and edge["since"] == "2026-01"
    # Conflict markers in our file: refused, the file left for git to report.
    (tmp_path / "ours.json").write_text("<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> x\n")
    proc = subprocess.run([sys.executable, "-m", "kg_actors", "merge-driver", str(tmp_path / "base.json"),
                           str(tmp_path / "ours.json"), str(tmp_path / "theirs.json"), "user.json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "conflict markers" in proc.stderr
    assert (tmp_path / "ours.json").read_text().startswith("<<<<<<<")


async def test_conflict_markers_in_the_store_are_not_committed_and_the_server_keeps_serving(tmp_path):
    # A running server's save finds the marked file no graph: it writes the graph back from memory (the marked
    # file kept aside for a look) before the commit, which then holds the graph, not the markers.
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node"))
    assert kg(["init-git"], a.env).returncode == 0
    a.start()
    try:
        await _write(a, "written-before-hand-merge")
        assert kg(["commit"], a.env).returncode == 0
        good = (a.store / "user.json").read_text()
        marked = "<<<<<<< HEAD\n" + good + "=======\n{}\n>>>>>>> theirs\n"
        (a.store / "user.json").write_text(marked)
        out = kg(["commit"], a.env)
        assert out.returncode == 0, out.stderr
        assert (a.store / "user.json.replaced").read_text() == marked
        assert "<<<<<<<" not in (a.store / "user.json").read_text()
        assert {"a-lesson-node", "written-before-hand-merge"} <= set(committed_graph(a.store, env=a.env)["nodes"])
        assert {"a-lesson-node", "written-before-hand-merge"} <= set(nodes_by_id(graph(a)["user"]))
    finally:
        a.stop()



def test_a_web_page_cannot_name_the_remote_a_sync_pushes_every_lesson_to(tmp_path):
    """Even from the editor's own origin: a page syncs only with the remote the user configured."""
    import httpx
    srv = _machine(tmp_path, "machine-a", _user("a-seed-node")).start()
    try:
        loot = bare_repo(tmp_path / "loot.git", git_env(tmp_path, "x"))
        for headers in ({"Origin": srv.url}, {"Sec-Fetch-Site": "same-origin"}):
            r = httpx.post(srv.url + "/api/store/sync", json={"remote": str(loot)}, headers=headers, timeout=60)
            assert r.status_code == 400 and r.json()["field"] == "remote", r.text
        assert git(loot, "log", "--all", "--oneline", env=srv.env, check=False) == ""  # nothing was pushed
    finally:
        srv.stop()
