"""Decision logs, appended off the event loop.

A line is queued at once, in order, and one task appends what is queued (a
tenth of a second's worth) in a worker thread: an append can wait on the filesystem's journal while another
file is fsynced (20 ms was measured under write load), and on the loop that
wait would stall every hook reply in flight. `pending` counts lines not yet
written (GET /health reports it, so a reader can wait for them).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import trio

from .storage.logs import append_jsonl

log = logging.getLogger(__name__)

BATCH_SECONDS = 0.1  # how long the first line of a batch waits for others
Record = dict[str, Any]  # one JSON line
MAX_QUEUED = 10_000  # batches; past this the disk is not keeping up and lines are dropped, loudly


class Logbook:
    def __init__(self) -> None:
        self._send, self._receive = trio.open_memory_channel[tuple[Path, list[Record], int]](MAX_QUEUED)
        self.pending = 0

    def append(self, path: Path, records: list[Record], max_bytes: int) -> None:
        try:
            self._send.send_nowait((path, records, max_bytes))
        except trio.WouldBlock:
            log.warning("%d log batches waiting for the disk: dropped a line for %s", MAX_QUEUED, path.name)
            return
        except trio.ClosedResourceError:  # shutting down: the line is still worth keeping
            append_jsonl(path, records, max_bytes)
            return
        self.pending += len(records)

    def close(self) -> None:
        """No more lines; `run` writes what is queued and returns."""
        self._send.close()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        async with self._receive:
            async for first in self._receive:
                # Gather a while first: each hand-off to the thread costs the loop GIL switches
                # (one per hook reply added ~5 ms to the replies' p99), a batch costs them once.
                await trio.sleep(BATCH_SECONDS)
                batch = [first]
                while True:
                    try:
                        batch.append(self._receive.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                await trio.to_thread.run_sync(_write, batch)
                self.pending -= sum(len(records) for _, records, _ in batch)


def _write(batch: list[tuple[Path, list[Record], int]]) -> None:
    by_path: dict[Path, tuple[list[Record], int]] = {}
    for path, records, max_bytes in batch:
        by_path.setdefault(path, ([], max_bytes))[0].extend(records)
    for path, (records, max_bytes) in by_path.items():
        append_jsonl(path, records, max_bytes)
