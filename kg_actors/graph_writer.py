"""A graph's writer task: it appends change records to the journal and folds the graph into its file.

The actor hands it a `Written` per change and a `Snapshot` per save, in order. Records
are appended in batches, one fsync per batch, and only then are their callers
answered: a reply to a change means it is on disk. A batch of read stamps (and
compaction's own records) is handed to the kernel without an fsync: a kill -9
keeps it; the next fsync or the fold makes it safe from a power cut too. A failed save leaves
`status["save_failed"]` set, so the tick tries again (the journal still holds
every change). A failed append is refused to its callers (NOT WRITTEN), and so
is every change and save after it, since each was made on top of a change that
is not on disk, until the actor has put its graph back to what is on disk and
says so with a `Resync`: `status["journal_failed"]` asks it to.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

import attrs
import trio

from . import actor
from .core.errors import StorageRefused
from .storage import graph_file, journal

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


JOURNAL_ON_LOOP_MAX_ENTRIES = 16  # a batch this small is encoded and written on the loop (~0.1 ms)

ToWriter = trio.MemorySendChannel[Written | Snapshot | Resync]


async def run_writer(path: Path, items: trio.MemoryReceiveChannel[Written | Snapshot | Resync],
                     status: dict[str, Any]) -> None:
    """Append records in batches (one fsync per batch), fold on request."""
    jpath = journal.journal_path(path)
    async for first in items:
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
                await _fold(path, jpath, item, status)
        await _flush(jpath, pending, status)


async def _flush(jpath: Path, pending: list[Written], status: dict[str, Any]) -> None:
    records = [w.record for w in pending if w.record is not None]
    refused = status.get("refusing")
    if records and not refused:
        # One fsync for the batch when any of it waits for one; a batch of read stamps waits for none.
        sync = any(w.synced for w in pending if w.record is not None)
        try:
            if _entries(records) > JOURNAL_ON_LOOP_MAX_ENTRIES:
                # A big batch (a compaction's moves, a merge) is encoded in the thread: the loop gets the
                # interpreter between its steps.
                await trio.to_thread.run_sync(journal.append, jpath, records, sync)
            else:
                # Written here (a page-cache write, microseconds); only the fsync waits in a worker thread,
                # so that thread needs the interpreter once, not for every step of the append.
                appended = journal.write(jpath, records)
                try:
                    if sync:
                        await trio.to_thread.run_sync(appended.fsync)
                finally:
                    appended.close()
        except OSError as exc:
            # Nothing of this batch is acknowledged; the actor goes back to what is on disk.
            refused = status["refusing"] = (f"the store could not write {jpath.name} ({exc.strerror or exc}); "
                                            "the change was not kept: retry when the disk has room again "
                                            "or is writable")
            status["journal_failed"] = True
            log.error("could not append to %s: %s (refused; the graph goes back to what is on disk)", jpath, exc)
    for w in pending:
        if refused:
            w.reply.fail(StorageRefused(refused))
        else:
            w.reply.set(w.result)


async def answered(to_writer: ToWriter) -> None:
    """Until the writer has answered every change sent before this (kept or refused)."""
    slot: actor.ReplySlot[Any] = actor.ReplySlot()
    await to_writer.send(Written(None, None, slot, False))
    with contextlib.suppress(StorageRefused):
        await slot.wait()


def _entries(records: list[dict[str, Any]]) -> int:
    """Nodes, edges and meta entries a batch sets or removes: what its encoding costs."""
    return sum(len(part) for record in records for part in record.values() if isinstance(part, dict | list))


async def _fold(path: Path, jpath: Path, item: Snapshot, status: dict[str, Any]) -> None:
    def write() -> None:
        graph_file.write_snapshot(path, item.snapshot)
        journal.remove(jpath)

    try:
        await trio.to_thread.run_sync(write)
    except OSError as exc:
        log.error("could not save %s: %s (stays dirty; retried on the tick and at shutdown)", path, exc)
        status["save_failed"] = True
        item.reply.set(False)
        return
    status["save_failed"] = False
    item.reply.set(True)
