"""The lines a read shows, and the size budgets charge: one renderer, one charge.

A level body is: `ACTIVE:` header, each active node's `  id: gist` line in
cluster order with its live edges cited beneath it once, then the `ARCHIVED`
header and `  id` anchors (alphabetical) with the live edges only they can
cite. The charge of a level is exactly the length of that text (each line plus
its newline), and `edge_is_live` is the one predicate both use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from .model import Edge, EdgeKey, GraphData, Node

ACTIVE_HEADER = "ACTIVE:"
ARCHIVED_HEADER = "ARCHIVED (use kg_read with id to view full content):"


def node_line(node_id: str, gist: str) -> str:
    return f"  {node_id}: {gist}"


def preloaded_line(node_id: str) -> str:
    return f"  {node_id} (preloaded)"


def anchor_line(node_id: str) -> str:
    return f"  {node_id}"


def citation_line(edge: Edge, under: str) -> str:
    if edge.src == under:
        return f"    → {edge.rel} → {edge.dst}"
    return f"    ← {edge.rel} ← {edge.src}"


def edge_line(edge: Edge) -> str:
    """A standalone edge, as node reads, search and sync show it."""
    return f"  {edge.src} --{edge.rel}--> {edge.dst}"


def line_cost(line: str) -> int:
    return len(line) + 1


def edge_is_live(edge: Edge, nodes: Mapping[str, Node]) -> bool:
    """Shown and charged: no orphaned end, and at least one end the reader holds.

    An end that is not a node of this graph (a file, a user node seen from a
    project) counts as held; two archived ends hide the edge (a string you
    cannot pull) until either is promoted.
    """
    a, b = nodes.get(edge.src), nodes.get(edge.dst)
    if a is None and b is None:
        return False
    if (a is not None and a.orphaned) or (b is not None and b.orphaned):
        return False
    return a is None or b is None or a.active or b.active


@attrs.frozen
class Entry:
    """One rendered node (active or anchor) and the edges cited under it."""

    node_id: str
    active: bool
    citations: tuple[Edge, ...]


@attrs.frozen
class LevelPlan:
    active: tuple[Entry, ...]  # cluster order
    archived: tuple[Entry, ...]  # alphabetical
    live_edges: int

    def entries(self) -> Iterable[Entry]:
        yield from self.active
        yield from self.archived


def _live_incident(graph: GraphData, node_id: str) -> list[Edge]:
    return [e for e in graph.incident(node_id) if edge_is_live(e, graph.nodes)]


def cluster_order(graph: GraphData, active_ids: Iterable[str], degree: Mapping[str, int]) -> list[str]:
    """Connected components of active nodes, hub first, neighbours by degree."""
    active = set(active_ids)
    neighbours: dict[str, set[str]] = {i: set() for i in active}
    for node_id in active:
        for edge in graph.incident(node_id):
            other = edge.other(node_id)
            if other in active and other != node_id:
                neighbours[node_id].add(other)
    return order_clusters(neighbours, degree)


def order_clusters(neighbours: Mapping[str, set[str]], degree: Mapping[str, int]) -> list[str]:
    """cluster_order, given each active node's active neighbours (itself excluded)."""

    def rank(node_id: str) -> tuple[int, str]:
        return (-degree.get(node_id, 0), node_id)

    seen: set[str] = set()
    components: list[list[str]] = []
    for seed in sorted(neighbours, key=rank):
        if seed in seen:
            continue
        seen.add(seed)
        order, frontier = [seed], [seed]
        while frontier:
            nxt = []
            for node_id in frontier:
                for other in sorted(neighbours[node_id] - seen, key=rank):
                    if other not in seen:
                        seen.add(other)
                        order.append(other)
                        nxt.append(other)
            frontier = nxt
        components.append(order)
    components.sort(key=lambda c: (-len(c), -degree.get(c[0], 0), c[0]))
    return [i for c in components for i in c]


def plan_level(graph: GraphData, anchors: bool = True) -> LevelPlan:
    """Which lines a level shows, in order, and which edge each cites.

    Active entries come first and cite every live edge of theirs, so without
    `anchors` the active entries are exactly the same (for a reader that will
    show no archived anchor: the preload, when its gists alone overflow it).
    """
    active_ids = list(graph.ids_in_state("active"))  # cluster_order sorts: set order does not show
    archived_ids = sorted(graph.ids_in_state("archived")) if anchors else []
    live: dict[str, list[Edge]] = {}
    for node_id in active_ids + archived_ids:
        live[node_id] = _live_incident(graph, node_id)
    degree = {i: len(v) for i, v in live.items()}
    cited: set[EdgeKey] = set()

    def entry(node_id: str, active: bool) -> Entry:
        mine = []
        for edge in sorted(live[node_id], key=lambda e: (e.src != node_id, e.rel, e.other(node_id))):
            if edge.key not in cited:
                cited.add(edge.key)
                mine.append(edge)
        return Entry(node_id, active, tuple(mine))

    active = tuple(entry(i, True) for i in cluster_order(graph, active_ids, degree))
    archived = tuple(entry(i, False) for i in archived_ids)
    return LevelPlan(active, archived, len(cited))


def live_edge_count(graph: GraphData) -> int:
    """How many edges a full read shows (plan_level(graph).live_edges), without planning it."""
    nodes = graph.nodes
    return sum(1 for e in graph.edges.values() if edge_is_live(e, nodes))


def plan_lines(graph: GraphData, plan: LevelPlan, preloaded: frozenset[str] = frozenset()) -> list[str]:
    lines: list[str] = []
    if plan.active:
        lines.append(ACTIVE_HEADER)
    for e in plan.active:
        if e.node_id in preloaded:
            lines.append(preloaded_line(e.node_id))
        else:
            lines.append(node_line(e.node_id, graph.nodes[e.node_id].gist))
        lines.extend(citation_line(c, e.node_id) for c in e.citations)
    if plan.archived:
        lines.append(ARCHIVED_HEADER)
    for e in plan.archived:
        lines.append(anchor_line(e.node_id))
        lines.extend(citation_line(c, e.node_id) for c in e.citations)
    return lines


def level_body(graph: GraphData) -> str:
    """The charged text of a level (preloaded gists are charged in full)."""
    lines = plan_lines(graph, plan_level(graph))
    return "".join(line + "\n" for line in lines)


def charge(graph: GraphData) -> int:
    """Rendered characters of a level: what the budget counts."""
    plan = plan_level(graph)
    return charge_plan(graph, plan)


def charge_plan(graph: GraphData, plan: LevelPlan) -> int:
    total = line_cost(ACTIVE_HEADER) if plan.active else 0
    for e in plan.active:
        total += line_cost(node_line(e.node_id, graph.nodes[e.node_id].gist))
        total += sum(line_cost(citation_line(c, e.node_id)) for c in e.citations)
    if plan.archived:
        total += line_cost(ARCHIVED_HEADER)
    for e in plan.archived:
        total += line_cost(anchor_line(e.node_id))
        total += sum(line_cost(citation_line(c, e.node_id)) for c in e.citations)
    return total


def archived_anchor_chars(graph: GraphData) -> int:
    """What archived anchors cost (the orphan pass's measure)."""
    return sum(line_cost(anchor_line(n.id)) for n in graph.nodes.values() if n.archived and not n.orphaned)


def format_node_full(node: Node, level: str, edges: Iterable[Edge], promoted: bool, extra: list[str] | None = None) -> str:
    status = "promoted from archive" if promoted else node.state
    lines = [f"▸ {node.id} ({level}, {status})", f"  gist: {node.gist}"]
    if node.notes:
        lines.append("  notes:")
        lines.extend(f"    - {n}" for n in node.notes)
    if node.touches:
        lines.append("  touches: " + " · ".join(node.touches))
    if node.credited_ts:
        lines.append(f"  maintenance credits: {len(node.credited_ts)}")
    edge_list = sorted(edges, key=lambda e: (e.src, e.rel, e.dst))
    if edge_list:
        lines.append("  edges:")
        lines.extend("  " + edge_line(e) for e in edge_list)
    lines.extend(extra or [])
    return "\n".join(lines)


def not_found_line(node_id: str) -> str:
    return f"▸ {node_id}: NOT FOUND (try kg_search — it reaches all tiers)"


# -- Incremental exact charge (compaction's measure) ----------------------------
# Compaction tries hundreds of state changes per run; re-rendering the level for
# each costs milliseconds on a large graph. ChargeTracker keeps the same number
# as charge() under state changes. Node lines, and edges whose citing end the
# states alone decide, are priced per change. An edge between two active nodes
# is cited under whichever end the cluster order renders first, so it is held as
# a range (shorter id shown .. longer id shown) and `exact()` settles the ranges
# with one cluster ordering, only when a comparison falls inside them.

_NODE_LINE_EXTRA = line_cost(node_line("", ""))
_ANCHOR_EXTRA = line_cost(anchor_line(""))
_CITATION_EXTRA = line_cost(citation_line(Edge("", "", ""), ""))
_ACTIVE_HEADER_COST = line_cost(ACTIVE_HEADER)
_ARCHIVED_HEADER_COST = line_cost(ARCHIVED_HEADER)


class ChargeTracker:
    """The level charge of `graph` with some nodes moved to other states.

    Moves live here, not in the graph, so a tried and reverted move journals
    nothing; `moves()` is what to commit. States are "active", "archived",
    "orphaned"; None is an endpoint that is no node of this graph. Only edges
    whose other end is not orphaned are ever visited.
    """

    def __init__(self, graph: GraphData):
        self.graph = graph
        self._nodes = graph.nodes
        self.active: set[str] = set(graph.ids_in_state("active"))
        self.archived: set[str] = set(graph.ids_in_state("archived"))
        self.active_lines = sum(self.node_cost(i) for i in self.active)
        self.anchor_chars = sum(len(i) + _ANCHOR_EXTRA for i in self.archived)
        self._fixed = 0  # live edges whose cost the states alone decide
        self._lo = self._hi = 0  # active–active edges with ends of unequal length: shorter / longer shown
        self._uneven: set[EdgeKey] = set()
        self._orphaned_here: set[str] = set()  # orphaned by a move here, not yet in the graph's index
        self._degree: dict[str, int] = {}  # live degree of a node while active
        self._promotion: dict[str, int] = {}  # promotion_floor's per-node part, until a neighbour moves
        self._exact: int | None = None
        self._log: list[tuple[str, str]] = []  # (node id, prior state), for undo and moves()
        seen: set[EdgeKey] = set()
        for node_id in (*self.active, *self.archived):
            for key in graph.unorphaned_incident(node_id):
                if key not in seen:
                    seen.add(key)
                    self._account(key, 1)

    def node_cost(self, node_id: str) -> int:
        """What the node's `id: gist` line costs when active."""
        return len(node_id) + len(self._nodes[node_id].gist) + _NODE_LINE_EXTRA

    def state(self, node_id: str) -> str | None:
        if node_id in self.active:
            return "active"
        if node_id in self.archived:
            return "archived"
        return "orphaned" if node_id in self._nodes else None

    def _price(self, key: EdgeKey) -> tuple[int, int]:
        """(low, high) cost of an edge's citation; 0 when hidden; low < high only between active ends."""
        src, dst, rel = key
        active, archived, nodes = self.active, self.archived, self._nodes
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
        if src in archived and dst not in nodes:
            return base + len(dst), base + len(dst)
        if dst in archived and src not in nodes:
            return base + len(src), base + len(src)
        return 0, 0  # two archived ends, or an orphaned one: hidden

    def _account(self, key: EdgeKey, sign: int) -> None:
        low, high = self._price(key)
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
        return (_ACTIVE_HEADER_COST if self.active else 0) + (_ARCHIVED_HEADER_COST if self.archived else 0)

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
        for key in keys:
            self._account(key, -1)
        if old == "active":
            self.active.discard(node_id)
            self.active_lines -= self.node_cost(node_id)
        elif old == "archived":
            self.archived.discard(node_id)
            self.anchor_chars -= len(node_id) + _ANCHOR_EXTRA
        else:
            self._orphaned_here.discard(node_id)
        if state == "active":
            self.active.add(node_id)
            self.active_lines += self.node_cost(node_id)
        elif state == "archived":
            self.archived.add(node_id)
            self.anchor_chars += len(node_id) + _ANCHOR_EXTRA
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
        self._exact = None
        self._log.append((node_id, old))

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
                active = self.active
                neighbours: dict[str, set[str]] = {}
                for node_id in active:
                    mine = neighbours[node_id] = set()
                    for src, dst, _ in self.graph.unorphaned_incident(node_id):
                        other = dst if src == node_id else src
                        if other in active and other != node_id:
                            mine.add(other)
                degree = {i: self._live_degree(i) for i in active}
                pos = {i: n for n, i in enumerate(order_clusters(neighbours, degree))}
                for src, dst, _ in self._uneven:
                    shown = dst if pos[src] < pos[dst] else src
                    extra += len(shown) - min(len(src), len(dst))
            self._exact = self.low + extra
        return self._exact

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
            delta = self.node_cost(node_id) - len(node_id) - _ANCHOR_EXTRA
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


def fast_charge(graph: GraphData) -> int:
    """charge(graph), without building the lines or scanning orphaned nodes."""
    return ChargeTracker(graph).exact()
