"""What a session is told of a graph in trouble: its file could not be read (served empty, refusing
changes), its previous save was loaded instead, its file was missing at the start, lines of its journal
were lost, or the store refuses its saves now. Said by a full read and by the preload (for many sessions the only memory they see)."""

from __future__ import annotations

from ..graph_handle import GraphHandle
from .floor import Floor


def troubles(floor: Floor, level: str, handle: GraphHandle) -> list[str]:
    out = []
    if unreadable := floor.directory.unreadable(handle.key):  # the level is served empty: why, and the way back
        out.append(f"The {level} memory could not be loaded: {unreadable}")
    elif fell_back := floor.directory.fell_back(handle.key):
        out.append(f"The {level} memory: {fell_back}")
    elif missing := floor.directory.file_missing(handle.key):  # loaded without its file: its last save is lost
        out.append(f"The {level} memory: {missing}")
    if damaged := floor.directory.journal_damaged(handle.key):
        out.append(f"The {level} memory: {damaged}")
    if dropped := floor.directory.journal_dropped(handle.key):
        out.append(f"The {level} memory: {dropped}")
    if refusing := handle.save_refusal():
        out.append(f"The {level} memory takes no writes now: {refusing}")
    return out
