"""Each common term's holders in rank order (most weighted occurrences first, ties by id), kept per write.

A query scores a term's holders by their rank in this order, so the order must be at hand when
the query runs: a reader that sorted a term of thousands of holders (and cached it) would do a
write's work inside a reply, and would write into the index it reads. So the index's owner keeps
it: on each node added or removed, one insert or delete per common term the node holds. A term
held by fewer than `ORDER_MIN` nodes has none; its reader sorts its few holders on the spot.

Per term, the holders' numbers in rank order (`array('H')`, `'I'` past 65,535 nodes: invisible to
the garbage collector, an insert is a memmove, and a query reads it straight into ids), beside its runs: each distinct
count with how many hold it, in rank order (a term's holders share a few counts). A holder's place
is its count's run, found by summing the runs before it, then its id's place within the run, by a
bisect that compares ids only.

A term held by `BITS_MIN` or more also keeps its holders as a bitmap (bit n: node number n), so that
how many nodes hold any of a query's terms is an OR and a bit count per common term, not a walk
over their thousands of holders (a kg_search's "Found N match(es)").
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator

from . import constants as C

ORDER_MIN = C.SEARCH_ORDER_AHEAD_MIN  # holders from which a term's order is kept
# Holders from which a term's order carries a bitmap too: at N = 10,000 that is ~190 terms, 1.25 KiB
# each; below it a term's few holders are counted one by one as cheaply.
BITS_MIN = 128


def sort_by_rank(holders: Iterable[tuple[int, int]], names: list[str]) -> list[tuple[int, int]]:
    """(number, weighted count) pairs in rank order: count descending, then id ascending."""
    return sorted(holders, key=lambda p: (-p[1], names[p[0]]))


def _typecode(number: int) -> str:
    """Two bytes a holder while the node numbers fit (a graph of fewer than 65,536 nodes), else four:
    the orders are the index's second largest table (~3.5 MiB of four-byte numbers at 10,000 nodes)."""
    return "H" if number < 1 << 16 else "I"


def _bitmap(numbers: array[int]) -> bytearray:
    bits = bytearray((max(numbers, default=-1) >> 3) + 1)
    for n in numbers:
        bits[n >> 3] |= 1 << (n & 7)
    return bits


def _set(bits: bytearray, number: int) -> None:
    byte = number >> 3
    if byte >= len(bits):
        bits.extend(bytes(byte + 1 - len(bits)))
    bits[byte] |= 1 << (number & 7)


class _Order:
    __slots__ = ("numbers", "counts", "sizes", "bits")

    def __init__(self, numbers: array[int], counts: list[int], sizes: list[int], bits: bytearray | None):
        self.numbers = numbers  # holders in rank order
        self.counts = counts  # the distinct counts, descending
        self.sizes = sizes  # how many holders each count has
        self.bits = bits  # the holders as a bitmap, once they are `bits_min` (kept until the order goes)

    def run(self, count: int) -> tuple[int, int, int]:
        """(index of the count's run, where it starts, where it ends); an absent count's run is empty."""
        start = 0
        for k, (held, size) in enumerate(zip(self.counts, self.sizes)):
            if held == count:
                return k, start, start + size
            if held < count:
                return k, start, start
            start += size
        return len(self.counts), start, start


class TermOrders:
    """Term → its holders' numbers in rank order, for the terms held by `least` nodes or more.

    Written by `SearchIndex` alone; `names` is its number → id list (an id keeps its number).
    `least`: the holders from which a term's order is kept (the owner puts it whole on reaching it);
    `bits_min`: from which it carries a bitmap too."""

    def __init__(self, names: list[str], least: int = ORDER_MIN, bits_min: int = BITS_MIN):
        self._names = names
        self.least = max(1, least)
        self.bits_min = bits_min
        self._held: dict[str, _Order] = {}

    def __contains__(self, term: object) -> bool:
        return term in self._held

    def terms(self) -> Iterator[str]:
        return iter(self._held)

    def table(self) -> dict[str, _Order]:
        """The live term → order table, for the owning index to hand over in pieces (SearchIndex.pieces)."""
        return self._held

    def ids(self, term: str, limit: int | None = None) -> list[str] | None:
        """The first `limit` holders' ids (all when None); None when the term has no order kept."""
        held = self._held.get(term)
        if held is None:
            return None
        names = self._names
        return [names[n] for n in (held.numbers if limit is None else held.numbers[:limit])]

    def numbers(self, term: str) -> array[int] | None:
        """The holders' numbers in rank order (read only); None when the term has no order kept."""
        held = self._held.get(term)
        return None if held is None else held.numbers

    def bits(self, term: str) -> bytearray | None:
        """The holders as a bitmap (read only); None when the term has no order, or too few holders."""
        held = self._held.get(term)
        return None if held is None else held.bits

    def put(self, term: str, holders: Iterable[tuple[int, int]]) -> None:
        """The term's whole order, from its (number, weighted count) holders in any order."""
        ranked = sort_by_rank(holders, self._names)
        counts: list[int] = []
        sizes: list[int] = []
        for _, count in ranked:
            if counts and counts[-1] == count:
                sizes[-1] += 1
            else:
                counts.append(count)
                sizes.append(1)
        numbers = array(_typecode(max((n for n, _ in ranked), default=0)), [n for n, _ in ranked])
        bits = _bitmap(numbers) if len(numbers) >= self.bits_min else None
        self._held[term] = _Order(numbers, counts, sizes, bits)

    def index_of(self, term: str, number: int, count: int) -> int:
        """Where holder `number` (held with this count) stands in the term's order, 0 first."""
        held = self._held[term]
        _, lo, hi = held.run(count)
        return self._place(held, number, lo, hi)

    def insert(self, term: str, number: int, count: int) -> None:
        """Put holder `number` (not in the order yet) at its rank."""
        held = self._held[term]
        k, lo, hi = held.run(count)
        if _typecode(number) != held.numbers.typecode == "H":
            held.numbers = array("I", held.numbers)
        held.numbers.insert(self._place(held, number, lo, hi), number)
        if held.bits is not None:
            _set(held.bits, number)
        elif len(held.numbers) >= self.bits_min:
            held.bits = _bitmap(held.numbers)
        if lo == hi:
            held.counts.insert(k, count)
            held.sizes.insert(k, 1)
        else:
            held.sizes[k] += 1

    def remove(self, term: str, number: int, count: int) -> None:
        """Take holder `number` (in the order with this count) out; the order goes when too few are left."""
        held = self._held[term]
        k, lo, hi = held.run(count)
        i = self._place(held, number, lo, hi)
        if i == hi or held.numbers[i] != number:
            raise KeyError(f"{number} is not in {term!r}'s order with count {count}")
        del held.numbers[i]
        if held.bits is not None:
            held.bits[number >> 3] &= ~(1 << (number & 7)) & 0xFF
        held.sizes[k] -= 1
        if not held.sizes[k]:
            del held.counts[k], held.sizes[k]
        if len(held.numbers) < self.least:
            del self._held[term]

    def _place(self, held: _Order, number: int, lo: int, hi: int) -> int:
        return bisect_left(held.numbers, self._names[number], lo, hi, key=self._names.__getitem__)
