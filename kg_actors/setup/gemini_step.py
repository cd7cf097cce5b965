"""Gemini's setup step against this machine: what is in its settings.json and the write. What the entries hold is
gemini.py's; when to write them, plan.py's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from . import SetupError, gemini
from .entry_refresh import recorded_entry, refreshed
from .files import Record, atomic_write, foreign_entry, read_bytes, unrecorded
from .found import GeminiFound
from .plugin import kg_command, passed_env


def want(env: dict[str, str], plugin_dir: Path) -> dict[str, Any]:
    """The hooks and the MCP server setup writes, for the plugin installed in `plugin_dir`."""
    return gemini.wanted(plugin_dir, kg_command(), passed_env(env))


def found(env: dict[str, str], home: Path, record: Record, plugin_dir: Path) -> GeminiFound:
    path = gemini.settings_path(env, home)
    cli = shutil.which("gemini", path=env.get("PATH"))
    try:
        raw = read_bytes(path)
        data, comments = gemini.current(raw, path), gemini.holds_comments(raw, path)
    except SetupError as exc:
        return GeminiFound(cli, path, True, str(exc))
    wanted = want(env, plugin_dir)
    theirs, ours = data.get("mcpServers", {}).get(gemini.SERVER), wanted["mcpServers"][gemini.SERVER]
    recorded = _recorded(record, theirs, ours, home)
    foreign = foreign_entry(theirs, ours, recorded, unrecorded(record.done("gemini")))
    target = None if theirs is None or foreign else refreshed(theirs, ours, recorded)
    return GeminiFound(cli, path, cli is not None or path.parent.is_dir(), None,
                       target is not None and gemini.installed(data, wanted, target), foreign,
                       target is not None and target != ours, theirs, target, ours, comments)


def _recorded(record: Record, theirs: Any, ours: dict[str, Any], home: Path) -> Any:
    """The entry setup wrote last time. A setup before trust was written, and before it kept a record of the entry,
    wrote `ours` without it: that very entry is setup's, to be trusted now, not the user's to keep."""
    recorded = recorded_entry(record, "gemini", theirs, home)
    untrusted = {k: v for k, v in ours.items() if k != "trust"}
    return untrusted if recorded is None and theirs == untrusted else recorded


def write(env: dict[str, str], home: Path, record: Record, path: Path, plugin_dir: Path) -> None:
    """Our hooks, and kg's MCP server as setup writes it now with the user's changes to its last one kept."""
    record.note_made("gemini", path)
    wanted = want(env, plugin_dir)
    raw = read_bytes(path)
    theirs = gemini.current(raw, path).get("mcpServers", {}).get(gemini.SERVER)
    ours = wanted["mcpServers"][gemini.SERVER]
    server = refreshed(theirs, ours, _recorded(record, theirs, ours, home))
    atomic_write(path, gemini.merged(raw, wanted, path, server))
    record.mark("gemini", path=str(path), entry=wanted["mcpServers"][gemini.SERVER])
