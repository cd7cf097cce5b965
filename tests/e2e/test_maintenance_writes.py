"""Spec 000 "Chores": the guards a maintenance session meets on the write path, against a real `kg serve`.

The chore picker never chooses these targets, but a maintenance agent names what it likes; the server
refuses, for a maintenance session only, a rename or delete of a node a live working session holds and
a gist rewrite of a node whose gist changed more than twice in 30 days. And a rename is no news: it is
not pushed back to the session that made it (spec 000: only content another session wrote is pushed).
"""

from __future__ import annotations

import time

import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server

NOW = time.time()
OLD = NOW - 10 * 86_400
ELSEWHERE = "a0a0a0a0a0a0a0a0"  # a session of another machine (its writes came by kg sync)


def _seeded(node_id: str) -> dict:
    return {"id": node_id, "gist": f"{node_id} as another machine wrote it", "_created_ts": OLD,
            "_gist_ts": [OLD], "_written": {"ts": OLD, "by": ELSEWHERE}}


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("guards")
    path = str(base / "home" / "seeded-proj")
    seeded = ["unheld-rename-node", "push-write-node"]
    projects = {"seeded-proj": {"nodes": {i: _seeded(i) for i in seeded}, "edges": {},
                                "_meta": {"versions": {}, "project_path": path,
                                          "namespace": {"kind": "project", "owner": None}}}}
    (base / "home" / "seeded-proj").mkdir(parents=True)
    server = start_server(base, projects=projects)
    yield server
    server.kill()


def _nodes(srv, sid: str) -> dict[str, dict]:
    return nodes_by_id(graph(srv, session_id=sid)["project"])


async def test_a_maintenance_session_may_not_rename_or_delete_what_a_live_session_holds(srv, client):
    proj = srv.project("held-proj")
    live = await Session.open(client, proj)
    await live.ok("kg_put_node", level="project", id="held-lesson-node", gist="a lesson the live session holds")
    m = await Session.open(client, proj, maintenance=True, ids=["held-lesson-node"])
    text = await m.err("kg_rename_node", level="project", old_id="held-lesson-node", new_id="renamed-held-node")
    assert "held by a live session" in text and "does not rename or delete" in text, text
    text = await m.err("kg_delete_node", id="held-lesson-node")
    assert "not deleted: 'held-lesson-node' is held by a live session" in text, text
    assert "held-lesson-node" in _nodes(srv, live.sid) and "renamed-held-node" not in _nodes(srv, live.sid)
    # A node no working session holds: the maintenance session renames and deletes it.
    await m.ok("kg_put_node", level="project", id="maint-own-node", gist="a node only maintenance saw")
    await m.ok("kg_rename_node", level="project", old_id="maint-own-node", new_id="maint-renamed-node")
    await m.ok("kg_delete_node", id="maint-renamed-node")
    # A working session is not limited by the guard.
    other = await Session.open(client, proj)
    await other.ok("kg_read", id="held-lesson-node")
    await other.ok("kg_rename_node", level="project", old_id="held-lesson-node", new_id="renamed-by-worker")
    assert "renamed-by-worker" in _nodes(srv, live.sid)


async def test_a_maintenance_session_may_not_rewrite_a_gist_that_changed_more_than_twice_in_30_days(srv, client):
    proj = srv.project("churn-proj")
    live = await Session.open(client, proj)
    for i in range(4):  # written, then changed three times this month
        await live.ok("kg_put_node", level="project", id="churned-lesson-node", gist=f"gist version {i}")
    m = await Session.open(client, proj, maintenance=True, ids=["churned-lesson-node"])
    text = await m.err("kg_put_node", level="project", id="churned-lesson-node", gist="a maintenance rewrite")
    assert "changed 3 times in the last 30 days" in text and "does not rewrite a gist" in text, text
    assert _nodes(srv, live.sid)["churned-lesson-node"]["gist"] == "gist version 3"
    # The gist sent as it stands (notes added) is no rewrite of it.
    await m.ok("kg_put_node", level="project", id="churned-lesson-node", gist="gist version 3", notes=["a note"])
    # Written and changed twice is not "changed more than twice": maintenance may change it a third time.
    for i in range(3):
        await live.ok("kg_put_node", level="project", id="twice-changed-node", gist=f"twice version {i}")
    await m.ok("kg_read", id="twice-changed-node")
    await m.ok("kg_put_node", level="project", id="twice-changed-node", gist="tidied by maintenance")
    text = await m.err("kg_put_node", level="project", id="twice-changed-node", gist="and again")
    assert "changed 3 times" in text, text
    # A maintenance session's own node: written, then changed three times; the fourth change is refused.
    for gist in ("first", "second", "third", "fourth"):
        await m.ok("kg_put_node", level="project", id="calm-lesson-node", gist=gist)
    await m.err("kg_put_node", level="project", id="calm-lesson-node", gist="fifth")
    # A working session is not limited.
    await live.ok("kg_read", id="churned-lesson-node")
    await live.ok("kg_put_node", level="project", id="churned-lesson-node", gist="gist version 4")
    assert _nodes(srv, live.sid)["churned-lesson-node"]["gist"] == "gist version 4"


async def test_a_maintenance_sessions_own_rename_is_not_pushed_back_to_it(srv, client):
    """t_selfpush.sh: a maintenance session's own rename came back to it as another session's write "(new)".
    (No working session is open on this project: each would hold what its first read showed.)"""
    proj = str(srv.home / "seeded-proj")
    m = await Session.open(client, proj, maintenance=True, ids=["push-write-node"])
    await m.ok("kg_rename_node", level="project", old_id="unheld-rename-node", new_id="renamed-by-maint-node")
    text = await m.ok("kg_put_node", level="project", id="push-write-node", gist="rewritten by maintenance")
    assert "renamed-by-maint-node" not in text, text
    text = await m.ok("kg_put_node", level="project", id="maint-second-node", gist="a second write")
    assert "renamed-by-maint-node" not in text and "While you worked" not in text, text
    assert "renamed-by-maint-node" in _nodes(srv, m.sid)
