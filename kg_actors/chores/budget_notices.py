"""Budget notices on the hook replies the server already sends (prompt and tool-event replies).

The session's own harness gauge decides: Claude Code's status-line file (no
notices without it), or a Codex session's own rollout (its `transcript_path`).
Readings are cached for a minute, so a hook costs a dict lookup most of the
time and one off-loop read a minute at most; what each session was told lives
here, on the event loop only (no await between its read and its write).
Off with `"budget_notices": false` in chores.json or KG_BUDGET_NOTICES=0.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import trio

from ..core import budget
from ..core.chores import Reading
from . import gauge_files
from .config import ConfigWatcher

REFRESH_S = 60.0
MAX_SESSIONS = 4096  # told-state kept; the oldest sessions are forgotten past this


class BudgetNotices:
    def __init__(self, root: Path, watcher: ConfigWatcher | None = None):
        self.root = root
        self.watcher = watcher or ConfigWatcher(root)
        self._enabled: tuple[float, bool] = (-1e18, True)
        self._readings: dict[str, tuple[float, Reading | str]] = {}  # gauge key -> (read at, reading)
        self._told: dict[str, budget.Told] = {}

    async def _on(self, now: float) -> bool:
        checked, on = self._enabled
        if now - checked >= REFRESH_S:
            on = (await trio.to_thread.run_sync(self.watcher.current)).budget_notices
            self._enabled = (now, on)
        return on

    async def _reading(self, payload: dict[str, Any], now: float) -> Reading | str:
        transcript = payload.get("transcript_path")
        codex = isinstance(transcript, str) and os.path.basename(transcript).startswith("rollout-") \
            and transcript.endswith(".jsonl")
        key = f"codex:{transcript}" if codex else "claude"
        cached = self._readings.get(key)
        if cached is None or now - cached[0] >= REFRESH_S:
            if codex:
                got = await trio.to_thread.run_sync(gauge_files.read_codex_rollout, Path(str(transcript)), now)
            else:
                got = await trio.to_thread.run_sync(gauge_files.read_claude, self.root, now)
            if len(self._readings) >= MAX_SESSIONS:
                self._readings.pop(next(iter(self._readings)))
            cached = self._readings[key] = (now, got)
        return cached[1]

    async def attach(self, event: str, payload: dict[str, Any], reply: dict[str, Any], now: float) -> dict[str, Any]:
        """`reply` with the notice due for this session added to its context (or as its context)."""
        sid = payload.get("session_id")
        if not isinstance(sid, str) or not sid or not await self._on(now):
            return reply
        reading = await self._reading(payload, now)
        if isinstance(reading, str):
            return reply  # silent without a readable gauge
        text, told = budget.notice(reading, self._told.get(sid, {}), now)
        if text is None:
            return reply
        if sid not in self._told and len(self._told) >= MAX_SESSIONS:
            self._told.pop(next(iter(self._told)))
        self._told[sid] = told
        out = dict(reply)
        spec = dict(out.get("hookSpecificOutput") or {"hookEventName": event})
        before = spec.get("additionalContext")
        spec["additionalContext"] = f"{before}\n\n{text}" if before else text
        out["hookSpecificOutput"] = spec
        return out
