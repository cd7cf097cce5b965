"""Where a write's secret check runs: a short one on the loop at once, a long one in a worker thread.

A check costs about 5 ms a thousand characters of prose: a 48,000-character node checked on the loop held
/api/health, and every hook, 0.5 s, so a long check runs off the loop. A short write (a one-line node, an edge)
costs well under a millisecond and is checked on the loop whatever else is being checked: one session's node of
200 notes of 20,000 characters took 15 s to check, and every other session's short write waited behind it when
a short write queued for the same thread. Long checks run one at a time, in the order their writes came (the
limiter is fair), so long writes reach their graph in that order; a short write may pass a long one, as two
requests in flight have no order to keep."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import trio

T = TypeVar("T")

OFF_LOOP_CHARS = 4_000
_LONG_CHECKS = trio.CapacityLimiter(1)
# A test-only door (as storage/faults.py): when set to a directory, a long check says it has begun (a file
# `begun` there) and waits until the test writes to the FIFO `release` there, so a test can hold a check in
# the thread without timing it. Unset, it costs one environment lookup per long check.
HOLD_ENV = "KG_TEST_HOLD_LONG_CHECKS"


async def checked(check: Callable[..., T], *args: Any, size: int) -> T:
    """`check(*args)`, on the loop when `size` (characters checked) is short, else in the worker thread."""
    if size < OFF_LOOP_CHARS:
        return check(*args)
    return await trio.to_thread.run_sync(_held_then, check, *args, limiter=_LONG_CHECKS)


def _held_then(check: Callable[..., T], *args: Any) -> T:
    where = os.environ.get(HOLD_ENV)
    if where:
        Path(where, "begun").touch()
        with open(Path(where, "release"), encoding="utf-8") as fifo:  # blocks until the test opens it to write
            fifo.read()
    return check(*args)


def chars(*values: object) -> int:
    """The characters of the strings in `values` (lists of them too): what a check reads."""
    return sum(len(v) if isinstance(v, str) else chars(*v) if isinstance(v, list | tuple) else 0 for v in values)
