"""Reads that promote archived nodes past the level's budget, as sessions make them against a real `kg serve`:
the level is compacted back within its budget as after a write, not left over it until the tick."""

from __future__ import annotations


import trio
from e2e_helpers import Session, wait_until
from editor_store import client
from hook_helpers import node, project_graph, user_graph
from mcp import Client

from kg_actors.core.constants import MAX_CHARS_PER_LEVEL
from kg_actors.testing import write_store

LONG = "a gist long enough that bringing it back costs the level its characters " * 3


def _project_charge(http, root: str) -> int:
    return http.get("/api/budget", params={"project_path": root}).json()["levels"]["project"]["charge"]


async def test_ten_sessions_promoting_archived_nodes_by_reads_leave_the_level_within_its_budget(server_factory):
    srv = server_factory(start=False)  # its tick is an hour away: only the reads' own compaction can help
    root = srv.project("promoted-proj")
    active = [node(f"active-lesson-{k:03d}", f"active {k}: {LONG}") for k in range(90)]
    archived = [node(f"archived-lesson-{k:02d}", f"archived {k}: {LONG}", _archived=True) for k in range(30)]
    write_store(srv.store, user_graph([node("prefer-small-commits", "commit one logical change at a time")]),
                {"promoted-proj": project_graph(root, active + archived)})
    srv.start()
    with client(srv) as http, trio.fail_after(120):
        async with Client(srv.url + "/") as c:
            # Opened first: a session's opening full read compacts the level it renders.
            sessions = [await Session.open(c, cwd=root) for _ in range(10)]
            assert _project_charge(http, root) <= MAX_CHARS_PER_LEVEL  # within, before the reads

            async def reads(k: int) -> None:
                for j in range(3 * k, 3 * k + 3):
                    await sessions[k].ok("kg_read", id=f"archived-lesson-{j:02d}")

            async with trio.open_nursery() as nursery:
                for k in range(10):
                    nursery.start_soon(reads, k)
        wait_until(lambda: _project_charge(http, root) <= MAX_CHARS_PER_LEVEL, what="the level within its budget")
