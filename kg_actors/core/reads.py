"""What kg_read shows: the full read's level parts, node blocks, and the notices.

Every function returns lines with the effects their delivery causes, so
paging can hand a node's "seen" or "read" to the part that shows it.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from . import render
from .model import Edge, GraphData, Node
from .paging import Line

ANNOUNCE = 'Full graph now in context — announce "I have recalled KG Memories".'
TITLES = {"user": "USER GRAPH", "project": "PROJECT GRAPH", "maintain": "MAINTAIN GRAPH"}


@attrs.frozen
class LevelPart:
    level: str
    title: str
    body: tuple[Line, ...]
    health: str
    active: int
    archived: int
    shown: tuple[str, ...]  # ids whose gist the body shows


def health_line(graph: GraphData, plan: render.LevelPlan) -> str:
    n = len(plan.active)
    touching: dict[str, int] = {e.node_id: 0 for e in plan.active}
    edges = 0
    for entry in plan.entries():
        for edge in entry.citations:
            edges += 1
            for end in (edge.src, edge.dst):
                if end in touching:
                    touching[end] += 1
    unconnected = sum(1 for c in touching.values() if c == 0)
    pct = round(100 * unconnected / n) if n else 0
    avg = round(sum(touching.values()) / n, 1) if n else 0.0
    return f"HEALTH: {n} nodes, {edges} edges, {unconnected} unconnected ({pct}%), avg {avg} edges/node"


def level_part(graph: GraphData, level: str, preloaded: frozenset[str] = frozenset()) -> LevelPart:
    plan = render.plan_level(graph)
    body: list[Line] = []
    shown: list[str] = []
    if plan.active:
        body.append((render.ACTIVE_HEADER, None))
    for entry in plan.active:
        if entry.node_id in preloaded:
            body.append((render.preloaded_line(entry.node_id), None))
        else:
            body.append((render.node_line(entry.node_id, graph.nodes[entry.node_id].gist), {"seen": [entry.node_id]}))
            shown.append(entry.node_id)
        body.extend((render.citation_line(c, entry.node_id), None) for c in entry.citations)
    if plan.archived:
        body.append((render.ARCHIVED_HEADER, None))
    for entry in plan.archived:
        body.append((render.anchor_line(entry.node_id), None))
        body.extend((render.citation_line(c, entry.node_id), None) for c in entry.citations)
    return LevelPart(level, TITLES[level], tuple(body), health_line(graph, plan), len(plan.active),
                     len(plan.archived), tuple(shown))


def level_header(part: LevelPart) -> str:
    return f"=== {part.title} — {part.active} active, {part.archived} archived ==="


def full_read_lines(parts: Iterable[LevelPart], debt: dict[str, str], preloaded_count: int,
                    notes: list[str], sid: str, first: bool, notices: list[str]) -> list[Line]:
    lines: list[Line] = []
    if preloaded_count:
        lines.append((
            f"{preloaded_count} gist(s) already shown by the session-start preload render as id-only "
            "'(preloaded)' anchors below — kg_read(session_id, ids=[...]) re-reads any in full.", None))
        lines.append(("", None))
    for part in parts:
        lines.append((level_header(part), None))
        lines.extend(part.body)
        lines.append((part.health, None))
        if debt.get(part.level):
            lines.append((debt[part.level], None))
    for note in notes:
        lines.append(("", None))
        lines.append((note, None))
    lines.append(("", None))
    lines.append((f"Session: {sid}", None))
    if first:
        lines.append((ANNOUNCE, None))
    for notice in notices:
        lines.append((notice, None))
    lines[-1] = (lines[-1][0], {**(lines[-1][1] or {}), "full_read": [True]})
    return lines


def node_block(level: str, node: Node, edges: list[Edge], promoted: bool) -> list[Line]:
    text = render.format_node_full(node, level, edges, promoted)
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
