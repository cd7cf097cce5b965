"""Sync set up on two machines before either has written a lesson: real `kg`, real servers, a bare remote."""

from __future__ import annotations

import json

from e2e_helpers import graph, nodes_by_id
from test_git_sync import _sync, _sync_in_turn, _two_machines, _write


async def test_a_second_machines_first_sync_works_while_neither_store_holds_a_lesson_and_is_remembered(tmp_path):
    # It failed with git's own "git rm -q failed: fatal: No pathspec was given", every time, and --remember was
    # not saved, so no autocommit ever synced.
    remote, a, b = _two_machines(tmp_path)
    try:
        for srv in (a, b):
            out = _sync(srv, remote, "--remember")
            assert out.returncode == 0, out.stderr
            assert "(the store is now a git repository)" in out.stdout and "nothing new" in out.stdout, out.stdout
            assert json.loads((srv.store / "config.json").read_text())["sync_remote"] == str(remote)
        await _write(a, "first-lesson-on-a")
        await _write(b, "first-lesson-on-b")
        _sync_in_turn(remote, a, b, a)
        for srv in (a, b):
            assert {"first-lesson-on-a", "first-lesson-on-b"} <= set(nodes_by_id(graph(srv)["user"]))
    finally:
        a.stop()
        b.stop()
