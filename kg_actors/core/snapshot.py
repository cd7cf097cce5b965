"""GraphSnapshot: one version of a graph, frozen, for readers outside its actor.

The actor alone changes its GraphData; after each change it publishes a new
GraphSnapshot, made from the last one by `Pending.apply`, which copies only
what the change touched (persistent maps, core/pmap.py), so a version costs
O(change), not O(graph). A reader holds a snapshot as long as it likes: it
never changes under it, and assigning to it raises.

It answers the reading half of GraphData's interface (`nodes`, `edges`,
`versions`, `progress`, `incident`, `degree`, `ids_in_state`,
`unorphaned_incident`, `gen`), so the pure functions of core/ read either.
`lineage` is the same object for every version of one graph: per-graph memo
caches key on it, so a new version does not throw their work away.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from collections.abc import Set as AbstractSet
from itertools import repeat
from types import MappingProxyType
from typing import Any, Protocol

import attrs

from .pmap import PMap
from .records import Edge, EdgeKey, Node
from .withheld import Mask

STATES = ("active", "archived", "orphaned")


class GraphReader(Protocol):
    """What the pure functions of core/ read of a graph: a GraphSnapshot, or the live GraphData
    inside its actor."""

    @property
    def kind(self) -> str: ...
    @property
    def project_path(self) -> str | None: ...
    @property
    def gen(self) -> int: ...
    @property
    def lineage(self) -> Lineage: ...
    @property
    def nodes(self) -> Mapping[str, Node]: ...
    @property
    def edges(self) -> Mapping[EdgeKey, Edge]: ...
    @property
    def versions(self) -> Mapping[str, dict[str, Any]]: ...
    @property
    def progress(self) -> Mapping[str, dict[str, Any]]: ...
    @property
    def extra_meta(self) -> Mapping[str, Any]: ...
    def incident(self, endpoint: str) -> Iterator[Edge]: ...
    def degree(self, endpoint: str) -> int: ...
    def degrees(self, endpoints: list[str]) -> list[int]: ...
    def active_nodes(self) -> Iterator[Node]: ...
    def ids_in_state(self, state: str) -> AbstractSet[str]: ...
    def unorphaned_incident(self, endpoint: str) -> Collection[EdgeKey]: ...


class _Live(GraphReader, Protocol):
    """The live graph, as a snapshot is made from it."""

    def incident_sets(self) -> Mapping[str, set[EdgeKey]]: ...
    def unorphaned_sets(self) -> Mapping[str, set[EdgeKey]]: ...


class Lineage:
    """Names one graph across its versions (what memo caches key on, weakly), and holds what agents are
    shown of its fields that hold a secret (core/withheld.py), for every version of it."""

    __slots__ = ("__weakref__", "mask")

    def __init__(self) -> None:
        self.mask = Mask()


@attrs.frozen(slots=True, weakref_slot=True)
class GraphSnapshot:
    kind: str
    project_path: str | None
    gen: int  # the version: GraphData.gen when it was taken
    lineage: Lineage = attrs.field(eq=False, repr=False)
    nodes: PMap[str, Node] = attrs.field(repr=False)
    edges: PMap[EdgeKey, Edge] = attrs.field(repr=False)
    versions: PMap[str, dict[str, Any]] = attrs.field(repr=False)
    progress: PMap[str, dict[str, Any]] = attrs.field(repr=False)
    extra_meta: Mapping[str, Any] = attrs.field(repr=False)
    _incident: PMap[str, tuple[EdgeKey, ...]] = attrs.field(repr=False, alias="incident_map")
    _unorphaned: PMap[str, tuple[EdgeKey, ...]] = attrs.field(repr=False, alias="unorphaned_map")
    _by_state: Mapping[str, PMap[str, None]] = attrs.field(repr=False, alias="by_state")

    def incident(self, endpoint: str) -> Iterator[Edge]:
        edges = self.edges
        return (edges[key] for key in self._incident.get(endpoint, ()))

    def degree(self, endpoint: str) -> int:
        return len(self._incident.get(endpoint, ()))

    def degrees(self, endpoints: list[str]) -> list[int]:
        """`degree` of each, in one pass."""
        return list(map(len, map(self._incident.get, endpoints, repeat(()))))

    def active_nodes(self) -> Iterator[Node]:
        return (n for n in self.nodes.values() if n.active)

    def ids_in_state(self, state: str) -> AbstractSet[str]:
        return self._by_state[state].keys()

    def unorphaned_incident(self, endpoint: str) -> Collection[EdgeKey]:
        return self._unorphaned.get(endpoint, ())


def full_snapshot(graph: _Live) -> GraphSnapshot:
    """The first version of a graph: O(graph), once (later ones come from `Pending.apply`)."""
    # Every map from a dict: PMap's fast path for keys known unique (pmap.py).
    states: dict[str, dict[str, None]] = {s: {} for s in STATES}
    for node_id, node in graph.nodes.items():
        states[node.state][node_id] = None
    return GraphSnapshot(
        graph.kind, graph.project_path, graph.gen, graph.lineage,
        PMap(dict(graph.nodes)), PMap(dict(graph.edges)), PMap(dict(graph.versions)), PMap(dict(graph.progress)),
        MappingProxyType(dict(graph.extra_meta)),
        incident_map=PMap({end: tuple(keys) for end, keys in graph.incident_sets().items()}),
        unorphaned_map=PMap({end: tuple(keys) for end, keys in graph.unorphaned_sets().items()}),
        by_state=MappingProxyType({s: PMap(states[s]) for s in STATES}),
    )


def _kinds() -> dict[str, dict[Any, None]]:
    return {"n": {}, "e": {}, "v": {}, "p": {}}


@attrs.define
class Pending:
    """What changed in a GraphData since its last snapshot (kept by the graph's change methods).

    Keys by kind ("n" nodes, "e" edges, "v" versions, "p" progress): `touched`, in
    the order the live map has them where they were added, and `dropped` (deleted
    at some point, so put back last, as a dict does).
    """

    touched: dict[str, dict[Any, None]] = attrs.Factory(_kinds)
    dropped: dict[str, dict[Any, None]] = attrs.Factory(_kinds)
    incident: set[str] = attrs.Factory(set)  # endpoints whose incident edges changed
    unorphaned: set[str] = attrs.Factory(set)  # endpoints whose unorphaned edges changed

    def touch(self, kind: str, key: Any, dropped: bool, moved: bool) -> None:
        keys = self.touched[kind]
        if moved:  # added or removed: it goes last, as in the live dict
            keys.pop(key, None)
        keys[key] = None
        if dropped:
            self.dropped[kind][key] = None

    def apply(self, prev: GraphSnapshot, graph: _Live) -> GraphSnapshot:
        """`prev` brought up to `graph`: copies only what changed, then forgets it."""
        nodes, touched, dropped = graph.nodes, self.touched, self.dropped
        by_state = dict(prev._by_state)
        now_in: dict[Any, str | None] = {}
        for i in touched["n"]:
            state = n.state if (n := nodes.get(i)) is not None else None
            if state is None or i not in by_state[state]:  # a read's stamp, a rewrite: its state's map stands
                now_in[i] = state
        if now_in:
            for state in STATES:  # a node leaves every state but its own (absent keys cost a lookup)
                by_state[state] = by_state[state].evolve(
                    [(i, None) for i, s in now_in.items() if s == state], [i for i, s in now_in.items() if s != state])
        snap = GraphSnapshot(
            graph.kind, graph.project_path, graph.gen, graph.lineage,
            _evolve(prev.nodes, touched["n"], dropped["n"], nodes),
            _evolve(prev.edges, touched["e"], dropped["e"], graph.edges),
            _evolve(prev.versions, touched["v"], dropped["v"], graph.versions),
            _evolve(prev.progress, touched["p"], dropped["p"], graph.progress),
            prev.extra_meta if prev.extra_meta == graph.extra_meta else MappingProxyType(dict(graph.extra_meta)),
            incident_map=_evolve_sets(prev._incident, self.incident, graph.incident_sets()),
            unorphaned_map=_evolve_sets(prev._unorphaned, self.unorphaned, graph.unorphaned_sets()),
            by_state=MappingProxyType(by_state),
        )
        for kinds in (touched, dropped):
            for keys in kinds.values():
                keys.clear()
        self.incident.clear()
        self.unorphaned.clear()
        return snap


def _evolve(prev: PMap[Any, Any], keys: dict[Any, None], dropped: dict[Any, None], live: Mapping[Any, Any]) -> PMap[Any, Any]:
    if not keys:
        return prev
    # Deletes go first: a key dropped and put back since `prev` moves to the end, as it did in `live`.
    return prev.evolve([(k, live[k]) for k in keys if k in live], [k for k in keys if k in dropped or k not in live])


def _evolve_sets(prev: PMap[str, tuple[EdgeKey, ...]], ends: set[str],
                 live: Mapping[str, set[EdgeKey]]) -> PMap[str, tuple[EdgeKey, ...]]:
    if not ends:
        return prev
    # Tuples: a third of a frozenset's memory, and readers only iterate and count these.
    return prev.evolve([(e, tuple(live[e])) for e in ends if live.get(e)], [e for e in ends if not live.get(e)])

