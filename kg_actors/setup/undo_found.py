"""What `kg uninstall` plans from: the setup record, each recorded file checked against what setup left, the
agents' CLIs, and which MCP server entries named kg stay (the user's own: the plan says only what goes)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from . import claude, desktop, entry_kept, gemini, opencode_step, statusline
from .files import Record, digest, read_bytes
from .plan import Undo
from .plugin import MARKETPLACE, Rendered, kg_command, passed_env


def entries_kept(record: Record, env: dict[str, str], marketplace_dir: Path, plugin: Rendered) -> frozenset[str]:
    """The steps whose kg entry uninstall leaves (judged as entry_kept does at the removal, said then)."""
    wants: dict[str, tuple[str, Any]] = {
        "gemini": ("path", gemini.wanted(marketplace_dir / plugin.name, kg_command(), passed_env(env))["mcpServers"]
                   [gemini.SERVER]),
        "opencode": ("path", opencode_step.want(plugin, env)[1]),
        "desktop": ("config", desktop.entry(kg_command(), passed_env(env)))}
    kept = set()
    for step, (key, want) in wants.items():
        where = record.done(step).get(key)
        if where and entry_kept.kept(lambda _said: None, record, step, Path(where), want):
            kept.add(step)
    return frozenset(kept)


def undo_of(record: Record, env: dict[str, str], home: Path, marketplace_dir: Path, record_path: Path,
            plugin: Rendered) -> Undo:
    files = {path: digest(read_bytes(path)) == after for path, (_before, after) in record.files().items()}
    return Undo(record.data["done"], files, marketplace_dir, record_path,
                record.data.get("plugin") or f"kg-memory@{MARKETPLACE}",
                shutil.which("claude", path=env.get("PATH")), shutil.which("codex", path=env.get("PATH")),
                shutil.which("agy", path=env.get("PATH")), claude.settings_path(env, home),
                claude.unreadable(claude.settings_path(env, home)) if record.done("claude") else None,
                claude.installed_now(env, home), entries_kept(record, env, marketplace_dir, plugin),
                _statusline_back(record, claude.settings_path(env, home)))


def _statusline_back(record: Record, settings: Path) -> str | None:
    """Another kg's gauge the gauge step replaced, read from the bytes settings.json had before setup."""
    where = record.done("gauge").get("path")
    before = record.files().get(Path(where) if where else settings)
    return statusline.replaced(before[0]) if before else None
