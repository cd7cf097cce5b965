"""Setup's and uninstall's actions on another kg memory's wiring (kg-memory's plugin, its tools' permission
rules, its Claude Desktop server): switched off or taken out, each on record, and put back by uninstall."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import claude, codex, desktop
from .files import Record, atomic_write, read_bytes
from .plan import Action

SETUP_KINDS = ("disable_other", "claude_drop_rules", "desktop_drop_other")
UNDO_KINDS = ("enable_other", "claude_rules_back", "desktop_other_back")
Run = Callable[[tuple[str, ...]], None]  # runs an agent's CLI (run.py's, which names a failure)


def _set_enabled(argv: tuple[str, ...], enabled: bool, env: dict[str, str], home: Path, run: Run) -> None:
    """Another kg memory plugin on or off, where its agent keeps that: Claude Code's CLI, Codex's config."""
    agent, cli, key = argv
    if agent == "claude":
        run((cli, "plugin", "enable" if enabled else "disable", key, "--scope", "user"))
    else:
        codex.set_enabled(cli, env, home, key, enabled)


def apply(action: Action, record: Record, step: str, env: dict[str, str], home: Path, run: Run) -> None:
    done = record.done(step)
    if action.kind == "disable_other":
        _set_enabled(action.argv, False, env, home, run)
        record.mark(step, disabled=sorted({*done.get("disabled", []), action.argv[2]}))
        return
    assert action.path is not None  # plan.py gives both file actions their path
    if action.kind == "claude_drop_rules":
        data, held = claude.without_permissions(read_bytes(action.path), action.path, list(action.argv))
        if data is not None:
            atomic_write(action.path, data)
            record.mark(step, dropped_rules=sorted({*done.get("dropped_rules", []), *held}))
    elif action.kind == "desktop_drop_other":
        data, entry = desktop.without_other(read_bytes(action.path), action.path, action.argv[0])
        if data is not None:
            atomic_write(action.path, data)
            record.mark(step, config=str(action.path), dropped={**done.get("dropped", {}), action.argv[0]: entry})


def undo(action: Action, record: Record, env: dict[str, str], home: Path, run: Run) -> None:
    if action.kind == "enable_other":
        _set_enabled(action.argv, True, env, home, run)
        return
    assert action.path is not None
    raw = read_bytes(action.path)
    changed: bytes | None = None
    if raw is not None and action.kind == "claude_rules_back":
        changed = claude.with_permissions(raw, action.path, list(action.argv))
    elif raw is not None and action.kind == "desktop_other_back":
        entry: Any = (record.done("desktop").get("dropped") or {}).get(action.argv[0])
        changed = desktop.with_other(raw, action.path, action.argv[0], entry)
    if changed is not None:
        atomic_write(action.path, changed)
