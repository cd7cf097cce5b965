"""What a graph actor answers to: its messages, their results, and the handle callers hold.

`changes_render` on a message class says its change can move the render, so
compaction follows it (spec 000) and the actor steps aside for a hook reply
before taking it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import trio

from . import actor
from .core import graph_ops
from .core.compaction import CompactionResult
from .core.debt import Debt
from .core.model import Edge, EdgeKey, GraphData, Node
from .core.search import SearchIndex

if TYPE_CHECKING:
    from .derived import Derived


@attrs.frozen
class PutEdgeResult:
    """`credit_elsewhere`: (target, case created_ts) when an instance-of names a node of another graph."""

    edge: Edge
    credited: str | None
    credit_elsewhere: tuple[str, float] | None


@attrs.frozen
class TickResult:
    compaction: CompactionResult
    pruned: list[str]


@attrs.frozen
class GraphMessage(actor.Message[actor.R]):
    changes_render: ClassVar[bool] = False


# The actor loop's own: saving, background refreshes, shutting down without a save.


@attrs.frozen
class Fold(GraphMessage[bool]):
    """Save the graph into its file; False when the save failed."""

    op = "fold"


@attrs.frozen
class Refresh(GraphMessage["frozenset[str]"]):
    """Recompute, off the loop, the recent values a reply found stale (the tick's)."""

    op = "refresh"
    now: float


@attrs.frozen
class Discard(GraphMessage[bool]):
    """Stop without saving; whether the last save had failed."""

    op = "discard"


# Reads and bookkeeping ---------------------------------------------------------


@attrs.frozen
class InstallIndex(GraphMessage[None]):
    op = "install_index"
    index: SearchIndex


@attrs.frozen
class View(GraphMessage["tuple[GraphData, Derived]"]):
    """A read view for a handler's synchronous computation (valid until it next awaits)."""

    op = "view"


@attrs.frozen
class GetDebt(GraphMessage[Debt]):
    op = "debt"
    now: float


@attrs.frozen
class TouchPaths(GraphMessage["list[tuple[str, str, str]]"]):
    op = "touch_paths"
    home: str


@attrs.frozen
class SetMissingTouches(GraphMessage[None]):
    op = "set_missing_touches"
    missing: frozenset[str]


@attrs.frozen
class SetActivityDays(GraphMessage[None]):
    op = "set_activity_days"
    days: frozenset[str]


@attrs.frozen
class NodeIds(GraphMessage["frozenset[str]"]):
    op = "node_ids"


@attrs.frozen
class GetNodes(GraphMessage["list[tuple[Node, list[Edge]] | None]"]):
    op = "get_nodes"
    ids: list[str]


@attrs.frozen
class GetNode(GraphMessage["Node | None"]):
    op = "get_node"
    node_id: str


@attrs.frozen
class References(GraphMessage[bool]):
    op = "references"
    node_id: str


@attrs.frozen
class Dump(GraphMessage["dict[str, Any]"]):
    op = "dump"


@attrs.frozen
class Stats(GraphMessage["dict[str, Any]"]):
    op = "stats"


@attrs.frozen
class ProgressGet(GraphMessage["dict[str, Any] | None"]):
    op = "progress_get"
    task_id: str


@attrs.frozen
class ChangesSince(GraphMessage["list[tuple[str, Any]]"]):
    op = "changes_since"
    since: float
    session: str | None


@attrs.frozen
class WrittenSince(GraphMessage["list[Node]"]):
    op = "written_since"
    since: float


@attrs.frozen
class SetProjectPath(GraphMessage[None]):
    op = "set_project_path"
    path: str


@attrs.frozen
class Call(GraphMessage[Any]):
    """Run a pure function over the graph inside the actor (reads and computed writes)."""

    op = "call"
    fn: Callable[[GraphData], Any]


@attrs.frozen
class Tick(GraphMessage[TickResult]):
    op = "tick"
    now: float


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
    hints: tuple[str, ...] | None = None


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


@attrs.frozen
class DeleteEdge(GraphMessage[bool]):
    op = "delete_edge"
    changes_render = True
    key: EdgeKey


@attrs.frozen
class RecordReads(GraphMessage["dict[str, tuple[bool, list[str]]]"]):
    op = "record_reads"
    deferral = "hold"
    held_answer: ClassVar[Any] = {}
    changes_render = True
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
class CleanDangling(GraphMessage[int]):
    op = "clean_dangling"
    changes_render = True
    outside_ids: frozenset[str]


@attrs.frozen
class Absorb(GraphMessage["list[str]"]):
    """What a git merge changed in the graph's file (base -> merged); the ids of the nodes it changed."""

    op = "absorb"
    changes_render = True
    base: dict[str, Any]
    merged: dict[str, Any]
    now: float


BY_NAME: dict[str, type[GraphMessage[Any]]] = actor.by_name(GraphMessage, list(globals().values()))


@attrs.frozen
class GraphHandle:
    """What callers hold: one typed method per message; the mailbox stays private."""

    key: str
    level: str
    _mailbox: actor.Mailbox[GraphMessage[Any]]
    _index_ready: trio.Event

    @property
    def index_ready(self) -> bool:
        return self._index_ready.is_set()

    async def close(self) -> None:
        """Stop taking messages; the actor saves what is dirty and exits."""
        self._mailbox.send.close()

    async def view(self) -> tuple[GraphData, Derived]:
        """A read view with the search index in place (waits for its first build)."""
        await self._index_ready.wait()
        return await self._mailbox.ask(View())

    async def view_now(self) -> tuple[GraphData, Derived]:
        """A read view as it stands, search index or not."""
        return await self._mailbox.ask(View())

    async def call(self, fn: Callable[[GraphData], Any]) -> Any:
        return await self._mailbox.ask(Call(fn))

    async def fold(self) -> bool:
        return await self._mailbox.ask(Fold())

    async def refresh(self, now: float) -> frozenset[str]:
        return await self._mailbox.ask(Refresh(now))

    async def discard(self) -> bool:
        return await self._mailbox.ask(Discard())

    async def install_index(self, index: SearchIndex) -> None:
        await self._mailbox.ask(InstallIndex(index))

    async def debt(self, now: float) -> Debt:
        return await self._mailbox.ask(GetDebt(now))

    async def touch_paths(self, home: str) -> list[tuple[str, str, str]]:
        return await self._mailbox.ask(TouchPaths(home))

    async def set_missing_touches(self, missing: frozenset[str]) -> None:
        await self._mailbox.ask(SetMissingTouches(missing))

    async def set_activity_days(self, days: frozenset[str]) -> None:
        await self._mailbox.ask(SetActivityDays(days))

    async def node_ids(self) -> frozenset[str]:
        return await self._mailbox.ask(NodeIds())

    async def get_nodes(self, ids: list[str]) -> list[tuple[Node, list[Edge]] | None]:
        return await self._mailbox.ask(GetNodes(ids))

    async def get_node(self, node_id: str) -> Node | None:
        return await self._mailbox.ask(GetNode(node_id))

    async def references(self, node_id: str) -> bool:
        return await self._mailbox.ask(References(node_id))

    async def dump(self) -> dict[str, Any]:
        return await self._mailbox.ask(Dump())

    async def stats(self) -> dict[str, Any]:
        return await self._mailbox.ask(Stats())

    async def progress_get(self, task_id: str) -> dict[str, Any] | None:
        return await self._mailbox.ask(ProgressGet(task_id))

    async def changes_since(self, since: float, session: str | None) -> list[tuple[str, Any]]:
        return await self._mailbox.ask(ChangesSince(since, session))

    async def written_since(self, since: float) -> list[Node]:
        return await self._mailbox.ask(WrittenSince(since))

    async def set_project_path(self, path: str) -> None:
        await self._mailbox.ask(SetProjectPath(path))

    async def tick(self, now: float) -> TickResult:
        return await self._mailbox.ask(Tick(now))

    async def put_node(self, node_id: str, gist: str, notes: list[str] | None, touches: list[str] | None,
                       now: float, writer: graph_ops.Writer, expected_version: int | None = None,
                       create_only: bool = False) -> graph_ops.PutNodeResult:
        return await self._mailbox.ask(PutNode(node_id, gist, notes, touches, now, writer, expected_version,
                                               create_only))

    async def put_edge(self, src: str, dst: str, rel: str, notes: list[str] | None, now: float,
                       writer: graph_ops.Writer, known_elsewhere: frozenset[str] = frozenset()) -> PutEdgeResult:
        return await self._mailbox.ask(PutEdge(src, dst, rel, notes, now, writer, known_elsewhere))

    async def repeat_credit(self, target_id: str, case_ts: float) -> bool:
        return await self._mailbox.ask(RepeatCredit(target_id, case_ts))

    async def delete_node(self, node_id: str) -> int:
        return await self._mailbox.ask(DeleteNode(node_id))

    async def delete_edge(self, key: EdgeKey) -> bool:
        return await self._mailbox.ask(DeleteEdge(key))

    async def record_reads(self, ids: list[str], now: float) -> dict[str, tuple[bool, list[str]]]:
        return await self._mailbox.ask(RecordReads(ids, now))

    async def endorse(self, node_id: str, now: float, credits: int | None) -> str:
        return await self._mailbox.ask(Endorse(node_id, now, credits))

    async def progress_set(self, task_id: str, state: dict[str, Any], now: float) -> dict[str, Any]:
        return await self._mailbox.ask(ProgressSet(task_id, state, now))

    async def rename_local(self, old_id: str, new_id: str, now: float, writer: graph_ops.Writer) -> int:
        return await self._mailbox.ask(RenameLocal(old_id, new_id, now, writer))

    async def rewire(self, old_id: str, new_id: str, now: float, writer: graph_ops.Writer) -> int:
        return await self._mailbox.ask(Rewire(old_id, new_id, now, writer))

    async def clean_dangling(self, outside_ids: frozenset[str]) -> int:
        return await self._mailbox.ask(CleanDangling(outside_ids))

    async def absorb(self, base: dict[str, Any], merged: dict[str, Any], now: float) -> list[str]:
        return await self._mailbox.ask(Absorb(base, merged, now))
