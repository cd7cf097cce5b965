"""A graph file as its server last read or wrote it, and what became of it since.

A save that wrote over a file changed from outside lost the change, and one that did not notice the
file gone, emptied or replaced by a folder left the next start only `.prev` (the lessons of the last
save lost, and silently for a file removed with no `.prev`). Each save stats the file first
(microseconds, on the loop) and compares it with what the last load or save left; only a file changed
otherwise is read, in a worker thread, to tell a hand edit (it reads as a graph) from damage.
"""

from __future__ import annotations

import enum
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from . import files, journal, user_files


@attrs.frozen
class Seen:
    """The identity of one version of a file: a rename into place keeps all three."""

    size: int
    mtime_ns: int
    ino: int


class Found(enum.Enum):
    SAME = "same"  # as the last load or save left it (or there was none, and there is none)
    GONE = "removed"
    EMPTIED = "emptied"
    NOT_A_FILE = "replaced by something that is not a file"
    CHANGED = "changed"  # to be read: a hand edit when it reads as a graph, else damage


def stat_of(path: Path) -> os.stat_result | None:
    """The file's stat (through a symlink), None when nothing is there. A link that leads nowhere it can
    follow (a loop) is the link's own stat: something that is not a file, as a FIFO is."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        try:
            return os.lstat(path)
        except OSError:
            pass
        raise


def seen(path: Path) -> Seen | None:
    """What is at `path` now, as a save or load leaves it (None: no file, or none that can be looked at)."""
    try:
        st = stat_of(path)
    except OSError:
        return None
    return Seen(st.st_size, st.st_mtime_ns, st.st_ino) if st is not None and stat.S_ISREG(st.st_mode) else None


def compare(before: Seen | None, now: os.stat_result | None) -> Found:
    """What happened to the file since `before` (the last load or save), by its stat `now`."""
    if now is None:
        return Found.SAME if before is None else Found.GONE
    if not stat.S_ISREG(now.st_mode):
        return Found.NOT_A_FILE
    if now.st_size == 0:
        return Found.EMPTIED
    if before == Seen(now.st_size, now.st_mtime_ns, now.st_ino):
        return Found.SAME
    return Found.CHANGED


def missing_at_start(path: Path) -> str | None:
    """What says a graph file that is not there existed (its previous save, a journal naming it), or None:
    a start that loads it anyway says so, since the lessons of its last save are lost with it."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError:  # a folder it may not look into: there or not, the load says why it cannot be read
        return None
    else:
        return None
    prev = files.prev_of(path)
    if prev.exists():
        return f"its previous save {prev.name} is beside it"
    if journal.names_a_file(journal.journal_path(path)):
        return f"its journal {journal.journal_path(path).name} was begun on it"
    return None


def is_previous_save(path: Path) -> bool:
    """Whether the file is byte for byte its previous save (`.prev`): put back by hand, a roll-back."""
    try:
        prev = files.prev_of(path)
        return prev.stat().st_size == path.stat().st_size and \
            user_files.read_bytes(prev) == user_files.read_bytes(path)
    except OSError:
        return False


def reads_as(path: Path, build: Callable[[Any, files.Reading], Any]) -> bool:
    """Whether the file reads as what `build` makes (a graph): what a load would take. Worker thread."""
    try:
        files.parse(path, build)
    except (OSError, files.Unreadable):
        return False
    return True


def clear_for_write_back(path: Path, found: Found) -> Path | None:
    """Make room for the graph written back over damage: an empty file goes (the save would make it `.prev`,
    hiding the good previous save), anything else that is not a graph is moved to `<name>.replaced` and
    kept for a look by hand. Where it went (None: removed, or nothing was there). An OSError fails the save."""
    if found is Found.GONE:
        return None
    if found is Found.EMPTIED:
        files.discard(path)
        return None
    aside = files.unused_name(path.with_name(path.name + ".replaced"))
    try:
        os.replace(path, aside)
    except FileNotFoundError:
        return None
    return aside
