"""sessions.json and its journal, written off the registry's loop: records detached on the loop, encoded in a thread.

A save appends the records of the sessions that changed to `sessions.json.journal` (storage/journal.py, one
line each, fsynced before the registry answers a change that must survive a crash): a SessionStart costs
its own record, not every session's. When rewritten whole on each, the file of 2,800 sessions (20 MB) made a
SessionStart 120-208 ms (bench/RESULTS-soak.md). The tick folds the journal into sessions.json once it
outgrows the file (each session written once per fold, so a fold costs no more than the appends before
it), and the server's stop folds it whatever its size; a fold stages the file while appends go on
(journal.fold_in keeps the records appended meanwhile). On load the journal is replayed over the file.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .storage import files, journal, user_files

log = logging.getLogger(__name__)
Part = tuple[str, dict[str, Any]]
FOLD_MIN_BYTES = 1 << 20  # a journal smaller than this is never folded by the tick: appends are cheaper


def journal_of(path: Path) -> Path:
    return journal.journal_path(path)


def detached(record: dict[str, Any]) -> dict[str, Any]:
    """A session's record (Session.to_json) that the registry may go on changing meanwhile: its
    top-level maps and lists copied (their values are strings, numbers and records never changed
    in place), so a thread can encode it while the loop writes to the live ones."""
    return {k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v for k, v in record.items()}


def _pieces(parts: list[Part]) -> Iterator[str]:
    yield "{"
    for i, (sid, record) in enumerate(parts):
        yield f"{', ' if i else ''}{json.dumps(sid, ensure_ascii=False)}: "
        yield json.dumps(record, ensure_ascii=False)
    yield "}"


def encode(parts: list[Part]) -> str:
    """The file's text (as files.dump_json(..., indent=None) would write it)."""
    return "".join(_pieces(parts))


def append(path: Path, parts: list[Part]) -> int:
    """The records to the journal's end, fsynced; the journal's size after. A worker thread's work: raises
    OSError with nothing of them kept."""
    jpath = journal_of(path)
    journal.append(jpath, [{"sid": sid, "session": record} for sid, record in parts])
    return journal.end(jpath)


def fold_due(path: Path, journal_size: int) -> bool:
    """Whether the tick folds: no sessions.json yet, or a journal past both the floor and the file's size."""
    try:
        return journal_size > max(FOLD_MIN_BYTES, path.stat().st_size)
    except FileNotFoundError:
        return True


def let_go_due(let_go: int, kept: int) -> bool:
    """Whether the tick folds to leave out the sessions let go that the file still holds: once they are an
    eighth of those kept (all of them after a start on a day-old file). Past SESSIONS_KEPT a few go at every
    tick: a fold for each would rewrite the whole file every tick."""
    return let_go > 0 and let_go * 8 >= kept


def stage(path: Path, parts: list[Part]) -> Path:
    """Every session's record written and fsynced to sessions.json's temp file (a thread's work)."""
    return files.stage_chunks(path, _pieces(parts))


def fold_in(path: Path, staged: Path, since: int) -> int:
    """The staged file in place of sessions.json, the journal left with what was appended after `since`
    (journal.end when the records were taken); the journal's size after. Raises OSError."""
    jpath = journal_of(path)
    journal.fold_in(jpath, staged, path, since)  # the file before kept as sessions.prev, as graph files
    return journal.end(jpath)


def write_whole(path: Path, parts: list[Part]) -> bool:
    """sessions.json written whole with every session (the way before its journal), then the journal it
    supersedes removed: a save's way after a fold's switch failed. Whether the journal is gone (the appends
    may resume on a new one); raises OSError when the file was not written."""
    files.write_atomic_chunks(path, _pieces(parts))
    try:
        journal.remove_superseded(journal_of(path))
    except OSError:
        return False
    return True


def replayed(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    """sessions.json's records (`raw`) with its journal's replayed over them. A journal begun on another
    file (sessions.json restored by hand since) is set aside, not replayed over it."""
    jpath = journal_of(path)
    journal.recover(jpath)
    if not jpath.exists():
        return raw
    odd = _not_regular(jpath)
    if odd is not None:  # a FIFO would block a read; set aside as sessions.json itself is, appends go to a new one
        aside = files.unused_name(jpath.with_name(jpath.name + ".unreadable"))
        os.replace(jpath, aside)
        log.error("%s is %s: starting from sessions.json alone; it is kept as %s", jpath.name, odd, aside.name)
        return raw
    if not journal.belongs(jpath):
        count, aside = journal.set_aside(jpath)
        log.error("%s was begun on another sessions.json: its %d records are kept as %s", jpath.name, count, aside.name)
        return raw
    return over(raw, journal.read(jpath))


def _not_regular(path: Path) -> str | None:
    try:
        return user_files.not_regular(os.stat(path).st_mode)
    except OSError:  # gone, or not to be looked at: the read says why
        return None


def over(raw: dict[str, Any], records: list[Any]) -> dict[str, Any]:
    """`raw` with each journal record's session put over its own (later records win)."""
    for record in records:
        if isinstance(record, dict) and isinstance(record.get("sid"), str) and isinstance(record.get("session"), dict):
            raw[record["sid"]] = record["session"]
    return raw
