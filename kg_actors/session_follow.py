"""Which session a harness session's hooks follow when the one bound to it never reached the agent.

A SessionStart hook that gave up waiting (a big project's preload came too late) leaves its harness
session bound to a KG session whose id the agent was never given. The agent then opens one of its
own (kg_read(cwd)), which no hook is bound to: the reminders would go on naming the first, and prompt
recall (which follows a full read) would never run. The hooks move to the agent's session only when
the bound one was never given (no preload delivered, no full read), and the other is of the same
project, opened since, given to its agent by a full read, and bound to no harness session (another
conversation's is never taken over).
"""

from __future__ import annotations

from collections.abc import Iterable

from .session_records import Session


def to_follow(bound: Session, sessions: Iterable[Session]) -> Session | None:
    """The newest session `bound`'s hooks should follow instead, or None to stay."""
    if bound.preload_given or bound.full_read_ts is not None:
        return None
    best = None
    for s in sessions:
        if (s is not bound and s.claude_sid is None and s.full_read_ts is not None and not s.maintenance
                and (s.project_path, s.scope) == (bound.project_path, bound.scope) and s.start_ts >= bound.start_ts
                and (best is None or s.start_ts > best.start_ts)):
            best = s
    return best
