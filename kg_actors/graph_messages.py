"""What a graph actor answers to: its messages and their results (the handle is graph_handle.py).

`changes_render` on a message class says its change can move the render, so
the actor steps aside for a hook reply before taking it, and compaction follows
it unless `compacts_after` is false (read stamps: see RecordReads).
`fsync_before_reply` says its reply waits for the journal's fsync (every change
but read stamps: see RecordReads). `reads_only` says it changes nothing: it is
answered from the graph as it stands and never journaled, so a change still
pending (a new project's folder after a refused write) waits for a write, and a
full disk never fails a read. `derived_only` says it changes what the actor keeps beside the graph
(its search index, debt's inputs), never the graph: answered the same way, then the view is published,
so a pending change a disk refused never fails it (a refused index install left searches waiting forever).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from . import actor
from .core import graph_ops
from .core.compaction import CompactionResult, Plan
from .core.debt import Debt
from .core.model import Edge, EdgeKey, Node
from .core.search import SearchIndex
from .core.snapshot import GraphSnapshot
from .graph_view import GraphView


@attrs.frozen
class PutEdgeResult:
    """`credit_elsewhere`: (target, case created_ts) when an instance-of names a node of another graph."""

    edge: Edge
    credited: str | None
    credit_elsewhere: tuple[str, float] | None
    warnings: tuple[str, ...] = ()  # what the reply says beside it (the <private> text the write cut)


PREPARED = "prepared"  # a field's metadata: the actor fills it in steps before the change; no caller sets it


@attrs.frozen
class TickResult:
    compaction: CompactionResult
    pruned: list[str]


@attrs.frozen
class GraphMessage(actor.Message[actor.R]):
    changes_render: ClassVar[bool] = False
    compacts_after: ClassVar[bool] = True
    compacts_after_growth: ClassVar[bool] = False  # not compacts_after: compacted after only when it grew the level
    fsync_before_reply: ClassVar[bool] = True
    reads_only: ClassVar[bool] = False
    derived_only: ClassVar[bool] = False


# The actor loop's own: saving, background refreshes, shutting down without a save.


@attrs.frozen
class Fold(GraphMessage[bool]):
    """Save the graph into its file; False when the save failed. A `routine` one (the save tick's, with no
    commit due) may leave a large file's changes in the journal a while (graph_writer.fold_waits): True."""

    op = "fold"
    routine: bool = False
    whole: bool = False  # written even when nothing changed since the last save (a store put back)


@attrs.frozen
class Refresh(GraphMessage["frozenset[str]"]):
    """Recompute, off the loop from a snapshot, the recent values older than the graph (the tick's)."""

    op = "refresh"
    now: float


@attrs.frozen
class Discard(GraphMessage[bool]):
    """Stop without saving; whether the last save had failed."""

    op = "discard"


# Reads and bookkeeping ---------------------------------------------------------


@attrs.frozen
class InstallIndex(GraphMessage[None]):
    derived_only = True
    op = "install_index"
    index: SearchIndex


@attrs.frozen
class Scanned(GraphMessage[None]):
    """The load's scan for secrets a hand edit left (held_scan.py) is done: every node and edge of `graph`
    but those `held` names ((what, key) as core/held_secrets.Held has them) holds none (core/withheld.py)."""

    derived_only = True
    op = "scanned"
    graph: GraphSnapshot
    held: tuple[tuple[str, str], ...]


@attrs.frozen
class Current(GraphMessage["GraphView"]):
    """The view as of every message sent before this one (and after the resync a refused write
    calls for): what a read that must show the caller's own writes, or not a refused one, takes."""

    reads_only = True
    op = "current"


@attrs.frozen
class Settled(GraphMessage["GraphView"]):
    """As Current, once the compaction the graph is owed is paid (compaction_schedule.owed_before_read):
    what a full read renders, so it never shows a level over its budget that a run would bring back."""

    reads_only = True
    op = "settled"
    now: float


@attrs.frozen
class GetDebt(GraphMessage[Debt]):
    reads_only = True
    op = "debt"
    now: float


@attrs.frozen
class TouchPaths(GraphMessage["list[tuple[str, str, str]]"]):
    reads_only = True
    op = "touch_paths"
    home: str


@attrs.frozen
class SetMissingTouches(GraphMessage[None]):
    derived_only = True
    op = "set_missing_touches"
    missing: frozenset[str]


@attrs.frozen
class SetActivityDays(GraphMessage[None]):
    derived_only = True
    op = "set_activity_days"
    days: frozenset[str]


@attrs.frozen
class NodeIds(GraphMessage["frozenset[str]"]):
    reads_only = True
    op = "node_ids"


@attrs.frozen
class GetNodes(GraphMessage["list[tuple[Node, list[Edge]] | None]"]):
    reads_only = True
    op = "get_nodes"
    ids: list[str]


@attrs.frozen
class GetNode(GraphMessage["Node | None"]):
    reads_only = True
    op = "get_node"
    node_id: str


@attrs.frozen
class References(GraphMessage[bool]):
    reads_only = True
    op = "references"
    node_id: str


@attrs.frozen
class Dump(GraphMessage["dict[str, Any]"]):
    reads_only = True
    op = "dump"


@attrs.frozen
class Stats(GraphMessage["dict[str, Any]"]):
    reads_only = True
    op = "stats"


@attrs.frozen
class ProgressGet(GraphMessage["dict[str, Any] | None"]):
    reads_only = True
    op = "progress_get"
    task_id: str


@attrs.frozen
class ChangesSince(GraphMessage["list[tuple[str, Any]]"]):
    reads_only = True
    op = "changes_since"
    since: float
    session: str | None


@attrs.frozen
class SetProjectPath(GraphMessage[None]):
    op = "set_project_path"
    path: str


@attrs.frozen
class Tick(GraphMessage[TickResult]):
    """`plan`, `due`: the tick's compaction and the orphans past their grace, read in steps before it.
    `since`: the wall clock's latest jump (core/clock_guard.py)."""

    op = "tick"
    now: float
    since: float | None = None
    plan: Plan | None = attrs.field(default=None, eq=False, repr=False, metadata={PREPARED: True})
    due: tuple[str, ...] | None = attrs.field(default=None, metadata={PREPARED: True})


# Writes -------------------------------------------------------------------------


@attrs.frozen
class PutNode(GraphMessage[graph_ops.PutNodeResult]):
    """`hints`: a create's write-time hints, found in steps before the change (None: not yet)."""

    op = "put_node"
    changes_render = True
    node_id: str
    gist: str
    notes: list[str] | None
    touches: list[str] | None
    now: float
    writer: graph_ops.Writer
    expected_version: int | None = None
    create_only: bool = False
    expected_fingerprint: str | None = None  # the editor's: the content it loaded (core/stale_edit.py)
    hints: tuple[str, ...] | None = attrs.field(default=None, metadata={PREPARED: True})


@attrs.frozen
class PutEdge(GraphMessage[PutEdgeResult]):
    op = "put_edge"
    changes_render = True
    src: str
    dst: str
    rel: str
    notes: list[str] | None
    now: float
    writer: graph_ops.Writer
    known_elsewhere: frozenset[str] = frozenset()
    refuse_unnamed: bool = False  # the editor's form: an end that names no node is refused, not kept


@attrs.frozen
class RepeatCredit(GraphMessage[bool]):
    op = "repeat_credit"
    changes_render = True
    target_id: str
    case_ts: float


@attrs.frozen
class DeleteNode(GraphMessage[int]):
    op = "delete_node"
    changes_render = True
    node_id: str
    expected_version: int | None = None  # the editor's: the node as it loaded it, or the delete is refused
    writer: graph_ops.Writer | None = None  # a session's: what it has seen of the node, or the delete is refused
    now: float | None = None  # when: a delete that frees room is a node write, compacted after (a refill)
    expected_fingerprint: str | None = None  # the editor's: the words it loaded (core/stale_edit.py)


@attrs.frozen
class DeleteEdge(GraphMessage[bool]):
    op = "delete_edge"
    changes_render = True
    key: EdgeKey
    now: float | None = None  # as DeleteNode's


@attrs.frozen
class RecordReads(GraphMessage["dict[str, tuple[bool, list[str]]]"]):
    op = "record_reads"
    deferral = "hold"
    held_answer: ClassVar[Any] = {}
    changes_render = True
    # Spec 000 compacts after every node write and on the tick. A read's stamp alone moves no render,
    # and planning after each was half a read's CPU: it owes nothing. A promotion (or a rescue) grows the
    # level, and left it over its budget until the tick (~30 s): it owes its run as a write does, paid
    # once the mailbox is quiet, after the read's reply (compaction_schedule.py).
    compacts_after = False
    compacts_after_growth = True
    # Answered once the kernel holds the stamp (a kill -9 keeps it), not after the fsync: the
    # disk's fsync (3 ms typical, 14 ms at p99 when loaded) was most of a read's tail, for a stamp.
    fsync_before_reply = False
    ids: list[str]
    now: float


@attrs.frozen
class Endorse(GraphMessage[str]):
    op = "endorse"
    changes_render = True
    node_id: str
    now: float
    credits: int | None


@attrs.frozen
class ProgressSet(GraphMessage["dict[str, Any]"]):
    op = "progress_set"
    task_id: str
    state: dict[str, Any]
    now: float


@attrs.frozen
class RenameLocal(GraphMessage[int]):
    op = "rename_local"
    changes_render = True
    old_id: str
    new_id: str
    now: float
    writer: graph_ops.Writer


@attrs.frozen
class Rewire(GraphMessage[int]):
    op = "rewire"
    changes_render = True
    old_id: str
    new_id: str
    now: float
    writer: graph_ops.Writer


@attrs.frozen
class CleanDangling(GraphMessage[list[dict[str, Any]]]):
    op = "clean_dangling"
    changes_render = True
    outside_ids: frozenset[str]
    renamed: Mapping[str, str] = attrs.field(factory=dict)  # the user graph's latest renames (old -> new)
    now: float = 0.0


@attrs.frozen
class Absorb(GraphMessage["list[str]"]):
    """What a git merge changed in the graph's file (base -> merged); the ids of the nodes it changed."""

    op = "absorb"
    changes_render = True
    base: dict[str, Any]
    merged: dict[str, Any]
    now: float


BY_NAME: dict[str, type[GraphMessage[Any]]] = actor.by_name(GraphMessage, list(globals().values()))
