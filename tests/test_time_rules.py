"""Time-based rules under Trio's MockClock: days pass in milliseconds, exactly."""

import json

import pytest
import trio

from kg_actors.core import constants as C
from kg_actors.core import scoring
from kg_actors.core.model import GraphData, Node
from kg_actors.graph_actor import run_graph_actor
from kg_actors.session_actor import run_session_registry

DAY = C.DAY_SECONDS
EPOCH = 1_790_000_000.0


def wall() -> float:
    """A wall clock derived from the mock clock (DESIGN.md "Time")."""
    return EPOCH + trio.current_time()


async def test_an_orphan_is_deleted_only_after_its_grace(tmp_path, autojump_clock):
    g = GraphData("project")
    g.set_node(Node("kept-node-here", "an active lesson"))
    g.set_node(Node("orphan-node-here", "forgotten", archived=True, orphaned_ts=wall()))
    g.commit()
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "project:p", "project", tmp_path / "g.json", g, None, 365)
        await trio.sleep(364 * DAY)
        out = await handle.tick(now=wall())
        assert out.pruned == [] and "orphan-node-here" in await handle.node_ids()
        await trio.sleep(2 * DAY)
        out = await handle.tick(now=wall())
        assert out.pruned == ["orphan-node-here"]
        assert await handle.node_ids() == frozenset({"kept-node-here"})
        await handle.close()


async def test_an_endorsement_fades_with_a_ninety_day_half_life(autojump_clock):
    node = Node("endorsed-node-here", "g", useful_ts=(wall(),))
    assert scoring.usefulness_raw(node, wall()) == pytest.approx(1.0)
    await trio.sleep(90 * DAY)
    assert scoring.usefulness_raw(node, wall()) == pytest.approx(0.5)
    await trio.sleep(90 * DAY)
    assert scoring.usefulness_raw(node, wall()) == pytest.approx(0.25)


async def test_sessions_expire_after_a_day_idle(tmp_path, autojump_clock):
    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, tmp_path / "sessions.json", {})
        old = await sessions.register(project_path=None, harness="claude-code", now=wall())
        await trio.sleep(23 * 3600)
        busy = await sessions.register(project_path=None, harness="claude-code", now=wall())
        await trio.sleep(2 * 3600)
        assert await sessions.expire(now=wall()) == 1
        assert await sessions.get(sid=old.sid) is None
        assert await sessions.get(sid=busy.sid) is not None
        await sessions.save()
        stored = json.loads((tmp_path / "sessions.json").read_text())
        assert old.sid not in stored and busy.sid in stored  # the file lets it go too
        nursery.cancel_scope.cancel()


async def test_a_credited_orphan_goes_back_to_the_archive_and_ages_again(tmp_path, autojump_clock):
    g = GraphData("project")
    g.set_node(Node("credited-orphan-node", "g", archived=True, orphaned_ts=wall()))
    g.commit()
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "project:p", "project", tmp_path / "g.json", g, None, 365)
        await trio.sleep(300 * DAY)
        credited = wall()  # the autojump clock moves on while the actor waits to compact
        assert await handle.endorse(node_id="credited-orphan-node", now=credited, credits=2) == "unorphaned"
        node = await handle.get_node(node_id="credited-orphan-node")
        assert not node.orphaned and node.useful_ts == (credited,) * 2
        await trio.sleep(100 * DAY)  # past the original grace: no longer an orphan, so not pruned
        out = await handle.tick(now=wall())
        assert "credited-orphan-node" not in out.pruned
        await handle.close()
