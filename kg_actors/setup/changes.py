"""What changed since `kg setup` wired an agent, said from what was found (`kg doctor`): pure, no I/O."""

from __future__ import annotations

from typing import Any

from .entry_refresh import reach_said
from .found import ClaudeFound, CodexFound, Found


def _cli_plugin(c: ClaudeFound | CodexFound, found: Found, agent: str) -> list[str]:
    key, market, mdir = found.plugin_key, found.plugin_key.split("@")[1], str(found.marketplace_dir)
    out = []
    if c.marketplace is None:
        out.append(f"the {market} marketplace is no longer registered in {agent}")
    elif c.marketplace != mdir:
        out.append(f"the {market} marketplace points at {c.marketplace}, not {mdir}")
    if not c.installed:
        out.append(f"the plugin {key} is no longer installed")
    elif not c.cache_current:
        out.append(f"{agent}'s installed copy of {key} is not this kg's plugin (kg was upgraded, or the copy edited)")
    elif not c.enabled:
        out.append(f"the plugin {key} is disabled")
    if isinstance(c, CodexFound) and not c.trusted:
        out.append(f"Codex no longer trusts the hooks of {key} (it runs no untrusted hook)")
    return out


def _reach(entry: Any, found: Found) -> str:
    """Where kg's entry sends `kg mcp` when it is not this store's server (a setup with another port or store)."""
    reach = reach_said(entry, found.desktop_entry, found.default_store)
    return f" (its kg tools reach another server: {reach})" if reach else ""


def what_changed(name: str, found: Found) -> str:
    """Why the agent `name`, which setup wired, would be wired again: what differs from what it left."""
    out = []
    plugin_files = {"claude", "codex", "gemini", "antigravity"}
    if name in plugin_files and not found.marketplace_current:
        out.append(f"the plugin files in {found.marketplace_dir} are not this kg's (kg was upgraded, or they were "
                   "edited or removed)")
    if name == "claude":
        out += _cli_plugin(found.claude, found, "Claude Code")
    elif name == "codex":
        out += _cli_plugin(found.codex, found, "Codex")
    elif name == "desktop":
        d = found.desktop
        out.append(f"mcpServers.kg is gone from {d.config}" if d.entry is None
                   else f"mcpServers.kg in {d.config} is not the entry setup wrote{_reach(d.entry, found)}")
    elif name == "gemini" and found.gemini is not None and not found.gemini.installed:
        out.append(f"kg's hooks or MCP server in {found.gemini.settings} were removed or changed"
                   f"{_reach(found.gemini.entry, found)}")
    elif name == "opencode" and found.opencode is not None:
        out.append(f"the kg-memory plugin or mcp.kg in {found.opencode.config} was removed or changed"
                   f"{_reach(found.opencode.entry, found)}")
    elif name == "gauge":
        out.append(f"Claude Code's status line in {found.claude_settings} no longer runs kg gauge")
    return "; ".join(out) or "it is no longer as setup left it"
