"""When a graph actor pays the compaction its writes left owing (compaction_schedule.py), under a MockClock."""

import json

import trio
import trio.testing

from kg_actors.core import constants as C
from kg_actors.core import graph_ops
from kg_actors.core.charge import ChargeIndex
from kg_actors.core.model import GraphData, Node
from kg_actors.graph_actor import run_graph_actor

W = graph_ops.Writer(session="aaaa1111")


async def put(handle, node_id, now):
    return await handle.put_node(node_id=node_id, gist="a lesson", notes=None, touches=None, now=now, writer=W)


def _over_budget_graph(ratio: float) -> tuple[GraphData, int]:
    """A level over its budget by `ratio` or a little more (as a load leaves it: nothing compacted it yet)."""
    graph = GraphData("project")
    k = 0
    while ChargeIndex.build(graph).high() <= C.MAX_CHARS_PER_LEVEL * ratio:
        graph.set_node(Node(f"lesson-number-{k:03d}", f"lesson {k}: " + "a long gist that costs characters " * 6))
        k += 1
    graph.commit()
    graph.take_changes()
    return graph, k


async def _archived(handle, count) -> int:
    return [(await handle.get_node(f"lesson-number-{k:03d}")).state for k in range(count)].count("archived")


async def _idle() -> None:
    """Until the loop has been idle longer than a planning step waits for (the shortest wait wins)."""
    await trio.testing.wait_all_tasks_blocked(cushion=2 * C.COMPACTION_STEP_IDLE)


async def _archived_once_planned(handle, count, turns: int = 200) -> int:
    """The archived count once the loop has let a plan in progress finish (its steps take the loop's
    idle turns); 0 if nothing was archived by then."""
    for _ in range(turns):
        await _idle()
        archived = await _archived(handle, count)
        if archived:
            return archived
    return 0


async def test_a_burst_of_writes_is_answered_first_and_compacted_once_the_mailbox_is_quiet(tmp_path, mock_clock):
    """A write leaves its compaction owed: the writes behind it do not wait on a plan the next write redoes."""
    async with trio.open_nursery() as nursery:
        graph, count = _over_budget_graph(1.05)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        for k in range(5):
            await put(handle, f"new-lesson-{k}", 1000.0 + k)
        assert await _archived(handle, count) == 0  # no time has passed: still owed
        mock_clock.jump(C.COMPACTION_QUIET_SECONDS)
        assert await _archived_once_planned(handle, count) > 0
        await handle.close()


async def test_under_steady_messages_the_compaction_owed_is_planned_once_owed_long_enough(tmp_path, mock_clock):
    """Never quiet: the run is due once owed COMPACTION_DEFER_MAX_SECONDS; it is planned while the messages
    go on being answered, and committed within a bounded number of them."""
    step = C.COMPACTION_QUIET_SECONDS * 0.8  # never quiet long enough
    async with trio.open_nursery() as nursery:
        graph, count = _over_budget_graph(1.05)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        await put(handle, "new-lesson-0", 1000.0)
        waited = 0.0
        while waited + step < C.COMPACTION_DEFER_MAX_SECONDS:
            mock_clock.jump(step)
            waited += step
            assert (await handle.get_node("lesson-number-000")).state == "active", waited
        answered = 0
        while not await _archived(handle, count) and answered < 50:
            mock_clock.jump(step)
            answered += 1
        assert answered < 50
        await handle.close()


async def test_a_compaction_owed_at_shutdown_is_paid_before_the_last_save(tmp_path, mock_clock):
    path = tmp_path / "g.json"
    async with trio.open_nursery() as nursery:
        graph, count = _over_budget_graph(1.05)
        handle = await nursery.start(run_graph_actor, "p", "project", path, graph)
        await put(handle, "new-lesson-0", 1000.0)
        await handle.close()
    saved = json.loads(path.read_text())["nodes"]
    assert "new-lesson-0" in saved and sum(bool(n.get("_archived")) for n in saved.values()) > 0


async def test_a_level_too_far_over_its_budget_is_compacted_without_waiting_for_quiet(tmp_path, mock_clock):
    async with trio.open_nursery() as nursery:
        graph, count = _over_budget_graph(C.COMPACTION_OVERSHOOT_RATIO)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        await put(handle, "new-lesson-0", 1000.0)
        assert await _archived_once_planned(handle, count) > 0  # no time has passed
        await handle.close()


async def test_writes_made_while_a_plan_is_made_are_kept_and_owed_their_own_run(tmp_path, mock_clock):
    """The plan reads a snapshot: a node written after it was taken keeps what its write said, and the
    level is brought back within its budget by the run those writes owe."""
    async with trio.open_nursery() as nursery:
        graph, count = _over_budget_graph(1.2)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        await put(handle, "new-lesson-0", 1000.0)
        mock_clock.jump(C.COMPACTION_QUIET_SECONDS)
        await trio.lowlevel.checkpoint()  # due: planned from here on, in a task of its own
        rewritten = [f"lesson-number-{k:03d}" for k in range(0, count, 3)]
        for node_id in rewritten:  # while the plan is made (a write is fresh: no later run archives it)
            await handle.put_node(node_id=node_id, gist="rewritten meanwhile", notes=None, touches=None,
                                  now=1001.0, writer=W)
        mock_clock.jump(C.COMPACTION_QUIET_SECONDS)
        assert await _archived_once_planned(handle, count) > 0
        for node_id in rewritten:
            node = await handle.get_node(node_id)
            assert (node.gist, node.state) == ("rewritten meanwhile", "active"), node_id
        for _ in range(20):  # the run the rewrites owe, too
            await _idle()
        assert ChargeIndex.build((await handle.current()).graph).high() <= C.MAX_CHARS_PER_LEVEL
        await handle.close()


async def test_a_compaction_step_waits_until_nothing_else_can_run(mock_clock):
    """What is in flight on the loop goes before the next planning step; a loop that is never idle still
    gives each step a turn after COMPACTION_STEP_WAIT_MAX."""
    from kg_actors.compaction_schedule import when_idle

    order: list[str] = []

    async def busy(turns: int) -> None:
        for _ in range(turns):
            await trio.lowlevel.checkpoint()
        order.append("busy done")

    async def compaction_step() -> None:
        await when_idle(trio.lowlevel.checkpoint)()
        order.append("step")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(busy, 50)
        nursery.start_soon(compaction_step)
    assert order == ["busy done", "step"]

    async def never_idle(stop: trio.Event) -> None:
        while not stop.is_set():
            await trio.sleep(0)
            mock_clock.jump(C.COMPACTION_STEP_WAIT_MAX / 10)

    stop = trio.Event()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(never_idle, stop)
        await when_idle(trio.lowlevel.checkpoint)()  # returns: the wait is bounded
        stop.set()


def test_a_plan_yields_by_the_work_it_does_and_decides_as_in_one_go():
    """A level whose lessons all explain one hub: the plan yields by the nodes and edges it works on, not
    once per pass (at 10,000 nodes a pass held the loop up to 14 ms), and decides what it decides in one go."""
    from kg_actors.core import compaction
    from kg_actors.core.model import Edge
    from kg_actors.core.steps import run_steps

    def graph() -> GraphData:
        g, count = _over_budget_graph(1.6)
        g.set_node(Node("the-hub-node", "a hub every lesson explains"))
        for k in range(count):
            g.set_edge(Edge(f"lesson-number-{k:03d}", "the-hub-node", "explains"))
        g.commit()
        g.take_changes()
        return g

    g = graph()
    steps = compaction.plan_steps(g, 2e9, rebalance=False)
    yields = 0
    try:
        while True:
            next(steps)
            yields += 1
    except StopIteration as done:
        plan = done.value
    assert len(plan.moves) > 100
    assert yields >= 10  # one step per pass made 4
    assert run_steps(compaction.plan_steps(graph(), 2e9, rebalance=False)).moves == plan.moves


async def test_the_tick_plans_in_steps_what_one_compaction_run_decides_and_prunes_the_same(tmp_path, mock_clock):
    """The tick's compaction and its prune are read in steps before its change (hook replies go between)."""
    from kg_actors.core import compaction

    graph, count = _over_budget_graph(1.3)
    same, _ = _over_budget_graph(1.3)
    expected = compaction.compact(same, 5000.0)
    assert expected.acted
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        out = await handle.tick(now=5000.0)
        assert out.compaction == expected and out.pruned == []
        states = [(await handle.get_node(f"lesson-number-{k:03d}")).state for k in range(count)]
        assert states == [same.nodes[f"lesson-number-{k:03d}"].state for k in range(count)]
        await handle.close()



async def test_a_planned_part_waits_until_nothing_else_can_run(tmp_path, mock_clock, monkeypatch):
    """A plan's parts are carried out as its steps were made: what is in flight on the loop goes first (in a
    server, a worker thread's report of a write's fsync: a plan of 1,000 moves carried out back to back
    held a kg_put_node 60-130 ms at 10,000 nodes). A task busy for many turns takes them all before the next
    part; the clock does not move, so no part's bounded wait runs out."""
    from kg_actors.core import compaction

    turns, at_commit, begun = [0], [], trio.Event()
    real_commit = compaction.commit

    def commit(graph, plan):
        at_commit.append(turns[0])
        begun.set()
        return real_commit(graph, plan)

    monkeypatch.setattr(compaction, "commit", commit)
    async with trio.open_nursery() as nursery:
        graph, _ = _over_budget_graph(1.4)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        await put(handle, "new-lesson-0", 1000.0)
        mock_clock.jump(C.COMPACTION_QUIET_SECONDS)  # the mailbox quiet: planned, then carried out in parts
        await begun.wait()
        for _ in range(500):
            turns[0] += 1
            await trio.lowlevel.checkpoint()
        for _ in range(100):
            await _idle()
        await handle.close()
    assert len(at_commit) > 4  # a plan of many parts, all carried out
    assert [t for t in at_commit if 0 < t < 500] == []


# -- the bounds a read sees ------------------------------------------------------------------------

def test_a_full_read_waits_for_the_run_owed_or_planned_or_for_a_level_over_its_budget():
    from kg_actors.compaction_schedule import Owed, owed_before_read

    within = ChargeIndex.build(_over_budget_graph(0.5)[0])
    over = ChargeIndex.build(_over_budget_graph(1.05)[0])
    assert owed_before_read(None, None, within, now=50.0) is None  # nothing pending: the read renders at once
    assert owed_before_read(Owed(now=40.0, since=1.0), None, within, now=50.0) == 40.0  # the latest write's now
    assert owed_before_read(None, 30.0, within, now=50.0) == 30.0  # a run being planned: its now
    assert owed_before_read(Owed(now=40.0, since=1.0), 30.0, within, now=50.0) == 40.0
    assert owed_before_read(None, None, over, now=50.0) == 50.0  # over by what no write owes (a promotion)
    assert owed_before_read(None, None, over, now=50.0, budget=10 ** 9) is None


def _high(view) -> int:
    return ChargeIndex.build(view.graph).high()


async def test_a_burst_never_carries_a_level_past_the_overshoot_bound_nor_a_settled_read_past_its_budget(
        tmp_path, mock_clock):
    """A burst: 120 writers at once, the mailbox never empty, so a plan's steps (which wait for an idle
    loop) could not keep up. The read each writer sends right after its write finds the level within
    COMPACTION_OVERSHOOT_RATIO of its budget, and a full read's view (`settled`) within the budget itself."""
    bound = C.MAX_CHARS_PER_LEVEL * C.COMPACTION_OVERSHOOT_RATIO
    seen: list[int] = []
    settled: list[int] = []

    async def writer(k: int) -> None:
        await handle.put_node(node_id=f"burst-node-{k:03d}", gist=f"burst {k}: " + "a gist of a burst " * 15,
                              notes=None, touches=None, now=1000.0 + k, writer=W)
        seen.append(_high(await handle.current()))
        if k % 10 == 9:
            settled.append(_high(await handle.settled(now=1000.0 + k)))

    async with trio.open_nursery() as nursery:
        graph, _ = _over_budget_graph(1.05)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        async with trio.open_nursery() as burst:
            for k in range(120):
                burst.start_soon(writer, k)
        assert len(seen) == 120 and len(settled) == 12
        assert max(seen) <= bound, max(seen)
        assert max(settled) <= C.MAX_CHARS_PER_LEVEL, settled
        assert max(seen) > C.MAX_CHARS_PER_LEVEL  # the burst did outrun the deferred runs
        await handle.close()


async def test_a_settled_read_pays_the_run_a_plan_in_progress_was_making(tmp_path, mock_clock):
    async with trio.open_nursery() as nursery:
        graph, count = _over_budget_graph(1.2)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        await put(handle, "new-lesson-0", 1000.0)
        mock_clock.jump(C.COMPACTION_QUIET_SECONDS)  # due: a plan is being made in a task of its own
        await trio.lowlevel.checkpoint()
        view = await handle.settled(now=1000.0)
        assert _high(view) <= C.MAX_CHARS_PER_LEVEL
        assert sum(n.state == "archived" for n in view.graph.nodes.values()) > 0
        for _ in range(20):  # the cancelled plan commits nothing afterwards
            await _idle()
        assert (await handle.current()).graph is not None
        await handle.close()


async def test_a_bug_in_carrying_out_a_plan_drops_that_run_and_the_graph_goes_on_serving(tmp_path, mock_clock,
                                                                                          monkeypatch):
    from kg_actors.compaction_schedule import Planning

    def broken(self, graph):
        raise ZeroDivisionError("bug in rebase")

    monkeypatch.setattr(Planning, "next_part", broken)
    async with trio.open_nursery() as nursery:
        graph, count = _over_budget_graph(1.05)
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        await put(handle, "new-lesson-0", 1000.0)
        mock_clock.jump(C.COMPACTION_QUIET_SECONDS)
        assert await _archived_once_planned(handle, count, turns=20) == 0  # the run was dropped
        await put(handle, "new-lesson-1", 1001.0)  # the actor is alive and takes writes
        assert "new-lesson-1" in await handle.node_ids()
        await handle.close()


def _level_with_an_archive(ratio: float, archived: int) -> GraphData:
    """Active lessons up to `ratio` of the budget, and `archived` old archived ones with long gists."""
    graph, _ = _over_budget_graph(ratio)
    for k in range(archived):
        graph.set_node(Node(f"archived-lesson-{k:02d}", f"archived {k}: " + "a gist a read brings back in full " * 6,
                            archived=True, created_ts=1.0))
    graph.commit()
    graph.take_changes()
    return graph


async def test_reads_that_promote_past_the_budget_are_answered_first_and_compacted_as_a_write_is(tmp_path, mock_clock):
    """Ten sessions each reading archived nodes left the level over its budget until the tick (~30 s): a
    promotion by read now owes its compaction as a node write does (paid once the mailbox is quiet)."""
    async with trio.open_nursery() as nursery:
        graph = _level_with_an_archive(0.95, 12)
        assert ChargeIndex.build(graph).high() <= C.MAX_CHARS_PER_LEVEL
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)
        for k in range(0, 12, 3):  # four sessions' reads
            ids = [f"archived-lesson-{j:02d}" for j in range(k, k + 3)]
            promoted = await handle.record_reads(ids=ids, now=1000.0 + k)
            assert all(p for p, _ in promoted.values())
        # Answered before any compaction: the level is over its budget now, and a run is owed.
        assert ChargeIndex.build((await handle.current()).graph).high() > C.MAX_CHARS_PER_LEVEL
        mock_clock.jump(C.COMPACTION_QUIET_SECONDS)
        for _ in range(200):
            await _idle()
            if ChargeIndex.build((await handle.current()).graph).high() <= C.MAX_CHARS_PER_LEVEL:
                break
        assert ChargeIndex.build((await handle.current()).graph).high() <= C.MAX_CHARS_PER_LEVEL
        await handle.close()
