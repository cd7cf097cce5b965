"""The server's watch on its wall clock, tick by tick, and `clock.json`, where the store keeps it.

The decisions are core/clock_guard.py's; this holds the watch between ticks, reads the boot clock, logs a
jump as a WARNING, and keeps the last tick's time and the latest jump in the store (machine-local, never
committed): a restart still counts stamps from before a jump from it, and a clock set back while the
server was down is seen against the last tick's time.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .core import clock_guard as G

log = logging.getLogger(__name__)


def boot_clock() -> float:
    """Seconds on a clock no one sets that goes on through a suspend (a laptop's lid shut is no jump)."""
    clock = suspend_counting_clock(sys.platform)
    return time.clock_gettime(clock) if clock is not None else time.monotonic()


def suspend_counting_clock(platform: str) -> int | None:
    """The clock_gettime clock that counts a suspend: Linux's CLOCK_BOOTTIME; on macOS CLOCK_MONOTONIC, which
    goes on through a sleep where time.monotonic (mach_absolute_time) stops, so every lid shut longer than the
    guard's slack read as the wall clock set forward. None: time.monotonic is the best there is."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    if boottime is None and platform == "darwin":
        boottime = getattr(time, "CLOCK_MONOTONIC", None)
    return boottime


def _number(value: object) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else None  # type: ignore[arg-type]


def read(path: Path) -> tuple[float | None, G.Jump | None]:
    """clock.json's last tick time and latest jump; (None, None) when it is missing or not kg's."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    jump = data.get("jump")
    at, by = (_number(jump.get("at")), _number(jump.get("by"))) if isinstance(jump, dict) else (None, None)
    return _number(data.get("last_tick")), (G.Jump(at, by) if at is not None and by is not None else None)


class ClockKeeper:
    def __init__(self, path: Path, boot: Callable[[], float] = boot_clock) -> None:
        self.path = path
        self.boot = boot
        last_tick, jump = read(path)
        self.watch = G.starting(last_tick, jump)

    def at_start(self, wall: float) -> float | None:
        """The first look, before sessions load: `since` to count their stamps from."""
        self.observe(wall)
        return self.watch.since

    def observe(self, wall: float) -> tuple[float | None, bool]:
        """A tick's look at the clock: (since, held) for the time rules."""
        boot, before = self.boot(), self.watch.boot
        self.watch, jump = G.observe(self.watch, wall, boot)
        if jump is not None:
            told = "since the last tick" if before is not None else "since the store's last tick, before this start"
            log.warning("%s (seen at %s UTC, %s)", G.jump_words(jump),
                        time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(wall)), told)
        return self.watch.since, self.watch.held(boot)

    def status(self, wall: float) -> dict[str, Any] | None:
        """What /health says of the clock: its latest jump, and whether the rules wait; None: no jump known, or
        one long past (G.REPORTED_S) whose wait is over."""
        jump = self.watch.jump
        if jump is None or (not self.watch.held(self.boot()) and wall - jump.at > G.REPORTED_S):
            return None
        return {"jumped_at": jump.at, "by_s": jump.by, "held": self.watch.held(self.boot()),
                "said": G.jump_words(jump)}

    def save(self) -> None:
        """clock.json as of now (in a worker thread); a store that takes no write keeps the older one."""
        jump = self.watch.jump
        data = {"last_tick": self.watch.wall,
                "jump": None if jump is None else {"at": jump.at, "by": jump.by}}
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(data))
            os.replace(tmp, self.path)
        except OSError as exc:  # a full disk or read-only store says so elsewhere (kg status, the graphs)
            log.debug("could not write %s: %s", self.path, exc)
