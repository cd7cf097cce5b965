"""GraphView: what a graph actor publishes for readers, a new one after every change.

The actor alone writes its graph and its derived state. After each message it
publishes a GraphView into its handle's outlet, and readers (hook replies,
search, recall, the editor, the tick's readings) take the latest with
`handle.view_now()`: no message, so a reader never queues behind a burst of
writes, and no live object of the actor leaves it.

- `graph` is a frozen GraphSnapshot (core/snapshot.py): keep it as long as you
  like, it never changes.
- `recent` holds frozen values (scores, debt, live edge count) of a recent
  version: what a hook reply may use without paying 20-100 ms after a write.
  The actor refreshes stale ones on the tick, off the loop, from a snapshot.
- `index`, `touch_index` and `written` are the actor's incremental indexes,
  current with `graph` at the moment the view is taken. The actor updates
  them in place, so read them in the same synchronous stretch as you took
  the view (before your next await); take a new view after one.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from .core.debt import Debt
from .core.search import SearchIndex
from .core.snapshot import GraphSnapshot
from .core.touches import TouchIndex
from .core.written import WrittenLog


@attrs.frozen
class Recent:
    """Values of a recent version of the graph, each with the key it was computed for (None: not yet)."""

    scores: tuple[int, Mapping[str, float]] | None = None  # (gen, unified-pool scores)
    debt: tuple[tuple[int, int, int], Debt] | None = None  # ((gen, day, debt inputs), debt)
    live_edges: tuple[int, int] | None = None  # (gen, live edge count)


@attrs.frozen
class GraphView:
    graph: GraphSnapshot
    recent: Recent
    index: SearchIndex | None
    touch_index: TouchIndex
    written: WrittenLog
    missing_touches: frozenset[str]
    # Compactions that moved a node's tier so far: a session's undelivered read parts made before one
    # are stale (spec 003: a new read or a compaction drops them).
    compactions: int = 0


class Outlet:
    """Where the actor puts its latest view; written only by the actor's task. `status` is the actor's
    and its writer's (a refused append marks it until the actor has put the graph back)."""

    __slots__ = ("view", "status")

    def __init__(self, view: GraphView) -> None:
        self.view = view
        self.status: dict[str, object] = {}

    def kept(self) -> GraphView | None:
        """The view, unless it may show a change the store refused (the actor puts it back at its next message)."""
        status = self.status
        if status.get("refusing") or status.get("journal_failed") or status.get("resync_failed"):
            return None
        return self.view
