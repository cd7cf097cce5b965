"""Which session a harness session's hooks follow when the one bound to it never reached the agent.

A SessionStart hook that gave up waiting (a big project's preload came too late) leaves its harness
session bound to a KG session whose id the agent was never given. The agent then opens one of its
own (kg_read(cwd)), which no hook is bound to: the reminders would go on naming the first, and prompt
recall (which follows a full read) would never run. The hooks move to the agent's session only when
the bound one was never given (no preload delivered, no full read), and the other is of the same
project, opened since, given to its agent by a full read, and bound to no harness session (another
conversation's is never taken over).

Nothing says which conversation's agent opened a session, so the move is made only when no other
conversation could own it: there is exactly one such session, and no other harness session of the
project was left with a session never given and opened no later than it (two conversations whose
preloads both failed could each be the one whose agent read). When in doubt each keeps its own
session: its reminders name it and the agent can still read it, while a wrong move would show one
conversation the other's memory and leave the other none. The price: a conversation whose agent never
read keeps the project's later ones from following until its session expires (SESSION_TTL_SECONDS).
"""

from __future__ import annotations

from collections.abc import Iterable

from .session_records import Session


def to_follow(bound: Session, sessions: Iterable[Session]) -> Session | None:
    """The session `bound`'s hooks should follow instead, or None to stay (none, or not surely ours)."""
    if _given(bound):
        return None
    place = (bound.project_path, bound.scope)
    project = [s for s in sessions if not s.maintenance and (s.project_path, s.scope) == place]
    candidates = [s for s in project if s is not bound and s.claude_sid is None and s.full_read_ts is not None
                  and s.start_ts >= bound.start_ts]
    if len(candidates) != 1:
        return None
    (only,) = candidates
    rivals = [s for s in project if s is not bound and s.claude_sid is not None and not _given(s)
              and s.start_ts <= only.start_ts]
    return None if rivals else only


def _given(s: Session) -> bool:
    """The agent knows this session's id: a preload reached it, or it read the session in full."""
    return s.preload_given or s.full_read_ts is not None
