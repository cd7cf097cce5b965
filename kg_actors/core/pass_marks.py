"""What the server reads back from a stored kg_progress task of a pass or chore: when a pass completed, and the
ids passes and chores declined. Pure.

A task is stored flat (core/graph_ops.set_progress): the agent's state's own keys, `last_ts`, and `_trail`, the
last writes each with its `_ts`. A store written before that kept `state` and `trail` (each entry's `state`):
read too. Only a completed pass (the runbook's last save, `"cursor": "done"`) counts as maintained (spec 003
kg_progress): the cursor saved after each category is a pass under way, and one that died there reset nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

DONE = "done"  # the cursor of the runbook's last save (skills/kg-maintain/SKILL.md, step 5)
_TRAIL_READ = 10  # the newest trail entries read for declined ids


def _states(progress: object) -> Iterator[tuple[dict[str, Any], object]]:
    """Each saved state of the task with its time, newest record first: the record, then its trail."""
    if not isinstance(progress, dict):
        return
    old = progress.get("state")  # the older shape: {"state": {...}, "trail": [{"state": {...}}]}
    yield (old if isinstance(old, dict) else progress), progress.get("last_ts")
    for name in ("_trail", "trail"):
        trail = progress.get(name)
        if isinstance(trail, list):
            for entry in reversed(trail):
                if isinstance(entry, dict):
                    inner = entry.get("state")
                    yield (inner if isinstance(inner, dict) else entry), entry.get("_ts", entry.get("ts"))


def _stamp(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def completed_ts(progress: object) -> float | None:
    """When the task last recorded a completed pass (`"cursor": "done"`), or None: never."""
    done = [t for state, ts in _states(progress) if _is_done(state.get("cursor")) and (t := _stamp(ts)) is not None]
    return max(done, default=None)


def _is_done(cursor: object) -> bool:
    return isinstance(cursor, str) and cursor.strip().lower() == DONE


def declined_ids(progress: object) -> frozenset[str]:
    """Ids named in the `declined` field of the task's newest state and its latest trail entries."""
    out: set[str] = set()
    for n, (state, _ts) in enumerate(_states(progress)):
        if n > _TRAIL_READ:
            break
        d = state.get("declined")
        if isinstance(d, list):
            out.update(x for x in d if isinstance(x, str))
        elif isinstance(d, str):
            out.update(p.strip() for p in re.split(r"[,;\s]+", d) if p.strip())
    return frozenset(out)
