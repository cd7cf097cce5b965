"""`kg gauge`: Claude Code's status-line command that records the plan's quota frame for the chore gate.

Claude Code pipes a JSON frame to the status-line command on stdin; its
`rate_limits` are folded into the store's gauge file. With `--wrap CMD` the
user's own status line runs on the same stdin and its output is what shows;
otherwise a short `5h N% · week M%` line does. A status line must always
print and never fail: a bad frame is simply not recorded.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from ..config import Config, ConfigError
from ..core import gauges, strict_json
from ..storage import user_files
from . import gauge_files

WRAP_TIMEOUT = 5.0


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
            record = gauge_files.record_claude(root, strict_json.loads(raw), time.time())
        except odd:
            pass
        if record is None:  # a frame without limits, or one not read: show the reading kept
            try:
                record = user_files.load_json(gauge_files.claude_path(root))
            except odd:
                pass
    if args.wrap:
        try:
            done = subprocess.run(args.wrap, shell=True, input=raw, capture_output=True, timeout=WRAP_TIMEOUT)
            sys.stdout.buffer.write(done.stdout)
        except (OSError, subprocess.TimeoutExpired):
            pass
        return 0
    try:
        shown = line(record)
    except ValueError:
        shown = line(None)
    print(shown)
    return 0


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
    return " · ".join(parts)


def doctor_line(root: Path, now: float, wired: bool = False) -> str:
    """What `kg doctor` says of the Claude Code quota gauge: how old its last reading is. `wired`: the status
    line runs `kg gauge` already, so a missing reading is only not taken yet (no advice to install it)."""
    reading = gauge_files.read_claude(root, now)
    if reading == gauge_files.NO_READING and wired:
        return "no status-line reading yet (Claude Code writes one when it next draws its status line)"
    if isinstance(reading, str):
        return reading
    minutes = reading.age(now) / 60
    stale = " (stale: chores refuse readings over 90 min old)" if minutes > 90 else ""
    return f"last status-line reading {minutes:.0f} min old{stale}"
