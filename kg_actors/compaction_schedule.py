"""When a graph actor pays the compaction its writes left owing, and how it plans one while it serves.

Spec 000 compacts after every node write. Run before the actor's next
message, a write's plan and commit (3-7 ms at 10,000 nodes, every ~14
creates) were the tail of every write behind it, and the next write of a
burst undoes what that plan priced. So a write (or a read that promotes: it
grows the level as a write does) leaves its compaction owed,
and the run is due once the actor's mailbox has been quiet for
COMPACTION_QUIET_SECONDS (a burst pays one run, after its last reply), or
at once when it has been owed COMPACTION_DEFER_MAX_SECONDS or the level's
charge is over COMPACTION_OVERSHOOT_RATIO of its budget. A write that leaves
the level that far over is not left owing: the actor pays the run on the graph
itself before its next message (`too_far_over`), so no write, however close
behind, sees the level past that bound. A full read (`Settled`) does the same
when a run is owed or being planned (`owed_before_read`): it renders the level
within its budget, never the burst's overshoot (hooks read the published view
and never wait for it). The tick's compaction settles what is owed; the actor
pays the rest before its last save.

A due run is planned on a snapshot of the graph (`Planning`), in a task of
its own, in steps of bounded work (core/compaction.py yields by the nodes and
edges it works on), each taken once the loop has had nothing to do for
COMPACTION_STEP_IDLE or after COMPACTION_STEP_WAIT_MAX (`when_idle`): hook
replies, other sessions' work and the actor's own next messages go between
the steps. The actor keeps
taking messages meanwhile, so under back-to-back writes no write waits for a
plan (a plan at 10,000 nodes is ~6-10 ms; a write waited all of it before).
When the plan is ready the actor carries it out in parts of
COMPACTION_COMMIT_PART moves (~100 moves were a 2-4 ms change, 8 are 0.4-0.6 ms), each after
the same wait as a step (1,000 moves carried out back to back kept a worker
thread's fsync report from the loop: the write behind waited 60-130 ms), a waiting
message going between two parts, each part rebased on the graph as it then
is (core/compaction.rebase: moves of nodes changed since are dropped) and a
change of its own; what the writes since added is owed again. So a level is
over its budget at most by what is written while one plan is made, and past
COMPACTION_OVERSHOOT_RATIO of it never by more than the one write the actor
is compacting after.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Awaitable, Callable, Generator
from typing import Any

import attrs
import trio

from . import graph_messages as m
from .core import compaction
from .core import constants as C
from .core.charge import ChargeIndex
from .core.model import GraphReader
from .core.snapshot import GraphSnapshot

log = logging.getLogger(__name__)

# Trio's run loop tells when no task can run; it exports that only as trio.testing's, which imports
# pytest where it is installed (+9 MiB, 166 modules in a server). A Trio that moved it: a checkpoint.
_all_blocked: Callable[[float], Awaitable[None]] = getattr(
    trio._core, "wait_all_tasks_blocked", lambda cushion: trio.lowlevel.checkpoint())


@attrs.frozen
class Owed:
    """A compaction that writes left owing: the latest write's `now`, when (loop time) the first was, and
    whether the level is too far over its budget to wait."""

    now: float
    since: float
    over: bool = False

    def again(self, now: float, over: bool) -> Owed:
        return Owed(max(self.now, now), self.since, over)


def too_far_over(charges: ChargeIndex, budget: int = C.MAX_CHARS_PER_LEVEL) -> bool:
    """Whether the level may not wait for its run: after a write that leaves it so, the actor pays the
    run on the graph itself before its next message (a plan in progress is dropped: writes made while
    it was planned are not in it, so waiting for it let a burst carry the level to 1.7x)."""
    return charges.high() > budget * C.COMPACTION_OVERSHOOT_RATIO


def owed_before_read(owed: Owed | None, planning_now: float | None, charges: ChargeIndex, now: float,
                     budget: int = C.MAX_CHARS_PER_LEVEL) -> float | None:
    """The `now` a full read's graph is compacted at before it is rendered, or None when it need not wait:
    a run owed (its latest write's `now`), else one being planned (the plan's), else a level over its
    budget by its charge's upper bound (what no run owes, as a level loaded so; `now`)."""
    if owed is not None:
        return owed.now
    if planning_now is not None:
        return planning_now
    return now if charges.high() > budget else None


class Turn(enum.Enum):
    """What next_message returns when it is not a message."""

    DUE = "the compaction owed is due, and none is being planned"
    PLANNED = "the plan being made is ready to commit"


class Planning:
    """A compaction run planned on a snapshot, in a task of its own, while the actor takes messages.

    The actor starts it (`start`) and is woken from its mailbox when the plan is ready (Turn.PLANNED);
    it then carries the plan out in parts of COMPACTION_COMMIT_PART moves (`next_part`, each rebased on
    the graph as it is by then), a message waiting in the mailbox going between two parts. Or it cancels
    it (a tick compacted, the actor stops).
    """

    def __init__(self, key: str, base: GraphSnapshot, now: float, steps: Generator[None, None, compaction.Plan]):
        self.key = key
        self.base = base
        self.now = now
        self._steps = steps
        self._parts: list[compaction.Plan] = []  # what is left to carry out, once ready
        self.ready = False
        self.message_turn = False  # between two parts, a waiting message goes first
        self._scope = trio.CancelScope()
        self._waiting: trio.CancelScope | None = None  # the actor's wait for its next message

    @classmethod
    def start(cls, nursery: trio.Nursery, key: str, base: GraphSnapshot, charges: ChargeIndex, now: float,
              pause: Callable[[], Awaitable[None]]) -> Planning:
        """Planning from `base`, the graph as it stands (its version is `charges`')."""
        steps = compaction.plan_steps(base, now, rebalance=False, charges=charges)
        planning = cls(key, base, now, steps)
        planning._step()  # the first step copies what it needs of `charges`, which the next change moves
        nursery.start_soon(planning._run, pause)
        return planning

    def _step(self) -> bool:
        """One step; False once the plan is made (or failed: the next run owed plans again)."""
        if self.ready:
            return False
        try:
            next(self._steps)
            return True
        except StopIteration as done:
            self._parts = compaction.parts(done.value, C.COMPACTION_COMMIT_PART)
        except Exception:  # a bug in planning must not take the graph down: nothing was changed
            log.exception("%s: planning a compaction failed", self.key)
        self.ready = True
        if self._waiting is not None:
            self._waiting.cancel()
        return False

    async def _run(self, pause: Callable[[], Awaitable[None]]) -> None:
        with self._scope:
            while self._step():
                await pause()

    def next_part(self, graph: GraphReader) -> compaction.Plan | None:
        """The next part to carry out, rebased on `graph`; None when none is left."""
        return compaction.rebase(self._parts.pop(0), self.base, graph) if self._parts else None

    @property
    def done(self) -> bool:
        return self.ready and not self._parts

    def cancel(self) -> None:
        self._scope.cancel()


async def next_message(receive: trio.MemoryReceiveChannel[m.GraphMessage[Any]], owed: Owed | None,
                       planning: Planning | None = None) -> m.GraphMessage[Any] | Turn:
    """The next message; or Turn.PLANNED once `planning` is ready (then its parts and the waiting
    messages take turns); or, with no planning in progress, Turn.DUE when the compaction owed is due:
    the mailbox stayed quiet for COMPACTION_QUIET_SECONDS, or (then before the next message) it has
    been owed COMPACTION_DEFER_MAX_SECONDS or the level is too far over its budget."""
    if planning is not None and planning.ready:
        if planning.message_turn:
            planning.message_turn = False
            try:
                return receive.receive_nowait()
            except trio.WouldBlock:
                pass
        planning.message_turn = True
        return Turn.PLANNED
    deadline = float("inf")
    if owed is not None and planning is None:
        due = owed.since + C.COMPACTION_DEFER_MAX_SECONDS
        if owed.over or trio.current_time() >= due:
            return Turn.DUE
        deadline = min(due, trio.current_time() + C.COMPACTION_QUIET_SECONDS)
    with trio.CancelScope(deadline=deadline) as wait:
        if planning is not None:
            planning._waiting = wait
        try:
            return await receive.receive()  # cancelled, it takes no message
        finally:
            if planning is not None:
                planning._waiting = None
    return Turn.PLANNED if planning is not None else Turn.DUE


def when_idle(pause: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
    """A planning step's pause: `pause`, then until no task of the loop has had anything to do for
    COMPACTION_STEP_IDLE of real time (what is in flight goes first), or COMPACTION_STEP_WAIT_MAX has
    passed (a loop that is never idle still gives every step a turn, so a plan is made in bounded
    time under any load).

    A moment with no task to run is not idle enough: a write waiting on its fsync's worker thread is
    such a moment, and a step taken then keeps the interpreter from that thread (CPython hands its
    lock over on a timed request, which the loop's own release and retake at each poll cancels): the
    thread got it when the plan was done, and every write behind an fsync waited the whole plan
    (10-25 ms at 10,000 nodes). Waiting out the cushion, the loop sleeps in its poll, the lock free,
    and a thread's report ends the wait."""
    async def step() -> None:
        await pause()
        with trio.move_on_after(C.COMPACTION_STEP_WAIT_MAX):
            await _all_blocked(C.COMPACTION_STEP_IDLE)
    return step
