"""A store that is a git repository is committed: on the autocommit interval, on `kg commit`, at shutdown.

Commits hold whole writes (journals are folded first) and never the
machine-local or half-written files; a commit runs off the request path (a slow
git does not delay a hook reply); git missing or failing is said once and
retried, never fatal; a kill -9 in the middle of a commit leaves a repository
git can use and a store the server loads.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from e2e_helpers import KG, Session, graph, kg, nodes_by_id, start_server, wait_until
from git_helpers import committed_graph, git, git_env
from mcp import Client

from kg_actors.storage import shards
from kg_actors.testing import ServerProcess, write_store

T = time.time() - 86_400


def _user(*ids: str) -> dict:
    return {"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": T} for i in ids}, "edges": {},
            "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


def _repo_store(tmp_path: Path, env: dict, **extra) -> ServerProcess:
    srv = ServerProcess(tmp_path, {**env, **extra})
    write_store(srv.store, _user("seed-lesson-node"))
    out = kg(["init-git"], srv.env)
    assert out.returncode == 0 and "is now a git repository" in out.stdout, out.stderr
    return srv


async def test_autocommit_folds_journals_first_and_ignores_machine_local_files(tmp_path):
    env = git_env(tmp_path)
    srv = _repo_store(tmp_path, env, KG_AUTOCOMMIT_INTERVAL="0.3").start()
    try:
        first = git(srv.store, "rev-parse", "HEAD", env=env).strip()
        # A project removed in the editor waits in trash/ to be moved back: this machine's alone.
        (srv.store / "trash" / "old-proj-20261204").mkdir(parents=True)
        (srv.store / "trash" / "old-proj-20261204" / "graph.json").write_text('{"nodes": {}, "edges": {}}')
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="autocommitted-node", gist="a write the autocommit holds")
        # The write is in the journal (the save tick is an hour): a commit must fold it first.
        wait_until(lambda: "autocommitted-node" in committed_graph(srv.store, env=env)["nodes"], 20,
                   "an autocommit holding the write")
        assert git(srv.store, "rev-parse", "HEAD", env=env).strip() != first
        tracked = set(git(srv.store, "ls-files", env=env).split())
        # The graph as small files (one per id-hash bucket); the graph file of record stays out of git.
        assert {"shards/user/meta.json", f"shards/user/{shards.bucket('autocommitted-node')}", ".gitignore",
                ".gitattributes"} <= tracked
        assert not {"user.json", "sessions.json", "user.json.journal", "user.prev", "server.pid"} & tracked
        assert not [path for path in tracked if path.startswith("trash/")], tracked
        message = git(srv.store, "log", "-1", "--format=%B", env=env)
        assert message.startswith("kg: auto-save ") and "Machine: machine-a" in message
        driver = git(srv.store, "config", "merge.kg-graph.driver", env=env)
        assert sys.executable in driver and "merge-driver" in driver
        # Nothing new: no empty commits pile up.
        head = git(srv.store, "rev-parse", "HEAD", env=env).strip()
        out = kg(["commit"], srv.env)
        assert out.returncode == 0 and "nothing to commit" in out.stdout
        assert git(srv.store, "rev-parse", "HEAD", env=env).strip() == head
    finally:
        srv.stop()


async def test_an_autocommit_rides_the_save_tick_when_the_tick_comes_first(tmp_path):
    env = git_env(tmp_path)
    # Ticks every 0.2 s, commits every 0.5 s: each commit is made right after a tick's fold, with no fold
    # of its own, and still holds the write.
    srv = _repo_store(tmp_path, env, KG_AUTOCOMMIT_INTERVAL="0.5", KG_SAVE_INTERVAL="0.2").start()
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="ridden-commit-node", gist="a write the tick folds")
        wait_until(lambda: "ridden-commit-node" in committed_graph(srv.store, env=env)["nodes"], 20,
                   "an autocommit after the tick's fold")
        assert git(srv.store, "log", "-1", "--format=%B", env=env).startswith("kg: auto-save ")
        assert srv.health()["git"]["problem"] is None
    finally:
        srv.stop()


async def test_kg_commit_through_the_server_and_at_shutdown(tmp_path):
    env = git_env(tmp_path)
    srv = _repo_store(tmp_path, env, KG_AUTOCOMMIT_INTERVAL="0").start()
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="committed-on-ask-node", gist="kg commit holds this")
            out = kg(["commit"], srv.env)
            assert out.returncode == 0 and out.stdout.startswith("kg: committed "), out.stderr
            assert "committed-on-ask-node" in committed_graph(srv.store, env=env)["nodes"]
            await s.ok("kg_put_node", level="user", id="committed-at-shutdown-node", gist="the last write")
        assert srv.stop() == 0
        assert "committed-at-shutdown-node" in committed_graph(srv.store, env=env)["nodes"]
        assert git(srv.store, "status", "--porcelain", env=env).strip() == ""
    finally:
        srv.stop()


def test_a_store_that_is_no_repository_says_how(tmp_path):
    env = git_env(tmp_path)
    srv = ServerProcess(tmp_path, env)
    write_store(srv.store, _user("plain-node"))
    out = kg(["commit"], srv.env)
    assert out.returncode == 1 and "kg init-git" in out.stdout and not (srv.store / ".git").exists()


async def test_git_missing_is_said_once_and_never_fatal(tmp_path):
    env = git_env(tmp_path)
    srv = _repo_store(tmp_path, env, KG_AUTOCOMMIT_INTERVAL="0.2")
    srv.env["KG_GIT"] = str(tmp_path / "no-such-git")
    srv.start()
    try:
        wait_until(lambda: "git is not installed" in srv.log.read_text(), 20, "the missing git logged")
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="still-served-node", gist="the server keeps serving")
        # Several autocommits later it is still said once.
        wait_until(lambda: srv.health()["git"]["autocommits"] >= 4, 20, "several autocommits")
        assert "git is not installed" in srv.health()["git"]["problem"]
        assert srv.log.read_text().count("git is not installed") == 1
        doctor = kg(["doctor"], srv.env)  # a failing autocommit is a problem doctor names
        assert doctor.returncode == 1 and "git is not installed" in doctor.stdout, doctor.stdout
        assert "still-served-node" in nodes_by_id(graph(srv)["user"])
    finally:
        srv.stop()


# A commit runs at nice 19 (commit_process.yield_the_cpu): on a machine busy with other work it may start a
# minute late, which is its design; the tests wait for it as long, then time what they measure.
COMMIT_START_SECONDS = 120

SLOW_GIT = """#!/bin/sh
# A git that takes its time to commit: marks that a commit started, then waits for the test's go.
if [ "$3" = "commit" ] || [ "$5" = "commit" ] || [ "$7" = "commit" ] || [ "$9" = "commit" ]; then
  echo $$ > "{marker}"
  i=0
  while [ ! -e "{go}" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
fi
exec git "$@"
"""


async def test_a_slow_commit_never_delays_a_hook_reply(tmp_path):
    env = git_env(tmp_path)
    marker, go = tmp_path / "commit-started", tmp_path / "commit-go"
    slow = tmp_path / "slow-git"
    slow.write_text(SLOW_GIT.format(marker=marker, go=go))
    slow.chmod(0o755)
    srv = _repo_store(tmp_path, env, KG_AUTOCOMMIT_INTERVAL="0")
    srv.env["KG_GIT"] = str(slow)  # after init-git: only the server's commit is slow
    srv.start()
    project = srv.project("hooked-proj")
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, project)
            await s.ok("kg_put_node", level="project", id="hook-proj-node", gist="something to commit")
        committing = subprocess.Popen([str(Path(sys.executable).with_name("kg")), "commit"], env=srv.env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_until(marker.exists, COMMIT_START_SECONDS, "the commit to start")
            payload = {"session_id": "claude-x", "prompt": "how do sessions refresh", "cwd": project,
                       "hook_event_name": "UserPromptSubmit", "transcript_path": str(tmp_path / "t.jsonl")}
            with httpx.Client(timeout=5) as http:
                times = []
                for _ in range(10):
                    t0 = time.monotonic()
                    r = http.post(f"{srv.url}/api/prompt_context", json=payload)
                    times.append(time.monotonic() - t0)
                    assert r.status_code == 200
            assert committing.poll() is None, "the commit was still running while the hooks answered"
            # A loop blocked by the commit would hold every reply until the commit is let go (past httpx's 5 s);
            # a loaded machine may slow one reply, so the bound tells blocked from busy.
            assert max(times) < 2.0, times
        finally:
            go.touch()
            out, err = committing.communicate(timeout=60)
        assert committing.returncode == 0 and "committed" in out, err
    finally:
        srv.stop()


def _running(pid: int) -> bool:
    """Alive and not a zombie (a killed orphan may wait for a reaper that never comes here)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_kill_9_during_a_commit_leaves_a_usable_repository_and_store(tmp_path):
    env = git_env(tmp_path)
    marker, go = tmp_path / "commit-started", tmp_path / "commit-go"
    slow = tmp_path / "slow-git"
    slow.write_text(SLOW_GIT.format(marker=marker, go=go))
    slow.chmod(0o755)
    srv = _repo_store(tmp_path, env, KG_AUTOCOMMIT_INTERVAL="0")
    srv.env["KG_GIT"] = str(slow)
    # A big graph, so the commit has real work when it is killed.
    big = _user(*(f"bulk-node-{i}" for i in range(3000)))
    (srv.store / "user.json").write_text(json.dumps(big))
    srv.start()
    try:
        committing = subprocess.Popen([str(Path(sys.executable).with_name("kg")), "commit"], env=srv.env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(marker.exists, COMMIT_START_SECONDS, "the commit to start")
        wait_until(lambda: marker.read_text().strip(), 10, "the git pid")
        # Kill the server mid-commit: the commit's process and its git go with it (the next server clears
        # git's locks, which must not be pulled from under a live git); leave a torn lock as a killed git does.
        srv.proc.send_signal(signal.SIGKILL)
        srv.proc.wait()
        wait_until(lambda: not _running(int(marker.read_text())), 10, "the commit's git killed with the server")
        (srv.store / ".git" / "index.lock").write_text("torn")
        committing.wait(timeout=60)
        srv.env["KG_GIT"] = "git"
        srv.start()
        assert len(nodes_by_id(graph(srv)["user"])) == 3000
        wait_until(lambda: not (srv.store / ".git" / "index.lock").exists(), 10, "the stale lock removed")
        assert "removed lock file(s) a killed git left behind: .git/index.lock" in srv.log.read_text()
        out = kg(["commit"], srv.env)
        assert out.returncode == 0, out.stderr
        fsck = subprocess.run(["git", "-C", str(srv.store), "fsck", "--no-progress"], capture_output=True,
                              text=True, env={**os.environ, **env}, timeout=60)
        assert fsck.returncode == 0, fsck.stderr
        assert len(committed_graph(srv.store, env=env)["nodes"]) == 3000
    finally:
        go.touch()
        srv.stop()


async def test_restore_names_a_project_by_any_folder_in_it_as_the_server_does(tmp_path):
    """The server files a session in a subfolder of a git work tree under the work tree's root; `kg restore --at
    now ~/repo1/sub` said "projects/sub/graph.json is not in commit", and `kg restore --at now .` "no graph named
    '.'"."""
    srv = _repo_store(tmp_path, git_env(tmp_path), KG_AUTOCOMMIT_INTERVAL="0").start()
    repo = Path(srv.project("repo1"))
    git(repo, "init", "-q", env=srv.env)
    sub = repo / "sub"
    sub.mkdir()

    async def write(node_id: str) -> None:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=str(sub))
            await s.ok("kg_put_node", level="project", id=node_id, gist=f"gist of {node_id}")

    def restore(at: str, folder: str, cwd: Path | None = None) -> str:
        out = subprocess.run([KG, "restore", "--at", at, folder], cwd=cwd, env=srv.env, capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert out.returncode == 0 and "project:repo1 restored to" in out.stdout, out.stdout + out.stderr
        return out.stdout

    try:
        await write("kept-lesson-node")
        assert kg(["commit"], srv.env).returncode == 0
        good = git(srv.store, "rev-parse", "HEAD", env=srv.env).strip()
        await write("later-lesson-node")
        said = restore(good, "~/repo1/sub")  # through the server
        assert "1 node(s) removed: later-lesson-node" in said
        # The undo hint names the graph: run as printed, from a folder of no project, it put back the user graph.
        hint = re.search(r"\(`(kg restore --at [^`]+)` puts it back\)", said).group(1)
        assert hint.endswith(" project:repo1"), hint
        assert "1 node(s) added: later-lesson-node" in restore(shlex.split(hint)[3], shlex.split(hint)[4], cwd=tmp_path)
        restore(good, "~/repo1/sub")
        assert "no node or edge changed" in restore(good, ".", cwd=sub)
    finally:
        srv.stop()
    assert "1 node(s) added: later-lesson-node" in restore("HEAD~1", ".", cwd=sub)  # no server: on the files
    assert "later-lesson-node" in json.loads((srv.store / "projects" / "repo1" / "graph.json").read_text())["nodes"]


async def test_restore_is_the_fix_of_a_graph_file_that_no_longer_reads_with_the_server_up_or_down(tmp_path):
    """`kg status` names `kg restore --at DATE user` as the fix of an unreadable user.json; the restore refused
    ("could not be loaded") with the server up, and ended in a traceback with it down."""
    srv = _repo_store(tmp_path, git_env(tmp_path), KG_AUTOCOMMIT_INTERVAL="0")
    user = srv.store / "user.json"
    try:
        await _restore_over_unreadable(srv, user)
    finally:
        srv.kill()  # a failed assertion left the server up


async def _restore_over_unreadable(srv: ServerProcess, user: Path) -> None:
    for running in (True, False):
        (srv.store / "user.prev").unlink(missing_ok=True)  # no previous save to fall back on: only git has it
        user.write_text('{"nodes": {"a": ')  # torn
        if running:
            srv.start()
            status = kg(["status"], srv.env)
            assert status.returncode == 1 and "kg restore --at DATE user" in status.stdout + status.stderr
        out = kg(["restore", "--at", "now", "user"], srv.env)
        assert out.returncode == 0, out.stdout + out.stderr
        added = re.search(r"node\(s\) added: ([^(;]*)", out.stdout)  # down: the lesson written while up too
        assert added and "seed-lesson-node" in added.group(1) and "Traceback" not in out.stderr, out.stdout
        assert "did not read as a graph and is kept as" in out.stdout, out.stdout
        kept = sorted(srv.store.glob("user.json.replaced*"))
        assert kept and kept[-1].read_text() == '{"nodes": {"a": ', kept  # the damaged file, for a look by hand
        if running:
            assert "seed-lesson-node" in nodes_by_id(graph(srv)["user"])
            after = kg(["status"], srv.env)
            assert after.returncode == 0, after.stdout  # the graph serves again, and takes changes
            async with Client(srv.url + "/") as c:
                await (await Session.open(c)).ok("kg_put_node", level="user", id="after-the-restore", gist="taken")
            assert srv.stop() == 0
        else:
            assert "seed-lesson-node" in json.loads(user.read_text())["nodes"]
