"""Reload from disk: disk wins. A file restored by hand gets no journal replayed over it; an
untouched file gets its journal, which holds acknowledged writes.

A bad write lives in the journal until the tick folds it; a user who restores
the file from `.prev` and asks for a reload must not see the journal replay
that write over the file they restored. The journal names the file it applies
on top of, so the load tells the two apart.
"""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest

from e2e_helpers import Session, get_json, graph, nodes_by_id, start_server
from mcp import Client

T = time.time() - 86_400


def _user(*ids: str) -> dict:
    return {"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": T} for i in ids}, "edges": {},
            "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


async def test_reload_after_restoring_prev_drops_the_write_being_undone(tmp_path):
    srv = start_server(tmp_path, user=_user("good-seed-node"), extra_env={"KG_AUTOCOMMIT_INTERVAL": "0"})
    user_file = srv.store / "user.json"
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="kept-write-node", gist="a write folded into the file")
        srv.stop()  # SIGTERM folds the journal: user.json has the write, user.prev the seed
        assert "kept-write-node" in json.loads(user_file.read_text())["nodes"]
        srv.start()
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="bad-write-node", gist="the write the user undoes")
            assert "bad-write-node" in nodes_by_id(graph(srv)["user"])
            journal = srv.store / "user.json.journal"
            assert "bad-write-node" in journal.read_text()
            shutil.copy2(srv.store / "user.prev", user_file)  # the documented restore
            reloaded = nodes_by_id(graph(srv, reload=True)["user"])
            assert "bad-write-node" not in reloaded and "kept-write-node" not in reloaded
            assert "good-seed-node" in reloaded
            # No write of the journal is replayed over the restored file: a new one holds at most the note of the
            # lessons the restore took away (their ids, core/gone_ids.py), for the project edges that name them.
            assert not journal.exists() or "the write the user undoes" not in journal.read_text()
            assert "bad-write-node" in (srv.store / "user.json.journal.dropped").read_text()
            # Sessions see the restored graph, and a new write after the reload is kept.
            assert "bad-write-node: NOT FOUND" in await s.ok("kg_read", id="bad-write-node")
            await s.ok("kg_put_node", level="user", id="after-reload-node", gist="written after the restore")
        srv.stop()
        srv.start()
        after = nodes_by_id(graph(srv)["user"])
        assert "after-reload-node" in after and "bad-write-node" not in after
        assert "user.json is its previous save again (a roll-back)" in srv.log.read_text()
        assert "1 change(s) of the journal were set aside" in srv.log.read_text()
    finally:
        srv.stop()


async def test_reload_without_a_restore_keeps_every_acknowledged_write(tmp_path):
    """The journal holds acknowledged writes: a reload of an untouched file replays them."""
    srv = start_server(tmp_path, user=_user("good-seed-node"), extra_env={"KG_AUTOCOMMIT_INTERVAL": "0"})
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="journaled-write-node", gist="acknowledged, not folded yet")
            assert (srv.store / "user.json.journal").exists()
            reloaded = nodes_by_id(graph(srv, reload=True)["user"])
            assert "journaled-write-node" in reloaded and "good-seed-node" in reloaded
        assert not (srv.store / "user.json.journal.dropped").exists()
    finally:
        srv.stop()


@pytest.mark.parametrize("odd", ["a FIFO", "a symlink loop", "UTF-16"])
async def test_a_reload_over_a_file_no_load_reads_keeps_what_memory_holds(tmp_path, odd):
    # It served `.prev` and the journal instead: the last save's lessons were gone, and the next save
    # made that for good.
    srv = start_server(tmp_path, user=_user("good-seed-node"), extra_env={"KG_AUTOCOMMIT_INTERVAL": "0"})
    user_file = srv.store / "user.json"
    try:
        for lesson in ("first-saved-lesson", "second-saved-lesson"):
            async with Client(srv.url + "/") as c:
                await (await Session.open(c)).ok("kg_put_node", level="user", id=lesson, gist="a saved lesson")
            srv.stop()  # folded: user.prev holds the save before
            srv.start()
        assert "second-saved-lesson" not in json.loads((srv.store / "user.prev").read_text())["nodes"]
        assert "second-saved-lesson" in nodes_by_id(graph(srv)["user"])  # loaded: in memory before the damage
        text = user_file.read_text()
        user_file.unlink()
        if odd == "a FIFO":
            os.mkfifo(user_file)
        elif odd == "a symlink loop":
            os.symlink(user_file.name, user_file)
        else:
            user_file.write_bytes(text.encode("utf-16"))
        want = {"good-seed-node", "first-saved-lesson", "second-saved-lesson"}
        assert want <= set(nodes_by_id(graph(srv, reload=True)["user"]))
        assert "user" not in srv.health().get("graphs_in_trouble", {})
        async with Client(srv.url + "/") as c:
            await (await Session.open(c)).ok("kg_put_node", level="user", id="after-reload", gist="a later lesson")
        srv.stop()
        assert want | {"after-reload"} <= set(json.loads(user_file.read_text())["nodes"])  # on disk, for good
    finally:
        srv.stop()


def _edge_notes(level: dict, key: tuple[str, str, str]) -> list[str] | None:
    edge = next((e for e in level["edges"] if (e["from"], e["to"], e["rel"]) == key), None)
    return None if edge is None else list(edge.get("notes") or [])


EDGE, EDGE_NOTE = ("proj-case-one", "user-rule-new", "applies"), "EDGE NOTE: why the rule applies here"


async def _edge_to_a_new_user_lesson(srv, proj) -> None:
    """A user lesson the user.prev file will not hold, and the project's edge to it with a note."""
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=proj)
        await s.ok("kg_put_node", level="user", id="user-rule-new", gist="newer user rule")
        await s.ok("kg_put_node", level="project", id="proj-case-one", gist="a project case")
        await s.ok("kg_put_edge", level="project", frm=EDGE[0], to=EDGE[1], rel=EDGE[2], notes=[EDGE_NOTE])


async def test_a_hand_restore_of_user_prev_keeps_the_projects_edge_to_a_lesson_it_took_away(tmp_path):
    """Audit: the documented hand restore (user.prev over user.json, then a reload) deleted for good the
    project's edge to the user lesson the older file lacks, and its notes: putting the newer file back brought
    the lesson back, not the edge. The reload now notes what it took away as `kg restore` does (gone_ids)."""
    srv = start_server(tmp_path, user=_user("user-rule-old"), extra_env={"KG_AUTOCOMMIT_INTERVAL": "0"})
    user_file, proj = srv.store / "user.json", srv.project("proj")
    key, note = EDGE, EDGE_NOTE
    try:
        await _edge_to_a_new_user_lesson(srv, proj)
        srv.stop()  # folds: user.json holds user-rule-new, user.prev does not
        newer = user_file.read_bytes()
        assert b"user-rule-new" not in (srv.store / "user.prev").read_bytes()
        srv.start()
        assert "user" in get_json(srv, "/health", user="loaded")["loaded_graphs"]  # loaded before the copy
        shutil.copy2(srv.store / "user.prev", user_file)  # the documented hand restore
        restored = graph(srv, project_path=proj, reload=True)
        assert "user-rule-new" not in nodes_by_id(restored["user"])
        assert _edge_notes(restored["project"], key) == [note]
        srv.stop()
        srv.start()  # the project loads afresh against the restored user graph: its edge stays
        assert _edge_notes(graph(srv, project_path=proj)["project"], key) == [note]
        user_file.write_bytes(newer)  # the hand restore undone
        undone = graph(srv, project_path=proj, reload=True)
        assert "user-rule-new" in nodes_by_id(undone["user"]) and _edge_notes(undone["project"], key) == [note]
        assert "(an endpoint names no node)" not in srv.log.read_text()
    finally:
        srv.stop()


async def test_a_hand_restore_made_with_the_server_stopped_keeps_the_edge_it_removes_in_a_copy(tmp_path):
    """The same hand restore across a restart: no server saw the newer user graph go, so the project's load
    removes the edge (spec 000), but keeps it, notes included, in `graph.json.repaired`, and the log says so."""
    srv = start_server(tmp_path, user=_user("user-rule-old"), extra_env={"KG_AUTOCOMMIT_INTERVAL": "0"})
    proj = srv.project("proj")
    key, note = EDGE, EDGE_NOTE
    try:
        await _edge_to_a_new_user_lesson(srv, proj)
        srv.stop()
        shutil.copy2(srv.store / "user.prev", srv.store / "user.json")  # the hand restore, server stopped
        srv.start()
        assert _edge_notes(graph(srv, project_path=proj)["project"], key) is None
        copies = list((srv.store / "projects").glob("*/graph.json.repaired"))
        assert len(copies) == 1, copies
        kept = json.loads(copies[0].read_text())["edges"]["proj-case-one->user-rule-new:applies"]
        assert kept["notes"] == [note]
        assert f"kept in {copies[0]}" in srv.log.read_text()
    finally:
        srv.stop()
