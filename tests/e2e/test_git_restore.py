"""`kg restore --at WHEN [GRAPH]` puts a graph back through its actor and says what changed; a node's
history comes from git log; `sync_remote` in config.json makes every autocommit a sync."""

from __future__ import annotations

import time

import trio

import httpx

from e2e_helpers import Session, get_json, graph, kg, nodes_by_id, wait_until
from git_helpers import bare_repo, committed_graph, git, git_env
from mcp import Client

from kg_actors.testing import ServerProcess, write_store

T = time.time() - 86_400


def _user(*ids: str) -> dict:
    return {"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": T} for i in ids}, "edges": {},
            "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


def _server(tmp_path, **extra) -> ServerProcess:
    srv = ServerProcess(tmp_path, {**git_env(tmp_path), "KG_AUTOCOMMIT_INTERVAL": "0", **extra})
    write_store(srv.store, _user("good-lesson-node"))
    assert kg(["init-git"], srv.env).returncode == 0
    return srv


async def test_restore_through_the_server_says_what_changed_and_sessions_see_it(tmp_path):
    srv = _server(tmp_path).start()
    try:
        async with Client(srv.url + "/") as c:
            s, other = await Session.open(c), await Session.open(c)
            await s.ok("kg_read", id="good-lesson-node")
            await s.ok("kg_put_node", level="user", id="good-lesson-node", gist="the good version")
            assert kg(["commit"], srv.env).returncode == 0
            good = git(srv.store, "rev-parse", "HEAD", env=srv.env).strip()
            await s.ok("kg_put_node", level="user", id="bad-lesson-node", gist="a write to undo")
            await s.ok("kg_put_node", level="user", id="good-lesson-node", gist="a bad rewrite")
            assert kg(["commit"], srv.env).returncode == 0
            await s.ok("kg_put_node", level="user", id="uncommitted-node", gist="never committed")
            await other.ok("kg_read", id="good-lesson-node")  # another session saw the bad rewrite
            # A typo is refused (git would read it as "now" and drop what was written since the commit).
            for typo in ("yesterdya", "deadbeef"):
                out = kg(["restore", "--at", typo, "user"], srv.env)
                assert out.returncode == 1 and "is neither a commit of the store nor a moment" in out.stderr
            assert "uncommitted-node" in nodes_by_id(graph(srv)["user"])
            # `now` is the present: what was written since the last commit stays (it was committed first).
            out = kg(["restore", "--at", "now", "user"], srv.env)
            assert out.returncode == 0 and "no node or edge changed" in out.stdout, out.stdout + out.stderr
            assert "uncommitted-node" in nodes_by_id(graph(srv)["user"])
            out = kg(["restore", "--at", good, "user"], srv.env)
            assert out.returncode == 0, out.stderr
            assert f"user restored to {good[:12]}" in out.stdout
            assert "2 node(s) removed: bad-lesson-node, uncommitted-node" in out.stdout
            assert "1 node(s) changed: good-lesson-node" in out.stdout
            nodes = nodes_by_id(graph(srv)["user"])
            assert set(nodes) == {"good-lesson-node"} and nodes["good-lesson-node"]["gist"] == "the good version"
            # The other session's view of the rewritten node is stale: it must read before it writes.
            refused = await other.err("kg_put_node", level="user", id="good-lesson-node", gist="blind")
            assert "NOT WRITTEN" in refused and "put back as it was at an earlier commit (`kg restore`)" in refused
            assert "bad-lesson-node: NOT FOUND" in await s.ok("kg_read", id="bad-lesson-node")
            # What was there before the restore, uncommitted writes too, is a commit the reply names.
            before = out.stdout.split("as it was before is commit ")[1][:12]
            undo = kg(["restore", "--at", before, "user"], srv.env)
            assert undo.returncode == 0 and "2 node(s) added" in undo.stdout, undo.stdout + undo.stderr
            nodes = nodes_by_id(graph(srv)["user"])
            assert {"bad-lesson-node", "uncommitted-node"} <= set(nodes)
            assert nodes["good-lesson-node"]["gist"] == "a bad rewrite"
            assert kg(["restore", "--at", good, "user"], srv.env).returncode == 0
        srv.stop()
        srv.start()
        assert set(nodes_by_id(graph(srv)["user"])) == {"good-lesson-node"}
        # By date, with the server down: the same, on the files.
        srv.stop()
        out = kg(["restore", "--at", "2000-01-01", "user"], srv.env)
        assert out.returncode == 1 and "no commit matches" in out.stderr
    finally:
        srv.stop()


async def test_restore_with_no_server_and_by_date(tmp_path):
    srv = _server(tmp_path)
    write_store(srv.store, _user("good-lesson-node", "hand-added-node"))  # not committed
    out = kg(["restore", "--at", "now", "user"], srv.env)
    assert out.returncode == 0, out.stderr
    assert "no node or edge changed" in out.stdout
    assert "hand-added-node" in (srv.store / "user.json").read_text()  # committed first, not written over
    out = kg(["restore", "--at", "HEAD~1", "user"], srv.env)
    assert out.returncode == 0 and "1 node(s) removed: hand-added-node" in out.stdout, out.stdout + out.stderr
    assert "(`kg restore --at " in out.stdout
    out = kg(["restore", "--at", "HEAD", "no-such-project"], srv.env)
    assert out.returncode == 1 and "not in commit" in out.stderr
    out = kg(["restore", "--at", "not a date", "user"], srv.env)
    assert out.returncode == 1 and "'N days ago'" in out.stderr
    for early in ("1970-01-02", "1970-01-01 00:00Z"):  # git read `--before=@86400` as another date
        out = kg(["restore", "--at", early, "user"], srv.env)
        assert out.returncode == 1 and "no commit matches" in out.stderr, out.stdout + out.stderr


async def test_a_nodes_history_from_git_log(tmp_path):
    srv = _server(tmp_path).start()
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_read", id="good-lesson-node")
            for i in range(2):
                await s.ok("kg_put_node", level="user", id="good-lesson-node", gist=f"version {i + 2}")
                assert kg(["commit"], srv.env).returncode == 0
                await s.ok("kg_put_node", level="user", id="other-node", gist=f"unrelated {i}")
                assert kg(["commit"], srv.env).returncode == 0
        out = get_json(srv, "/api/graph/node_history", id="good-lesson-node", graph="user")
        gists = [v["node"]["gist"] for v in out["versions"]]
        assert gists == ["version 3", "version 2", "gist of good-lesson-node"]
        assert all(v["machine"] == "machine-a" and v["committed_ts"] > 0 for v in out["versions"])
        for limit in ("0", "-1", "\u0663"):  # an empty list, as if the node had no history; an Arabic-Indic 3
            r = httpx.get(f"{srv.url}/api/graph/node_history",
                          params={"id": "good-lesson-node", "graph": "user", "limit": limit}, timeout=10)
            assert r.status_code == 400 and "limit" in r.text, r.text
    finally:
        srv.stop()


async def test_sync_remote_in_config_makes_each_autocommit_a_sync(tmp_path):
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    srv = _server(tmp_path)
    typo = kg(["sync", str(tmp_path / "typo.git"), "--remember"], srv.env)
    assert typo.returncode == 1, typo.stdout
    config = srv.store / "config.json"  # a remote that did not answer is not kept
    assert not config.exists() or "sync_remote" not in config.read_text()
    out = kg(["sync", str(remote), "--remember"], srv.env)
    assert out.returncode == 0, out.stderr
    srv.env["KG_AUTOCOMMIT_INTERVAL"] = "0.3"
    srv.start()
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="pushed-by-the-tick", gist="the autocommit syncs")
        wait_until(lambda: "pushed-by-the-tick" in committed_graph(remote, "user.json", "main", srv.env)["nodes"],
                   30, "the autocommit's push")
    finally:
        srv.stop()


async def test_a_restore_never_hands_a_version_out_twice_and_open_editor_tabs_hear_of_it(tmp_path):
    """A tab that loaded the rewritten node (v2) must not save over the restore: the restored node is v3, not v1
    again (whose next write was a second v2); and the tab hears the graph was replaced (it kept showing it)."""
    import json

    import trio
    from trio_websocket import open_websocket_url

    srv = _server(tmp_path).start()
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_read", id="good-lesson-node")
            assert kg(["commit"], srv.env).returncode == 0
            good = git(srv.store, "rev-parse", "HEAD", env=srv.env).strip()
            await s.ok("kg_put_node", level="user", id="good-lesson-node", gist="a rewrite the tab loads")
        editor = f"http://127.0.0.1:{srv.editor_port}"
        with httpx.Client(base_url=editor, timeout=30) as http:
            loaded = http.get("/api/nodes/user/good-lesson-node").json()["node"]["version"]
            with trio.fail_after(60):
                async with open_websocket_url(f"ws://127.0.0.1:{srv.editor_port}/ws") as ws:
                    assert json.loads(await ws.get_message())["type"] == "connected"
                    out = await trio.to_thread.run_sync(lambda: kg(["restore", "--at", good, "user"], srv.env))
                    assert out.returncode == 0, out.stderr
                    event = json.loads(await ws.get_message())
                    assert event["type"] == "graph_replaced" and event["level"] == "user"
            restored = http.get("/api/nodes/user/good-lesson-node").json()["node"]
            assert restored["gist"] == "gist of good-lesson-node" and restored["version"] == loaded + 1
            stale = http.post("/api/nodes", json={"level": "user", "id": "good-lesson-node", "gist": "the tab's save",
                                                  "expected_version": loaded})
            assert stale.status_code == 409, stale.text
    finally:
        srv.stop()


def test_a_graph_name_longer_than_any_file_name_is_not_found_not_a_server_error(tmp_path):
    srv = ServerProcess(tmp_path).start()
    try:
        r = httpx.post(srv.url + "/api/store/restore", json={"graph": "x" * 300_000, "at": "HEAD"},
                       headers={"Origin": srv.url})
        assert r.status_code == 404 and "no graph named" in r.json()["error"]  # was 500 (File name too long)
        assert len(r.text) < 1_000
    finally:
        srv.stop()


async def test_a_write_while_a_restore_puts_the_file_back_is_refused_or_kept_never_acknowledged_and_dropped(
        tmp_path, monkeypatch):
    # The restore read the graph from its running actor, then wrote the file and reloaded: a write the actor
    # acknowledged in between was in neither, and the reload set it aside (*.journal.dropped). In process:
    # the write is made at that very moment, from inside the restore's file write.
    from inprocess import serve_inprocess

    from kg_actors.actor import ActorStopped
    from kg_actors.core import graph_ops
    from kg_actors.sync import keeper as keeper_module

    env = git_env(tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    root = tmp_path / "store"
    write_store(root, _user("good-lesson-node"))
    assert kg(["init-git"], {**env, "KG_HOME": str(root)}).returncode == 0
    writer = graph_ops.Writer(session="aaaa1111")
    async with serve_inprocess(root) as rt, trio.open_nursery() as nursery:
        old = await rt.directory.get("user")
        await rt.keeper.commit("the good state")
        good = git(root, "rev-parse", "HEAD", env=env).strip()
        await old.put_node("undone-node", "written before the restore", None, None, time.time(), writer)
        real_write = keeper_module.files.write_atomic
        answers: dict[str, str] = {}
        landed = trio.Event()

        async def through_the_old_handle() -> None:
            try:
                await old.put_node("old-handle-node", "in the restore's window", None, None, time.time(), writer)
                answers["old"] = "acknowledged"
            except ActorStopped:
                answers["old"] = "refused"

        async def through_the_directory() -> None:
            handle = await rt.directory.get("user")
            await handle.put_node("later-node", "asked for during the restore", None, None, time.time(), writer)
            answers["later"] = "acknowledged"
            landed.set()

        def write_in_the_window(path, data, keep_prev=True):
            if path.name == "user.json" and not answers:
                trio.from_thread.run(through_the_old_handle)
                trio.from_thread.run_sync(nursery.start_soon, through_the_directory)
            return real_write(path, data, keep_prev)

        monkeypatch.setattr(keeper_module.files, "write_atomic", write_in_the_window)
        summary = await rt.keeper.restore("user", good)
        monkeypatch.undo()
        await landed.wait()  # the directory's ask waited for the reload, then landed on the restored graph
        nodes = (await (await rt.directory.get("user")).current()).graph.nodes
        assert answers["old"] == "refused" or "old-handle-node" in nodes or "old-handle-node" in summary["removed"]
        assert "later-node" in nodes
        assert "undone-node" in summary["removed"] and "undone-node" not in nodes
        nursery.cancel_scope.cancel()


async def test_a_restore_to_a_commit_from_before_the_graph_had_a_node_empties_it_and_is_undone(tmp_path):
    # The store's first commit held a project's lesson and no user graph: restoring the user graph there was
    # refused, naming user.json, a file this kg never commits; a first lesson written by mistake stayed.
    srv = ServerProcess(tmp_path, {**git_env(tmp_path), "KG_AUTOCOMMIT_INTERVAL": "0"}).start()
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=srv.project("app"))
            await s.ok("kg_put_node", level="project", id="app-first-lesson", gist="a project lesson")
            assert kg(["init-git"], srv.env).returncode == 0 and kg(["commit"], srv.env).returncode == 0
            first = git(srv.store, "rev-parse", "HEAD", env=srv.env).strip()
            assert "user.json" not in git(srv.store, "ls-tree", "-r", "--name-only", first, env=srv.env)
            await s.ok("kg_put_node", level="user", id="oops-wrong-lesson", gist="a user lesson written by mistake")
            assert kg(["commit"], srv.env).returncode == 0
            out = kg(["restore", "--at", first, "user"], srv.env)
            said = out.stdout + out.stderr
            assert out.returncode == 0, said
            assert "1 node(s) removed: oops-wrong-lesson" in out.stdout and "user.json" not in said, said
            assert "oops-wrong-lesson" not in nodes_by_id(graph(srv)["user"])
            undo = out.stdout.split("`kg restore --at ")[1].split(" ")[0]
            assert "app-first-lesson" in nodes_by_id(graph(srv, project_path=srv.project("app"))["project"])
        srv.stop()
        out = kg(["restore", "--at", undo, "user"], srv.env)  # undone, here with no server
        assert out.returncode == 0 and "1 node(s) added: oops-wrong-lesson" in out.stdout, out.stdout + out.stderr
        out = kg(["restore", "--at", first, "user"], srv.env)  # and again with no server
        assert out.returncode == 0 and "1 node(s) removed: oops-wrong-lesson" in out.stdout, out.stdout + out.stderr
    finally:
        srv.stop()


async def test_a_projects_edge_to_a_user_lesson_a_restore_took_away_stays_and_the_undo_makes_it_whole(tmp_path):
    # The next load of the project (a restart) removed the project's edge to the user lesson the restore took
    # out, as an edge whose end names no node, and the undo the restore printed brought the lesson back alone:
    # the edge was lost for good. The same for a user lesson deleted, then brought back by a restore.
    srv = ServerProcess(tmp_path, {**git_env(tmp_path), "KG_AUTOCOMMIT_INTERVAL": "0"}).start()
    app = srv.project("code/app")
    edge = ("proj-lesson-x", "user-later-lesson", "depends-on")
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=app)
            await s.ok("kg_put_node", level="user", id="first-user-lesson", gist="a first user lesson")
            assert kg(["init-git"], srv.env).returncode == 0 and kg(["commit"], srv.env).returncode == 0
            c1 = git(srv.store, "rev-parse", "HEAD", env=srv.env).strip()
            await s.ok("kg_put_node", level="user", id="user-later-lesson", gist="a user lesson written after C1")
            await s.ok("kg_put_node", level="user", id="user-deleted-lesson", gist="a user lesson deleted later")
            await s.ok("kg_put_node", level="project", id="proj-lesson-x", gist="a project lesson on user ones")
            for to in ("user-later-lesson", "user-deleted-lesson"):
                await s.ok("kg_put_edge", level="project", frm="proj-lesson-x", to=to, rel="depends-on")
            await s.ok("kg_put_edge", level="project", frm="proj-lesson-x", to="never-a-lesson", rel="uses")
            assert kg(["commit"], srv.env).returncode == 0
            c2 = git(srv.store, "rev-parse", "HEAD", env=srv.env).strip()
            await s.ok("kg_read", id="user-deleted-lesson")
            await s.ok("kg_delete_node", id="user-deleted-lesson")
            out = kg(["restore", "--at", c1, "user"], srv.env)
            assert out.returncode == 0 and "node(s) removed" in out.stdout, out.stdout + out.stderr
            undo = out.stdout.split("`kg restore --at ")[1].split(" ")[0]
        srv.stop()
        srv.start()  # loads the project graph again: any restart, reboot or upgrade
        project = graph(srv, project_path=app)["project"]
        assert "proj-lesson-x" in nodes_by_id(project), project
        edges = {(e["from"], e["to"], e["rel"]) for e in project["edges"]}
        assert edge in edges and ("proj-lesson-x", "user-deleted-lesson", "depends-on") in edges, edges
        assert ("proj-lesson-x", "never-a-lesson", "uses") not in edges, edges  # a bare id no graph held: gone
        out = kg(["restore", "--at", undo, "user"], srv.env)
        assert out.returncode == 0 and "user-later-lesson" in out.stdout, out.stdout + out.stderr
        out = kg(["restore", "--at", c2, "user"], srv.env)  # the deleted lesson back too
        assert out.returncode == 0 and "user-deleted-lesson" in out.stdout, out.stdout + out.stderr
        srv.stop()
        srv.start()
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=app)
            read = await s.ok("kg_read", id="proj-lesson-x")
        assert "proj-lesson-x --depends-on--> user-later-lesson" in read, read
        assert "proj-lesson-x --depends-on--> user-deleted-lesson" in read, read
    finally:
        srv.stop()
