"""The tick's readings of each graph (its DEBT score and the active render's size), kept for the editor's chart.

One small JSON-lines file per graph beside its graph file (`user.readings.jsonl`,
`projects/<slug>/graph.readings.jsonl`), appended through the logbook (off the
event loop). A graph gets a line at most every READING_EVERY_SECONDS unless a
value moved, and the file is rotated once past READINGS_MAX_BYTES (one `.prev`
kept), so a graph's readings never take more than twice that: about two weeks
of ten-minute readings. A project's readings live in its folder and move with it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import constants as C
from .core.debt import Debt
from .storage.logs import read_jsonl

if TYPE_CHECKING:
    from .logbook import Logbook

READING_EVERY_SECONDS = 600.0
READINGS_MAX_BYTES = 192_000  # ~1,000 lines of ~190 bytes (the factors included)


def readings_path(graph_file: Path) -> Path:
    return graph_file.with_name(graph_file.stem + ".readings.jsonl")


class Readings:
    """Which reading each graph had last, so an unchanged graph is written down only now and then."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[float, float, int]] = {}  # key -> (ts, debt score, charge)

    def note(self, key: str, graph_file: Path, now: float, debt: Debt, charge: int, logbook: Logbook) -> bool:
        last = self._last.get(key)
        if last is not None and now - last[0] < READING_EVERY_SECONDS and last[1:] == (debt.score, charge):
            return False
        self._last[key] = (now, debt.score, charge)
        record = {"ts": round(now, 1), "debt": debt.score, "debt_level": debt.level, "charge": charge,
                  "budget": C.MAX_CHARS_PER_LEVEL, "active": debt.nodes,
                  # The wear behind the score, for the Budget tab's factors over time.
                  "factors": {"oversized": debt.oversized, "unconnected": debt.unconnected, "long_ids": debt.long_ids,
                              "dangling": debt.dangling_touches, "lift": len(debt.lift_clusters),
                              "smeared": len(debt.smeared)}}
        logbook.append(readings_path(graph_file), [record], READINGS_MAX_BYTES)
        return True


def read_readings(graph_file: Path) -> list[dict[str, Any]]:
    """Every kept reading, oldest first (worker thread). A torn or foreign line is skipped."""
    out = [r for r in read_jsonl(readings_path(graph_file)) if isinstance(r.get("ts"), int | float)]
    out.sort(key=lambda r: r["ts"])
    return out
