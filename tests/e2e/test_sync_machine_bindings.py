"""`kg sync` keeps what binds a store to its own machine: a project's folder there.

Two machines (two stores, two real servers, one filesystem here) and a bare remote, as in test_git_sync.py.
"""

from __future__ import annotations

import json
import os

from e2e_helpers import Session
from mcp import Client
from test_git_sync import _sync, _two_machines


def _recorded(srv, slug: str) -> str:
    return json.loads((srv.store / "projects" / slug / "graph.json").read_text())["_meta"]["project_path"]


async def _write(srv, lesson: str) -> None:
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=srv.project("proj"))
        await s.ok("kg_put_node", level="project", id=lesson, gist=f"learnt on {srv.env['KG_MACHINE']}")


async def test_a_synced_project_keeps_this_machines_folder_and_its_sessions_keep_its_graph(tmp_path):
    # The merge took the other machine's folder path into the graph file: this machine's next session in its own
    # folder opened a new empty graph folder, which the next sync pushed as a project of its own.
    remote, a, b = _two_machines(tmp_path)
    try:
        await _write(a, "proj-lesson-from-a")
        assert _sync(a, remote).returncode == 0
        # Machine a's folder is not on machine b (both are this one here): b adopts the project it synced.
        hidden = tmp_path / "a-proj-elsewhere"
        os.rename(a.project("proj"), hidden)
        assert _sync(b, remote).returncode == 0
        await _write(b, "proj-lesson-from-b")
        assert _sync(b, remote).returncode == 0
        os.rename(hidden, a.home / "proj")
        a.stop()  # no actor holds the project's graph: the sync writes its file from the merge
        for srv in (a, b, a):
            out = _sync(srv, remote)
            assert out.returncode == 0, out.stderr
        a.start()
        for srv in (a, b):
            assert _recorded(srv, "proj") == os.path.realpath(srv.project("proj")), srv.env["KG_MACHINE"]
            async with Client(srv.url + "/") as c:
                s = await Session.open(c, cwd=srv.project("proj"))
                text = await s.ok("kg_read", ids=["proj-lesson-from-a", "proj-lesson-from-b"])
            assert "learnt on machine-a" in text and "learnt on machine-b" in text, text
            assert sorted(p.name for p in (srv.store / "projects").iterdir()) == ["proj"], srv.env["KG_MACHINE"]
    finally:
        a.stop()
        b.stop()
