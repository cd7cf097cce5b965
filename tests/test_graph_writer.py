"""The graph writer (graph_writer.py): a fold's file is written while the appends go on."""

import threading
from pathlib import Path

import trio

from kg_actors import actor, graph_writer
from kg_actors.core import constants as C
from kg_actors.core.model import GraphData, Node
from kg_actors.graph_loading import load_graph
from kg_actors.storage import graph_file, journal


def _record(node_id: str) -> dict:
    return {"n": {node_id: Node(node_id, f"the gist of {node_id}").to_json()}}


def _held_stage(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """A fold's file is staged only once `gate` is set; `writing` is set when its thread starts on it."""
    gate, writing = threading.Event(), threading.Event()
    real = graph_file.stage_snapshot

    def slow_stage(p, snapshot):
        writing.set()
        assert gate.wait(10)
        return real(p, snapshot)

    monkeypatch.setattr(graph_file, "stage_snapshot", slow_stage)
    return gate, writing


async def test_writes_are_answered_while_a_fold_s_file_is_written_and_the_fold_keeps_them(tmp_path, monkeypatch):
    path = tmp_path / "graph.json"
    gate, writing = _held_stage(monkeypatch)
    to_writer, items = trio.open_memory_channel(64)
    status: dict = {}
    before = GraphData("project")
    before.set_node(Node("before-the-save", "the gist of before-the-save"))
    before.commit()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(graph_writer.run_writer, path, items, status, nursery)
        first = actor.ReplySlot()
        await to_writer.send(graph_writer.Written(_record("before-the-save"), 0, first))
        saved = actor.ReplySlot()
        await to_writer.send(graph_writer.Snapshot(before.snapshot_json(), saved))
        await trio.to_thread.run_sync(writing.wait)
        during = [actor.ReplySlot() for _ in range(3)]
        for k, slot in enumerate(during):
            await to_writer.send(graph_writer.Written(_record(f"while-saving-{k}"), k, slot))
        assert [await slot.wait() for slot in during] == [0, 1, 2]  # answered: the save still writes
        assert not saved.done
        gate.set()
        assert await saved.wait() is True
        await to_writer.aclose()
    graph, _ = load_graph(path, "project", None)
    assert set(graph.nodes) == {"before-the-save", "while-saving-0", "while-saving-1", "while-saving-2"}
    assert status.get("save_failed") is False


# When the save tick's fold may wait -------------------------------------------------------------------------

MIB = 1 << 20


def test_a_small_file_folds_on_every_tick_that_finds_it_changed() -> None:
    assert graph_writer.fold_due(journal_bytes=10, file_bytes=C.FOLD_ALWAYS_BELOW_BYTES - 1, file_age=0.0)


def test_a_large_file_waits_while_its_journal_is_small_and_it_is_recent() -> None:
    assert not graph_writer.fold_due(journal_bytes=MIB, file_bytes=10 * MIB, file_age=C.FOLD_MAX_WAIT_SECONDS - 1)


def test_a_large_file_folds_once_its_journal_is_a_quarter_of_it_or_it_is_old() -> None:
    assert graph_writer.fold_due(journal_bytes=int(10 * MIB * C.FOLD_JOURNAL_SHARE), file_bytes=10 * MIB, file_age=0.0)
    assert graph_writer.fold_due(journal_bytes=1, file_bytes=10 * MIB, file_age=C.FOLD_MAX_WAIT_SECONDS)


def test_with_no_file_or_no_journal_on_disk_nothing_waits(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    assert not graph_writer.fold_waits(path, now=0.0)
    path.write_bytes(b"x" * (2 * C.FOLD_ALWAYS_BELOW_BYTES))
    assert not graph_writer.fold_waits(path, now=path.stat().st_mtime)  # no journal: nothing to fold anyway
    journal.journal_path(path).write_bytes(b"y" * 100)
    assert graph_writer.fold_waits(path, now=path.stat().st_mtime)


# How a batch is encoded -----------------------------------------------------------------------------------------

def _moves(count: int, tag: str) -> dict:
    """A record setting `count` nodes (a compaction part's shape)."""
    return {"n": {f"{tag}-{k}": Node(f"{tag}-{k}", f"the gist of {tag} {k}").to_json() for k in range(count)}}


async def test_a_big_batch_is_encoded_as_one_call_would_with_other_tasks_between_its_slices(monkeypatch) -> None:
    """A compaction's parts are encoded on the loop a slice at a time (in a worker thread they waited for the
    interpreter while the loop ran); a record too big for a slice goes to a thread. The lines are the same."""
    limit = graph_writer.JOURNAL_ON_LOOP_MAX_ENTRIES
    records = [_moves(limit, f"part{k}") for k in range(6)] + [_moves(graph_writer.JOURNAL_IN_THREAD_MIN_ENTRIES + 1,
                                                                       "merge")]
    order: list[str] = []
    in_thread: list[int] = []
    real_run_sync = trio.to_thread.run_sync

    async def run_sync(fn, *args, **kwargs):
        in_thread.append(sum(len(r["n"]) for r in args[0]))
        return await real_run_sync(fn, *args, **kwargs)

    monkeypatch.setattr(trio.to_thread, "run_sync", run_sync)

    async def other() -> None:
        for _ in range(20):
            order.append("other")
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(other)
        await trio.lowlevel.checkpoint()
        data = await graph_writer._encoded(records)
        order.append("encoded")
    assert data == journal.encode(records)
    assert order.index("encoded") >= 6  # the other task ran between the slices
    assert in_thread == [graph_writer.JOURNAL_IN_THREAD_MIN_ENTRIES + 1]  # only the record too big for one
    assert await graph_writer._encoded(records[:1]) == journal.encode(records[:1])  # one slice: no checkpoint


async def test_a_new_journal_s_folder_is_fsynced_with_its_first_synced_append(tmp_path, monkeypatch):
    """The file's fsync keeps its bytes; only its folder's keeps its name through a power cut. A journal made
    by a batch of read stamps (no fsync) has its folder fsynced with the first write that waits for one."""
    folders: list[Path] = []
    monkeypatch.setattr(journal.files, "fsync_dir", folders.append)
    to_writer, items = trio.open_memory_channel(64)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(graph_writer.run_writer, tmp_path / "graph.json", items, {}, nursery)
        stamp = actor.ReplySlot()
        await to_writer.send(graph_writer.Written(_record("stamped-node"), 0, stamp, synced=False))
        await stamp.wait()
        assert folders == []
        for k in range(2):
            slot = actor.ReplySlot()
            await to_writer.send(graph_writer.Written(_record(f"written-node-{k}"), k, slot))
            await slot.wait()
        await to_writer.aclose()
    assert folders == [tmp_path]  # once: the journal's name is durable from the first synced append on


# A save asked while the previous fold puts its file in place --------------------------------------------------

async def test_a_save_checked_while_a_fold_renames_its_file_into_place_is_no_hand_edit(tmp_path, monkeypatch):
    """The actor checks the file before each save while the writer's thread may be renaming the last
    fold's file into place: that file is the server's own. It was taken for a hand edit (the file had
    changed and SEEN still named the one before), so the saves held and /health named an edit no one made."""
    from kg_actors import graph_file_watch as watch

    path = tmp_path / "graph.json"
    status: dict = {}
    first = GraphData("project")
    first.set_node(Node("first-lesson", "the gist of first-lesson"))
    first.commit()
    seen_mid_fold: list[watch.Before] = []
    real = journal.fold_in

    def fold_in_then_check(jpath, staged, graph_path, since):
        real(jpath, staged, graph_path, since)  # the new file is in place; SEEN is set once this returns
        if path.with_suffix(".prev").exists():  # the second fold: the first one left a file to compare with
            seen_mid_fold.append(trio.from_thread.run(watch.before_save, "p", path, "project", 1, status))

    monkeypatch.setattr(journal, "fold_in", fold_in_then_check)
    to_writer, items = trio.open_memory_channel(64)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(graph_writer.run_writer, path, items, status, nursery)
        for k in range(2):
            saved = actor.ReplySlot()
            await to_writer.send(graph_writer.Written(_record(f"lesson-{k}"), k, actor.ReplySlot()))
            await to_writer.send(graph_writer.Snapshot(first.snapshot_json(), saved))
            assert await saved.wait() is True
        await to_writer.aclose()
    assert seen_mid_fold == [watch.Before.SAVE]
    assert watch.HAND_EDITED not in status and watch.FOLDING not in status


async def test_a_file_changed_by_hand_while_a_save_of_it_is_written_is_not_saved_over(tmp_path, monkeypatch):
    """The save looks at the file, then writes its own in a thread: a hand edit made meanwhile (a roll-back
    copied in) was renamed over without a word. It stays; the journal keeps the records for the next look."""
    from kg_actors import graph_file_watch as watch

    path = tmp_path / "graph.json"
    graph = GraphData("project")
    graph.set_node(Node("first-lesson", "the gist of first-lesson"))
    graph.commit()
    status: dict = {}
    to_writer, items = trio.open_memory_channel(64)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(graph_writer.run_writer, path, items, status, nursery)
        saved = actor.ReplySlot()
        await to_writer.send(graph_writer.Snapshot(graph.snapshot_json(), saved))
        assert await saved.wait() is True
        gate, writing = _held_stage(monkeypatch)  # from the second save on
        await to_writer.send(graph_writer.Written(_record("second-lesson"), 0, actor.ReplySlot()))
        saved = actor.ReplySlot()
        await to_writer.send(graph_writer.Snapshot(graph.snapshot_json(), saved))
        await trio.to_thread.run_sync(writing.wait)
        path.write_text('{"nodes": {"by-hand": {"id": "by-hand", "gist": "put in by hand"}}, "edges": {}}')
        gate.set()
        assert await saved.wait() is False  # not put in place: the tick looks again
        await to_writer.aclose()
    assert "by-hand" in path.read_text()
    assert "second-lesson" in journal.journal_path(path).read_text()
    assert await watch.before_save("p", path, "project", 1, status) is watch.Before.HOLD
    assert not list(tmp_path.glob("*.tmp*"))
