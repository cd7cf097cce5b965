"""PMap: a persistent (immutable, structurally shared) mapping that keeps insertion order.

A graph snapshot holds its nodes and edges in PMaps, so a new version costs
what changed, not the graph: `evolve` copies only the few small pieces a
change lands in, and the new map shares every other piece with the old.

Layout, two levels each, of FAN pointers a level:
- values live in chunks (dicts of up to CHUNK entries, filled in insertion
  order, so iterating the chunks in turn is iterating the map in insertion
  order, at dict speed); chunk c is `_pages[c // FAN][c % FAN]`;
- a key finds its chunk's number in a bucket (a small dict) picked by the key's
  hash; bucket b is `_where[b // FAN][b % FAN]`.
Changing a key copies its chunk, its bucket, the two pages holding them, and
the two top tuples (about N/4,096 and N/1,024 pointers): a few hundred pointers
at 100,000 keys. When the map outgrows its buckets it is rebuilt once, O(N),
which a doubling of the map pays for. Nothing here is changed after it is
made: an attempt to assign raises.
"""

from __future__ import annotations

from collections.abc import Hashable, ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from itertools import chain, islice
from typing import Any, Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")

FAN = 64  # pointers per page, and pages per top tuple before it grows
CHUNK = 64  # entries per value chunk
BUCKET_LOAD = 16  # keys per bucket before the bucket count doubles
_EMPTY: dict[Any, Any] = {}  # every empty bucket; never written (a bucket is copied first)


def _paged(items: list[Any]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(items[i:i + FAN]) for i in range(0, len(items), FAN))


class PMap(Mapping[K, V], Generic[K, V]):
    """An immutable mapping; `evolve` returns a new version sharing what did not change."""

    __slots__ = ("_pages", "_nchunks", "_where", "_mask", "_len", "__weakref__")

    _pages: tuple[tuple[dict[K, V], ...], ...]
    _nchunks: int
    _where: tuple[tuple[dict[K, int], ...], ...]
    _mask: int
    _len: int

    def __new__(cls, items: Iterable[tuple[K, V]] | Mapping[K, V] = ()) -> PMap[K, V]:
        if type(items) is dict:
            return cls._from_dict(items)
        pairs = items.items() if isinstance(items, Mapping) else items
        chunks: list[dict[K, V]] = []
        seen: dict[K, int] = {}
        for key, value in pairs:
            at = seen.get(key)
            if at is None:
                if not chunks or len(chunks[-1]) >= CHUNK:
                    chunks.append({})
                at = seen[key] = len(chunks) - 1
            chunks[at][key] = value
        size = FAN
        while size * BUCKET_LOAD < len(seen):
            size *= 2
        buckets: list[dict[K, int]] = [_EMPTY] * size
        mask = size - 1
        for key, at in seen.items():
            b = hash(key) & mask
            if buckets[b] is _EMPTY:
                buckets[b] = {}
            buckets[b][key] = at
        return cls._make(_paged(chunks), len(chunks), _paged(buckets), mask, len(seen))

    @classmethod
    def _from_dict(cls, items: dict[K, V]) -> PMap[K, V]:
        """The same map as the general path makes, from a dict (its keys are unique and in order):
        chunks cut by slicing, each key's bucket filled in one pass; half the time of the general
        path, which a start pays once per map of its first snapshot (~60,000 keys at 10,000 nodes)."""
        pairs = iter(items.items())
        chunks: list[dict[K, V]] = []
        while chunk := dict(islice(pairs, CHUNK)):
            chunks.append(chunk)
        size = FAN
        while size * BUCKET_LOAD < len(items):
            size *= 2
        mask = size - 1
        buckets: list[dict[K, int]] = [_EMPTY] * size
        for at, chunk in enumerate(chunks):
            for key in chunk:
                b = hash(key) & mask
                bucket = buckets[b]
                if bucket is _EMPTY:
                    bucket = buckets[b] = {}
                bucket[key] = at
        return cls._make(_paged(chunks), len(chunks), _paged(buckets), mask, len(items))

    @classmethod
    def _make(cls, pages: tuple[tuple[dict[K, V], ...], ...], nchunks: int,
              where: tuple[tuple[dict[K, int], ...], ...], mask: int, size: int) -> PMap[K, V]:
        self = object.__new__(cls)
        for name, value in (("_pages", pages), ("_nchunks", nchunks), ("_where", where), ("_mask", mask),
                            ("_len", size)):
            object.__setattr__(self, name, value)
        return self

    # -- reading
    def __getitem__(self, key: K) -> V:
        b = hash(key) & self._mask
        at = self._where[b >> 6][b & 63].get(key)
        if at is None:
            raise KeyError(key)
        return self._pages[at >> 6][at & 63][key]

    @overload
    def get(self, key: K, /) -> V | None: ...
    @overload
    def get(self, key: K, default: V | D, /) -> V | D: ...

    def get(self, key: K, default: Any = None) -> Any:
        b = hash(key) & self._mask
        at = self._where[b >> 6][b & 63].get(key)
        return default if at is None else self._pages[at >> 6][at & 63][key]

    def __contains__(self, key: object) -> bool:
        try:
            b = hash(key) & self._mask
        except TypeError:  # unhashable: not a key
            return False
        return key in self._where[b >> 6][b & 63]

    def __len__(self) -> int:
        return self._len

    def _chunks(self) -> Iterator[dict[K, V]]:
        return chain.from_iterable(self._pages)

    def __iter__(self) -> Iterator[K]:
        return chain.from_iterable(self._chunks())

    def keys(self) -> KeysView[K]:
        return _Keys(self)

    def values(self) -> ValuesView[V]:
        return _Values(self)

    def items(self) -> ItemsView[K, V]:
        return _Items(self)

    def __repr__(self) -> str:
        return f"PMap({dict(self.items())!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"PMap is immutable (cannot set {name})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (PMap, (list(self.items()),))

    # -- new versions
    def evolve(self, sets: Mapping[K, V] | Iterable[tuple[K, V]] = (), deletes: Iterable[K] = ()) -> PMap[K, V]:
        """A new version with `sets` assigned and `deletes` removed (absent keys are ignored); this
        one when nothing changes. Costs the keys given (their chunks and buckets), not the map."""
        where, pages, mask = self._where, self._pages, self._mask
        buckets: dict[int, dict[K, int]] = {}  # copied in this call, so writable
        chunks: dict[int, dict[K, V]] = {}
        nchunks, size = self._nchunks, self._len

        def bucket(b: int) -> dict[K, int]:
            got = buckets.get(b)
            if got is None:
                got = buckets[b] = dict(where[b >> 6][b & 63])
            return got

        def chunk(c: int) -> dict[K, V]:
            got = chunks.get(c)
            if got is None:
                got = chunks[c] = dict(pages[c >> 6][c & 63]) if c < self._nchunks else {}
            return got

        for key in deletes:
            b = hash(key) & mask
            at = (buckets[b] if b in buckets else where[b >> 6][b & 63]).get(key)
            if at is None:
                continue
            del bucket(b)[key]
            del chunk(at)[key]
            size -= 1
        for key, value in sets.items() if isinstance(sets, Mapping) else sets:
            b = hash(key) & mask
            at = (buckets[b] if b in buckets else where[b >> 6][b & 63]).get(key)
            if at is None:
                last = nchunks - 1
                held = chunks.get(last) if last in chunks else (pages[last >> 6][last & 63] if last >= 0 else None)
                if held is None or len(held) >= CHUNK:
                    last = nchunks
                    nchunks += 1
                at = last
                bucket(b)[key] = at
                size += 1
            chunk(at)[key] = value
        if not buckets and not chunks:
            return self
        new = PMap._make(_patched(pages, chunks, False), nchunks, _patched(where, buckets, True), mask, size)
        if size > BUCKET_LOAD * (mask + 1) or nchunks > 2 * (size // CHUNK) + 8:
            # Rare: the buckets double, or deletions left many chunks near empty. O(N) once per
            # doubling of the map, so O(1) per change on average.
            return PMap._from_dict(dict(new.items()))  # its fast path: the keys are unique, in order
        return new

    def set(self, key: K, value: V) -> PMap[K, V]:
        return self.evolve(((key, value),))

    def delete(self, key: K) -> PMap[K, V]:
        return self.evolve((), (key,))


def _patched(top: tuple[tuple[Any, ...], ...], changed: dict[int, Any],
             share_empty: bool) -> tuple[tuple[Any, ...], ...]:
    """`top` with the slots `changed` replaced, copying only the pages they are on (a slot one past
    the end extends it; an emptied bucket becomes the shared empty one when `share_empty`)."""
    if not changed:
        return top
    out = list(top)
    by_page: dict[int, list[Any]] = {}
    for slot, value in sorted(changed.items()):
        p = slot >> 6
        page = by_page.get(p)
        if page is None:
            page = by_page[p] = list(out[p]) if p < len(out) else []
        if len(page) == slot & 63:
            page.append(value)
        page[slot & 63] = _EMPTY if share_empty and not value else value
    for p, page in by_page.items():
        if p == len(out):
            out.append(())
        out[p] = tuple(page)
    return tuple(out)


class _Keys(KeysView[K]):
    _mapping: PMap[K, Any]

    def __iter__(self) -> Iterator[K]:
        return iter(self._mapping)


class _Values(ValuesView[V]):
    _mapping: PMap[Any, V]

    def __iter__(self) -> Iterator[V]:
        return chain.from_iterable(c.values() for c in self._mapping._chunks())


class _Items(ItemsView[K, V]):
    _mapping: PMap[K, V]

    def __iter__(self) -> Iterator[tuple[K, V]]:
        return chain.from_iterable(c.items() for c in self._mapping._chunks())


EMPTY: PMap[Any, Any] = PMap()
