"""Read: the full read of a session's graphs, a read of named nodes, the maintain read, and their pages.

A reply longer than the harness's limit is split into parts; the first goes
out now, the rest wait in the session (kg_read more=true). What a part shows
is marked seen as of the render, so another session's write between the
render and the delivery still finds this session's view stale. A node read
of an archived node promotes it back (outside a maintenance pass).

A part's effects apply once its reply is written to the client; a part whose
client was gone by then goes back in front of the pending ones, unless a newer
read replaced them (formal/models/dropped_reply.py).
"""

from __future__ import annotations

from typing import Any

from .. import reply_effects
from ..core import debt, merge, reads, render, replies
from ..core.conflict_notice import conflict_notice
from ..core.errors import InvalidInput
from ..core.held_names import edge_held, name_held
from ..core.model import Edge, GraphReader, Node
from ..core.paging import NOTHING_PENDING, Line, split
from ..core.seen import at_level
from ..harness import profiles
from ..session_messages import SessionView
from ..storage.machine_id import machine_id
from . import graph_troubles
from .floor import Floor
from .session import Opened


async def read(floor: Floor, opened: Opened, harness: profiles.Harness, node_ids: list[str] | None,
               level: str | None, maintenance: bool) -> str:
    view = opened.view
    if maintenance:
        await floor.sessions.set_maintenance(sid=view.sid)
        got = await floor.sessions.get(sid=view.sid)
        view = got if got is not None else view
    rendered_at = floor.clock()  # a part delivered later still shows the graph as of now
    if node_ids:
        lines = await _node_read(floor, view, node_ids, level, list(opened.notices))
    elif level == "maintain":
        lines = await _maintain_read(floor, view, list(opened.notices))
    else:
        if level not in (None, "user", "project"):
            raise InvalidInput("level", f"'{level}' is not one of user, project, maintain")
        lines = await _full_read(floor, view, list(opened.notices))
    return await deliver(floor, view, harness, lines, rendered_at)


async def more(floor: Floor, sid: str) -> str:
    view = await floor.session(sid)
    nxt = await floor.sessions.next_page(sid=sid)
    if nxt is None:
        return NOTHING_PENDING
    text, effects, gen = nxt
    if effects.get("compactions") and effects["compactions"] != await _compactions(floor, view):
        # Spec 003: a compaction drops undelivered parts (they show tiers and gists as they were).
        await floor.sessions.set_pages(sid=sid, parts=[], effects=[])
        return COMPACTED_SINCE
    await _on_delivery(floor, view, text, effects, gen)
    return text


async def deliver(floor: Floor, view: SessionView, harness: profiles.Harness, lines: list[Line],
                  rendered_at: float | None = None) -> str:
    parts = split(lines, harness.part_limit, harness.measure, view.sid)
    if rendered_at is not None:
        # What a part shows dates from the render: a write by another session between the render and
        # the delivery must still find this session's view of the node stale.
        parts = [(text, {**effects, "at": [rendered_at]}) for text, effects in parts]
    first_text, first_effects = parts[0]
    if len(parts) > 1:  # each later part notes the compactions it was made after
        made_after = await _compactions(floor, view)
        parts[1:] = [(text, {**effects, "compactions": made_after}) for text, effects in parts[1:]]
    # A new read replaces undelivered parts of an older one.
    gen = await floor.sessions.set_pages(sid=view.sid, parts=[p for p, _ in parts[1:]],
                                         effects=[e for _, e in parts[1:]])
    await _on_delivery(floor, view, first_text, first_effects, gen)
    return first_text


COMPACTED_SINCE = ("Nothing more to read: the memory was compacted since that kg_read (its remaining parts showed "
                   "it as it was). Call kg_read(session_id) again for the current view.")


async def _compactions(floor: Floor, view: SessionView) -> list[list[Any]]:
    """[level, compactions so far] for each of the session's graphs (a list: parts are kept as JSON)."""
    return [[lvl, handle.view_now().compactions] for lvl, handle in await floor.levels_of(view)]


async def _on_delivery(floor: Floor, view: SessionView, text: str, effects: dict[str, Any], gen: int | None) -> None:
    """The part's effects once its reply is written; handed back if its client is gone by then."""

    async def delivered() -> None:
        await apply_effects(floor, view, effects)

    async def abandoned() -> None:
        if gen is not None:
            await floor.sessions.reoffer_page(sid=view.sid, gen=gen, text=text, effects=effects)

    if not reply_effects.defer(delivered, abandoned):
        await delivered()


async def apply_effects(floor: Floor, view: SessionView, effects: dict[str, Any]) -> None:
    now = floor.clock()
    seen_at = min(effects.get("at", [now])[0], now)  # the render's time: the view is as old as that
    if effects.get("seen"):  # [level, id] pairs, as a part kept in sessions.json holds them
        await floor.sessions.mark_seen(sid=view.sid, refs=[(lvl, i) for lvl, i in effects["seen"]],
                                       via=effects.get("via", ["full_read"])[0], at=seen_at)
    reads_by_level: dict[str, list[str]] = {}
    for lvl, node_id in effects.get("read", []):
        reads_by_level.setdefault(lvl, []).append(node_id)
    for lvl, node_ids in reads_by_level.items():
        await floor.sessions.mark_seen(sid=view.sid, refs=[(lvl, i) for i in node_ids], via="read", at=seen_at,
                                       full=True)
        if not view.maintenance:
            handle = await floor.graph_for(view, lvl)
            promoted = await handle.record_reads(ids=node_ids, now=now)
            for node_id, (was_promoted, rescued) in promoted.items():
                if was_promoted:
                    floor.publish({"type": "node_recalled", "level": lvl, "id": node_id,
                                   "rescued_from_orphan": rescued, "source_session": view.sid,
                                   "project_path": view.project_path})
    if effects.get("full_read"):
        await floor.sessions.mark_full_read(sid=view.sid, now=now)


def _cross_level_edges(graph: GraphReader, node_id: str) -> list[Edge]:
    """The project's edges that reach user node `node_id` (a bare id resolves to the project's own
    node first, so none when the project has one): spec 003's node read shows all of a node's edges."""
    return [] if node_id in graph.nodes else list(graph.incident(node_id))


async def _found(floor: Floor, view: SessionView, node_ids: list[str], level: str | None
                 ) -> dict[str, tuple[str, Node, list[Edge]]]:
    """Each id's (level, node, its edges there): the given level, else user first, then project, as
    `Floor.find` looks. From each graph's read view, so a read never queues behind a graph's mailbox (a
    compaction a write made due held reads 20-30 ms); one request per level while a refusal is pending."""
    levels = [(level, await floor.graph_for(view, level))] if level is not None else await floor.levels_of(view)
    found: dict[str, tuple[str, Node, list[Edge]]] = {}
    for lvl, handle in levels:
        wanted = list(dict.fromkeys(i for i in node_ids if i not in found))
        if not wanted:
            break
        kept = handle.view_kept()
        if kept is None:
            got = await handle.get_nodes(ids=wanted)
        else:
            nodes = kept.graph.nodes
            got = [None if (n := nodes.get(i)) is None else (n, list(kept.graph.incident(i))) for i in wanted]
        mask = handle.snapshot().lineage.mask  # each as agents are shown it (core/withheld.py)
        for node_id, one in zip(wanted, got, strict=True):
            if one is not None and not name_held(node_id):  # a name holding a secret: left out (held_names.py)
                found[node_id] = (lvl, mask.node(one[0]), [mask.edge(e) for e in one[1] if not edge_held(e)])
    return found


async def _node_read(floor: Floor, view: SessionView, node_ids: list[str], level: str | None,
                     notices: list[str]) -> list[Line]:
    if not all(isinstance(node_id, str) and node_id.strip() for node_id in node_ids):
        raise InvalidInput("ids", "each must be a node id: a string with a character other than a space")
    node_ids = list(dict.fromkeys(node_ids))  # an id asked again is shown once, where it was first asked
    found = await _found(floor, view, node_ids, level)
    blocks: list[list[Line]] = []
    for node_id in node_ids:
        if node_id not in found:  # one whose id holds a secret too: as rename and delete, no oracle for a guess
            blocks.append([(render.not_found_line(node_id), None)])
            continue
        lvl, node, edges = found[node_id]
        if lvl == "user" and view.project_path is not None:
            project = await floor.graph_for(view, "project")
            project_view = project.view_kept() or await project.current()
            edges = edges + [project_view.graph.lineage.mask.edge(e)
                             for e in _cross_level_edges(project_view.graph, node_id) if not edge_held(e)]
        if floor.touch_check is not None:  # a touch whose file is gone is shown so, with where it went
            node = await floor.touch_check.marked(node, view.project_path if lvl == "project" else None)
        blocks.append(reads.node_block(lvl, node, edges, promoted=not node.active and not view.maintenance))
        aside = node.extra.get(merge.CONFLICTS_FIELD)
        notice = conflict_notice(lvl, node_id, node.written, aside, machine_id(floor.layout.root) if aside else "")
        if notice:  # versions a sync set aside, until a write of the node resolves them
            notices.append(notice)
    return reads.node_read_lines(blocks, view.sid, notices)


async def _full_read(floor: Floor, view: SessionView, notices: list[str]) -> list[Line]:
    preloaded = view.preloaded
    now = floor.clock()
    held = await floor.sessions.held_whole(sid=view.sid)  # shown whole since the context began: not again
    parts, debt_lines, missing = [], {}, {}
    for lvl, handle in await floor.levels_of(view):
        if floor.directory.unreadable(handle.key):  # served empty: said first, and not shown as a graph
            missing[lvl] = graph_troubles.troubles(floor, lvl, handle)
            continue
        gview = await handle.settled(now)
        held_here = frozenset(i for (level, i), at in held.items() if level == lvl and _unchanged(gview.graph, i, at))
        parts.append(floor.views.level_part(handle.key, gview, lvl, at_level(preloaded, lvl), now, held_here))
        debt_lines[lvl] = debt.debt_line(await handle.debt(now=now))
        notices.extend(graph_troubles.troubles(floor, lvl, handle))
    first = view.full_read_ts is None
    if view.project_path is None and replies.user_only_notice(view.sid) not in notices:
        notices.append(replies.user_only_notice(view.sid))
    return reads.full_read_lines(parts, debt_lines, len(preloaded), view.sid, first, notices, missing=missing)


def _unchanged(graph: GraphReader, node_id: str, seen_at: float) -> bool:
    """Whether the node is as the session saw it then: not written since (what it holds is stale if so)."""
    node = graph.nodes.get(node_id)
    stamp = (node.written or {}).get("ts") if node is not None else None
    return node is not None and (not isinstance(stamp, int | float) or stamp <= seen_at)


async def _maintain_read(floor: Floor, view: SessionView, notices: list[str]) -> list[Line]:
    handle = await floor.graph("maintain")
    part = reads.level_part((await handle.current()).graph, "maintain")
    lines: list[Line] = [(reads.level_header(part), None), *((b.text, None) for b in part.body),
                         (part.health, None), ("", None),
                         (f"Session: {view.sid}", None)]
    lines.extend((n, None) for n in notices)
    return lines
