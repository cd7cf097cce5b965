"""What a maintenance session may not do to a node (spec 000 "Chores", its guards). Pure: `now` is passed in.

The chore picker never chooses these targets, but a maintenance agent (a chore, a pass, or any session
flagged by kg_read(maintenance=true) or its own kg_progress task) can name any node, so the write path
refuses them too. Working sessions are not limited by them: the guards keep background maintenance off
what people are working on, and off the one maintenance pattern measured to degrade memory.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from .errors import Conflict
from .ids import shown

HELD_WINDOW_S = 4 * 3600.0  # a working session active this recently holds what it has seen
CHURN_WINDOW_S = 30 * 86_400.0
CHURN_MAX = 2  # gist changes in the window; more and the gist is not rewritten again by maintenance


def gist_changes(gist_ts: Iterable[float], now: float) -> int:
    """The node's gist stamps (its writing and each rewrite) in the last 30 days."""
    return sum(1 for t in gist_ts if now - t <= CHURN_WINDOW_S)


def churning(gist_ts: Iterable[float], now: float) -> bool:
    return gist_changes(gist_ts, now) > CHURN_MAX


def held_refusal(action: str, node_id: str, held: Collection[str]) -> Conflict | None:
    """A maintenance session's rename or delete (`action`) of a node a live working session holds."""
    if node_id not in held:
        return None
    return Conflict(f"not {action}d: '{shown(node_id)}' is held by a live session (a working session active in "
                    f"the last {HELD_WINDOW_S / 3600:g} hours has seen it), and a maintenance session does not "
                    f"rename or delete a node a live session holds; leave it, or record it as declined")


def churn_refusal(node_id: str, gist_ts: Iterable[float], now: float) -> Conflict | None:
    """A maintenance session's gist rewrite of a node whose gist changed more than twice in 30 days."""
    count = gist_changes(gist_ts, now)
    if count <= CHURN_MAX:
        return None
    return Conflict(f"not saved: the gist of '{shown(node_id)}' was written {count} times in the last "
                    f"{CHURN_WINDOW_S / 86_400:g} days, and a maintenance session does not rewrite a gist that "
                    f"changed more than {CHURN_MAX} times in {CHURN_WINDOW_S / 86_400:g} days (repeated rewriting "
                    "degrades memory); send the gist as it stands, or leave the node")
