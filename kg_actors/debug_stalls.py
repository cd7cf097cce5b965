"""Debug only: where the event loop stood still, minute by minute.

With KG_DEBUG_STALLS=<file> in its environment, `kg serve` times every task step of its Trio loop
(a step runs until the task's next checkpoint: nothing else on the loop runs meanwhile), its waits
with nothing to run (I/O, a worker thread's result, a timer), and every
collection of Python's cyclic collector, and appends one JSON line per window (KG_DEBUG_STALLS_EVERY
seconds, default 60) to the file: how busy the loop was, how many steps took 20 ms or more, the
longest few with their task's name, and the collections per generation with their total and longest
time. A soak's per-minute p99 moves with such stalls (every reply in flight waits one out); this
says which they were. Without the variable nothing is installed. A bench tool, never a user setting.
"""

from __future__ import annotations

import gc
import heapq
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

log = logging.getLogger(__name__)
ENV = "KG_DEBUG_STALLS"
LONG_STEP = 0.020  # s: a step this long or longer is a stall worth naming
KEEP_LONGEST = 8  # steps named per window


class StallWindow:
    """One window's figures: pure bookkeeping, fed durations (seconds)."""

    def __init__(self, start: float):
        self.start = start
        self.steps = 0
        self.busy = 0.0
        self.idle = 0.0  # waiting for I/O or a timer with nothing to run: a worker thread, a socket, a sleep
        self.long_steps = 0
        self.long_total = 0.0
        self.longest: list[tuple[float, str]] = []  # a min-heap of the KEEP_LONGEST longest
        self.gc: dict[int, list[float]] = {}  # generation -> [count, total, longest]

    def step(self, seconds: float, task: str) -> None:
        self.steps += 1
        self.busy += seconds
        if seconds < LONG_STEP:
            return
        self.long_steps += 1
        self.long_total += seconds
        if len(self.longest) < KEEP_LONGEST:
            heapq.heappush(self.longest, (seconds, task))
        elif seconds > self.longest[0][0]:
            heapq.heapreplace(self.longest, (seconds, task))

    def collection(self, generation: int, seconds: float) -> None:
        row = self.gc.setdefault(generation, [0, 0.0, 0.0])
        row[0] += 1
        row[1] += seconds
        row[2] = max(row[2], seconds)

    def line(self, end: float, wall: float) -> dict[str, Any]:
        span = max(end - self.start, 1e-9)
        return {"wall": round(wall, 1), "seconds": round(span, 1), "steps": self.steps,
                "loop_busy": round(self.busy / span, 3), "loop_idle": round(self.idle / span, 3),
                "long_steps": self.long_steps,
                "long_steps_s": round(self.long_total, 3),
                "longest_ms": [[round(s * 1000, 1), name] for s, name in sorted(self.longest, reverse=True)],
                "gc": {str(g): {"count": int(c), "total_ms": round(t * 1000, 1), "longest_ms": round(mx * 1000, 1)}
                       for g, (c, t, mx) in sorted(self.gc.items())}}


class StallLog(trio.abc.Instrument):
    """Times task steps and collections; writes a window's line once it is over."""

    def __init__(self, path: Path, every: float, clock: Callable[[], float] = time.perf_counter,
                 wall: Callable[[], float] = time.time):
        self.path, self.every, self.clock, self.wall = path, every, clock, wall
        self.window = StallWindow(clock())
        self._step_began: float | None = None  # None: the step in progress began before the install
        self._gc_began = 0.0
        self._wait_began: float | None = None

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._step_began = self.clock()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        now = self.clock()
        if self._step_began is not None:
            self.window.step(now - self._step_began, task.name)
        self._step_began = None
        if now - self.window.start >= self.every:
            self.flush(now)

    def before_io_wait(self, timeout: float) -> None:
        self._wait_began = self.clock() if timeout > 0 else None

    def after_io_wait(self, timeout: float) -> None:
        if self._wait_began is not None:
            self.window.idle += self.clock() - self._wait_began

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_began = self.clock()
        else:
            self.window.collection(info["generation"], self.clock() - self._gc_began)

    def flush(self, now: float) -> None:
        line = self.window.line(now, self.wall())
        self.window = StallWindow(now)
        try:
            with open(self.path, "a") as f:  # once a window, a few hundred bytes: not worth a thread
                f.write(json.dumps(line) + "\n")
        except OSError:
            log.exception("debug stalls: %s not written", self.path)


def install(clock: Callable[[], float] = time.perf_counter) -> StallLog | None:
    """Inside the server's Trio run: time steps and collections when asked to; the instrument, or None."""
    path = os.environ.get(ENV)
    if not path:
        return None
    stalls = StallLog(Path(path), float(os.environ.get("KG_DEBUG_STALLS_EVERY") or 60), clock)
    trio.lowlevel.add_instrument(stalls)
    gc.callbacks.append(stalls.on_gc)
    return stalls
