"""The session registry's votes: kg_useful's endorsements, per session, and a maintenance pass's credits, per
pass: per run when the session is a run's (a pass may open several sessions on its marked URL), else per session.

A part of the registry (`Registry`'s base), kept apart to keep the actor's module small: the state is the
registry's own, touched only by its loop. A vote is for one level's node (core/seen.py).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from . import session_messages as m
from .core import constants as C
from .core.seen import LEVELS, key
from .session_records import Session


RUNS_KEPT = 16  # runs' credit tallies kept: one run at a time, so the newest is the live one


@attrs.define
class PassCredits:
    """What one run's passes credited: the total and the refs (a node is credited once a pass)."""

    spent: int = 0
    ids: list[str] = attrs.field(factory=list)


class Votes:
    sessions: dict[str, Session]
    _get: Callable[[str], Session]  # the registry's one lookup (AmbientChannels')
    _runs: dict[str, PassCredits]

    def _pass_of(self, s: Session) -> PassCredits:
        """The pass's credits: its run's when the session is a run's, else the session's own (its fields, read)."""
        if s.run is None:
            return PassCredits(s.maintenance_credits, s.credited_ids)
        runs = self._runs
        if s.run not in runs and len(runs) >= RUNS_KEPT:
            del runs[next(iter(runs))]
        return runs.setdefault(s.run, PassCredits())

    def _joined(self, s: Session) -> None:
        """The session just became its run's: what it credited before counts for the run's pass too."""
        tally = self._pass_of(s)
        for k in s.credited_ids:
            if k not in tally.ids:
                tally.ids.append(k)
        tally.spent += s.maintenance_credits

    def _spend(self, s: Session, k: str, credits: int) -> None:
        if s.run is not None:
            tally = self._pass_of(s)
            tally.spent += credits
            tally.ids.append(k)
        s.maintenance_credits += credits  # the session's own share, as stored
        s.credited_ids.append(k)

    def like(self, msg: m.Like) -> str | None:
        """Record a vote or credit; the refusal reason, or None when it counts."""
        sid, k, credits = msg.sid, key(msg.level, msg.node_id), msg.credits  # a vote is for one level's node
        s = self._get(sid)
        if credits is not None:
            tally = self._pass_of(s)
            if k in tally.ids:  # a pass credits a node once, however many calls (or sessions) name it
                return "already credited this pass"
            left = C.MAINTENANCE_CREDITS_PER_PASS - tally.spent
            if credits > left:
                return f"pass total reached — {C.MAINTENANCE_CREDITS_PER_PASS} credits per pass, {left} left"
            self._spend(s, k, credits)
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
            if s.run is not None:
                tally = self._pass_of(s)
                tally.spent -= credits
                if k in tally.ids:
                    tally.ids.remove(k)
            s.maintenance_credits -= credits
            if k in s.credited_ids:
                s.credited_ids.remove(k)
        elif k in s.liked_ids:
            s.liked_ids.remove(k)

    def vote_state(self, msg: m.GetVoteState) -> m.VoteState:
        s = self._get(msg.sid)
        seen = s.seen_via
        return m.VoteState(len(s.liked_ids), self._pass_of(s).spent, s.maintenance,
                           {(lvl, i): seen[k] for i in msg.ids for lvl in LEVELS if (k := key(lvl, i)) in seen})
