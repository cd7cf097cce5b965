"""A graph actor's look at its file before each save: damage is written over, a hand edit is not.

What the last load or save left is `status["file_seen"]` (storage/file_seen.py). A file removed,
emptied or replaced by something no load reads is damage: the graph is written back from memory at
this save, even when nothing changed, with one log line. A readable file with other content is a hand
edit: no save writes over it (the journal keeps every change meanwhile) until a reload or a restart reads
it with the journal replayed over it; /health names it meanwhile (`status["hand_edited"]`).
"""

from __future__ import annotations

import enum
import logging
from pathlib import Path
from typing import Any

import trio

from .graph_loading import reads_as_graph
from .storage import file_seen
from .storage.file_seen import Found

log = logging.getLogger(__name__)

SEEN = "file_seen"
# The file a fold is putting in place, from just before its rename until SEEN names it: a save checked
# meanwhile (the actor asks while the writer's thread renames) must not take the server's own file for
# a hand edit (it did: the save then held, and /health named a hand edit no one made).
FOLDING = "file_folding"
HAND_EDITED = "hand_edited"
EDIT_SEEN = "hand_edit_seen"  # the hand-edited file as it read as a graph
ROLLED_BACK = "hand_edit_rolls_back"  # that file is byte for byte its previous save: a reload sets writes aside


class Before(enum.Enum):
    SAVE = "save"  # as usual
    WRITE_BACK = "write back"  # damage: saved whole now, dirty or not
    HOLD = "hold"  # a hand edit: not saved over


def note(status: dict[str, Any], path: Path) -> None:
    """The file as it is now is the graph's own (a load, a save, a merge the actor absorbed)."""
    status[SEEN] = file_seen.seen(path)


async def before_save(key: str, path: Path, kind: str, nodes: int, status: dict[str, Any]) -> Before:
    """What this save does about the file as it is now (a stat; a read in a worker thread when it changed)."""
    st = file_seen.stat_of(path)
    found = file_seen.compare(status.get(SEEN), st)
    if found is Found.CHANGED and file_seen.compare(status.get(FOLDING), st) is Found.SAME:
        found = Found.SAME
    if found is Found.SAME:
        return Before.SAVE
    if found is Found.CHANGED:
        if status.get(HAND_EDITED) and file_seen.compare(status.get(EDIT_SEEN), st) is Found.SAME:
            return Before.HOLD  # the edit already read: not parsed again at every tick
        if await trio.to_thread.run_sync(reads_as_graph, path, kind):
            if status.get(HAND_EDITED) is None:
                log.warning("%s: %s was changed by hand under the server: not saved over; writes go on in its "
                            "journal, and a reload (GET /api/graph/read?reload=true) or a restart reads the edit "
                            "with them replayed over it", key, path)
            # Whether it is a roll-back is known before the edit is named: /health reads `status` while this
            # waits on the thread, and named the edit without it (so doctor said the writes would be replayed).
            rolled_back = await trio.to_thread.run_sync(file_seen.is_previous_save, path)
            status[HAND_EDITED], status[EDIT_SEEN] = str(path), file_seen.seen(path)
            status[ROLLED_BACK] = rolled_back
            return Before.HOLD
        what = "replaced by a file that does not read as a graph"
    else:
        what = found.value
    try:
        aside = await trio.to_thread.run_sync(file_seen.clear_for_write_back, path, found)
    except OSError as exc:  # the save fails on it too, and says so; the tick tries again
        aside = None
        log.error("%s: could not move %s aside: %s", key, path, exc)
    kept = f"; what was there is kept as {aside.name}" if aside is not None else ""
    log.warning("%s: %s was %s under the server: the graph is written back from memory (%d nodes)%s",
                key, path, what, nodes, kept)
    status[SEEN] = None
    status.pop(HAND_EDITED, None)  # an edit held before went with the damage: memory is what is written back
    status.pop(ROLLED_BACK, None)
    return Before.WRITE_BACK
