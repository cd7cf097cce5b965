"""Auto-compaction: keep a level's rendered charge within its budget.

A run does at most one of archive (over the budget; refill may follow it),
refill (below the fill ceiling) and rebalance (between the two), then the
orphan pass, and refill again when that pass made room. Moves are tried on a ChargeTracker and only the net ones are
committed through `set_node`, so a run that changes nothing writes nothing.
Once a level is within its budget no pass takes it back over, which is half of
why repeated runs settle; `_Run.rebalance` holds the other half.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Iterable
from collections.abc import Set as AbstractSet
from weakref import WeakKeyDictionary
from typing import Any

import attrs

from . import constants as C
from .model import GraphData, GraphReader
from .charge import ChargeIndex, ChargeTracker
from .clock_guard import counted_from
from .scoring import STEP_NODES, PoolScorer, fresh_ids
from .steps import Paced, run_steps

ACTIVE, ARCHIVED, ORPHANED = "active", "archived", "orphaned"
# Float slack for the rebalance gain test; far below the 0.05 margin it guards.
_EPS = 1e-9
# Levels whose last run changed nothing: graph -> (gen, budget, now, holds later,
# result). A run's decisions depend on the graph, the budget and, through
# usefulness ranks, on `now` only while a stamp lies ahead of it, so an unchanged
# graph stays settled and the tick's run costs nothing.
_SETTLED: WeakKeyDictionary[GraphData, tuple[int, int, float, bool, CompactionResult]] = WeakKeyDictionary()


@attrs.frozen
class CompactionResult:
    archived: tuple[str, ...] = ()
    resurrected: tuple[str, ...] = ()
    refilled: tuple[str, ...] = ()
    swapped: tuple[tuple[str, str], ...] = ()  # (promoted, archived)
    orphaned: tuple[str, ...] = ()
    stalled: bool = False  # over budget with every active node fresh
    acted: bool = False  # some node changed state


def compact(graph: GraphData, now: float, budget: int = C.MAX_CHARS_PER_LEVEL,
            rebalance: bool = True, charges: ChargeIndex | None = None) -> CompactionResult:
    """One compaction run over `graph` (changed in place through set_node).

    `rebalance=False` (the run after a write) leaves the re-ranking swaps to the
    tick: they never decide whether the level fits, and re-scoring the whole
    pool on every write would cost the write more than the write itself.
    """
    return commit(graph, run_steps(plan_steps(graph, now, budget, rebalance, charges)))


@attrs.frozen
class Plan:
    """A run's decisions, made without changing the graph; `commit` carries them out."""

    moves: dict[str, str]  # node id -> its new state
    result: CompactionResult
    now: float
    settles: tuple[int, int, float, bool] | None = None  # what _SETTLED records if nothing moves


def plan_steps(graph: GraphReader, now: float, budget: int = C.MAX_CHARS_PER_LEVEL,
               rebalance: bool = True, charges: ChargeIndex | None = None) -> Generator[None, None, Plan]:
    """compact's decisions, yielding between its passes (each scores or prices thousands of
    nodes). It only reads `graph`: the live graph, which must then not change until its plan is
    committed, or a snapshot of it (see `rebase`). `charges` is the graph's ChargeIndex where its
    owner keeps one (else it is built here); it is read before the first yield only."""
    settled = _SETTLED.get(graph) if isinstance(graph, GraphData) else None
    if settled is not None:
        gen, same_budget, then, holds_later, result = settled
        if gen == graph.gen and same_budget == budget and (now == then or (holds_later and now > then)):
            return Plan({}, result, now)
    run = _Run(graph, now, budget, charges)
    tracker = run.tracker
    archived: list[str] = []
    resurrected: list[str] = []
    stalled = False
    orphaned: list[str] = []
    yield
    if not tracker.fits(budget):
        # Anchors over their share are what overflows a long-lived level: orphan those first,
        # or archiving would empty the active view and still not fit.
        orphaned = yield from run.orphan()
        yield
    if not tracker.fits(budget):
        archived, resurrected, stalled = yield from run.archive()
        yield
    if not tracker.fits(budget):
        # Still over with the gists archived: what archived nodes cite must go (refill follows).
        orphaned += yield from run.orphan_to_fit()
        yield
    refilled = run.refill()
    swapped: list[tuple[str, str]] = []
    if rebalance and not archived and not refilled and tracker.fits(budget) and not tracker.below(run.ceiling):
        yield
        swapped = run.rebalance()
    yield
    last = yield from run.orphan()
    if last:
        # The anchors it cut made room below the ceiling: filled now, not a tick later.
        refilled += run.refill()
    orphaned += last
    moves = tracker.moves()
    result = CompactionResult(
        archived=tuple(i for i in archived if i in moves),
        resurrected=tuple(i for i in resurrected if moves.get(i) == ACTIVE),
        refilled=tuple(i for i in refilled if moves.get(i) == ACTIVE),
        swapped=tuple(swapped),
        orphaned=tuple(orphaned),
        stalled=stalled,
        acted=bool(moves),
    )
    settles = (graph.gen, budget, now, run.latest_stamp <= now) if not moves and rebalance else None
    return Plan(dict(moves), result, now, settles)


def rebase(plan: Plan, base: GraphReader, graph: GraphReader) -> Plan:
    """A plan made on `base` (a snapshot), for `graph`, the same graph some changes later: the moves of
    nodes changed or deleted since are dropped (what the plan weighed of them is gone: a write, a read's
    stamp), the others stand. What the changes since added to the level is the next run's to fit."""
    if graph.gen == base.gen:
        return plan
    nodes, then = graph.nodes, base.nodes
    moves = {i: state for i, state in plan.moves.items() if nodes.get(i) is then.get(i)}  # nodes are frozen
    return attrs.evolve(plan, settles=None) if len(moves) == len(plan.moves) else _part(plan, moves)


def parts(plan: Plan, size: int) -> list[Plan]:
    """The plan as consecutive plans of at most `size` moves each, to be carried out as changes of their
    own (each `rebase`d when its turn comes); every move is a node's final state, so any order is one."""
    ids = sorted(plan.moves)
    return [_part(plan, {i: plan.moves[i] for i in ids[k:k + size]}) for k in range(0, len(ids), size)]


def _part(plan: Plan, moves: dict[str, str]) -> Plan:
    r = plan.result
    result = CompactionResult(
        archived=tuple(i for i in r.archived if i in moves), resurrected=tuple(i for i in r.resurrected if i in moves),
        refilled=tuple(i for i in r.refilled if i in moves),
        swapped=tuple(pair for pair in r.swapped if pair[0] in moves or pair[1] in moves),
        orphaned=tuple(i for i in r.orphaned if i in moves), stalled=r.stalled, acted=bool(moves))
    return Plan(moves, result, plan.now)


def commit(graph: GraphData, plan: Plan) -> CompactionResult:
    """Carry out a plan made on this very graph version (or rebased on it)."""
    for node_id in sorted(plan.moves):
        node = graph.nodes[node_id]
        state = plan.moves[node_id]
        graph.set_node(node.moved(state != ACTIVE, plan.now if state == ORPHANED else None))
    if plan.settles is not None:
        _SETTLED[graph] = (*plan.settles, plan.result)
    return plan.result


def prune_due(graph: GraphReader, now: float, grace_days: float = C.ORPHAN_GRACE_DAYS,
              since: float | None = None) -> list[str]:
    """The nodes orphaned longer than the grace period: what prune_orphans deletes. `since`: the wall
    clock's latest jump (core/clock_guard.py); a stamp from before it counts from it."""
    limit = grace_days * C.DAY_SECONDS
    nodes = graph.nodes
    return sorted(i for i in graph.ids_in_state(ORPHANED)
                  if now - (counted_from(nodes[i].orphaned_ts, since) or now) > limit)


def prune_orphans(graph: GraphData, now: float, grace_days: float = C.ORPHAN_GRACE_DAYS,
                  due: Iterable[str] | None = None, since: float | None = None) -> list[str]:
    """Delete nodes orphaned longer than the grace period, with their edges in this graph.
    `due`: prune_due's answer on this graph version, when read beforehand (in steps)."""
    doomed = prune_due(graph, now, grace_days, since) if due is None else list(due)
    for node_id in doomed:
        for key in [e.key for e in graph.incident(node_id)]:
            graph.del_edge(key)
        graph.del_node(node_id)
    return doomed


def pruned_words(pruned: list[str], grace_days: float, shown: int = 5) -> str:
    """What the log says of a deletion for good: nothing else tells a user it happened (the ids, up to `shown`)."""
    ids = ", ".join(pruned[:shown]) + (f" and {len(pruned) - shown} more" if len(pruned) > shown else "")
    return (f"deleted {len(pruned)} orphaned node{'s' if len(pruned) != 1 else ''} for good (not read back within "
            f"KG_ORPHAN_GRACE_DAYS={grace_days:g} days): {ids}")


def _ranked(ids: Iterable[str], fresh: AbstractSet[str], fresh_key: Callable[[str], tuple[Any, ...]],
            score: Callable[[str], float], fresh_first: bool) -> Generator[None, None, list[str]]:
    """`ids` in two runs, the fresh ones by (`fresh_key`, id) and the others by (`score`, id), the fresh run
    first or last: what one sort by (run, key, id) gives, but flat (float, id) keys compare in the sort's
    fast path (a 10,000-node level's order took ~30 ms as nested tuples). Keys are taken STEP_NODES at a
    time between yields."""
    young: list[tuple[tuple[Any, ...], str]] = []
    rest: list[tuple[float, str]] = []
    for k, node_id in enumerate(ids, 1):
        if not k % STEP_NODES:
            yield
        if node_id in fresh:
            young.append((fresh_key(node_id), node_id))
        else:
            rest.append((score(node_id), node_id))
    young.sort()
    rest.sort()
    first, last = (young, rest) if fresh_first else (rest, young)
    return [node_id for _, node_id in first] + [node_id for _, node_id in last]


class _Run:
    def __init__(self, graph: GraphReader, now: float, budget: int, charges: ChargeIndex | None = None):
        self.graph = graph
        self.now = now
        self.budget = budget
        self.ceiling = int(budget * C.COMPACTION_TARGET_RATIO)  # archive target and refill ceiling
        self.tracker = ChargeTracker(graph, charges)
        self._fresh: frozenset[str] | None = None
        self._scorer: PoolScorer | None = None
        self.latest_stamp = float("-inf")  # latest usefulness stamp any ranking here saw
        self._pace = Paced(STEP_NODES)  # moves' work since the last yield (_worked)

    def _pool_scorer(self, ids: list[str]) -> Generator[None, None, PoolScorer]:
        scorer = yield from PoolScorer.steps(self.graph, ids, self.now, (self.tracker.active, self.tracker.archived))
        self.latest_stamp = max(self.latest_stamp, scorer.latest_stamp)
        return scorer

    @property
    def fresh(self) -> frozenset[str]:
        # Computed from the graph as it came in: archiving and refilling never
        # change the tier, and the orphan pass runs last.
        if self._fresh is None:
            self._fresh = fresh_ids(self.graph, self.budget)
        return self._fresh

    def unified(self) -> PoolScorer:
        """Scorer of active and archived nodes outside the fresh tier, under this run's moves."""
        return run_steps(self.unified_steps())

    def unified_steps(self) -> Generator[None, None, PoolScorer]:
        if self._scorer is None:
            pool = [i for i in (*self.tracker.active, *self.tracker.archived) if i not in self.fresh]
            self._scorer = yield from self._pool_scorer(pool)
        return self._scorer

    def _worked(self, moved: str, times: int = 1) -> bool:
        """Count `times` moves of a node (it and each of its edges repriced); True when a step's worth
        is done and the pass should yield."""
        return self._pace.done(times * (1 + self.graph.degree(moved)))

    def _moved(self, node_id: str) -> None:
        if self._scorer is not None:
            self._scorer.invalidate(node_id)

    def _try(self, node_id: str, state: str, limit: int) -> bool:
        """Move a node if the charge stays within `limit`."""
        point = self.tracker.undo_point()
        self.tracker.set_state(node_id, state)
        if self.tracker.fits(limit):
            self._moved(node_id)
            return True
        self.tracker.undo(point)
        return False

    def _newest_first(self, node_id: str) -> tuple[Any, ...]:
        created = self.graph.nodes[node_id].created_ts
        return (created is None, -(created or 0.0))

    def _promotion_key(self, scores: dict[str, float]) -> Callable[[str], tuple[Any, ...]]:
        """Best candidate first: fresh nodes (newest first), then by score (as `_ranked` with fresh_first)."""
        fresh = self.fresh

        def key(node_id: str) -> tuple[Any, ...]:
            if node_id in fresh:
                return (0, *self._newest_first(node_id), node_id)
            return (1, False, -scores[node_id], node_id)

        return key

    def _outscores(self, candidate: str, scores: dict[str, float], other: str) -> bool:
        # A fresh candidate always qualifies: fresh nodes are first back.
        return candidate in self.fresh or scores[candidate] - scores[other] >= C.RESURRECTION_MARGIN

    # -- archive
    def archive(self) -> Generator[None, None, tuple[list[str], list[str], bool]]:
        """Archive the lowest-scored active nodes outside the fresh tier down to the target.

        Returns (archived, resurrected, stalled).
        """
        tracker = self.tracker
        eligible = sorted(i for i in tracker.active if i not in self.fresh)
        if not eligible:
            return [], [], True
        scores = yield from (yield from self._pool_scorer(eligible)).scores_steps()
        archived = []
        for node_id in sorted(eligible, key=lambda i: (scores[i], i)):
            if tracker.fits(self.ceiling):
                break
            tracker.set_state(node_id, ARCHIVED)
            self._moved(node_id)
            archived.append(node_id)
            if self._worked(node_id):
                yield
        yield
        return archived, (yield from self._resurrect(archived)), False

    def _resurrect(self, just_archived: list[str]) -> Generator[None, None, list[str]]:
        """An archived node that now outscores a just-archived one comes back in its place.

        Scored once, after archiving, in the unified pool; each just-archived
        node lets at most one node back, so the pass is finite. Candidates are
        nodes archived before this run: letting just-archived ones back (as the
        reference does) refills the room archiving made and the level sits at
        its budget, to be archived again by the next write.
        """
        tracker = self.tracker
        scores = dict((yield from (yield from self.unified_steps()).scores_steps()))
        yield
        gone_now = set(just_archived)
        ranked = yield from _ranked(tracker.archived - gone_now, self.fresh, self._newest_first,
                                    lambda i: -scores[i], fresh_first=True)
        back: list[str] = []
        too_big: set[str] = set()
        looked = 0
        for gone in just_archived:
            for candidate in ranked:
                looked += 1
                if looked == STEP_NODES * 8:  # a look is a set lookup or two
                    looked = 0
                    yield
                if candidate in too_big or candidate not in tracker.archived:
                    continue
                if not self._outscores(candidate, scores, gone):
                    break
                if self._worked(candidate, 2):  # a try, and maybe its undo
                    yield
                if self._try(candidate, ACTIVE, self.budget):
                    back.append(candidate)
                    break
                too_big.add(candidate)
        return back

    # -- refill
    def refill(self) -> list[str]:
        """Below the ceiling, promote the best archived node that fits, re-scoring after each."""
        tracker = self.tracker
        if not tracker.archived:
            return []
        whole = self._refill_whole()
        if whole:
            return whole
        promoted: list[str] = []
        too_big: set[str] = set()
        while tracker.below(self.ceiling):
            # Price before scoring: on a settled level nothing fits, and that
            # verdict should cost no scoring at all.
            pending = [i for i in tracker.archived if i not in too_big]
            fitting = [i for i in pending if tracker.promotion_floor(i) <= self.ceiling]
            too_big.update(set(pending).difference(fitting))
            if not fitting:
                break
            # Re-scored after every promotion: the promoted node's edges just
            # went live, so a hub pulls its satellites up behind it.
            key = self._promotion_key(self.unified().scores())
            candidates = set(fitting)
            while candidates:
                best = min(candidates, key=key)
                if self._try(best, ACTIVE, self.ceiling):
                    promoted.append(best)
                    break
                candidates.discard(best)
                too_big.add(best)  # skip, don't stop: a smaller one may fit
            else:
                break
        return promoted

    def _refill_whole(self) -> list[str]:
        """Everything fits under the ceiling with every node active: bring the archive back at once.

        Promoting the last archived node also drops the archive header, which
        one-at-a-time promotion never sees coming.
        """
        tracker = self.tracker
        if tracker.active_lines + tracker.archived_lines > self.ceiling:  # edges cost at least 0
            return []
        ids = sorted(tracker.archived)
        point = tracker.undo_point()
        for node_id in ids:
            tracker.set_state(node_id, ACTIVE)
        if tracker.fits(self.ceiling):
            for node_id in ids:
                self._moved(node_id)
            return ids
        tracker.undo(point)
        return []

    # -- rebalance
    def _potential(self, scores: dict[str, float]) -> float:
        """Summed score of the active nodes (a fresh one counts 1, the most a score can be)."""
        # fsum: exactly rounded, so the same whatever order the set of active ids is walked in.
        return math.fsum(1.0 if i in self.fresh else scores[i] for i in self.tracker.active)

    def rebalance(self) -> list[tuple[str, str]]:
        """Swap the best archived node with the worst active one (3 swaps, 12 tries a run).

        A swap is kept only if the potential (summed score of the active set,
        re-scored after the tentative swap) rises by the margin. Comparing the
        two nodes alone is not enough: connectedness counts an active neighbour
        1.0 and an archived one 0.2, so swapping two linked nodes can turn the
        comparison around and swap them back forever (the reference's F33).
        Why runs settle: archiving acts only over the budget and no pass goes
        back over it, so after the first run every acting run orphans a node,
        promotes one for good (refill), or raises the potential by the margin.
        Orphans and active nodes are bounded, and the potential (a function of
        the arrangement while the orphans are fixed) lies in [0, pool size], so
        (orphans, active nodes, potential) cannot rise forever.
        """
        tracker = self.tracker
        scorer = self.unified()
        scores = dict(scorer.scores())
        potential = self._potential(scores)
        swaps: list[tuple[str, str]] = []
        trials = 0
        while len(swaps) < C.REBALANCE_MAX_SWAPS and trials < C.REBALANCE_MAX_TRIALS:
            held = [i for i in tracker.active if i not in self.fresh]
            if not held:
                break
            worst = min(held, key=lambda i: (scores[i], i))
            swapped = False
            for candidate in sorted(tracker.archived, key=self._promotion_key(scores)):
                if trials >= C.REBALANCE_MAX_TRIALS or not self._outscores(candidate, scores, worst):
                    break
                trials += 1
                point = tracker.undo_point()
                tracker.set_state(worst, ARCHIVED)
                tracker.set_state(candidate, ACTIVE)
                if not tracker.fits(self.budget):
                    tracker.undo(point)  # a swap that crosses the budget is reverted
                    continue
                scorer.invalidate(worst)
                scorer.invalidate(candidate)
                after = dict(scorer.scores())
                gain = self._potential(after) - potential
                if gain + _EPS < C.RESURRECTION_MARGIN:
                    tracker.undo(point)
                    scorer.invalidate(worst)
                    scorer.invalidate(candidate)
                    continue
                scores, potential = after, potential + gain
                swaps.append((candidate, worst))
                swapped = True
                break
            if not swapped:
                break
        return swaps

    # -- orphan
    def _orphan_order(self) -> Generator[None, None, list[str]]:
        """Archived nodes, lowest archival score first; fresh ones last, oldest first."""
        scores = dict((yield from (yield from self.unified_steps()).scores_steps()))
        yield
        nodes = self.graph.nodes

        def oldest_first(node_id: str) -> tuple[Any, ...]:
            created = nodes[node_id].created_ts
            return (created is not None, created or 0.0)

        return (yield from _ranked(self.tracker.archived, self.fresh, oldest_first, scores.__getitem__,
                                   fresh_first=False))

    def orphan(self) -> Generator[None, None, list[str]]:
        """While anchors cost more than their share, orphan the lowest-scored archived nodes.

        A move that would take the level over its budget (hiding an edge can
        re-order citations) is skipped.
        """
        tracker = self.tracker
        limit = int(self.budget * C.ARCHIVED_BUDGET_RATIO)
        if tracker.anchor_chars <= limit:
            return []
        cap = self.budget if tracker.fits(self.budget) else tracker.exact()
        orphaned = []
        for node_id in (yield from self._orphan_order()):
            if tracker.anchor_chars <= limit:
                break
            if self._try(node_id, ORPHANED, cap):
                orphaned.append(node_id)
            if self._worked(node_id):
                yield
        return orphaned

    def orphan_to_fit(self) -> Generator[None, None, list[str]]:
        """Over budget because of the archived nodes' own anchor lines (their edges to files
        and user nodes cost nothing: render.edge_is_live): orphan them, lowest-scored first,
        until the level fits. Archiving gists could never remove those lines, so without
        this a level stays over for good.
        """
        tracker = self.tracker
        orphaned = []
        for node_id in (yield from self._orphan_order()):
            if tracker.fits(self.budget):
                break
            if self._try(node_id, ORPHANED, tracker.exact()):
                orphaned.append(node_id)
            if self._worked(node_id):
                yield
        return orphaned
