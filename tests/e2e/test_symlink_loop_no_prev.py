"""A symlink loop where a project's graph is, with no previous save beside it: a graph.json that links to
itself, or the project's graph folder itself a link to itself. Said as a loop, with the fix that works
(remove the link), not as a damaged file to move aside or restore (a move fails through the loop)."""

from __future__ import annotations

import os

from e2e_helpers import kg
from rpc_helpers import Conn


def test_a_loop_with_no_previous_save_is_named_as_a_loop_with_the_link_to_remove(server_factory):
    srv = server_factory(start=False)
    projects = srv.store / "projects"
    (projects / "q").mkdir(parents=True)
    os.symlink("graph.json", projects / "q" / "graph.json")  # the file itself
    os.symlink("r", projects / "r")  # the graph folder itself
    srv.start("--no-editor")
    conn = Conn(srv.port)
    for name, link in (("q", projects / "q" / "graph.json"), ("r", projects / "r")):
        text, err = conn.tool("kg_read", cwd=srv.project(name))
        assert not err and "The project memory could not be loaded" in text, text
        assert "symlink loop" in text and f"rm {link}" in text, text
        assert "restore it from" not in text and "move it aside" not in text, text
        assert os.path.islink(link)  # the fix said is one that works: the link is there to remove
    doctor = kg(["doctor"], srv.env)
    for link in (projects / "q" / "graph.json", projects / "r"):
        assert f"`rm {link}`" in doctor.stdout, doctor.stdout
    assert ".aside" not in doctor.stdout, doctor.stdout
    status = kg(["status"], srv.env)
    assert f"`rm {projects / 'r'}`" in status.stdout + status.stderr, status.stdout
    assert srv.stop() == 0
    doctor = kg(["doctor"], srv.env)  # with the server down, the store read as the next start would
    assert f"`rm {projects / 'q' / 'graph.json'}`" in doctor.stdout and ".aside" not in doctor.stdout, doctor.stdout
