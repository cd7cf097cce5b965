"""A graph file changed under a running server: damage is written back, a hand edit is kept and read.

Each test runs a real `kg serve` with a short save interval, changes the user graph's file (or
its folder) from outside, and checks what a later save, read, reload or restart sees.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from hook_helpers import Harness
from e2e_helpers import Session, graph, kg, nodes_by_id, reference_graph, wait_until
from mcp import Client

from kg_actors.testing import ServerProcess, mcp_text, session_of, write_store

FAST = {"KG_SAVE_INTERVAL": "0.3"}


def _start(tmp_path, extra=None) -> ServerProcess:
    return ServerProcess(tmp_path, {**FAST, **(extra or {})}).start("--no-editor")


async def _put(srv: ServerProcess, node_id: str, gist: str, level: str = "user", cwd: str | None = None) -> None:
    async with Client(srv.url + "/") as c:
        sid = session_of(mcp_text(await c.call_tool("kg_read", {"cwd": cwd or srv.project("files-proj")})))
        reply = await c.call_tool("kg_put_node", {"session_id": sid, "level": level, "id": node_id, "gist": gist})
        assert not reply.is_error, mcp_text(reply)


def _saved(path, node_id: str) -> bool:
    try:
        return node_id in json.loads(path.read_text())["nodes"]
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _folded(path, node_id: str) -> bool:
    """The node is in the file and no journal holds anything more."""
    return _saved(path, node_id) and not path.with_name(path.name + ".journal").exists()


@pytest.mark.parametrize("damage", ["removed", "emptied", "folder", "garbage", "null"])
async def test_a_graph_file_damaged_under_the_server_is_written_back_at_the_next_save(tmp_path, damage):
    srv = _start(tmp_path)
    user = srv.store / "user.json"
    try:
        await _put(srv, "first-lesson", "saved before the damage")
        wait_until(lambda: _folded(user, "first-lesson"), 20, "the first save")
        await _put(srv, "second-lesson", "saved by the last save before the damage")
        wait_until(lambda: _folded(user, "second-lesson"), 20, "the second save")
        if damage == "removed":
            user.unlink()
        elif damage == "emptied":
            user.write_bytes(b"")
        elif damage == "folder":
            user.unlink()
            user.mkdir()
        elif damage == "null":  # JSON, but no graph: it was taken for a hand edit, and a reload emptied the graph
            user.write_text("null")
        else:
            user.write_text("{ not json")
        # Nothing changed in memory: the next save tick writes it back all the same.
        wait_until(lambda: user.is_file() and _saved(user, "second-lesson"), 20, "the graph written back")
        log = srv.log.read_text()
        assert log.count("under the server: the graph is written back from memory") == 1, log[-3000:]
        if damage == "folder":
            assert (srv.store / "user.json.replaced").is_dir()
        if damage == "garbage":
            assert (srv.store / "user.json.replaced").read_text() == "{ not json"
        if damage == "null":
            assert (srv.store / "user.json.replaced").read_text() == "null"
    finally:
        assert srv.stop() == 0
    # A `.prev` never becomes the damage (an empty one hid the good previous save).
    assert json.loads((srv.store / "user.prev").read_text())["nodes"]
    restarted = ServerProcess(tmp_path, FAST).start("--no-editor")
    try:
        assert {"first-lesson", "second-lesson"} <= set(nodes_by_id(graph(restarted)["user"]))
    finally:
        restarted.stop()


async def test_a_hand_edit_is_not_saved_over_and_a_reload_keeps_it_and_the_writes_since(tmp_path):
    srv = _start(tmp_path)
    user = srv.store / "user.json"
    try:
        await _put(srv, "edited-lesson", "as the agent wrote it")
        wait_until(lambda: _folded(user, "edited-lesson"), 20, "the save")
        data = json.loads(user.read_text())
        data["nodes"]["edited-lesson"]["gist"] = "as the user corrected it by hand"
        data["nodes"]["hand-added"] = {"id": "hand-added", "gist": "added by hand in the file"}
        user.write_text(json.dumps(data, indent=2))
        edited = user.read_bytes()
        await _put(srv, "written-after", "acknowledged after the hand edit")
        trouble = wait_until(lambda: (srv.health() or {}).get("graphs_in_trouble", {}).get("user"), 20,
                             "the hand edit named in /health")
        assert trouble["kind"] == "hand_edited" and str(user) in trouble["why"]
        assert user.read_bytes() == edited  # ticks went by: not saved over
        doctor = kg(["doctor"], srv.env)
        assert "changed by hand under the server" in doctor.stdout, doctor.stdout
        nodes = nodes_by_id(graph(srv, reload=True)["user"])
        assert nodes["edited-lesson"]["gist"] == "as the user corrected it by hand"
        assert "hand-added" in nodes and "written-after" in nodes
        assert "user" not in (srv.health() or {}).get("graphs_in_trouble", {})
    finally:
        assert srv.stop() == 0
    assert {"hand-added", "written-after"} <= set(json.loads(user.read_text())["nodes"])


async def test_a_file_put_back_to_its_previous_save_is_named_as_a_roll_back_before_the_reload(tmp_path):
    """/health and doctor said the writes since would be replayed over it; a reload sets them aside instead."""
    srv = _start(tmp_path)
    user = srv.store / "user.json"
    try:
        await _put(srv, "first-lesson", "saved first")
        wait_until(lambda: _folded(user, "first-lesson"), 20, "the first save")
        await _put(srv, "second-lesson", "saved second")
        wait_until(lambda: _folded(user, "second-lesson"), 20, "the second save")
        _put_back(srv.store / "user.prev", user)
        await _put(srv, "written-after", "acknowledged after the roll-back")
        trouble = wait_until(lambda: (srv.health() or {}).get("graphs_in_trouble", {}).get("user"), 20,
                             "the roll-back named in /health")
        assert trouble["kind"] == "hand_edited" and trouble.get("rolled_back") == "yes"
        assert "put back to its previous save" in trouble["why"] and "sets the writes since aside" in trouble["why"]
        doctor = kg(["doctor"], srv.env).stdout
        assert "reload it to roll back" in doctor and "replayed over it" not in doctor, doctor
    finally:
        assert srv.stop() == 0


def _put_back(prev, user) -> None:
    """The previous save put back whole (copied beside, then renamed): a copy in place is read half-written by a
    tick now and then, and what the server makes of a half-written file is not what this test is about."""
    staged = user.with_name(user.name + ".putback")
    shutil.copyfile(prev, staged)
    os.replace(staged, user)


def _kg_start(tmp_path, extra=None) -> ServerProcess:
    """A server started by `kg start` (detached: `kg stop` waits for it to exit, not for a test to reap it)."""
    srv = ServerProcess(tmp_path, {**FAST, **(extra or {})})
    out = kg(["start", "--no-editor"], srv.env)
    assert out.returncode == 0, (out.stdout, out.stderr)
    return srv


async def test_a_final_save_that_fails_rescues_the_graph_and_kg_stop_says_where(tmp_path):
    srv = _kg_start(tmp_path, {"KG_SAVE_INTERVAL": "3600"})
    cwd = srv.project("rescued-proj")
    await _put(srv, "project-lesson", "only in memory and the journal", level="project", cwd=cwd)
    folder = srv.store / "projects" / "rescued-proj"
    shutil.rmtree(folder)
    folder.write_text("not a folder")  # the graph's folder replaced by a file: no save can go there
    out = kg(["stop"], srv.env)
    assert out.returncode == 1, (out.stdout, out.stderr)
    rescued = list((srv.store / "rescued").glob("project-rescued-proj-*.json"))
    assert len(rescued) == 1
    assert str(rescued[0]) in out.stdout + out.stderr
    assert "project-lesson" in json.loads(rescued[0].read_text())["nodes"]


def test_kg_stop_of_a_server_whose_saves_all_succeed_says_stopped(tmp_path):
    srv = _kg_start(tmp_path)
    (srv.store / "rescued").mkdir()
    older = srv.store / "rescued" / "user-20200101-000000.json"
    older.write_text("{}")
    os.utime(older, (946_684_800, 946_684_800))  # an older stop's
    out = kg(["stop"], srv.env)
    assert out.returncode == 0 and "kg: stopped" in out.stdout, (out.stdout, out.stderr)


def _seeded(tmp_path) -> ServerProcess:
    """A server whose user graph holds `both-edited`, and whose saves wait (writes stay in the journal)."""
    srv = ServerProcess(tmp_path, {"KG_SAVE_INTERVAL": "3600"})
    write_store(srv.store, user=reference_graph([{"id": "both-edited", "gist": "the original wording"},
                                                 {"id": "left-alone", "gist": "changed by nobody"}]))
    return srv.start("--no-editor")


def _hand_edit(user, gist: str) -> None:
    data = json.loads(user.read_text())
    data["nodes"]["both-edited"]["gist"] = gist
    data["nodes"]["hand-only"] = {"id": "hand-only", "gist": "added by hand in the file"}
    user.write_text(json.dumps(data, indent=2))


@pytest.mark.parametrize("last", ["file", "journal"])
async def test_a_reload_after_a_hand_edit_replays_the_journal_and_sets_aside_a_double_edit(tmp_path, last):
    srv = _seeded(tmp_path)
    user = srv.store / "user.json"
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, srv.project("files-proj"))
            await s.ok("kg_put_node", level="user", id="journal-only", gist="answered saved, in the journal alone")
            await s.ok("kg_read", id="both-edited")
            if last == "journal":
                _hand_edit(user, "the hand wording")
            await s.ok("kg_put_node", level="user", id="both-edited", gist="the agent wording")
            if last == "file":
                _hand_edit(user, "the hand wording")
            assert user.with_name("user.json.journal").exists()
            nodes = nodes_by_id(graph(srv, reload=True)["user"])
            assert {"journal-only", "hand-only", "left-alone"} <= set(nodes)  # nothing answered is lost
            kept, aside = ("the hand wording", "the agent wording") if last == "file" else (
                "the agent wording", "the hand wording")
            assert nodes["both-edited"]["gist"] == kept
            assert not list(srv.store.glob("user.json.journal.dropped*"))
            text = await s.ok("kg_read", id="both-edited")
            assert "CHANGED IN ITS FILE AND ITS JOURNAL" in text and f"gist: {aside}" in text, text
            assert "left-alone" not in text
    finally:
        assert srv.stop() == 0


async def test_a_file_put_back_to_its_previous_save_is_a_roll_back_that_sets_the_journal_aside(tmp_path):
    srv = _seeded(tmp_path)
    user = srv.store / "user.json"
    await _put(srv, "before-the-save", "saved by the stop")
    assert srv.stop() == 0
    srv.start("--no-editor")
    try:
        await _put(srv, "after-the-save", "in the journal when the file is rolled back")
        shutil.copyfile(srv.store / "user.prev", user)
        nodes = nodes_by_id(graph(srv, reload=True)["user"])
        assert "before-the-save" not in nodes and "after-the-save" not in nodes
        assert "after-the-save" in (srv.store / "user.json.journal.dropped").read_text()
    finally:
        assert srv.stop() == 0


@pytest.mark.parametrize("evidence", ["prev", "journal"])
async def test_a_start_that_finds_the_graph_file_missing_says_so_in_the_preload_and_doctor(tmp_path, evidence):
    srv = _seeded(tmp_path)
    user = srv.store / "user.json"
    await _put(srv, "saved-lesson", "in the last save")
    if evidence == "journal":  # killed before any save: only the journal says the file existed
        srv.kill()
        (srv.store / "user.prev").unlink(missing_ok=True)
        assert (srv.store / "user.json.journal").exists()
    else:
        assert srv.stop() == 0
        assert (srv.store / "user.prev").exists()
    user.unlink()
    srv.start("--no-editor")
    try:
        preload = Harness(srv, srv.project("files-proj")).start()
        assert f"{user} was missing at this server's start" in preload.context, preload.context
        trouble = srv.health()["graphs_in_trouble"]["user"]
        assert trouble["kind"] == "file_missing"
        doctor = kg(["doctor"], srv.env)
        assert "was missing at this server's start" in doctor.stdout, doctor.stdout
    finally:
        assert srv.stop() == 0


async def test_a_start_of_a_new_store_says_nothing_of_missing_files(tmp_path):
    srv = _start(tmp_path)
    try:
        preload = Harness(srv, srv.project("files-proj")).start()
        assert "missing" not in preload.context and not srv.health()["graphs_in_trouble"]
    finally:
        assert srv.stop() == 0


async def test_a_store_removed_under_the_server_gets_its_pid_file_and_log_again(tmp_path):
    srv = _kg_start(tmp_path)
    try:
        await _put(srv, "held-in-memory", "written back into the store made again")
        shutil.rmtree(srv.store)
        wait_until(lambda: _saved(srv.store / "user.json", "held-in-memory"), 30, "the store claimed again")
        wait_until(lambda: (srv.store / "server.pid").exists() and (srv.store / "server.log").exists(), 10,
                   "the pid file and the log made again")
        status = kg(["status"], srv.env)
        assert status.returncode == 0 and "running" in status.stdout, status.stdout
        assert "made again" in kg(["logs"], srv.env).stdout
    finally:
        out = kg(["stop"], srv.env)
    assert out.returncode == 0 and "kg: stopped (pid" in out.stdout, (out.stdout, out.stderr)


@pytest.mark.parametrize("last", ["file", "journal"])
@pytest.mark.parametrize("stamp", ["read", "useful"])
async def test_a_read_or_useful_after_the_double_edit_keeps_the_version_set_aside(tmp_path, last, stamp):
    srv = _seeded(tmp_path)
    user = srv.store / "user.json"
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, srv.project("files-proj"))
            other = await Session.open(c, srv.project("files-proj"))
            if last == "journal":
                _hand_edit(user, "the hand wording")
            await s.ok("kg_put_node", level="user", id="both-edited", gist="the agent wording")
            # A stamp-only record of the node (no content change) after the write that both changed.
            if stamp == "read":
                await s.ok("kg_read", id="both-edited")
            else:
                await other.ok("kg_useful", ids=["both-edited"])
            if last == "file":
                _hand_edit(user, "the hand wording")
            kept, aside = ("the hand wording", "the agent wording") if last == "file" else (
                "the agent wording", "the hand wording")
            assert nodes_by_id(graph(srv, reload=True)["user"])["both-edited"]["gist"] == kept
            text = await s.ok("kg_read", id="both-edited")
            assert "CHANGED IN ITS FILE AND ITS JOURNAL" in text and f"gist: {aside}" in text, text
    finally:
        assert srv.stop() == 0


async def test_a_rename_of_a_node_changed_by_hand_is_one_node_after_a_reload(tmp_path):
    srv = _seeded(tmp_path)
    user = srv.store / "user.json"
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, srv.project("files-proj"))
            await s.ok("kg_put_edge", level="user", frm="left-alone", to="both-edited", rel="see-also")
            _hand_edit(user, "the hand wording")
            await s.ok("kg_rename_node", level="user", old_id="both-edited", new_id="renamed-node")
            after = graph(srv, reload=True)["user"]
            nodes = nodes_by_id(after)
            assert "both-edited" not in nodes and nodes["renamed-node"]["gist"] == "the hand wording"
            assert {(e["from"], e["to"]) for e in after["edges"]} == {("left-alone", "renamed-node")}
            text = await s.ok("kg_read", id="renamed-node")
            assert "CHANGED IN ITS FILE AND ITS JOURNAL" in text and "gist: the original wording" in text, text
    finally:
        assert srv.stop() == 0
