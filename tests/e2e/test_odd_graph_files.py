"""A graph path that is no regular file (a FIFO) or that cannot be opened (a symlink loop): named, left as it is,
served empty refusing changes; the user graph, the other projects, `kg status`, `kg doctor` and the
SessionStart preload go on and say which graph and why.

A real `kg serve`. A FIFO must never be opened for reading (the open blocks until a writer comes); a
loop's open fails with ELOOP.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from e2e_helpers import kg
from hook_helpers import Harness
from rpc_helpers import Conn, session_id

T = time.time() - 86_400


def _graph_json(project_path: str | None, *ids: str) -> bytes:
    return json.dumps({"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": T} for i in ids},
                       "edges": {}, "_meta": {"versions": {}, "project_path": project_path}}).encode()


def _store(srv, *projects: str) -> dict[str, str]:
    """user.json and one graph per project, each holding a node named for it; the projects' folders."""
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_bytes(_graph_json(None, "user-lesson-node"))
    cwds = {}
    for name in projects:
        cwds[name] = srv.project(name)
        (srv.store / "projects" / name).mkdir(parents=True)
        (srv.store / "projects" / name / "graph.json").write_bytes(_graph_json(cwds[name], f"{name}-lesson"))
    return cwds


def _works(conn: Conn, cwd: str, level: str, node: str) -> str:
    """A session on `cwd` reads and writes `level`; its id."""
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and node in text, text
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level=level, id=f"{level}-write-works", gist="kept")
    assert not err, text
    return sid


def test_a_project_graph_that_is_a_fifo_is_named_and_served_empty_while_the_rest_serves(server_factory):
    srv = server_factory(start=False)
    cwds = _store(srv, "pc", "other")
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    _works(conn, cwds["pc"], "project", "pc-lesson")  # the project last used: the next start loads it first
    assert srv.stop() == 0
    fifo = srv.store / "projects" / "pc" / "graph.json"
    fifo.unlink()
    os.mkfifo(fifo)
    fifo.with_suffix(".prev").unlink()  # with one, the project is served from it (as for a folder in its place)

    srv.start("--no-editor")  # answers: nothing waits on the FIFO
    conn = Conn(srv.port, timeout=10)
    _works(conn, cwds["other"], "user", "user-lesson-node")
    text, err = conn.tool("kg_read", cwd=cwds["pc"])
    assert not err and "user-lesson-node" in text, text
    assert "The project memory could not be loaded" in text and "not a regular file (a FIFO)" in text, text
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="over-the-fifo", gist="refused")
    assert err and text.startswith("Error: NOT WRITTEN"), text
    trouble = srv.health()["graphs_in_trouble"]["project:pc"]
    assert trouble["kind"] == "unreadable" and "not a regular file (a FIFO)" in trouble["why"], trouble
    status = kg(["status"], srv.env)
    assert "project:pc" in status.stdout and "not a regular file" in status.stdout, status.stdout
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and "FAIL  graph project:pc" in doctor.stdout, doctor.stdout
    assert "not a regular file (a FIFO)" in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    doctor = kg(["doctor"], srv.env)  # the server down: doctor looks at the FIFO itself, without opening it
    assert doctor.returncode == 1 and "not a regular file (a FIFO)" in doctor.stdout, doctor.stdout
    assert fifo.is_fifo(), "left as it is"


LOOP = "Too many levels of symbolic links"


@pytest.mark.parametrize("level", ["user", "project"])
def test_a_graph_file_that_is_a_symlink_loop_is_named_and_served_empty_while_the_other_graph_serves(
        server_factory, level):
    srv = server_factory(start=False)
    cwds = _store(srv, "pc")
    loop = srv.store / "user.json" if level == "user" else srv.store / "projects" / "pc" / "graph.json"
    loop.unlink()
    loop.symlink_to(loop.name)
    other, other_node = ("project", "pc-lesson") if level == "user" else ("user", "user-lesson-node")
    key = "user" if level == "user" else "project:pc"
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=cwds["pc"])
    assert not err and other_node in text, text
    assert f"The {level} memory could not be loaded" in text and LOOP in text, text
    sid = session_id(text)
    text, err = conn.tool("kg_search", session_id=sid, query="lesson")
    assert not err and other_node in text, text
    text, err = conn.tool("kg_put_node", session_id=sid, level=level, id="over-the-loop", gist="refused")
    assert err and text.startswith("Error: NOT WRITTEN"), text
    text, err = conn.tool("kg_put_node", session_id=sid, level=other, id="other-write-works", gist="kept")
    assert not err, text

    harness = Harness(srv, cwds["pc"])
    run = harness.start()
    assert other_node in run.context and f"The {level} memory could not be loaded" in run.context, run
    assert LOOP in run.context, run.context
    again = harness.start()  # the same session again: what it got was a preload, and it gets one again
    assert other_node in again.context or "remains in context" in again.context, again

    trouble = srv.health()["graphs_in_trouble"][key]
    assert trouble["kind"] == "unreadable" and LOOP in trouble["why"], trouble
    status = kg(["status"], srv.env)
    assert key in status.stdout and LOOP in status.stdout, status.stdout
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and f"FAIL  graph {key}" in doctor.stdout and LOOP in doctor.stdout, doctor.stdout
    assert "still loading" not in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    assert loop.is_symlink() and os.readlink(loop) == loop.name, "left as it is"
    log = srv.log.read_text()
    assert "Traceback" not in log, log[-3000:]


def test_a_sessions_journal_that_is_a_fifo_is_set_aside_and_named_and_the_server_serves(server_factory):
    srv = server_factory(start=False)
    cwds = _store(srv, "pc")
    fifo = srv.store / "sessions.json.journal"
    os.mkfifo(fifo)
    srv.start("--no-editor")  # answers: the FIFO is neither opened nor taken for a permission problem
    conn = Conn(srv.port, timeout=10)
    _works(conn, cwds["pc"], "project", "pc-lesson")
    assert not fifo.is_fifo(), "set aside, a new journal in its place"
    assert (srv.store / "sessions.json.journal.unreadable").is_fifo()
    log = srv.log.read_text()
    assert "sessions.json.journal is not a regular file (a FIFO)" in log, log[-3000:]
    assert srv.stop() == 0


def test_a_graph_file_that_is_a_symlink_into_a_missing_folder_is_named_and_refuses_writes(server_factory, tmp_path):
    """A link into a drive not mounted: a write there would fork the graph into a new folder, silently."""
    srv = server_factory(start=False)
    cwds = _store(srv, "pc")
    link = srv.store / "projects" / "pc" / "graph.json"
    link.unlink()
    nowhere = tmp_path / "unmounted" / "graph.json"
    link.symlink_to(nowhere)
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=cwds["pc"])
    assert not err and "user-lesson-node" in text, text
    assert "The project memory could not be loaded" in text and str(nowhere.parent) in text, text
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="into-nowhere", gist="refused")
    assert err and text.startswith("Error: NOT WRITTEN"), text
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="user-write-works", gist="kept")
    assert not err, text
    trouble = srv.health()["graphs_in_trouble"]["project:pc"]
    assert trouble["kind"] == "unreadable" and "does not exist" in trouble["why"], trouble
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and "FAIL  graph project:pc" in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    doctor = kg(["doctor"], srv.env)  # the server down: doctor looks at the link itself
    assert doctor.returncode == 1 and "does not exist" in doctor.stdout, doctor.stdout
    assert not nowhere.parent.exists() and link.is_symlink(), "nothing made where the link leads"


@pytest.mark.parametrize("level", ["user", "project"])
def test_a_symlink_loop_with_a_previous_save_beside_it_is_said_as_a_folder_in_its_place_is(server_factory, level):
    """`rm graph.json; ln -s graph.json graph.json`: `.prev` is served (the loop holds nothing to wait for) and the
    loop is set aside; status, doctor and the preload say so, as for a folder in its place, not silently."""
    srv = server_factory(start=False)
    cwds = _store(srv, "pc")
    loop = srv.store / "user.json" if level == "user" else srv.store / "projects" / "pc" / "graph.json"
    loop.with_suffix(".prev").write_bytes(loop.read_bytes())
    loop.unlink()
    loop.symlink_to(loop.name)
    key = "user" if level == "user" else "project:pc"
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=cwds["pc"])
    kept = loop.with_name(loop.name + ".unreadable")
    assert not err and "its previous save was loaded" in text and str(kept) in text, text
    assert kept.is_symlink() and not os.path.lexists(loop), "the loop set aside: the next save writes a file"
    harness = Harness(srv, cwds["pc"])
    run = harness.start()
    assert "its previous save was loaded" in run.context, run.context
    trouble = srv.health()["graphs_in_trouble"][key]
    assert trouble["kind"] == "fell_back" and trouble["kept"] == str(kept), trouble
    status = kg(["status"], srv.env)
    assert status.returncode == 1 and f"kg: graph {key}:" in status.stdout and str(kept) in status.stdout, status
    assert "symlink loop" in status.stdout and "previous save is in it" not in status.stdout, status.stdout
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and f"FAIL  graph {key}" in doctor.stdout, doctor.stdout
    assert "symlink loop" in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    # Set aside, the loop still leads nowhere: never a link to the live file it was named for
    assert kept.is_symlink() and not kept.exists() and os.path.realpath(kept) != str(loop), os.readlink(kept)
    doctor = kg(["doctor"], srv.env)  # the server down: found on disk
    assert f"WARN  graph {key}: {kept}" in doctor.stdout and "symlink loop" in doctor.stdout, doctor.stdout
    assert "reads as a graph" not in doctor.stdout and "merge-driver" not in doctor.stdout, doctor.stdout
