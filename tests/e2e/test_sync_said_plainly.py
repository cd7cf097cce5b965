"""What `kg sync` says is the news of this sync, with git's own cause when a remote cannot be reached: real
`kg`, real servers, bare remotes."""

from __future__ import annotations

import shutil

from e2e_helpers import Session, graph, nodes_by_id
from mcp import Client
from test_git_sync import _machine, _sync, _sync_in_turn, _two_machines, _user, _write

from kg_actors.testing import free_port


async def test_an_unreachable_remote_is_said_with_gits_own_cause(tmp_path):
    # Only git's last two lines were kept, the advice it gives for every failure: a typo in a path, an ssh port
    # refused and access denied all read alike.
    a = _machine(tmp_path, "machine-a", _user("a-lesson-node")).start()
    try:
        out = _sync(a, tmp_path / "no-such-repo.git")
        assert out.returncode == 1 and "does not appear to be a git repository" in out.stderr, out.stderr
        assert "cannot fetch from" in out.stderr and "no-such-repo.git" in out.stderr, out.stderr
        if shutil.which("ssh"):
            out = _sync(a, f"ssh://127.0.0.1:{free_port()}/x.git")
            assert out.returncode == 1 and "Connection refused" in out.stderr, out.stderr
        assert "a-lesson-node" in nodes_by_id(graph(a)["user"])
    finally:
        a.stop()


async def test_a_machine_joining_later_is_not_told_of_an_edge_dropped_before_it_had_either_end(tmp_path):
    # Its first sync said "edge(s) dropped with a node deleted on the other machine" for an edge set aside between
    # two other machines long before, whose ends it never had.
    remote, a, b = _two_machines(tmp_path, _user("lesson-to-delete-here", "lesson-other-end"))
    c = _machine(tmp_path, "machine-c").start()
    try:
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            await sa.ok("kg_read", id="lesson-to-delete-here")
            await sa.ok("kg_delete_node", id="lesson-to-delete-here")
            await sb.ok("kg_put_edge", level="user", frm="lesson-other-end", to="lesson-to-delete-here",
                        rel="related-to")
        _sync(a, remote)
        out = _sync(b, remote)
        assert "edge(s) dropped" in out.stdout, out.stdout  # news on the machine whose edge it was
        await _write(c, "c-own-lesson")
        out = _sync(c, remote)
        assert out.returncode == 0 and "1 node(s) added: lesson-other-end" in out.stdout, out.stdout + out.stderr
        assert "dropped" not in out.stdout, out.stdout
        assert set(nodes_by_id(graph(c)["user"])) == {"lesson-other-end", "c-own-lesson"}
    finally:
        a.stop()
        b.stop()
        c.stop()
