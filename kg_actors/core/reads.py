"""What kg_read shows: the full read's level parts, node blocks, and the notices.

Every function returns lines with the effects their delivery causes, so
paging can hand a node's "seen" or "read" to the part that shows it.
"""

from __future__ import annotations
from collections.abc import Mapping
from typing import Any



import attrs

from .held_names import withheld_line
from . import node_room, render
from .model import Edge, GraphReader, Node
from . import constants as C
from .paging import Line

ANNOUNCE = 'Full graph now in context — announce "I have recalled KG Memories".'
TITLES = {"user": "USER GRAPH", "project": "PROJECT GRAPH", "maintain": "MAINTAIN GRAPH"}


def partial_line(shown: list[str], missing: list[str]) -> str:
    """Said instead of ANNOUNCE while a graph could not be loaded: what is in context, what is not, and that
    the user is to hear of it (the why and the fix open the read)."""
    have = f"Only the {' and '.join(shown)} memory is in context" if shown else "No memory is in context"
    return (f"{have}: the {' and '.join(missing)} memory is missing (the top of this read says why "
            'and how to bring it back) — tell the user so when you announce "I have recalled KG Memories".')


@attrs.frozen
class BodyLine:
    """One line of a level's body; anchors and citations carry the value the read ladder drops by."""

    text: str
    effects: dict[str, Any] | None = None
    kind: str | None = None  # "anchor" | "edge" | None (never dropped)
    value: float = 0.0


@attrs.frozen
class LevelPart:
    level: str
    title: str
    body: tuple[BodyLine, ...]
    health: str
    active: int
    archived: int
    held: int = 0  # active gists shown as '(in context)' anchors: the session holds them whole already


def health_line(graph: GraphReader, plan: render.LevelPlan, edges: int | None = None) -> str:
    """`edges`: the level's live edge count, for a plan without its archived entries (their
    citations never touch an active node: an active node's entry cites all of its edges)."""
    n = len(plan.active)
    touching: dict[str, int] = {e.node_id: 0 for e in plan.active}
    for entry in plan.active:
        for edge in entry.citations:
            for end in (edge.src, edge.dst):
                if end in touching:
                    touching[end] += 1
    if edges is None:
        edges = plan.live_edges
    # Not DEBT's "unconnected" (spec 000: active nodes with no edge at all): a read hides an edge to an orphaned
    # node, so a node whose edges all lead there counts here only. One word for both read as one count, twice.
    unshown = sum(1 for c in touching.values() if c == 0)
    pct = round(100 * unshown / n) if n else 0
    avg = round(sum(touching.values()) / n, 1) if n else 0.0
    said = f"HEALTH: {n} nodes, {edges} edges, {unshown} with no edge shown ({pct}%), avg {avg} edges/node"
    return said + (f" {withheld_line(plan.withheld)}" if plan.withheld else "")


def level_part(graph: GraphReader, level: str, preloaded: frozenset[str] = frozenset(),
               scores: Mapping[str, float] | None = None, anchors: bool = True,
               live_edges: int | None = None) -> LevelPart:
    """A level's full-read body; `scores` (unified pool) rank what the ladder hides first.

    Without `anchors` the body stops at the archived section's header (kept, so
    the text measures what the full body's ladder measures once its anchors are
    gone); the header counts and the health line still describe the whole level
    (its edge count is `live_edges` when given: a recent count, see Derived).
    """
    scores = scores or {}
    plan = render.plan_level(graph, anchors)

    def value(edge: Edge) -> float:
        return scores.get(edge.src, DEFAULT_SCORE) + scores.get(edge.dst, DEFAULT_SCORE)

    body: list[BodyLine] = []
    if plan.active:
        body.append(BodyLine(render.ACTIVE_HEADER))
    for entry in plan.active:
        if entry.node_id in preloaded:
            body.append(BodyLine(render.preloaded_line(entry.node_id)))
        else:
            line = render.node_line(entry.node_id, graph.lineage.mask.gist(graph.nodes[entry.node_id]))
            body.append(BodyLine(line, {"seen": [[level, entry.node_id]]}))
        body.extend(BodyLine(render.citation_line(c, entry.node_id), None, "edge", value(c)) for c in entry.citations)
    archived = len(plan.archived) if anchors else len(graph.ids_in_state("archived"))
    if archived:
        body.append(BodyLine(render.ARCHIVED_HEADER))
    for entry in plan.archived:
        body.append(BodyLine(render.anchor_line(entry.node_id), None, "anchor", scores.get(entry.node_id, 0.0)))
        body.extend(BodyLine(render.citation_line(c, entry.node_id), None, "edge", value(c)) for c in entry.citations)
    if not anchors and live_edges is None:
        live_edges = render.live_edge_count(graph)
    health = health_line(graph, plan, None if anchors else live_edges)
    return LevelPart(level, TITLES[level], tuple(body), health, len(plan.active), archived)


def with_preloaded(part: LevelPart, preloaded: frozenset[str], held: frozenset[str] = frozenset()) -> LevelPart:
    """The same part with the gists the session already holds shown as id-only anchors: the preload's,
    and those `held` whole in its context since (shown by a recall, a push, a read)."""
    if not preloaded and not held:
        return part
    body, count = [], 0
    for b in part.body:
        node_id = b.effects["seen"][0][1] if b.effects and b.effects.get("seen") else None
        if node_id is not None and node_id in preloaded:
            b = BodyLine(render.preloaded_line(node_id))
        elif node_id is not None and node_id in held:
            b, count = BodyLine(render.held_line(node_id)), count + 1
        body.append(b)
    return attrs.evolve(part, body=tuple(body), held=count)


# A node with no score (the fresh tier is unscored) counts as middling when the ladder ranks edges.
DEFAULT_SCORE = 0.5


def level_header(part: LevelPart) -> str:
    return f"=== {part.title} — {part.active} active, {part.archived} archived ==="


def _fit(parts: list[LevelPart], budget: int, fixed: int) -> tuple[list[list[BodyLine]], int, int]:
    """Hide the lowest-scored anchors, then the lowest-value edges, until the read fits. Never a gist."""
    bodies = [list(p.body) for p in parts]
    size = fixed + sum(len(b.text) + 1 for body in bodies for b in body)
    hidden = {"anchor": 0, "edge": 0}
    for kind in ("anchor", "edge"):
        if size <= budget:
            break
        candidates = sorted(((b.value, i, j) for i, body in enumerate(bodies) for j, b in enumerate(body)
                             if b.kind == kind), key=lambda t: (t[0], t[1], t[2]))
        drop: set[tuple[int, int]] = set()
        for _, i, j in candidates:
            if size <= budget:
                break
            drop.add((i, j))
            size -= len(bodies[i][j].text) + 1
            hidden[kind] += 1
            if kind == "anchor":
                # The edges cited beneath an anchor go with it: left behind, they would read as
                # the edges of whichever node is shown above them.
                k = j + 1
                while k < len(bodies[i]) and bodies[i][k].kind == "edge":
                    drop.add((i, k))
                    size -= len(bodies[i][k].text) + 1
                    hidden["edge"] += 1
                    k += 1
        bodies = [[b for j, b in enumerate(body) if (i, j) not in drop] for i, body in enumerate(bodies)]
    return bodies, hidden["anchor"], hidden["edge"]


def degraded_note(anchors_hidden: int, edges_hidden: int) -> str:
    return (f"Note: output degraded to fit the inline budget — {anchors_hidden} archived anchor(s) and "
            f"{edges_hidden} edge(s) hidden. kg_search reaches everything; a /kg-maintain pass would "
            "restore headroom.")


def full_read_lines(parts: list[LevelPart], debt: dict[str, str], preloaded_count: int,
                    sid: str, first: bool, notices: list[str], budget: int = C.READ_CHAR_BUDGET,
                    missing: Mapping[str, list[str]] | None = None) -> list[Line]:
    """`missing`: the levels that could not be loaded, each with what is said of it; said first, and no full
    graph is claimed while one is missing."""
    missing = missing or {}
    head: list[str] = [t for said in missing.values() for t in said] + [""] * bool(missing)
    if preloaded_count:
        head += [f"{preloaded_count} gist(s) already shown by the session-start preload render as id-only "
                 "'(preloaded)' anchors below — kg_read(session_id, ids=[...]) re-reads any in full.", ""]
    held = sum(p.held for p in parts)
    if held:
        head += [f"{held} gist(s) this session was already shown whole (by a recall, a push or a read) render "
                 "as id-only '(in context)' anchors below — kg_read(session_id, ids=[...]) re-reads any in full.",
                 ""]
    closing = [partial_line([p.level for p in parts], list(missing))] if missing else [ANNOUNCE] * first
    tail = ["", f"Session: {sid}"] + closing + list(notices)
    fixed = sum(len(t) + 1 for t in head + tail)
    fixed += sum(len(level_header(p)) + len(p.health) + 2 + len(debt.get(p.level, "")) + 1 for p in parts)
    bodies, anchors_hidden, edges_hidden = _fit(parts, budget, fixed)
    if anchors_hidden or edges_hidden:
        # The note saying so is part of the read: fit again with room for it (counts at their largest).
        kinds = [b.kind for p in parts for b in p.body]
        reserve = len(degraded_note(kinds.count("anchor"), kinds.count("edge"))) + 2
        bodies, anchors_hidden, edges_hidden = _fit(parts, budget, fixed + reserve)
    lines: list[Line] = [(t, None) for t in head]
    for part, body in zip(parts, bodies):
        lines.append((level_header(part), None))
        lines.extend((b.text, b.effects) for b in body)
        lines.append((part.health, None))
        if debt.get(part.level):
            lines.append((debt[part.level], None))
    if anchors_hidden or edges_hidden:
        lines.append(("", None))
        lines.append((degraded_note(anchors_hidden, edges_hidden), None))
    lines.extend((t, None) for t in tail)
    lines[-1] = (lines[-1][0], {**(lines[-1][1] or {}), "full_read": [True]})
    return lines


def node_block(level: str, node: Node, edges: list[Edge], promoted: bool) -> list[Line]:
    status = None
    if promoted and (cost := node_room.cost_with(node, edges)) > C.MAX_CHARS_PER_LEVEL:
        status = node_room.unpromotable_status(cost)  # compaction archives it again at once
    text = render.format_node_full(node, level, edges, promoted, status=status)
    out: list[Line] = [(line, None) for line in text.split("\n")]
    out[-1] = (out[-1][0], {"read": [[level, node.id]]})
    return out


def node_read_lines(blocks: list[list[Line]], sid: str, notices: list[str]) -> list[Line]:
    lines: list[Line] = []
    for i, block in enumerate(blocks):
        if i:
            lines.append(("", None))
        lines.extend(block)
    lines.append(("", None))
    lines.append((f"Session: {sid}", None))
    lines.extend((n, None) for n in notices)
    return lines
