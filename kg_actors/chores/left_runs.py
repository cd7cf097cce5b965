"""A run the previous server left: its outcome never logged, perhaps its agent still running.

The supervisor keeps the running chore's leash (pid = its process group, and the process's start
time) in chore_state.json. At startup, before any dispatch, a group still alive is ended, not
waited for: the server that read its output and timed it is gone, so its result can be neither
timed nor logged, and a chore is small and picked again later. The start time (Linux /proc) tells
a live leash from an unrelated process that reused its pid. Every dispatch in chores.jsonl with no
outcome line is then closed with an `interrupted` line.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import trio

OUTCOMES = frozenset({"done", "spawn_failed", "interrupted"})
STOPPED = "interrupted: the server stopped during the run"


def process_start(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (/proc, Linux); None where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if fields[0] == "Z":
        return None  # a zombie has ended
    return int(fields[19])  # field 22 of stat; the split starts at field 3


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


async def end_left_run(entry: Mapping[str, Any], grace: float) -> str:
    """End what is left of the recorded run's process group; says what was found and done."""
    pid, born = entry.get("pid"), entry.get("proc_start")
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 1:
        return "its process was not recorded"
    if born is None:  # no /proc here: a reused pid cannot be told apart (the leash ended the group anyway)
        return f"whether its agent (pid {pid}) still runs could not be checked"
    now_born = process_start(pid)
    if now_born is not None and now_born != born:
        return f"its agent (pid {pid}) had ended; that pid is another process's now"
    if now_born is None and not _group_alive(pid):
        return f"its agent (pid {pid}) had ended"
    # The leash lives, or its group does (no new group can take that id while the group lives).
    _signal(pid, signal.SIGTERM)
    with trio.move_on_after(grace):
        while _group_alive(pid):
            await trio.sleep(0.05)  # not our children: no wait() to await
    _signal(pid, signal.SIGKILL)
    return f"its agent (pid {pid}) was still running: its process group was ended"


def open_runs(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dispatches of chores.jsonl that no outcome closes. An outcome names its run's start (`started`);
    an older one without it closes the latest open run on its graph (one run at a time)."""
    pending: list[dict[str, Any]] = []
    for rec in records:
        event = rec.get("event")
        if event == "dispatch":
            pending.append(rec)
        elif event in OUTCOMES:
            started = rec.get("started")
            match = next((r for r in reversed(pending) if (r.get("ts") == started if started is not None
                                                            else r.get("graph") == rec.get("graph"))), None)
            if match is not None:
                pending.remove(match)
    return pending


def closing(run: Mapping[str, Any], fate: str | None, leash: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `interrupted` line's fields for an open run (its time is when this server noticed it). `leash`: its
    entry in chore_state.json, with the kg calls counted until the server stopped (a build before kept none)."""
    reason = STOPPED + (f"; {fate}" if fate else "")
    out = {"tier": run.get("tier"), "graph": run.get("graph"), "runner": run.get("runner"),
           "started": run.get("ts", run.get("started")), "reason": reason}
    counts = {k: (leash or {}).get(k) for k in ("kg_calls", "kg_writes")}
    if all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts.values()):
        out.update(counts)
    return out
