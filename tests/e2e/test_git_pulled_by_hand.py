"""A `git pull` run by hand in the store: kg takes the pulled content in before it commits.

The user pulled another machine's commits into the store with git itself; the
server never took them in, `kg sync` said nothing was new, and the next commit
rebuilt the mirror from the stale graph file: the other machine's rewrite was
reverted on the remote, no conflict listed.
"""

from __future__ import annotations

from e2e_helpers import Session, graph, kg, nodes_by_id
from git_helpers import committed_graph, git
from mcp import Client
from test_git_sync import _machine, _sync, _two_machines, _user, _write


async def test_a_pull_by_hand_is_taken_in_and_nothing_acknowledged_is_reverted(tmp_path):
    remote, a, b = _two_machines(tmp_path, _user("shared-lesson", "both-lesson"))
    try:
        assert _sync(a, remote).returncode == 0
        assert _sync(b, remote).returncode == 0
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            for s in (sa, sb):
                await s.ok("kg_read", ids=["shared-lesson", "both-lesson"])
            await sa.ok("kg_put_node", level="user", id="shared-lesson", gist="rewritten on a")
            await sa.ok("kg_put_node", level="user", id="both-lesson", gist="a's earlier version")
            await sa.ok("kg_put_node", level="user", id="a-new-lesson", gist="new on a")
            assert _sync(a, remote).returncode == 0
            await sb.ok("kg_put_node", level="user", id="both-lesson", gist="b's later version")
            git(b.store, "pull", "-q", "--no-edit", str(remote), "main", env=b.env)  # by hand: a fast-forward
            await sb.ok("kg_put_node", level="user", id="b-new-lesson", gist="new on b")
            out = _sync(b, remote)
            assert out.returncode == 0, out.stderr
            held = nodes_by_id(graph(b)["user"])  # b's running server took the pulled content in
            assert held["shared-lesson"]["gist"] == "rewritten on a"
            assert held["a-new-lesson"]["gist"] == "new on a" and held["b-new-lesson"]["gist"] == "new on b"
            assert held["both-lesson"]["gist"] == "b's later version"  # b's own write since stands, a's is kept aside
            assert "a's earlier version" in await sb.ok("kg_read", id="both-lesson")
        pushed = committed_graph(remote, env=a.env)["nodes"]
        assert pushed["shared-lesson"]["gist"] == "rewritten on a"
        assert {"a-new-lesson", "b-new-lesson"} <= set(pushed)
        assert _sync(a, remote).returncode == 0
        held = nodes_by_id(graph(a)["user"])
        assert held["shared-lesson"]["gist"] == "rewritten on a" and "b-new-lesson" in held
    finally:
        a.stop()
        b.stop()


async def _a_rewrote_then_b_wrote(a, b, remote) -> None:
    """Both synced once; a rewrites shared-lesson, adds a-new-lesson and syncs; b adds b-new-lesson, unsynced."""
    assert _sync(a, remote).returncode == 0
    assert _sync(b, remote).returncode == 0
    await _write(a, "shared-lesson", gist="rewritten on a")
    await _write(a, "a-new-lesson")
    assert _sync(a, remote).returncode == 0
    await _write(b, "b-new-lesson")


async def test_a_pull_by_hand_is_taken_in_with_no_server_running(tmp_path):
    remote, a, b = _two_machines(tmp_path, _user("shared-lesson"))
    try:
        await _a_rewrote_then_b_wrote(a, b, remote)
    finally:
        a.stop()
        b.stop()
    # b's shutdown committed b-new-lesson: the pull by hand is a merge of git's own.
    git(b.store, "pull", "-q", "--no-rebase", "--no-edit", str(remote), "main", env=b.env)
    out = kg(["commit"], b.env)  # no server: the command takes the pulled commits in itself
    assert out.returncode == 0, out.stderr
    assert "taken in from commits made outside kg" in out.stdout and "a-new-lesson" in out.stdout, out.stdout
    committed = committed_graph(b.store, env=b.env)["nodes"]
    assert committed["shared-lesson"]["gist"] == "rewritten on a" and {"a-new-lesson", "b-new-lesson"} <= set(committed)
    b.start()
    try:
        held = nodes_by_id(graph(b)["user"])
        assert held["shared-lesson"]["gist"] == "rewritten on a" and {"a-new-lesson", "b-new-lesson"} <= set(held)
        out = _sync(b, remote)
        assert out.returncode == 0, out.stderr
        assert committed_graph(remote, env=b.env)["nodes"]["shared-lesson"]["gist"] == "rewritten on a"
    finally:
        b.stop()


async def test_a_reset_by_hand_is_neither_committed_over_nor_taken_in(tmp_path):
    """HEAD moved back to a commit that lacks kg's last one: taking that in would revert this machine's own
    writes, so kg commits nothing and says how to go back."""
    a = _machine(tmp_path, "machine-a", _user("a-seed-node")).start()
    try:
        assert kg(["init-git"], a.env).returncode == 0
        assert kg(["commit"], a.env).returncode == 0
        first = git(a.store, "rev-parse", "HEAD", env=a.env).strip()
        await _write(a, "a-later-lesson")
        assert kg(["commit"], a.env).returncode == 0
        kept = git(a.store, "rev-parse", "HEAD", env=a.env).strip()
        git(a.store, "reset", "-q", "--hard", first, env=a.env)
        await _write(a, "a-lesson-after-the-reset")
        out = kg(["commit"], a.env)
        assert out.returncode != 0 and "does not hold" in out.stderr and f"reset --hard {kept[:12]}" in out.stderr, (
            out.stdout + out.stderr)
        assert git(a.store, "rev-parse", "HEAD", env=a.env).strip() == first  # nothing committed over it
        assert {"a-later-lesson", "a-lesson-after-the-reset"} <= set(nodes_by_id(graph(a)["user"]))
        git(a.store, "reset", "-q", "--hard", kept, env=a.env)  # what the message says
        out = kg(["commit"], a.env)
        assert out.returncode == 0, out.stderr
        assert {"a-later-lesson", "a-lesson-after-the-reset"} <= set(committed_graph(a.store, env=a.env)["nodes"])
    finally:
        a.stop()


async def _pulled_by_hand_then_synced(tmp_path, pull_args: tuple[str, ...], forget_head: bool) -> None:
    """a rewrites a lesson and adds one, syncs; b pulls by hand (`pull_args`), writes, syncs: nothing of a's is
    reverted, on b or on the remote."""
    remote, a, b = _two_machines(tmp_path, _user("shared-lesson"))
    try:
        await _a_rewrote_then_b_wrote(a, b, remote)
        assert kg(["commit"], b.env).returncode == 0  # b's own commit, which a rebase replays
        if forget_head:  # a store an older kg committed: no record of the commit kg last made
            (b.store / ".git" / "kg-mirror" / "head").unlink()
        git(b.store, "pull", "-q", *pull_args, str(remote), "main", env=b.env)
        await _write(b, "b-later-lesson")
        out = _sync(b, remote)
        assert out.returncode == 0, out.stdout + out.stderr
        held = nodes_by_id(graph(b)["user"])
        assert held["shared-lesson"]["gist"] == "rewritten on a"
        assert {"a-new-lesson", "b-new-lesson", "b-later-lesson"} <= set(held)
        pushed = committed_graph(remote, env=a.env)["nodes"]
        assert pushed["shared-lesson"]["gist"] == "rewritten on a"
        assert {"a-new-lesson", "b-new-lesson", "b-later-lesson"} <= set(pushed)
    finally:
        a.stop()
        b.stop()


async def test_a_pull_by_hand_into_a_store_with_no_record_of_kgs_last_commit_is_taken_in(tmp_path):
    # A store upgraded from a kg that kept no record: this machine's newest kg commit in the history stands for it.
    await _pulled_by_hand_then_synced(tmp_path, ("--no-rebase", "--no-edit"), forget_head=True)


async def test_a_pull_by_hand_with_rebase_is_taken_in_not_refused_as_a_reset(tmp_path):
    # `git pull --rebase` replays kg's commit onto the pulled ones: HEAD holds its change, not its sha.
    await _pulled_by_hand_then_synced(tmp_path, ("--rebase",), forget_head=False)
