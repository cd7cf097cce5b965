"""Each common term's holders in rank order (most weighted occurrences first, ties by id), kept per write.

A query scores a term's holders by their rank in this order, so the order must be at hand when
the query runs: a reader that sorted a term of thousands of holders (and cached it) would do a
write's work inside a reply, and would write into the index it reads. So the index's owner keeps
it: on each node added or removed, one insert or delete per common term the node holds. A term
held by fewer than `ORDER_MIN` nodes has none; its reader sorts its few holders on the spot.

A holder is one int, its rank key and number packed so that the ints sort by count with a
plain bisect (a count's holders are one run), and only within the run are ids compared:
(MAX - count) << shift | number. Narrow ('I', 4 bytes): 12 bits of key, 20 of number, as
postings.py's; an array turns wide ('Q', 32 + 32) when a holder does not fit. An array of ints
is invisible to the garbage collector and takes an insert as a memmove.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator

from . import constants as C

ORDER_MIN = C.SEARCH_ORDER_AHEAD_MIN  # holders from which a term's order is kept
_NARROW, _WIDE = 20, 32  # bits of number
_NARROW_MAX, _WIDE_MAX = (1 << (32 - _NARROW)) - 1, (1 << 32) - 1  # the largest count each can key


def _shift(held: array[int]) -> int:
    return _NARROW if held.typecode == "I" else _WIDE


def _fits(number: int, count: int) -> bool:
    return number < 1 << _NARROW and count <= _NARROW_MAX


def sort_by_rank(holders: Iterable[tuple[int, int]], names: list[str]) -> list[tuple[int, int]]:
    """(number, weighted count) pairs in rank order: count descending, then id ascending."""
    return sorted(holders, key=lambda p: (-p[1], names[p[0]]))


class TermOrders:
    """Term → its holders' numbers in rank order, for the terms held by `ORDER_MIN` nodes or more.

    Written by `SearchIndex` alone; `names` is its number → id list (an id keeps its number).
    `least`: the holders from which a term's order is kept (the owner puts it whole on reaching it)."""

    def __init__(self, names: list[str], least: int = ORDER_MIN):
        self._names = names
        self.least = max(1, least)
        self._held: dict[str, array[int]] = {}

    def __contains__(self, term: object) -> bool:
        return term in self._held

    def __len__(self) -> int:
        return len(self._held)

    def terms(self) -> Iterator[str]:
        return iter(self._held)

    def numbers(self, term: str, limit: int | None = None) -> list[int] | None:
        """The first `limit` holders' numbers (all when None); None when the term has no order kept."""
        held = self._held.get(term)
        if held is None:
            return None
        mask = (1 << _shift(held)) - 1
        return list(map(mask.__and__, held if limit is None else held[:limit]))

    def index_of(self, term: str, number: int, count: int) -> int:
        """Where holder `number` (held with this count) stands in the term's order, 0 first."""
        return self._index(self._held[term], number, count)

    def put(self, term: str, holders: Iterable[tuple[int, int]]) -> None:
        """The term's whole order, from its (number, weighted count) holders in any order."""
        ranked = sort_by_rank(holders, self._names)
        if all(_fits(n, c) for n, c in ranked):
            self._held[term] = array("I", [(_NARROW_MAX - c) << _NARROW | n for n, c in ranked])
        else:
            self._held[term] = array("Q", [(_WIDE_MAX - min(c, _WIDE_MAX)) << _WIDE | n for n, c in ranked])

    def drop(self, term: str) -> None:
        self._held.pop(term, None)

    def insert(self, term: str, number: int, count: int) -> None:
        """Put holder `number` (not in the order yet) at its rank."""
        held = self._held[term]
        if held.typecode == "I" and not _fits(number, count):
            held = self._held[term] = self._widen(held)
        held.insert(self._index(held, number, count), self._value(held, number, count))

    def remove(self, term: str, number: int, count: int) -> None:
        """Take holder `number` (in the order with this count) out; the order goes when too few are left."""
        held = self._held[term]
        i = self._index(held, number, count)
        if i == len(held) or held[i] != self._value(held, number, count):
            raise KeyError(f"{number} is not in {term!r}'s order with count {count}")
        del held[i]
        if len(held) < self.least:
            del self._held[term]

    def _value(self, held: array[int], number: int, count: int) -> int:
        if held.typecode == "I":
            return (_NARROW_MAX - count) << _NARROW | number
        return (_WIDE_MAX - min(count, _WIDE_MAX)) << _WIDE | number

    def _index(self, held: array[int], number: int, count: int) -> int:
        """Where holder `number` of this count sits: its count's run found by int bisect, then its id's place."""
        shift = _shift(held)
        key = self._value(held, number, count) >> shift
        lo = bisect_left(held, key << shift)
        hi = bisect_left(held, (key + 1) << shift, lo)
        names, mask = self._names, (1 << shift) - 1
        return bisect_left(held, names[number], lo, hi, key=lambda v: names[v & mask])

    @staticmethod
    def _widen(held: array[int]) -> array[int]:
        low = (1 << _NARROW) - 1
        return array("Q", [(_WIDE_MAX - (_NARROW_MAX - (v >> _NARROW))) << _WIDE | (v & low) for v in held])
