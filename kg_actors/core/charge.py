"""Incremental exact charge (compaction's measure): a graph's index of it, and moves tried over it.

`ChargeIndex` holds what the level charge is made of (the active and archived
ids, their line costs, the price of every shown citation) for a graph's
committed state; its owner updates it with each change in O(change), so a
write's compaction plan starts from it instead of pricing the whole level.
`ChargeTracker` copies it (a few hundred ids: what a level renders, not the
graph) and tries moves on the copy. Both price an edge with `price_edge`, so
the tracker's number is charge() of the graph with its moves applied.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping
from collections.abc import Set as AbstractSet

from .model import Edge, EdgeKey, GraphReader, Node
from .render import (ACTIVE_HEADER, ARCHIVED_HEADER, anchor_line, citation_line, component_order, line_cost,
                     node_line)

# An edge between two active nodes is cited under whichever end the cluster
# order renders first, so it is held as a range (shorter id shown .. longer id
# shown) and `exact()` settles the ranges with one cluster ordering, only when
# a comparison falls inside them.
_NODE_LINE_EXTRA = line_cost(node_line("", ""))
_ANCHOR_EXTRA = line_cost(anchor_line(""))
_CITATION_EXTRA = line_cost(citation_line(Edge("", "", ""), ""))
_ACTIVE_HEADER_COST = line_cost(ACTIVE_HEADER)
_ARCHIVED_HEADER_COST = line_cost(ARCHIVED_HEADER)


def node_cost(node: Node) -> int:
    """What the node's `id: gist` line costs when active."""
    return len(node.id) + len(node.gist) + _NODE_LINE_EXTRA


def anchor_cost(node_id: str) -> int:
    return len(node_id) + _ANCHOR_EXTRA


def price_edge(key: EdgeKey, active: AbstractSet[str], archived: AbstractSet[str],
               nodes: Mapping[str, Node]) -> tuple[int, int]:
    """(low, high) cost of an edge's citation; 0 when hidden; low < high only between active ends.

    An end in neither set is orphaned when it is a node here, else held (a file, a user node).
    """
    src, dst, rel = key
    base = _CITATION_EXTRA + len(rel)
    if src in active:
        if dst in active and dst != src:
            ls, ld = len(src), len(dst)
            return (base + ls, base + ld) if ls < ld else (base + ld, base + ls)
        if dst in active or dst in archived or dst not in nodes:
            return base + len(dst), base + len(dst)  # cited under src (a self-loop too)
        return 0, 0
    if dst in active:
        if src in archived or src not in nodes:
            return base + len(src), base + len(src)
        return 0, 0
    return 0, 0  # no active end (archived with archived or outside), or an orphaned one: hidden


def _headers(active: object, archived: object) -> int:
    """The section headers a level renders: one per non-empty tier."""
    return (_ACTIVE_HEADER_COST if active else 0) + (_ARCHIVED_HEADER_COST if archived else 0)


class ChargeIndex:
    """The charge inputs of one graph version. `gen` is the graph version it holds for.

    Only edges with a price are kept (at least one end active or archived, none
    orphaned), so its size is the level's, however many orphans the graph holds.
    """

    def __init__(self) -> None:
        self.gen = -1
        self.active: set[str] = set()
        self.archived: set[str] = set()
        self.cost: dict[str, int] = {}  # node_cost of each active or archived node
        self.active_lines = 0
        self.archived_lines = 0  # what the archived nodes' lines would cost active
        self.anchor_chars = 0
        self.fixed = 0  # live edges whose cost the states alone decide
        self.lo = self.hi = 0  # active–active edges with ends of unequal length: shorter / longer shown
        self.uneven: set[EdgeKey] = set()
        self.priced: dict[EdgeKey, tuple[int, int]] = {}
        self.at: dict[str, set[EdgeKey]] = {}  # endpoint -> its priced edges

    @classmethod
    def build(cls, graph: GraphReader) -> ChargeIndex:
        index = cls()
        index.update(graph, [*graph.ids_in_state("active"), *graph.ids_in_state("archived")], ())
        return index

    def update(self, graph: GraphReader, node_ids: Iterable[str], edge_keys: Iterable[EdgeKey]) -> None:
        """Catch up with a change to these nodes and edges (added, changed or deleted)."""
        nodes = graph.nodes
        changed = []
        for node_id in node_ids:
            node, cost = nodes.get(node_id), self.cost.get(node_id)
            if (cost is not None and node is not None and not node.orphaned
                    and node.archived == (node_id in self.archived) and node_cost(node) == cost):
                continue  # its tier and its line as they were (a read's stamp, a credit): so is every price
            changed.append(node_id)
        for node_id in changed:
            self._drop_node(node_id)
            node = nodes.get(node_id)
            if node is not None and not node.orphaned:
                cost = self.cost[node_id] = node_cost(node)
                if node.archived:
                    self.archived.add(node_id)
                    self.archived_lines += cost
                    self.anchor_chars += anchor_cost(node_id)
                else:
                    self.active.add(node_id)
                    self.active_lines += cost
        keys = set(edge_keys)
        for node_id in changed:
            keys.update(self.at.get(node_id, ()))  # priced before
            keys.update(graph.unorphaned_incident(node_id))  # may be priced now
        for key in keys:
            self._reprice(key, nodes if key in graph.edges else None)
        self.gen = graph.gen

    def _drop_node(self, node_id: str) -> None:
        cost = self.cost.pop(node_id, None)
        if cost is None:
            return
        if node_id in self.active:
            self.active.discard(node_id)
            self.active_lines -= cost
        else:
            self.archived.discard(node_id)
            self.archived_lines -= cost
            self.anchor_chars -= anchor_cost(node_id)

    def _reprice(self, key: EdgeKey, nodes: Mapping[str, Node] | None) -> None:
        """Replace an edge's price by its price now (`nodes` None: the edge is gone)."""
        old = self.priced.pop(key, None)
        if old is not None:
            self._add(key, old, -1)
        new = (0, 0) if nodes is None else price_edge(key, self.active, self.archived, nodes)
        if new != (0, 0):
            self.priced[key] = new
            self._add(key, new, 1)

    def _add(self, key: EdgeKey, price: tuple[int, int], sign: int) -> None:
        low, high = price
        if low == high:
            self.fixed += sign * low
        else:
            self.lo += sign * low
            self.hi += sign * high
            (self.uneven.add if sign > 0 else self.uneven.discard)(key)
        for end in {key[0], key[1]}:
            if sign > 0:
                self.at.setdefault(end, set()).add(key)
            else:
                mine = self.at[end]
                mine.discard(key)
                if not mine:
                    del self.at[end]

    def high(self) -> int:
        """At least the level's charge (ChargeTracker.high with no moves), in O(1)."""
        return self.active_lines + self.anchor_chars + self.fixed + self.hi + _headers(self.active, self.archived)

    def totals(self) -> tuple[int, ...]:
        """The sums, for comparing two indexes of one graph."""
        return (self.active_lines, self.archived_lines, self.anchor_chars, self.fixed, self.lo, self.hi)


class ChargeTracker:
    """The level charge of `graph` with some nodes moved to other states.

    Moves live here, not in the graph, so a tried and reverted move journals
    nothing; `moves()` is what to commit. States are "active", "archived",
    "orphaned"; None is an endpoint that is no node of this graph. Only edges
    whose other end is not orphaned are ever visited. `base`, the graph's
    ChargeIndex when its owner keeps one, spares pricing the level from scratch.
    """

    def __init__(self, graph: GraphReader, base: ChargeIndex | None = None):
        if base is None or base.gen != graph.gen:
            base = ChargeIndex.build(graph)
        self.graph = graph
        self._nodes = graph.nodes
        self.active: set[str] = set(base.active)
        self.archived: set[str] = set(base.archived)
        self.active_lines = base.active_lines
        self.archived_lines = base.archived_lines
        self.anchor_chars = base.anchor_chars
        self._fixed = base.fixed
        self._lo, self._hi = base.lo, base.hi
        self._uneven: set[EdgeKey] = set(base.uneven)
        self._orphaned_here: set[str] = set()  # orphaned by a move here, not yet in the graph's index
        self._degree: dict[str, int] = {}  # live degree of a node while active
        self._promotion: dict[str, int] = {}  # promotion_floor's per-node part, until a neighbour moves
        # Per active node, its active neighbours (itself excluded), until it or a neighbour enters or
        # leaves the active set: `exact` is asked after most tried moves, and each moves one node.
        self._near: dict[str, set[str]] = {}
        self._exact: int | None = None
        self._log: list[tuple[str, str]] = []  # (node id, prior state), for undo and moves()

    def node_cost(self, node_id: str) -> int:
        """What the node's `id: gist` line costs when active."""
        return node_cost(self._nodes[node_id])

    def state(self, node_id: str) -> str | None:
        if node_id in self.active:
            return "active"
        if node_id in self.archived:
            return "archived"
        return "orphaned" if node_id in self._nodes else None

    def _account(self, key: EdgeKey, sign: int) -> None:
        low, high = price_edge(key, self.active, self.archived, self._nodes)
        if low == high:
            self._fixed += sign * low
            return
        self._lo += sign * low
        self._hi += sign * high
        if sign > 0:
            self._uneven.add(key)
        else:
            self._uneven.discard(key)

    def _headers(self) -> int:
        return _headers(self.active, self.archived)

    @property
    def low(self) -> int:
        return self.active_lines + self.anchor_chars + self._fixed + self._lo + self._headers()

    @property
    def high(self) -> int:
        return self.active_lines + self.anchor_chars + self._fixed + self._hi + self._headers()

    def set_state(self, node_id: str, state: str) -> None:
        """Move a node. An orphaned node of the graph stays orphaned (reads bring those back)."""
        old = self.state(node_id)
        if old == state:
            return
        if old is None or (old == "orphaned" and node_id not in self._orphaned_here):
            raise ValueError(f"cannot move {node_id!r} from {old}")
        keys = self.graph.unorphaned_incident(node_id)
        if old == "archived" and state == "orphaned":
            self._orphan_archived(node_id, keys)
            return
        for key in keys:
            self._account(key, -1)
        if old == "active":
            self.active.discard(node_id)
            self.active_lines -= self.node_cost(node_id)
        elif old == "archived":
            self.archived.discard(node_id)
            self.archived_lines -= self.node_cost(node_id)
            self.anchor_chars -= anchor_cost(node_id)
        else:
            self._orphaned_here.discard(node_id)
        if state == "active":
            self.active.add(node_id)
            self.active_lines += self.node_cost(node_id)
        elif state == "archived":
            self.archived.add(node_id)
            self.archived_lines += self.node_cost(node_id)
            self.anchor_chars += anchor_cost(node_id)
        else:
            self._orphaned_here.add(node_id)
        for key in keys:
            self._account(key, 1)
        orphaning = "orphaned" in (old, state)  # an orphaned end hides the edge from its neighbours
        for src, dst, _ in keys:
            self._promotion.pop(src, None)
            self._promotion.pop(dst, None)
            if orphaning:
                self._degree.pop(src, None)
                self._degree.pop(dst, None)
        self._promotion.pop(node_id, None)
        if "active" in (old, state):
            self._near.pop(node_id, None)
            for src, dst, _ in keys:
                self._near.pop(dst if src == node_id else src, None)
        self._exact = None
        self._log.append((node_id, old))

    def _orphan_archived(self, node_id: str, keys: Collection[EdgeKey]) -> None:
        """set_state's commonest move, in a level far over its budget thousands of times: an archived
        node's citations all cost a fixed price (no active pair), and an orphaned end hides them."""
        active, archived, nodes = self.active, self.archived, self._nodes
        self._fixed -= sum(price_edge(key, active, archived, nodes)[0] for key in keys)
        archived.discard(node_id)
        self.archived_lines -= self.node_cost(node_id)
        self.anchor_chars -= anchor_cost(node_id)
        self._orphaned_here.add(node_id)
        promotion, degree = self._promotion, self._degree
        for src, dst, _ in keys:
            promotion.pop(src, None)
            promotion.pop(dst, None)
            degree.pop(src, None)
            degree.pop(dst, None)
        promotion.pop(node_id, None)
        self._exact = None
        self._log.append((node_id, "archived"))

    def undo_point(self) -> tuple[int, int | None]:
        return len(self._log), self._exact

    def undo(self, point: tuple[int, int | None]) -> None:
        """Put back every move since `point` (the exact charge comes back too)."""
        size, exact = point
        while len(self._log) > size:
            node_id, prior = self._log[-1]
            self.set_state(node_id, prior)
            del self._log[-2:]
        self._exact = exact

    def _live_degree(self, node_id: str) -> int:
        keys = self.graph.unorphaned_incident(node_id)
        if not self._orphaned_here:
            return len(keys)
        degree = self._degree.get(node_id)
        if degree is None:
            gone = self._orphaned_here
            degree = sum(1 for src, dst, _ in keys if (dst if src == node_id else src) not in gone)
            self._degree[node_id] = degree
        return degree

    def exact(self) -> int:
        """The charge: equal to charge() of the graph with these moves applied."""
        if self._exact is None:
            extra = 0
            if self._uneven:
                pos = self._places({end for key in self._uneven for end in key[:2]})
                for src, dst, _ in self._uneven:
                    shown = dst if pos[src] < pos[dst] else src
                    extra += len(shown) - min(len(src), len(dst))
            self._exact = self.low + extra
        return self._exact

    def _places(self, ends: set[str]) -> dict[str, int]:
        """Where each of `ends` (active nodes) stands in the render's cluster order, counted within its
        component. An uneven citation's two ends are neighbours, so only their order inside one
        component decides which id it shows; components without such an edge need no ordering."""
        near, active = self._near, self.active
        places: dict[str, int] = {}
        for end in ends:
            if end in places:
                continue
            component, stack = {end}, [end]
            while stack:  # each node's active neighbours, kept in _near until a move drops them
                node_id = stack.pop()
                mine = near.get(node_id)
                if mine is None:
                    mine = near[node_id] = set()
                    for src, dst, _ in self.graph.unorphaned_incident(node_id):
                        other = dst if src == node_id else src
                        if other in active and other != node_id:
                            mine.add(other)
                for other in mine:
                    if other not in component:
                        component.add(other)
                        stack.append(other)
            degree = {i: self._live_degree(i) for i in component}
            places.update(zip(component_order(near, degree, component), itertools.count()))
        return places

    def fits(self, limit: int) -> bool:
        """charge <= limit."""
        if self.high <= limit:
            return True
        return self.low <= limit and self.exact() <= limit

    def below(self, limit: int) -> bool:
        """charge < limit."""
        if self.high < limit:
            return True
        return self.low < limit and self.exact() < limit

    def promotion_floor(self, node_id: str) -> int:
        """The charge after promoting archived `node_id`, before any citation elsewhere moves.

        Only a re-ordering of other active–active citations can make the real
        charge lower (by a few characters, rarely); callers use this to skip a
        candidate without trying it, never to accept one.
        """
        delta = self._promotion.get(node_id)
        if delta is None:
            delta = self.node_cost(node_id) - anchor_cost(node_id)
            own = len(node_id)
            active, archived = self.active, self.archived
            for src, dst, rel in self.graph.unorphaned_incident(node_id):
                other = dst if src == node_id else src
                if other == node_id or other in archived:  # hidden until now
                    delta += _CITATION_EXTRA + len(rel) + len(other)
                elif other in active and own > len(other):  # may come to be cited here, showing the shorter id
                    delta -= own - len(other)
            self._promotion[node_id] = delta
        if not self.active:
            delta += _ACTIVE_HEADER_COST
        if len(self.archived) == 1:
            delta -= _ARCHIVED_HEADER_COST
        return self.exact() + delta

    def moves(self) -> dict[str, str]:
        """Node id -> new state, for every node whose state differs from the graph's."""
        out = {}
        for node_id, _ in self._log:
            state = self.state(node_id)  # never None: a logged node is in the plan
            if state is not None and state != self._nodes[node_id].state:
                out[node_id] = state
        return out


def fast_charge(graph: GraphReader, base: ChargeIndex | None = None) -> int:
    """charge(graph), without building the lines or scanning orphaned nodes."""
    return ChargeTracker(graph, base).exact()
