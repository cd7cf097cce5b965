"""The graph directory: one load per graph key, its outcome given to those who waited for that load."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from kg_actors.core.errors import KGError
from kg_actors.directory import GraphDirectory
from kg_actors.storage import layout as L


async def test_a_failed_load_nobody_waited_for_is_not_handed_to_the_waiters_of_a_later_load(
        tmp_path, home, monkeypatch):
    gate = trio.Event()
    starts = []
    real = GraphDirectory._start

    async def flaky_start(self, key):
        starts.append(key)
        if len(starts) == 1:
            raise OSError("the disk hiccuped")
        await gate.wait()  # the second load is in progress while another ask waits for it
        return await real(self, key)

    monkeypatch.setattr(GraphDirectory, "_start", flaky_start)
    async with trio.open_nursery() as nursery:
        directory = GraphDirectory(L.Layout(tmp_path / "store"), nursery)
        with pytest.raises(KGError, match="the disk hiccuped"):
            await directory.get("user")  # the preload's: its own caller is told, nobody waits
        got = []

        async def ask():
            got.append(await directory.get("user"))

        with trio.fail_after(30):
            async with trio.open_nursery() as asks:
                asks.start_soon(ask)
                asks.start_soon(ask)
                await trio.testing.wait_all_tasks_blocked()
                gate.set()
        assert got[0] is got[1] and len(starts) == 2
        await directory.stop_all()


async def test_a_stop_before_a_graphs_first_index_drops_the_terms_write_that_waits_for_it(tmp_path, monkeypatch, home):
    """The terms of a graph loaded without them are written once its first index is in; a stop cancels that
    index, and the write's wait kept the actors (and the stop) until the grace period ran out (10 s)."""
    import json

    from kg_actors import index_process

    store = tmp_path / "store"
    store.mkdir()
    nodes = {f"lesson-{i}": {"id": f"lesson-{i}", "gist": f"lesson {i} about retry queue {i}"} for i in range(150)}
    (store / "user.json").write_text(json.dumps({"nodes": nodes, "edges": {}}))
    released = trio.Event()  # never set: the index stays in progress until cancelled

    async def held(graph):
        await released.wait()

    monkeypatch.setattr(index_process, "build", held)
    with trio.fail_after(60):  # a hang guard only
        async with trio.open_nursery() as nursery:
            directory = GraphDirectory(L.Layout(store), nursery)
            user = await directory.get("user")
            assert not user.index_ready
            await directory.stop_all()
    assert not released.is_set()


async def test_hooks_asking_for_an_unloaded_graph_in_the_same_tick_start_one_load(tmp_path, home, monkeypatch):
    """Sessions starting together in a project not loaded yet: each SessionStart asks `get_within` in the same
    scheduling tick. Each started a load (the claim was taken only once the new task ran), the second load's
    end deleted a claim already gone, and the KeyError took the actors' nursery, and the server, down."""
    starts = []
    real = GraphDirectory._start

    async def counted(self, key):
        starts.append(key)
        return await real(self, key)

    monkeypatch.setattr(GraphDirectory, "_start", counted)
    got = []
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            directory = GraphDirectory(L.Layout(tmp_path / "store"), nursery)

            async def ask():
                got.append(await directory.get_within("user", 20))

            async with trio.open_nursery() as asks:
                for _ in range(4):
                    asks.start_soon(ask)
            assert starts == ["user"] and len(got) == 4 and all(g is got[0] for g in got)
            await directory.stop_all()
