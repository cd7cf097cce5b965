"""A store folder the server may not enter (`projects/`, or one project's graph folder) at a session's start:
which graph folder is the project's cannot be told, so none other is claimed. The project is served as
unavailable, naming the permission; once the folder opens, the project binds to its own graph, and no
second graph folder is left behind for it.

A real `kg serve` run as another user (root enters every folder), as test_graph_file_permissions does."""

from __future__ import annotations

import json
import os

from other_user import Client, graph_json, needs_other_user, other_user_server, own
from rpc_helpers import session_id



@needs_other_user
def test_a_projects_folder_the_server_may_not_enter_claims_no_other_graph_folder():
    with other_user_server() as srv:
        cwd = srv.project("a")
        projects = srv.store / "projects"
        (projects / "a").mkdir(parents=True)
        (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
        (projects / "a" / "graph.json").write_text(graph_json(cwd, "a-first-lesson", "a-second-lesson"))
        own(srv)
        projects.chmod(0)
        try:
            srv.start("--no-editor")
            conn = Client(srv)
            text, err = conn.tool("kg_read", cwd=cwd)
            assert not err and "user-lesson-node" in text, text
            assert "The project memory could not be loaded" in text and "Permission denied (EACCES)" in text, text
            assert f"chmod u+rwx {projects}` (the folder the server may not enter" in text, text
            assert "a-first-lesson" not in text and "a folder above it" not in text, text
            sid = session_id(text)
            text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="while-shut", gist="refused")
            assert err and "NOT WRITTEN" in text, text
            trouble = conn.health()["graphs_in_trouble"]
            assert list(trouble) == ["project:a"] and "EACCES" in trouble["project:a"]["why"], trouble
        finally:
            projects.chmod(0o755)
        text, err = conn.tool("kg_read", cwd=cwd)  # open again: its own graph, whole, with no restart
        assert not err and "a-second-lesson" in text and "could not be loaded" not in text, text
        text, err = conn.tool("kg_put_node", session_id=session_id(text), level="project", id="after-it-opened",
                              gist="kept in the project's own graph")
        assert not err, text
        assert "project:a" not in conn.health()["graphs_in_trouble"]
        assert srv.stop() == 0
        assert os.listdir(projects) == ["a"], "no second graph folder claimed for the project"
        nodes = json.loads((projects / "a" / "graph.json").read_text())["nodes"]
        assert {"a-first-lesson", "a-second-lesson", "after-it-opened"} <= set(nodes), sorted(nodes)


@needs_other_user
def test_a_graph_folder_the_server_may_not_enter_is_not_passed_over_for_a_hashed_one():
    """`My App`'s graph folder is `My-App` (its name made safe), so the folder name alone does not say it is
    this project's: shut, it must not be taken for another project's and a new `My-App-<hash>` claimed."""
    with other_user_server() as srv:
        cwd = srv.project("My App")
        folder = srv.store / "projects" / "My-App"
        folder.mkdir(parents=True)
        (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
        (folder / "graph.json").write_text(graph_json(cwd, "app-lesson"))
        own(srv)
        folder.chmod(0)
        try:
            srv.start("--no-editor")
            conn = Client(srv)
            text, err = conn.tool("kg_read", cwd=cwd)
            assert not err and "Permission denied (EACCES)" in text and f"chmod u+rwx {folder}" in text, text
            assert list(conn.health()["graphs_in_trouble"]) == ["project:My-App"]
        finally:
            folder.chmod(0o755)
        text, err = conn.tool("kg_read", cwd=cwd)
        assert not err and "app-lesson" in text, text
        text, err = conn.tool("kg_put_node", session_id=session_id(text), level="project", id="after", gist="kept")
        assert not err, text
        assert srv.stop() == 0
        assert os.listdir(srv.store / "projects") == ["My-App"]
