"""A large graph's first index build waits for a use that needs it (or INDEX_HOLD_SECONDS), so a start's
first kg_read(cwd) does not share the interpreter with it; a small graph's starts at once."""

import time

import trio

from kg_actors import graph_actor
from kg_actors.core.model import GraphData, Node
from kg_actors.derived import build_derived
from kg_actors.graph_actor import INDEX_HOLD_SECONDS, run_graph_actor


def lessons(count: int) -> GraphData:
    graph = GraphData("user")
    for i in range(count):
        graph.set_node(Node(f"lesson-number-{i}", f"gist {i} about retries and backoff"))
    graph.take_changes()
    graph.commit()
    return graph


async def start(nursery, tmp_path, count: int):
    graph = lessons(count)
    return await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", graph,
                               build_derived(graph, 100.0))


async def test_a_large_graphs_index_waits_until_asked(tmp_path, monkeypatch, mock_clock):
    monkeypatch.setattr(graph_actor, "INDEX_HOLD_MIN_NODES", 20)
    async with trio.open_nursery() as nursery:
        handle = await start(nursery, tmp_path, 30)
        await trio.to_thread.run_sync(time.sleep, 0.3)  # real time, ample for a 30-node build; no clock time
        assert not handle.index_ready  # nobody needed it yet
        handle.want_index()
        await handle.index_built()  # with the clock standing still: the hold let go when asked
        assert (await handle.current()).index is not None
        await handle.discard()


async def test_a_view_asks_for_the_index_it_waits_for(tmp_path, monkeypatch, autojump_clock):
    monkeypatch.setattr(graph_actor, "INDEX_HOLD_MIN_NODES", 20)
    async with trio.open_nursery() as nursery:
        t0 = trio.current_time()
        handle = await start(nursery, tmp_path, 30)
        view = await handle.view()
        assert view.index is not None and trio.current_time() - t0 < INDEX_HOLD_SECONDS
        await handle.discard()


async def test_unasked_the_index_is_built_after_the_hold(tmp_path, monkeypatch, mock_clock):
    monkeypatch.setattr(graph_actor, "INDEX_HOLD_MIN_NODES", 20)
    async with trio.open_nursery() as nursery:
        handle = await start(nursery, tmp_path, 30)
        mock_clock.jump(INDEX_HOLD_SECONDS * 0.9)
        await trio.to_thread.run_sync(time.sleep, 0.3)
        assert not handle.index_ready
        mock_clock.jump(INDEX_HOLD_SECONDS * 0.2)
        await handle.index_built()  # nobody asked: built once the hold ran out
        await handle.discard()


async def test_a_small_graphs_index_is_built_at_once(tmp_path, mock_clock):
    async with trio.open_nursery() as nursery:
        handle = await start(nursery, tmp_path, 30)  # under INDEX_HOLD_MIN_NODES
        await handle.index_built()  # the clock stands still: no hold
        await handle.discard()


async def test_a_hook_that_finds_no_index_answers_silently_and_lets_the_build_go(tmp_path, monkeypatch, mock_clock):
    from kg_actors.conduct.read_views import indexed

    monkeypatch.setattr(graph_actor, "INDEX_HOLD_MIN_NODES", 20)
    async with trio.open_nursery() as nursery:
        handle = await start(nursery, tmp_path, 30)
        assert indexed([("user", handle, handle.view_now())]) is None  # silent, never a scan
        await handle.index_built()  # the clock stands still: the hook let the hold go
        assert indexed([("user", handle, await handle.current())]) is not None
        await handle.discard()
