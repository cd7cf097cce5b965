"""Read stamps are answered once the kernel holds their journal record, without waiting for an fsync;
every other change still waits for one (and its fsync covers the stamps before it)."""

import os

import trio

from kg_actors.core import graph_ops
from kg_actors.core.model import GraphData
from kg_actors.graph_actor import run_graph_actor
from kg_actors.graph_loading import load_graph
from kg_actors.storage import journal

W = graph_ops.Writer(session="aaaa1111")


async def test_a_read_stamp_is_in_the_journal_when_answered_but_waits_for_no_fsync(tmp_path, monkeypatch):
    synced: list[int] = []
    real = os.fsync

    def counting(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(journal.os, "fsync", counting)
    monkeypatch.setattr(journal.files, "fsync_dir", lambda folder: None)  # the new journal's folder: counted elsewhere
    path = tmp_path / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await handle.put_node(node_id="first-lesson-node", gist="a lesson", notes=None, touches=None, now=100.0,
                              writer=W)
        assert len(synced) == 1  # a write: fsynced before its reply
        await handle.record_reads(["first-lesson-node"], now=200.0)
        assert len(synced) == 1  # the stamp: no fsync of its own
        # ...but written: a restart after kill -9 (the kernel keeps what was written) replays it.
        graph, _ = load_graph(path, "user", None)
        assert graph.nodes["first-lesson-node"].last_read_ts == 200.0
        await handle.put_node(node_id="second-lesson-node", gist="another", notes=None, touches=None, now=300.0,
                              writer=W)
        assert len(synced) == 2  # the next write's fsync covers the stamp before it
        await handle.close()


async def test_a_read_stamp_is_written_on_the_loop_and_only_an_fsync_goes_to_a_thread(tmp_path, monkeypatch):
    """A worker thread's round trip was most of a read's wait for its stamp: a stamp needs none, and a
    write needs one for its fsync alone."""
    from kg_actors import graph_writer

    jobs: list[str] = []
    real = graph_writer.trio.to_thread.run_sync

    async def counted(fn, *args, **kw):  # type: ignore[no-untyped-def]
        jobs.append(getattr(fn, "__name__", "?"))
        return await real(fn, *args, **kw)

    monkeypatch.setattr(graph_writer.trio.to_thread, "run_sync", counted)
    path = tmp_path / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await handle.put_node(node_id="first-lesson-node", gist="a lesson", notes=None, touches=None, now=100.0,
                              writer=W)
        assert jobs == ["fsync"]
        await handle.record_reads(["first-lesson-node"], now=200.0)
        assert jobs == ["fsync"]
        # A big batch is encoded on the loop too, by slices with other tasks between (graph_writer._encoded):
        # in a thread it waited for the interpreter while the loop ran. A stamp still needs no thread.
        many = [f"lesson-number-{i}" for i in range(graph_writer.JOURNAL_ON_LOOP_MAX_ENTRIES + 1)]
        for node_id in many:
            await handle.put_node(node_id=node_id, gist="a lesson", notes=None, touches=None, now=300.0, writer=W)
        jobs.clear()
        await handle.record_reads(many, now=400.0)
        assert jobs == []
        await handle.close()
    graph, _ = load_graph(path, "user", None)
    assert graph.nodes["first-lesson-node"].last_read_ts == 200.0
    assert all(graph.nodes[i].last_read_ts == 400.0 for i in many)
