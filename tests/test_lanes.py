"""Hook replies first: bulk work steps aside while one is in flight, for a bounded while."""

import trio
import trio.testing

from kg_actors.core import graph_ops
from kg_actors.core.model import GraphData
from kg_actors.graph_actor import run_graph_actor
from kg_actors.lanes import Lanes


async def test_nothing_urgent_means_no_wait(autojump_clock):
    lanes = Lanes(max_wait=0.05)
    await lanes.step_aside()
    assert trio.current_time() == 0


async def test_bulk_waits_until_every_urgent_reply_is_done(autojump_clock):
    lanes = Lanes(max_wait=0.05)
    resumed = []

    async def hook(seconds):
        with lanes.urgent():
            await trio.sleep(seconds)

    async def bulk():
        await lanes.step_aside()
        resumed.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hook, 0.01)
        nursery.start_soon(hook, 0.03)  # overlapping: bulk waits for the later one
        await trio.sleep(0)
        nursery.start_soon(bulk)
    assert resumed == [0.03]


async def test_bulk_waits_at_most_the_bound(autojump_clock):
    lanes = Lanes(max_wait=0.05)
    resumed = []

    async def bulk():
        await lanes.step_aside()
        resumed.append(trio.current_time())

    with lanes.urgent():  # a hook that is itself waiting on the bulk work must not deadlock
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bulk)
    assert resumed == [0.05]
    await lanes.step_aside()  # and once it is over, nothing waits
    assert trio.current_time() == 0.05


async def test_a_graph_write_waits_for_the_hook_reply_in_flight(tmp_path):
    lanes = Lanes(max_wait=10.0)
    release = trio.Event()

    async def hook():
        with lanes.urgent():
            await release.wait()

    async def write(handle):
        result = await handle.put_node(node_id="a-lesson-written-meanwhile", gist="a lesson", notes=None,
                                       touches=None, now=100.0, writer=graph_ops.Writer(session="aaaa1111"))
        assert result.created

    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", GraphData("user"),
                                     None, 365, lanes.step_aside)
        graph, _ = await handle.view_now()
        async with trio.open_nursery() as inner:
            inner.start_soon(hook)
            await trio.testing.wait_all_tasks_blocked()
            inner.start_soon(write, handle)
            await trio.testing.wait_all_tasks_blocked()
            assert "a-lesson-written-meanwhile" not in graph.nodes  # the write waits for the hook
            release.set()
        assert "a-lesson-written-meanwhile" in graph.nodes
        await handle.close()


async def test_stepping_aside_is_a_checkpoint_even_with_nothing_urgent():
    lanes = Lanes(max_wait=0.05)
    with trio.testing.assert_checkpoints():  # so the steps it separates are separate rounds
        await lanes.step_aside()


async def test_under_a_steady_stream_of_hooks_each_bulk_step_still_gets_its_turn(autojump_clock):
    lanes = Lanes(max_wait=1.0)
    resumed = []

    async def hook(start, seconds):
        await trio.sleep(start)
        with lanes.urgent():
            await trio.sleep(seconds)

    async def bulk():
        await trio.sleep(0.002)
        await lanes.step_aside()
        resumed.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hook, 0.0, 0.01)  # in flight when the step pauses: waited for
        nursery.start_soon(hook, 0.005, 0.02)  # begins while it waits: not waited for
        nursery.start_soon(bulk)
    assert resumed == [0.01]
