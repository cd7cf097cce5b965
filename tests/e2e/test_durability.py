"""A reply to a change means the change is durable: kill -9, restarts, corrupt files, failed saves.

The kill test runs one store through three servers: writes acknowledged by the
first (some of them in flight when it is killed with SIGKILL) are all there
after the journal is replayed by the second; the second's SIGTERM folds the
journal into graph.json; garbage written over graph.json makes the third fall
back to graph.prev. A failed save is tested on the graph actor itself
(root ignores file permissions, so the folder is replaced by a file instead).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time

import pytest
import trio
from e2e_helpers import (KG, get_json, graph, nodes_by_id, refuses, start_server, store_files, unread_by_server,
                         wait_until)
from mcp import Client

from kg_actors.core.errors import StorageRefused
from kg_actors.core.graph_ops import Writer
from kg_actors.core.model import GraphData
from kg_actors.graph_actor import run_graph_actor
from kg_actors.testing import ServerProcess, mcp_text, session_of

ACKED_BEFORE_KILL = 25
ACKED_IN_FLIGHT = 20
WRITERS = 4


def _seed(home_project: str) -> dict:
    return {
        "nodes": {"seed-node-one": {"id": "seed-node-one", "gist": "written before any server ran",
                                    "_created_ts": time.time() - 86_400}},
        "edges": {},
        "_meta": {"versions": {}, "project_path": home_project, "namespace": {"kind": "project", "owner": None}},
    }


async def _put(c: Client, sid: str, node_id: str) -> bool:
    r = await c.call_tool("kg_put_node", {"session_id": sid, "level": "project", "id": node_id,
                                          "gist": f"gist of {node_id}"})
    text = mcp_text(r)
    assert not r.is_error, text
    return text.startswith(f"Node '{node_id}' saved")


async def test_kill_9_loses_no_acknowledged_write_and_restarts_recover(tmp_path):
    home = tmp_path / "home"
    cwd = str(home / "dura-proj")
    (home / "dura-proj").mkdir(parents=True)
    fresh_cwd = str(home / "fresh-proj")
    (home / "fresh-proj").mkdir()
    s1 = start_server(tmp_path, projects={"dura-proj": _seed(cwd)})
    graph_file = s1.store / "projects" / "dura-proj" / "graph.json"
    journal = graph_file.with_name("graph.json.journal")
    acked: list[str] = []
    try:
        async with Client(s1.url + "/") as c:
            r = await c.call_tool("kg_read", {"cwd": cwd})
            sid = session_of(mcp_text(r))
            for k in range(ACKED_BEFORE_KILL):
                if await _put(c, sid, f"acked-node-{k:03d}"):
                    acked.append(f"acked-node-{k:03d}")
            # A project that has no folder in the store yet: its first writes must be durable too.
            r = await c.call_tool("kg_read", {"cwd": fresh_cwd})
            fresh_sid = session_of(mcp_text(r))
            for k in range(5):
                assert await _put(c, fresh_sid, f"fresh-project-node-{k}")
        assert len(acked) == ACKED_BEFORE_KILL

        # Now several writers race while the server is killed under them.
        target = len(acked) + ACKED_IN_FLIGHT
        killed = trio.Event()

        async def writer(w: int) -> None:
            k = 0
            while k < 1000 and not killed.is_set():
                try:
                    async with Client(s1.url + "/") as c:
                        while k < 1000:
                            node_id = f"flight-{w}-node-{k:03d}"
                            k += 1
                            if await _put(c, sid, node_id):
                                acked.append(node_id)
                            if len(acked) >= target and not killed.is_set():
                                s1.proc.kill()  # SIGKILL, with the other writers' requests in flight
                                killed.set()
                except Exception:
                    if killed.is_set():
                        return
                    # A dropped connection under load is the client's to retry; a dead server is a failure.
                    assert s1.proc.poll() is None, "the server died before it was killed"

        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for w in range(WRITERS):
                    nursery.start_soon(writer, w)
        assert killed.is_set()
        s1.proc.wait(10)
        assert s1.proc.returncode == -9
    finally:
        s1.kill()

    assert journal.exists(), "acknowledged writes wait in the journal until a fold"
    assert json.loads(graph_file.read_text())["nodes"].keys() == {"seed-node-one"}  # still readable
    with open(journal, "ab") as f:
        f.write(b'{"n":{"torn-write-node":{"id":"torn')  # a crash in the middle of an append

    s2 = ServerProcess(tmp_path).start()
    try:
        nodes = nodes_by_id(graph(s2, project_path=cwd)["project"])
        lost = sorted(set(acked) - set(nodes))
        assert not lost, f"{len(lost)} acknowledged writes lost after kill -9: {lost[:5]}"
        assert "seed-node-one" in nodes and "torn-write-node" not in nodes
        fresh = nodes_by_id(graph(s2, project_path=fresh_cwd)["project"])
        assert {f"fresh-project-node-{k}" for k in range(5)} <= fresh.keys(), "a new project's writes were lost"
        log = s2.log.read_text()
        assert "replayed" in log and "project:dura-proj" in log
        assert "ignoring an unreadable journal line" in log
        async with Client(s2.url + "/") as c:
            # The session opened before the kill still works: sessions are saved when registered.
            assert await _put(c, sid, "after-restart-node")
        assert s2.stop() == 0  # SIGTERM flushes
    finally:
        s2.kill()
    assert not journal.exists(), "SIGTERM folds the journal into graph.json"
    saved = json.loads(graph_file.read_text())
    assert set(acked) | {"seed-node-one", "after-restart-node"} <= saved["nodes"].keys()
    prev = graph_file.with_name("graph.prev")
    assert json.loads(prev.read_text())["nodes"].keys() == {"seed-node-one"}

    graph_file.write_bytes(b"\x00garbage{{{ not json")
    s3 = ServerProcess(tmp_path).start()
    try:
        nodes = nodes_by_id(graph(s3, project_path=cwd)["project"])
        assert "seed-node-one" in nodes, "a corrupt graph.json falls back to graph.prev"
        assert "unreadable" in s3.log.read_text() and "graph.prev" in s3.log.read_text()
        assert s3.health() is not None
        # ... and the sessions that read it are told (only the log said so): what was written after is missing.
        async with Client(s3.url + "/") as c:
            read = mcp_text(await c.call_tool("kg_read", {"cwd": cwd}))
        assert "its previous save was loaded: what was written after that save is missing" in read
        assert "graph.json.unreadable" in read
    finally:
        s3.kill()


async def test_a_store_copied_after_a_kill_9_serves_every_change_its_journals_held(tmp_path):
    # A store restored from `cp -r` or tar lost what was still in its journals: they named their graph file by
    # its mtime to the nanosecond, which cp resets and GNU tar keeps to the second, so the copy set them aside.
    home = tmp_path / "home"
    cwd = str(home / "copied-proj")
    (home / "copied-proj").mkdir(parents=True)
    user = {"nodes": {"user-seed-node": {"id": "user-seed-node", "gist": "written before any server ran"}},
            "edges": {}, "_meta": {"versions": {}}}
    s1 = start_server(tmp_path, user=user, projects={"copied-proj": _seed(cwd)})
    written = {"user": [f"copied-user-node-{k}" for k in range(3)],
               "project": [f"copied-project-node-{k}" for k in range(3)]}
    try:
        async with Client(s1.url + "/") as c:
            sid = session_of(mcp_text(await c.call_tool("kg_read", {"cwd": cwd})))
            for level, ids in written.items():
                for node_id in ids:
                    r = await c.call_tool("kg_put_node", {"session_id": sid, "level": level, "id": node_id,
                                                          "gist": f"gist of {node_id}"})
                    assert not r.is_error and "saved" in mcp_text(r), mcp_text(r)
        s1.proc.kill()
        s1.proc.wait(10)
    finally:
        s1.kill()
    assert (s1.store / "user.json.journal").exists()
    assert (s1.store / "projects" / "copied-proj" / "graph.json.journal").exists()

    for how in ("cp -r", "tar"):
        base = tmp_path / how.replace(" ", "")
        shutil.copytree(s1.store, base / "store", copy_function=shutil.copy)  # cp -r: new mtimes
        if how == "tar":  # GNU tar keeps whole seconds
            for f in (base / "store").rglob("*"):
                st = f.stat()
                os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns // 10**9 * 10**9))
        (base / "store" / "server.pid").unlink(missing_ok=True)
        copy = ServerProcess(base, {"HOME": str(home)}).start()  # the same home: the project is inside it
        try:
            read = graph(copy, project_path=cwd)
            for level, ids in written.items():
                missing = set(ids) - nodes_by_id(read[level]).keys()
                assert not missing, f"{how}: {level} changes lost in the copy: {sorted(missing)}"
            assert "set aside" not in copy.log.read_text()
        finally:
            copy.kill()


def test_listing_the_projects_changes_no_file_and_the_load_still_tells_of_its_fall_back(tmp_path):
    # The editor's project list read an unloaded graph with the actor's load, outside the actor: it moved a
    # torn graph.json aside, and the graph's real load then found no torn file, so no fall-back was said.
    home = tmp_path / "home"
    cwd = str(home / "listed-proj")
    (home / "listed-proj").mkdir(parents=True)

    def torn_file_and_a_good_prev(srv: ServerProcess) -> None:
        folder = srv.store / "projects" / "listed-proj"
        folder.mkdir(parents=True)
        (folder / "graph.prev").write_text(json.dumps(_seed(cwd)))
        (folder / "graph.json").write_bytes(json.dumps(_seed(cwd)).encode()[:40])  # torn mid-save
        record = {"n": {"journal-node": {"id": "journal-node", "gist": "answered after the last save"}}}
        (folder / "graph.json.journal").write_text(json.dumps({"base": [1, 2, 3]}) + "\n" + json.dumps(record) + "\n")

    srv = start_server(tmp_path, before_start=torn_file_and_a_good_prev)
    folder = srv.store / "projects" / "listed-proj"
    try:
        before = store_files(folder)
        rows = {r["slug"]: r for r in get_json(srv, "/api/projects")["projects"]}
        assert rows["listed-proj"]["counts"]["nodes"] == 2  # graph.prev's node and the journal's
        assert store_files(folder) == before, "listing the projects changed the store"
        nodes = nodes_by_id(graph(srv, project_path=cwd)["project"])
        assert {"seed-node-one", "journal-node"} <= nodes.keys()
        trouble = (srv.health() or {}).get("graphs_in_trouble", {}).get("project:listed-proj")
        assert trouble and trouble["kind"] == "fell_back", trouble
        assert (folder / "graph.json.unreadable").exists()
    finally:
        srv.kill()


def test_a_damaged_journal_line_is_kept_aside_and_named_as_a_trouble(tmp_path):
    # A damaged line was only logged, and the next fold removed the journal: its bytes were kept nowhere.
    from kg_actors.setup.doctor import trouble_lines

    def damaged_journal(srv: ServerProcess) -> None:
        srv.store.mkdir(parents=True)
        (srv.store / "user.json").write_text(json.dumps({"nodes": {}, "edges": {}, "_meta": {"versions": {}}}))
        records = [{"n": {f"journal-node-{k}": {"id": f"journal-node-{k}", "gist": f"gist {k}"}}} for k in (1, 2)]
        (srv.store / "user.json.journal").write_bytes(
            json.dumps(records[0]).encode() + b"\n" + b'{"n": {"damaged-n\x00\x00de": {"id"\n'
            + json.dumps(records[1]).encode() + b"\n")

    srv = start_server(tmp_path, before_start=damaged_journal)
    try:
        damaged = (srv.store / "user.json.journal").read_bytes()
        assert {"journal-node-1", "journal-node-2"} <= nodes_by_id(graph(srv)["user"]).keys()
        kept = srv.store / "user.json.journal.damaged"
        assert kept.read_bytes() == damaged
        health = srv.health() or {}
        trouble = health["graphs_in_trouble"]["user"]
        assert trouble["kind"] == "journal_damaged" and trouble["kept"] == str(kept), trouble
        assert "could not be read" in trouble["why"]
        assert str(kept) in trouble_lines(health)[0]
        graph(srv, reload=True)  # a reload of the same journal keeps no second copy
        assert not kept.with_name(kept.name + ".2").exists()
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert not (srv.store / "user.json.journal").exists() and kept.read_bytes() == damaged  # folded, still kept


async def test_an_unreadable_sessions_file_is_kept_aside_not_written_over(tmp_path):
    torn = b'{"aaaa1111": {"start_ts": 1800000000, "project_path": "/home/u/a'
    srv = start_server(tmp_path, before_start=lambda s: (s.store.mkdir(parents=True), (s.store / "sessions.json")
                                                         .write_bytes(torn)))
    try:
        async with Client(srv.url + "/") as c:
            assert session_of(mcp_text(await c.call_tool("kg_read", {})))  # a session saved: sessions.json written
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert (srv.store / "sessions.json.unreadable-started-empty").read_bytes() == torn  # no sessions.prev
    assert json.loads((srv.store / "sessions.json").read_text())


def test_a_second_server_on_the_same_store_exits_1_with_a_clear_message(server):
    env = dict(server.env, KG_HTTP_PORT=str(server.port + 1 if server.port < 65535 else server.port - 1))
    second = subprocess.run([KG, "serve"], env=env, capture_output=True, text=True, timeout=60,
                            stdin=subprocess.DEVNULL)
    assert second.returncode == 1
    assert "KG PREFLIGHT: another memory server already uses" in second.stderr
    assert str(server.store) in second.stderr and "kg stop" in second.stderr
    assert server.health() is not None, "the first server keeps serving"


async def test_sigterm_flushes_without_a_tick_even_with_writes_in_flight(tmp_path):
    srv = start_server(tmp_path)
    acked: list[str] = []
    try:
        cwd = srv.project("flush-proj")
        async with Client(srv.url + "/") as c:
            sid = session_of(mcp_text(await c.call_tool("kg_read", {"cwd": cwd})))
            for k in range(5):
                assert await _put(c, sid, f"flush-node-{k}")
                acked.append(f"flush-node-{k}")
            r = await c.call_tool("kg_put_node", {"session_id": sid, "level": "user", "id": "flush-user-node",
                                                  "gist": "user level too"})
            assert not r.is_error
        graph_file = next((srv.store / "projects").glob("*/graph.json.journal")).with_name("graph.json")
        assert not graph_file.exists(), "KG_SAVE_INTERVAL is an hour: nothing folded yet"

        stopping = trio.Event()

        async def writer(w: int) -> None:
            try:
                async with Client(srv.url + "/") as c:
                    for k in range(500):
                        node_id = f"sigterm-{w}-node-{k:03d}"
                        if await _put(c, sid, node_id):
                            acked.append(node_id)
                        if len(acked) >= 25 and not stopping.is_set():
                            stopping.set()
                            srv.proc.terminate()  # SIGTERM while the other writers' requests are in flight
            except Exception:
                if not stopping.is_set():
                    raise

        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for w in range(WRITERS):
                    nursery.start_soon(writer, w)
        assert srv.proc.wait(30) == 0, "SIGTERM is a clean stop"
    finally:
        srv.kill()
    saved = json.loads(graph_file.read_text())
    lost = sorted(set(acked) - saved["nodes"].keys())
    assert not lost, f"acknowledged before SIGTERM but not in graph.json: {lost[:5]}"
    assert "flush-user-node" in json.loads((srv.store / "user.json").read_text())["nodes"]
    assert not list(srv.store.rglob("*.journal")), "a clean stop folds every journal"
    assert sid in json.loads((srv.store / "sessions.json").read_text()), "sessions are saved at shutdown"


async def test_a_failed_save_or_append_keeps_the_graph_answering_and_loses_nothing_acknowledged(tmp_path, monkeypatch):
    """A full disk (an injected ENOSPC, storage/faults.py): a change is acknowledged only once it is
    in the journal, else refused and gone from memory; a failed fold keeps the journal and is retried."""
    folder = tmp_path / "projects" / "p"
    folder.mkdir(parents=True)
    path = folder / "graph.json"
    flag = tmp_path / "disk-full"
    monkeypatch.setenv("KG_TEST_STORAGE_FAULT", str(flag))
    w = Writer(session=None)

    def put(node_id: str) -> dict:
        return dict(node_id=node_id, gist=f"gist of {node_id}", notes=None, touches=None, now=time.time(), writer=w)

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            handle = await nursery.start(run_graph_actor, "project:p", "project", path, GraphData("project"))
            await handle.put_node(**put("before-failure-node"))
            assert await handle.fold() is True
            await handle.put_node(**put("journaled-node"))  # acknowledged: in the journal, not yet folded

            flag.write_text("ENOSPC")
            assert await handle.fold() is False  # the fold fails; the journal still holds the write
            assert (await handle.get_node(node_id="journaled-node")) is not None
            with pytest.raises(StorageRefused, match="No space left on device"):
                await handle.put_node(**put("during-failure-node"))
            assert await handle.get_node(node_id="during-failure-node") is None
            assert (await handle.get_node(node_id="journaled-node")) is not None, "acknowledged writes stay"

            flag.unlink()
            await handle.put_node(**put("after-recovery-node"))
            await handle.tick(now=time.time())
            assert await handle.fold() is True, "the next tick's fold retries the failed save"
            saved = json.loads(path.read_text())
            assert {"before-failure-node", "journaled-node", "after-recovery-node"} <= saved["nodes"].keys()
            assert "during-failure-node" not in saved["nodes"]
            await handle.close()


async def test_a_user_rename_cut_before_a_project_was_rewired_rewires_it_at_its_next_load(tmp_path):
    # A user rename writes the user graph, then each project's edges in turn: a server stopped between the
    # two (kill -9, or SIGTERM mid-request) left projects whose saved edges named the old id, and spec 000
    # drops an edge whose end names no node at load. The user graph keeps where its renamed ids went.
    srv = ServerProcess(tmp_path).start()
    proj = srv.project("proj")
    try:
        async with Client(srv.url + "/") as c:
            sid = session_of(mcp_text(await c.call_tool("kg_read", {"cwd": proj})))
            for level, node_id in (("user", "shared-user-lesson"), ("project", "proj-local-node")):
                reply = await c.call_tool("kg_put_node", {"session_id": sid, "level": level, "id": node_id,
                                                          "gist": f"a {level} lesson"})
                assert not reply.is_error, mcp_text(reply)
            reply = await c.call_tool("kg_put_edge", {"session_id": sid, "level": "project", "from": "proj-local-node",
                                                      "to": "shared-user-lesson", "rel": "applies"})
            assert not reply.is_error, mcp_text(reply)
            reply = await c.call_tool("kg_rename_node", {"session_id": sid, "old_id": "shared-user-lesson",
                                                         "new_id": "shared-user-tenet"})
            assert not reply.is_error, mcp_text(reply)
        srv.stop()
        # What a stop between the user graph's rename and this project's rewiring leaves on disk.
        graph_file = next((srv.store / "projects").glob("*/graph.json"))
        data = json.loads(graph_file.read_text())
        data["edges"] = {"proj-local-node->shared-user-lesson:applies": {
            **data["edges"].pop("proj-local-node->shared-user-tenet:applies"), "to": "shared-user-lesson"}}
        graph_file.write_text(json.dumps(data))
        assert "renamed_ids" in json.loads((srv.store / "user.json").read_text())["_meta"]
        srv.start()
        edges = {(e["from"], e["to"], e["rel"]) for e in graph(srv, project_path=proj)["project"]["edges"]}
        assert edges == {("proj-local-node", "shared-user-tenet", "applies")}
    finally:
        srv.stop()


def test_a_stop_answers_the_request_in_progress_and_takes_no_new_one(tmp_path):
    # SIGTERM cancelled every connection at once: a write in progress got no reply, landed anyway, and
    # looked failed to its agent. Now the stop drains: new connections are refused, the request being
    # served gets its reply (here one whose body is still coming when the signal arrives).
    import signal
    import socket

    srv = start_server(tmp_path)
    try:
        body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}).encode()
        head = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nContent-Type: application/json\r\n"
                f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        idle = socket.create_connection(("127.0.0.1", srv.port), timeout=20)  # connected, nothing asked
        busy = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
        busy.sendall(head + body[:10])  # the request has begun: the server reads its body
        wait_until(lambda: unread_by_server(busy, srv.port) == 0 and unread_by_server(idle, srv.port) == 0, 20,
                   "the server to read the request's head")
        srv.proc.send_signal(signal.SIGTERM)
        wait_until(lambda: refuses(srv.port), 20, "the listener closed")
        assert idle.recv(100) == b""  # the idle connection is closed, not left to hang
        busy.sendall(body[10:])
        reply = b""
        while chunk := busy.recv(65536):
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 200") and b'"id":7' in reply.replace(b" ", b"") and b"kg_read" in reply
        assert srv.proc.wait(timeout=30) == 0
    finally:
        srv.stop()


async def test_a_store_removed_under_the_server_is_claimed_again_and_written_whole(tmp_path):
    # rm -rf of the store under a running server left its lock on a folder no path names: a second
    # server started on the same store, both answered writes, and one's were lost.
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as c:
            sid = session_of(mcp_text(await c.call_tool("kg_read", {"cwd": srv.project("gone-proj")})))
            reply = await c.call_tool("kg_put_node", {"session_id": sid, "level": "user", "id": "kept-lesson",
                                                      "gist": "held in memory when the folder went"})
            assert not reply.is_error, mcp_text(reply)
        shutil.rmtree(srv.store)
        wait_until(lambda: (srv.store / "user.json").exists() and "kept-lesson" in (srv.store / "user.json").read_text(),
                   30, "the server to claim the store again and write what it holds")
        assert "was removed or replaced under this server" in srv.log.read_text()
        env = dict(srv.env, KG_HTTP_PORT=str(srv.port + 1 if srv.port < 65535 else srv.port - 1))
        second = subprocess.run([KG, "serve"], env=env, capture_output=True, text=True, timeout=60,
                                stdin=subprocess.DEVNULL)
        assert second.returncode == 1 and "another memory server already uses" in second.stderr
    finally:
        srv.stop()
    assert "kept-lesson" in json.loads((srv.store / "user.json").read_text())["nodes"]
