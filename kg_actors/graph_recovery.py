"""A graph actor's state put back in step, by the actor itself (graph_actor.py) between two messages.

After the store refused an append, the graph becomes what is on disk again (`resync`); after a bug
left the derived indexes out of step with a committed change, they are made again from the graph
(`index_committed`). Either way the actor goes on serving: a failure here is logged, and the first
one leaves every change refused until a retry succeeds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import trio

from . import held_scan
from .core import search
from .core.model import GraphData
from .derived import Derived, build_derived
from .graph_file_watch import note
from .graph_loading import load_fresh
from .graph_writer import Resync, ToWriter
from .storage import files, journal

log = logging.getLogger(__name__)


class Owned(Protocol):
    """What of the actor's state (graph_actor.GraphState) this module sets right."""

    key: str
    graph: GraphData
    derived: Derived
    clock: Callable[[], float] | None
    refusal: str | None
    dirty: bool

    def changed(self, record: dict[str, Any]) -> None: ...

    def publish(self) -> None: ...


async def resync(state: Owned, path: Path, to_writer: ToWriter, status: dict[str, Any]) -> None:
    """After a refused append: the graph becomes what is on disk again (the file and the journal's
    acknowledged records), so no change the store refused stays visible or gets saved later.
    When even reading fails, every change is refused until a tick's retry succeeds."""
    status.pop("journal_failed", None)
    try:
        now = (state.clock or time.time)()
        graph, derived = await trio.to_thread.run_sync(load_fresh, path, state.graph.kind, state.graph.project_path,
                                                       now)
    except Exception as exc:  # unreadable, or a bug in loading: changes refused either way, the actor goes on
        if not isinstance(exc, (OSError, files.Unreadable)):
            log.exception("%s: reading %s back failed", state.key, path)
        status["resync_failed"] = True
        state.refusal = state.refusal or f"the store could not read {path.name} back after a failed write ({exc})"
        log.error("%s: could not read %s back after a failed write: %s (changes refused; retried on the tick)",
                  state.key, path, exc)
        return
    await _scan(state.key, path, graph, derived)
    if status.pop("resync_failed", None):
        state.refusal = None
    state.graph, state.derived = graph, derived
    note(status, path)  # what was just read is the graph's own
    state.publish()
    state.dirty = journal.journal_path(path).exists()
    await to_writer.send(Resync())
    log.warning("%s: back to what is on disk (%d nodes) after a refused write", state.key, len(graph.nodes))


async def _scan(key: str, path: Path, graph: GraphData, derived: Derived) -> None:
    """The graph read back, scanned as a load's is (held_scan.py) before it serves: its new search index, built
    from every node's full text, then files a node holding a secret a hand edit left by what agents are shown of
    it, so that a right guess of a withheld word finds it no sooner than a wrong one."""
    try:
        found = await held_scan.say_held(path, len(graph.nodes))
    except Exception:  # noqa: BLE001 - replies go on checking what they render: safe, only slower
        log.exception("%s: the scan for secrets a hand edit left failed", key)
        return
    snapshot = graph.snapshot()
    graph.lineage.mask.scanned(snapshot.nodes, snapshot.edges, [(h.what, h.key) for h in found])
    derived.hold(graph)


def index_committed(state: Owned, record: dict[str, Any]) -> None:
    """Derived indexes brought up to date with a committed change and published, before the next await
    (readers find the graph and its indexes in step). A bug in that does not stop the change from being
    journaled and answered: the derived state is made again from the graph instead."""
    try:
        state.changed(record)
        state.publish()
    except Exception:
        log.exception("%s: indexing a committed change failed; rebuilding the graph's derived state", state.key)
        try:
            derived = build_derived(state.graph, (state.clock or time.time)())
            derived.index = search.SearchIndex.build(state.graph)
            derived.hold(state.graph)  # the nodes known to hold a secret: filed by what agents are shown
            state.derived = derived
            state.publish()
        except Exception:
            log.exception("%s: rebuilding the derived state failed; reads may lag until a reload", state.key)
