"""GraphActor: the one owner of one graph (user, maintain, or a project).

Theory of operation. The actor reads `Request`s from its bounded mailbox and
handles each to completion with a synchronous `op_*` method, so every message
is atomic. A handler that raises leaves the graph as it was (the model's undo
log is rolled back). The entries a message changed become one journal record,
handed to this graph's writer task, which appends and fsyncs batches of
records and only then answers their callers: a reply to a change means it is
on disk, while the actor goes on with the next message. The tick folds the
graph into its JSON file (atomic, `.prev` kept) and drops the journal; a
failed save stays dirty and is retried on the next tick and at shutdown.

A write that can move the render is followed by compaction, decided in
read-only steps and carried out as a change of its own with its own record,
before the next message is taken; a create's write-time hints are read in
steps before the change. Between these steps
the actor yields, stepping aside while a hook reply is in flight (lanes.py),
so a hook waits for one short step, not for a whole write.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Generator
from pathlib import Path
from typing import Any

import attrs
import trio

from . import actor, heap
from .core import constants as C
from .core import absorb, anchors, compaction, debt, graph_ops, hints, reads, render, scoring, search, touches
from .core.errors import Conflict, KGError, NotFound, WriteConflict
from .core.model import Edge, GraphData, Node, dangling_edges, node_version_key, snapshot_to_json
from .core.steps import run_steps
from .core.written import WrittenLog
from .storage import files, journal

log = logging.getLogger(__name__)


@attrs.frozen
class Written:
    """A change's result, answered by the writer once its record is durable."""

    record: dict | None
    result: Any
    reply: actor.ReplySlot


@attrs.frozen
class Fold:
    snapshot: dict
    reply: actor.ReplySlot


def load_graph(path: Path, kind: str, project_path: str | None) -> tuple[GraphData, int]:
    """Read a graph (JSON, `.prev` fallback, then its journal). Runs in a worker thread.

    The derived indexes are built here too, before any other task can see the
    graph, so the actor never stalls the event loop building them.
    """
    raw = files.load_json(path)
    graph = GraphData.from_json(raw, kind) if isinstance(raw, dict) else GraphData(kind)
    jpath = journal.journal_path(path)
    if journal.belongs(jpath):
        replayed = journal.read(jpath)
    else:
        # The file was replaced after these writes (a restore): disk wins, the writes are kept aside.
        dropped = journal.set_aside(jpath)
        log.warning("%s was written after its journal began (a restore, or a save cut short before it removed "
                    "the journal): disk wins; %d change(s) of the journal were set aside "
                    "in %s.dropped", path.name, dropped, jpath.name)
        replayed = []
    for record in replayed:
        graph.apply_record(record)
    graph.take_changes()
    graph.commit()
    if kind == "project" and project_path and graph.project_path != project_path:
        graph.project_path = project_path
        graph.meta_changed = True
    return graph, len(replayed)


def settle(graph: GraphData, now: float, runs: int = 10) -> int:
    """Compact a freshly loaded graph that is over its budget until nothing acts.

    A store written elsewhere may be far over (thousands of anchors); settling it
    here, in a worker thread before the actor starts, spares the first write.
    A graph within its budget is left as it is until a write or the tick.
    """
    budget = C.MAX_CHARS_PER_LEVEL
    if render.fast_charge(graph) <= budget and render.archived_anchor_chars(graph) <= budget * C.ARCHIVED_BUDGET_RATIO:
        return 0
    for run in range(runs):
        if not compaction.compact(graph, now).acted:
            return run
    return runs


def build_derived(graph: GraphData, now: float) -> Derived:
    """The cheap derived state of a graph nobody else holds yet (worker thread).

    The search index is the slow one (seconds at 10,000 nodes): the actor
    builds it in the background from a snapshot and installs it when done.
    """
    derived = Derived(None, touches.TouchIndex.build(graph, str(Path.home())), WrittenLog.build(graph))
    derived.debt(graph, now)  # the first call warms its per-graph term counts
    derived.scores(graph, now)  # so the first reply does not pay for the recent values
    derived.debt(graph, now)
    derived.live_edges(graph)
    return derived


@attrs.frozen
class _NodesSnapshot:
    """Frozen nodes as of one moment: enough for SearchIndex.build off the event loop."""

    nodes: dict
    gen: int = -2


class Derived:
    """Indexes kept current with the graph (search postings, touches, write order) and per-version caches."""

    def __init__(self, index: search.SearchIndex | None, touch_index: touches.TouchIndex, written: WrittenLog):
        self.index = index
        self.touch_index = touch_index
        self.written = written
        self.missing_touches: frozenset[str] = frozenset()
        self.activity_days: frozenset[str] = frozenset()  # a project's tool-event days (DEBT activity)
        self._debt: tuple[tuple[int, int, int], debt.Debt] | None = None
        self.debt_inputs = 0  # bumped when missing_touches or activity_days change
        self._scores: tuple[int, dict[str, float]] | None = None
        self._live_edges: tuple[int, int] | None = None
        self._stale: set[str] = set()  # recent values handed out older than the graph
        self._part: tuple[int, str, reads.LevelPart] | None = None
        self._gists_part: tuple[int, str, reads.LevelPart] | None = None

    def node_changed(self, graph: GraphData, node_id: str, applied: float | None = None) -> None:
        node = graph.nodes.get(node_id)
        for index in (self.index, self.touch_index):
            if index is None:
                continue  # the background build catches up with `sync` when it is installed
            if node is None:
                index.remove_node(node_id)
            else:
                index.update_node(node)
        if node is None:
            self.written.remove_node(node_id)
        else:
            self.written.update_node(node, applied)

    def scores(self, graph: GraphData, now: float) -> dict[str, float]:
        """Unified-pool scores. Percentile ranks do not move with `now`, so one per graph version."""
        if self._scores is None or self._scores[0] != graph.gen:
            self._scores = (graph.gen, scoring.unified_scores(graph, now))
        return self._scores[1]

    # Values of a recent graph version, for hook replies: each costs 20-100 ms at 10,000 nodes,
    # which no reply may pay after every write. Computed at first use; a reply that finds one
    # older than the graph flags it, and the tick recomputes what is flagged, off the loop.
    def recent_scores(self, graph: GraphData, now: float) -> dict[str, float]:
        """Scores to order a few recalled nodes or shed preload gists by; a newer node has none."""
        return self._recently("scores", self._scores, graph.gen, lambda: self.scores(graph, now))

    def recent_debt(self, graph: GraphData, now: float) -> debt.Debt:
        return self._recently("debt", self._debt, self._debt_key(graph, now), lambda: self.debt(graph, now))

    def recent_live_edges(self, graph: GraphData) -> int:
        return self._recently("live_edges", self._live_edges, graph.gen, lambda: self.live_edges(graph))

    def _recently(self, name: str, held: tuple | None, key: Any, fresh: Callable[[], Any]) -> Any:
        """`held`: (the key it was computed for, the value)."""
        if held is None:
            return fresh()
        if held[0] != key:
            self._stale.add(name)
        return held[1]

    def take_stale(self) -> frozenset[str]:
        stale, self._stale = frozenset(self._stale), set()
        return stale

    def refresh(self, graph: GraphData, now: float, names: frozenset[str]) -> None:
        """Recompute the recent values `names` (take_stale). Pure reads of `graph`: the actor runs
        this in a worker thread while it takes no message, so nothing changes the graph meanwhile."""
        for name in sorted(names):
            {"scores": self.scores, "debt": self.debt, "live_edges": lambda g, _: self.live_edges(g)}[name](graph, now)

    def live_edges(self, graph: GraphData) -> int:
        if self._live_edges is None or self._live_edges[0] != graph.gen:
            self._live_edges = (graph.gen, render.live_edge_count(graph))
        return self._live_edges[1]

    def level_part(self, graph: GraphData, level: str, preloaded: frozenset[str], now: float) -> reads.LevelPart:
        """The full read's body for this level: the render plan is rebuilt only when the graph changed."""
        if self._part is None or self._part[:2] != (graph.gen, level):
            self._part = (graph.gen, level, reads.level_part(graph, level, frozenset(), self.scores(graph, now)))
        return reads.with_preloaded(self._part[2], preloaded)

    def gists_part(self, graph: GraphData, level: str, now: float) -> reads.LevelPart:
        """The level's body without its archived anchors, valued by recent scores: the preload's,
        when its gists alone overflow it (planning 10,000 anchors per write is what it spares)."""
        if self._gists_part is None or self._gists_part[:2] != (graph.gen, level):
            part = reads.level_part(graph, level, frozenset(), self.recent_scores(graph, now), anchors=False,
                                    live_edges=self.recent_live_edges(graph))
            self._gists_part = (graph.gen, level, part)
        return self._gists_part[2]

    def debt(self, graph: GraphData, now: float) -> debt.Debt:
        key = self._debt_key(graph, now)
        if self._debt is None or self._debt[0] != key:
            self._debt = (key, debt.compute_debt(graph, now, missing_touches=self.missing_touches,
                                                 activity_days=self.activity_days))
        return self._debt[1]

    def _debt_key(self, graph: GraphData, now: float) -> tuple[int, int, int]:
        return graph.gen, int(now // 86_400), self.debt_inputs

    def set_debt_inputs(self, missing_touches: frozenset[str] | None = None,
                        activity_days: frozenset[str] | None = None) -> None:
        """What the tick learns outside the graph; debt is computed again only when either changed."""
        for name, value in (("missing_touches", missing_touches), ("activity_days", activity_days)):
            if value is not None and frozenset(value) != getattr(self, name):
                setattr(self, name, frozenset(value))
                self.debt_inputs += 1


def node_version(graph: GraphData, node_id: str) -> int:
    """The node's content version (`_meta.versions["node:<id>"].v`; 0 for a node never versioned)."""
    entry = graph.versions.get(node_version_key(node_id))
    return int(entry.get("v", 0)) if isinstance(entry, dict) else 0


class GraphState:
    """What the actor owns. Every `op_*` is synchronous: no await inside a message."""

    def __init__(self, key: str, level: str, graph: GraphData, derived: Derived | None = None,
                 orphan_grace_days: float = 365, clock: Callable[[], float] | None = None):
        self.key = key
        self.clock = clock  # when a change is applied (what pushes order by); None: its own stamp
        self.level = level
        self.graph = graph
        self.derived = derived or build_derived(graph, time.time())
        if self.derived.index is None and derived is None:
            self.derived.index = search.SearchIndex.build(graph)
        self.orphan_grace_days = orphan_grace_days
        self.dirty = graph.has_changes()

    def changed(self, record: dict) -> None:
        """Bring derived indexes up to date with a committed record."""
        applied = self.clock() if self.clock is not None else None
        for node_id in record.get("n", {}):
            self.derived.node_changed(self.graph, node_id, applied)

    def op_install_index(self, index: search.SearchIndex) -> None:
        index.sync(self.graph)  # catch up with what changed while it was built
        self.derived.index = index

    def op_view(self) -> tuple[GraphData, Derived]:
        """A read view for a handler's synchronous computation (valid until it next awaits)."""
        return self.graph, self.derived

    def op_debt(self, now: float) -> debt.Debt:
        return self.derived.debt(self.graph, now)

    def op_touch_paths(self, home: str) -> list[tuple[str, str, str]]:
        return anchors.touch_paths(self.graph, home)

    def op_set_missing_touches(self, missing: frozenset[str]) -> None:
        self.derived.set_debt_inputs(missing_touches=missing)

    def op_set_activity_days(self, days: frozenset[str]) -> None:
        self.derived.set_debt_inputs(activity_days=days)

    # Reads -----------------------------------------------------------------
    def op_node_ids(self) -> frozenset[str]:
        return frozenset(self.graph.nodes)

    def op_get_nodes(self, ids: list[str]) -> list[tuple[Node, list[Edge]] | None]:
        out = []
        for node_id in ids:
            node = self.graph.nodes.get(node_id)
            out.append(None if node is None else (node, list(self.graph.incident(node_id))))
        return out

    def op_get_node(self, node_id: str) -> Node | None:
        return self.graph.nodes.get(node_id)

    def op_references(self, node_id: str) -> bool:
        return self.graph.degree(node_id) > 0

    def op_dump(self) -> dict:
        return snapshot_to_json(self.graph.snapshot_json())

    def op_stats(self) -> dict:
        nodes = self.graph.nodes.values()
        return {
            "nodes": len(self.graph.nodes), "edges": len(self.graph.edges),
            "active": sum(n.active for n in nodes), "archived": sum(n.archived and not n.orphaned for n in nodes),
            "orphaned": sum(n.orphaned for n in nodes), "project_path": self.graph.project_path,
        }

    def op_progress_get(self, task_id: str) -> dict | None:
        return self.graph.progress.get(task_id)

    def op_changes_since(self, since: float, session: str | None) -> list[tuple[str, Any]]:
        """Version entries other sessions made after `since` (kg_sync)."""
        out: list[tuple[str, Any]] = []
        for vkey, entry in self.graph.versions.items():
            ts = entry.get("ts") if isinstance(entry, dict) else None
            if not isinstance(ts, int | float) or ts <= since or entry.get("session") == session:
                continue
            if vkey.startswith("node:"):
                node = self.graph.nodes.get(vkey[5:])
                written = (node.written or {}) if node else {}
                if node is not None and (written.get("by") != session or written.get("ts", 0) > since):
                    out.append(("node", node))
            elif vkey.startswith("edge:"):
                for edge in self._edge_by_storage_key(vkey[5:]):
                    out.append(("edge", edge))
        return out

    def _edge_by_storage_key(self, skey: str) -> list[Edge]:
        head, _, rel = skey.rpartition(":")
        src, _, dst = head.partition("->")
        edge = self.graph.edges.get((src, dst, rel))
        return [edge] if edge else []

    def op_written_since(self, since: float) -> list[Node]:
        """Nodes whose content was written after `since`, oldest first (pushes)."""
        return [self.graph.nodes[i] for i in self.derived.written.since(since)]

    # Writes ----------------------------------------------------------------
    def prepare_put_node(self, node_id: object = None, gist: object = None,
                         **_: Any) -> Generator[None, None, dict]:
        """A create's hints, read before the write in steps of their own (the graph cannot change between)."""
        if not isinstance(node_id, str) or not isinstance(gist, str) or node_id in self.graph.nodes:
            return {}
        return {"hints": (yield from self._hint_steps(node_id, gist))}

    def op_put_node(self, expected_version: int | None = None, create_only: bool = False,
                    hints: tuple[str, ...] | None = None, **kw: Any) -> graph_ops.PutNodeResult:
        if expected_version is not None or create_only:
            self._expect_version(kw["node_id"], expected_version, create_only)
        result = graph_ops.put_node(self.graph, self.level, **kw)
        if result.created:
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
            return (hints.near_duplicate_hint(self.graph.nodes[dup[0]]),)
        yield
        hub = hints.hub_mention(index, self.graph, node_id, gist)
        if hub is not None:
            return (hints.hub_mention_hint(hub[0], self.graph.nodes[hub[1]]),)
        return ()

    def _expect_version(self, node_id: str, expected: int | None, create_only: bool) -> None:
        """The editor's stale-edit check, in the same message as the write so nothing slips between.

        `expected` is the node's version the editor loaded; `create_only` says it must not exist yet.
        """
        node = self.graph.nodes.get(node_id)
        if node is None:
            if expected is not None:
                raise Conflict(f"node '{node_id}' was deleted or renamed after the editor loaded it")
            return
        if create_only:
            raise WriteConflict(self.level, node_id, node.content(), f"a node '{node_id}' already exists")
        current = node_version(self.graph, node_id)
        if expected is not None and current != expected:
            raise WriteConflict(self.level, node_id, node.content(),
                                f"changed since the editor loaded it (version {expected}, now {current})")

    def op_put_edge(self, src: str, dst: str, rel: str, notes, now: float, writer: graph_ops.Writer,
                    known_elsewhere: frozenset[str] = frozenset()) -> dict:
        edge = graph_ops.put_edge(self.graph, src, dst, rel, notes, now, writer, known_elsewhere)
        credited = None
        if rel == "instance-of":
            case = self.graph.nodes.get(src)
            if case is not None and case.created_ts is not None:
                if dst in self.graph.nodes:
                    if graph_ops.repeat_credit(self.graph, dst, case.created_ts):
                        credited = dst
                else:
                    return {"edge": edge, "credited": None, "credit_elsewhere": (dst, case.created_ts)}
        return {"edge": edge, "credited": credited, "credit_elsewhere": None}

    def op_repeat_credit(self, target_id: str, case_ts: float) -> bool:
        return graph_ops.repeat_credit(self.graph, target_id, case_ts)

    def op_delete_node(self, node_id: str) -> int:
        return graph_ops.delete_node(self.graph, node_id)

    def op_delete_edge(self, key: tuple[str, str, str]) -> bool:
        return graph_ops.delete_edge(self.graph, key)

    def op_record_reads(self, ids: list[str], now: float) -> dict[str, tuple[bool, list[str]]]:
        return {i: graph_ops.record_read(self.graph, i, now) for i in ids if i in self.graph.nodes}

    def op_endorse(self, node_id: str, now: float, credits: int | None) -> str:
        if node_id not in self.graph.nodes:
            raise NotFound(f"node '{node_id}' not found")
        return graph_ops.endorse(self.graph, node_id, now, credits)

    def op_progress_set(self, task_id: str, state: dict, now: float) -> dict:
        return graph_ops.set_progress(self.graph, task_id, state, now)

    def op_rename_local(self, old_id: str, new_id: str, now: float, writer: graph_ops.Writer) -> int:
        return graph_ops.rename_local(self.graph, old_id, new_id, now, writer)

    def op_rewire(self, old_id: str, new_id: str, now: float, writer: graph_ops.Writer) -> int:
        return graph_ops.rewire(self.graph, old_id, new_id, now, writer)

    def op_clean_dangling(self, outside_ids: frozenset[str]) -> int:
        keys = dangling_edges(self.graph, outside_ids)
        for key in keys:
            log.info("%s: removing edge %s->%s:%s (an endpoint names no node)", self.key, *key)
            graph_ops.delete_edge(self.graph, key)
        return len(keys)

    def op_set_project_path(self, path: str) -> None:
        if self.graph.project_path != path:
            self.graph.project_path = path
            self.graph.meta_changed = True
            self.graph.gen += 1

    def op_call(self, fn: Callable[[GraphData], Any]) -> Any:
        """Run a pure function over the graph inside the actor (reads and computed writes)."""
        return fn(self.graph)

    def op_absorb(self, base: dict, merged: dict, now: float) -> list[str]:
        """What a git merge changed in this graph's file (base -> merged), merged with writes since `base`."""
        return absorb.absorb(self.graph, base, merged, now)

    def op_tick(self, now: float) -> dict:
        result = compaction.compact(self.graph, now)
        pruned = compaction.prune_orphans(self.graph, now, self.orphan_grace_days)
        return {"compaction": result, "pruned": pruned}


# Ops whose changes can move the render, so compaction follows them (spec 000).
CHANGES_RENDER = frozenset({
    "put_node", "put_edge", "delete_node", "delete_edge", "record_reads", "endorse",
    "rename_local", "rewire", "clean_dangling", "repeat_credit", "absorb",
})


@attrs.frozen
class GraphHandle:
    """What callers hold: typed asks, the mailbox stays private."""

    key: str
    level: str
    _mailbox: actor.Mailbox
    _index_ready: trio.Event

    async def ask(self, op: str, **args: Any) -> Any:
        return await self._mailbox.ask(op, **args)

    @property
    def index_ready(self) -> bool:
        return self._index_ready.is_set()

    async def view(self) -> tuple[GraphData, Derived]:
        """A read view with the search index in place (waits for its first build)."""
        await self._index_ready.wait()
        return await self._mailbox.ask("view")

    async def call(self, fn: Callable[[GraphData], Any]) -> Any:
        return await self._mailbox.ask("call", fn=fn)

    async def fold(self) -> bool:
        return await self._mailbox.ask("fold")

    async def close(self) -> None:
        """Stop taking messages; the actor saves what is dirty and exits."""
        self._mailbox.send.close()


async def _writer(path: Path, items: trio.MemoryReceiveChannel, status: dict) -> None:
    """Append records in batches (one fsync per batch), fold on request."""
    jpath = journal.journal_path(path)
    async for first in items:
        batch = [first]
        while True:
            try:
                batch.append(items.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                break
        pending: list[Written] = []
        for item in batch:
            if isinstance(item, Written):
                pending.append(item)
                continue
            await _flush(jpath, pending, status)
            pending = []
            await _fold(path, jpath, item, status)
        await _flush(jpath, pending, status)


async def _flush(jpath: Path, pending: list[Written], status: dict) -> None:
    records = [w.record for w in pending if w.record is not None]
    if records:
        try:
            await trio.to_thread.run_sync(journal.append, jpath, records)
        except OSError as exc:
            # The change stands in memory and the graph stays dirty: the tick retries the save.
            status["save_failed"] = True
            log.error("could not append to %s: %s (kept in memory; retried on the tick)", jpath, exc)
    for w in pending:
        w.reply.set(w.result)


async def _fold(path: Path, jpath: Path, item: Fold, status: dict) -> None:
    def write() -> None:
        data = files.dump_json(snapshot_to_json(item.snapshot))
        files.write_atomic(path, data)
        journal.remove(jpath)

    try:
        await trio.to_thread.run_sync(write)
    except OSError as exc:
        log.error("could not save %s: %s (stays dirty; retried on the tick and at shutdown)", path, exc)
        status["save_failed"] = True
        item.reply.set(False)
        return
    status["save_failed"] = False
    item.reply.set(True)


async def run_graph_actor(
    key: str, level: str, path: Path, graph: GraphData, derived: Derived | None = None,
    orphan_grace_days: float = 365, step_aside: Callable[[], Awaitable[None]] | None = None,
    clock: Callable[[], float] | None = None,
    *, task_status: trio.TaskStatus[GraphHandle] = trio.TASK_STATUS_IGNORED,
) -> None:
    state = GraphState(key, level, graph, derived, orphan_grace_days, clock)
    mailbox = actor.Mailbox(f"graph {key}")
    handle = GraphHandle(key, level, mailbox, trio.Event())
    to_writer, writer_items = trio.open_memory_channel[Written | Fold](2 ** 16)
    status: dict = {}
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_writer, path, writer_items, status)
            loaded = state.graph.take_changes()  # what settling on load changed: journal it once
            if loaded is not None:
                state.graph.commit()
                state.dirty = True
                await to_writer.send(Written(loaded, None, actor.ReplySlot()))
            if state.derived.index is None:
                nursery.start_soon(_build_index, handle, _NodesSnapshot(dict(graph.nodes)))
            else:
                handle._index_ready.set()
            task_status.started(handle)
            discard = None
            async for req in mailbox.receive:
                if req.op == "fold":
                    await _request_fold(state, to_writer, req.reply, status)
                    continue
                if req.op == "refresh":  # the tick's: recent values a reply found stale, off the loop
                    names = state.derived.take_stale()
                    if names:
                        await trio.to_thread.run_sync(state.derived.refresh, state.graph, req.args["now"], names)
                    req.reply.set(names)
                    continue
                if req.op == "discard":
                    discard = req.reply
                    break
                if step_aside is not None and req.op in CHANGES_RENDER:
                    await step_aside()  # before the message, so it stays atomic
                # Up to three steps (read-only preparation, the change, compaction); no message is
                # taken between them, and the graph changes only in the last two.
                pause = step_aside if step_aside is not None else trio.lowlevel.checkpoint
                op, args = getattr(state, "op_" + req.op), req.args
                prepare = getattr(state, "prepare_" + req.op, None)
                if prepare is not None:
                    prepared = await _prepare(prepare(**args), pause, key, req.op)
                    if prepared:
                        args = {**args, **prepared}
                        await pause()
                changed = await _apply(state, to_writer, req.reply, req.op, lambda: op(**args))
                now = args.get("now")
                if changed and req.op in CHANGES_RENDER and now is not None:
                    # Keep the graph inside its budget: decided in steps, then carried out as a change.
                    await pause()
                    plan = await _prepare(compaction.plan_steps(state.graph, now, rebalance=False), pause,
                                          key, "compaction", None)
                    if plan is not None and plan.moves:
                        await pause()
                        await _apply(state, to_writer, None, "compaction",
                                     lambda: compaction.commit(state.graph, plan))
            if discard is None:
                # Mailbox closed: fold what is dirty, then let the writer finish.
                slot = actor.ReplySlot()
                await _request_fold(state, to_writer, slot, status)
                await slot.wait()
            # The writer drains what is queued (acknowledged writes reach the journal) and ends.
            await to_writer.aclose()
    finally:
        mailbox.drain_stopped()
    if discard is not None:
        discard.set(bool(status.get("save_failed")))


_NOTHING = object()


async def _prepare(steps: Generator[None, None, Any], pause: Callable[[], Awaitable[None]], key: str,
                   op: str, failed: Any = _NOTHING) -> Any:
    """A stepwise read-only preparation, pausing between its steps; `failed` ({} unless given) if it
    raises (the change still runs)."""
    try:
        while True:
            next(steps)
            await pause()
    except StopIteration as done:
        return done.value
    except Exception:
        log.exception("%s: preparing %s failed", key, op)
        return {} if failed is _NOTHING else failed


async def _apply(state: GraphState, to_writer, reply: actor.ReplySlot | None, op: str,
                 change: Callable[[], Any]) -> bool:
    """Run one change to completion: rolled back on an error, else committed, indexed and journaled.

    The caller gets its answer from the writer once the record is durable.
    True when something changed.
    """
    try:
        result = change()
    except Exception as exc:
        state.graph.rollback()
        if not isinstance(exc, KGError):  # a bug in one message must not take the graph down
            log.exception("%s: %s failed", state.key, op)
            exc = KGError(f"internal error while handling {op}: {exc!r}")
        if reply is not None:
            reply.fail(exc)
        return False
    state.graph.commit()
    record = state.graph.take_changes()
    if record is None:
        if reply is not None:
            reply.set(result)
        return False
    state.dirty = True
    state.changed(record)
    await to_writer.send(Written(record, result, reply if reply is not None else actor.ReplySlot()))
    return True


async def _build_index(handle: GraphHandle, snapshot: _NodesSnapshot) -> None:
    index = await trio.to_thread.run_sync(search.SearchIndex.build, snapshot, abandon_on_cancel=True)
    try:
        await handle.ask("install_index", index=index)
    except KGError:
        return  # the actor stopped first
    heap.freeze_loaded()  # the graph and its index
    handle._index_ready.set()


async def _request_fold(state: GraphState, to_writer, reply: actor.ReplySlot, status: dict) -> None:
    """Hand a consistent snapshot to the writer; the writer answers `reply` when it is saved."""
    if not state.dirty and not status.get("save_failed"):
        reply.set(True)
        return
    state.dirty = False  # a failed save sets status["save_failed"], so the next tick tries again
    await to_writer.send(Fold(state.graph.snapshot_json(), reply))
