"""A graph's writer task: it appends change records to the journal and folds the graph into its file.

The actor hands it a `Written` per change and a `Snapshot` per save, in order. Records
are appended in batches, one fsync per batch, and only then are their callers
answered: a reply to a change means it is on disk. A save's file is written in a
worker thread while appends go on (~0.2 s at 10,000 nodes, which every write
waited out before), then put in place with the journal keeping what was
appended since (storage/journal.py). A batch of read stamps (and
compaction's own records) is handed to the kernel without an fsync: a kill -9
keeps it; the next fsync or the fold makes it safe from a power cut too. The save tick's fold of a
large file waits while its journal is small beside it and the file is recent (`fold_due`): a fold
rewrites the whole file, and the replies made meanwhile shared the interpreter with it (at 10,000
nodes, a read's p99 39 ms with a fold every second, against 7-9 ms with this wait). A failed save leaves
`status["save_failed"]` set, so the tick tries again (the journal still holds
every change). A failed append is refused to its callers (NOT WRITTEN), and so
is every change and save after it, since each was made on top of a change that
is not on disk, until the actor has put its graph back to what is on disk and
says so with a `Resync`: `status["journal_failed"]` asks it to.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import attrs
import trio

from . import actor
from .core import constants as C
from .core.errors import StorageRefused
from .graph_file_watch import FOLDING, SEEN, Before
from .storage import file_seen, files, graph_file, journal
from .storage.file_seen import Found
from .storage.refusals import retry_advice

log = logging.getLogger(__name__)


@attrs.frozen
class Written:
    """A change's result, answered by the writer once its record is durable.

    `synced`: durable means fsynced. A read stamp's is not (`fsync_before_reply` on its message):
    it is answered once the kernel holds the record, which a kill -9 does not lose."""

    record: dict[str, Any] | None
    result: Any
    reply: actor.ReplySlot[Any]
    synced: bool = True


@attrs.frozen
class Snapshot:
    """The graph as of one moment, to fold into its file; the writer answers whether it was saved."""

    snapshot: dict[str, Any]
    reply: actor.ReplySlot[bool]


@attrs.frozen
class Resync:
    """The actor's graph is what is on disk again: changes after this are appended as usual."""


JOURNAL_ON_LOOP_MAX_ENTRIES = 16  # entries encoded on the loop between two checkpoints (~0.1 ms)
JOURNAL_IN_THREAD_MIN_ENTRIES = 512  # a record bigger than this is encoded in a worker thread

ToWriter = trio.MemorySendChannel[Written | Snapshot | Resync]


async def run_writer(path: Path, items: trio.MemoryReceiveChannel[Written | Snapshot | Resync],
                     status: dict[str, Any], nursery: trio.Nursery) -> None:
    """Append records in batches (one fsync per batch); fold on request, appending meanwhile (the
    fold's file is written by a task in the actor's `nursery`)."""
    jpath = journal.journal_path(path)
    folding: _Fold | None = None
    while True:
        if folding is not None and folding.staged.is_set():
            await _fold_in(path, jpath, folding, status)
            folding = None
        try:
            first = await _next(items, folding)
        except trio.EndOfChannel:
            break
        if first is None:
            continue  # the fold's file is written
        batch = [first]
        while True:
            try:
                batch.append(items.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                break
        pending: list[Written] = []
        for item in batch:
            if isinstance(item, Written):
                pending.append(item)
                continue
            await _flush(jpath, pending, status)
            pending = []
            if isinstance(item, Resync):
                status.pop("refusing", None)
            elif status.get("refusing"):
                item.reply.set(False)  # the snapshot holds changes that were refused: never save it
            else:
                if folding is not None:  # one fold at a time
                    await folding.staged.wait()
                    await _fold_in(path, jpath, folding, status)
                # Every record before the snapshot is in the journal up to here; what follows is kept.
                folding = _Fold(item, journal.end(jpath))
                nursery.start_soon(_stage, path, folding)
        await _flush(jpath, pending, status)
    if folding is not None:
        await folding.staged.wait()
        await _fold_in(path, jpath, folding, status)


@attrs.define(eq=False)
class _Fold:
    """A fold whose file is written in a worker thread while records go on being appended."""

    item: Snapshot
    since: int  # where the journal ended when the snapshot was taken
    staged: trio.Event = attrs.field(factory=trio.Event)
    file: Path | None = None  # the written temp file, or None with `error`
    error: Exception | None = None
    wake: trio.CancelScope | None = None  # the writer's wait for its next item


async def _next(items: trio.MemoryReceiveChannel[Written | Snapshot | Resync],
                folding: _Fold | None) -> Written | Snapshot | Resync | None:
    """The next item, or None when a fold's file got written meanwhile."""
    if folding is None:
        return await items.receive()
    with trio.CancelScope() as folding.wake:
        try:
            return await items.receive()  # cancelled, it takes no item
        finally:
            folding.wake = None
    return None


async def _stage(path: Path, fold: _Fold) -> None:
    try:
        fold.file = await trio.to_thread.run_sync(graph_file.stage_snapshot, path, fold.item.snapshot)
    except Exception as exc:  # a bug in writing the file fails this save (retried), not the graph
        if not isinstance(exc, OSError):
            log.exception("writing %s failed", path)
        fold.error = exc
    fold.staged.set()
    if fold.wake is not None:
        fold.wake.cancel()


async def _flush(jpath: Path, pending: list[Written], status: dict[str, Any]) -> None:
    records = [w.record for w in pending if w.record is not None]
    refused = status.get("refusing")
    if records and not refused:
        # One fsync for the batch when any of it waits for one; a batch of read stamps waits for none.
        sync = any(w.synced for w in pending if w.record is not None)
        try:
            data = await _encoded(records)
            # Written here (a page-cache write); only the fsync waits in a worker thread, so that thread
            # needs the interpreter once, not for every step of the append.
            appended = journal.write_encoded(jpath, data)
            # A journal made by this batch (after a fold, a new project's first write) keeps its name through
            # a power cut once its folder is fsynced too: with this fsync, or the first one after it.
            status["folder_unsynced"] = status.get("folder_unsynced", False) or appended.created
            try:
                if sync:
                    await trio.to_thread.run_sync(appended.fsync, status["folder_unsynced"])
                    status["folder_unsynced"] = False
            finally:
                appended.close()
        except Exception as exc:  # a bug in encoding is refused the same way: nothing of the batch is kept
            if not isinstance(exc, OSError):
                log.exception("appending to %s failed", jpath)
            # Nothing of this batch is acknowledged; the actor goes back to what is on disk.
            why = getattr(exc, "strerror", None) or exc
            refused = status["refusing"] = (f"the store could not write {jpath.name} ({why}); "
                                            f"the change was not kept: {retry_advice(exc, jpath)}")
            status["journal_failed"] = True
            status["unsaved"] = refused  # named by /health until an append or a save succeeds
            log.error("could not append to %s: %s (refused; the graph goes back to what is on disk)", jpath, exc)
        else:
            status.pop("unsaved", None)
    for w in pending:
        if refused:
            w.reply.fail(StorageRefused(refused))
        else:
            w.reply.set(w.result)


async def _encoded(records: list[dict[str, Any]]) -> str:
    """The batch's journal lines, encoded on the loop a slice of JOURNAL_ON_LOOP_MAX_ENTRIES entries at a
    time with a checkpoint between, so other tasks run between the slices; a record too big for one
    slice alone (a merge's) is encoded in a worker thread.

    A whole batch encoded in a worker thread waited for the interpreter there while the loop ran
    (a compaction's 24-move parts, a plan's steps): two parts' 48 entries took 44 ms to encode, and the
    kg_put_node behind them waited it out (60-130 ms, once a run of bench/run.py at 10,000 nodes)."""
    if _entries(records) <= JOURNAL_ON_LOOP_MAX_ENTRIES:
        return journal.encode(records)
    parts: list[str] = []
    since = 0  # entries encoded since the last checkpoint
    for record in records:
        size = _entries([record])
        if size > JOURNAL_IN_THREAD_MIN_ENTRIES:
            parts.append(await trio.to_thread.run_sync(journal.encode, [record]))
            since = 0
            continue
        if since and since + size > JOURNAL_ON_LOOP_MAX_ENTRIES:
            await trio.lowlevel.checkpoint()
            since = 0
        parts.append(journal.encode([record]))
        since += size
    return "".join(parts)


def fold_due(journal_bytes: int, file_bytes: int, file_age: float) -> bool:
    """Whether a routine save folds a changed graph now. Its journal keeps every change durable either way;
    a fold bounds what a start replays and how stale the JSON looks, at the cost of rewriting the file."""
    return (file_bytes < C.FOLD_ALWAYS_BELOW_BYTES or journal_bytes >= file_bytes * C.FOLD_JOURNAL_SHARE
            or file_age >= C.FOLD_MAX_WAIT_SECONDS)


def answer_without_save(before: Before, status: dict[str, Any], dirty: bool, routine_for: Path | None,
                        now: float) -> bool | None:
    """A save's answer when no snapshot goes to the writer (None: one does). A hand edit is not saved over
    (False); damage is written back, dirty or not; `routine_for`, the file of a save the tick asked for,
    may wait (`fold_waits`)."""
    if before is Before.HOLD:
        return False
    if before is Before.SAVE and not status.get("save_failed") and (
            not dirty or routine_for is not None and fold_waits(routine_for, now)):
        return True
    return None


def fold_waits(path: Path, now: float) -> bool:
    """`not fold_due` for the graph file at `path` and its journal as they are on disk (two stats)."""
    try:
        st = path.stat()
        journal_bytes = journal.journal_path(path).stat().st_size
    except OSError:  # no file yet, or no journal (what is unsaved is in memory alone): fold now
        return False
    return not fold_due(journal_bytes, st.st_size, now - st.st_mtime)


def _entries(records: list[dict[str, Any]]) -> int:
    """Nodes, edges and meta entries a batch sets or removes: what its encoding costs."""
    return sum(len(part) for record in records for part in record.values() if isinstance(part, dict | list))


async def _fold_in(path: Path, jpath: Path, fold: _Fold, status: dict[str, Any]) -> None:
    """The fold's file in place, the journal left with what was appended since (journal.fold_in).
    A few file operations on small files, in a worker thread; nothing is appended meanwhile."""
    error = fold.error
    if fold.file is not None and status.get("refusing"):
        # An append failed meanwhile: the actor is putting its graph back to what is on disk (the
        # old file and the journal), which must not change under it. The tick folds again.
        files.discard(fold.file)
    elif fold.file is not None and file_seen.compare(status.get(SEEN), file_seen.stat_of(path)) is not Found.SAME:
        # Changed under the server while this file was written (the save looked before): a hand edit is not
        # saved over. The journal keeps every record; the next save's look reads the file (graph_file_watch).
        files.discard(fold.file)
        log.info("%s changed while a save of it was written: not put in place; the next save looks at it", path)
    elif fold.file is not None:
        try:
            staged = file_seen.seen(fold.file)  # the file this save leaves (a rename keeps its identity)
            status[FOLDING] = staged
            try:
                await trio.to_thread.run_sync(journal.fold_in, jpath, fold.file, path, fold.since)
            finally:
                status.pop(FOLDING, None)
            status[SEEN] = staged  # the next save compares the file with it (graph_file_watch.py)
            status["save_failed"] = False
            status.pop("unsaved", None)
            status.pop("fold_failed", None)
            fold.item.reply.set(True)
            return
        except journal.FoldCutShort as exc:
            # The journal on disk is not the one to append to until a load recovers it: refuse
            # changes until the actor has put its graph back to what is on disk.
            status["refusing"] = f"the store could not switch {jpath.name} after a save ({exc})"
            status["journal_failed"] = True
            error = exc
        except Exception as exc:  # a bug in putting the file in place fails this save (retried), not the graph
            if not isinstance(exc, OSError):
                log.exception("putting the save of %s in place failed", path)
            error = exc
    if error is not None:
        log.error("could not save %s: %s (stays dirty; retried on the tick and at shutdown)", path, error)
        status["fold_failed"] = str(error)  # named by /health (kg status, doctor) until a save succeeds
    status["save_failed"] = True
    fold.item.reply.set(False)
