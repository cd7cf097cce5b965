"""`kg sync` keeps what binds a store to its own machine: a project's folder there.

Two machines (two stores, two real servers, one filesystem here) and a bare remote, as in test_git_sync.py.
"""

from __future__ import annotations

import json
import os
import subprocess

from e2e_helpers import Session, graph, nodes_by_id
from git_helpers import bare_repo, git, git_env
from mcp import Client
from test_git_sync import _machine, _sync, _sync_in_turn, _two_machines, _user


def _recorded(srv, slug: str) -> str:
    return json.loads((srv.store / "projects" / slug / "graph.json").read_text())["_meta"]["project_path"]


async def _write(srv, lesson: str) -> None:
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=srv.project("proj"))
        await s.ok("kg_put_node", level="project", id=lesson, gist=f"learnt on {srv.env['KG_MACHINE']}")


async def test_a_synced_project_keeps_this_machines_folder_and_its_sessions_keep_its_graph(tmp_path):
    # The merge took the other machine's folder path into the graph file: this machine's next session in its own
    # folder opened a new empty graph folder, which the next sync pushed as a project of its own.
    remote, a, b = _two_machines(tmp_path)
    try:
        await _write(a, "proj-lesson-from-a")
        assert _sync(a, remote).returncode == 0
        # Machine a's folder is not on machine b (both are this one here): b adopts the project it synced.
        hidden = tmp_path / "a-proj-elsewhere"
        os.rename(a.project("proj"), hidden)
        assert _sync(b, remote).returncode == 0
        await _write(b, "proj-lesson-from-b")
        assert _sync(b, remote).returncode == 0
        os.rename(hidden, a.home / "proj")
        a.stop()  # no actor holds the project's graph: the sync writes its file from the merge
        for srv in (a, b, a):
            out = _sync(srv, remote)
            assert out.returncode == 0, out.stderr
        a.start()
        for srv in (a, b):
            assert _recorded(srv, "proj") == os.path.realpath(srv.project("proj")), srv.env["KG_MACHINE"]
            async with Client(srv.url + "/") as c:
                s = await Session.open(c, cwd=srv.project("proj"))
                text = await s.ok("kg_read", ids=["proj-lesson-from-a", "proj-lesson-from-b"])
            assert "learnt on machine-a" in text and "learnt on machine-b" in text, text
            assert sorted(p.name for p in (srv.store / "projects").iterdir()) == ["proj"], srv.env["KG_MACHINE"]
    finally:
        a.stop()
        b.stop()


AKIA = "AKIA" + "IOSFODNN7" + "EXAMPLQ"  # assembled: no file holds a whole one


def _remote_holds(remote, text: str, env: dict) -> bool:
    """Whether any object of the remote (every commit, tree and blob) holds `text`."""
    listed = git(remote, "rev-list", "--all", "--objects", env=env).split()
    objects = [o for o in listed if len(o) == 40]
    batch = subprocess.run(["git", "-C", str(remote), "cat-file", "--batch"], input="\n".join(objects) + "\n",
                           capture_output=True, text=True, env=env, errors="replace", timeout=60, check=True)
    return text in batch.stdout


async def test_a_project_folder_named_like_a_key_is_left_out_of_the_sync_and_everything_else_syncs(tmp_path):
    # Its graph records the folder's path: every commit and sync of the whole store was refused for it.
    remote, a, b = _two_machines(tmp_path)
    try:
        async with Client(a.url + "/") as c:
            keyed = await Session.open(c, cwd=a.project(AKIA))
            await keyed.ok("kg_put_node", level="project", id="lesson-in-key-folder", gist="learnt in that folder")
            await keyed.ok("kg_put_node", level="user", id="user-lesson-from-a", gist="learnt on a")
        await _write(a, "proj-lesson-from-a")
        out = _sync(a, remote)
        said = out.stdout + out.stderr
        assert out.returncode == 0, said
        [line] = [ln for ln in said.splitlines() if "NOT SYNCED" in ln]
        assert "project:masked-" in line and "looks like" in line and "rename the project folder" in line, said
        assert AKIA not in said and not _remote_holds(remote, AKIA, a.env)
        assert _sync(b, remote).returncode == 0
        async with Client(b.url + "/") as c:
            text = await (await Session.open(c)).ok("kg_read", id="user-lesson-from-a")
            assert "learnt on a" in text, text
            # b's own folder of that name: its first session leaves b's sync working.
            keyed_b = await Session.open(c, cwd=b.project(AKIA))
            await keyed_b.ok("kg_put_node", level="project", id="lesson-in-b-key-folder", gist="learnt on b")
            await keyed_b.ok("kg_put_node", level="user", id="user-lesson-from-b", gist="learnt on b")
        out = _sync(b, remote)
        assert out.returncode == 0 and "NOT SYNCED" in out.stdout + out.stderr, out.stdout + out.stderr
        assert _sync(a, remote).returncode == 0
        assert "user-lesson-from-b" in nodes_by_id(graph(a)["user"])
        assert not _remote_holds(remote, AKIA, a.env)
        # The way out the notice gives, as written: the folder renamed, its graph's folder moved to that name.
        a.stop()
        [graph_dir] = [p for p in (a.store / "projects").iterdir() if p.name.startswith("masked-")]
        os.rename(a.project(AKIA), a.home / "renamed")
        os.rename(graph_dir, a.store / "projects" / "renamed")
        a.start()
        async with Client(a.url + "/") as c:
            text = await (await Session.open(c, cwd=a.project("renamed"))).ok("kg_read", id="lesson-in-key-folder")
            assert "learnt in that folder" in text, text
        out = _sync(a, remote)
        assert out.returncode == 0 and "NOT SYNCED" not in out.stdout + out.stderr, out.stdout + out.stderr
        assert "lesson-in-key-folder" in git(remote, "log", "-p", "main", env=a.env)
        assert not _remote_holds(remote, AKIA, a.env)
    finally:
        a.stop()
        b.stop()


async def test_a_delete_kept_against_an_edit_says_which_machine_was_this_one_when_both_hosts_share_a_name(tmp_path):
    # "deleted on vm and kept because vm changed it": two machines of one host name could not be told apart.
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    a, b = (_machine(tmp_path, name, _user("kept-against-delete") if name == "machine-a" else None)
            for name in ("machine-a", "machine-b"))
    for srv in (a, b):
        srv.env["KG_MACHINE"] = "vm"
        srv.start()
    try:
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            await sa.ok("kg_read", id="kept-against-delete")
            await sa.ok("kg_delete_node", id="kept-against-delete")
            await sb.ok("kg_read", id="kept-against-delete")
            await sb.ok("kg_put_node", level="user", id="kept-against-delete", gist="rewritten on b")
            _sync_in_turn(remote, a, b, a)
            text_a = await sa.ok("kg_read", id="kept-against-delete")
            text_b = await sb.ok("kg_read", id="kept-against-delete")
        assert "deleted on this machine and kept because another machine named vm changed it" in text_a, text_a
        assert "deleted on another machine named vm and kept because this machine changed it" in text_b, text_b
    finally:
        a.stop()
        b.stop()


async def test_the_folder_that_took_the_second_same_name_projects_graph_is_told_nothing_about_the_first(tmp_path):
    # ~/w/t2/svc rightly took t2's graph (svc-<hash>), and was told t1's graph "holds the memory of a folder of this
    # name ... so this folder starts a memory of its own": false, and the hint would move t1's memory into t2.
    import shutil

    remote, a, b = _two_machines(tmp_path)
    try:
        for twin, lesson in (("t1/svc", "svc-one-lesson"), ("t2/svc", "svc-two-lesson")):
            git(a.project(twin), "init", "-q", env=a.env)
            async with Client(a.url + "/") as c:
                s = await Session.open(c, cwd=a.project(twin))
                await s.ok("kg_put_node", level="project", id=lesson, gist=f"{twin} lesson")
        assert _sync(a, remote).returncode == 0
        shutil.rmtree(a.home / "t1")  # machine a's folders are not on machine b (both are this one here)
        shutil.rmtree(a.home / "t2")
        for twin in ("w/t1/svc", "w/t2/svc"):
            git(b.project(twin), "init", "-q", env=b.env)
        assert _sync(b, remote).returncode == 0
        async with Client(b.url + "/") as c:
            for twin, lesson, other in (("w/t2/svc", "svc-two-lesson", "svc-one-lesson"),
                                        ("w/t1/svc", "svc-one-lesson", "svc-two-lesson")):
                text = (await Session.open(c, cwd=b.project(twin))).first_text
                assert lesson in text and other not in text, (twin, text)
                assert "starts a memory of its own" not in text and "holds the memory of" not in text, (twin, text)
    finally:
        a.stop()
        b.stop()
