"""A delete is a node write: the room it frees is refilled at once, not at the next tick.

The server here never ticks (the tests' tick is an hour), so only the compaction a delete leaves owed can
bring archived lessons back. Spec 000: "Compaction runs after every node write"; refill fills the room
below the 0.8 ceiling. A delete left the graph thinner than the ceiling allows until the tick (an audit:
49 active after deleting 10 of 59, 60 once the tick ran).
"""

from __future__ import annotations

import time

import pytest
from e2e_helpers import Session, graph, reference_graph, start_server, wait_until

from kg_actors.core import render
from kg_actors.core.constants import COMPACTION_TARGET_RATIO, MAX_CHARS_PER_LEVEL
from kg_actors.core.model import GraphData

NOW = time.time()
OLD = NOW - 60 * 86_400
CEILING = int(MAX_CHARS_PER_LEVEL * COMPACTION_TARGET_RATIO)


def _gist(tag: str, n: int = 290) -> str:
    return (f"{tag} " + " ".join(f"{tag.replace('-', '')}w{j}" for j in range(80)))[:n]


def _project(path: str) -> dict:
    """Between the ceiling and the budget, so loading changes nothing; small archived lessons wait."""
    endorsed = {"_useful_ts": [NOW - 3600, NOW - 7200], "_last_read_ts": NOW - 3600}  # no swap at load
    active = [{"id": f"kept-lesson-{i:02d}", "gist": _gist(f"kept-{i:02d}"), "_created_ts": OLD + i, **endorsed}
              for i in range(66)]
    archived = [{"id": f"waiting-lesson-{i:02d}", "gist": f"a small archived lesson {i}",
                 "_created_ts": OLD - 86_400, "_archived": True} for i in range(6)]
    raw = reference_graph(active + archived, [], path)
    charge = render.charge(GraphData.from_json(raw, "project"))
    assert CEILING < charge < MAX_CHARS_PER_LEVEL, charge
    return raw


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("delete-refill")
    path = base / "home" / "refill-after-delete"
    path.mkdir(parents=True)
    server = start_server(base, None, {"refill-after-delete": _project(str(path))})
    server.path = str(path)
    yield server
    server.kill()


def _archived(srv) -> set[str]:
    return {n["id"] for n in graph(srv, project_path=srv.path)["project"]["nodes"] if n.get("_archived")}


async def test_deleting_nodes_below_the_ceiling_refills_without_waiting_for_the_tick(srv, client):
    waiting = {f"waiting-lesson-{i:02d}" for i in range(6)}
    assert _archived(srv) == waiting  # loading the graph moved nothing
    s = await Session.open(client, srv.path)
    for i in range(12):
        await s.ok("kg_delete_node", id=f"kept-lesson-{i:02d}")
    wait_until(lambda: not _archived(srv), 20, "the archived lessons to be refilled after the deletes")
    read = await s.ok("kg_read")
    assert all(f"waiting-lesson-{i:02d}" in read for i in range(6))

