"""Budget notices on the hook replies the server already sends (prompt and tool-event replies).

The session's own harness gauge decides: Claude Code's status-line file (no
notices without it), a Codex session's own rollout (its `transcript_path`,
read only under CODEX_HOME or ~/.codex), or Antigravity's `agy /usage`. A
harness without a gauge of its own is told nothing: another agent's quota is
not its quota. Readings are cached for a minute, so a hook costs a dict lookup
most of the time and one off-loop file read a minute at most; `agy /usage` (a
process, seconds) is never run by a hook but after a prompt's reply is out
(`refresh`), so an Antigravity conversation is told from its next prompt on.
What each session was told lives here, on the event loop only (no await
between its read and its write), and in budget_told.json across restarts.
Off with `"budget_notices": false` in chores.json or KG_BUDGET_NOTICES=0.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import trio

from ..core import budget
from ..core.chores import Reading
from ..harness import profiles
from . import budget_told, gauge_files, runners
from .config import ConfigWatcher

REFRESH_S = 60.0
MAX_SESSIONS = 4096  # told-state kept; the oldest sessions are forgotten past this
NOT_READ = "no reading taken yet"


class BudgetNotices:
    def __init__(self, root: Path, watcher: ConfigWatcher | None = None, env: Mapping[str, str] | None = None):
        self.root = root
        self.env = dict(os.environ if env is None else env)
        self.watcher = watcher or ConfigWatcher(root, self.env)
        self._enabled: tuple[float, bool] = (-1e18, True)
        self._readings: dict[str, tuple[float, Reading | str]] = {}  # gauge key -> (read at, reading)
        self._told: dict[str, budget.Told] | None = None  # loaded on first use
        self._dirty = self._saving = False

    async def _on(self, now: float) -> bool:
        checked, on = self._enabled
        if now - checked >= REFRESH_S:
            on = (await trio.to_thread.run_sync(self.watcher.current)).budget_notices
            self._enabled = (now, on)
        return on

    def _gauge(self, payload: dict[str, Any]) -> str | None:
        """The cache key of the session's own gauge: "claude", "codex:<rollout>", "agy"; None: it has none."""
        harness = profiles.of_payload(payload)
        if harness == profiles.CLAUDE_CODE:
            return "claude"
        if harness == profiles.ANTIGRAVITY:
            return "agy"
        if harness == profiles.CODEX:
            rollout = gauge_files.codex_rollout(payload.get("transcript_path"), self.env)
            return f"codex:{rollout}" if rollout is not None else None
        return None

    def _keep(self, key: str, now: float, got: Reading | str) -> Reading | str:
        if key not in self._readings and len(self._readings) >= MAX_SESSIONS:
            self._readings.pop(next(iter(self._readings)))
        self._readings[key] = (now, got)
        return got

    async def _reading(self, key: str, now: float) -> Reading | str:
        cached = self._readings.get(key)
        if cached is not None and now - cached[0] < REFRESH_S:
            return cached[1]
        if key == "agy":  # a process: only `refresh` runs it, after a reply is out
            return cached[1] if cached is not None else NOT_READ
        if key == "claude":
            got = await trio.to_thread.run_sync(gauge_files.read_claude, self.root, now)
        else:
            got = await trio.to_thread.run_sync(gauge_files.read_codex_rollout, Path(key.removeprefix("codex:")),
                                                now)
        return self._keep(key, now, got)

    async def refresh(self, payload: dict[str, Any], now: float) -> None:
        """After a prompt's reply: take an Antigravity reading when the cached one is a minute old."""
        cached = self._readings.get("agy")
        if self._gauge(payload) != "agy" or (cached is not None and now - cached[0] < REFRESH_S):
            return
        if not await self._on(now):
            return
        cfg = await trio.to_thread.run_sync(self.watcher.current)
        binary = runners.find_binary("antigravity", cfg, self.env)
        if binary is None:
            self._keep("agy", now, "agy binary missing")
            return
        self._keep("agy", now, NOT_READ)  # one read at a time: a prompt meanwhile sees it taken
        got = await gauge_files.read_agy(binary, self.root, runners.chore_env(self.env, "antigravity"), now,
                                         cfg.antigravity_model)
        self._keep("agy", now, got)

    async def due(self, payload: dict[str, Any], now: float) -> str | None:
        """The notice due for this session now (then recorded as told), or None."""
        sid = payload.get("session_id")
        if not isinstance(sid, str) or not sid or not await self._on(now):
            return None
        key = self._gauge(payload)
        if key is None:
            return None
        reading = await self._reading(key, now)
        if isinstance(reading, str):
            return None  # silent without a readable gauge
        if self._told is None:
            loaded = await trio.to_thread.run_sync(budget_told.load, self.root)
            if self._told is None:  # another hook may have loaded it meanwhile
                self._told = loaded
        text, told = budget.notice(reading, self._told.get(sid, {}), now)
        if text is None:
            return None
        if sid not in self._told and len(self._told) >= MAX_SESSIONS:
            self._told.pop(next(iter(self._told)))
        self._told[sid] = told
        await self._save()
        return text

    async def _save(self) -> None:
        """One writer at a time; a change made while it writes is written after it (newest state last)."""
        self._dirty = True
        if self._saving:
            return
        self._saving = True
        try:
            while self._dirty and self._told is not None:
                self._dirty = False
                await trio.to_thread.run_sync(budget_told.save, self.root, dict(self._told))
        finally:
            self._saving = False

    async def attach(self, event: str, payload: dict[str, Any], reply: dict[str, Any], now: float) -> dict[str, Any]:
        """`reply` with the notice due for this session added to its context (or as its context)."""
        text = await self.due(payload, now)
        if text is None:
            return reply
        out = dict(reply)
        spec = dict(out.get("hookSpecificOutput") or {"hookEventName": event})
        before = spec.get("additionalContext")
        spec["additionalContext"] = f"{before}\n\n{text}" if before else text
        out["hookSpecificOutput"] = spec
        return out
