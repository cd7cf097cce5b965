"""Three-way merge of a notes list (an edge's), as core/merge.py's edge rule asks.

A write of an edge's notes replaces the list it holds, so a note missing on one side was removed
there: what either side removed goes, what either side added stays, and a note neither changed
stays. Pure: the same three lists give the same list on both machines.
"""

from __future__ import annotations

import json
from typing import Any


def _items(notes: Any) -> list[Any]:
    return notes if isinstance(notes, list) else []  # a hand edit's odd value is no list of notes


def _key(note: Any) -> str:
    return json.dumps(note, sort_keys=True, ensure_ascii=False)


def merge_notes(base: Any, first: Any, second: Any) -> list[Any]:
    """The notes of two sides merged against their common ancestor's (None: no common history, so every
    note is an addition). `first` leads the order (the later write's list), then `second`'s additions."""
    held = {_key(n) for n in _items(base)}
    on_first, on_second = {_key(n) for n in _items(first)}, {_key(n) for n in _items(second)}
    out: list[Any] = []
    seen: set[str] = set()
    for note in [*_items(first), *_items(second)]:
        k = _key(note)
        if k in seen or (k in held and not (k in on_first and k in on_second)):
            continue  # listed already, or removed on a side
        seen.add(k)
        out.append(note)
    return out
