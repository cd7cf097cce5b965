"""The search index's postings, compact: per term, its holders as node numbers with packed counts.

A dict per term (node id → packed count) cost ~36 bytes a posting and ~230 a term: at
10,000 nodes, 59,000 terms (two in three of them word pairs held by one node) and 830,000
postings came to ~29 MiB. Here a term held by one node is one int (number << 32 | packed),
and one held by more an array of such values sorted by number: `array('I')` (4 bytes a
posting) while they fit in 20 + 12 bits, as a store of text's do, else `array('Q')`; no
object the garbage collector walks. The numbers are the index's (`SearchIndex`
gives each node id one for the index's life); a posting reads as a `Mapping[str, int]`
of node id → packed count, in number order: the order the nodes were first indexed.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, insort
from collections.abc import ItemsView, Iterable, Iterator, Mapping
from typing import TypeAlias, TypeVar, overload

_D = TypeVar("_D")

# A value is number << shift | packed. Wide (a lone holder's int, or array 'Q'): 32 bits each. Narrow
# (array 'I', half the bytes): numbers below 2**20 with packed counts below 2**12, which is every
# posting of a store of text; an array turns wide when a value does not fit.
WIDE, NARROW = 32, 12
_NARROW_NUMBERS = 1 << (32 - NARROW)
_LOW, _NARROW_LOW = (1 << WIDE) - 1, (1 << NARROW) - 1
Held: TypeAlias = "int | array[int]"  # one holder's value, or a sorted array of them


def _values(held: Held) -> tuple[int] | array[int]:
    return (held,) if isinstance(held, int) else held


def _shift(held: Held) -> int:
    return NARROW if isinstance(held, array) and held.typecode == "I" else WIDE


def _fits(number: int, packed: int) -> bool:
    return number < _NARROW_NUMBERS and packed < 1 << NARROW


def _find(values: tuple[int] | array[int], shift: int, number: int) -> int | None:
    """The packed count `number` holds in `values`, if it is there."""
    i = bisect_left(values, number << shift)
    if i < len(values) and values[i] >> shift == number:
        return int(values[i] & ((1 << shift) - 1))
    return None


def _array(pairs: list[tuple[int, int]]) -> array[int]:
    """(number, packed) pairs, sorted, as the narrowest array that holds them."""
    if all(_fits(n, p) for n, p in pairs):
        return array("I", [n << NARROW | p for n, p in pairs])
    return array("Q", [n << WIDE | p for n, p in pairs])


class Posting(Mapping[str, int]):
    """One term's holders, read as node id → packed count."""

    __slots__ = ("_values", "_shift", "_names", "_numbers")

    def __init__(self, held: Held, names: list[str], numbers: Mapping[str, int]):
        self._values = _values(held)
        self._shift = _shift(held)
        self._names = names
        self._numbers = numbers

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[str]:
        names, shift = self._names, self._shift
        return (names[v >> shift] for v in self._values)

    def __getitem__(self, node_id: str) -> int:
        packed = self.get(node_id)
        if packed is None:
            raise KeyError(node_id)
        return packed

    @overload
    def get(self, node_id: str, /) -> int | None: ...
    @overload
    def get(self, node_id: str, /, default: int | _D) -> int | _D: ...

    def get(self, node_id: str, /, default: object = None) -> object:
        number = self._numbers.get(node_id)
        found = None if number is None else _find(self._values, self._shift, number)
        return default if found is None else found

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, str) and self.get(node_id) is not None

    def items(self) -> ItemsView[str, int]:
        return _Items(self)

    def pairs(self) -> Iterator[tuple[str, int]]:
        names, shift = self._names, self._shift
        low = (1 << shift) - 1
        return ((names[v >> shift], v & low) for v in self._values)


class _Items(ItemsView[str, int]):
    """Items straight from the packed values (the default would look each id up again)."""

    _mapping: Posting

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return self._mapping.pairs()


class Postings(Mapping[str, Posting]):
    """Term → its Posting; written by `SearchIndex` alone, a node at a time (`add`, `remove`)."""

    def __init__(self, names: list[str], numbers: Mapping[str, int]):
        self._held: dict[str, Held] = {}
        self._names = names
        self._numbers = numbers

    def __len__(self) -> int:
        return len(self._held)

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __contains__(self, term: object) -> bool:
        return term in self._held

    def __getitem__(self, term: str) -> Posting:
        return Posting(self._held[term], self._names, self._numbers)

    @overload  # type: ignore[override]  # a Posting, or the caller's default as it is
    def get(self, term: str, /) -> Posting | None: ...
    @overload
    def get(self, term: str, /, default: Mapping[str, int]) -> Mapping[str, int]: ...
    @overload
    def get(self, term: str, /, default: _D) -> Posting | _D: ...

    def get(self, term: str, /, default: object = None) -> object:
        held = self._held.get(term)
        return default if held is None else Posting(held, self._names, self._numbers)

    def df(self, term: str) -> int:
        held = self._held.get(term)
        return 0 if held is None else 1 if isinstance(held, int) else len(held)

    def packed(self, term: str, number: int) -> int | None:
        held = self._held.get(term)
        return None if held is None else _find(_values(held), _shift(held), number)

    def numbered(self, term: str) -> list[tuple[int, int]]:
        """The term's holders as (number, packed count) pairs, in number order."""
        held = self._held.get(term)
        if held is None:
            return []
        shift = _shift(held)
        low = (1 << shift) - 1
        return [(v >> shift, v & low) for v in _values(held)]

    def holders(self, term: str) -> list[int]:
        """The term's holders' numbers alone, in number order (no counts unpacked for them)."""
        held = self._held.get(term)
        if held is None:
            return []
        shift = _shift(held)
        return [v >> shift for v in _values(held)]

    def add(self, number: int, terms: Mapping[str, int]) -> list[str]:
        """Add holder `number` (in none of these postings yet) to each term's: the terms new to the index.

        One call per node, not per term: building 10,000 nodes' postings is 880,000 of these steps."""
        held_by, new = self._held, []
        for term, packed in terms.items():
            packed = min(packed, _LOW)  # a count past 2**31 is no text a node holds
            held = held_by.get(term)
            if held is None:
                held_by[term] = number << WIDE | packed
                new.append(term)
            elif isinstance(held, int):
                one = (held >> WIDE, held & _LOW)
                held_by[term] = _array(sorted((one, (number, packed))))
            elif held.typecode == "I" and _fits(number, packed):
                _insert(held, number << NARROW | packed)
            elif held.typecode == "I":  # this one does not fit: the term's array goes wide
                wide = held_by[term] = array("Q", [(v >> NARROW) << WIDE | (v & _NARROW_LOW) for v in held])
                _insert(wide, number << WIDE | packed)
            else:
                _insert(held, number << WIDE | packed)
        return new

    def remove(self, number: int, terms: Iterable[str]) -> list[str]:
        """Remove holder `number` from each term's posting (it is in each): the terms left with none."""
        held_by, emptied = self._held, []
        for term in terms:
            held = held_by[term]
            if isinstance(held, int):
                del held_by[term]
                emptied.append(term)
                continue
            shift = _shift(held)
            del held[bisect_left(held, number << shift)]
            if len(held) == 1:
                held_by[term] = (held[0] >> shift) << WIDE | (held[0] & ((1 << shift) - 1))
        return emptied

    def table(self) -> dict[str, Held]:
        """The live term → holders table, for the owning index to hand over in pieces (SearchIndex.pieces)."""
        return self._held

    def compact(self) -> None:
        """Each array at its exact size (growing by appends leaves ~6% and 7 slots spare in each)."""
        held_by = self._held
        for term, held in held_by.items():
            if not isinstance(held, int):
                held_by[term] = array(held.typecode, held)



def _insert(held: array[int], value: int) -> None:
    if value > held[-1]:
        held.append(value)  # a build adds in number order
    else:
        insort(held, value)
