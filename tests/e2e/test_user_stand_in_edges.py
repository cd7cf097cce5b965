"""A user graph served from its previous save (user.json cut short, or a symlink loop in its place): the
lessons written after that save are missing from it, not gone, so a project's edges to them are kept at the
project's load, as they are when the user graph does not load at all."""

from __future__ import annotations

import json
import os
import time

import pytest
from rpc_helpers import Conn

from kg_actors.testing import ServerProcess

T = time.time() - 86_400
EDGE = "p1->u-new:requires"


def _node(i: str) -> dict:
    return {"id": i, "gist": f"{i} gist about retries and backoff", "notes": [], "touches": [], "_created_ts": T}


@pytest.mark.parametrize("damage", ["cut short", "symlink loop"])
def test_a_projects_edges_to_user_lessons_stay_while_the_user_graph_is_its_previous_save(tmp_path, damage):
    srv = ServerProcess(tmp_path)
    cwd = srv.project("q")
    folder = srv.store / "projects" / "q"
    folder.mkdir(parents=True)
    user = srv.store / "user.json"
    (srv.store / "user.prev").write_text(json.dumps({"nodes": {"u-old": _node("u-old")}, "edges": {},
                                                     "_meta": {"versions": {}}}))  # lacks u-new
    if damage == "cut short":
        user.write_text('{"nodes": {"u-old": {"id": "u-old", "gist": "x"}, "u-new": {"id": "u-n')
    else:
        os.symlink("user.loop", user)
        os.symlink("user.json", srv.store / "user.loop")
    graph = folder / "graph.json"
    graph.write_text(json.dumps({"nodes": {"p1": _node("p1")},
                                 "edges": {EDGE: {"from": "p1", "to": "u-new", "rel": "requires"}},
                                 "_meta": {"versions": {}, "project_path": cwd}}))
    srv.start("--no-editor")
    try:
        text, err = Conn(srv.port).tool("kg_read", cwd=cwd)
        assert not err and "p1" in text and "u-old" in text, text  # the stand-in is served
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert EDGE in json.loads(graph.read_text())["edges"], "the project's edge to a user lesson was deleted"
    assert "removing edge" not in srv.log.read_text()


@pytest.mark.parametrize("gone", ["moved aside", "lost with its journal"])
def test_a_projects_edges_to_user_lessons_stay_while_the_user_graph_file_is_missing(tmp_path, gone):
    """Moved aside (kg's own advice for an unreadable file) or lost: a restore brings the user lessons back,
    and the project's edges to them must still be there to meet them."""
    srv = ServerProcess(tmp_path)
    cwd = srv.project("q")
    folder = srv.store / "projects" / "q"
    folder.mkdir(parents=True)
    if gone == "lost with its journal":  # a journal begun on a user.json that is no longer there
        (srv.store / "user.json.journal").write_text("")
    graph = folder / "graph.json"
    graph.write_text(json.dumps({"nodes": {"p1": _node("p1")},
                                 "edges": {EDGE: {"from": "p1", "to": "u-new", "rel": "requires"}},
                                 "_meta": {"versions": {}, "project_path": cwd}}))
    srv.start("--no-editor")
    try:
        text, err = Conn(srv.port).tool("kg_read", cwd=cwd)
        assert not err and "p1" in text, text
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert EDGE in json.loads(graph.read_text())["edges"], "the project's edge to a user lesson was deleted"
    assert "removing edge" not in srv.log.read_text()
