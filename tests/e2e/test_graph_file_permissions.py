"""A graph file the server may not read (a permission, not damage): named with the fix, left where it is,
its previous save NOT served in its place, writes to it refused naming the cause while the other graphs
serve; once it reads again its next use loads it whole, with no restart.

A real `kg serve` run as another user: tests run as root, which reads a file of mode 000, so the server
is run as `nobody` (setpriv) over a store it owns, and so are its clients (the server refuses another
account's requests); a user other than root needs no setpriv.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from e2e_helpers import kg
from other_user import NOBODY, Client, graph_json, needs_other_user, other_user_server, own
from rpc_helpers import session_id



@needs_other_user
def test_a_graph_file_the_server_may_not_read_is_named_waited_for_and_loaded_whole_once_it_reads():
    with other_user_server() as srv:
        _a_graph_file_the_server_may_not_read(srv)


def _project_pp(srv) -> tuple[str, Path, Path]:
    """A store with a user lesson and project pp's graph of two lessons, whose .prev (the save before) lacks the
    second; owned by the server's user. (pp's folder, its graph folder, its graph file.)"""
    cwd = srv.project("pp")
    folder = srv.store / "projects" / "pp"
    folder.mkdir(parents=True)
    (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
    graph = folder / "graph.json"
    graph.write_text(graph_json(cwd, "pp-first-lesson", "pp-second-lesson"))
    (folder / "graph.prev").write_text(graph_json(cwd, "pp-first-lesson"))
    own(srv)
    return cwd, folder, graph


def _a_graph_file_the_server_may_not_read(srv) -> None:
    cwd, folder, graph = _project_pp(srv)
    graph.chmod(0)

    srv.start("--no-editor")
    conn = Client(srv)
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and "user-lesson-node" in text, text
    assert "The project memory could not be loaded" in text and "Permission denied (EACCES)" in text, text
    assert f"chmod u+rw {graph}" in text and "pp-first-lesson" not in text, text  # `.prev` not served
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="while-refused", gist="refused")
    assert err and text.startswith("Error: NOT WRITTEN") and "Permission denied" in text, text
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="user-write-works", gist="kept")
    assert not err, text
    trouble = conn.health()["graphs_in_trouble"]["project:pp"]
    assert trouble["kind"] == "unavailable" and "EACCES" in trouble["why"], trouble
    status = conn.run("status")
    assert f"project:pp: {graph} may not be read" in status.stdout, status.stdout
    assert f"fix: `chmod u+rw {graph}`" in status.stdout and "put a good copy back" not in status.stdout, status.stdout
    doctor = conn.run("doctor")
    assert doctor.returncode == 1 and "FAIL  graph project:pp" in doctor.stdout, doctor.stdout
    assert f"`chmod u+rw {graph}`" in doctor.stdout and "put a good copy back" not in doctor.stdout, doctor.stdout
    assert sorted(os.listdir(folder)) == ["graph.json", "graph.prev"], "left where it is, nothing set aside"

    graph.chmod(0o644)  # the permission fixed: the next use loads the file whole, no restart
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and "pp-second-lesson" in text and "could not be loaded" not in text, text
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="after-the-fix", gist="kept")
    assert not err, text
    assert "project:pp" not in conn.health()["graphs_in_trouble"]
    assert srv.stop() == 0
    saved = json.loads(graph.read_text())["nodes"]
    graph.chmod(0)  # with the server down, doctor reads the file as the next start would
    doctor = conn.run("doctor")
    assert doctor.returncode == 1 and "FAIL  graph project:pp" in doctor.stdout, doctor.stdout
    assert "Permission denied (EACCES)" in doctor.stdout and f"`chmod u+rw {graph}`" in doctor.stdout, doctor.stdout
    assert "the next start serves graph.prev" not in doctor.stdout, doctor.stdout
    graph.chmod(0o644)
    assert {"pp-first-lesson", "pp-second-lesson", "after-the-fix"} <= set(saved), sorted(saved)
    assert "Traceback" not in srv.log.read_text()


@needs_other_user
def test_a_user_graph_left_to_another_owner_names_the_chown_too_and_loads_whole_once_given_back():
    """user.json left mode 600 by a tool run as root: the fix names its owner; the project graph serves meanwhile."""
    with other_user_server() as srv:
        cwd = srv.project("pp")
        (srv.store / "projects" / "pp").mkdir(parents=True)
        (srv.store / "projects" / "pp" / "graph.json").write_text(graph_json(cwd, "pp-lesson"))
        user = srv.store / "user.json"
        user.write_text(graph_json(None, "user-first-lesson", "user-second-lesson"))
        (srv.store / "user.prev").write_text(graph_json(None, "user-first-lesson"))
        own(srv)
        if os.geteuid() != 0:
            pytest.skip("only root can give the file to another owner")
        os.chown(user, 0, 0)
        user.chmod(0o600)
        srv.start("--no-editor")
        conn = Client(srv)
        text, err = conn.tool("kg_read", cwd=cwd)
        assert not err and "pp-lesson" in text and "The user memory could not be loaded" in text, text
        assert f"`chmod u+rw {user}` and `chown nobody {user}` (it belongs to root)" in text, text
        assert "user-first-lesson" not in text, text
        sid = session_id(text)
        text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="while-refused", gist="refused")
        assert err and text.startswith("Error: NOT WRITTEN"), text
        text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="project-write-works", gist="kept")
        assert not err, text
        os.chown(user, NOBODY, NOBODY)  # given back: the next use loads it whole
        text, err = conn.tool("kg_read", cwd=cwd)
        assert not err and "user-second-lesson" in text and "could not be loaded" not in text, text
        assert srv.stop() == 0
        assert sorted(p.name for p in srv.store.glob("user.*")) == ["user.json", "user.prev"]


def test_doctor_names_a_file_an_older_kg_set_aside_that_reads_and_its_fix_merges_it_back(server_factory):
    """An older kg took a file it was refused for corrupt: moved aside as `.unreadable`, `.prev` served and saved
    over. The file reads now: doctor names it, counts what the graph lacks, and its fix merges it back whole."""
    srv = server_factory(start=False)
    folder = srv.store / "projects" / "pp"
    folder.mkdir(parents=True)
    cwd = srv.project("pp")
    (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
    graph = folder / "graph.json"
    graph.write_text(graph_json(cwd, "pp-first-lesson", "pp-written-since"))  # `.prev` served, then a write
    aside = folder / "graph.json.unreadable"
    aside.write_text(graph_json(cwd, "pp-first-lesson", "pp-lost-lesson"))
    doctor = kg(["doctor"], srv.env)
    line = next((x for x in doctor.stdout.splitlines() if str(aside) in x and "reads as a graph" in x), None)
    assert line is not None and "1 of its node(s) are not in" in line, doctor.stdout
    fix = doctor.stdout.split(line, 1)[1].splitlines()[1]
    assert fix.strip().startswith("fix: `kg stop`, then `kg merge-driver /dev/null"), doctor.stdout
    merge = fix.split("`")[3].split()  # the command as said
    run = kg(merge[1:], srv.env)
    assert run.returncode == 0, run.stderr
    nodes = json.loads(graph.read_text())["nodes"]
    assert {"pp-first-lesson", "pp-written-since", "pp-lost-lesson"} <= set(nodes), sorted(nodes)


@needs_other_user
def test_a_project_folder_the_server_may_not_enter_is_named_as_a_folder_and_loaded_whole_once_it_may():
    """chmod 000 on projects/pp: the fix is the folder's permission (never a move aside of a file it cannot
    even see), and once the folder opens its next use loads the graph whole, with no reload nor restart."""
    with other_user_server() as srv:
        cwd, folder, graph = _project_pp(srv)
        folder.chmod(0)

        srv.start("--no-editor")
        conn = Client(srv)
        text, err = conn.tool("kg_read", cwd=cwd)
        assert not err and "user-lesson-node" in text and "pp-first-lesson" not in text, text
        assert f"`chmod u+rwx {folder}`" in text and "graph.prev" not in text, text
        assert ".aside" not in text and "put a good copy back" not in text, text
        sid = session_id(text)
        text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="while-refused", gist="refused")
        assert err and text.startswith("Error: NOT WRITTEN") and f"chmod u+rwx {folder}" in text, text
        status = conn.run("status")
        assert f"`chmod u+rwx {folder}`" in status.stdout and ".aside" not in status.stdout, status.stdout
        assert "graph.prev" not in status.stdout and "put a good copy back" not in status.stdout, status.stdout

        folder.chmod(0o755)  # the permission fixed: the next use loads it whole
        text, err = conn.tool("kg_read", cwd=cwd)
        assert not err and "pp-second-lesson" in text and "could not be loaded" not in text, text
        text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="after-the-fix", gist="kept")
        assert not err, text
        assert srv.stop() == 0
        assert {"pp-first-lesson", "pp-second-lesson", "after-the-fix"} <= set(json.loads(graph.read_text())["nodes"])
        folder.chmod(0)  # with the server down, doctor says it as the next start would
        doctor = conn.run("doctor")
        folder.chmod(0o755)
        assert doctor.returncode == 1 and f"`chmod u+rwx {folder}`" in doctor.stdout, doctor.stdout
        assert ".aside" not in doctor.stdout and "graph.prev" not in doctor.stdout, doctor.stdout
