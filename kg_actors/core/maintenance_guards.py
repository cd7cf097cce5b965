"""What a maintenance session may not do to a node (spec 000 "Chores", its guards). Pure: `now` is passed in.

The chore picker never chooses these targets, but a maintenance agent (a chore, a pass, or any session
flagged by kg_read(maintenance=true) or its own kg_progress task) can name any node, so the write path
refuses them too. Working sessions are not limited by them: the guards keep background maintenance off
what people are working on, and off the one maintenance pattern measured to degrade memory.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from . import constants as C
from .errors import Conflict
from .ids import shown

HELD_WINDOW_S = 4 * 3600.0  # a working session active this recently holds what it has seen
CHURN_WINDOW_S = 30 * 86_400.0
CHURN_MAX = 2  # gist changes in the window; more and the gist is not rewritten again by maintenance


def gist_changes(gist_ts: Iterable[float], now: float, created_ts: float | None = None) -> int:
    """The node's gist changes in the last 30 days: its stamps less its writing. The first stamp is the
    writing (graph_ops stamps a new node's gist at its creation) unless the list was cut to its last
    GIST_TS_MAX, or it comes after the node's creation (a node from before stamps were kept: its first
    rewrite is its first stamp)."""
    stamps = list(gist_ts)
    written = 0 < len(stamps) < C.GIST_TS_MAX and (created_ts is None or stamps[0] <= created_ts)
    return sum(1 for t in (stamps[1:] if written else stamps) if now - t <= CHURN_WINDOW_S)


def churning(gist_ts: Iterable[float], now: float, created_ts: float | None = None) -> bool:
    return gist_changes(gist_ts, now, created_ts) > CHURN_MAX


def held_refusal(action: str, node_id: str, held: Collection[str]) -> Conflict | None:
    """A maintenance session's rename or delete (`action`) of a node a live working session holds."""
    if node_id not in held:
        return None
    return Conflict(f"not {action}d: '{shown(node_id)}' is held by a live session (a working session active in "
                    f"the last {HELD_WINDOW_S / 3600:g} hours has seen it), and a maintenance session does not "
                    f"rename or delete a node a live session holds; leave it, or record it as declined")


def churn_refusal(node_id: str, gist_ts: Iterable[float], now: float,
                  created_ts: float | None = None) -> Conflict | None:
    """A maintenance session's gist rewrite of a node whose gist changed more than twice in 30 days."""
    count = gist_changes(gist_ts, now, created_ts)
    if count <= CHURN_MAX:
        return None
    return Conflict(f"not saved: the gist of '{shown(node_id)}' changed {count} times in the last "
                    f"{CHURN_WINDOW_S / 86_400:g} days, and a maintenance session does not rewrite a gist that "
                    f"changed more than {CHURN_MAX} times in {CHURN_WINDOW_S / 86_400:g} days (repeated rewriting "
                    "degrades memory); send the gist as it stands, or leave the node")
