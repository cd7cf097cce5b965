"""The session registry's saver: the one writer of sessions.json and its journal (session_saves.py).

Saves are asked of it in order through its inbox (the tick's without waiting for it). Each round appends
the sessions changed since the last one to the journal, in one write however many asks came meanwhile.
A fold (the tick's, once the journal outgrew the file or sessions were let go; the stop's) stages the whole file in a task of its
own while the appends go on, and the saver then switches files between two appends (journal.fold_in keeps
what was appended since the records were taken). A switch that fails once the file is replaced (journal.
FoldCutShort) leaves on disk a journal that names the file before: what is appended to it would be set
aside at the next start. Each save then writes sessions.json whole until the journal is removed.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import trio

from . import session_saves
from .server_process import SESSIONS_NOT_SAVED
from .storage import files, journal
from .tool_events import ToolEvents

log = logging.getLogger(__name__)
Ask = tuple["float | None", Callable[[], None]]  # (the tick's now, or None; what to call once done)
SAVE_FAILED, FOLD_FAILED = "save_failed", "fold_failed"  # in `status`, until a save (a fold) succeeds


class Saved(Protocol):
    """What the saver asks of the registry."""

    dirty: bool
    let_go: int  # sessions dropped that sessions.json still holds
    sessions: dict[str, Any]
    tool_events: ToolEvents

    def changed_parts(self) -> list[session_saves.Part]: ...
    def all_parts(self) -> list[session_saves.Part]: ...
    def unsaved(self, parts: list[session_saves.Part]) -> None: ...


class Saver:
    def __init__(self, path: Path, registry: Saved, status: dict[str, str] | None = None) -> None:
        self.path, self.registry = path, registry
        self.status = status if status is not None else {}  # what failed, named by /health (session_handle)
        self.status["file"] = str(path)
        self.inbox, self._asks = trio.open_memory_channel[Ask](math.inf)
        self._journal = session_saves.journal_of(path)
        self._size = self._journal.stat().st_size if self._journal.exists() else 0
        self._staging = False
        self._whole = False  # a fold's switch failed: the journal on disk is not one to append to
        self._ready: tuple[Path, int] | None = None
        self._done = trio.Event()
        self._letting = 0  # sessions let go that the fold under way leaves out of the file
        self._after_fold: list[Callable[[], None]] = []  # the ticks that began the fold under way: answered after it

    async def run(self, nursery: trio.Nursery) -> None:
        """Answer the asks until the inbox closes; `nursery` runs the folds' staging."""
        async for first in self._asks:
            # What was asked while the last append was written is answered by one more, not one each.
            asks = [first]
            while True:
                try:
                    asks.append(self._asks.receive_nowait())
                except trio.WouldBlock:
                    break
            if self.registry.dirty:
                await self._append()
            if self._ready is not None:
                await self._fold_in()
            ticks = {now for now, _ in asks if now is not None}
            if ticks and not self._staging and (
                    session_saves.let_go_due(self.registry.let_go, len(self.registry.sessions))
                    or self._size and session_saves.fold_due(self.path, self._size)):
                self._start_fold(nursery)
                self._after_fold = [done for now, done in asks if now is not None]
                asks = [(now, done) for now, done in asks if now is None]
            for now in ticks:
                for event_path, data in self.registry.tool_events.dirty(now):
                    try:
                        await trio.to_thread.run_sync(files.write_atomic, event_path, data, False)
                    except OSError as exc:
                        log.error("could not save %s: %s", event_path, exc)
            for _, done in asks:
                done()

    async def last_fold(self, nursery: trio.Nursery) -> None:
        """At the stop (nothing is changed any more): sessions.json whole again, its journal gone."""
        if self._staging:
            await self._done.wait()
        if self._size or self.registry.let_go:
            self._start_fold(nursery)
            await self._done.wait()
        failed = self.status.get(SAVE_FAILED) or self.status.get(FOLD_FAILED)
        if failed:
            kept = (f"the sessions changed since are lost ({failed})" if self.status.get(SAVE_FAILED) else
                    f"its journal {self._journal.name} keeps every session and the next start replays it ({failed})")
            log.error("%s: %s could not be saved whole: %s", SESSIONS_NOT_SAVED, self.path, kept)

    async def _append(self) -> None:
        if self._whole:
            await self._write_whole()
            return
        parts = self.registry.changed_parts()  # on the loop, between two messages: consistent
        self.registry.dirty = False  # what changes while the thread writes makes it dirty again
        if not parts:
            return
        try:
            self._size = await trio.to_thread.run_sync(session_saves.append, self.path, parts)
        except OSError as exc:
            self.registry.unsaved(parts)
            self.status[SAVE_FAILED] = str(exc)
            log.error("could not save %s: %s (retried on the tick)", self.path, exc)
            return
        self.status.pop(SAVE_FAILED, None)

    async def _write_whole(self) -> None:
        self.registry.changed_parts()  # what the journal would get when appends resume: in the file instead
        parts = self.registry.all_parts()
        self.registry.dirty = False
        try:
            gone = await trio.to_thread.run_sync(session_saves.write_whole, self.path, parts)
        except OSError as exc:
            self.registry.unsaved([])
            self.status[SAVE_FAILED] = str(exc)
            log.error("could not save %s: %s (retried on the tick)", self.path, exc)
            return
        self.status.pop(SAVE_FAILED, None)
        if gone:
            self._whole, self._size = False, 0
            log.info("%s saved whole and its journal removed: saves append to a new journal again", self.path)

    def _start_fold(self, nursery: trio.Nursery) -> None:
        self._staging, self._done = True, trio.Event()
        self._letting, self.registry.let_go = self.registry.let_go, 0  # the records taken now leave them out
        nursery.start_soon(self._stage, self.registry.all_parts(), journal.end(self._journal))

    async def _stage(self, parts: list[session_saves.Part], since: int) -> None:
        try:
            self._ready = (await trio.to_thread.run_sync(session_saves.stage, self.path, parts), since)
        except OSError as exc:
            self._failed(exc)
            return
        self.inbox.send_nowait((None, lambda: None))  # the saver switches files, between two appends

    async def _fold_in(self) -> None:
        assert self._ready is not None
        (staged, since), self._ready = self._ready, None
        try:
            self._size = await trio.to_thread.run_sync(session_saves.fold_in, self.path, staged, since)
        except journal.FoldCutShort as exc:
            # Not retried as an ordinary failure: appends would go on to the journal left behind, which
            # names the file before, and the next start would set them aside. Written whole instead (the
            # next round: the registry is marked dirty), which no journal can undo.
            self._whole, self._size = True, 0
            self.registry.dirty = True
            log.error("%s was saved but its journal could not be switched (%s): each save writes it whole "
                      "until the journal is removed", self.path, exc)
            self._ended()
            return
        except OSError as exc:
            self._failed(exc)
            return
        self.status.pop(FOLD_FAILED, None)
        self._ended()

    def _ended(self) -> None:
        self._staging = False
        self._done.set()
        for done in self._after_fold:
            done()
        self._after_fold = []

    def _failed(self, exc: OSError) -> None:
        self.status[FOLD_FAILED] = str(exc)
        self.registry.let_go += self._letting  # still in the file: the next fold leaves them out
        log.error("could not save %s: %s (its journal keeps the sessions; folded again later)", self.path, exc)
        self._ended()
