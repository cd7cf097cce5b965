"""`kg gauge`: Claude Code's status-line command that records the plan's quota frame for the chore gate.

Claude Code pipes a JSON frame to the status-line command on stdin; its
`rate_limits` are folded into the store's gauge file. With `--wrap CMD` the
user's own status line runs on the same stdin and its output is what shows;
otherwise a short `5h N% · week M%` line does. A status line must always
print and never fail: a bad frame is simply not recorded.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from ..config import Config, ConfigError
from ..core import gauges, strict_json
from ..storage import user_files
from . import gauge_files

WRAP_TIMEOUT = 5.0
STALE_AFTER_S = 5400.0  # as chores (and `kg doctor`) judge a reading: over 90 min old is stale


def run(args: argparse.Namespace) -> int:
    raw = sys.stdin.buffer.read()
    record = None
    # A status line always prints: odd frames (a 400-digit number, arrays nested 100,000 deep) are
    # refused by the strict reader as a torn one is.
    odd = (ValueError, OSError)
    try:
        root = Config.from_env().root
    except ConfigError:
        root = None
    if root is not None:
        try:
            try:
                frame = strict_json.loads(raw)
            except ValueError as exc:
                if raw.strip():  # an empty stdin is no frame at all
                    print(f"kg gauge: the status line's frame is not JSON kg reads ({exc}): not read (the earlier "
                          "reading stands)", file=sys.stderr)
                raise
            record = gauge_files.record_claude(root, frame, time.time())
            for said in gauges.over_limit(frame):  # on stderr: the status line shows stdout only
                print(f"kg gauge: {said} is over 100%: read as 100% (the quota used up)", file=sys.stderr)
            for said in gauges.not_read(frame):
                print(f"kg gauge: {said}: not read (the earlier reading stands)", file=sys.stderr)
        except odd:
            pass
        if record is None:  # a frame without limits, or one not read: show the reading kept
            try:
                record = user_files.load_json(gauge_files.claude_path(root))
            except odd:
                pass
    if args.wrap:
        sys.stdout.buffer.write(wrapped(args.wrap, raw, WRAP_TIMEOUT))
        return 0
    try:
        shown = line(record)
    except ValueError:
        shown = line(None)
    print(shown)
    return 0


def wrapped(command: str, frame: bytes, bound: float) -> bytes:
    """What the user's own status line printed: read until it exits and its output is drained, or the
    bound passes. A background child it left holding the pipe is not waited for (it may run on); a
    command still running at the bound is ended with its group, and what it printed so far shows."""
    try:
        proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        return b""
    assert proc.stdin is not None and proc.stdout is not None
    threading.Thread(target=_feed, args=(proc.stdin, frame), daemon=True).start()
    out = bytearray()
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + bound
    while (left := deadline - time.monotonic()) > 0:
        exited = proc.poll() is not None  # before the look: what it wrote before exiting is in the pipe
        ready, _, _ = select.select([fd], [], [], min(left, 0.05))
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out += chunk
        elif exited:
            break  # it exited and nothing more came: a child left holding the pipe is not waited for
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
    return bytes(out)


def _feed(pipe: IO[bytes], frame: bytes) -> None:
    try:
        pipe.write(frame)
        pipe.close()
    except OSError:  # it does not read its stdin
        pass


def line(record: object) -> str:
    if not isinstance(record, dict):
        return "kg: no quota reading"
    reading = gauges.claude_reading(record, time.time())
    if isinstance(reading, str):
        return "kg: no quota reading"
    parts = []
    if reading.five_hour_pct is not None:
        parts.append(f"5h {reading.five_hour_pct:.0f}%")
    if reading.seven_day_pct is not None:
        parts.append(f"week {reading.seven_day_pct:.0f}%")
    shown = " · ".join(parts)
    age = reading.age(time.time())
    if age > STALE_AFTER_S:  # a stored reading Claude Code has not refreshed: not the quota now
        shown += f" (stale: {age / 3600:.0f} h old)" if age >= 3600 * 1.5 else f" (stale: {age / 60:.0f} min old)"
    return shown


def doctor_line(root: Path, now: float, wired: bool = False) -> str:
    """What `kg doctor` says of the Claude Code quota gauge: how old its last reading is. `wired`: the status
    line runs `kg gauge` already, so a missing reading is only not taken yet (no advice to install it)."""
    reading = gauge_files.read_claude(root, now)
    if reading == gauge_files.NO_READING and wired:
        return "no status-line reading yet (Claude Code writes one when it next draws its status line)"
    if isinstance(reading, str):
        return reading
    minutes = reading.age(now) / 60
    stale = " (stale: chores refuse readings over 90 min old)" if reading.age(now) > STALE_AFTER_S else ""
    return f"last status-line reading {minutes:.0f} min old{stale}"
