"""A project folder whose name holds what looks like a key (`~/ghp_…`): its graph works as any other, but the
key never reaches the store's folder names, a commit or a sync, nor what kg status, kg doctor and the
server's log print. A real `kg serve`, real hooks, a real git store."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import httpx
from e2e_helpers import kg
from git_helpers import git, git_env
from hook_helpers import Harness, node, project_graph

from kg_actors.testing import ServerProcess

GHP = "ghp_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp" + "3Hs6Dj0Fg5Ca8Ue2"  # assembled: no file holds a whole one


def _older_store_folder(srv: ServerProcess, name: str, folder: str, lesson: str, gist: str) -> Path:
    """An older kg's store folder `name` holding `folder`'s graph of one lesson (it records that folder)."""
    legacy = srv.store / "projects" / name
    legacy.mkdir(parents=True)
    (legacy / "graph.json").write_text(json.dumps(project_graph(os.path.realpath(folder), [node(lesson, gist)])))
    return legacy


def test_a_folder_named_by_a_key_keeps_its_memory_but_the_key_is_never_stored_committed_or_printed(tmp_path):
    env = git_env(tmp_path)
    srv = ServerProcess(tmp_path, env)
    folder = srv.project(f"work/{GHP}")
    subprocess.run(["git", "init", "-q", folder], check=True, env=srv.env)
    # An older kg's graph of another such folder, in a store folder named by the key as it is.
    older = srv.project(f"old/{GHP}")
    legacy = _older_store_folder(srv, GHP, older, "lesson-of-older-kg", "Learnt there before the key was masked.")
    srv.start("--no-editor")
    try:
        h = Harness(srv, folder)
        assert h.start().context and h.kg_sid
        h.mcp("kg_put_node", level="project", id="lesson-in-key-folder", gist="A lesson learnt in that folder.")
        # The older graph is the folder's still, moved out of the folder named by the key.
        assert "lesson-of-older-kg" in Harness(srv, older).start().context
        assert not legacy.exists()
        # Its graph binds to the folder: a new session there is given the lesson.
        assert "lesson-in-key-folder" in Harness(srv, folder).start().context
        assert not [p for p in (srv.store / "projects").iterdir() if "Zq8Xw2Lk9Vb4Nm7" in p.name]
        # The editor's project list shows the folders masked (its graph key stays the folder, for opening it).
        rows = [r for r in httpx.get(f"{srv.url}/api/projects").json()["projects"] if "/ghp_" in r["project_path"]]
        assert len(rows) == 2 and all(r["openable"] and "ghp_… (40 characters)" in r["shown_path"] for r in rows), rows
        assert not [r for r in rows if "Zq8Xw2Lk9Vb4Nm7" in r["shown_path"] + r["recorded_path"] + r["slug"]], rows
        status = kg(["status"], srv.env)
        assert "Zq8Xw2Lk9Vb4Nm7" not in status.stdout + status.stderr and "ghp_" in status.stdout, status.stdout
        assert kg(["init-git"], srv.env).returncode == 0
        # Both projects are left out of the commit and the sync, named, and the rest of the store goes through.
        out = kg(["commit"], srv.env)
        said = out.stdout + out.stderr
        assert out.returncode == 0 and said.count("NOT COMMITTED") == 2 and "rename" in said, said
        assert "Zq8Xw2Lk9Vb4Nm7" not in said and "ghp_" in said, said
        remote = tmp_path / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True, env=srv.env)
        out = kg(["sync", str(remote)], srv.env)
        said = out.stdout + out.stderr
        assert out.returncode == 0 and said.count("NOT SYNCED") == 2 and "rename" in said, said
        assert "Zq8Xw2Lk9Vb4Nm7" not in said, said
        doctor = kg(["doctor"], srv.env)
        said = doctor.stdout + doctor.stderr
        assert "Zq8Xw2Lk9Vb4Nm7" not in said and "rename the project folder" in said, said
        history = git(srv.store, "log", "--all", "-p", "--format=%H", env=srv.env, check=False)
        history += git(remote, "log", "--all", "-p", env=srv.env, check=False)
        assert "Zq8Xw2Lk9Vb4Nm7" not in history
        listed = git(srv.store, "ls-files", env=srv.env)
        assert "Zq8Xw2Lk9Vb4Nm7" not in listed
        assert "lesson-in-key-folder" in Harness(srv, folder).start().context
        assert "lesson-of-older-kg" in Harness(srv, older).start().context
    finally:
        srv.stop()
    assert "Zq8Xw2Lk9Vb4Nm7" not in srv.log.read_text()
    assert not [p for p in srv.store.rglob("*") if "Zq8Xw2Lk9Vb4Nm7" in p.name]
    # The way out the refusal names: both folders renamed, their graphs' folders moved to the new names.
    for old, new in ((folder, "work/renamed"), (older, "old/renamed-too")):
        graph_dir = next(p for p in (srv.store / "projects").iterdir()
                         if json.loads((p / "graph.json").read_text())["_meta"].get("project_path") == os.path.realpath(old))
        os.rename(old, srv.home / new)
        os.rename(graph_dir, srv.store / "projects" / os.path.basename(new))
    srv.start("--no-editor")
    try:
        assert "lesson-in-key-folder" in Harness(srv, str(srv.home / "work/renamed")).start().context
        assert "lesson-of-older-kg" in Harness(srv, str(srv.home / "old/renamed-too")).start().context
        out = kg(["commit"], srv.env)
        assert out.returncode == 0 and "committed" in out.stdout, out.stdout + out.stderr
        assert "Zq8Xw2Lk9Vb4Nm7" not in git(srv.store, "log", "--all", "-p", env=srv.env)
    finally:
        srv.stop()


def test_a_folder_named_by_a_key_takes_a_masked_store_folder_and_an_older_kgs_project_folder_still_binds(tmp_path):
    env = git_env(tmp_path)
    srv = ServerProcess(tmp_path, env)
    keyed, plain, older = srv.project(f"work/{GHP}"), srv.project("project"), srv.project(f"old/{GHP}")
    # An older kg's store folder for the second key-named folder, named `project` then (its masked name read as
    # a part of a key too): it stays that folder's.
    legacy = _older_store_folder(srv, "project", older, "lesson-of-older-kg",
                                 "Learnt there when its graph folder was named project.")
    srv.start("--no-editor")
    try:
        h = Harness(srv, keyed)
        assert h.start().context and h.kg_sid
        h.mcp("kg_put_node", level="project", id="lesson-in-key-folder", gist="A lesson learnt in that folder.")
        p = Harness(srv, plain)
        assert p.start().context and p.kg_sid
        p.mcp("kg_put_node", level="project", id="lesson-in-plain-folder", gist="A lesson of the project folder.")
        assert "lesson-of-older-kg" in Harness(srv, older).start().context
        names = sorted(q.name for q in (srv.store / "projects").iterdir())
        masked = [n for n in names if n.startswith("masked-")]
        assert len(masked) == 1 and "project" in names, names
        assert json.loads((legacy / "graph.json").read_text())["_meta"]["project_path"] == os.path.realpath(older)
        status = kg(["status"], srv.env).stdout
        assert f"project:{masked[0]} (" in status and "Zq8Xw2Lk9Vb4Nm7" not in status, status
        assert "lesson-in-plain-folder" in Harness(srv, plain).start().context
        assert "lesson-in-key-folder" in Harness(srv, keyed).start().context
    finally:
        srv.stop()


def test_the_store_folder_named_by_a_key_folders_masked_name_still_binds_to_it(tmp_path):
    """A kg of this session named such a folder's graph folder by its masked name (`ghp_-40-characters`); the next
    read that name as a part of a key and gave the folder an empty graph of its own."""
    env = git_env(tmp_path)
    srv = ServerProcess(tmp_path, env)
    older = srv.project(f"old/{GHP}")
    _older_store_folder(srv, "ghp_-40-characters", older, "lesson-under-its-masked-name",
                        "Learnt there when its graph folder had its masked name.")
    srv.start("--no-editor")
    try:
        assert "lesson-under-its-masked-name" in Harness(srv, older).start().context
    finally:
        srv.stop()


def test_a_plain_folder_named_as_the_masked_store_folder_never_shares_the_key_named_folders_graph(tmp_path):
    env = git_env(tmp_path)
    srv = ServerProcess(tmp_path, env)
    keyed = srv.project(f"work/{GHP}")
    # A plain folder literally named as the key-named folder's store folder, used first.
    plain = srv.project(f"elsewhere/masked-{hashlib.sha256(os.path.realpath(keyed).encode()).hexdigest()[:8]}")
    srv.start("--no-editor")
    try:
        p = Harness(srv, plain)
        assert p.start().context and p.kg_sid
        p.mcp("kg_put_node", level="project", id="lesson-of-the-plain-folder", gist="A lesson of the plain folder.")
        k = Harness(srv, keyed)
        assert k.start().context and k.kg_sid
        assert "lesson-of-the-plain-folder" not in k.mcp("kg_read", level="project")
        k.mcp("kg_put_node", level="project", id="lesson-in-key-folder", gist="A lesson learnt in that folder.")
        assert "lesson-in-key-folder" not in Harness(srv, plain).start().context
        assert "lesson-of-the-plain-folder" in Harness(srv, plain).start().context
        assert "lesson-in-key-folder" in Harness(srv, keyed).start().context
    finally:
        srv.stop()
    recorded = sorted(json.loads(g.read_text())["_meta"]["project_path"]
                      for g in (srv.store / "projects").glob("*/graph.json"))
    assert recorded == sorted((os.path.realpath(keyed), os.path.realpath(plain))), recorded
    assert not [p for p in srv.store.rglob("*") if "Zq8Xw2Lk9Vb4Nm7" in p.name]
