"""Which sessions the registry lets go: those idle past the expiry, and past the count it keeps the least
recently active (never one active lately: its agent is likely mid-task)."""

from __future__ import annotations

import heapq
from collections.abc import Mapping


def to_let_go(last_active: Mapping[str, float], now: float, ttl: float, kept: int, spared: float,
              since: float | None = None) -> list[str]:
    """The sids to drop, given each session's last activity: every one idle more than `ttl`; then, while
    more than `kept` remain, the least recently active, leaving any active within `spared` of `now`.
    `since`: the wall clock's latest jump; an activity before it counts as at it (core/clock_guard.py)."""
    if since is not None:
        last_active = {sid: max(t, since) for sid, t in last_active.items()}
    expired = [sid for sid, t in last_active.items() if now - t > ttl]
    over = len(last_active) - len(expired) - kept
    if over <= 0:
        return expired
    gone = set(expired)
    idle = [(t, sid) for sid, t in last_active.items() if sid not in gone and now - t > spared]
    return expired + [sid for _, sid in heapq.nsmallest(over, idle)]
