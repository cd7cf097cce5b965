"""PMap: a persistent (immutable, structurally shared) mapping that keeps insertion order.

A graph snapshot holds its nodes and edges in PMaps, so a new version costs
what changed, not the graph: `evolve` copies only the chunks and buckets the
change lands in, and the new map shares every other one with the old.

Layout: values live in chunks (small dicts of up to CHUNK entries, filled in
insertion order, so iterating the chunks in turn is iterating the map in
insertion order, at dict speed); a key finds its chunk through `where`, a table
of buckets keyed by the key's hash. Updating a key copies its chunk; adding one
copies the last chunk and the key's bucket; the two tables of pointers are
copied too (a memcpy of about N/64 and N/16 slots). Nothing here is ever
changed after it is made: an attempt to assign raises TypeError.
"""

from __future__ import annotations

from collections.abc import Hashable, ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from itertools import chain
from typing import Any, Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")

CHUNK = 64  # entries per value chunk
BUCKET_LOAD = 16  # keys per `where` bucket before the table doubles
_EMPTY: dict[Any, Any] = {}  # shared by every empty bucket; never written (buckets are copied first)
_MISSING = object()


class PMap(Mapping[K, V], Generic[K, V]):
    """An immutable mapping; `evolve` returns a new version sharing what did not change."""

    __slots__ = ("_chunks", "_where", "_mask", "_len", "__weakref__")

    _chunks: tuple[dict[K, V], ...]
    _where: tuple[dict[K, int], ...]
    _mask: int
    _len: int

    def __new__(cls, items: Iterable[tuple[K, V]] | Mapping[K, V] = ()) -> PMap[K, V]:
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
        return cls._make(tuple(chunks), seen)

    @classmethod
    def _make(cls, chunks: tuple[dict[K, V], ...], where: Mapping[K, int]) -> PMap[K, V]:
        size = 16
        while size * BUCKET_LOAD < len(where):
            size *= 2
        buckets: list[dict[K, int]] = [_EMPTY] * size
        mask = size - 1
        for key, at in where.items():
            b = hash(key) & mask
            if buckets[b] is _EMPTY:
                buckets[b] = {}
            buckets[b][key] = at
        self = object.__new__(cls)
        object.__setattr__(self, "_chunks", chunks)
        object.__setattr__(self, "_where", tuple(buckets))
        object.__setattr__(self, "_mask", mask)
        object.__setattr__(self, "_len", len(where))
        return self

    # -- reading
    def __getitem__(self, key: K) -> V:
        at = self._where[hash(key) & self._mask].get(key)
        if at is None:
            raise KeyError(key)
        return self._chunks[at][key]

    @overload
    def get(self, key: K, /) -> V | None: ...
    @overload
    def get(self, key: K, default: V | D, /) -> V | D: ...

    def get(self, key: K, default: Any = None) -> Any:
        at = self._where[hash(key) & self._mask].get(key)
        return default if at is None else self._chunks[at][key]

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._where[hash(key) & self._mask]
        except TypeError:  # unhashable: not a key
            return False

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[K]:
        return chain.from_iterable(self._chunks)

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
        """A new version with `sets` assigned and `deletes` removed (absent keys are ignored).

        Costs the keys given (their chunks and buckets are copied), not the map.
        """
        chunks = list(self._chunks)
        buckets = list(self._where)
        mask, size = self._mask, self._len
        copied: set[int] = set()  # chunks and buckets copied in this call, so writable
        copied_b: set[int] = set()

        def chunk(at: int) -> dict[K, V]:
            if at not in copied:
                chunks[at] = dict(chunks[at])
                copied.add(at)
            return chunks[at]

        def bucket(b: int) -> dict[K, int]:
            if b not in copied_b:
                buckets[b] = dict(buckets[b])
                copied_b.add(b)
            return buckets[b]

        for key in deletes:
            b = hash(key) & mask
            at = buckets[b].get(key)
            if at is None:
                continue
            del bucket(b)[key]
            del chunk(at)[key]
            size -= 1
        pairs = sets.items() if isinstance(sets, Mapping) else sets
        for key, value in pairs:
            b = hash(key) & mask
            at = buckets[b].get(key)
            if at is None:
                if not chunks or len(chunks[-1]) >= CHUNK:
                    chunks.append({})
                    copied.add(len(chunks) - 1)
                at = len(chunks) - 1
                bucket(b)[key] = at
                size += 1
            chunk(at)[key] = value
        live = (size + CHUNK - 1) // CHUNK
        if size > BUCKET_LOAD * (mask + 1) or len(chunks) > 2 * live + 8:
            # Rare: the bucket table doubles, or deletions left many chunks near empty. O(N) once
            # per doubling of the map, so O(1) per change on average.
            return PMap(chain.from_iterable(c.items() for c in chunks))
        for b in copied_b:
            if not buckets[b]:
                buckets[b] = _EMPTY
        out = object.__new__(PMap)
        object.__setattr__(out, "_chunks", tuple(chunks))
        object.__setattr__(out, "_where", tuple(buckets))
        object.__setattr__(out, "_mask", mask)
        object.__setattr__(out, "_len", size)
        return out

    def set(self, key: K, value: V) -> PMap[K, V]:
        return self.evolve(((key, value),))

    def delete(self, key: K) -> PMap[K, V]:
        return self.evolve((), (key,))


class _Keys(KeysView[K]):
    _mapping: PMap[K, Any]

    def __iter__(self) -> Iterator[K]:
        return chain.from_iterable(self._mapping._chunks)


class _Values(ValuesView[V]):
    _mapping: PMap[Any, V]

    def __iter__(self) -> Iterator[V]:
        return chain.from_iterable(c.values() for c in self._mapping._chunks)


class _Items(ItemsView[K, V]):
    _mapping: PMap[K, V]

    def __iter__(self) -> Iterator[tuple[K, V]]:
        return chain.from_iterable(c.items() for c in self._mapping._chunks)


EMPTY: PMap[Any, Any] = PMap()
