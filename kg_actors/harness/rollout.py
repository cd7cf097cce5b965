"""Where a Codex shell command ran, from the session's own rollout (never a guess).

Codex's PostToolUse hook reports the session's cwd, not the directory a
command ran in, so a relative operand of `cat x.py` is placed only on evidence:
the one completed CommandExecution item in the rollout whose id is the hook's
`tool_use_id`, in the same thread (and turn, when the hook names one), with an
absolute (or local `file:`) cwd. The read is bounded: the last 256 KiB, at most
2,048 records, 50 ms. (No cache: a live rollout grows with every event, so
the tail is read afresh, off the event loop.)
Missing, ambiguous or malformed evidence means "unknown": the relative operand
is skipped, an absolute one still counts.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..core import strict_json

MAX_BYTES = 256 * 1024
MAX_RECORDS = 2_048
MAX_SECONDS = 0.05
_Record = tuple[object, object, object, str | None]


def _local_dir(value: object) -> str | None:
    if not isinstance(value, str) or not value or "\x00" in value:
        return None
    if value.startswith("file:"):
        try:
            uri = urlsplit(value)
        except ValueError:
            return None
        if uri.netloc not in ("", "localhost") or uri.query or uri.fragment:
            return None
        value = unquote(uri.path)
    return value if os.path.isabs(value) and "\x00" not in value else None


def _records(path: Path, deadline: float) -> dict[str, list[_Record]] | None:
    """Call id -> [(thread, turn, status, cwd)] of the completed command records in the rollout's tail."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        start = max(0, st.st_size - MAX_BYTES)
        f.seek(start)
        data = f.read(st.st_size - start)
    if start:
        data = data.partition(b"\n")[2]  # the first line may have begun before the tail
    data = data[: data.rfind(b"\n") + 1]  # a partial last line is still being written
    lines = data.splitlines()
    if len(lines) > MAX_RECORDS:
        return None
    found: dict[str, list[_Record]] = {}
    for line in lines:
        if time.monotonic() > deadline:
            return None
        if b"CommandExecution" not in line:
            continue
        try:
            row = strict_json.loads(line)
        except ValueError:  # torn, or numbers and nesting no reader should take
            continue
        event = row.get("payload") if isinstance(row, dict) and row.get("type") == "event_msg" else None
        if not isinstance(event, dict) or event.get("type") != "item_completed":
            continue
        item = event.get("item")
        if not isinstance(item, dict) or item.get("type") != "CommandExecution":
            continue
        call_id = item.get("id")
        if isinstance(call_id, str) and call_id:
            found.setdefault(call_id, []).append(
                (event.get("thread_id"), event.get("turn_id"), item.get("status"), _local_dir(item.get("cwd"))))
    return found


def shell_cwd(rollout: Path, call_id: object, thread_id: object, turn_id: object = None) -> str | None:
    """The directory the call ran in, on exact evidence from a (safe) rollout path; else None."""
    if not isinstance(call_id, str) or not call_id or not isinstance(thread_id, str) or not thread_id:
        return None
    try:
        records = _records(rollout, time.monotonic() + MAX_SECONDS)
    except (OSError, ValueError):
        return None
    candidates = (records or {}).get(call_id, [])
    if len(candidates) != 1:
        return None  # missing, or ambiguous
    thread, turn, status, cwd = candidates[0]
    if thread != thread_id or (isinstance(turn_id, str) and turn_id and turn != turn_id):
        return None
    if status not in ("completed", "failed"):
        return None
    return cwd
