"""Which ids a three-way merge of a graph's nodes finds renamed, by the creation stamp a rename keeps.

Pure. The maps are nodes by id (base, ours, theirs); `todo` the ids either side changed. An id gone from a
side and one new there with the same `_created_ts` are one node renamed; a stamp shared by two such ids
(nodes written in one batch) proves nothing, and those merge id by id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

Json = dict[str, Any]


def renames_between(todo: set[str], base: Json, ours: Json, theirs: Json) -> dict[str, tuple[str, str]]:
    """Old id -> (new id, the side that renamed it), for a node one side renamed while the other kept the
    old id."""
    out: dict[str, tuple[str, str]] = {}
    for side, here, there in (("ours", ours, theirs), ("theirs", theirs, ours)):
        gone = _births(base, (k for k in todo if k in base and k not in here and k in there))
        born = _births(here, _new_on_one_side(todo, base, here, there))
        for stamp, olds in gone.items():
            news = born.get(stamp, [])
            if len(olds) == 1 and len(news) == 1:
                out[olds[0]] = (news[0], side)
    return out


def _new_on_one_side(todo: set[str], base: Json, here: Json, there: Json) -> Iterator[str]:
    return (key for key in todo if key in here and key not in base and key not in there)


def _births(nodes: Json, keys: Iterable[str]) -> dict[float, list[str]]:
    """The ids among `keys` by their nodes' creation stamp (what a rename keeps)."""
    out: dict[float, list[str]] = {}
    for key in keys:
        _by_birth(out, nodes[key], key)
    return out


def double_renames(todo: set[str], base: Json, ours: Json, theirs: Json) -> dict[str, tuple[str, str]]:
    """Old id -> (ours' new id, theirs' new id), for a node both sides renamed, each to an id of its own
    (found as `renames_between` finds one side's: by the creation stamp a rename keeps)."""
    gone = _births(base, (k for k in todo if k in base and k not in ours and k not in theirs))
    born_ours = _births(ours, _new_on_one_side(todo, base, ours, theirs))
    born_theirs = _births(theirs, _new_on_one_side(todo, base, theirs, ours))
    out = {}
    for stamp, olds in gone.items():
        mine, other = born_ours.get(stamp, []), born_theirs.get(stamp, [])
        if len(olds) == 1 and len(mine) == 1 and len(other) == 1:
            out[olds[0]] = (mine[0], other[0])
    return out


def _by_birth(into: dict[float, list[str]], node: Any, key: str) -> None:
    stamp = node.get("_created_ts") if isinstance(node, dict) else None
    if isinstance(stamp, int | float) and not isinstance(stamp, bool):
        into.setdefault(float(stamp), []).append(key)




def renames_against_deletes(todo: set[str], base: Json, ours: Json, theirs: Json) -> dict[str, tuple[str, str]]:
    """New id -> (old id, the side that renamed it), for a node one side renamed while the other deleted it
    (a rename is a change of the node: the merge keeps it, and says it was deleted there)."""
    gone = _births(base, (k for k in todo if k in base and k not in ours and k not in theirs))
    born = {side: _births(here, _new_on_one_side(todo, base, here, there))
            for side, here, there in (("ours", ours, theirs), ("theirs", theirs, ours))}
    out = {}
    for stamp, olds in gone.items():
        mine, other = born["ours"].get(stamp, []), born["theirs"].get(stamp, [])
        if len(olds) == 1 and len(mine) + len(other) == 1:
            out[(mine or other)[0]] = (olds[0], "ours" if mine else "theirs")
    return out
