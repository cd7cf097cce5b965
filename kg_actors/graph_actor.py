"""GraphActor: the one owner of one graph (user, maintain, or a project).

Theory of operation. The actor reads messages (graph_messages.py) from its
bounded mailbox and handles each to completion with the synchronous method
HANDLERS names for its class, so every message is atomic. A handler that
raises leaves the graph as it was (the model's undo log is rolled back). The
entries a message changed become one journal record, handed to this graph's
writer task (graph_writer.py), which appends and fsyncs batches of
records and only then answers their callers: a reply to a change means it is
on disk, while the actor goes on with the next message. The tick folds the
graph into its JSON file (atomic, `.prev` kept) and drops the journal; a
failed save stays dirty and is retried on the next tick and at shutdown. A
failed append is refused to its callers, and the actor then puts its graph
back to what is on disk (`resync` in graph_recovery.py, loading with graph_loading.py as a
start does) before its next message, so memory never holds a change the
store does not. A graph whose file could not be read at
all is served empty and refuses every change (`refusal`), so nothing is ever
written over the file the user has to restore.

A write that can move the render leaves a compaction owed (so does a read
that promotes: its stamp alone owes nothing), planned
when compaction_schedule.py says on a snapshot, in a task of its own, while
the actor goes on taking messages (starting from the charge index the actor
keeps per record, not from a pricing of the whole level); the actor carries
the plan out in parts between its messages, each rebased on the graph as it
then is and a change of its own with its own record. The last run, before
the last save, is planned on the graph itself. A create's write-time hints
are read in steps before the change. Between steps the actor yields to the
hook replies in flight (its one seam with hook_priority.py), so a hook waits
for one short step, not for a whole write.

Readers never touch the graph or its derived state: after every change (and
every change of what a view shows) the actor publishes a GraphView (a frozen
snapshot made at O(change), the recent values, the indexes as they stand)
into the handle's outlet, before its next await, so a reader that takes the
view finds it current with the indexes beside it (graph_view.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Generator
from pathlib import Path
from typing import Any

import attrs
import trio

from . import actor, held_scan
from . import graph_messages as m
from .core import absorb, anchors, compaction, gone_ids, graph_ops, hints, search, stale_edit
from .core.debt import Debt
from .core.errors import KGError, NotFound, StorageRefused
from .core.model import Edge, GraphData, GraphSnapshot, Node, dangling_edges, snapshot_to_json
from .core.changes_since import changes_since
from .core.steps import run_steps
from .hook_priority import YieldToHooks, pause_for
from .derived import Derived as Derived, build_derived as build_derived
from .graph_handle import GraphHandle as GraphHandle, build_index
from .compaction_schedule import Owed, Planning, Turn, next_message, owed_before_read, too_far_over, when_idle
from .graph_view import GraphView, Outlet
from .graph_file_watch import HAND_EDITED, Before, before_save, note
from .graph_recovery import index_committed, resync
from .graph_rescue import rescue
from .graph_writer import Resync, Snapshot, ToWriter, Written, answer_without_save, run_writer
from .storage import journal

log = logging.getLogger(__name__)


class GraphState:
    """What the actor owns. Every handler is synchronous: no await inside a message."""

    def __init__(self, key: str, level: str, graph: GraphData, derived: Derived | None = None,
                 orphan_grace_days: float = 365, clock: Callable[[], float] | None = None,
                 refusal: str | None = None):
        self.key = key
        self.refusal = refusal  # why every change is refused (the graph's file is unreadable), or None
        self.clock = clock  # when a change is applied (what pushes order by); None: its own stamp
        self.level = level
        self.graph = graph
        self.derived = derived or build_derived(graph, (clock or time.time)())  # the injected clock when given
        if self.derived.index is None and derived is None:
            self.derived.index = search.SearchIndex.build(graph)
        self.orphan_grace_days = orphan_grace_days
        self.dirty = graph.has_changes()
        self.outlet = Outlet(self.derived.view(graph.snapshot()))

    def publish(self) -> None:
        """Hand readers the graph as it stands (O(what changed since the last publish))."""
        self.outlet.view = self.derived.view(self.graph.snapshot())

    def changed(self, record: dict[str, Any]) -> None:
        """Bring derived indexes up to date with a committed record."""
        self.derived.changed(self.graph, record, self.clock() if self.clock is not None else None)

    def install_index(self, msg: m.InstallIndex) -> None:
        self.derived.install(self.graph, msg.index)

    def scanned(self, msg: m.Scanned) -> None:
        if msg.graph.lineage is self.graph.lineage:  # else a resync loaded another graph since: shown as checked
            self.graph.lineage.mask.scanned(msg.graph.nodes, msg.graph.edges, msg.held)
            self.derived.hold(self.graph)

    def current(self, msg: m.Current | m.Settled) -> GraphView:
        return self.derived.view(self.graph.snapshot())

    def prepare_debt(self, msg: m.GetDebt) -> Generator[None, None, m.GetDebt]:
        """A changed graph's debt, computed in steps before the answer (the graph cannot change between)."""
        yield from self.derived.debt_steps(self.graph, msg.now)
        return msg

    def debt(self, msg: m.GetDebt) -> Debt:
        return self.derived.debt(self.graph, msg.now)  # prepared: the cached one

    def touch_paths(self, msg: m.TouchPaths) -> list[tuple[str, str, str]]:
        return anchors.touch_paths(self.graph, msg.home)

    def set_missing_touches(self, msg: m.SetMissingTouches) -> None:
        self.derived.set_debt_inputs(missing_touches=msg.missing)

    def set_activity_days(self, msg: m.SetActivityDays) -> None:
        self.derived.set_debt_inputs(activity_days=msg.days)

    # Reads -----------------------------------------------------------------
    def node_ids(self, msg: m.NodeIds) -> frozenset[str]:
        return frozenset(self.graph.nodes)

    def get_nodes(self, msg: m.GetNodes) -> list[tuple[Node, list[Edge]] | None]:
        out = []
        for node_id in msg.ids:
            node = self.graph.nodes.get(node_id)
            out.append(None if node is None else (node, list(self.graph.incident(node_id))))
        return out

    def get_node(self, msg: m.GetNode) -> Node | None:
        return self.graph.nodes.get(msg.node_id)

    def references(self, msg: m.References) -> bool:
        return self.graph.degree(msg.node_id) > 0

    def dump(self, msg: m.Dump) -> dict[str, Any]:
        return snapshot_to_json(self.graph.snapshot_json())

    def stats(self, msg: m.Stats) -> dict[str, Any]:
        nodes = self.graph.nodes.values()
        return {
            "nodes": len(self.graph.nodes), "edges": len(self.graph.edges),
            "active": sum(n.active for n in nodes), "archived": sum(n.archived and not n.orphaned for n in nodes),
            "orphaned": sum(n.orphaned for n in nodes), "project_path": self.graph.project_path,
        }

    def progress_get(self, msg: m.ProgressGet) -> dict[str, Any] | None:
        return self.graph.progress.get(msg.task_id)

    def changes_since(self, msg: m.ChangesSince) -> list[tuple[str, Any]]:
        return changes_since(self.graph, msg.since, msg.session)

    # Writes ----------------------------------------------------------------
    def prepare_put_node(self, msg: m.PutNode) -> Generator[None, None, m.PutNode]:
        """A create's hints, read before the write in steps of their own (the graph cannot change between)."""
        node_id, gist = msg.node_id, msg.gist
        if not isinstance(node_id, str) or not isinstance(gist, str) or node_id in self.graph.nodes:
            return msg
        return attrs.evolve(msg, hints=(yield from self._hint_steps(node_id, gist)))

    def put_node(self, msg: m.PutNode) -> graph_ops.PutNodeResult:
        # The editor's stale-edit check, in the same message as the write so nothing slips between.
        stale_edit.check(self.graph, self.level, msg.node_id, msg.expected_version, msg.expected_fingerprint,
                         msg.create_only)
        # Stamped when applied, not when asked: a read that began after the asking but was served the graph
        # before this write saw `ts` as already seen, and its session's next write dropped this one.
        now = max(msg.now, self.clock()) if self.clock is not None else msg.now
        result = graph_ops.put_node(self.graph, self.level, msg.node_id, msg.gist, msg.notes, msg.touches,
                                    now, msg.writer)
        if not result.kept_held:  # the write refused any secret (conduct/write.py), unless it kept a stored one
            self.graph.lineage.mask.clean(result.node)
        if result.created:
            hints = msg.hints
            found = hints if hints is not None else run_steps(self._hint_steps(result.node.id, result.node.gist))
            return attrs.evolve(result, hints=found)
        return result

    def _hint_steps(self, node_id: str, gist: str) -> Generator[None, None, tuple[str, ...]]:
        """Write-time hints for a new node (the index does not hold it yet); yields between the two checks."""
        index = self.derived.index
        if index is None:
            return ()
        dup = yield from hints.near_duplicate_steps(index, self.graph, node_id, gist)
        if dup is not None:
            return (hints.near_duplicate_hint(self.graph.lineage.mask.node(self.graph.nodes[dup[0]])),)
        yield
        hub = hints.hub_mention(index, self.graph, node_id, gist, self.derived.most_connected(self.graph))
        if hub is not None:
            return (hints.hub_mention_hint(hub[0], self.graph.lineage.mask.node(self.graph.nodes[hub[1]])),)
        return ()

    def put_edge(self, msg: m.PutEdge) -> m.PutEdgeResult:
        src, dst, rel = msg.src, msg.dst, msg.rel
        edge, said = graph_ops.put_edge(self.graph, src, dst, rel, msg.notes, msg.now, msg.writer, msg.known_elsewhere,
                                        msg.refuse_unnamed)
        credited = None
        if rel == "instance-of":
            case = self.graph.nodes.get(src)
            if case is not None and case.created_ts is not None:
                if dst in self.graph.nodes:
                    if graph_ops.repeat_credit(self.graph, dst, case.created_ts):
                        credited = dst
                else:
                    return m.PutEdgeResult(edge, None, (dst, case.created_ts), said)
        return m.PutEdgeResult(edge, credited, None, said)

    def repeat_credit(self, msg: m.RepeatCredit) -> bool:
        target_id, case_ts = msg.target_id, msg.case_ts
        return graph_ops.repeat_credit(self.graph, target_id, case_ts)

    def delete_node(self, msg: m.DeleteNode) -> int:
        stale_edit.check(self.graph, self.level, msg.node_id, msg.expected_version,  # the editor's; None: nothing
                         msg.expected_fingerprint)
        return graph_ops.delete_node(self.graph, msg.node_id, self.level, msg.writer)

    def delete_edge(self, msg: m.DeleteEdge) -> bool:
        return graph_ops.delete_edge(self.graph, msg.key)

    def record_reads(self, msg: m.RecordReads) -> dict[str, tuple[bool, list[str]]]:
        ids, now = msg.ids, msg.now
        return {i: graph_ops.record_read(self.graph, i, now) for i in ids if i in self.graph.nodes}

    def endorse(self, msg: m.Endorse) -> str:
        node_id, now, credits = msg.node_id, msg.now, msg.credits
        if node_id not in self.graph.nodes:
            raise NotFound(f"node '{node_id}' not found")
        return graph_ops.endorse(self.graph, node_id, now, credits)

    def progress_set(self, msg: m.ProgressSet) -> dict[str, Any]:
        task_id, state, now = msg.task_id, msg.state, msg.now
        return graph_ops.set_progress(self.graph, task_id, state, now)

    def rename_local(self, msg: m.RenameLocal) -> int:
        return graph_ops.rename_local(self.graph, msg.old_id, msg.new_id, msg.now, msg.writer)

    def rewire(self, msg: m.Rewire) -> int:
        return graph_ops.rewire(self.graph, msg.old_id, msg.new_id, msg.now, msg.writer)

    def clean_dangling(self, msg: m.CleanDangling) -> list[dict[str, Any]]:
        """The edges removed, as they were (notes included): the load keeps a copy (storage/removed_edges.py)."""
        held = {k: self.graph.edges[k] for k in dangling_edges(self.graph, msg.outside_ids)}
        rewired, removed = graph_ops.clean_dangling(self.graph, msg.outside_ids, msg.renamed, msg.now)
        for old_id, new_id in rewired:
            log.info("%s: rewiring edges of renamed user node %s to %s", self.key, old_id, new_id)
        return [held[k].to_json() for k in removed if k in held]

    def set_project_path(self, msg: m.SetProjectPath) -> None:
        if self.graph.move_to(msg.path):
            self.derived.rerooted(self.graph)

    def absorb(self, msg: m.Absorb) -> list[str]:
        """What a git merge changed in this graph's file (base -> merged), merged with writes since `base`."""
        return gone_ids.after_merge(self.graph, absorb.absorb(self.graph, msg.base, msg.merged, msg.now))

    def prepare_tick(self, msg: m.Tick) -> Generator[None, None, m.Tick]:
        """The whole level's compaction planned, and the orphans past their grace found, in steps
        (10-25 ms at 10,000 nodes: hook replies go between them)."""
        plan = yield from compaction.plan_steps(self.graph, msg.now, charges=self.derived.charges)
        yield
        return attrs.evolve(msg, plan=plan, due=tuple(compaction.prune_due(self.graph, msg.now,
                                                                            self.orphan_grace_days, msg.since)))

    def tick(self, msg: m.Tick) -> m.TickResult:
        result = (compaction.commit(self.graph, msg.plan) if msg.plan is not None
                  else compaction.compact(self.graph, msg.now, charges=self.derived.charges))
        pruned = compaction.prune_orphans(self.graph, msg.now, self.orphan_grace_days, msg.due, msg.since)
        if pruned:
            log.info("%s: %s", self.key, compaction.pruned_words(pruned, self.orphan_grace_days))
        if result.acted or pruned:
            self.derived.compactions += 1
        return m.TickResult(result, pruned)


# How the actor answers each message (Fold, Refresh and Discard are the loop's own), and
# the read-only preparation a message has, run in steps before it.
HANDLERS: dict[type[m.GraphMessage[Any]], Callable[[GraphState, Any], object]] = {
    m.InstallIndex: GraphState.install_index, m.Scanned: GraphState.scanned, m.Current: GraphState.current,
    m.GetDebt: GraphState.debt,
    m.Settled: GraphState.current, m.TouchPaths: GraphState.touch_paths,
    m.SetMissingTouches: GraphState.set_missing_touches,
    m.SetActivityDays: GraphState.set_activity_days, m.NodeIds: GraphState.node_ids,
    m.GetNodes: GraphState.get_nodes, m.GetNode: GraphState.get_node, m.References: GraphState.references,
    m.Dump: GraphState.dump, m.Stats: GraphState.stats, m.ProgressGet: GraphState.progress_get,
    m.ChangesSince: GraphState.changes_since,
    m.SetProjectPath: GraphState.set_project_path, m.Tick: GraphState.tick,
    m.PutNode: GraphState.put_node, m.PutEdge: GraphState.put_edge, m.RepeatCredit: GraphState.repeat_credit,
    m.DeleteNode: GraphState.delete_node, m.DeleteEdge: GraphState.delete_edge,
    m.RecordReads: GraphState.record_reads, m.Endorse: GraphState.endorse, m.ProgressSet: GraphState.progress_set,
    m.RenameLocal: GraphState.rename_local, m.Rewire: GraphState.rewire, m.CleanDangling: GraphState.clean_dangling,
    m.Absorb: GraphState.absorb,
}
PREPARE: dict[type[m.GraphMessage[Any]], Callable[[GraphState, Any], Generator[None, None, Any]]] = {
    m.PutNode: GraphState.prepare_put_node,
    m.GetDebt: GraphState.prepare_debt,
    m.Tick: GraphState.prepare_tick,
}


async def run_graph_actor(
    key: str, level: str, path: Path, graph: GraphData, derived: Derived | None = None,
    orphan_grace_days: float = 365, yield_to_hooks: YieldToHooks | None = None,
    clock: Callable[[], float] | None = None, refusal: str | None = None,
    *, task_status: trio.TaskStatus[GraphHandle] = trio.TASK_STATUS_IGNORED,
) -> None:
    state = GraphState(key, level, graph, derived, orphan_grace_days, clock, refusal)
    # A journal replayed on load is folded by the next save, even when nothing is written meanwhile.
    state.dirty = state.dirty or (refusal is None and journal.journal_path(path).exists())
    mailbox = actor.Mailbox[m.GraphMessage[Any]](f"graph {key}")
    handle = GraphHandle(key, level, mailbox, trio.Event(), state.outlet)
    to_writer, writer_items = trio.open_memory_channel[Written | Snapshot | Resync](2 ** 16)
    status: dict[str, Any] = state.outlet.status  # readers of the view see a refusal at once
    note(status, path)  # what the load read: a save compares the file with it (graph_file_watch.py)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_writer, path, writer_items, status, nursery)
            # What the load changed: the project's folder, journaled at once (it is the binding of folder to graph),
            # and settling's moves, which are not: a load settles the same file the same way again, and the next
            # fold saves them. Journaling a fresh store's ~8,000 moves encoded them beside the first read.
            loaded = state.graph.take_load_changes()
            if loaded is not None:
                state.graph.commit()
                state.dirty = True
                if "m" in loaded:
                    await to_writer.send(Written({"m": loaded["m"]}, None, actor.ReplySlot()))
            # The index build asks the actor to install it: once the loop ends nobody answers, so it
            # is cancelled then (a reload's discard right after a load waited on it forever). It waits for
            # the load's scan to answer first (build_index), if one runs.
            building, scanning, answered = trio.CancelScope(), trio.CancelScope(), trio.Event()
            if state.derived.index is None:
                scan = answered if refusal is None else None
                nursery.start_soon(build_index, handle, state.graph.snapshot(), building, scan)
                if refusal is None:  # a first load: name what a hand edit left (held_scan.py), off the hooks' way
                    nursery.start_soon(held_scan.mask_held, handle, path, state.graph.snapshot(), scanning, answered)
            else:
                handle._index_ready.set()
            task_status.started(handle)
            discard = None
            owed: Owed | None = None
            planning: Planning | None = None  # a compaction being planned on a snapshot meanwhile
            idle = when_idle(pause_for(yield_to_hooks))  # a plan's steps and parts: what is in flight goes first
            while True:
                try:
                    msg = await next_message(mailbox.receive, owed, planning)
                except trio.EndOfChannel:
                    break
                if msg is Turn.DUE:  # the compaction writes left owing: planned while messages go on
                    assert owed is not None
                    planning = Planning.start(nursery, key, state.graph.snapshot(), state.derived.charges, owed.now, idle)
                    owed = None
                    continue
                if msg is Turn.PLANNED:  # the plan's next part, a change of its own
                    assert planning is not None
                    try:
                        part = planning.next_part(state.graph)
                    except Exception:  # a bug in rebasing the plan: this run is dropped, the tick compacts
                        log.exception("%s: carrying out a planned compaction failed", key)
                        planning.cancel()
                        planning = None
                        continue
                    await _commit_planned(state, to_writer, part, idle)
                    if not planning.done:
                        continue
                    planning = None
                    if owed is not None:  # what was written meanwhile: its own run, as due as the level now says
                        owed = attrs.evolve(owed, over=too_far_over(state.derived.charges))
                    continue
                assert not isinstance(msg, Turn)
                if status.get("journal_failed") or (isinstance(msg, m.Fold) and status.get("resync_failed")):
                    await resync(state, path, to_writer, status)
                if isinstance(msg, m.Fold):
                    state.dirty = state.dirty or msg.whole
                    await _request_fold(state, to_writer, msg.reply, status, path, msg.routine)
                    continue
                if isinstance(msg, m.Refresh):  # recent values older than the graph, off the loop
                    try:
                        snap = state.graph.snapshot()
                        names = state.derived.stale(snap, msg.now)
                        if names:
                            # Computed from a snapshot in a worker thread, swapped in here, on the loop.
                            fresh = await trio.to_thread.run_sync(state.derived.compute_recent, snap, msg.now,
                                                                  names)
                            state.derived.install_recent(fresh)
                            state.publish()
                    except Exception as exc:  # a bug here fails this message, not the graph (the old values stay)
                        log.exception("%s: %s failed", key, msg.op)
                        msg.reply.fail(KGError(f"internal error while handling {msg.op}: {exc!r}"))
                        continue
                    msg.reply.set(names)
                    continue
                if isinstance(msg, m.Discard):
                    discard = msg.reply
                    break
                if yield_to_hooks is not None and msg.changes_render:
                    await yield_to_hooks()  # before the message, so it stays atomic
                # Up to two steps (read-only preparation, the change); no message is taken between
                # them, and the graph changes only in the last.
                pause = pause_for(yield_to_hooks)
                if isinstance(msg, m.Settled) and (at := owed_before_read(
                        owed, planning.now if planning else None, state.derived.charges, msg.now)) is not None:
                    await _compact(state, to_writer, at, pause, planning)  # a full read: the run pending, first
                    owed = planning = None
                prepare = PREPARE.get(type(msg))
                if prepare is not None:
                    prepared = await actor.prepared(prepare(state, msg), pause, key, msg.op, msg)
                    if prepared is not msg:
                        msg = prepared
                        await pause()
                handler, change, before = HANDLERS[type(msg)], msg, state.derived.charges.high()
                changed = await _apply(state, to_writer, msg.reply, msg.op, lambda: handler(state, change),
                                       msg.fsync_before_reply, msg.reads_only or msg.derived_only)
                if msg.derived_only:
                    state.publish()
                if isinstance(msg, m.Absorb):
                    note(status, path)  # the merge's file, now in the graph: not a hand edit
                now = getattr(msg, "now", None)
                if isinstance(msg, m.Tick):
                    owed = None  # the tick compacted
                    if planning is not None:
                        planning.cancel()
                        planning = None
                elif changed and msg.changes_render and now is not None and (msg.compacts_after or (
                        msg.compacts_after_growth and state.derived.charges.high() > before)):
                    over = too_far_over(state.derived.charges)
                    owed = Owed(now, trio.current_time(), over) if owed is None else owed.again(now, over)
                    if over:  # too far over to wait for a run, or for one being planned: paid before the next message
                        await _compact(state, to_writer, owed.now, pause, planning)
                        owed = planning = None
            for scope in (building, scanning):  # the scan of a large file held a stop for seconds: the next load scans
                scope.cancel()
            if planning is not None:
                planning.cancel()
                owed = owed or Owed(planning.now, 0.0)  # unfinished: paid below
            if discard is None and owed is not None:
                await _compact(state, to_writer, owed.now, trio.lowlevel.checkpoint)
            if discard is None:
                # Mailbox closed: fold what is dirty, then let the writer finish.
                slot: actor.ReplySlot[bool] = actor.ReplySlot()
                await _request_fold(state, to_writer, slot, status, path)
                if not await slot.wait() and not status.get(HAND_EDITED) and not status.get("refusing"):
                    await rescue(key, path, state.graph.snapshot_json())  # the journal may be lost with the disk
            # The writer drains what is queued (acknowledged writes reach the journal) and ends.
            await to_writer.aclose()
    finally:
        mailbox.drain_stopped()
    if discard is not None:
        discard.set(bool(status.get("save_failed")))


async def _compact(state: GraphState, to_writer: ToWriter, now: float, pause: Callable[[], Awaitable[None]],
                   planning: Planning | None = None) -> None:
    """Keep the graph inside its budget, planned on the graph itself in steps (the actor takes no message
    meanwhile: its last run, before the last save, or one that may not wait), then carried out as a change;
    `planning`, a run being planned on a snapshot, is dropped (what it would do, this one does)."""
    if planning is not None:
        planning.cancel()
    steps = compaction.plan_steps(state.graph, now, rebalance=False, charges=state.derived.charges)
    plan = await actor.prepared(steps, pause, state.key, "compaction", None)
    await _commit_planned(state, to_writer, plan, pause)


async def _commit_planned(state: GraphState, to_writer: ToWriter, plan: compaction.Plan | None,
                          pause: Callable[[], Awaitable[None]]) -> None:
    if plan is not None and plan.moves:
        await pause()
        # Nobody waits on it, and a lost plan is planned again: no fsync of its own.
        def change() -> compaction.CompactionResult:
            result = compaction.commit(state.graph, plan)
            state.derived.compactions += result.acted
            return result

        await _apply(state, to_writer, None, "compaction", change, synced=False)


async def _apply(state: GraphState, to_writer: ToWriter, reply: actor.ReplySlot[Any] | None, op: str,
                 change: Callable[[], Any], synced: bool = True, reads_only: bool = False) -> bool:
    """Run one change to completion: rolled back on an error, else committed, indexed and journaled.

    The caller gets its answer from the writer once the record is durable; a message that `reads_only`
    gets it at once, and nothing pending is journaled with it. True when something changed.
    """
    try:
        result = change()
        if reads_only:
            if reply is not None:
                reply.set(result)
            return False
        if state.refusal is not None and state.graph.has_changes():
            raise StorageRefused(state.refusal)
    except Exception as exc:
        state.graph.rollback()
        if isinstance(exc, StorageRefused):
            state.graph.take_changes()  # what the rollback marked: nothing of it reaches the journal
        if not isinstance(exc, KGError):  # a bug in one message must not take the graph down
            log.exception("%s: %s failed", state.key, op)
            exc = KGError(f"internal error while handling {op}: {exc!r}")
        if reply is not None:
            reply.fail(exc)
        return False
    state.graph.commit()
    record = state.graph.take_changes()
    if record is None:
        state.publish()  # what a view shows beside the graph may have moved (an index, missing touches)
        if reply is not None:
            reply.set(result)
        return False
    state.dirty = True
    index_committed(state, record)
    await to_writer.send(Written(record, result, reply if reply is not None else actor.ReplySlot(), synced))
    return True


async def _request_fold(state: GraphState, to_writer: ToWriter, reply: actor.ReplySlot[bool],
                        status: dict[str, Any], path: Path, routine: bool = False) -> None:
    """Hand a consistent snapshot to the writer; the writer answers `reply` when it is saved. `routine`:
    the save tick asks, and a large file's fold may wait (graph_writer.fold_waits). A file changed under
    the server is written back when damaged, and not saved over when edited by hand (graph_file_watch.py)."""
    now = (state.clock or time.time)()
    before = Before.SAVE if state.refusal is not None else await before_save(
        state.key, path, state.graph.kind, len(state.graph.nodes), status)
    if (answer := answer_without_save(before, status, state.dirty, path if routine else None, now)) is not None:
        reply.set(answer)
        return
    state.dirty = False  # a failed save sets status["save_failed"], so the next tick tries again
    await to_writer.send(Snapshot(state.graph.snapshot_json(), reply))
