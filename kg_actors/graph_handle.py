"""The handle callers hold on a graph actor: one typed method per message; the mailbox stays private.

Produced only by run_graph_actor (graph_actor.py), which starts `build_index`; `index_ready` says whether
the graph's first search index is built and in, once the load's scan for secrets answered (a hook never
waits for it). Reads
that need no message take the view the actor last published (`view_now`,
`snapshot`): a frozen version, never the actor's live state.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import attrs
import trio

from . import actor, heap, index_process
from . import graph_messages as m
from .core import graph_ops
from .core.debt import Debt
from .core.errors import KGError
from .core.model import Edge, EdgeKey, Node
from .core.search import SearchIndex
from .core.snapshot import GraphSnapshot
from .graph_messages import PutEdgeResult, TickResult
from .graph_view import GraphView, Outlet

log = logging.getLogger(__name__)


@attrs.frozen
class GraphHandle:
    """What callers hold: one typed method per message; the mailbox stays private."""

    key: str
    level: str
    _mailbox: actor.Mailbox[m.GraphMessage[Any]]
    _index_ready: trio.Event
    _outlet: Outlet

    @property
    def index_ready(self) -> bool:
        return self._index_ready.is_set()

    @property
    def store_refusal(self) -> str | None:
        """Why the store refused this graph's last change (its journal could not be written), until an
        append or a save succeeds; None when it takes changes."""
        why = self._outlet.status.get("unsaved")
        return str(why) if why else None

    async def close(self) -> None:
        """Stop taking messages; the actor saves what is dirty and exits."""
        self._mailbox.send.close()

    async def view(self) -> GraphView:
        """The latest view with the search index in place (waits for its first build): the one the actor
        published, so a search never queues behind the mailbox (a compaction holds it), unless a change
        the store refused may still show in it (then `current`, after the actor has put the graph back)."""
        await self._index_ready.wait()
        kept = self.view_kept()
        if kept is not None and kept.index is not None:
            return kept
        return await self.current()

    def view_now(self) -> GraphView:
        """The latest view the actor published, search index or not (no message: never waits, but a
        write refused by the store may show until the actor's next message puts the graph back)."""
        return self._outlet.view

    def save_refusal(self) -> str | None:
        """Why the store refuses this graph's saves now (a full disk, a read-only store), or None."""
        refusing = self._outlet.status.get("refusing")
        return refusing if isinstance(refusing, str) else None

    def fold_failure(self) -> str | None:
        """Why the last save of the graph's file failed while its journal still takes changes, until one
        succeeds; None when it did."""
        failed = self._outlet.status.get("fold_failed")
        return failed if isinstance(failed, str) else None

    def view_kept(self) -> GraphView | None:
        """The latest view, when nothing in it can be a change the store refused (else None: ask the
        actor, which puts the graph back first). No message: never waits behind the mailbox."""
        return self._outlet.kept()

    def hand_edited(self) -> str | None:
        """The graph's file when it was changed by hand under the server (not saved over since), else None."""
        edited = self._outlet.status.get("hand_edited")
        return edited if isinstance(edited, str) else None

    def hand_edit_rolls_back(self) -> bool:
        """Whether that hand-edited file is its previous save put back: a reload sets the writes since aside."""
        return bool(self._outlet.status.get("hand_edit_rolls_back"))

    async def current(self) -> GraphView:
        """The view as of every message sent before (a message: it queues behind them)."""
        return await self._mailbox.ask(m.Current())

    async def settled(self, now: float) -> GraphView:
        """As `current`, once the compaction the graph is owed is paid (a full read's view: within its
        budget). Queues behind the mailbox and may pay a run: never for a hook."""
        return await self._mailbox.ask(m.Settled(now))

    def snapshot(self) -> GraphSnapshot:
        """The graph as of its last change, frozen."""
        return self._outlet.view.graph

    async def fold(self, routine: bool = False, whole: bool = False) -> bool:
        return await self._mailbox.ask(m.Fold(routine, whole))

    async def refresh(self, now: float) -> frozenset[str]:
        return await self._mailbox.ask(m.Refresh(now))

    async def discard(self) -> bool:
        return await self._mailbox.ask(m.Discard())

    async def install_index(self, index: SearchIndex) -> None:
        await self._mailbox.ask(m.InstallIndex(index))

    def scanned(self, graph: GraphSnapshot, held: tuple[tuple[str, str], ...]) -> None:
        """Told, never waited on (an actor discarded meanwhile answers nobody): dropped when it cannot be
        queued at once, as replies then go on checking what they render (core/withheld.py), only slower."""
        try:
            self._mailbox.send.send_nowait(m.Scanned(graph, held))
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            pass

    async def debt(self, now: float) -> Debt:
        return await self._mailbox.ask(m.GetDebt(now))

    async def touch_paths(self, home: str) -> list[tuple[str, str, str]]:
        return await self._mailbox.ask(m.TouchPaths(home))

    async def set_missing_touches(self, missing: frozenset[str]) -> None:
        await self._mailbox.ask(m.SetMissingTouches(missing))

    async def set_activity_days(self, days: frozenset[str]) -> None:
        await self._mailbox.ask(m.SetActivityDays(days))

    async def node_ids(self) -> frozenset[str]:
        return await self._mailbox.ask(m.NodeIds())

    async def get_nodes(self, ids: list[str]) -> list[tuple[Node, list[Edge]] | None]:
        return await self._mailbox.ask(m.GetNodes(ids))

    async def get_node(self, node_id: str) -> Node | None:
        return await self._mailbox.ask(m.GetNode(node_id))

    async def references(self, node_id: str) -> bool:
        return await self._mailbox.ask(m.References(node_id))

    async def dump(self) -> dict[str, Any]:
        return await self._mailbox.ask(m.Dump())

    async def stats(self) -> dict[str, Any]:
        return await self._mailbox.ask(m.Stats())

    async def progress_get(self, task_id: str) -> dict[str, Any] | None:
        return await self._mailbox.ask(m.ProgressGet(task_id))

    async def changes_since(self, since: float, session: str | None) -> list[tuple[str, Any]]:
        return await self._mailbox.ask(m.ChangesSince(since, session))

    async def set_project_path(self, path: str) -> None:
        await self._mailbox.ask(m.SetProjectPath(path))

    async def tick(self, now: float, since: float | None = None) -> TickResult:
        return await self._mailbox.ask(m.Tick(now, since))

    async def put_node(self, node_id: str, gist: str, notes: list[str] | None, touches: list[str] | None,
                       now: float, writer: graph_ops.Writer, expected_version: int | None = None,
                       create_only: bool = False, expected_fingerprint: str | None = None) -> graph_ops.PutNodeResult:
        return await self._mailbox.ask(m.PutNode(node_id, gist, notes, touches, now, writer, expected_version,
                                               create_only, expected_fingerprint))

    async def put_edge(self, src: str, dst: str, rel: str, notes: list[str] | None, now: float,
                       writer: graph_ops.Writer, known_elsewhere: frozenset[str] = frozenset(),
                       refuse_unnamed: bool = False) -> PutEdgeResult:
        return await self._mailbox.ask(m.PutEdge(src, dst, rel, notes, now, writer, known_elsewhere, refuse_unnamed))

    async def repeat_credit(self, target_id: str, case_ts: float) -> bool:
        return await self._mailbox.ask(m.RepeatCredit(target_id, case_ts))

    async def delete_node(self, node_id: str, expected_version: int | None = None,
                          writer: graph_ops.Writer | None = None, now: float | None = None,
                          expected_fingerprint: str | None = None) -> int:
        return await self._mailbox.ask(m.DeleteNode(node_id, expected_version, writer, now, expected_fingerprint))

    async def delete_edge(self, key: EdgeKey, now: float | None = None) -> bool:
        return await self._mailbox.ask(m.DeleteEdge(key, now))

    async def record_reads(self, ids: list[str], now: float) -> dict[str, tuple[bool, list[str]]]:
        return await self._mailbox.ask(m.RecordReads(ids, now))

    async def endorse(self, node_id: str, now: float, credits: int | None) -> str:
        return await self._mailbox.ask(m.Endorse(node_id, now, credits))

    async def progress_set(self, task_id: str, state: dict[str, Any], now: float) -> dict[str, Any]:
        return await self._mailbox.ask(m.ProgressSet(task_id, state, now))

    async def rename_local(self, old_id: str, new_id: str, now: float, writer: graph_ops.Writer) -> int:
        return await self._mailbox.ask(m.RenameLocal(old_id, new_id, now, writer))

    async def rewire(self, old_id: str, new_id: str, now: float, writer: graph_ops.Writer) -> int:
        return await self._mailbox.ask(m.Rewire(old_id, new_id, now, writer))

    async def clean_dangling(self, outside_ids: frozenset[str], renamed: Mapping[str, str] | None = None,
                             now: float = 0.0) -> list[dict[str, Any]]:
        """The edges removed (each as stored, its notes included)."""
        return await self._mailbox.ask(m.CleanDangling(outside_ids, dict(renamed or {}), now))

    async def absorb(self, base: dict[str, Any], merged: dict[str, Any], now: float) -> list[str]:
        return await self._mailbox.ask(m.Absorb(base, merged, now))


# A scan still running after this is stuck: searches wait no longer for it (the index comes without it).
SCAN_WAIT_SECONDS = 120


async def build_index(handle: GraphHandle, graph: GraphSnapshot, scope: trio.CancelScope,
                      scanned: trio.Event | None = None) -> None:
    """The graph's first search index, built and installed by the actor that owns it (run_graph_actor starts
    it); `index_ready` from then on. `scanned`: set once the load's scan for secrets a hand edit left has
    answered (held_scan.mask_held); the index is installed after it."""
    # At once, not deferred to an idle loop: deferring a 10,000-node build moved its GIL time into the first
    # seconds of hook replies (idle p99 4.7 -> 18-31 ms in bench/hooks_bench.py). A large graph's is built
    # in a child process (index_process.py): the server's interpreter lock only loads its pieces (~0.1 s).
    with scope:
        try:
            index = await index_process.build(graph)
        except Exception:  # a bug in building must not take the graph down: its searches fail, the rest works
            log.exception("%s: the search index could not be built", handle.key)
            handle._index_ready.set()  # nobody waits forever for it
            return
        # Built from the nodes' full text, it files a node holding a secret by its withheld words until the
        # scan names it: installed before, a right guess of such a word would find the node and a wrong one
        # not. Searches wait meanwhile, hooks recall nothing, as while it builds; the scan runs beside it.
        if scanned is not None:
            with trio.move_on_after(SCAN_WAIT_SECONDS):
                await scanned.wait()
            if not scanned.is_set():
                log.warning("%s: the scan for secrets a hand edit left has not answered in %d s; the search index "
                            "is installed without it", handle.key, SCAN_WAIT_SECONDS)
        try:
            await handle.install_index(index)
        except KGError:
            return  # the actor stopped first
    if scope.cancelled_caught:
        return
    heap.freeze_loaded()  # the graph and its index
    handle._index_ready.set()
