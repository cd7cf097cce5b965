"""Other sessions' writes: kg_sync's list since the session last asked, and the pushes on replies.

A push names up to MAX_PUSHED gists other sessions wrote since this one last
looked, each pushed once; a user-level write is pushed only to sessions of
the writer's project, a maintenance pass's writes to nobody.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from .. import reply_effects
from .. import session_messages as sm
from ..core import constants as C
from ..core import replies
from ..core.model import Node
from ..session_messages import SessionView
from .floor import Floor
from .read_views import written_from


async def sync(floor: Floor, sid: str) -> str:
    view = await floor.session(sid)
    since = await floor.sessions.sync_window(sid=sid, now=floor.clock())
    sections: list[str] = []
    shown: list[tuple[str, str]] = []
    cut: set[tuple[str, str]] = set()
    for lvl, handle in await floor.levels_of(view):
        changes = await handle.changes_since(since=since, session=sid)
        mask = handle.snapshot().lineage.mask  # each as agents are shown it (core/withheld.py)
        nodes = [mask.node(c) for kind, c in changes if kind == "node"]
        edges = [c for kind, c in changes if kind == "edge"]
        if nodes or edges:
            sections.append(replies.sync_section(lvl, nodes, edges))
        shown.extend((lvl, n.id) for n in nodes)
        cut.update((lvl, n.id) for n in nodes if replies.sync_gist(n.gist)[1])
    if shown:
        # Its gists are in the context now; a cut one is no view a write can be built on. Every node
        # listed was written before this stamp (the actors stamp writes with this clock).
        await floor.sessions.mark_seen(sid=sid, refs=shown, via="sync", at=floor.clock(), cut=frozenset(cut))
    return replies.sync_reply(sections)


async def push_notice(floor: Floor, sid: str | None, view: SessionView | None = None, *,
                      window: sm.PushWindow | None = None, claimed: bool = False,
                      skip: AbstractSet[tuple[str, str]] = frozenset()) -> str | None:
    """Up to three gists other sessions wrote since this one last looked, each pushed once.

    What was written is read from the graphs' read views, never asked of the actors: a reply
    must not queue behind their mailboxes (a write's reply waited out the compaction its own
    write had made due). `claimed`: the caller already claimed the push `window` (None: nothing
    to push to this session now).
    """
    if not sid:
        return None
    if not claimed:
        window = await floor.sessions.claim_push(sid=sid, now=floor.clock())
    if window is None:
        return None
    if view is None or view.sid != sid:
        view = await floor.sessions.get(sid=sid)
    fresh: list[tuple[str, Node]] = []  # written by another session since the window opened
    levels = await floor.levels_of(view)
    shown_at = floor.clock()  # before the written nodes are read: a write applied after them is not "seen"
    written = written_from(levels)
    for lvl, _ in levels:
        nodes = written(lvl, window.since)
        if window.again:  # shown in a reply its client gave up on, and not rewritten since
            earliest = min(window.again.values()) - 1e-6
            older = written(lvl, earliest)
            held = {n.id for n in nodes}
            nodes = [*nodes, *(n for n in older
                               if n.id not in held and window.again.get(n.id) == (n.written or {}).get("ts"))]
        fresh.extend((lvl, n) for n in nodes if _by_another(n, sid) and (lvl, n.id) not in skip)
    if not fresh:
        return None
    facts = await floor.sessions.push_facts(sid=sid, refs=list({(lvl, n.id) for lvl, n in fresh}),
                                            writers=list({_writer(n) for _, n in fresh}))
    # Seen since it was written: not news. Seen before it (its view since lost to a sync or a restore too):
    # news, said as an update.
    news = [(ts, lvl, n, (lvl, n.id) in facts.seen_at or (lvl, n.id) in facts.replaced) for lvl, n in fresh
            if (ts := _pushable(lvl, n, window, facts)) is not None and facts.seen_at.get((lvl, n.id), 0) < ts]
    if not news:
        return None
    news.sort(key=lambda t: -t[0])
    shown = news[: C.MAX_PUSHED]
    text = replies.push_text([(node.id, node.gist, updated) for _, _, node, updated in shown], len(news))
    seen = sm.MarkSeen(sid=sid, refs=[(lvl, n.id) for _, lvl, n, _ in shown], via="push", at=shown_at,
                       cut=frozenset((lvl, n.id) for _, lvl, n, _ in shown if replies.push_gist(n.gist)[1]))
    items = {n.id: ts for ts, _, n, _ in shown}

    async def delivered() -> None:
        await floor.sessions.tell(seen)

    async def abandoned() -> None:
        await floor.sessions.tell(sm.ReofferPush(sid=sid, items=items))

    if not reply_effects.defer(delivered, abandoned):  # seen once the hook reply is sent (F38)
        await delivered()
    return text


def _writer(node: Node) -> str:
    return str((node.written or {}).get("by") or "")


def _by_another(node: Node, sid: str) -> bool:
    by = _writer(node)
    return bool(by) and by != sid and not node.archived


def _pushable(level: str, node: Node, window: sm.PushWindow, facts: sm.PushFacts) -> float | None:
    """When `node` was written, if this session is to be told of it by who wrote it: a live working
    session (a maintenance pass's writes are pushed to nobody), of this project for a user-level write."""
    writer = facts.writers.get(_writer(node))
    if writer is None:
        # A session this machine does not know: another machine's, its write arrived by kg sync. Its
        # project-level writes are this project's news; a user-level one could be any project's.
        return float((node.written or {}).get("ts") or 0) if level == "project" else None
    if writer.maintenance:
        return None
    if level == "user" and writer.project_path != window.project_path:
        return None
    return float((node.written or {}).get("ts") or 0)
