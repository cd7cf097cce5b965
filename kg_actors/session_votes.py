"""The session registry's votes: kg_useful's endorsements and a maintenance pass's credits, per session.

A part of the registry (`Registry`'s base), kept apart to keep the actor's module small: the state is the
registry's own, touched only by its loop. A vote is for one level's node (core/seen.py).
"""

from __future__ import annotations

from collections.abc import Callable

from . import session_messages as m
from .core import constants as C
from .core.seen import LEVELS, key
from .session_records import Session


class Votes:
    sessions: dict[str, Session]
    _get: Callable[[str], Session]  # the registry's one lookup (AmbientChannels')

    def like(self, msg: m.Like) -> str | None:
        """Record a vote or credit; the refusal reason, or None when it counts."""
        sid, k, credits = msg.sid, key(msg.level, msg.node_id), msg.credits  # a vote is for one level's node
        s = self._get(sid)
        if credits is not None:
            if k in s.credited_ids:  # a pass credits a node once, however many calls name it
                return "already credited this pass"
            left = C.MAINTENANCE_CREDITS_PER_PASS - s.maintenance_credits
            if credits > left:
                return f"pass total reached — {C.MAINTENANCE_CREDITS_PER_PASS} credits per pass, {left} left"
            s.maintenance_credits += credits
            s.credited_ids.append(k)
            return None
        if k in s.liked_ids or msg.node_id in s.liked_ids:  # a bare id: a vote stored before levels
            return "already liked this session"
        if len(s.liked_ids) >= C.MAX_LIKES_PER_SESSION:
            return f"hard cap reached — {C.MAX_LIKES_PER_SESSION} nodes already endorsed this session"
        s.liked_ids.append(k)
        return None

    def unlike(self, msg: m.Unlike) -> None:
        """Undo a vote whose node turned out missing."""
        sid, k, credits = msg.sid, key(msg.level, msg.node_id), msg.credits
        s = self._get(sid)
        if credits is not None:
            s.maintenance_credits -= credits
            if k in s.credited_ids:
                s.credited_ids.remove(k)
        elif k in s.liked_ids:
            s.liked_ids.remove(k)

    def vote_state(self, msg: m.GetVoteState) -> m.VoteState:
        s = self._get(msg.sid)
        seen = s.seen_via
        return m.VoteState(len(s.liked_ids), s.maintenance_credits, s.maintenance,
                           {(lvl, i): seen[k] for i in msg.ids for lvl in LEVELS if (k := key(lvl, i)) in seen})
