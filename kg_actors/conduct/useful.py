"""Votes and credits: a working session endorses a node once (a vote), a maintenance pass credits it.

Each decision, accepted or refused, is logged to useful.jsonl with how the
session came to see the node (preload, full read, search, a hook).
"""

from __future__ import annotations

import attrs

from ..session_messages import SessionView, VoteState
from .floor import Floor

WORKING_SESSION_CREDITS = ("credits are for a maintenance pass (kg_read maintenance=true); "
                           "a working session endorses with one vote")


@attrs.frozen
class Endorsed:
    accepted: list[str]
    refused: list[tuple[str, str]]
    unorphaned: list[str]
    credits: int | None
    state: VoteState
    view: SessionView


async def useful(floor: Floor, sid: str, node_ids: list[str], credits: int | None) -> Endorsed:
    view = await floor.session(sid)
    sessions = floor.sessions
    if credits is not None and not view.maintenance:
        return Endorsed([], [(i, WORKING_SESSION_CREDITS) for i in node_ids], [], None,
                        await sessions.vote_state(sid=sid), view)
    if view.maintenance and credits is None:
        credits = 1
    now = floor.clock()
    accepted: list[str] = []
    refused: list[tuple[str, str]] = []
    unorphaned: list[str] = []
    state = await sessions.vote_state(sid=sid, ids=node_ids)
    for node_id in dict.fromkeys(node_ids):
        lvl, handle, node = await floor.find(view, node_id)
        if node is None or handle is None or lvl is None:
            refused.append((node_id, "not found"))
            floor.log_useful(view, node_id, None, _via(state, None, node_id), {"refused": "not_found"})
            continue
        why = await sessions.like(sid=sid, level=lvl, node_id=node_id, credits=credits)
        if why is not None:
            refused.append((node_id, why))
            floor.log_useful(view, node_id, lvl, _via(state, lvl, node_id), {"refused": why})
            continue
        outcome = await handle.endorse(node_id=node_id, now=now, credits=credits)
        accepted.append(node_id)
        if outcome == "unorphaned":
            unorphaned.append(node_id)
        via = "maintenance" if credits is not None else _via(state, lvl, node_id)
        floor.log_useful(view, node_id, lvl, via, {"credits": credits} if credits else {
            "archived": node.archived, "surfaced": via in ("preload", "full_read", "ambient", "file")})
    return Endorsed(accepted, refused, unorphaned, credits, await sessions.vote_state(sid=sid), view)


def _via(state: VoteState, level: str | None, node_id: str) -> str:
    """How the session came to see the node (at `level`; None: a node not found, at whichever level)."""
    return next((via for (lvl, i), via in state.seen_via.items() if i == node_id and level in (None, lvl)), "unknown")
