"""The undo a `kg restore` names, on a machine that syncs: real `kg`, two real servers, a bare remote."""

from __future__ import annotations

import re

from e2e_helpers import graph, kg, nodes_by_id
from git_helpers import git
from test_git_sync import _sync, _sync_in_turn, _two_machines, _write


async def test_the_undo_of_a_restore_keeps_a_lesson_another_machine_wrote_since_and_no_sync_deletes_it(tmp_path):
    # The undo restored the named commit as a snapshot: "1 node(s) removed: b-important-lesson", a lesson it never
    # added, and the next syncs deleted it on the machine that wrote it.
    remote, a, b = _two_machines(tmp_path)
    try:
        await _write(a, "seed-lesson-on-a")
        await _write(b, "seed-lesson-on-b")
        _sync_in_turn(remote, a, b, a)
        assert kg(["commit"], a.env).returncode == 0
        c0 = git(a.store, "rev-parse", "HEAD", env=a.env).strip()
        await _write(a, "a-mistake-lesson", gist="a lesson a wants to undo")
        out = kg(["restore", "--at", c0, "user"], a.env)
        assert out.returncode == 0 and "1 node(s) removed: a-mistake-lesson" in out.stdout, out.stdout + out.stderr
        undo = re.search(r"`kg restore --at (\w+) user` puts it back", out.stdout).group(1)
        await _write(b, "b-important-lesson", gist="b's lesson written meanwhile")
        _sync_in_turn(remote, b, a)
        out = kg(["restore", "--at", undo, "user"], a.env)
        assert out.returncode == 0, out.stderr
        assert "1 node(s) added: a-mistake-lesson" in out.stdout and "removed" not in out.stdout, out.stdout
        assert "what was written since that restore stays" in out.stdout, out.stdout
        _sync_in_turn(remote, a, b)
        every = {"seed-lesson-on-a", "seed-lesson-on-b", "a-mistake-lesson", "b-important-lesson"}
        for srv in (a, b):
            assert set(nodes_by_id(graph(srv)["user"])) == every, srv.env["KG_MACHINE"]
        # With no server running, the undo of an undo is the restore again: only a-mistake-lesson goes.
        again = re.search(r"`kg restore --at (\w+) user` puts it back", out.stdout).group(1)
        a.stop()
        out = kg(["restore", "--at", again, "user"], a.env)
        assert out.returncode == 0 and "1 node(s) removed: a-mistake-lesson" in out.stdout, out.stdout + out.stderr
        a.start()
        assert set(nodes_by_id(graph(a)["user"])) == every - {"a-mistake-lesson"}
    finally:
        a.stop()
        b.stop()
