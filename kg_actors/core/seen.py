"""What a session has seen is named by level and id: spec 003 lets the user graph and a project graph
each hold a node of the same id, two different nodes, so having seen one is not having seen the other.

A ref is (level, node id); the session registry keys its tables (and sessions.json) by the ref as one
string, "user:some-id". Node ids never hold a ':' (ids.NODE_ID_RE), so the first one ends the level.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Set as AbstractSet
from typing import TypeVar

Ref = tuple[str, str]  # (level, node id)

LEVELS = ("user", "project", "maintain")
_T = TypeVar("_T")


def key(level: str, node_id: str) -> str:
    return f"{level}:{node_id}"


def ref(k: str) -> Ref:
    level, _, node_id = k.partition(":")
    return level, node_id


def at_level(keys: Iterable[str], level: str) -> frozenset[str]:
    """The ids of `keys` at `level`; a bare id (stored before keys had levels) counts at every level."""
    prefix = level + ":"
    return frozenset(k[len(prefix):] if k.startswith(prefix) else k for k in keys
                     if k.startswith(prefix) or not keyed(k))


def keyed(k: str) -> bool:
    """Whether a stored key names its level (those sessions.json held before levels did are bare ids,
    and a bare id may be "user" itself)."""
    level, colon, _ = k.partition(":")
    return bool(colon) and level in LEVELS


class Refs(AbstractSet[Ref]):
    """A session's seen keys, asked by ref: a view, not a copy (a long session has seen thousands)."""

    __slots__ = ("_keys",)

    def __init__(self, keys: Collection[str]) -> None:
        self._keys = keys

    def __contains__(self, item: object) -> bool:
        return isinstance(item, tuple) and len(item) == 2 and key(*item) in self._keys

    def __iter__(self) -> Iterator[Ref]:
        return map(ref, self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    @classmethod
    def _from_iterable(cls, it: Iterable[_T]) -> AbstractSet[_T]:  # what `seen | more` makes
        return frozenset(it)


class AtLevel(AbstractSet[str]):
    """The ids seen at one level: what a search of that level's graph asks of a session's refs."""

    __slots__ = ("_refs", "_level")

    def __init__(self, refs: AbstractSet[Ref], level: str) -> None:
        self._refs, self._level = refs, level

    def __contains__(self, node_id: object) -> bool:
        return (self._level, node_id) in self._refs

    def __iter__(self) -> Iterator[str]:
        return (i for lvl, i in self._refs if lvl == self._level)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    @classmethod
    def _from_iterable(cls, it: Iterable[_T]) -> AbstractSet[_T]:
        return frozenset(it)
