"""ToolEvents: each project's tool-event counters and nudge throttles (tool_events.json), owned by the registry.

Loaded per project on first use; what changed is saved with the registry's
saves (dirty files only, pruned of expired records first). Only the session
registry's task touches it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .core import capture
from .storage import files


class ToolEvents:
    def __init__(self) -> None:
        self._by_path: dict[str, dict[str, Any]] = {}
        self._dirty: set[str] = set()

    def _events(self, path: str) -> dict[str, Any]:
        events = self._by_path.get(path)
        if events is None:
            try:
                raw = files.load_json(Path(path))
            except (files.Unreadable, OSError):
                raw = None
            events = raw if isinstance(raw, dict) else {}
            self._by_path[path] = events
        return events

    def count(self, path: str, key: str, harness_sid: str, now: float) -> dict[str, Any]:
        """Count a read or fetch of `key`; the target's record as it stands now."""
        record = capture.count_event(self._events(path), key, harness_sid, now)
        self._dirty.add(path)
        return dict(record)

    def claim_nudge(self, path: str, key: str, kg_sid: str, now: float) -> bool:
        """Whether a nudge for `key` may go to this session now; if so, it is recorded."""
        events = self._events(path)
        record = events.get("events", {}).get(key)
        if record is None or not capture.throttle_allows(events, record, kg_sid, now):
            return False
        capture.record_nudge(events, record, kg_sid, now)
        self._dirty.add(path)
        return True

    def activity_days(self, path: str) -> frozenset[str]:
        return frozenset(
            time.strftime("%Y-%m-%d", time.gmtime(r["last_ts"]))
            for r in self._events(path).get("events", {}).values() if isinstance(r.get("last_ts"), int | float)
        )

    def dirty(self, now: float) -> list[tuple[Path, bytes]]:
        """The changed files' bytes (expired records pruned); they count as saved from here."""
        out = []
        for path in sorted(self._dirty):
            capture.prune(self._by_path[path], now)
            out.append((Path(path), files.dump_json(self._by_path[path], indent=None)))
        self._dirty.clear()
        return out
