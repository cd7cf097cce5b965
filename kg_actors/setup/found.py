"""What setup found of each agent before it plans: facts read from their files and CLIs, no decisions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from .other_plugins import OtherPlugin


@attrs.frozen
class ClaudeFound:
    cli: str | None
    error: str | None = None
    marketplace: str | None = None  # where the registered kg-local marketplace points
    installed: bool = False
    enabled: bool = False
    cache_current: bool = False  # the installed copy holds the rendered plugin
    settings: dict[str, Any] | None = None  # its settings.json (for the quota gauge step)
    own_server: str | None = None  # where the user's own `kg` MCP server entry is: it would hide or double the plugin's
    own_remove: str = "claude mcp remove kg --scope user"  # the command that takes it out
    own_entry: Any = None  # that entry: another program's server of that name is renamed, never removed
    others: tuple[OtherPlugin, ...] = ()  # other kg memory plugins it enables (kg-memory's): each hook would run twice
    in_projects: frozenset[str] = frozenset()  # plugins installed for a project or its local settings only


@attrs.frozen
class CodexFound:
    cli: str | None
    error: str | None = None
    marketplace: str | None = None
    installed: bool = False
    enabled: bool = False
    cache_current: bool = False
    trusted: bool = False  # every hook of the plugin has a trust entry
    own_server: str | None = None  # where the user's own `kg` MCP server entry is: it would hide or double the plugin's
    others: tuple[OtherPlugin, ...] = ()
    own_entry: Any = None


@attrs.frozen
class DesktopFound:
    config: Path | None  # None: Claude Desktop is not installed
    error: str | None = None
    entry: dict[str, Any] | None = None  # its mcpServers.kg now
    ours: dict[str, Any] | None = None  # what setup wrote last time, per the record (entry_refresh.recorded_entry)
    others: tuple[str, ...] = ()  # its other mcpServers that run `kg mcp` (kg-memory's knowledge-graph)


@attrs.frozen
class GeminiFound:
    cli: str | None
    settings: Path
    present: bool = True  # `gemini` on PATH, or its ~/.gemini folder exists
    error: str | None = None
    installed: bool = False  # our hooks and MCP server are in its settings as setup would write them
    foreign: bool = False  # its mcpServers.kg is someone else's (files.foreign_entry)
    customized: bool = False  # its mcpServers.kg holds the user's changes to kg's entry: kept so
    entry: Any = None  # its mcpServers.kg now
    target: Any = None  # what setup leaves as its mcpServers.kg (entry_refresh.refreshed); None: foreign or none
    want: Any = None  # what setup writes as its mcpServers.kg (None: Claude Desktop's entry, the same but trust)
    comments: bool = False  # its settings.json holds comments, which setup's rewrite would lose


@attrs.frozen
class ChoresFound:
    path: Path  # the store's chores.json
    enabled: bool = False  # it switches chores on
    error: str | None = None  # why it cannot be read as the server reads it


@attrs.frozen
class OpenCodeFound:
    cli: str | None
    config: Path
    present: bool = True  # `opencode` on PATH, or its config folder exists
    error: str | None = None
    installed: bool = False  # the plugin file and mcp.kg are as setup would write them
    foreign: bool = False  # its mcp.kg is someone else's (files.foreign_entry)
    plugin_current: bool = False  # the plugin file is as setup would write it
    customized: bool = False  # its mcp.kg holds the user's changes to kg's entry: kept so
    entry: Any = None  # its mcp.kg now
    target: Any = None  # what setup leaves as its mcp.kg (entry_refresh.refreshed); None: foreign or none
    want: Any = None  # the mcp.kg setup writes


@attrs.frozen
class AntigravityFound:
    cli: str | None
    package: Path  # the native plugin folder inside the installed plugin
    installed: bool = False  # setup installed it (the record says so)


@attrs.frozen
class Found:
    marketplace_dir: Path
    marketplace_current: bool
    plugin_key: str  # "kg-memory@kg-local"
    desktop_entry: dict[str, Any]  # the entry setup writes
    claude: ClaudeFound
    codex: CodexFound
    desktop: DesktopFound
    gemini: GeminiFound | None = None
    antigravity: AntigravityFound | None = None
    opencode: OpenCodeFound | None = None
    chores: ChoresFound | None = None
    claude_settings: Path = Path("settings.json")  # Claude Code's settings.json (the gauge step's file)
    kg_argv: tuple[str, ...] = ("kg",)
    store: Path | None = None  # the store setup wires (the gauge's command names it)
    default_store: Path = Path("~/.knowledge-graph")  # where a command naming no store records
