"""When a graph actor pays the compaction its writes left owing.

Spec 000 compacts after every node write. Run before the actor's next
message, a write's plan and commit (3-7 ms at 10,000 nodes, every ~14
creates) were the tail of every write behind it, and the next write of a
burst undoes what that plan priced. So a write leaves its compaction owed,
and the actor pays it once its mailbox has been quiet for
COMPACTION_QUIET_SECONDS (a burst pays one run, after its last reply), or
before its next message once it has been owed COMPACTION_DEFER_MAX_SECONDS
or the level's charge is over COMPACTION_OVERSHOOT_RATIO of its budget
(under steady writes a level is over its budget at most that long and that
much; a full read hides anchors first, never a gist). The
tick's compaction settles what is owed; the actor pays the rest before its
last save.

A run is paid after the replies still waiting on the journal have gone out,
in steps of bounded work (core/compaction.py yields by the nodes and edges it
works on), each taken only when no other task of the loop can run or after
COMPACTION_STEP_WAIT_MAX, unless a message waits for the actor (`when_idle`):
hook replies and other sessions' work go between the steps. The actor takes
no message until the run is done, so its plan and the graph stay one version.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import attrs
import trio

from . import graph_messages as m
from .core import constants as C
from .core.charge import ChargeIndex

# Trio's run loop tells when no task can run; it exports that only as trio.testing's, which imports
# pytest where it is installed (+9 MiB, 166 modules in a server). A Trio that moved it: a checkpoint.
_all_blocked: Callable[[], Awaitable[None]] = getattr(trio._core, "wait_all_tasks_blocked", trio.lowlevel.checkpoint)


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
    return charges.high() > budget * C.COMPACTION_OVERSHOOT_RATIO


async def next_message(receive: trio.MemoryReceiveChannel[m.GraphMessage[Any]],
                       owed: Owed | None) -> m.GraphMessage[Any] | None:
    """The next message, or None when the compaction owed is due: the mailbox stayed quiet for
    COMPACTION_QUIET_SECONDS, or (then it goes first) it has been owed COMPACTION_DEFER_MAX_SECONDS or
    the level is too far over its budget."""
    if owed is None:
        return await receive.receive()
    due = owed.since + C.COMPACTION_DEFER_MAX_SECONDS
    if owed.over or trio.current_time() >= due:
        return None
    with trio.move_on_at(min(due, trio.current_time() + C.COMPACTION_QUIET_SECONDS)):
        return await receive.receive()
    return None


def when_idle(pause: Callable[[], Awaitable[None]], waited_on: Callable[[], bool]) -> Callable[[], Awaitable[None]]:
    """A compaction's pause between its steps: `pause`, then, while nothing waits in the actor's own
    mailbox (`waited_on`), until no other task of the loop can run (what is in flight goes first) or
    COMPACTION_STEP_WAIT_MAX has passed (a loop that is never idle still gives every step a turn). A
    request used to wait one step for each of its own turns on the loop; now it waits for at most the
    step in progress. Once a message waits for the actor, the run goes on at full speed: under a load
    that never lets the loop idle, its ~100 steps at 2 ms each held that message ~0.2 s."""
    async def step() -> None:
        await pause()
        if waited_on():
            return
        with trio.move_on_after(C.COMPACTION_STEP_WAIT_MAX):
            await _all_blocked()
    return step
