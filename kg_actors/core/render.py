"""The lines a read shows, and the size budgets charge: one renderer, one charge.

A level body is: `ACTIVE:` header, each active node's `  id: gist` line in
cluster order with its live edges cited beneath it once, then the `ARCHIVED`
header and `  id` anchors (alphabetical) with the live edges only they can
cite. The charge of a level is exactly the length of that text (each line plus
its newline), and `edge_is_live` is the one predicate both use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import attrs

from .held_names import edge_held, masked_names, name_held
from . import ids
from .model import Edge, EdgeKey, GraphReader, Node
from .plain_text import note_item, one_line

ACTIVE_HEADER = "ACTIVE:"
ARCHIVED_HEADER = "ARCHIVED (use kg_read with id to view full content):"


# Every line below goes through one_line: a file written by hand or by another implementation may
# hold a line break or a control character in a gist, an id or a touch, and no stored text may forge a line.

def node_line(node_id: str, gist: str) -> str:
    return f"  {one_line(node_id)}: {one_line(gist)}"


def preloaded_line(node_id: str) -> str:
    return f"  {one_line(node_id)} (preloaded)"


def held_line(node_id: str) -> str:
    return f"  {one_line(node_id)} (in context)"


def anchor_line(node_id: str) -> str:
    return f"  {one_line(node_id)}"


def citation_line(edge: Edge, under: str) -> str:
    if edge.src == under:
        return one_line(f"    → {edge.rel} → {edge.dst}")
    return one_line(f"    ← {edge.rel} ← {edge.src}")


def edge_line(edge: Edge) -> str:
    """A standalone edge, as node reads, search and sync show it."""
    return one_line(f"  {edge.src} --{edge.rel}--> {edge.dst}")


def line_cost(line: str) -> int:
    return len(line) + 1


def edge_is_live(edge: Edge, nodes: Mapping[str, Node]) -> bool:
    """Shown and charged: no orphaned end, and an active node of this graph at one end.

    An archived node shows as its id and its edges to active nodes (spec 000's tiers), so its edges to
    an end outside this graph (a file, a user node seen from a project) stay hidden until it is
    promoted, as an edge between two archived ends does, and as kg-memory renders and prices them:
    counting those made a store kg-memory had settled under budget look over it here, and our first
    compaction re-tiered it (16 archived, 13 orphaned at once).
    """
    return not edge_held(edge) and _shown_end(edge, nodes)  # held: left out of every agent's view (held_names.py)


def _shown_end(edge: Edge, nodes: Mapping[str, Node]) -> bool:
    a, b = nodes.get(edge.src), nodes.get(edge.dst)
    if (a is not None and a.orphaned) or (b is not None and b.orphaned):
        return False
    return (a is not None and a.active) or (b is not None and b.active)


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
    withheld: int = 0  # nodes and edges left out: a name of theirs holds a secret (held_names.py)

    def entries(self) -> Iterable[Entry]:
        yield from self.active
        yield from self.archived


def cluster_order(graph: GraphReader, active_ids: Iterable[str], degree: Mapping[str, int]) -> list[str]:
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
    rank = _ranker(degree)
    seen: set[str] = set()
    components: list[list[str]] = []
    for seed in sorted(neighbours, key=rank):
        if seed not in seen:
            components.append(_spread(seed, neighbours, rank, seen))
    components.sort(key=lambda c: (-len(c), -degree.get(c[0], 0), c[0]))
    return [i for c in components for i in c]


def component_order(neighbours: Mapping[str, set[str]], degree: Mapping[str, int],
                    component: Iterable[str]) -> list[str]:
    """One connected component's nodes in the order order_clusters gives them (components never
    share a node, so the order within one does not depend on the others). `neighbours` and `degree`
    need hold only this component's nodes."""
    rank = _ranker(degree)
    return _spread(min(component, key=rank), neighbours, rank, set())


def _ranker(degree: Mapping[str, int]) -> Callable[[str], tuple[int, str]]:
    def rank(node_id: str) -> tuple[int, str]:
        return (-degree.get(node_id, 0), node_id)

    return rank


def _spread(seed: str, neighbours: Mapping[str, set[str]], rank: Callable[[str], tuple[int, str]],
            seen: set[str]) -> list[str]:
    """Breadth first from the component's best-ranked node, each frontier's new neighbours by rank."""
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
    return order


def plan_level(graph: GraphReader, anchors: bool = True) -> LevelPlan:
    """Which lines a level shows, in order, and which edge each cites.

    Active entries come first and cite every live edge of theirs, so without
    `anchors` the active entries are exactly the same (for a reader that will
    show no archived anchor: the preload, when its gists alone overflow it).
    """
    active_ids = [i for i in graph.ids_in_state("active") if not name_held(i)]  # cluster_order sorts
    archived_ids = sorted(i for i in graph.ids_in_state("archived") if not name_held(i)) if anchors else []
    withheld = sum(1 for s in ("active", "archived") for i in graph.ids_in_state(s) if name_held(i))
    live: dict[str, list[Edge]] = {}
    held_edges: set[EdgeKey] = set()
    for node_id in active_ids + archived_ids:
        mine: list[Edge] = []
        live[node_id] = mine
        for e in graph.incident(node_id):
            if edge_held(e):
                held_edges.add(e.key)
            elif _shown_end(e, graph.nodes):
                mine.append(e)
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
    return LevelPlan(active, archived, len(cited), withheld + len(held_edges))


def live_edge_count(graph: GraphReader) -> int:
    """How many edges a full read shows (plan_level(graph).live_edges), without planning it."""
    nodes = graph.nodes
    return sum(1 for e in graph.edges.values() if edge_is_live(e, nodes))


def plan_lines(graph: GraphReader, plan: LevelPlan, preloaded: frozenset[str] = frozenset()) -> list[str]:
    lines: list[str] = []
    if plan.active:
        lines.append(ACTIVE_HEADER)
    for e in plan.active:
        if e.node_id in preloaded:
            lines.append(preloaded_line(e.node_id))
        else:
            lines.append(node_line(e.node_id, graph.lineage.mask.gist(graph.nodes[e.node_id])))
        lines.extend(citation_line(c, e.node_id) for c in e.citations)
    if plan.archived:
        lines.append(ARCHIVED_HEADER)
    for e in plan.archived:
        lines.append(anchor_line(e.node_id))
        lines.extend(citation_line(c, e.node_id) for c in e.citations)
    return lines


def level_body(graph: GraphReader) -> str:
    """The charged text of a level (preloaded gists are charged in full)."""
    lines = plan_lines(graph, plan_level(graph))
    return "".join(line + "\n" for line in lines)


def charge(graph: GraphReader) -> int:
    """Rendered characters of a level: what the budget counts."""
    plan = plan_level(graph)
    return charge_plan(graph, plan)


def charge_plan(graph: GraphReader, plan: LevelPlan) -> int:
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


def archived_anchor_chars(graph: GraphReader) -> int:
    """What archived anchors cost (the orphan pass's measure)."""
    return sum(line_cost(anchor_line(n.id)) for n in graph.nodes.values() if n.archived and not n.orphaned)


def format_node_full(node: Node, level: str, edges: Iterable[Edge], promoted: bool, extra: list[str] | None = None,
                     status: str | None = None) -> str:
    # `node` as it was before the read: an orphan comes back from orphaned, not from the archive.
    if status is None:
        status = f"promoted from {'orphaned' if node.orphaned else 'archive'}" if promoted else node.state
    lines = [f"▸ {one_line(node.id)} ({level}, {status})",
             f"  gist: {one_line(node.gist)}"]
    if node.notes:
        lines.append("  notes:")
        lines.extend(note_item(n) for n in node.notes)
    if node.touches:
        lines.append(touches_line(node.touches))
    if node.credited_ts:
        lines.append(f"  maintenance credits: {len(node.credited_ts)}")
    edge_list = sorted(edges, key=lambda e: (e.src, e.rel, e.dst))
    if edge_list:
        lines.append("  edges:")
        for e in edge_list:  # with the context its writer gave the relationship (kg_put_edge's notes)
            lines.append("  " + edge_line(e))
            lines.extend(note_item(n, "      ") for n in e.notes)
    lines.extend(extra or [])
    return "\n".join(lines)


def touches_line(touches: Iterable[str]) -> str:
    """A node's touches as every node view shows them (a gone one marked so by TouchCheck first)."""
    return "  touches: " + " · ".join(map(one_line, touches))


def not_found_line(node_id: str) -> str:
    # An id holding a key's shape is masked whether a node has it or not: the same answer either way.
    return f"▸ {masked_names(ids.shown(node_id))}: NOT FOUND (try kg_search — it reaches all tiers)"
